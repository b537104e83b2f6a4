//! Scalar kernels: integer floor division and remainder, the `min`/`max` tie rule, the
//! comparison operators on orderings, `abs'`, `pow` by squaring with total division, and
//! total real division (docs/language.md, "Semantic conventions").

use crate::scalar::Scalar;
use adora_core::ast::BinOp;
use num_bigint::BigInt;
use num_traits::ToPrimitive;
use std::cmp::Ordering;
use std::convert::Infallible;

/// `x / y` on reals, total: the quotient and whether the divisor was zero (a
/// division-by-zero event, which the caller counts; the value is then
/// [`Scalar::div_by_zero`]: `0` exact, IEEE in f64).
pub fn div_real<S: Scalar>(x: &S, y: &S) -> (S, bool) {
    match x.checked_div(y) {
        Some(q) => (q, false),
        None => (x.div_by_zero(y), true),
    }
}

/// The multiplications [`pow_real`] makes for `x^n` by squaring (left to right over the
/// binary digits of `n`): one squaring per digit after the first, one multiplication by
/// `x` per further one digit; `0` for `n <= 1`.
pub fn pow_multiplications(n: u64) -> u64 {
    match n {
        0 => 0,
        _ => u64::from(63 - n.leading_zeros()) + u64::from(n.count_ones()) - 1,
    }
}

/// The evaluation steps of `pow(x, k)` per element (docs/language.md, "Resource limits"):
/// its multiplications ([`pow_multiplications`]) and, for `k < 0`, the reciprocal.
pub fn pow_steps(k: i64) -> u64 {
    pow_multiplications(k.unsigned_abs()) + u64::from(k < 0)
}

/// Whether `x^n` certainly has a numerator or denominator of more than `max_bits` bits,
/// decided before multiplying: for a reduced `p/q`, `x^n = p^n / q^n` is reduced and
/// `p^n` has `floor(n log2 |p|) + 1` bits, which is more than `max_bits` exactly when
/// `n log2 |p| >= max_bits`. Two lower bounds decide it: the integer bound `n (b - 1) + 1`
/// for `|p|` of `b` bits (exact for powers of two), and `n log2 |p|` with `log2` estimated
/// from the leading 64 bits and lowered by a relative margin of `1e-12`, far above its
/// rounding error. So the answer `true` is always right; near the limit the answer is
/// `false` and the size check of each product decides. `false` for scalars that are not
/// exact.
pub fn pow_too_large<S: Scalar>(x: &S, n: u64, max_bits: u64) -> bool {
    let Some(r) = x.as_rational() else {
        return false;
    };
    let b = r.numer().bits().max(r.denom().bits());
    let log2 = log2_of(r.numer()).max(log2_of(r.denom()));
    (n > 0 && b.saturating_sub(1).saturating_mul(n).saturating_add(1) > max_bits)
        || n as f64 * log2 * (1.0 - 1e-12) >= max_bits as f64
}

/// `log2 |v|` from the leading 64 bits of `v` (`0` for `v = 0`, whose powers do not grow).
fn log2_of(v: &BigInt) -> f64 {
    let bits = v.bits();
    if bits == 0 {
        return 0.0;
    }
    let shift = bits.saturating_sub(64);
    let top = (v.magnitude() >> shift).to_u64().unwrap_or(u64::MAX);
    (top as f64).log2() + shift as f64
}

/// `x^n` by squaring, each product passed through `fit` (the size check). Every
/// intermediate is a power `x^m` with `m <= n`, so no intermediate is larger than the
/// result. `x^0 = 1`, `x^1 = x`.
fn pow_by_squaring<S: Scalar, E>(
    x: &S,
    n: u64,
    fit: &mut impl FnMut(S) -> Result<S, E>,
) -> Result<S, E> {
    if n == 0 {
        return Ok(S::one());
    }
    let mut r = x.clone();
    for i in (0..63 - n.leading_zeros()).rev() {
        r = fit(r.mul(&r))?;
        if (n >> i) & 1 == 1 {
            r = fit(r.mul(x))?;
        }
    }
    Ok(r)
}

/// `pow(x, k)` on reals: first the size check of the result ([`pow_too_large`] against
/// `max_bits`; `too_large` gives its error), then `x^|k|` by squaring, each product passed
/// through `fit`, then for `k < 0` the total reciprocal, whose division-by-zero event is
/// reported to `div_zero` first.
pub fn pow_real<S: Scalar, E>(
    x: &S,
    k: i64,
    max_bits: u64,
    mut fit: impl FnMut(S) -> Result<S, E>,
    too_large: impl FnOnce() -> E,
    div_zero: impl FnOnce() -> Result<(), E>,
) -> Result<S, E> {
    let n = k.unsigned_abs();
    if pow_too_large(x, n, max_bits) {
        return Err(too_large());
    }
    let mut r = pow_by_squaring(x, n, &mut fit)?;
    if k < 0 {
        r = match S::one().checked_div(&r) {
            Some(q) => fit(q)?,
            None => {
                div_zero()?;
                S::one().div_by_zero(&r)
            }
        };
    }
    Ok(r)
}

/// `pow(x, k)` on integers: `x^|k|` (`None` on overflow; `0`, `1` and `-1` never
/// overflow), a negative power is the floor reciprocal `1 / x^|k|`, whose
/// division-by-zero event (the value is then `0`) is reported to `div_zero` first.
pub fn pow_int<E>(
    x: i64,
    k: i64,
    div_zero: impl FnOnce() -> Result<(), E>,
) -> Result<Option<i64>, E> {
    let n = k.unsigned_abs();
    let r = match x {
        0 => i64::from(n == 0),
        1 => 1,
        -1 if n.is_multiple_of(2) => 1,
        -1 => -1,
        _ => match u32::try_from(n).ok().and_then(|n| x.checked_pow(n)) {
            Some(v) => v,
            None => return Ok(None),
        },
    };
    if k < 0 {
        return Ok(match floor_div(1, r) {
            Some(q) => q,
            None => {
                div_zero()?;
                Some(0)
            }
        });
    }
    Ok(Some(r))
}

/// `x^k` by squaring and, for `k < 0`, a reciprocal that divides by zero as `S` does
/// ([`Scalar::div_by_zero`]: `0` exact, IEEE for `f64`), with no events or limits: the
/// derivative factor `k · x^(k-1)` of `pow` (docs/language.md), whose primal counterpart
/// has already been checked.
pub fn pow_total<S: Scalar>(x: &S, k: i64) -> S {
    let mut r = pow_by_squaring(x, k.unsigned_abs(), &mut Ok::<S, Infallible>)
        .unwrap_or_else(|e| match e {});
    if k < 0 {
        r = S::one()
            .checked_div(&r)
            .unwrap_or_else(|| S::one().div_by_zero(&r));
    }
    r
}

/// `max(a, b)` (`is_max`, `a` when `a >= b`) or `min(a, b)` (`a` when `a <= b`) on primal
/// values: the selected operand, whole (dual numbers keep its tangent).
pub fn pick<'v, S: Scalar>(is_max: bool, a: &'v S, b: &'v S) -> &'v S {
    if keeps_left(is_max, a.compare(b)) {
        a
    } else {
        b
    }
}

/// `max` / `min` on integers, with the same tie rule as [`pick`].
pub fn pick_int(is_max: bool, a: i64, b: i64) -> i64 {
    if keeps_left(is_max, Some(a.cmp(&b))) {
        a
    } else {
        b
    }
}

/// `x op y` on integers (`+ - * / %`, docs/language.md: `/` is floor division and `%`
/// its remainder, both total): the result (`None` on overflow) and whether the divisor
/// was zero (then `x / 0 = 0` and `x % 0 = x`; the caller counts the event or, under
/// `--strict`, reports it).
pub fn int_op(op: BinOp, x: i64, y: i64) -> (Option<i64>, bool) {
    match op {
        BinOp::Add => (x.checked_add(y), false),
        BinOp::Sub => (x.checked_sub(y), false),
        BinOp::Mul => (x.checked_mul(y), false),
        BinOp::Div => match floor_div(x, y) {
            Some(q) => (q, false),
            None => (Some(0), true),
        },
        _ => match floor_mod(x, y) {
            Some(r) => (Some(r), false),
            None => (Some(x), true),
        },
    }
}

/// Floor division on `Z`: `None` for a zero divisor, `Some(None)` on overflow.
pub fn floor_div(x: i64, y: i64) -> Option<Option<i64>> {
    if y == 0 {
        return None;
    }
    let Some(q) = x.checked_div(y) else {
        return Some(None);
    };
    Some(Some(if x % y != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }))
}

/// Remainder of floor division (sign of the divisor); `None` for a zero divisor.
pub fn floor_mod(x: i64, y: i64) -> Option<i64> {
    if y == 0 {
        return None;
    }
    if y == -1 {
        return Some(0);
    }
    let r = x % y;
    Some(if r != 0 && ((r < 0) != (y < 0)) {
        r + y
    } else {
        r
    })
}

/// Whether `max(a, b)` (`is_max`) or `min(a, b)` keeps its left operand: `a >= b` resp.
/// `a <= b` on primal values (ties pick the left operand; an unordered pair the right).
pub fn keeps_left(is_max: bool, o: Option<Ordering>) -> bool {
    match o {
        Some(Ordering::Equal) => true,
        Some(Ordering::Greater) => is_max,
        Some(Ordering::Less) => !is_max,
        None => false,
    }
}

/// Whether an ordering satisfies a comparison operator.
pub fn holds(op: BinOp, o: Option<Ordering>) -> bool {
    match op {
        BinOp::Eq => o == Some(Ordering::Equal),
        BinOp::Ne => o != Some(Ordering::Equal),
        BinOp::Lt => o == Some(Ordering::Less),
        BinOp::Le => matches!(o, Some(Ordering::Less | Ordering::Equal)),
        BinOp::Gt => o == Some(Ordering::Greater),
        BinOp::Ge => matches!(o, Some(Ordering::Greater | Ordering::Equal)),
        _ => false,
    }
}

/// `abs'(x)`: `-1` below zero, `0` at zero, `1` above (and for unordered values, as the
/// reference's dual numbers do).
pub fn sign<S: Scalar>(x: &S) -> S {
    match x.compare(&S::zero()) {
        Some(Ordering::Less) => S::one().neg(),
        Some(Ordering::Equal) => S::zero(),
        _ => S::one(),
    }
}
