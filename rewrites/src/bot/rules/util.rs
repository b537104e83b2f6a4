//! E-graph helpers shared by the bot rules: reading static leaves, types, free index
//! variables and bounds off a class, and adding the small terms the rules build (shapes,
//! literals, nested `replicate`s of zero, bounds guards, transposes).
//!
//! Every reader returns `None` (and every rule then declines to fire) when the e-graph does
//! not have the expected shape: rules never panic on odd classes.

use crate::ir::analysis::{Interval, IrGraph, Ty};
use crate::ir::lang::{Const, IVarId, Ir, Nat, ShapeLeaf};
use adora_core::types::{Base, Type};
use egg::{Id, Language};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

/// The base and shape of an array-valued class.
pub(crate) fn arr(eg: &IrGraph, id: Id) -> Option<(Base, Vec<usize>)> {
    match &eg[id].data.ty {
        Ty::Value(Type::Array(b, s)) => Some((*b, s.clone())),
        _ => None,
    }
}

/// The shape of an array-valued class.
pub(crate) fn shape_of(eg: &IrGraph, id: Id) -> Option<Vec<usize>> {
    arr(eg, id).map(|(_, s)| s)
}

/// The `Nat` leaf of a static class.
pub(crate) fn nat(eg: &IrGraph, id: Id) -> Option<usize> {
    eg[id].nodes.iter().find_map(|n| match n {
        Ir::Nat(Nat(k)) => Some(*k),
        _ => None,
    })
}

/// The `Shape` leaf of a static class.
pub(crate) fn shape_leaf(eg: &IrGraph, id: Id) -> Option<Vec<usize>> {
    eg[id].nodes.iter().find_map(|n| match n {
        Ir::Shape(ShapeLeaf(s)) => Some(s.clone()),
        _ => None,
    })
}

/// The index variable of a binder class (the unique `IVar` leaf in it).
pub(crate) fn ivar(eg: &IrGraph, id: Id) -> Option<IVarId> {
    let mut found = eg[id].nodes.iter().filter_map(|n| match n {
        Ir::IVar(v) => Some(*v),
        _ => None,
    });
    let v = found.next()?;
    found.next().is_none().then_some(v)
}

/// The children of the first `binders` node of a class.
pub(crate) fn binders(eg: &IrGraph, id: Id) -> Option<Vec<Id>> {
    eg[id].nodes.iter().find_map(|n| match n {
        Ir::Binders(xs) => Some(xs.to_vec()),
        _ => None,
    })
}

/// The children of the first `ixs` node of a class.
pub(crate) fn ixs(eg: &IrGraph, id: Id) -> Option<Vec<Id>> {
    eg[id].nodes.iter().find_map(|n| match n {
        Ir::Ixs(xs) => Some(xs.to_vec()),
        _ => None,
    })
}

/// The index variables of a list of binder classes (`None` if one is not a binder).
pub(crate) fn ivars(eg: &IrGraph, ids: &[Id]) -> Option<Vec<IVarId>> {
    ids.iter().map(|&b| ivar(eg, b)).collect()
}

/// Whether index variable `v` may occur free in class `id` (the analysis keeps the
/// intersection over the class's members, so `false` proves independence).
pub(crate) fn mentions(eg: &IrGraph, id: Id, v: IVarId) -> bool {
    eg[id].data.free.binary_search(&v).is_ok()
}

/// Whether any of `vs` may occur free in class `id`.
pub(crate) fn mentions_any(eg: &IrGraph, id: Id, vs: &[IVarId]) -> bool {
    vs.iter().any(|v| mentions(eg, id, *v))
}

/// The known value of an integer class: its constant, or a one-point interval.
pub(crate) fn int_value(eg: &IrGraph, id: Id) -> Option<i64> {
    let d = &eg[id].data;
    if let Some(Const::Int(k)) = &d.constant {
        return k.to_i64();
    }
    let lit = eg[id].nodes.iter().find_map(|n| match n {
        Ir::Lit(Const::Int(k)) => k.to_i64(),
        _ => None,
    });
    if lit.is_some() {
        return lit;
    }
    match d.bounds {
        Some(Interval { lo, hi }) if lo == hi => Some(lo),
        _ => None,
    }
}

/// The interval of an integer class (a constant is a one-point interval).
pub(crate) fn interval(eg: &IrGraph, id: Id) -> Option<Interval> {
    if let Some(k) = int_value(eg, id) {
        return Some(Interval { lo: k, hi: k });
    }
    eg[id].data.bounds
}

/// What the bounds analysis knows about `0 <= j < n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Range {
    /// Provably inside.
    In,
    /// Provably outside.
    Out,
    /// Not decided.
    Unknown,
}

/// Decides `0 <= j < n` from the interval of `j`.
pub(crate) fn range(eg: &IrGraph, j: Id, n: usize) -> Range {
    let n = n as i128;
    match interval(eg, j) {
        Some(Interval { lo, hi }) if lo as i128 >= 0 && (hi as i128) < n => Range::In,
        Some(Interval { lo, hi }) if (hi as i128) < 0 || lo as i128 >= n || lo > hi => Range::Out,
        _ if n == 0 => Range::Out,
        _ => Range::Unknown,
    }
}

/// Decides `0 <= j_d < n_d` for every pair.
pub(crate) fn ranges(eg: &IrGraph, checks: &[(Id, usize)]) -> Range {
    let mut all_in = true;
    for &(j, n) in checks {
        match range(eg, j, n) {
            Range::Out => return Range::Out,
            Range::Unknown => all_in = false,
            Range::In => {}
        }
    }
    if all_in {
        Range::In
    } else {
        Range::Unknown
    }
}

/// Adds a `Nat` leaf.
pub(crate) fn add_nat(eg: &mut IrGraph, k: usize) -> Id {
    eg.add(Ir::Nat(Nat(k)))
}

/// Adds a `Shape` leaf.
pub(crate) fn add_shape(eg: &mut IrGraph, s: Vec<usize>) -> Id {
    eg.add(Ir::Shape(ShapeLeaf(s)))
}

/// Adds an integer literal.
pub(crate) fn add_int(eg: &mut IrGraph, k: i64) -> Id {
    eg.add(Ir::Lit(Const::Int(BigInt::from(k))))
}

/// Adds an index-variable leaf.
pub(crate) fn add_ivar(eg: &mut IrGraph, v: IVarId) -> Id {
    eg.add(Ir::IVar(v))
}

/// The zero literal of a base type (`r0`, `z0`, `false`).
pub(crate) fn zero_lit(b: Base) -> Const {
    match b {
        Base::R => Const::Real(BigRational::zero()),
        Base::Z => Const::Int(BigInt::zero()),
        Base::B => Const::Bool(false),
    }
}

/// `replicate s0 (replicate s1 (... e))`: `e` broadcast to the outer shape `s`.
pub(crate) fn replicate_to(eg: &mut IrGraph, e: Id, s: &[usize]) -> Id {
    let mut acc = e;
    for &d in s.iter().rev() {
        let n = add_nat(eg, d);
        acc = eg.add(Ir::Replicate([n, acc]));
    }
    acc
}

/// The zero array of base `b` and shape `s` (a nested `replicate` of the zero literal).
pub(crate) fn zeros(eg: &mut IrGraph, b: Base, s: &[usize]) -> Id {
    let z = eg.add(Ir::Lit(zero_lit(b)));
    replicate_to(eg, z, s)
}

/// The scalar condition `0 <= j_1 < n_1 && ...` over the checks the bounds do not decide;
/// `None` when every check is provably true.
pub(crate) fn in_range_cond(eg: &mut IrGraph, checks: &[(Id, usize)]) -> Option<Id> {
    let mut conj: Option<Id> = None;
    for &(j, n) in checks {
        let iv = interval(eg, j);
        let lo_ok = iv.is_some_and(|i| i.lo >= 0);
        let hi_ok = iv.is_some_and(|i| (i.hi as i128) < n as i128);
        let mut parts = Vec::new();
        if !lo_ok {
            let z = add_int(eg, 0);
            parts.push(eg.add(Ir::Le([z, j])));
        }
        if !hi_ok {
            let m = add_int(eg, n as i64);
            parts.push(eg.add(Ir::Lt([j, m])));
        }
        for p in parts {
            conj = Some(match conj {
                None => p,
                Some(c) => eg.add(Ir::And([c, p])),
            });
        }
    }
    conj
}

/// `rhs` guarded by `0 <= j_d < n_d` for every check: `rhs` itself when the bounds prove
/// them, the zero array when they refute one, and otherwise
/// `select(cond, rhs, zeros)` (a scalar condition: whole-array selection). `rhs` is built
/// lazily so that a refuted guard adds nothing.
pub(crate) fn guarded(
    eg: &mut IrGraph,
    checks: &[(Id, usize)],
    ty: &(Base, Vec<usize>),
    rhs: impl FnOnce(&mut IrGraph) -> Option<Id>,
) -> Option<Id> {
    match ranges(eg, checks) {
        Range::Out => Some(zeros(eg, ty.0, &ty.1)),
        Range::In => rhs(eg),
        Range::Unknown => {
            let body = rhs(eg)?;
            match in_range_cond(eg, checks) {
                None => Some(body),
                Some(c) => {
                    let z = zeros(eg, ty.0, &ty.1);
                    Some(eg.add(Ir::Select([c, body, z])))
                }
            }
        }
    }
}

/// The permutation `[1, 0, 2, ..., r-1]` that swaps the two outer dimensions.
pub(crate) fn swap01(rank: usize) -> Vec<usize> {
    let mut p: Vec<usize> = (0..rank).collect();
    if rank >= 2 {
        p.swap(0, 1);
    }
    p
}

/// `transpose perm e` (just `e` for the identity permutation).
pub(crate) fn transpose(eg: &mut IrGraph, perm: Vec<usize>, e: Id) -> Id {
    if perm.iter().enumerate().all(|(k, &p)| k == p) {
        return e;
    }
    let p = add_shape(eg, perm);
    eg.add(Ir::Transpose([p, e]))
}

/// `(build n i e)` for a binder class `i`.
pub(crate) fn build(eg: &mut IrGraph, n: Id, i: Id, e: Id) -> Id {
    eg.add(Ir::Build([n, i, e]))
}

/// `(index a js...)`, or `a` itself for an empty index.
pub(crate) fn index(eg: &mut IrGraph, a: Id, js: &[Id]) -> Id {
    if js.is_empty() {
        return a;
    }
    let mut ch = Vec::with_capacity(js.len() + 1);
    ch.push(a);
    ch.extend_from_slice(js);
    eg.add(Ir::Index(ch.into_boxed_slice()))
}

/// `(gather [sh] src (binders bs...) (ixs xs...))`.
pub(crate) fn gather(eg: &mut IrGraph, sh: Vec<usize>, src: Id, bs: &[Id], xs: &[Id]) -> Id {
    let s = add_shape(eg, sh);
    let b = eg.add(Ir::Binders(bs.to_vec().into_boxed_slice()));
    let x = eg.add(Ir::Ixs(xs.to_vec().into_boxed_slice()));
    eg.add(Ir::Gather([s, src, b, x]))
}

/// Whether a class contains a constant array literal: nested `array` nodes whose leaves
/// are scalar constants (the "constant" of Theorem 5.1, as the extractor and
/// `check_normal_form` define it).
pub(crate) fn is_constant_array(eg: &IrGraph, id: Id) -> bool {
    fn go(eg: &IrGraph, id: Id, depth: usize) -> bool {
        if depth > 64 {
            return false;
        }
        eg[id].nodes.iter().any(|n| match n {
            Ir::Array(xs) => xs.iter().all(|&x| go(eg, x, depth + 1)),
            Ir::Lit(_) => true,
            _ => false,
        })
    }
    matches!(arr(eg, id), Some((_, s)) if !s.is_empty()) && go(eg, id, 0)
}

/// Whether a class holds a program variable or a projection of one (possibly nested):
/// the "variable" of Theorem 5.1.
pub(crate) fn is_variable(eg: &IrGraph, id: Id) -> bool {
    fn go(eg: &IrGraph, id: Id, depth: usize) -> bool {
        depth <= 64
            && eg[id].nodes.iter().any(|n| match n {
                Ir::Var(_) => true,
                Ir::Proj([_, t]) => go(eg, *t, depth + 1),
                _ => false,
            })
    }
    go(eg, id, 0)
}

/// The value every element of class `id` has when the class holds a literal or a nested
/// `replicate` of one (a "fill", such as the zeros of a guard).
pub(crate) fn fill_of(eg: &IrGraph, id: Id) -> Option<Const> {
    fn go(eg: &IrGraph, id: Id, depth: usize) -> Option<Const> {
        if let Some(c) = &eg[id].data.constant {
            return Some(c.clone());
        }
        if depth > 16 {
            return None;
        }
        eg[id].nodes.iter().find_map(|n| match n {
            Ir::Lit(c) => Some(c.clone()),
            Ir::Replicate([_, x]) => go(eg, *x, depth + 1),
            _ => None,
        })
    }
    go(eg, id, 0)
}

/// Whether class `id` is a fill of zeros (`0.0`, `0` or `false` everywhere).
pub(crate) fn is_zero_fill(eg: &IrGraph, id: Id) -> bool {
    fill_of(eg, id).is_some_and(|c| match c {
        Const::Real(r) => r.is_zero(),
        Const::Int(k) => k.is_zero(),
        Const::Bool(b) => !b,
    })
}

/// The least depth of a term of class `id` (a leaf has depth 1), when it is at most
/// `max`; `None` otherwise. A bounded search: it never looks deeper than `max`.
pub(crate) fn depth_within(eg: &IrGraph, id: Id, max: usize) -> Option<usize> {
    fn go(eg: &IrGraph, id: Id, budget: usize) -> Option<usize> {
        if budget == 0 {
            return None;
        }
        let mut best: Option<usize> = None;
        for n in &eg[id].nodes {
            let limit = best.map_or(budget, |b| b - 1);
            if limit == 0 {
                break;
            }
            let here = n
                .children()
                .iter()
                .try_fold(1, |acc, &c| go(eg, c, limit - 1).map(|d| acc.max(d + 1)));
            if let Some(d) = here {
                best = Some(best.map_or(d, |b: usize| b.min(d)));
            }
        }
        best
    }
    go(eg, id, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap01_swaps_only_the_two_outer_dimensions() {
        assert_eq!(swap01(1), vec![0]);
        assert_eq!(swap01(2), vec![1, 0]);
        assert_eq!(swap01(4), vec![1, 0, 2, 3]);
    }

    #[test]
    fn zero_literals_have_the_base_type() {
        assert_eq!(zero_lit(Base::B), Const::Bool(false));
        assert_eq!(zero_lit(Base::Z).to_string(), "z0");
        assert_eq!(zero_lit(Base::R).to_string(), "r0");
    }
}
