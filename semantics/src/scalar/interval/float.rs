//! Binary floats of `astro-float-num` ([`BigFloat`]) as the bounds of an
//! [`Interval`](super::Interval): exact conversions to and from rationals, directed
//! rounding, and the outward-widened elementary functions (docs/oracle.md, "Certified
//! enclosures").
//!
//! `astro-float-num` documents every arithmetic operation and mathematical function as
//! correctly rounded (its crate documentation, "Correctness"). Its `RoundingMode::Down`
//! and `RoundingMode::Up` are the directed roundings toward `-inf` and `+inf`: the enum's
//! doc comments say "round half toward", but `Mantissa::round_mantissa` rounds every
//! discarded nonzero remainder toward `+inf` (`Up`) or `-inf` (`Down`); the unit tests
//! of this module check both readings against exact rationals. For `+ - * /` the bounds
//! rely on that directed rounding alone. The elementary functions are computed with 64
//! guard bits in the directed mode and then moved one unit in the last place (of the
//! guarded precision) further out before the final directed rounding to the working
//! precision, so the bound holds as long as the library's error is below one ulp at
//! `p + 64` bits, not only if it is correctly rounded.

use crate::Rat;
use astro_float_num::{BigFloat, Consts, RoundingMode, Sign, Word};
use num_bigint::{BigInt, Sign as BigSign};
use num_traits::{One, Zero};
use std::cmp::Ordering;

pub(super) use RoundingMode::{Down, Up};

/// Guard bits of the elementary functions.
pub(super) const GUARD: usize = 64;

/// The exact float of an integer.
pub(super) fn of_bigint(n: &BigInt) -> BigFloat {
    let (sign, digits) = n.to_u64_digits();
    if digits.is_empty() {
        return BigFloat::from_word(0, 64);
    }
    let s = if sign == BigSign::Minus {
        Sign::Neg
    } else {
        Sign::Pos
    };
    // `Word` is `u64` on the 64-bit targets the workspace builds for.
    let words: Vec<Word> = digits;
    BigFloat::from_words(&words, s, (64 * words.len()) as astro_float_num::Exponent)
}

/// `r` rounded to `p` bits in direction `rm` (exact when `r` has a `p`-bit binary form).
pub(super) fn of_rat(r: &Rat, p: usize, rm: RoundingMode) -> BigFloat {
    let n = of_bigint(r.numer());
    if r.denom().is_one() {
        let mut x = n;
        // A number already of at most `p` bits is unchanged.
        let _ = x.set_precision(p, rm);
        return x;
    }
    n.div(&of_bigint(r.denom()), p, rm)
}

/// The exact rational value of a finite float; `None` for infinities and NaN.
pub(super) fn to_rat(x: &BigFloat) -> Option<Rat> {
    if x.is_zero() {
        return Some(Rat::zero());
    }
    let (words, _, sign, e, _) = x.as_raw_parts()?;
    // The mantissa words, least significant first, are a fraction 0.m of `64 · len` bits:
    // x = M · 2^(e - 64 · len).
    let m = BigInt::from_biguint(BigSign::Plus, num_bigint::BigUint::new(to_u32s(words)));
    let m = if sign == Sign::Neg { -m } else { m };
    let shift = e as i64 - 64 * words.len() as i64;
    let two = BigInt::from(2);
    Some(if shift >= 0 {
        Rat::from_integer(m * num_traits::pow(two, shift as usize))
    } else {
        Rat::new(m, num_traits::pow(two, (-shift) as usize))
    })
}

fn to_u32s(d: &[u64]) -> Vec<u32> {
    d.iter()
        .flat_map(|w| [*w as u32, (*w >> 32) as u32])
        .collect()
}

/// Whether `x` is a finite float.
pub(super) fn finite(x: &BigFloat) -> bool {
    !x.is_nan() && !x.is_inf()
}

/// `a <=> b` for finite floats.
pub(super) fn cmp(a: &BigFloat, b: &BigFloat) -> Ordering {
    match a.cmp(b) {
        Some(c) if c < 0 => Ordering::Less,
        Some(0) => Ordering::Equal,
        _ => Ordering::Greater,
    }
}

/// The smaller of two floats.
pub(super) fn min(a: BigFloat, b: BigFloat) -> BigFloat {
    if cmp(&a, &b) == Ordering::Greater {
        b
    } else {
        a
    }
}

/// The larger of two floats.
pub(super) fn max(a: BigFloat, b: BigFloat) -> BigFloat {
    if cmp(&a, &b) == Ordering::Less {
        b
    } else {
        a
    }
}

/// One unit in the last place of `y` at `q` bits (for zero: `2^-q`).
fn ulp(y: &BigFloat, q: usize) -> BigFloat {
    let e = y.exponent().unwrap_or(0) as i64;
    let mut u = BigFloat::from_word(1, 64);
    // `1` is `0.1b · 2^1`; `2^k` is `0.1b · 2^(k+1)`.
    let k = (e - q as i64 + 1).max(astro_float_num::EXPONENT_MIN as i64 + 1);
    u.set_exponent(k as astro_float_num::Exponent);
    u
}

/// The elementary functions the enclosures need.
#[derive(Clone, Copy, Debug)]
pub(super) enum Fun {
    Exp,
    Ln,
    Sin,
    Cos,
    Tanh,
    Sqrt,
}

fn apply(f: Fun, x: &BigFloat, q: usize, rm: RoundingMode, cc: &mut Consts) -> BigFloat {
    match f {
        Fun::Exp => x.exp(q, rm, cc),
        Fun::Ln => x.ln(q, rm, cc),
        Fun::Sin => x.sin(q, rm, cc),
        Fun::Cos => x.cos(q, rm, cc),
        Fun::Tanh => x.tanh(q, rm, cc),
        Fun::Sqrt => x.sqrt(q, rm),
    }
}

/// A lower (`rm = Down`) or upper (`Up`) bound at `p` bits of `f(x)`: computed at
/// `p + GUARD` bits in direction `rm`, moved one guarded ulp further out unless the
/// library reports it exact, and rounded to `p` bits in direction `rm`.
pub(super) fn bound(f: Fun, x: &BigFloat, p: usize, rm: RoundingMode, cc: &mut Consts) -> BigFloat {
    let q = p + GUARD;
    let y = apply(f, x, q, rm, cc);
    widen(y, p, q, rm)
}

/// `y` (a bound at `q` bits) moved one ulp at `q` bits in direction `rm` (unless exact)
/// and rounded to `p` bits in direction `rm`.
fn widen(y: BigFloat, p: usize, q: usize, rm: RoundingMode) -> BigFloat {
    if !finite(&y) {
        return y;
    }
    if !y.inexact() {
        let mut r = y;
        let _ = r.set_precision(p, rm);
        return r;
    }
    let u = ulp(&y, q);
    if rm == Down {
        y.sub(&u, p, Down)
    } else {
        y.add(&u, p, Up)
    }
}

/// Bounds of `π` at `p` bits: `(lower, upper)`.
pub(super) fn pi(p: usize, cc: &mut Consts) -> (BigFloat, BigFloat) {
    let q = p + GUARD;
    (
        widen(cc.pi(q, Down), p, q, Down),
        widen(cc.pi(q, Up), p, q, Up),
    )
}
