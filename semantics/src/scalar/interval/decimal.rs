//! Decimal text of exact rationals with a chosen number of significant digits and a
//! rounding direction: how enclosures print their bounds (docs/json.md, "Enclosures").

use crate::Rat;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// How a decimal approximates a rational.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// The largest decimal `<=` the value (a lower bound).
    Down,
    /// The smallest decimal `>=` the value (an upper bound).
    Up,
    /// The nearest decimal (ties away from zero).
    Nearest,
}

/// `10^k` as a rational (`k` may be negative).
fn pow10(k: i64) -> Rat {
    let p = num_traits::pow(BigInt::from(10), k.unsigned_abs() as usize);
    if k >= 0 {
        Rat::from_integer(p)
    } else {
        Rat::new(BigInt::one(), p)
    }
}

/// `floor(log10 a)` for `a > 0`.
pub fn floor_log10(a: &Rat) -> i64 {
    let bits = a.numer().bits() as i64 - a.denom().bits() as i64;
    let mut k = (bits as f64 * std::f64::consts::LOG10_2).floor() as i64;
    while pow10(k) > *a {
        k -= 1;
    }
    while pow10(k + 1) <= *a {
        k += 1;
    }
    k
}

/// `r` as a decimal of at most `sig` (>= 1) significant digits rounded in direction
/// `dir`, and the exact value of that decimal. Plain notation for exponents in
/// `-7 < k < 21`, otherwise `d.ddde±k`.
pub fn decimal(r: &Rat, sig: usize, dir: Dir) -> (String, Rat) {
    if r.is_zero() {
        return ("0".to_string(), Rat::zero());
    }
    let sig = sig.max(1);
    let neg = r.is_negative();
    let a = r.abs();
    let mut k = floor_log10(&a);
    let scaled = &a * pow10(sig as i64 - 1 - k);
    // Rounding the magnitude: a lower bound of a negative value rounds its magnitude up.
    let up = match dir {
        Dir::Down => neg,
        Dir::Up => !neg,
        Dir::Nearest => false,
    };
    let mut n = match dir {
        Dir::Nearest => (scaled + Rat::new(BigInt::one(), BigInt::from(2))).floor(),
        _ if up => scaled.ceil(),
        _ => scaled.floor(),
    }
    .to_integer();
    let limit = num_traits::pow(BigInt::from(10), sig);
    if n >= limit {
        // Only `10^sig` itself, which is divisible by 10.
        n = n.div_floor(&BigInt::from(10));
        k += 1;
    }
    let value = Rat::from_integer(n.clone()) * pow10(k - sig as i64 + 1);
    let value = if neg { -value } else { value };
    let digits = n.to_string();
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    let body = if -7 < k && k < 21 {
        plain(digits, k)
    } else if digits.len() == 1 {
        format!("{digits}e{k}")
    } else {
        format!("{}.{}e{k}", &digits[..1], &digits[1..])
    };
    (if neg { format!("-{body}") } else { body }, value)
}

/// The digits `d1 d2 ...` with the first one at decimal position `k` (`10^k`).
fn plain(digits: &str, k: i64) -> String {
    if k < 0 {
        format!("0.{}{}", "0".repeat((-k - 1) as usize), digits)
    } else {
        let int_len = k as usize + 1;
        if digits.len() <= int_len {
            format!("{}{}", digits, "0".repeat(int_len - digits.len()))
        } else {
            format!("{}.{}", &digits[..int_len], &digits[int_len..])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(p: i64, d: i64) -> Rat {
        Rat::new(BigInt::from(p), BigInt::from(d))
    }

    #[test]
    fn directed_digits() {
        assert_eq!(decimal(&q(1, 3), 3, Dir::Down).0, "0.333");
        assert_eq!(decimal(&q(1, 3), 3, Dir::Up).0, "0.334");
        assert_eq!(decimal(&q(-1, 3), 3, Dir::Down).0, "-0.334");
        assert_eq!(decimal(&q(-1, 3), 3, Dir::Up).0, "-0.333");
        assert_eq!(decimal(&q(2, 3), 2, Dir::Nearest).0, "0.67");
        assert_eq!(decimal(&q(999, 1), 2, Dir::Up).0, "1000");
        assert_eq!(decimal(&q(1, 1000000000), 2, Dir::Up).0, "1e-9");
        assert_eq!(decimal(&q(12345, 1), 9, Dir::Down).0, "12345");
        assert_eq!(decimal(&q(5, 2), 1, Dir::Nearest).0, "3");
    }

    #[test]
    fn bounds_enclose() {
        for (p, d) in [(1, 7), (-22, 7), (355, 113), (1, 1 << 40), (-7, 3)] {
            let r = q(p, d);
            for sig in 1..20 {
                assert!(decimal(&r, sig, Dir::Down).1 <= r);
                assert!(decimal(&r, sig, Dir::Up).1 >= r);
            }
        }
    }
}
