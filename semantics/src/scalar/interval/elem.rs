//! The elementary functions on enclosures: monotone ones bound each end, `sin` and `cos`
//! look for extrema inside the interval, `log` and `sqrt` check their domain
//! (docs/oracle.md, "Certified enclosures").

use super::float::{self, bound, cmp, Down, Fun, Up};
use super::{precision, record, with_consts, Interval};
use crate::scalar::{Transcendental, Undecided};
use astro_float_num::BigFloat;
use std::cmp::Ordering;

/// `f(x)` enclosed at `p` bits.
pub(super) fn apply(x: &Interval, f: Transcendental, p: usize) -> Interval {
    match f {
        Transcendental::Exp => monotone(x, Fun::Exp, p),
        Transcendental::Tanh => monotone(x, Fun::Tanh, p),
        Transcendental::Log => {
            if domain(
                x,
                "log",
                x.sign_hi() != Ordering::Greater,
                x.sign_lo() != Ordering::Greater,
            ) {
                monotone(x, Fun::Ln, p)
            } else {
                Interval::point_i64(0)
            }
        }
        Transcendental::Sqrt => {
            if domain(
                x,
                "sqrt",
                x.sign_hi() == Ordering::Less,
                x.sign_lo() == Ordering::Less,
            ) {
                monotone(x, Fun::Sqrt, p)
            } else {
                Interval::point_i64(0)
            }
        }
        Transcendental::Sin => periodic(x, Fun::Sin, p),
        Transcendental::Cos => periodic(x, Fun::Cos, p),
    }
}

/// Checks the domain of `log` / `sqrt`: `outside` (the whole enclosure lies where the real
/// function has no value) is a domain error, `straddles` (part of it does) undecidable.
fn domain(x: &Interval, name: &str, outside: bool, straddles: bool) -> bool {
    let bits = precision();
    if outside {
        record(Undecided::Domain(format!(
            "`{name}` has no real value on the enclosure {x:?}"
        )));
        false
    } else if straddles {
        record(Undecided::Undecidable(format!(
            "undecidable at {bits} bits: the enclosure {x:?} of `{name}`'s argument \
             straddles the boundary of its domain"
        )));
        false
    } else {
        true
    }
}

/// An increasing function: `[f(lo) rounded down, f(hi) rounded up]`.
fn monotone(x: &Interval, f: Fun, p: usize) -> Interval {
    with_consts(|cc| Interval::new(bound(f, &x.lo, p, Down, cc), bound(f, &x.hi, p, Up, cc)))
}

/// `sin` / `cos`: the bounds at both ends, widened to `1` (`-1`) when the interval may
/// contain a maximum (minimum) of the function, clamped to `[-1, 1]`.
fn periodic(x: &Interval, f: Fun, p: usize) -> Interval {
    // f(lo) and f(hi) rounded down, then both rounded up.
    let (lo_dn, hi_dn, lo_up, hi_up) = with_consts(|cc| {
        (
            bound(f, &x.lo, p, Down, cc),
            bound(f, &x.hi, p, Down, cc),
            bound(f, &x.lo, p, Up, cc),
            bound(f, &x.hi, p, Up, cc),
        )
    });
    let mut lo = float::min(lo_dn, hi_dn);
    let mut hi = float::max(lo_up, hi_up);
    // The maxima of sin are at π/2 + 2kπ, its minima at -π/2 + 2kπ; cos: 0 and π.
    let (max_at, min_at) = match f {
        Fun::Sin => ((1, 2), (-1, 2)),
        _ => ((0, 1), (1, 1)),
    };
    let one = BigFloat::from_i64(1, 64);
    if may_contain(x, max_at, p) {
        hi = one.clone();
    }
    if may_contain(x, min_at, p) {
        lo = one.neg();
    }
    Interval::new(float::max(lo, one.neg()), float::min(hi, one))
}

/// Whether `[lo, hi]` may contain `c + 2kπ` for an integer `k`, where `c = (n/d)·π`:
/// whether `[(lo - c)/2π, (hi - c)/2π]`, enclosed outward, contains an integer. Never
/// `false` when it does.
fn may_contain(x: &Interval, (n, d): (i64, i64), p: usize) -> bool {
    let q = p + float::GUARD;
    let (pl, pu) = with_consts(|cc| float::pi(q, cc));
    let pi = Interval { lo: pl, hi: pu };
    let c = pi
        .mul_p(&Interval::point_i64(n), q)
        .div_p(&Interval::point_i64(d), q);
    let two_pi = pi.mul_p(&Interval::point_i64(2), q);
    let end = |b: &BigFloat| {
        Interval {
            lo: b.clone(),
            hi: b.clone(),
        }
        .sub_p(&c, q)
        .div_p(&two_pi, q)
    };
    let (a, b) = (end(&x.lo), end(&x.hi));
    cmp(&a.lo.ceil(), &b.hi.floor()) != Ordering::Greater
}
