//! Reducer bugs reported by the property tests and the model evaluator (one test each,
//! with the term, the expected answer and what the reducer did before the fix).

use adora_pullback::ad;
use adora_pullback::parse;
use adora_pullback::reduce::Reducer;
use adora_pullback::syntax::Ty;
use adora_semantics::Rat;

fn qs(ns: &[i64]) -> Vec<Rat> {
    ns.iter().map(|&n| Rat::from_integer(n.into())).collect()
}

/// `pullback/grad-equals-reference`, seed 11: the Jacobian of a projection of a pair
/// literal, `J(\z. (z.0, z.1).1, u) (0, 0)`, was stuck (no rule for a projection that is
/// not a path of `z`); rule 20p projects the Jacobian of the pair.
#[test]
fn jacobian_of_a_projection_of_a_pair_literal() {
    let f = parse::term("\\z: (R, R). (z.0, z.1).1").unwrap();
    let r = ad::grad(&f, &Ty::reals(2), &qs(&[0, 0]), &Reducer::new()).unwrap();
    assert_eq!(r.derivative, qs(&[0, 1]));
    let f = parse::term("\\x: R. (0, x).0").unwrap();
    let r = ad::jvp(&f, &Ty::Real, &qs(&[0]), &qs(&[1]), &Reducer::new()).unwrap();
    assert_eq!(r.derivative, qs(&[0]));
    let f = parse::term("\\x: R. (mul (x, x), x).0").unwrap();
    let r = ad::grad(&f, &Ty::Real, &qs(&[3]), &Reducer::new()).unwrap();
    assert_eq!((r.value, r.derivative), (qs(&[9]), qs(&[6])));
}

/// `pullback/higher-order-grad-equals-reference`, seed 11: `zero` (rule 9's result) as the
/// argument of a function symbol, `mul (zero, 1)`, was stuck; rule 3 reads `zero` as 0.
#[test]
fn zero_is_a_numeric_argument() {
    let f = parse::term("\\x: R. mul (J(\\y. x, x) 0, 1)").unwrap();
    let r = ad::grad(
        &f,
        &Ty::Real,
        &[Rat::new((-3).into(), 2.into())],
        &Reducer::new(),
    )
    .unwrap();
    assert_eq!((r.value, r.derivative), (qs(&[0]), qs(&[0])));
    let out = Reducer::new()
        .run(&parse::term("add zero").unwrap())
        .unwrap();
    assert!(
        out.value.alpha_eq(&parse::term("0").unwrap()),
        "{}",
        out.value
    );
}

/// `pullback/progress`, seed 11: the Jacobian of `J(a, b)` with the variable in both
/// arguments, `\x. J(\y. y, x) x` (`= x`), was stuck; rule 12b uses bilinearity.
#[test]
fn jacobian_of_a_jacobian_with_the_variable_in_both_arguments() {
    let f = parse::term("\\x: R. J(\\y. y, x) x").unwrap();
    let r = ad::grad(&f, &Ty::Real, &qs(&[-2]), &Reducer::new()).unwrap();
    assert_eq!((r.value, r.derivative), (qs(&[-2]), qs(&[1])));
    // J(\y. y·y, x) x = 2x·x = 2x², derivative 4x = 8 at 2.
    let f = parse::term("\\x: R. J(\\y. mul (y, y), x) x").unwrap();
    let r = ad::grad(&f, &Ty::Real, &qs(&[2]), &Reducer::new()).unwrap();
    assert_eq!((r.value, r.derivative), (qs(&[8]), qs(&[8])));
}

/// `pullback/progress`, seed 11: a function whose value is the derivative of a constant,
/// `\x. J(\y. 0, x) 2`, reduces to `zero` (the empty sum); the primal value was read as
/// "not first-order numbers" instead of the zero of the result type `R`.
#[test]
fn a_zero_result_is_read_at_the_result_type() {
    let f = parse::term("\\x: R. J(\\y. 0, x) 2").unwrap();
    let r = ad::grad(
        &f,
        &Ty::Real,
        &[Rat::new((-1).into(), 2.into())],
        &Reducer::new(),
    )
    .unwrap();
    assert_eq!((r.value, r.derivative), (qs(&[0]), qs(&[0])));
    let f = parse::term("\\x: R. (J(\\y. 0, x) 2, x)").unwrap();
    let r = ad::jvp(&f, &Ty::Real, &qs(&[3]), &qs(&[1]), &Reducer::new()).unwrap();
    assert_eq!((r.value, r.derivative), (qs(&[0, 3]), qs(&[0, 1])));
}
