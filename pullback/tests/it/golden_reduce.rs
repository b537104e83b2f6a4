//! Every golden `specs/programs/pullback/*.adp` with an expectation header is reduced and
//! compared exactly with its independently derived expectation (docs/engines/pullback.md,
//! "Files"): value, gradient, VJP and JVP through `ad`, the normal form of a closed term
//! through `Reducer::run`, and the step counters where the header states them. The running
//! example's full step trace is compared with `f1_running_reduce.trace`.
//!
//! Regenerate the trace golden after a deliberate change of the reduction with
//! `ADORA_BLESS=1 cargo test -p adora-pullback --test it golden_reduce::` (or by hand:
//! `adora reduce --trace specs/programs/pullback/f1_running_reduce.adp`, without the
//! last two lines, which are the normal form and the counters).

use adora_pullback::ad;
use adora_pullback::file::{self, AdpFile};
use adora_pullback::reduce::{Reducer, Stats};
use adora_pullback::syntax::Ty;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../specs/programs/pullback")
}

fn load(name: &str) -> AdpFile {
    let src = std::fs::read_to_string(dir().join(name)).expect(name);
    file::parse(&src).unwrap_or_else(|d| panic!("{}", d.render(name, &src)))
}

fn goldens() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir())
        .expect("the goldens directory")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".adp"))
        .collect();
    v.sort();
    v
}

/// The header's counters (only those it states) against a reduction's.
fn check_counters(name: &str, f: &AdpFile, s: &Stats) {
    let h = &f.header;
    if let Some(n) = h.steps {
        assert_eq!(s.steps, n, "{name}: steps");
    }
    for (rule, n) in &h.rules {
        assert_eq!(s.by_rule.get(rule.as_str()), Some(n), "{name}: rule {rule}");
    }
    let eq = |want: &BTreeMap<String, u64>, got: &BTreeMap<String, u64>, what: &str| {
        if !want.is_empty() {
            assert_eq!(got, want, "{name}: {what}");
        }
    };
    eq(&h.delta, &s.delta_f, "delta");
    eq(&h.delta_j, &s.delta_j, "delta-j");
}

/// Checks one file; returns how many expectations it compared.
fn check(name: &str) -> usize {
    let f = load(name);
    let h = &f.header;
    let r = Reducer::new().step_limit(h.step_limit.unwrap_or(1_000_000));
    let mut checked = 0;
    let Some((_, point)) = &h.input else {
        let out = r
            .run(&f.term)
            .unwrap_or_else(|d| panic!("{name}: {}", d.message));
        if let Some(nf) = &h.normal_form {
            assert_eq!(&out.value.to_string(), nf, "{name}: normal form");
            checked += 1;
        }
        check_counters(name, &f, &out.stats);
        return checked + h.rules.len() + h.delta.len() + h.steps.iter().count();
    };
    let input: &Ty = &point.ty;
    let fail = |d: adora_core::diag::Diagnostic| -> ! { panic!("{name}: {}", d.message) };
    let mut primal = None;
    if let Some(want) = &h.grad {
        let g = ad::grad(&f.term, input, &point.values, &r).unwrap_or_else(|d| fail(d));
        assert_eq!(g.derivative, want.values, "{name}: gradient");
        check_counters(name, &f, &g.outcome.stats);
        primal = Some(g.value);
        checked += 1;
    }
    if let (Some(cot), Some(want)) = (&h.cotangent, &h.vjp) {
        let v = ad::vjp(&f.term, input, &point.values, &cot.values, &r).unwrap_or_else(|d| fail(d));
        assert_eq!(v.derivative, want.values, "{name}: vjp");
        primal = Some(v.value);
        checked += 1;
    }
    if let (Some(tan), Some(want)) = (&h.tangent, &h.jvp) {
        let j = ad::jvp(&f.term, input, &point.values, &tan.values, &r).unwrap_or_else(|d| fail(d));
        assert_eq!(j.derivative, want.values, "{name}: jvp");
        assert_eq!(Some(&j.value), primal.as_ref().or(Some(&j.value)), "{name}");
        primal.get_or_insert(j.value);
        checked += 1;
    }
    if let Some(want) = &h.value {
        let got = primal.unwrap_or_else(|| panic!("{name}: a value without a derivative"));
        assert_eq!(got, want.values, "{name}: value");
        checked += 1;
    }
    checked
}

#[test]
fn every_golden_with_expectations_reduces_to_them() {
    let mut total = 0;
    for name in goldens() {
        let n = check(&name);
        assert!(n > 0, "{name}: a golden states at least one expectation");
        total += n;
    }
    assert!(total >= 30, "{total} expectations compared");
}

#[test]
fn nested_pullback_and_perturbation_confusion_goldens() {
    assert_eq!(check("f7_nested.adp"), 2);
    let f = load("f8_perturbation.adp");
    let one = adora_semantics::Rat::from_integer(1.into());
    assert_eq!(
        f.header.grad.as_ref().unwrap().values,
        vec![one],
        "answer 1, not 2"
    );
    assert_eq!(check("f8_perturbation.adp"), 2);
}

#[test]
fn running_example_trace_matches_its_golden() {
    let f = load("f1_running_reduce.adp");
    let out = Reducer::new().trace(true).run(&f.term).unwrap();
    let got = out.trace_text();
    let path = dir().join("f1_running_reduce.trace");
    if std::env::var_os("ADORA_BLESS").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    let want =
        std::fs::read_to_string(&path).expect("f1_running_reduce.trace (ADORA_BLESS=1 writes it)");
    assert_eq!(
        got, want,
        "the trace changed; see this module's doc to regenerate"
    );
    assert_eq!(out.trace.len() as u64, out.stats.steps);
    let last = want.lines().last().unwrap();
    assert!(last.ends_with(&out.value.to_string()), "{last}");
}
