//! The `Scalar` instances for exact rationals and `f64`.
use crate::common;
use adora_semantics::scalar::{rational_literal, Scalar, Transcendental};
use adora_semantics::Rat;
use common::*;
use std::cmp::Ordering;

#[test]
fn rational_instance() {
    let (a, c) = (rat(1, 3), rat(-1, 6));
    assert_eq!(Scalar::add(&a, &c), rat(1, 6));
    assert_eq!(Scalar::sub(&a, &c), rat(1, 2));
    assert_eq!(Scalar::mul(&a, &c), rat(-1, 18));
    assert_eq!(Scalar::neg(&a), rat(-1, 3));
    assert_eq!(a.checked_div(&c), Some(ri(-2)));
    assert_eq!(a.checked_div(&ri(0)), None);
    assert_eq!(a.compare(&c), Some(Ordering::Greater));
    assert_eq!(rat(-1, 3).floor_i64(), Some(-1));
    assert_eq!(rat(7, 2).floor_i64(), Some(3));
    let big: num_bigint::BigInt = num_bigint::BigInt::from(1u8) << 63usize;
    assert_eq!(Rat::from_integer(big.clone()).floor_i64(), None);
    assert_eq!(Rat::from_integer(-big).floor_i64(), Some(i64::MIN));
    assert_eq!(Scalar::abs(&c), rat(1, 6));
    assert_eq!(<Rat as Scalar>::from_i64(-4), ri(-4));
    assert_eq!(a.as_rational(), Some(&a));
    assert_eq!(
        a.transcendental(Transcendental::Sqrt)
            .unwrap_err()
            .message(),
        "`sqrt` is not a rational operation; use --numeric f64"
    );
    assert!(rat(255, 256).fits_bits(9));
    assert!(!rat(255, 256).fits_bits(8));
    assert_eq!(rational_literal(&rat(-2, 4)), "-1/2");
    assert_eq!(ri(3).to_literal(), "3");
    assert_eq!(rat(1, 3).to_json(), serde_json::json!("1/3"));
    assert!((rat(1, 3).approx_f64() - 1.0 / 3.0).abs() == 0.0);
}

#[test]
fn f64_instance() {
    assert_eq!(1.0f64.checked_div(&0.0), None);
    assert_eq!(1.0f64.checked_div(&-0.0), None);
    assert_eq!(1.0f64.checked_div(&4.0), Some(0.25));
    assert_eq!(f64::NAN.compare(&1.0), None);
    assert_eq!((-0.5f64).floor_i64(), Some(-1));
    assert_eq!(9.3e18f64.floor_i64(), None);
    assert_eq!((i64::MIN as f64).floor_i64(), Some(i64::MIN));
    assert_eq!(f64::NAN.floor_i64(), None);
    assert_eq!(<f64 as Scalar>::from_rational(&rat(1, 10)), 0.1);
    assert_eq!(<f64 as Scalar>::from_rational(&rat(1, 3)), 1.0 / 3.0);
    assert_eq!(2.0f64.transcendental(Transcendental::Log), Ok(2f64.ln()));
    assert_eq!(
        (-1.0f64)
            .transcendental(Transcendental::Sqrt)
            .map(f64::is_nan),
        Ok(true)
    );
    assert!(1e300f64.fits_bits(1));
    assert_eq!(0.5f64.as_rational(), None);
    assert_eq!(0.1f64.to_literal(), "0.1");
    assert_eq!(f64::NEG_INFINITY.to_literal(), "-inf");
    assert_eq!(2.0f64.to_json(), serde_json::json!(2.0));
}
