//! Types of the subterms of generated surface programs, taken from the checker.
//!
//! The shrinker replaces surface subterms by same-typed ones, and the coverage measure
//! looks at operand ranks, so both need the type of every *surface* node. No typing rule
//! is stated here: each `def` is elaborated as an entry point by
//! [`adora_core::check::elaborate`], its nodes are typed by
//! [`adora_core::check::node_types`], and every surface node is paired with its
//! elaborated counterpart. Elaboration keeps the shape of the tree except in two ways,
//! which the pairing undoes: a broadcast operand is wrapped in `replicate`s (a surface
//! `replicate` has rank at least 1, so it is never such an operand), and a call
//! `f(a1, ..., an)` becomes `let q1 = a1 in ... let qn = an in body` (argument `k` is the
//! value of the `k`-th `let`). The types are the checker's, so they are *contextual*: an
//! integer literal where a real is expected has type `R`.
//!
//! This pairing is the only part that would disappear if `adora_core::check` offered the
//! types of a surface program's nodes directly (its surface traversal already records
//! them; see the report of this change).

use adora_core::ast::{Expr, ExprKind, Name, Op, Pat, Prim, Program};
use adora_core::check::{self, NodeTypes};
use adora_core::types::Type;
use adora_core::visit::children;
use std::collections::HashMap;

/// A typing environment: innermost binding last.
pub type Env = Vec<(Name, Type)>;

/// The type of one outer slice of an array type (`R[3,4]` → `R[4]`).
pub fn element(t: &Type) -> Option<Type> {
    match t {
        Type::Array(b, s) if !s.is_empty() => Some(Type::Array(*b, s[1..].to_vec())),
        _ => None,
    }
}

/// The types of the nodes of a surface program's `def` bodies, keyed by node address:
/// valid while the program is neither moved nor mutated. A `def` of a program that does
/// not elaborate has no types.
#[derive(Clone, Debug, Default)]
pub struct SurfaceTypes {
    map: HashMap<usize, Type>,
}

fn key(e: &Expr) -> usize {
    e as *const Expr as usize
}

impl SurfaceTypes {
    /// Types every node of every `def` body of `p` (see the module documentation).
    pub fn of(p: &Program) -> SurfaceTypes {
        let mut out = SurfaceTypes::default();
        for d in &p.defs {
            let Ok(f) = check::elaborate(p, &d.name) else {
                continue;
            };
            if let Ok(types) = check::node_types(&f) {
                out.pair(&d.body, &f.body, &types);
            }
        }
        out
    }

    /// The type of the surface node `e`, if it was typed.
    pub fn get(&self, e: &Expr) -> Option<&Type> {
        self.map.get(&key(e))
    }

    /// The types of the names `e` binds, in the order of
    /// [`adora_core::visit::node_binders`]; `None` when a needed type is missing.
    pub fn binder_types(&self, e: &Expr) -> Option<Vec<Type>> {
        use ExprKind::*;
        let ty = |x: &Expr| self.get(x).cloned();
        let pat = |p: &Pat, t: Type| match (p, t) {
            (Pat::Var(_), t) => Some(vec![t]),
            (Pat::Tuple(ns), Type::Tuple(ts)) if ns.len() == ts.len() => Some(ts),
            _ => None,
        };
        let slices = |op: &Op, arr: &Expr| match op {
            Op::Lambda(l) => Some(vec![element(&ty(arr)?)?; l.params.len()]),
            _ => Some(Vec::new()),
        };
        match &e.kind {
            Let(p, v, _) => pat(p, ty(v)?),
            Build(_, bs, _) | Gather(_, _, bs, _) | Scatter(_, _, bs, _) => {
                Some(vec![Type::int(); bs.len()])
            }
            Map(_, xs) => xs.iter().map(|x| element(&ty(x)?)).collect(),
            Reduce(op, _, xs) | Scan(op, _, xs) => slices(op, xs),
            ReduceByIndex { op, dest, .. } => slices(op, dest),
            Loop { acc, init, .. } => {
                let mut out = pat(acc, ty(init)?)?;
                out.push(Type::int());
                Some(out)
            }
            _ => Some(Vec::new()),
        }
    }

    /// Records the type of surface node `s` and its descendants, `t` being its elaborated
    /// counterpart (possibly under broadcast `replicate`s); stops where the shapes differ.
    fn pair(&mut self, s: &Expr, mut t: &Expr, types: &NodeTypes) {
        if !matches!(s.kind, ExprKind::Prim(Prim::Replicate(_), _)) {
            while let ExprKind::Prim(Prim::Replicate(_), xs) = &t.kind {
                match xs.as_slice() {
                    [x] => t = x,
                    _ => return,
                }
            }
        }
        let tc = match &s.kind {
            ExprKind::Call(_, args) => let_values(t, args.len()),
            k if k.form_name() == t.kind.form_name() => children(t),
            _ => return,
        };
        let Some(ty) = types.get(t) else {
            return;
        };
        self.map.insert(key(s), ty.clone());
        let sc = children(s);
        if sc.len() == tc.len() {
            for (a, b) in sc.into_iter().zip(tc) {
                self.pair(a, b, types);
            }
        }
    }
}

/// The bound values of the first `n` nested `let`s of `e` (an inlined call's arguments);
/// empty when `e` has fewer.
fn let_values(mut e: &Expr, n: usize) -> Vec<&Expr> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        match &e.kind {
            ExprKind::Let(Pat::Var(_), v, b) => {
                out.push(&**v);
                e = b;
            }
            _ => return Vec::new(),
        }
    }
    out
}
