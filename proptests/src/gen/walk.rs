//! Generic traversal of surface expressions: children in a fixed order, the variables
//! each child sees in addition to its parent's, node counts, paths and replacement.
//!
//! The child order (used by paths) is: `Array`/`Tuple`/`Call`/`Prim`: the arguments;
//! `Proj`, `Unary`: the operand; `Let`: bound expression, body; `If`: condition, branches;
//! `Binary`: both operands; `Index`: array, indices; `Build`: body; `Gather`/`Scatter`:
//! source, index map; `Map`: lambda body, arrays; `Reduce`/`Scan`: operator body (lambda
//! operators only), neutral element, array; `ReduceByIndex`: destination, operator body
//! (lambda only), neutral element, indices, values; `ScatterInto`: destination, indices,
//! values; `Loop`: initial value, body.

use super::typing::{bind_pat, type_of, Env};
use adora_core::ast::{Def, Expr, ExprKind, Name, Op, Pat};
use adora_core::types::{Base, Type};

/// The children of `e` in the fixed order of the module documentation.
pub fn children(e: &Expr) -> Vec<&Expr> {
    use ExprKind::*;
    match &e.kind {
        Var(_) | Lit(_) => vec![],
        Array(es) | Tuple(es) | Call(_, es) | Prim(_, es) => es.iter().collect(),
        Proj(a, _) | Unary(_, a) => vec![a],
        Let(_, a, b) | Binary(_, a, b) => vec![a, b],
        If(c, a, b) => vec![c, a, b],
        Index(a, ix) | Gather(_, a, _, ix) | Scatter(_, a, _, ix) => {
            std::iter::once(&**a).chain(ix.iter()).collect()
        }
        Build(_, _, b) => vec![b],
        Map(l, xs) => std::iter::once(&*l.body).chain(xs.iter()).collect(),
        Reduce(op, ne, xs) | Scan(op, ne, xs) => {
            op_body(op).into_iter().chain([&**ne, &**xs]).collect()
        }
        ReduceByIndex {
            dest,
            op,
            ne,
            is,
            vs,
        } => std::iter::once(&**dest)
            .chain(op_body(op))
            .chain([&**ne, &**is, &**vs])
            .collect(),
        ScatterInto { dest, is, vs } => vec![dest, is, vs],
        Loop { init, body, .. } => vec![init, body],
    }
}

fn op_body(op: &Op) -> Option<&Expr> {
    match op {
        Op::Lambda(l) => Some(&l.body),
        _ => None,
    }
}

/// Mutable children of `e`, in the same order as [`children`].
pub fn children_mut(e: &mut Expr) -> Vec<&mut Expr> {
    use ExprKind::*;
    match &mut e.kind {
        Var(_) | Lit(_) => vec![],
        Array(es) | Tuple(es) | Call(_, es) | Prim(_, es) => es.iter_mut().collect(),
        Proj(a, _) | Unary(_, a) => vec![a],
        Let(_, a, b) | Binary(_, a, b) => vec![a, b],
        If(c, a, b) => vec![c, a, b],
        Index(a, ix) | Gather(_, a, _, ix) | Scatter(_, a, _, ix) => {
            std::iter::once(&mut **a).chain(ix.iter_mut()).collect()
        }
        Build(_, _, b) => vec![b],
        Map(l, xs) => std::iter::once(&mut *l.body).chain(xs.iter_mut()).collect(),
        Reduce(op, ne, xs) | Scan(op, ne, xs) => {
            let body = match op {
                Op::Lambda(l) => Some(&mut *l.body),
                _ => None,
            };
            body.into_iter().chain([&mut **ne, &mut **xs]).collect()
        }
        ReduceByIndex {
            dest,
            op,
            ne,
            is,
            vs,
        } => {
            let body = match op {
                Op::Lambda(l) => Some(&mut *l.body),
                _ => None,
            };
            std::iter::once(&mut **dest)
                .chain(body)
                .chain([&mut **ne, &mut **is, &mut **vs])
                .collect()
        }
        ScatterInto { dest, is, vs } => vec![dest, is, vs],
        Loop { init, body, .. } => vec![init, body],
    }
}

/// Number of expression nodes of `e` (lambda bodies included).
pub fn node_count(e: &Expr) -> usize {
    1 + children(e).into_iter().map(node_count).sum::<usize>()
}

/// Depth of the expression tree (a leaf has depth 1).
pub fn depth(e: &Expr) -> usize {
    1 + children(e).into_iter().map(depth).max().unwrap_or(0)
}

/// Whether `e` mentions any of `names` as a variable (ignores shadowing: conservative).
pub fn mentions(e: &Expr, names: &[Name]) -> bool {
    match &e.kind {
        ExprKind::Var(v) => names.contains(v),
        _ => children(e).into_iter().any(|c| mentions(c, names)),
    }
}

/// The variables child `k` of `e` sees in addition to those of `e` (with their types),
/// given the environment `env` of `e`. `None` when `e` is ill-typed.
pub fn child_bindings(defs: &[Def], env: &Env, e: &Expr, k: usize) -> Option<Vec<(Name, Type)>> {
    use ExprKind::*;
    let int = Type::scalar(Base::Z);
    let lambda_first = |op: &Op| matches!(op, Op::Lambda(_));
    Some(match &e.kind {
        Let(p, a, _) if k == 1 => bind_pat(p, &type_of(defs, env, a)?)?,
        Build(_, names, _) => names.iter().map(|n| (n.clone(), int.clone())).collect(),
        Gather(_, _, names, _) | Scatter(_, _, names, _) if k >= 1 => {
            names.iter().map(|n| (n.clone(), int.clone())).collect()
        }
        Map(l, xs) if k == 0 => {
            let mut out = Vec::new();
            for (p, x) in l.params.iter().zip(xs) {
                out.push((p.clone(), element(&type_of(defs, env, x)?)?));
            }
            out
        }
        Reduce(op, ne, _) | Scan(op, ne, _) if k == 0 && lambda_first(op) => {
            lambda_params(op, &type_of(defs, env, ne)?)
        }
        ReduceByIndex { op, ne, .. } if k == 1 && lambda_first(op) => {
            lambda_params(op, &type_of(defs, env, ne)?)
        }
        Loop { acc, init, var, .. } if k == 1 => {
            let mut out = bind_pat(acc, &type_of(defs, env, init)?)?;
            out.push((var.clone(), int));
            out
        }
        _ => Vec::new(),
    })
}

fn lambda_params(op: &Op, ty: &Type) -> Vec<(Name, Type)> {
    match op {
        Op::Lambda(l) => l.params.iter().map(|p| (p.clone(), ty.clone())).collect(),
        _ => Vec::new(),
    }
}

/// The type of one outer slice of an array type (`R[3,4]` → `R[4]`).
pub fn element(t: &Type) -> Option<Type> {
    match t {
        Type::Array(b, s) if !s.is_empty() => Some(Type::Array(*b, s[1..].to_vec())),
        _ => None,
    }
}

/// A position in an expression tree: child indices from the root.
pub type Path = Vec<usize>;

/// Visits every node of `e` in pre-order with its path and its environment (`env` extended
/// by the binders on the way down). Stops descending below ill-typed nodes.
pub fn visit(
    defs: &[Def],
    env: &mut Env,
    e: &Expr,
    path: &mut Path,
    f: &mut dyn FnMut(&Expr, &Env, &Path),
) {
    f(e, env, path);
    for (k, c) in children(e).into_iter().enumerate() {
        let Some(extra) = child_bindings(defs, env, e, k) else {
            return;
        };
        let n = extra.len();
        env.extend(extra);
        path.push(k);
        visit(defs, env, c, path, f);
        path.pop();
        env.truncate(env.len() - n);
    }
}

/// The node at `path`, if any.
pub fn at<'a>(e: &'a Expr, path: &[usize]) -> Option<&'a Expr> {
    match path.split_first() {
        None => Some(e),
        Some((k, rest)) => at(children(e).into_iter().nth(*k)?, rest),
    }
}

/// Replaces the node at `path` by `new`; returns false when the path does not exist.
pub fn replace_at(e: &mut Expr, path: &[usize], new: Expr) -> bool {
    match path.split_first() {
        None => {
            *e = new;
            true
        }
        Some((k, rest)) => match children_mut(e).into_iter().nth(*k) {
            Some(c) => replace_at(c, rest, new),
            None => false,
        },
    }
}

/// The names a pattern binds.
pub fn pat_names(p: &Pat) -> Vec<Name> {
    match p {
        Pat::Var(n) => vec![n.clone()],
        Pat::Tuple(ns) => ns.clone(),
    }
}

fn op_params(op: &Op) -> Vec<Name> {
    match op {
        Op::Lambda(l) => l.params.clone(),
        _ => Vec::new(),
    }
}

/// The names `e` binds, in declaration order.
pub fn declared(e: &Expr) -> Vec<Name> {
    use ExprKind::*;
    match &e.kind {
        Let(p, ..) => pat_names(p),
        Build(_, ns, _) | Gather(_, _, ns, _) | Scatter(_, _, ns, _) => ns.clone(),
        Map(l, _) => l.params.clone(),
        Reduce(op, ..) | Scan(op, ..) | ReduceByIndex { op, .. } => op_params(op),
        Loop { acc, var, .. } => [pat_names(acc), vec![var.clone()]].concat(),
        _ => Vec::new(),
    }
}

/// Whether child `k` of `e` is in the scope of `e`'s declarations.
pub fn in_scope(e: &Expr, k: usize) -> bool {
    use ExprKind::*;
    match &e.kind {
        Let(..) | Loop { .. } => k == 1,
        Build(..) => true,
        Gather(..) | Scatter(..) => k >= 1,
        Map(..) => k == 0,
        Reduce(op, ..) | Scan(op, ..) => matches!(op, Op::Lambda(_)) && k == 0,
        ReduceByIndex { op, .. } => matches!(op, Op::Lambda(_)) && k == 1,
        _ => false,
    }
}

/// The free variables of `e` (each once, in order of first occurrence).
pub fn free_vars(e: &Expr) -> Vec<Name> {
    fn go(e: &Expr, bound: &mut Vec<Name>, out: &mut Vec<Name>) {
        if let ExprKind::Var(v) = &e.kind {
            if !bound.contains(v) && !out.contains(v) {
                out.push(v.clone());
            }
            return;
        }
        let names = declared(e);
        for (k, c) in children(e).into_iter().enumerate() {
            let scoped = in_scope(e, k);
            if scoped {
                bound.extend(names.iter().cloned());
            }
            go(c, bound, out);
            if scoped {
                bound.truncate(bound.len() - names.len());
            }
        }
    }
    let mut out = Vec::new();
    go(e, &mut Vec::new(), &mut out);
    out
}
