//! `pretty::real` prints an exact real as a decimal when its denominator is `2^a·5^b`
//! (issue 19: the factors 5 of a 65,535-place literal's denominator were divided out one
//! at a time, quadratic in the length; `benches/pretty.rs` times it). The decimals are
//! checked against an independent construction: `k·2^(p-a)·5^(p-b)` with `p = max(a, b)`
//! places.
use adora_core::pretty::real;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Pow};

fn expected(k: i64, a: u32, b: u32) -> String {
    let p = a.max(b);
    let scaled = BigInt::from(k.abs())
        * Pow::pow(BigInt::from(2u8), p - a)
        * Pow::pow(BigInt::from(5u8), p - b);
    let sign = if k < 0 { "-" } else { "" };
    if p == 0 {
        return format!("{sign}{scaled}.0");
    }
    let mut digits = scaled.to_string();
    while digits.len() < p as usize + 1 {
        digits.insert(0, '0');
    }
    let (int, frac) = digits.split_at(digits.len() - p as usize);
    format!("{sign}{int}.{frac}")
}

#[test]
fn decimals_of_every_denominator_two_to_the_a_five_to_the_b() {
    for a in [0u32, 1, 2, 3, 31, 64, 65, 300, 1024] {
        for b in [0u32, 1, 2, 4, 31, 64, 65, 300, 1024] {
            for k in [1i64, 3, 7, -9, 11] {
                let d = Pow::pow(BigInt::from(2u8), a) * Pow::pow(BigInt::from(5u8), b);
                let r = BigRational::new(BigInt::from(k), d);
                // k is odd and prime to 5: the fraction is already reduced
                assert_eq!(real(&r), expected(k, a, b), "{k} / (2^{a} 5^{b})");
            }
        }
    }
}

#[test]
fn other_denominators_print_as_a_quotient() {
    let ten = Pow::pow(BigInt::from(10u8), 40u32);
    let r = BigRational::new(BigInt::one(), BigInt::from(3u8) * &ten);
    assert_eq!(real(&r), format!("(1.0 / 3{}.0)", "0".repeat(40)));
    let r = BigRational::new(BigInt::from(-2), BigInt::from(7u8));
    assert_eq!(real(&r), "(-2.0 / 7.0)");
}

#[test]
fn a_literal_of_65535_places_prints_exactly() {
    let d = Pow::pow(BigInt::from(10u8), 65535u32);
    let r = BigRational::new(BigInt::from(3u8), d);
    assert_eq!(real(&r), format!("0.{}3", "0".repeat(65534)));
}
