//! Scalar kernels: integer floor division and remainder, the `min`/`max` tie rule, the
//! comparison operators on orderings, `abs'`, `pow` by repeated multiplication with total
//! division, and total real division (docs/language.md, "Semantic conventions").

use crate::scalar::Scalar;
use adora_core::ast::BinOp;
use std::cmp::Ordering;

/// `x / y` on reals, total: the quotient and whether the divisor was zero (a
/// division-by-zero event, which the caller counts; the value is then
/// [`Scalar::div_by_zero`]: `0` exact, IEEE in f64).
pub fn div_real<S: Scalar>(x: &S, y: &S) -> (S, bool) {
    match x.checked_div(y) {
        Some(q) => (q, false),
        None => (x.div_by_zero(y), true),
    }
}

/// `pow(x, k)` on reals: `|k|` multiplications from one, each passed through `fit` (the
/// size check), then for `k < 0` the total reciprocal, whose division-by-zero event is
/// reported to `div_zero` first.
pub fn pow_real<S: Scalar, E>(
    x: &S,
    k: i64,
    mut fit: impl FnMut(S) -> Result<S, E>,
    div_zero: impl FnOnce() -> Result<(), E>,
) -> Result<S, E> {
    let mut r = S::one();
    for _ in 0..k.unsigned_abs() {
        r = fit(r.mul(x))?;
    }
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

/// `pow(x, k)` on integers: `|k|` checked multiplications (`None` on overflow), a
/// negative power is the floor reciprocal `1 / x^|k|`, whose division-by-zero event (the
/// value is then `0`) is reported to `div_zero` first.
pub fn pow_int<E>(
    x: i64,
    k: i64,
    div_zero: impl FnOnce() -> Result<(), E>,
) -> Result<Option<i64>, E> {
    let mut r: i64 = 1;
    for _ in 0..k.unsigned_abs() {
        match r.checked_mul(x) {
            Some(v) => r = v,
            None => return Ok(None),
        }
    }
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

/// `x^k` by `|k|` multiplications from one and, for `k < 0`, a reciprocal that divides by
/// zero as `S` does ([`Scalar::div_by_zero`]: `0` exact, IEEE for `f64`), with no events
/// or limits: the derivative factor `k · x^(k-1)` of `pow` (docs/language.md), whose primal
/// counterpart has already been checked.
pub fn pow_total<S: Scalar>(x: &S, k: i64) -> S {
    let mut r = S::one();
    for _ in 0..k.unsigned_abs() {
        r = r.mul(x);
    }
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
