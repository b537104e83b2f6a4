//! The direct let-lifting strategy (rewrites/src/tssa/egg/letlift_direct.rs; seed 001
//! §5.1, rules 5.1–5.10): exact results, the rule counts of its report, agreement with
//! equality saturation, and a term on which saturation runs out of e-nodes.

use adora_core::diag::ErrorKind;
use adora_core::tl::{Aff, Index, Term};
use adora_rewrites::tssa::egg::{
    is_ll_nf,
    letlift::{letlift_report, LetLiftOptions, Strategy},
    nf::spine,
    run::Limits,
};
use std::collections::BTreeMap;

fn v(x: &str) -> Term {
    Term::Var(x.into())
}
fn b(t: Term) -> Box<Term> {
    Box::new(t)
}
fn ix(i: &str) -> Index {
    let mut a = Aff::default();
    a.terms.insert(i.into(), 1);
    Index::Aff(a)
}
fn at(e: Term, i: &str) -> Term {
    Term::Access(b(e), ix(i))
}
fn mul(a: Term, c: Term) -> Term {
    Term::Mul(b(a), b(c))
}
fn add(a: Term, c: Term) -> Term {
    Term::Add(b(a), b(c))
}
fn gen(i: &str, n: u64, e: Term) -> Term {
    Term::Gen(i.into(), n, b(e))
}
fn sum(i: &str, n: u64, e: Term) -> Term {
    Term::Sum(i.into(), n, b(e))
}
fn let_(x: &str, e1: Term, e2: Term) -> Term {
    Term::Let(x.into(), b(e1), b(e2))
}

fn direct(t: &Term) -> (Term, BTreeMap<String, usize>) {
    let (out, report) = letlift_report(t, &[], &LetLiftOptions::default(), None).unwrap();
    assert!(is_ll_nf(&out), "{out}");
    (out, report.applied)
}

fn saturation(t: &Term) -> Term {
    let opts = LetLiftOptions::default().with_strategy(Strategy::Saturation);
    letlift_report(t, &[], &opts, None).unwrap().0
}

fn counts(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|(k, n)| (k.to_string(), *n)).collect()
}

#[test]
fn later_bindings_and_the_body_read_the_lifted_arrays() {
    // gen i:3. let a = x[i] in let c = a * a in c + a
    let t = gen(
        "i",
        3,
        let_(
            "a",
            at(v("x"), "i"),
            let_("c", mul(v("a"), v("a")), add(v("c"), v("a"))),
        ),
    );
    let (out, applied) = direct(&t);
    // let t0 = gen i0:3. x[i0] in let t1 = gen i1:3. t0[i1] * t0[i1] in
    // gen i2:3. t1[i2] + t0[i2]
    let want = let_(
        "t0",
        gen("i0", 3, at(v("x"), "i0")),
        let_(
            "t1",
            gen("i1", 3, mul(at(v("t0"), "i1"), at(v("t0"), "i1"))),
            gen("i2", 3, add(at(v("t1"), "i2"), at(v("t0"), "i2"))),
        ),
    );
    assert_eq!(out, want);
    assert_eq!(applied, counts(&[("tl/5.6", 2)]));
    assert_eq!(out, saturation(&t));
}

#[test]
fn both_operands_and_a_nested_binding_are_counted_by_rule() {
    // sum i:2. (let a = (let c = x[i] in c * c) in a) + (let d = x[i] in d)
    let t = sum(
        "i",
        2,
        add(
            let_("a", let_("c", at(v("x"), "i"), mul(v("c"), v("c"))), v("a")),
            let_("d", at(v("x"), "i"), v("d")),
        ),
    );
    let (out, applied) = direct(&t);
    assert_eq!(spine(&out).0.len(), 3);
    assert_eq!(
        applied,
        counts(&[
            ("tl/5.10", 1),
            ("tl/5.1", 2),
            ("tl/5.1-mirror", 1),
            ("tl/5.7", 3)
        ])
    );
    // Saturation reaches an LL-NF with as many bindings (possibly in another order).
    let sat = saturation(&t);
    assert!(is_ll_nf(&sat), "{sat}");
    assert_eq!(spine(&sat).0.len(), 3);
}

/// `gen j:2. sum k:2. (let a1 = x[j] in a1) + (… + (let a8 = x[k] in a8))`.
fn many_lets_under_two_binders() -> Term {
    let leaf = |m: usize| {
        let a = format!("a{m}");
        let i = if m.is_multiple_of(2) { "j" } else { "k" };
        let_(&a, mul(at(v("x"), i), at(v("x"), i)), v(&a))
    };
    let mut t = leaf(8);
    for m in (1..8).rev() {
        t = add(leaf(m), t);
    }
    gen("j", 2, sum("k", 2, t))
}

#[test]
fn many_lets_under_nested_binders_are_lifted_without_an_e_graph() {
    let t = many_lets_under_two_binders();
    let (out, applied) = direct(&t);
    assert_eq!(spine(&out).0.len(), 8);
    assert_eq!(applied.get("tl/5.7"), Some(&8));
    assert_eq!(applied.get("tl/5.6"), Some(&8));
    // Saturation keeps every partial lifting: a small e-node budget is not enough.
    let opts = LetLiftOptions::default()
        .with_strategy(Strategy::Saturation)
        .with_limits(Limits {
            node_limit: 2_000,
            ..Limits::default()
        });
    let e = letlift_report(&t, &[], &opts, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Resource, "{}", e.message);
}

#[test]
fn without_the_copy_the_report_names_the_variant() {
    // [i <= 1] inside a gen: gen i:4. [true] (let a = x[i] in a)
    let t = gen(
        "i",
        4,
        Term::Bracket(
            adora_core::tl::Pred::True,
            b(let_("a", at(v("x"), "i"), v("a"))),
        ),
    );
    let opts = LetLiftOptions::default().with_copy_predicate(false);
    let (out, report) = letlift_report(&t, &[], &opts, None).unwrap();
    assert!(is_ll_nf(&out));
    assert_eq!(
        report.applied,
        counts(&[("tl/5.9-no-copy", 1), ("tl/5.6", 1)])
    );
    let (_, with) = direct(&t);
    assert_eq!(with, counts(&[("tl/5.9", 1), ("tl/5.6", 1)]));
}
