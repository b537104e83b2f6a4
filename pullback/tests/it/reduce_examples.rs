//! The worked examples of docs/engines/pullback-reduction.md ("Worked examples"), run end
//! to end through `ad::grad` / `ad::vjp` / `ad::jvp`, with values, rows and counters.

use adora_pullback::ad;
use adora_pullback::parse;
use adora_pullback::reduce::Reducer;
use adora_pullback::syntax::Ty;
use adora_semantics::Rat;

fn q(n: i64) -> Rat {
    Rat::from_integer(n.into())
}

fn qs(ns: &[i64]) -> Vec<Rat> {
    ns.iter().map(|&n| q(n)).collect()
}

fn grad(src: &str, input: Ty, point: &[i64]) -> ad::AdResult {
    let f = parse::term(src).expect("parses");
    ad::grad(&f, &input, &qs(point), &Reducer::new().trace(true)).expect("reduces")
}

const F1: &str = "\\z. let a = add (z.0, 1) in let b = mul (2, z.0) in \
                  let c = mul (z.1, z.1) in let d = add (b, c) in let h = mul (a, d) in h";

#[test]
fn f1_running_example_value_row_and_counters() {
    let r = grad(F1, Ty::reals(2), &[1, 3]);
    assert_eq!(r.value, qs(&[22]));
    assert_eq!(r.derivative, qs(&[15, 12]));
    let s = &r.outcome.stats;
    assert_eq!(s.by_rule.get("8"), Some(&4));
    assert_eq!(s.by_rule.get("7"), Some(&1));
    assert_eq!(s.by_rule.get("P"), Some(&5));
    assert_eq!(s.by_rule.get("5"), Some(&5));
    assert_eq!(s.delta_f.get("add"), Some(&2));
    assert_eq!(s.delta_f.get("mul"), Some(&3));
    assert_eq!(s.delta_j.values().sum::<u64>(), 5);
    assert_eq!(s.delta_j, s.delta_f);
}

fn count(r: &ad::AdResult, rule: &str) -> u64 {
    r.outcome.stats.by_rule.get(rule).copied().unwrap_or(0)
}

#[test]
fn f1_forward_phase_precedes_reverse_phase() {
    let r = grad(F1, Ty::reals(2), &[1, 3]);
    let trace = &r.outcome.trace;
    let first5 = trace
        .iter()
        .position(|s| s.rule.name() == "5")
        .expect("a 5 step");
    let last_delta_f = trace
        .iter()
        .rposition(|s| s.rule.name() == "3" && s.symbol.is_some() && !is_jacobian(s))
        .expect("a primal step");
    assert!(last_delta_f < first5, "a primal δ after the first (5)");
    let last_p = trace.iter().rposition(|s| s.rule.name() == "P").unwrap();
    assert!(last_p < first5);
    assert_eq!(count(&r, "5"), count(&r, "P"));
}

fn is_jacobian(s: &adora_pullback::reduce::TraceStep) -> bool {
    // A Jacobian δ step leaves a linear term (no numeral result at the hole); the primal
    // steps are recognised through the counters' order instead: a δ_J always follows a 15.
    let _ = s;
    false
}

#[test]
fn f1_forward_mode_columns() {
    let f = parse::term(F1).unwrap();
    let r = Reducer::new();
    let c1 = ad::jvp(&f, &Ty::reals(2), &qs(&[1, 3]), &qs(&[1, 0]), &r).unwrap();
    let c2 = ad::jvp(&f, &Ty::reals(2), &qs(&[1, 3]), &qs(&[0, 1]), &r).unwrap();
    assert_eq!(c1.derivative, qs(&[15]));
    assert_eq!(c2.derivative, qs(&[12]));
    assert_eq!(c1.value, qs(&[22]));
}

#[test]
fn f2_tuple_output_vjp() {
    let f = parse::term("\\z. (mul z, add z)").unwrap();
    let r = ad::vjp(
        &f,
        &Ty::reals(2),
        &qs(&[2, 5]),
        &qs(&[1, 3]),
        &Reducer::new(),
    )
    .unwrap();
    assert_eq!(r.value, qs(&[10, 7]));
    assert_eq!(r.derivative, qs(&[8, 5]));
}

#[test]
fn f3_edge_cases() {
    let id = grad("\\x. x", Ty::Real, &[4]);
    assert_eq!(id.derivative, qs(&[1]));
    assert_eq!(count(&id, "10"), 1);
    let k = grad("\\z. 7", Ty::reals(2), &[1, 2]);
    assert_eq!(k.value, qs(&[7]));
    assert_eq!(k.derivative, qs(&[0, 0]));
    assert_eq!(count(&k, "9"), 1);
    let fan = grad("\\x. let y = mul (x, x) in add (y, y)", Ty::Real, &[3]);
    assert_eq!(fan.value, qs(&[18]));
    assert_eq!(fan.derivative, qs(&[12]));
    assert_eq!(fan.outcome.stats.delta_f.get("mul"), Some(&1));
}

#[test]
fn f9_expression_swell() {
    let r = grad(
        "\\x. let x1 = mul (x, x) in let x2 = mul (x1, x1) in let x3 = mul (x2, x2) in x3",
        Ty::Real,
        &[2],
    );
    assert_eq!(r.value, qs(&[256]));
    assert_eq!(r.derivative, qs(&[1024]));
    assert_eq!(r.outcome.stats.delta_f.get("mul"), Some(&3));
    assert_eq!(r.outcome.stats.delta_j.get("mul"), Some(&3));
}

const CHURCH: &str = "let nil = \\c. \\n. n in let cons = \\x. \\l. \\c. \\n. c x (l c n) in";

#[test]
fn f4_church_list_sum() {
    let src = format!(
        "\\z. {CHURCH} let sum = \\l. l (\\x. \\acc. add (x, acc)) 0 in sum (cons z.0 (cons z.1 nil))"
    );
    let r = grad(&src, Ty::reals(2), &[1, 2]);
    assert_eq!(r.value, qs(&[3]));
    assert_eq!(r.derivative, qs(&[1, 1]));
}

#[test]
fn f4_church_list_sum_of_squares() {
    let src = format!(
        "\\z. {CHURCH} let sumsq = \\l. l (\\x. \\acc. add (mul (x, x), acc)) 0 in \
         sumsq (cons z.0 (cons z.1.0 (cons z.1.1 nil)))"
    );
    let r = grad(&src, Ty::reals(3), &[1, 2, 3]);
    assert_eq!(r.value, qs(&[14]));
    assert_eq!(r.derivative, qs(&[2, 4, 6]));
}

#[test]
fn f5_twice() {
    let r = grad(
        "\\x. let twice = \\f. \\y. f (f y) in twice (\\y. mul (y, y)) x",
        Ty::Real,
        &[2],
    );
    assert_eq!(r.value, qs(&[16]));
    assert_eq!(r.derivative, qs(&[32]));
}

#[test]
fn f6_closure_capturing_the_variable() {
    let r = grad(
        "\\x. let g = \\y. mul (x, y) in add (g 2, g x)",
        Ty::Real,
        &[3],
    );
    assert_eq!(r.value, qs(&[15]));
    assert_eq!(r.derivative, qs(&[8]));
}

#[test]
fn f7_nested_pullback_second_derivative() {
    let r = grad(
        "\\x. (pb(\\y. mul (y, mul (y, y)), omega) x) 1",
        Ty::Real,
        &[3],
    );
    assert_eq!(r.value, qs(&[27]));
    assert_eq!(r.derivative, qs(&[18]));
}

#[test]
fn f8_no_perturbation_confusion() {
    let r = grad(
        "\\x. mul (x, (pb(\\y. add (x, y), omega) 1) 1)",
        Ty::Real,
        &[1],
    );
    assert_eq!(r.value, qs(&[1]));
    assert_eq!(
        r.derivative,
        qs(&[1]),
        "a confused implementation answers 2"
    );
    let at2 = grad(
        "\\x. mul (x, (pb(\\y. mul (x, y), omega) 1) 1)",
        Ty::Real,
        &[3],
    );
    // x · ∂_y(x·y) = x², derivative 2x = 6.
    assert_eq!(at2.value, qs(&[9]));
    assert_eq!(at2.derivative, qs(&[6]));
}
