//! `pow(x, k)` (issue 19): the size of the result is checked before multiplying, and the
//! power is computed by squaring, so a huge power reports the rational-size limit after no
//! multiplication at all and a large one that fits takes `O(log k)` multiplications
//! (docs/language.md, "Semantic conventions" and "Resource limits"). Work is counted, not
//! timed: the multiplications the kernel passes through its size check, and the evaluator's
//! steps.
use crate::common::*;
use adora_core::diag::ErrorKind;
use adora_semantics::eval::EvalOptions;
use adora_semantics::kernels::arith::{
    pow_int, pow_multiplications, pow_real, pow_steps, pow_too_large,
};
use adora_semantics::reference;
use adora_semantics::scalar::Scalar;
use adora_semantics::Rat;

const BITS: u64 = 1 << 16;

/// `pow_real` at `x`, `k` under the default size limit: the result (or `Err(true)` for the
/// size error, `Err(false)` never), and how many products went through the size check.
fn counted(x: &Rat, k: i64) -> (Result<Rat, bool>, usize) {
    let mut products = 0;
    let r = pow_real(
        x,
        k,
        BITS,
        |v: Rat| {
            products += 1;
            if v.fits_bits(BITS) {
                Ok(v)
            } else {
                Err(true)
            }
        },
        || true,
        || Ok(()),
    );
    (r, products)
}

/// `x^k` by `|k|` multiplications and a reciprocal: the definition.
fn repeated(x: &Rat, k: i64) -> Rat {
    let mut r = ri(1);
    for _ in 0..k.unsigned_abs() {
        r *= x;
    }
    if k < 0 {
        if r == ri(0) {
            return r;
        }
        r = ri(1) / r;
    }
    r
}

#[test]
fn a_huge_power_fails_before_multiplying() {
    // 3^100000 has 158497 bits; the issue's `pow(x, -100000)` ran for minutes
    for k in [100_000, -100_000, i64::MAX, i64::MIN] {
        let (r, products) = counted(&ri(3), k);
        assert_eq!((r, products), (Err(true), 0), "k = {k}");
    }
    // 100^10000: 66439 bits, just over the limit (24 s to fail in the issue)
    assert_eq!(counted(&ri(100), 10_000), (Err(true), 0));
    // the denominator counts as well
    assert_eq!(counted(&rat(1, 100), 10_000), (Err(true), 0));
    assert!(pow_too_large(&rat(-7, 3), 40_000, BITS));
    assert!(!pow_too_large(&ri(2), 65_535, BITS));
    // 0, 1 and -1 never grow
    for x in [ri(0), ri(1), ri(-1)] {
        assert!(!pow_too_large(&x, u64::MAX, BITS));
    }
    assert_eq!(counted(&ri(-1), i64::MIN).0, Ok(ri(1)));
    assert_eq!(counted(&ri(-1), i64::MAX).0, Ok(ri(-1)));
    assert_eq!(counted(&ri(0), i64::MIN).0, Ok(ri(0)));
}

#[test]
fn a_large_power_takes_logarithmically_many_products() {
    // 3^30000 (47549 bits) fits: 14 squarings and 6 multiplications, not 30000
    let (r, products) = counted(&ri(3), 30_000);
    assert_eq!(r.unwrap().numer().bits(), 47_549);
    assert_eq!(products as u64, pow_multiplications(30_000));
    assert_eq!(pow_multiplications(30_000), 14 + 6);
    // 2^65536 has 65537 bits: over the limit by one bit, found before multiplying
    assert_eq!(counted(&ri(2), 65_536), (Err(true), 0));
    // (2^64 - 1)^1024 has 65536 bits: it passes the estimate (65535.99… bits) and fits
    let big = Rat::from_integer(num_bigint::BigInt::from(u64::MAX));
    let (r, products) = counted(&big, 1024);
    assert_eq!(r.map(|v| v.numer().bits()), Ok(65_536));
    assert_eq!(products, 10);
}

#[test]
fn squaring_is_the_repeated_product() {
    for x in [
        ri(0),
        ri(1),
        ri(-1),
        ri(2),
        rat(-3, 7),
        rat(5, 4),
        rat(1, 1000),
    ] {
        for k in -40..=40 {
            assert_eq!(counted(&x, k).0, Ok(repeated(&x, k)), "pow({x}, {k})");
        }
    }
    assert_eq!(pow_steps(0), 0);
    assert_eq!(pow_steps(1), 0);
    assert_eq!(pow_steps(-1), 1);
    assert_eq!(pow_steps(1000), 14);
}

#[test]
fn integer_powers() {
    let p = |x: i64, k: i64| pow_int::<()>(x, k, || Ok(())).unwrap();
    assert_eq!(p(2, 62), Some(1 << 62));
    assert_eq!(p(2, 63), None);
    assert_eq!(p(-2, 63), Some(i64::MIN));
    assert_eq!(p(3, 1 << 40), None);
    // these used to take |k| multiplications
    assert_eq!(p(1, i64::MAX), Some(1));
    assert_eq!(p(-1, i64::MAX), Some(-1));
    assert_eq!(p(-1, i64::MIN), Some(1));
    assert_eq!(p(0, i64::MAX), Some(0));
    assert_eq!(p(0, 0), Some(1));
    // negative powers: the floor reciprocal, and 1 / 0 = 0 as an event
    assert_eq!(p(2, -1), Some(0));
    assert_eq!(p(-2, -1), Some(-1));
    assert_eq!(p(-1, -3), Some(-1));
    let mut events = 0;
    let r = pow_int::<()>(0, -5, || {
        events += 1;
        Ok(())
    });
    assert_eq!((r, events), (Ok(Some(0)), 1));
}

#[test]
fn the_evaluator_reports_the_position_and_charges_the_products() {
    let src = "def main(x: R) -> R = 1 + pow(x, -100000)";
    let f = prog(src);
    let e = adora_semantics::eval::eval(&f, &[sr(ri(3))], &EvalOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Resource);
    assert_eq!(&src[e.span.start..e.span.end], "pow(x, -100000)");
    // the reference gradient (dual numbers) too
    let e = reference::gradient(&f, &[sr(ri(3))], &EvalOptions::default()).unwrap_err();
    assert_eq!(&src[e.span.start..e.span.end], "pow(x, -100000)");
    // pow(x, 1000) costs its 14 products per element, not 1000
    let steps = |k: i64| {
        ev_stats(&format!("def main(x: R) -> R = pow(x, {k})"), &["1/2"])
            .1
            .steps
    };
    assert_eq!(steps(1000), steps(0) + 14);
    // the value 2^65535 fits, its derivative 65535 · 2^65534 does not: the size check of
    // the products (tangents included) stops it, at the position of the `pow`
    let src = "def main(x: R) -> R = pow(x, 65535) - 1";
    let f = prog(src);
    assert!(adora_semantics::eval::eval(&f, &[sr(ri(2))], &EvalOptions::default()).is_ok());
    let e = reference::gradient(&f, &[sr(ri(2))], &EvalOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Resource);
    assert_eq!(&src[e.span.start..e.span.end], "pow(x, 65535)");
    // a power that fits, with its exact derivative k x^(k-1)
    let f = prog("def main(x: R) -> R = pow(x, -3001)");
    let g = reference::gradient(&f, &[sr(rat(-3, 2))], &EvalOptions::default()).unwrap();
    let x = rat(-3, 2);
    assert_eq!(g.value, sr(repeated(&x, -3001)));
    assert_eq!(g.grads[0], Some(sr(ri(-3001) * repeated(&x, -3002))));
}
