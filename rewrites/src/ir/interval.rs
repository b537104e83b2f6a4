//! Interval arithmetic on [`Interval`] (inclusive `i64` bounds) for the bounds analysis of
//! `Z` classes, and the bounds of each node kind (`node_bounds`).
//!
//! Every operation is *sound*: the result contains every value the operation can produce
//! from operands within the given intervals, following the evaluator's conventions exactly
//! (floor division with `x / 0 = 0`, `x % 0 = x`, out-of-bounds reads give 0). An operation
//! whose bounds would overflow `i64`, or that the analysis does not model, gives `None`
//! ("unknown"). An evaluation that errors (integer overflow) produces no value, so bounds
//! speak only of values of evaluations that succeed.

use super::analysis::{Interval, IrGraph, Ty};
use super::lang::{Const, Ir};
use adora_core::types::{Base, Type};
use egg::Id;
use num_traits::ToPrimitive;

impl Interval {
    /// The interval `[v, v]`.
    pub fn point(v: i64) -> Interval {
        Interval { lo: v, hi: v }
    }

    /// `[lo, hi]`, or `None` when it is empty (`lo > hi`).
    pub fn new(lo: i64, hi: i64) -> Option<Interval> {
        (lo <= hi).then_some(Interval { lo, hi })
    }

    /// Whether `v` lies in the interval.
    pub fn contains(&self, v: i64) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// Whether the whole interval lies in `[lo, hi]` (e.g. an index provably in `0 .. n`:
    /// `within(0, n - 1)`).
    pub fn within(&self, lo: i64, hi: i64) -> bool {
        lo <= self.lo && self.hi <= hi
    }

    /// Whether every value is in bounds of a dimension of size `n` (`0 <= v < n`).
    pub fn in_extent(&self, n: usize) -> bool {
        self.lo >= 0 && (self.hi as i128) < n as i128
    }

    /// Whether no value is in bounds of a dimension of size `n`.
    pub fn outside_extent(&self, n: usize) -> bool {
        self.hi < 0 || (self.lo as i128) >= n as i128
    }

    /// The smallest interval containing both.
    pub fn hull(self, o: Interval) -> Interval {
        Interval {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }

    /// The intersection, `None` when empty.
    pub fn intersect(self, o: Interval) -> Option<Interval> {
        Interval::new(self.lo.max(o.lo), self.hi.min(o.hi))
    }

    /// `-x`.
    pub fn negate(self) -> Option<Interval> {
        Interval::new(self.hi.checked_neg()?, self.lo.checked_neg()?)
    }

    /// `abs(x)`.
    pub fn abs(self) -> Option<Interval> {
        if self.lo >= 0 {
            Some(self)
        } else if self.hi <= 0 {
            self.negate()
        } else {
            Interval::new(0, self.lo.checked_neg()?.max(self.hi))
        }
    }

    /// `x + y`.
    pub fn plus(self, o: Interval) -> Option<Interval> {
        Interval::new(self.lo.checked_add(o.lo)?, self.hi.checked_add(o.hi)?)
    }

    /// `x - y`.
    pub fn minus(self, o: Interval) -> Option<Interval> {
        Interval::new(self.lo.checked_sub(o.hi)?, self.hi.checked_sub(o.lo)?)
    }

    /// `x * y`.
    pub fn product(self, o: Interval) -> Option<Interval> {
        corners(self, o, |a, b| a.checked_mul(b))
    }

    /// `min(x, y)`.
    pub fn min(self, o: Interval) -> Interval {
        Interval {
            lo: self.lo.min(o.lo),
            hi: self.hi.min(o.hi),
        }
    }

    /// `max(x, y)`.
    pub fn max(self, o: Interval) -> Interval {
        Interval {
            lo: self.lo.max(o.lo),
            hi: self.hi.max(o.hi),
        }
    }

    /// `x / y` (floor division; `x / 0 = 0`). Modelled when the divisor is exactly 0 or
    /// strictly positive (`floor(x / y)` is monotone in each argument there, so the
    /// corners bound it); unknown otherwise.
    pub fn quotient(self, o: Interval) -> Option<Interval> {
        if o == Interval::point(0) {
            return Some(Interval::point(0));
        }
        if o.lo <= 0 {
            return None;
        }
        corners(self, o, |a, b| Some(a.div_euclid(b)))
    }

    /// `x % y` (remainder of floor division; `x % 0 = x`). Modelled when the divisor is
    /// exactly 0 or strictly positive: the result is in `[0, y - 1]`, and exactly `x`
    /// when `0 <= x < y`; for a constant divisor whose quotient is constant over `x`'s
    /// interval, `[lo mod y, hi mod y]`.
    pub fn remainder(self, o: Interval) -> Option<Interval> {
        if o == Interval::point(0) {
            return Some(self);
        }
        if o.lo <= 0 {
            return None;
        }
        if self.lo >= 0 && self.hi < o.lo {
            return Some(self);
        }
        if o.lo == o.hi && self.lo.div_euclid(o.lo) == self.hi.div_euclid(o.lo) {
            return Interval::new(self.lo.rem_euclid(o.lo), self.hi.rem_euclid(o.lo));
        }
        let top = if self.lo >= 0 {
            self.hi.min(o.hi - 1)
        } else {
            o.hi - 1
        };
        Interval::new(0, top)
    }

    /// The sum of `n` values in the interval (`0` for `n = 0`).
    pub fn times(self, n: usize) -> Option<Interval> {
        let n = i64::try_from(n).ok()?;
        if n == 0 {
            return Some(Interval::point(0));
        }
        Interval::new(self.lo.checked_mul(n)?, self.hi.checked_mul(n)?)
    }
}

/// The hull of `f` at the four corners, `None` if any corner is.
fn corners(a: Interval, b: Interval, f: impl Fn(i64, i64) -> Option<i64>) -> Option<Interval> {
    let vs = [
        f(a.lo, b.lo)?,
        f(a.lo, b.hi)?,
        f(a.hi, b.lo)?,
        f(a.hi, b.hi)?,
    ];
    let lo = vs.iter().copied().min()?;
    let hi = vs.iter().copied().max()?;
    Interval::new(lo, hi)
}

fn data_bounds(eg: &IrGraph, id: Id) -> Option<Interval> {
    eg[id].data.bounds
}

fn shape_of(eg: &IrGraph, id: Id) -> Option<Vec<usize>> {
    match &eg[id].data.ty {
        Ty::Value(Type::Array(_, s)) => Some(s.clone()),
        _ => None,
    }
}

/// `hull(b, 0)` unless every index in `ixs` is provably within the matching dimension of
/// `dims` (then reads never go out of bounds and `b` stands).
fn with_oob_zero(eg: &IrGraph, b: Interval, ixs: &[Id], dims: &[usize]) -> Interval {
    let in_bounds = ixs
        .iter()
        .zip(dims)
        .all(|(j, &d)| data_bounds(eg, *j).is_some_and(|iv| iv.in_extent(d)))
        && ixs.len() <= dims.len();
    if in_bounds {
        b
    } else {
        b.hull(Interval::point(0))
    }
}

/// Bounds of every element of a node of type `ty` (a `Z` array of any rank, scalars
/// included), from its children's bounds. `None` for other types and unmodelled nodes.
pub(crate) fn node_bounds(eg: &IrGraph, node: &Ir, ty: &Ty) -> Option<Interval> {
    if !matches!(ty, Ty::Value(Type::Array(Base::Z, _))) {
        return None;
    }
    let b = |id: &Id| data_bounds(eg, *id);
    match node {
        Ir::Lit(Const::Int(n)) => n.to_i64().map(Interval::point),
        Ir::IVar(v) => {
            let ext = eg.analysis.ivars.get(v.0 as usize)?.extent;
            Interval::new(0, i64::try_from(ext).ok()?.checked_sub(1)?)
        }
        Ir::Iota([n]) => {
            let n = super::leaves::nat(eg, *n).ok()?;
            Interval::new(0, i64::try_from(n).ok()?.checked_sub(1)?)
        }
        Ir::Neg([a]) => b(a)?.negate(),
        Ir::Abs([a]) => b(a)?.abs(),
        Ir::Add([x, y]) => b(x)?.plus(b(y)?),
        Ir::Sub([x, y]) => b(x)?.minus(b(y)?),
        Ir::Mul([x, y]) => b(x)?.product(b(y)?),
        Ir::Div([x, y]) => b(x)?.quotient(b(y)?),
        Ir::Mod([x, y]) => b(x)?.remainder(b(y)?),
        Ir::Min([x, y]) => Some(b(x)?.min(b(y)?)),
        Ir::Max([x, y]) => Some(b(x)?.max(b(y)?)),
        Ir::Select([c, x, y]) => match &eg[*c].data.constant {
            Some(Const::Bool(true)) => b(x),
            Some(Const::Bool(false)) => b(y),
            _ => Some(b(x)?.hull(b(y)?)),
        },
        Ir::Pow([_, k]) if matches!(&eg[*k].data.constant, Some(Const::Int(z)) if *z == 0.into()) => {
            Some(Interval::point(1))
        }
        Ir::Replicate([_, x])
        | Ir::Transpose([_, x])
        | Ir::Reshape([_, x])
        | Ir::Build([_, _, x]) => b(x),
        Ir::Append([x, y]) => Some(b(x)?.hull(b(y)?)),
        Ir::Array(xs) | Ir::Stack(xs) => {
            let mut it = xs.iter();
            let first = b(it.next()?)?;
            it.try_fold(first, |acc, x| Some(acc.hull(b(x)?)))
        }
        Ir::Sum([x]) => {
            let n: usize = shape_of(eg, *x)?.iter().product();
            b(x)?.times(n)
        }
        Ir::SumOuter([x]) => {
            let n = *shape_of(eg, *x)?.first()?;
            b(x)?.times(n)
        }
        Ir::Index(ch) => {
            let (src, ixs) = ch.split_first()?;
            let dims = shape_of(eg, *src)?;
            Some(with_oob_zero(eg, b(src)?, ixs, &dims))
        }
        Ir::Gather([_, src, _, ixs]) => {
            let dims = shape_of(eg, *src)?;
            let ixs = super::leaves::ixs_children(eg, *ixs)?;
            Some(with_oob_zero(eg, b(src)?, &ixs, &dims))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(lo: i64, hi: i64) -> Interval {
        Interval::new(lo, hi).unwrap()
    }

    /// Every operation's result contains the operation applied to every pair of points.
    #[test]
    fn operations_are_sound_on_small_intervals() {
        let ivs: Vec<Interval> = (-4..=4)
            .flat_map(|lo| (lo..=4).map(move |hi| iv(lo, hi)))
            .collect();
        for &a in &ivs {
            for &c in &ivs {
                for x in a.lo..=a.hi {
                    for y in c.lo..=c.hi {
                        assert!(a.plus(c).unwrap().contains(x + y));
                        assert!(a.minus(c).unwrap().contains(x - y));
                        assert!(a.product(c).unwrap().contains(x * y));
                        assert!(a.min(c).contains(x.min(y)));
                        assert!(a.max(c).contains(x.max(y)));
                        if let Some(d) = a.quotient(c) {
                            let q = if y == 0 {
                                0
                            } else {
                                (x as f64 / y as f64).floor() as i64
                            };
                            assert!(d.contains(q), "{x}/{y} in {d:?}");
                        }
                        if let Some(r) = a.remainder(c) {
                            let m = if y == 0 {
                                x
                            } else {
                                x - y * (x as f64 / y as f64).floor() as i64
                            };
                            assert!(r.contains(m), "{x}%{y}={m} in {r:?} ({a:?} % {c:?})");
                        }
                    }
                    assert!(a.negate().unwrap().contains(-x));
                    assert!(a.abs().unwrap().contains(x.abs()));
                    assert!(a.times(3).unwrap().contains(3 * x));
                }
            }
        }
    }

    #[test]
    fn overflow_is_unknown_and_positive_divisors_are_modelled() {
        assert!(iv(i64::MAX - 1, i64::MAX).plus(iv(1, 1)).is_none());
        assert!(iv(i64::MIN, 0).negate().is_none());
        assert_eq!(iv(0, 9).quotient(iv(2, 2)), Some(iv(0, 4)));
        assert_eq!(iv(-3, 9).quotient(iv(-1, 2)), None);
        assert_eq!(iv(0, 9).remainder(iv(7, 7)), Some(iv(0, 6)));
        assert_eq!(iv(7, 9).remainder(iv(7, 7)), Some(iv(0, 2)));
        assert_eq!(iv(2, 5).remainder(iv(7, 7)), Some(iv(2, 5)));
        assert!(iv(0, 3).in_extent(4) && !iv(0, 4).in_extent(4));
        assert!(iv(4, 9).outside_extent(4) && iv(-3, -1).outside_extent(4));
    }
}
