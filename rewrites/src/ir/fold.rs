//! Constant folding of scalar nodes, exactly as `adora_semantics::eval` evaluates them in
//! exact mode:
//!
//! - `Z` is `i64`: `/` is floor division with `x / 0 = 0`, `%` its remainder with
//!   `x % 0 = x`; an operation that overflows (`+ - *`, negation, `abs`, `pow`, `floor` of
//!   a real out of range) makes the evaluator fail, so it is **not folded**;
//! - `R` is exact rationals with total division (`x / 0 = 0`); `pow(x, k)` multiplies `|k|`
//!   times and takes the total reciprocal for `k < 0` (`1 / 0 = 0`);
//! - `min(a, b)` / `max(a, b)` return an operand (ties give equal values);
//! - comparisons on `R` and `Z`, `==`/`!=` also on `B`, `&&`, `||`, `!`;
//! - `real(z)`, `floor(r)`; `select` with a constant condition takes the chosen operand's
//!   constant (strictness only matters for evaluations that fail); `sum` of a scalar is
//!   the scalar.
//!
//! Transcendental functions are never folded (exact mode rejects them). Results whose
//! numerator or denominator exceeds [`MAX_FOLD_BITS`] bits are not folded (they would only
//! bloat the program).

use super::lang::{Const, Ir};
use egg::Id;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cmp::Ordering;

/// Largest numerator / denominator (in bits) of a folded real.
pub const MAX_FOLD_BITS: u64 = 256;

fn z(c: Option<&Const>) -> Option<i64> {
    match c? {
        Const::Int(n) => n.to_i64(),
        _ => None,
    }
}

fn r(c: Option<&Const>) -> Option<&BigRational> {
    match c? {
        Const::Real(x) => Some(x),
        _ => None,
    }
}

fn b(c: Option<&Const>) -> Option<bool> {
    match c? {
        Const::Bool(x) => Some(*x),
        _ => None,
    }
}

fn int(v: i64) -> Const {
    Const::Int(BigInt::from(v))
}

fn small(x: BigRational) -> Option<Const> {
    let ok = x.numer().bits() <= MAX_FOLD_BITS && x.denom().bits() <= MAX_FOLD_BITS;
    ok.then_some(Const::Real(x))
}

/// Floor division on `Z` as the evaluator does it (`x / 0 = 0`), `None` on overflow.
pub fn floor_div(x: i64, y: i64) -> Option<i64> {
    if y == 0 {
        return Some(0);
    }
    let q = x.checked_div(y)?;
    Some(if x % y != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    })
}

/// The remainder of floor division on `Z` (`x % 0 = x`).
pub fn floor_mod(x: i64, y: i64) -> i64 {
    if y == 0 {
        return x;
    }
    if y == -1 {
        return 0;
    }
    let m = x % y;
    if m != 0 && ((m < 0) != (y < 0)) {
        m + y
    } else {
        m
    }
}

/// Total real division (`x / 0 = 0`).
fn rdiv(x: &BigRational, y: &BigRational) -> BigRational {
    if y.is_zero() {
        BigRational::zero()
    } else {
        x / y
    }
}

fn zpow(v: i64, k: i64) -> Option<i64> {
    let n = k.unsigned_abs();
    let p = match v {
        0 => i64::from(n == 0),
        1 => 1,
        -1 => match n % 2 {
            0 => 1,
            _ => -1,
        },
        _ => v.checked_pow(u32::try_from(n).ok()?)?,
    };
    if k < 0 {
        floor_div(1, p)
    } else {
        Some(p)
    }
}

fn rpow(x: &BigRational, k: i64) -> Option<Const> {
    let n = k.unsigned_abs();
    let bits = x.numer().bits().max(x.denom().bits());
    if bits.saturating_mul(n) > MAX_FOLD_BITS * 2
        && !x.is_zero()
        && x.abs() != BigRational::from_integer(1.into())
    {
        return None;
    }
    let p = if x.is_zero() {
        if n == 0 {
            BigRational::from_integer(1.into())
        } else {
            BigRational::zero()
        }
    } else {
        num_traits::pow::pow(x.clone(), usize::try_from(n).ok()?)
    };
    let p = if k < 0 {
        rdiv(&BigRational::from_integer(1.into()), &p)
    } else {
        p
    };
    small(p)
}

fn compare(node: &Ir, o: Ordering) -> Option<bool> {
    Some(match node {
        Ir::Eq(_) => o == Ordering::Equal,
        Ir::Ne(_) => o != Ordering::Equal,
        Ir::Lt(_) => o == Ordering::Less,
        Ir::Le(_) => o != Ordering::Greater,
        Ir::Gt(_) => o == Ordering::Greater,
        Ir::Ge(_) => o != Ordering::Less,
        _ => return None,
    })
}

fn floor_rat(x: &BigRational) -> Option<i64> {
    x.floor().to_integer().to_i64()
}

/// The constant value of `node` given its children's constants (`c(id)`), when every
/// operand it needs is constant and the evaluator would succeed (see the module docs).
pub fn fold<'a>(node: &Ir, c: impl Fn(Id) -> Option<&'a Const>) -> Option<Const> {
    match node {
        Ir::Lit(k) => Some(k.clone()),
        Ir::Neg([a]) => match c(*a)? {
            Const::Real(x) => Some(Const::Real(-x)),
            Const::Int(_) => z(c(*a))?.checked_neg().map(int),
            Const::Bool(_) => None,
        },
        Ir::Not([a]) => Some(Const::Bool(!b(c(*a))?)),
        Ir::Abs([a]) => match c(*a)? {
            Const::Real(x) => Some(Const::Real(x.abs())),
            Const::Int(_) => z(c(*a))?.checked_abs().map(int),
            Const::Bool(_) => None,
        },
        Ir::Floor([a]) => floor_rat(r(c(*a))?).map(int),
        Ir::ToReal([a]) => Some(Const::Real(BigRational::from_integer(z(c(*a))?.into()))),
        Ir::Pow([a, k]) => {
            let k = z(c(*k))?;
            match c(*a)? {
                Const::Real(x) => rpow(x, k),
                Const::Int(_) => zpow(z(c(*a))?, k).map(int),
                Const::Bool(_) => None,
            }
        }
        Ir::Add([x, y]) | Ir::Sub([x, y]) | Ir::Mul([x, y]) | Ir::Div([x, y]) | Ir::Mod([x, y]) => {
            arith(node, c(*x)?, c(*y)?)
        }
        Ir::Eq([x, y])
        | Ir::Ne([x, y])
        | Ir::Lt([x, y])
        | Ir::Le([x, y])
        | Ir::Gt([x, y])
        | Ir::Ge([x, y]) => {
            let o = match (c(*x)?, c(*y)?) {
                (Const::Real(p), Const::Real(q)) => p.cmp(q),
                (Const::Int(p), Const::Int(q)) => p.cmp(q),
                (Const::Bool(p), Const::Bool(q)) if matches!(node, Ir::Eq(_) | Ir::Ne(_)) => {
                    p.cmp(q)
                }
                _ => return None,
            };
            compare(node, o).map(Const::Bool)
        }
        Ir::And([x, y]) => Some(Const::Bool(b(c(*x))? && b(c(*y))?)),
        Ir::Or([x, y]) => Some(Const::Bool(b(c(*x))? || b(c(*y))?)),
        Ir::Min([x, y]) | Ir::Max([x, y]) => {
            let (p, q) = (c(*x)?, c(*y)?);
            let o = match (p, q) {
                (Const::Real(p), Const::Real(q)) => p.cmp(q),
                (Const::Int(p), Const::Int(q)) => p.cmp(q),
                _ => return None,
            };
            let keep_left = match node {
                Ir::Max(_) => o != Ordering::Less,
                _ => o != Ordering::Greater,
            };
            Some(if keep_left { p.clone() } else { q.clone() })
        }
        Ir::Select([k, x, y]) => {
            if b(c(*k))? {
                c(*x).cloned()
            } else {
                c(*y).cloned()
            }
        }
        Ir::Sum([x]) => c(*x).cloned(),
        _ => None,
    }
}

fn arith(node: &Ir, p: &Const, q: &Const) -> Option<Const> {
    match (p, q) {
        (Const::Real(x), Const::Real(y)) => small(match node {
            Ir::Add(_) => x + y,
            Ir::Sub(_) => x - y,
            Ir::Mul(_) => x * y,
            Ir::Div(_) => rdiv(x, y),
            _ => return None,
        }),
        (Const::Int(_), Const::Int(_)) => {
            let (x, y) = (z(Some(p))?, z(Some(q))?);
            match node {
                Ir::Add(_) => x.checked_add(y),
                Ir::Sub(_) => x.checked_sub(y),
                Ir::Mul(_) => x.checked_mul(y),
                Ir::Div(_) => floor_div(x, y),
                Ir::Mod(_) => Some(floor_mod(x, y)),
                _ => None,
            }
            .map(int)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_division_follows_the_evaluator() {
        assert_eq!(floor_div(7, 2), Some(3));
        assert_eq!(floor_div(-7, 2), Some(-4));
        assert_eq!(floor_div(7, -2), Some(-4));
        assert_eq!(floor_div(7, 0), Some(0));
        assert_eq!(floor_div(i64::MIN, -1), None);
        assert_eq!(floor_mod(-7, 2), 1);
        assert_eq!(floor_mod(7, -2), -1);
        assert_eq!(floor_mod(7, 0), 7);
        assert_eq!(floor_mod(i64::MIN, -1), 0);
        assert_eq!(zpow(2, 62), Some(1 << 62));
        assert_eq!(zpow(2, 63), None);
        assert_eq!(zpow(-1, i64::MAX), Some(-1));
        assert_eq!(zpow(0, -1), Some(0));
        assert_eq!(zpow(2, -1), Some(0));
        assert_eq!(zpow(-1, -3), Some(-1));
    }
}
