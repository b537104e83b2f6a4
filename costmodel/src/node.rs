//! Static facts about nodes that several cost models share: outer sizes, lanes and slices
//! of the bulk operations, the ⌈log2⌉ depth of a combining tree, and saturating sums.

use adora_core::ast::{Expr, ExprKind, Op, Prim};
use adora_core::check::NodeTypes;
use adora_core::diag::Result;
use adora_core::types::{Base, Type};

/// `⌈log2 n⌉`, with `clog2(0) = clog2(1) = 0`: the depth of a balanced binary tree that
/// combines `n` values.
pub fn clog2(n: u64) -> u64 {
    if n <= 1 {
        0
    } else {
        u64::from(64 - (n - 1).leading_zeros())
    }
}

/// Number of scalars of a value of type `t`, as a count.
pub fn size(t: &Type) -> u64 {
    t.size() as u64
}

/// Whether `e`'s value is real-typed (an array of `R`).
pub fn is_real(types: &NodeTypes, e: &Expr) -> Result<bool> {
    Ok(types.of(e)?.base() == Some(Base::R))
}

/// Outer size `n` and lane size `|rest|` (scalars per outer slice) of the array `xs`.
pub fn outer_and_lane(types: &NodeTypes, xs: &Expr) -> Result<(u64, u64)> {
    let s = types.of(xs)?.as_array().map_or(&[][..], |(_, s)| s);
    let n = s.first().copied().unwrap_or(1) as u64;
    let lane = s.iter().skip(1).map(|&d| d as u64).product();
    Ok((n, lane))
}

/// Scalars per write of `scatter_into` / `reduce_by_index` into `dest`: one outer slice.
pub fn dest_slice(types: &NodeTypes, dest: &Expr) -> Result<u64> {
    Ok(outer_and_lane(types, dest)?.1)
}

/// Scalars of the value of `e`.
pub fn result_size(types: &NodeTypes, e: &Expr) -> Result<u64> {
    Ok(size(types.of(e)?))
}

/// Whether `op` is `+` or `*`, the arithmetic combining operators.
pub fn is_arith(op: &Op) -> bool {
    matches!(op, Op::Add | Op::Mul)
}

/// Whether `op` is a user lambda (its applications are evaluated, and reported, as nodes).
pub fn is_lambda(op: &Op) -> bool {
    matches!(op, Op::Lambda(_))
}

/// Whether a primitive is elementwise (one result scalar per element, computed).
pub fn is_elementwise(p: &Prim) -> bool {
    matches!(
        p,
        Prim::Exp
            | Prim::Log
            | Prim::Sin
            | Prim::Cos
            | Prim::Tanh
            | Prim::Sqrt
            | Prim::Abs
            | Prim::Pow(_)
            | Prim::Floor
            | Prim::Real
            | Prim::Min
            | Prim::Max
            | Prim::Select
    )
}

/// Whether a primitive is a real "black box" or arithmetic function counted by `ops`
/// (`exp log sin cos tanh sqrt abs pow`; `min max floor real select` are not).
pub fn is_counted_function(p: &Prim) -> bool {
    matches!(
        p,
        Prim::Exp
            | Prim::Log
            | Prim::Sin
            | Prim::Cos
            | Prim::Tanh
            | Prim::Sqrt
            | Prim::Abs
            | Prim::Pow(_)
    )
}

/// Whether `e` is a construct whose own work is the scalars it writes (data movement and
/// elementwise computation): array literals, unary and binary operators, elementwise and
/// data-movement primitives, indexing and gathers.
pub fn writes_its_result(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Array(_) | ExprKind::Unary(..) | ExprKind::Binary(..) | ExprKind::Index(..) => {
            true
        }
        ExprKind::Gather(..) => true,
        ExprKind::Prim(p, _) => !matches!(p, Prim::Sum | Prim::SumOuter),
        _ => false,
    }
}

/// Saturating `a * b` on counts.
pub fn mul(a: u64, b: u64) -> u64 {
    a.saturating_mul(b)
}

#[cfg(test)]
mod tests {
    use super::clog2;

    #[test]
    fn clog2_is_the_depth_of_a_balanced_tree() {
        let want = [
            (0, 0),
            (1, 0),
            (2, 1),
            (3, 2),
            (4, 2),
            (5, 3),
            (8, 3),
            (9, 4),
            (1 << 40, 40),
            (u64::MAX, 64),
        ];
        for (n, d) in want {
            assert_eq!(clog2(n), d, "n = {n}");
        }
        for n in 2..200u64 {
            assert!(
                clog2(n) < n,
                "a tree over n values takes at most n - 1 levels"
            );
        }
    }
}
