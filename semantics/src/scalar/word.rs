//! Exact rational arithmetic on machine words, the fast path of [`Rat`]'s `Scalar`
//! operations (docs/benchmarks.md, "Scaling of the exact reference gradient").
//!
//! `num_rational` computes every sum, product and quotient on big integers and reduces
//! it with a binary gcd on big integers, which dominates the exact reference gradient of
//! a convolution loss. Most rationals of a computation are small, though: when both
//! operands have a numerator of at most 64 bits (plus a sign) and a denominator of at
//! most 64 bits, the exact result has at most 128 bits each way and its reduction needs
//! only gcds of 64-bit words. This module computes those results on `u64`/`u128` words
//! and returns `None` when an operand is larger or an intermediate would overflow (then
//! the caller uses `num_rational`).
//!
//! Every result is canonical, as `num_rational` returns it: fully reduced, denominator
//! positive, zero as `0/1`. So results are *equal* (`==`, and equal numerators and
//! denominators) to `num_rational`'s, never approximations. The unit tests compare both
//! on operands around every word boundary.

use crate::Rat;
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::ToPrimitive;

/// A rational `(-1)^neg · mag / den` with `den > 0`, reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Word {
    neg: bool,
    mag: u64,
    den: u64,
}

/// The word form of `r`, when its numerator's magnitude and its denominator fit 64 bits.
#[inline]
fn word(r: &Rat) -> Option<Word> {
    let n = r.numer();
    let den = r.denom().magnitude().to_u64()?;
    let mag = n.magnitude().to_u64()?;
    Some(Word {
        neg: n.sign() == Sign::Minus,
        mag,
        den,
    })
}

/// The canonical rational `(-1)^neg · mag / den`, given `mag / den` reduced and `den > 0`.
#[inline]
fn rat(neg: bool, mag: u128, den: u128) -> Rat {
    if mag == 0 {
        return Rat::new_raw(BigInt::ZERO, BigInt::from(1u8));
    }
    let sign = if neg { Sign::Minus } else { Sign::Plus };
    Rat::new_raw(
        BigInt::from_biguint(sign, BigUint::from(mag)),
        BigInt::from(den),
    )
}

/// The greatest common divisor (binary gcd; `gcd(0, b) = b`).
#[inline]
fn gcd64(mut a: u64, mut b: u64) -> u64 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// `gcd(|a|, |b|)` of big integers (`gcd(0, b) = |b|`). When one operand fits a word the
/// other is first reduced modulo it, one pass over its words, so a gcd of a big and a
/// small integer is linear in the big one's length; `num_integer`'s binary gcd on big
/// integers shifts the big operand once per bit, quadratic in its length (a product of
/// many `-1/3` took 18 s at 20,000 factors). Two big operands use `num_integer`.
pub(super) fn gcd_big(a: &BigInt, b: &BigInt) -> BigInt {
    use num_integer::Integer;
    let (x, y) = (a.magnitude(), b.magnitude());
    let small = |big: &BigUint, w: u64| -> BigInt {
        if w == 0 {
            return BigInt::from(big.clone());
        }
        let r = (big % w).to_u64().unwrap_or(0);
        BigInt::from(gcd64(r, w))
    };
    match (x.to_u64(), y.to_u64()) {
        (Some(u), Some(v)) => BigInt::from(gcd64(u, v)),
        (_, Some(v)) => small(x, v),
        (Some(u), _) => small(y, u),
        _ => a.gcd(b),
    }
}

/// `p/q + r/s` of canonical rationals, canonical (Knuth, *The Art of Computer Programming*
/// vol. 2, §4.5.1): with `g = gcd(q, s)` the numerator `p·(s/g) + r·(q/g)` over `(q/g)·s`,
/// reduced by `gcd(numerator, g)` only. Every gcd goes through [`gcd_big`].
pub(super) fn add_big(a: &Rat, b: &Rat) -> Rat {
    let (p, q, r, s) = (a.numer(), a.denom(), b.numer(), b.denom());
    let g = gcd_big(q, s);
    let one = BigInt::from(1u8);
    let (qg, sg) = if g == one {
        (q.clone(), s.clone())
    } else {
        (q / &g, s / &g)
    };
    let num = p * &sg + r * &qg;
    if num.sign() == Sign::NoSign {
        return rat(false, 0, 1);
    }
    let den = qg * s;
    if g == one {
        return Rat::new_raw(num, den);
    }
    let h = gcd_big(&num, &g);
    if h == one {
        Rat::new_raw(num, den)
    } else {
        Rat::new_raw(num / &h, den / &h)
    }
}

/// `a + b`, or `None` when an operand does not fit words or the sum overflows 128 bits.
pub(super) fn add(a: &Rat, b: &Rat) -> Option<Rat> {
    let (x, y) = (word(a)?, word(b)?);
    sum(x, y)
}

/// `a - b` (see [`add`]).
pub(super) fn sub(a: &Rat, b: &Rat) -> Option<Rat> {
    let (x, mut y) = (word(a)?, word(b)?);
    y.neg = !y.neg;
    sum(x, y)
}

/// `a · b` (see [`add`]; a product of words never overflows 128 bits).
pub(super) fn mul(a: &Rat, b: &Rat) -> Option<Rat> {
    Some(product(word(a)?, word(b)?))
}

/// `a / b` for `b ≠ 0` (see [`add`]); `None` also for `b = 0`, which the caller handles.
pub(super) fn div(a: &Rat, b: &Rat) -> Option<Rat> {
    let (x, y) = (word(a)?, word(b)?);
    if y.mag == 0 {
        return None;
    }
    // a / (±m/d) = a · (±d/m), and d/m is reduced because m/d is.
    Some(product(
        x,
        Word {
            neg: y.neg,
            mag: y.den,
            den: y.mag,
        },
    ))
}

/// `p/q + r/s` with `g = gcd(q, s)`: the numerator `p·(s/g) + r·(q/g)` over
/// `(q/g)·s`. The numerator is coprime to `q/g` and to `s/g` (the operands are reduced),
/// so the only common factor left is `gcd(numerator, g)` (Knuth, *The Art of Computer
/// Programming* vol. 2, §4.5.1). The result as sign, magnitude and denominator, reduced
/// (zero as `0/1`); `None` when the magnitude overflows 128 bits.
fn sum_parts(x: Word, y: Word) -> Option<(bool, u128, u128)> {
    let g = gcd64(x.den, y.den);
    let (xd, yd) = (x.den / g, y.den / g);
    let (u, v) = (x.mag as u128 * yd as u128, y.mag as u128 * xd as u128);
    let (neg, mag) = if x.neg == y.neg {
        (x.neg, u.checked_add(v)?)
    } else if u >= v {
        (x.neg, u - v)
    } else {
        (y.neg, v - u)
    };
    if mag == 0 {
        return Some((false, 0, 1));
    }
    let den = xd as u128 * y.den as u128;
    if g == 1 {
        return Some((neg, mag, den));
    }
    let h = gcd64((mag % g as u128) as u64, g) as u128;
    Some((neg, mag / h, den / h))
}

/// [`sum_parts`] as a rational.
fn sum(x: Word, y: Word) -> Option<Rat> {
    let (neg, mag, den) = sum_parts(x, y)?;
    Some(rat(neg, mag, den))
}

/// `p/q · r/s` cross-cancelled: `(p/g1 · r/g2) / (q/g2 · s/g1)` with `g1 = gcd(p, s)`,
/// `g2 = gcd(r, q)`, which is reduced.
fn product(x: Word, y: Word) -> Rat {
    if x.mag == 0 || y.mag == 0 {
        return rat(false, 0, 1);
    }
    let g1 = gcd64(x.mag, y.den);
    let g2 = gcd64(y.mag, x.den);
    let mag = (x.mag / g1) as u128 * (y.mag / g2) as u128;
    let den = (x.den / g2) as u128 * (y.den / g1) as u128;
    rat(x.neg != y.neg, mag, den)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i128, d: i128) -> Rat {
        Rat::new(BigInt::from(n), BigInt::from(d))
    }

    /// Numerators and denominators around every boundary of the word forms.
    fn samples() -> Vec<Rat> {
        let m = u64::MAX as i128;
        let nums = [
            0,
            1,
            -1,
            2,
            3,
            -6,
            7,
            1 << 32,
            (1 << 62) + 3,
            i64::MAX as i128,
            i64::MIN as i128,
            m,
            -m,
            m - 1,
            m + 1,
            -(m + 1),
            1 << 70,
        ];
        let dens = [1, 2, 3, 7, 12, 1 << 40, m - 2, m, m + 1, 3 << 64];
        let mut out = Vec::new();
        for n in nums {
            for d in dens {
                out.push(q(n, d));
            }
        }
        out
    }

    fn same(fast: Option<Rat>, slow: Rat) {
        if let Some(r) = &fast {
            assert_eq!(
                r.numer().sign() == Sign::NoSign,
                r.numer().magnitude().bits() == 0
            );
        }
        if let Some(r) = fast {
            assert_eq!(r, slow);
            assert_eq!(r.numer(), slow.numer());
            assert_eq!(r.denom(), slow.denom());
        }
    }

    #[test]
    fn word_results_are_num_rationals_canonical_results() {
        let xs = samples();
        let mut taken = 0;
        for a in &xs {
            for b in &xs {
                taken += usize::from(add(a, b).is_some());
                same(add(a, b), a + b);
                same(sub(a, b), a - b);
                same(mul(a, b), a * b);
                if *b != q(0, 1) {
                    same(div(a, b), a / b);
                }
            }
        }
        // The fast path is taken for most pairs (both operands in words).
        assert!(taken > xs.len() * xs.len() / 2, "{taken}");
    }

    #[test]
    fn big_sums_and_gcds_are_num_rationals_canonical_results() {
        // Big operands (powers of 3 and 2 beyond 128 bits) mixed with the word samples.
        let big = |k: u32| Rat::new(BigInt::from(3u8).pow(k), BigInt::from(2u8).pow(k / 2 + 1));
        let mut xs = samples();
        xs.extend([big(90), -big(91), big(200).recip(), big(150) + q(1, 7)]);
        for a in &xs {
            for b in &xs {
                same(Some(add_big(a, b)), a + b);
                let (x, y) = (a.numer(), b.denom());
                assert_eq!(
                    gcd_big(x, y),
                    num_integer::Integer::gcd(x, y),
                    "gcd({x}, {y})"
                );
            }
        }
    }

    #[test]
    fn words_are_taken_up_to_64_bits_and_not_beyond() {
        let m = u64::MAX as i128;
        assert!(add(&q(-m, m - 1), &q(m, 3)).is_some());
        assert!(add(&q(m + 1, 1), &q(1, 1)).is_none());
        assert!(mul(&q(1, m + 1), &q(1, 1)).is_none());
        assert!(div(&q(1, 2), &q(0, 1)).is_none());
        // A sum of two 128-bit magnitudes that overflows falls back.
        assert!(add(&q(m, m - 1), &q(m, m - 2)).is_none());
        same(add(&q(m, m - 1), &q(m, m - 2)), q(m, m - 1) + q(m, m - 2));
    }

    #[test]
    fn gcd_of_words() {
        assert_eq!(gcd64(0, 0), 0);
        assert_eq!(gcd64(0, 5), 5);
        assert_eq!(gcd64(12, 18), 6);
        assert_eq!(gcd64(u64::MAX, u64::MAX - 1), 1);
        assert_eq!(gcd64(1 << 63, 1 << 40), 1 << 40);
    }
}
