//! The AD API: gradients, VJPs and JVPs by reduction, the host conventions at the
//! non-smooth points, and input errors.

use adora_core::diag::ErrorKind;
use adora_pullback::ad;
use adora_pullback::parse;
use adora_pullback::reduce::Reducer;
use adora_pullback::syntax::Ty;
use adora_semantics::Rat;

fn q(n: i64) -> Rat {
    Rat::from_integer(n.into())
}

fn g(src: &str, input: Ty, point: &[Rat]) -> Vec<Rat> {
    let f = parse::term(src).unwrap();
    ad::grad(&f, &input, point, &Reducer::new())
        .unwrap()
        .derivative
}

#[test]
fn division_follows_the_total_division_convention() {
    assert_eq!(
        g("\\z. div z", Ty::reals(2), &[q(3), q(0)]),
        vec![q(0), q(0)]
    );
    assert_eq!(
        g("\\z. div z", Ty::reals(2), &[q(3), q(2)]),
        vec![
            Rat::new(1.into(), 2.into()),
            Rat::new((-3).into(), 4.into())
        ]
    );
}

#[test]
fn non_smooth_conventions() {
    assert_eq!(g("\\x. abs x", Ty::Real, &[q(0)]), vec![q(0)]);
    assert_eq!(g("\\x. abs x", Ty::Real, &[q(-2)]), vec![q(-1)]);
    assert_eq!(
        g("\\z. min z", Ty::reals(2), &[q(1), q(1)]),
        vec![q(1), q(0)]
    );
    assert_eq!(
        g("\\z. max z", Ty::reals(2), &[q(1), q(1)]),
        vec![q(1), q(0)]
    );
    assert_eq!(
        g(
            "\\z. sel_lt (z.0, (z.1.0, (z.1.1.0, z.1.1.1)))",
            Ty::reals(4),
            &[q(1), q(2), q(5), q(7)]
        ),
        vec![q(0), q(0), q(1), q(0)]
    );
    assert_eq!(g("\\x. floor x", Ty::Real, &[q(3)]), vec![q(0)]);
    assert_eq!(g("\\x. pow<3> x", Ty::Real, &[q(2)]), vec![q(12)]);
}

#[test]
fn input_errors() {
    let f = parse::term("\\x. x").unwrap();
    let e = ad::grad(&f, &Ty::Real, &[q(1), q(2)], &Reducer::new()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Input);
    let e = ad::grad(&f, &Ty::fun(Ty::Real, Ty::Real), &[q(1)], &Reducer::new()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
}

#[test]
fn jvp_of_a_tuple_output() {
    let f = parse::term("\\z. (mul z, add z)").unwrap();
    let r = ad::jvp(
        &f,
        &Ty::reals(2),
        &[q(2), q(5)],
        &[q(1), q(0)],
        &Reducer::new(),
    )
    .unwrap();
    assert_eq!(r.derivative, vec![q(5), q(1)]);
}
