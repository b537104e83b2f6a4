//! The phase runner checks its time limit within an iteration (issue 19): egg checks
//! limits only between rules, so one rule applied to many matches overran the limit by a
//! whole iteration. Here a rule whose every application sleeps 2 ms matches each of the
//! ~800 e-classes of a program: without the check the first iteration applies all of them
//! (1.6 s) before the limit of 50 ms is noticed; with it, the runner stops within a chunk
//! of matches past the deadline. The assertion counts applications, not time: each costs
//! at least 2 ms however slow the machine, so at most 25 fit in 50 ms, plus one chunk.

use adora_core::ErrorKind;
use adora_rewrites::ir::analysis::IrAnalysis;
use adora_rewrites::ir::lang::Ir;
use adora_rewrites::ir::runner::{run_phase, Phase, APPLY_CHUNK};
use adora_rewrites::ir::translate::translate;
use egg::{Applier, EGraph, Id, Pattern, PatternAst, Rewrite, Subst, Symbol};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Counts its applications, sleeps 2 ms in each, and adds nothing.
struct Slow(Arc<AtomicUsize>);

impl Applier<Ir, IrAnalysis> for Slow {
    fn apply_one(
        &self,
        _: &mut EGraph<Ir, IrAnalysis>,
        _: Id,
        _: &Subst,
        _: Option<&PatternAst<Ir>>,
        _: Symbol,
    ) -> Vec<Id> {
        self.0.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(2));
        Vec::new()
    }
}

#[test]
fn the_time_limit_stops_an_iteration_within_a_chunk_of_matches() {
    let terms: Vec<String> = (1..=400).map(|k| format!("{k}.0")).collect();
    let src = format!("def main(x: R) -> R = x + {}", terms.join(" + "));
    let f = adora_core::load(&src, "main").unwrap();
    let mut tr = translate(&f).unwrap();
    let classes = tr.egraph.number_of_classes();
    assert!(classes >= 800, "{classes} e-classes");
    let count = Arc::new(AtomicUsize::new(0));
    let every: Pattern<Ir> = "?a".parse().unwrap();
    let rules = vec![Rewrite::new("test/slow", every, Slow(count.clone())).unwrap()];
    let cfg = Phase::new("slow")
        .with_simple_scheduler()
        .with_time_limit(Duration::from_millis(50));
    let d = run_phase(&mut tr, &rules, &cfg).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Resource);
    assert!(d.message.contains("time limit"), "{}", d.message);
    let applied = count.load(Ordering::SeqCst);
    assert!(
        applied <= 25 + APPLY_CHUNK,
        "{applied} of {classes} applications"
    );
}
