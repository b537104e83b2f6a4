//! Scatters computed as gathers (docs/backend.md, "Scatters as gathers"). A host-level
//! `scatter` into zeros whose index is a shifted permutation of the source's index
//! variables writes each destination element from a fixed family of source points, so
//! each destination element can read and sum them itself — no zeroing kernel, no
//! sequential addition of (index, value) pairs:
//!
//! | index of the scatter over `[u…, w…]`          | kernel                                      |
//! |-----------------------------------------------|---------------------------------------------|
//! | `[u_t + off_t(w)]`, `[u_t - off_t(w)]`, `[u_t]` | `out[o] = Σ_w [u_t in range] value(u, w)`, |
//! |   with distinct `u_t` and `off_t` free of `u`  |   `u_t = o_t - off_t(w)` (a `reduce`)       |
//! | the same with no `w` (a transpose)            | `out[o] = [u in range] value(u)` (a `map`)  |
//!
//! Engine `linear`'s transpose of a gather `x[i + j]` (a convolution's window) is such a
//! scatter, and its transpose of a matrix product writes `[j, i]` — a transpose.
//! Each destination element sums its source points in increasing order of `w`, not in the
//! scatter's source order: the same sum of the same terms, rounded in another order.

use super::arr::Ids;
use super::sx::{Bin, Sx, VarId};
use super::{KernelKind, RedOp};

/// The signed terms of a sum `t_1 ± t_2 ± …`.
fn terms(s: &Sx, sign: bool, out: &mut Vec<(bool, Sx)>) {
    match s {
        Sx::Bin(Bin::Add, a, b) => {
            terms(a, sign, out);
            terms(b, sign, out);
        }
        Sx::Bin(Bin::Sub, a, b) => {
            terms(a, sign, out);
            terms(b, !sign, out);
        }
        s => out.push((sign, s.clone())),
    }
}

/// `index = u + off` with `u` a source variable added once and `off` free of it: `u` and
/// `off` (`None` for `index = u`), so that `u = o - off` at destination index `o`.
fn shifted(index: &Sx, src_vars: &[VarId]) -> Option<(VarId, Option<Sx>)> {
    let mut ts = Vec::new();
    terms(index, true, &mut ts);
    let k = ts.iter().position(|(plus, t)| {
        matches!(t, Sx::Var(v) if *plus && src_vars.contains(v)
            && ts.iter().filter(|(_, o)| o.mentions(*v)).count() == 1)
    })?;
    let (_, Sx::Var(u)) = ts.remove(k) else {
        return None;
    };
    let off = ts.into_iter().fold(None, |acc: Option<Sx>, (plus, t)| {
        Some(match (acc, plus) {
            (None, true) => t,
            (None, false) => Sx::bin(Bin::Sub, Sx::Const(0.0), t),
            (Some(a), true) => Sx::bin(Bin::Add, a, t),
            (Some(a), false) => Sx::bin(Bin::Sub, a, t),
        })
    });
    Some((u, off))
}

/// An offset that is a sum of source variables (other than the shifted ones) and integral
/// constants: integral on every source point, so `o - off` is an index exactly when the
/// scatter's index is one.
fn integral_offset(s: &Sx, allowed: &[VarId]) -> bool {
    match s {
        Sx::Var(v) => allowed.contains(v),
        Sx::Const(c) => c.fract() == 0.0 && c.abs() < 9.0e15,
        Sx::Bin(Bin::Add | Bin::Sub | Bin::Mul, a, b) => {
            integral_offset(a, allowed) && integral_offset(b, allowed)
        }
        _ => false,
    }
}

/// The gather form of `out = 0; out[index(vars)] += value(vars)` over the source space of
/// `vars` (ranges in `ids`), with `out_vars` fresh index variables of the destination; or
/// `None` when the index is not a shifted permutation.
pub(crate) fn as_gather(
    ids: &mut Ids,
    vars: &[VarId],
    index: &[Sx],
    value: &Sx,
    out_shape: &[usize],
) -> Option<KernelKind> {
    let mut us = Vec::new();
    let mut offs = Vec::new();
    for i in index {
        let (u, off) = shifted(i, vars)?;
        if us.contains(&u) {
            return None;
        }
        us.push(u);
        offs.push(off);
    }
    let ws: Vec<VarId> = vars.iter().copied().filter(|v| !us.contains(v)).collect();
    for off in offs.iter().flatten() {
        if !integral_offset(off, &ws) {
            return None;
        }
    }
    let out_vars = ids.indices(out_shape);
    // u_t = o_t - sign · off_t, guarded to lie in u_t's dimension; an unshifted u_t is
    // o_t itself, in range without a guard when its dimension is at least o_t's.
    let mut body = value.clone();
    let mut lets = Vec::new();
    let mut cond: Option<Sx> = None;
    for (((&u, off), &o), &n) in us.iter().zip(&offs).zip(&out_vars).zip(out_shape) {
        let range = ids.range[&u];
        let src = match off {
            None if range >= n => {
                body = body.subst(u, &Sx::Var(o));
                continue;
            }
            None => Sx::Var(o),
            Some(off) => Sx::bin(Bin::Sub, Sx::Var(o), off.clone()),
        };
        let c = Sx::bin(
            Bin::And,
            Sx::bin(Bin::Ge, Sx::Var(u), Sx::Const(0.0)),
            Sx::bin(Bin::Lt, Sx::Var(u), Sx::Const(range as f64)),
        );
        cond = Some(match cond {
            None => c,
            Some(d) => Sx::bin(Bin::And, d, c),
        });
        lets.push((u, src));
    }
    if let Some(c) = cond {
        body = Sx::select(c, body, Sx::Const(0.0));
    }
    for (u, src) in lets.into_iter().rev() {
        body = Sx::Let(u, Box::new(src), Box::new(body));
    }
    if ws.is_empty() {
        return Some(KernelKind::Map {
            vars: out_vars,
            body,
        });
    }
    let red: Vec<usize> = ws.iter().map(|w| ids.range[w]).collect();
    Some(KernelKind::Reduce {
        vars: out_vars,
        red_vars: ws,
        red,
        op: RedOp::Add,
        init: Sx::Const(0.0),
        body,
    })
}
