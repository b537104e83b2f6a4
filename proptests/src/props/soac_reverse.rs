//! Properties of engine `soac`'s reverse mode (seed 004 *AD for an Array Language with
//! Nested Parallelism*; `adora_rewrites::soac::reverse`), on random programs of the
//! seed-004 fragment: re-execution bounded by the nesting depth (§1, §4.1, row
//! `S004-X1b`) and loops run at most twice, checkpointing forward sweep and return
//! sweep (§4.3, row `S004-X4.3`), counted by `reverse::counted` after dead-code
//! elimination; and [`vjp_agrees`], the exact comparison of its VJP with the reference
//! that the proptests' integration tests run. Until engine `soac` is registered (its
//! rules of `reduce`, `scan`, `reduce_by_index` and `scatter_into` wired), the reverse
//! mode is asked through [`SoacReverse`], an engine of its own; programs it declines
//! (`unsupported`) make a case vacuous.

use super::util::{aux_rng, load, opts, random_value};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, Fragment, GenSpec, RetKind};
use crate::values::Rat;
use adora_core::ast::Function;
use adora_core::diag::{ErrorKind, Result};
use adora_rewrites::engine::harness::{ask, Answer, Query};
use adora_rewrites::engine::{DerivativeProgram, Engine, Question};
use adora_rewrites::soac::reverse::{self, Counts, Rules};
use adora_semantics::reference;

/// Engine `soac`'s reverse mode with the default [`Rules`] (the four SOACs without
/// bodies declined), as an engine for the harness.
pub struct SoacReverse;

impl Engine for SoacReverse {
    fn name(&self) -> &str {
        "soac-reverse"
    }
    fn programs(&self) -> &'static [Question] {
        &[Question::Grad, Question::Vjp]
    }
    fn program(&self, f: &Function, q: Question) -> Result<DerivativeProgram> {
        reverse::program(f, q)
    }
}

/// What [`vjp_agrees`] found.
#[derive(Debug)]
pub enum Verdict {
    /// The VJP equals the reference's exactly (or both fail with errors of one kind).
    Agrees,
    /// The reverse mode declines the program (`unsupported`).
    Declined,
    /// Nothing to compare (the program does not load, or has no real result).
    Vacuous,
    /// A difference or an unexpected error.
    Differs(String),
}

/// The case's VJP by [`SoacReverse`] for a random cotangent (the harness: program
/// built, re-checked and evaluated) compared with the reference's exactly.
pub fn vjp_agrees(case: &Case) -> Verdict {
    let Ok(f) = load(case) else {
        return Verdict::Vacuous;
    };
    if !f.ret.has_reals() {
        return Verdict::Vacuous;
    }
    let dp = match reverse::program(&f, Question::Vjp) {
        Err(d) if d.kind == ErrorKind::Unsupported => return Verdict::Declined,
        Err(d) => return Verdict::Differs(format!("no program: {d}")),
        Ok(dp) => dp,
    };
    if let Err(d) = dp.check(&f) {
        return Verdict::Differs(format!("the program does not re-check: {d}"));
    }
    let ct = random_value(&f.ret, &mut aux_rng(case, 41));
    let got = ask(
        &SoacReverse,
        &f,
        &case.inputs,
        &Query::Vjp(ct.clone()),
        &opts(),
    );
    let want = reference::vjp::<Rat>(&f, &case.inputs, &ct, &opts());
    match (got, want) {
        (Ok(a), Ok(b)) if a == Answer::Gradient(b.clone()) => Verdict::Agrees,
        (Ok(a), Ok(b)) => Verdict::Differs(format!(
            "vjp differs: engine {a:?}, reference {b:?}\n{}",
            adora_core::pretty::function(&dp.function)
        )),
        (Err(a), Err(b)) if a.kind == b.kind => Verdict::Agrees,
        (a, b) => Verdict::Differs(format!("engine {a:?}, reference {b:?}")),
    }
}

fn strategy() -> CaseStrategy {
    CaseStrategy {
        specs: vec![GenSpec::new(Fragment::Soac)
            .size(40)
            .ret(RetKind::RealScalar)],
    }
}

/// The counts and depths of the case's scopes; `None`: the program is declined.
fn counted(case: &Case) -> std::result::Result<Option<(Counts, Counts)>, String> {
    let f = load(case)?;
    match reverse::counted(&f, Question::Grad, Rules::default()) {
        Err(d) if d.kind == ErrorKind::Unsupported => Ok(None),
        Err(d) => Err(format!("no program: {d}")),
        Ok((_, counts)) => {
            let depths = reverse::depths(&f).map_err(|d| d.to_string())?;
            Ok(Some((counts, depths)))
        }
    }
}

fn bounded_by_depth(case: &Case) -> Outcome {
    let Some((counts, depths)) = counted(case)? else {
        return Pass::vacuous();
    };
    let mut worst: f64 = 0.0;
    for (label, c) in &counts {
        let Some(d) = depths.get(label) else { continue };
        if *c > d + 1 {
            return Err(format!(
                "scope `{label}` at depth {d} runs {c} times (more than {}): {counts:?}",
                d + 1
            ));
        }
        worst = worst.max(*c as f64);
    }
    Pass::figure(worst)
}

fn loops_twice(case: &Case) -> Outcome {
    let Some((counts, depths)) = counted(case)? else {
        return Pass::vacuous();
    };
    let (mut loops, mut twice) = (0, 0);
    for (label, c) in &counts {
        if !label.starts_with("loop ") || depths.get(label) != Some(&1) || *c == 0 {
            continue;
        }
        loops += 1;
        if *c > 2 {
            return Err(format!("loop scope `{label}` runs {c} times: {counts:?}"));
        }
        twice += usize::from(*c == 2);
    }
    if loops == 0 {
        return Pass::vacuous();
    }
    Pass::figure(twice as f64 / loops as f64)
}

/// The properties of the reverse mode.
pub fn properties() -> Vec<Property> {
    vec![
        Property {
            name: "soac/reexecution-bounded-by-depth",
            source: "seed 004 §1, §4.1",
            fragment: "soac",
            description: "in engine soac's VJP program, after dead-code elimination of re-executed statements, each scope's primal statements appear at most d + 1 times, d its nesting depth (main 0; each body of if, map or loop one more); programs the reverse mode declines are vacuous (the figure: the most copies of a scope)",
            figure: Some(Figure {
                label: "most copies of a scope",
                agg: Agg::Max,
            }),
            check: Check::Case {
                strategy,
                check: bounded_by_depth,
            },
        },
        Property {
            name: "soac/loop-executed-twice",
            source: "seed 004 §4.3",
            fragment: "soac",
            description: "with per-iteration checkpointing, a loop of the program's top scope runs at most twice in engine soac's VJP program: its checkpointing forward sweep and its re-execution in the return sweep (once only when no adjoint reaches it; the figure: the fraction of such loops run exactly twice)",
            figure: Some(Figure {
                label: "loops run exactly twice (fraction)",
                agg: Agg::Mean,
            }),
            check: Check::Case {
                strategy,
                check: loops_twice,
            },
        },
    ]
}
