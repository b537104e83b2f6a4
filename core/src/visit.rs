//! Generic helpers over core expressions, shared by the checker, inlining, the rewrite
//! engines, the generators and the corpus tools: child iteration (including lambda bodies
//! and index-map expressions), free variables, size and depth, renaming of binders to
//! unique names, and names of constructs ([`construct`]). (Substitution is the lowering
//! kit's, in `adora-rewrites`: docs/architecture.md, "Lowering kit".)
//!
//! **Binders.** The forms that bind names are `let` (its pattern, over the body), `build`
//! (its index variables, over the body), `gather` and `scatter` (their index variables,
//! over the index-map expressions but not over the source array), lambdas of `map`,
//! `reduce`, `scan` and `reduce_by_index` (their parameters, over the lambda body), and
//! `loop` (the accumulator pattern and the counter, over the body but not over `init`).
//!
//! **Child order.** Every function here lists the children of a node in the order its
//! fields appear in [`ExprKind`] (for `map`, the lambda body comes before the arrays; for
//! `reduce`, the operator's body, if it is a lambda, before `ne` and `xs`).
//!
//! **Recursion.** [`subexprs`], [`node_count`], [`depth`], [`all_binders`] and
//! [`all_names`] use an explicit stack and work on trees of any depth; the others recurse
//! once per tree level and need [`crate::with_stack`] on trees deeper than a few hundred
//! levels.

use crate::ast::{Expr, ExprKind, Lambda, Name, Op, Pat};
use crate::diag::Span;
use std::collections::BTreeSet;

mod construct;
mod rename;
pub use construct::{construct, Construct};
pub use rename::{
    base_name, rebuild, rename_unique, ExpandCall, KeepCalls, NameSupply, Rebuild, ScopedMap,
    Uniquifier,
};

/// The names a pattern binds, in order.
pub fn pat_names(p: &Pat) -> Vec<&Name> {
    match p {
        Pat::Var(n) => vec![n],
        Pat::Tuple(ns) => ns.iter().collect(),
    }
}

fn op_lambda(op: &Op) -> Option<&Lambda> {
    match op {
        Op::Lambda(l) => Some(l),
        _ => None,
    }
}

/// The direct children of `e`, each with the names that `e` itself binds over it
/// (empty for children outside any binder of `e`).
pub fn scoped_children(e: &Expr) -> Vec<(&Expr, Vec<&Name>)> {
    use ExprKind::*;
    let mut out: Vec<(&Expr, Vec<&Name>)> = Vec::new();
    match &e.kind {
        Var(_) | Lit(_) => {}
        Array(es) | Tuple(es) | Call(_, es) | Prim(_, es) => {
            out.extend(es.iter().map(|c| (c, Vec::new())));
        }
        Proj(x, _) | Unary(_, x) => out.push((x, Vec::new())),
        Let(p, v, b) => {
            out.push((v, Vec::new()));
            out.push((b, pat_names(p)));
        }
        If(c, a, b) => {
            out.push((c, Vec::new()));
            out.push((a, Vec::new()));
            out.push((b, Vec::new()));
        }
        Binary(_, a, b) => {
            out.push((a, Vec::new()));
            out.push((b, Vec::new()));
        }
        Index(x, ix) => {
            out.push((x, Vec::new()));
            out.extend(ix.iter().map(|c| (c, Vec::new())));
        }
        Build(_, bs, body) => out.push((body, bs.iter().collect())),
        Gather(_, x, bs, ix) | Scatter(_, x, bs, ix) => {
            out.push((x, Vec::new()));
            out.extend(ix.iter().map(|c| (c, bs.iter().collect())));
        }
        Map(l, xs) => {
            out.push((&l.body, l.params.iter().collect()));
            out.extend(xs.iter().map(|c| (c, Vec::new())));
        }
        Reduce(op, ne, xs) | Scan(op, ne, xs) => {
            if let Some(l) = op_lambda(op) {
                out.push((&l.body, l.params.iter().collect()));
            }
            out.push((ne, Vec::new()));
            out.push((xs, Vec::new()));
        }
        ReduceByIndex {
            dest,
            op,
            ne,
            is,
            vs,
        } => {
            out.push((dest, Vec::new()));
            if let Some(l) = op_lambda(op) {
                out.push((&l.body, l.params.iter().collect()));
            }
            out.push((ne, Vec::new()));
            out.push((is, Vec::new()));
            out.push((vs, Vec::new()));
        }
        ScatterInto { dest, is, vs } => {
            out.push((dest, Vec::new()));
            out.push((is, Vec::new()));
            out.push((vs, Vec::new()));
        }
        Loop {
            acc,
            init,
            var,
            body,
            ..
        } => {
            out.push((init, Vec::new()));
            let mut bound = pat_names(acc);
            bound.push(var);
            out.push((body, bound));
        }
    }
    out
}

/// The direct children of `e` (including lambda bodies and index-map expressions), in
/// field order.
pub fn children(e: &Expr) -> Vec<&Expr> {
    scoped_children(e).into_iter().map(|(c, _)| c).collect()
}

/// The direct children of `e`, mutably, in the same order as [`children`].
pub fn children_mut(e: &mut Expr) -> Vec<&mut Expr> {
    use ExprKind::*;
    let mut out: Vec<&mut Expr> = Vec::new();
    match &mut e.kind {
        Var(_) | Lit(_) => {}
        Array(es) | Tuple(es) | Call(_, es) | Prim(_, es) => out.extend(es.iter_mut()),
        Proj(x, _) | Unary(_, x) => out.push(x),
        Let(_, v, b) => {
            out.push(v);
            out.push(b);
        }
        If(c, a, b) => {
            out.push(c);
            out.push(a);
            out.push(b);
        }
        Binary(_, a, b) => {
            out.push(a);
            out.push(b);
        }
        Index(x, ix) => {
            out.push(x);
            out.extend(ix.iter_mut());
        }
        Build(_, _, body) => out.push(body),
        Gather(_, x, _, ix) | Scatter(_, x, _, ix) => {
            out.push(x);
            out.extend(ix.iter_mut());
        }
        Map(l, xs) => {
            out.push(&mut l.body);
            out.extend(xs.iter_mut());
        }
        Reduce(op, ne, xs) | Scan(op, ne, xs) => {
            if let Op::Lambda(l) = op {
                out.push(&mut l.body);
            }
            out.push(ne);
            out.push(xs);
        }
        ReduceByIndex {
            dest,
            op,
            ne,
            is,
            vs,
        } => {
            out.push(dest);
            if let Op::Lambda(l) = op {
                out.push(&mut l.body);
            }
            out.push(ne);
            out.push(is);
            out.push(vs);
        }
        ScatterInto { dest, is, vs } => {
            out.push(dest);
            out.push(is);
            out.push(vs);
        }
        Loop { init, body, .. } => {
            out.push(init);
            out.push(body);
        }
    }
    out
}

/// The names that the node `e` itself binds (not those of its descendants), in field
/// order: `let` and `loop` patterns, the `loop` counter, index variables, lambda
/// parameters.
pub fn node_binders(e: &Expr) -> Vec<&Name> {
    use ExprKind::*;
    match &e.kind {
        Let(p, _, _) => pat_names(p),
        Build(_, bs, _) | Gather(_, _, bs, _) | Scatter(_, _, bs, _) => bs.iter().collect(),
        Map(l, _) => l.params.iter().collect(),
        Reduce(op, _, _) | Scan(op, _, _) | ReduceByIndex { op, .. } => op_lambda(op)
            .map(|l| l.params.iter().collect())
            .unwrap_or_default(),
        Loop { acc, var, .. } => {
            let mut v = pat_names(acc);
            v.push(var);
            v
        }
        _ => Vec::new(),
    }
}

/// Every binder occurrence in `e`, in pre-order, with the span of the node that binds it.
/// Iterative: works on trees of any depth.
pub fn all_binders(e: &Expr) -> Vec<(&Name, Span)> {
    subexprs(e)
        .into_iter()
        .flat_map(|x| node_binders(x).into_iter().map(move |n| (n, x.span)))
        .collect()
}

/// Every name occurring in `e`: variables (free or bound), binders and called `def`
/// names. Iterative.
pub fn all_names(e: &Expr) -> BTreeSet<Name> {
    let mut out = BTreeSet::new();
    for x in subexprs(e) {
        if let ExprKind::Var(n) | ExprKind::Call(n, _) = &x.kind {
            out.insert(n.clone());
        }
        out.extend(node_binders(x).into_iter().cloned());
    }
    out
}

/// The variables occurring free in `e` (`def` names of calls are not variables).
pub fn free_vars(e: &Expr) -> BTreeSet<Name> {
    if let ExprKind::Var(n) = &e.kind {
        return BTreeSet::from([n.clone()]);
    }
    let mut out = BTreeSet::new();
    for (c, bound) in scoped_children(e) {
        let mut fv = free_vars(c);
        for b in bound {
            fv.remove(b);
        }
        if out.is_empty() {
            out = fv;
        } else {
            out.extend(fv);
        }
    }
    out
}

/// `e` and all its descendants (lambda bodies and index maps included), in pre-order
/// (each node before its children, children in field order). Iterative.
pub fn subexprs(e: &Expr) -> Vec<&Expr> {
    let mut out = Vec::new();
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        out.push(x);
        let mut cs = children(x);
        cs.reverse();
        stack.extend(cs);
    }
    out
}

/// The number of expression nodes in `e` (each [`Expr`] counts one; lambda bodies and
/// index maps are included). Iterative.
pub fn node_count(e: &Expr) -> usize {
    let mut n = 0;
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        n += 1;
        stack.extend(children(x));
    }
    n
}

/// The depth of `e`: the number of nodes on its longest root-to-leaf path (a leaf has
/// depth 1). Iterative.
pub fn depth(e: &Expr) -> usize {
    let mut max = 0;
    let mut stack = vec![(e, 1usize)];
    while let Some((x, d)) = stack.pop() {
        max = max.max(d);
        stack.extend(children(x).into_iter().map(|c| (c, d + 1)));
    }
    max
}
