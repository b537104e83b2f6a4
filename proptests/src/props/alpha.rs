//! Alpha-equivalence of expressions: both sides' bound variables are renamed canonically
//! (in traversal order) and the results compared structurally.

use crate::gen::walk::{children, children_mut, declared, in_scope};
use adora_core::ast::{Expr, ExprKind, Function, Name, Op, Pat};

fn set_pat(p: &mut Pat, names: &mut impl Iterator<Item = Name>) {
    match p {
        Pat::Var(n) => *n = names.next().unwrap_or_default(),
        Pat::Tuple(ns) => ns
            .iter_mut()
            .for_each(|n| *n = names.next().unwrap_or_default()),
    }
}

/// Writes the declared names of `e` (same order as [`declared`]).
fn set_declared(e: &mut Expr, names: Vec<Name>) {
    use ExprKind::*;
    let mut it = names.into_iter();
    match &mut e.kind {
        Let(p, ..) => set_pat(p, &mut it),
        Build(_, ns, _) | Gather(_, _, ns, _) | Scatter(_, _, ns, _) => ns
            .iter_mut()
            .for_each(|n| *n = it.next().unwrap_or_default()),
        Map(l, _) => l
            .params
            .iter_mut()
            .for_each(|n| *n = it.next().unwrap_or_default()),
        Reduce(op, ..) | Scan(op, ..) | ReduceByIndex { op, .. } => {
            if let Op::Lambda(l) = op {
                l.params
                    .iter_mut()
                    .for_each(|n| *n = it.next().unwrap_or_default());
            }
        }
        Loop { acc, var, .. } => {
            set_pat(acc, &mut it);
            *var = it.next().unwrap_or_default();
        }
        _ => {}
    }
}

fn canon(e: &Expr, env: &mut Vec<(Name, Name)>, counter: &mut usize) -> Expr {
    if let ExprKind::Var(v) = &e.kind {
        let new = env
            .iter()
            .rev()
            .find(|(old, _)| old == v)
            .map(|(_, n)| n.clone())
            .unwrap_or_else(|| v.clone());
        return Expr::new(ExprKind::Var(new), e.span);
    }
    let old = declared(e);
    let fresh: Vec<Name> = old
        .iter()
        .map(|_| {
            *counter += 1;
            format!("_b{counter}")
        })
        .collect();
    let mut out = e.clone();
    set_declared(&mut out, fresh.clone());
    let kids: Vec<Expr> = children(e)
        .into_iter()
        .enumerate()
        .map(|(k, c)| {
            let scoped = in_scope(e, k);
            if scoped {
                env.extend(old.iter().cloned().zip(fresh.iter().cloned()));
            }
            let r = canon(c, env, counter);
            if scoped {
                env.truncate(env.len() - old.len());
            }
            r
        })
        .collect();
    for (slot, k) in children_mut(&mut out).into_iter().zip(kids) {
        *slot = k;
    }
    out
}

/// `e` with its bound variables renamed canonically.
pub fn canonical(e: &Expr) -> Expr {
    canon(e, &mut Vec::new(), &mut 0)
}

/// Whether two expressions are equal up to renaming of bound variables.
pub fn alpha_eq(a: &Expr, b: &Expr) -> bool {
    canonical(a) == canonical(b)
}

/// Whether two functions are equal up to renaming of bound variables in their bodies
/// (names, parameters and result types must be equal).
pub fn functions_alpha_eq(f: &Function, g: &Function) -> bool {
    f.name == g.name
        && f.ret == g.ret
        && f.params.len() == g.params.len()
        && f.params
            .iter()
            .zip(&g.params)
            .all(|(p, q)| p.name == q.name && p.ty == q.ty)
        && alpha_eq(&f.body, &g.body)
}
