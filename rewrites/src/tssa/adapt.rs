//! The engine's adapter between host types and the tensor language's (docs/engines/
//! tssa.md): host tuples of any arity are right-nested pairs in the tensor language, so a
//! raised program has `(a, (b, c))` where the host has `(a, b, c)`, and the tangent of a
//! tuple keeps its real components in the same order in both. Both types have the same
//! leaves (non-tuple components) in the same depth-first order; the adapter rebuilds one
//! from the other by projections, at the parameters and at the result.

use adora_core::ast::{Expr, ExprKind, Function, Param, Pat};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::types::Type;
use adora_core::visit::all_names;
use std::collections::BTreeSet;

fn ex(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::DUMMY,
    }
}

/// The leaves of a type: depth-first, with their projection paths.
fn leaves(t: &Type, path: &mut Vec<usize>, out: &mut Vec<(Vec<usize>, Type)>) {
    match t {
        Type::Tuple(ts) => {
            for (k, c) in ts.iter().enumerate() {
                path.push(k);
                leaves(c, path, out);
                path.pop();
            }
        }
        other => out.push((path.clone(), other.clone())),
    }
}

fn project(x: &str, path: &[usize]) -> Expr {
    path.iter().fold(ex(ExprKind::Var(x.to_string())), |e, &k| {
        ex(ExprKind::Proj(Box::new(e), k))
    })
}

fn build(t: &Type, parts: &mut std::vec::IntoIter<Expr>) -> Option<Expr> {
    match t {
        Type::Tuple(ts) => Some(ex(ExprKind::Tuple(
            ts.iter().map(|c| build(c, parts)).collect::<Option<_>>()?,
        ))),
        _ => parts.next(),
    }
}

/// The value of variable `x : from` rebuilt as type `to` (same leaves in the same order).
pub fn convert(x: &str, from: &Type, to: &Type) -> Result<Expr> {
    if from == to {
        return Ok(ex(ExprKind::Var(x.to_string())));
    }
    let (mut lf, mut lt) = (Vec::new(), Vec::new());
    leaves(from, &mut Vec::new(), &mut lf);
    leaves(to, &mut Vec::new(), &mut lt);
    let same = lf.len() == lt.len() && lf.iter().zip(&lt).all(|((_, a), (_, b))| a == b);
    if !same {
        return Err(Diagnostic::new(
            ErrorKind::Internal,
            Span::DUMMY,
            format!("tssa: the types {from} and {to} have different leaves"),
        ));
    }
    let parts: Vec<Expr> = lf.iter().map(|(p, _)| project(x, p)).collect();
    build(to, &mut parts.into_iter())
        .ok_or_else(|| Diagnostic::new(ErrorKind::Internal, Span::DUMMY, "tssa: adapter leaves"))
}

fn fresh(used: &mut BTreeSet<String>, base: &str) -> String {
    let mut k = 0usize;
    loop {
        let c = format!("{base}{k}");
        if used.insert(c.clone()) {
            return c;
        }
        k += 1;
    }
}

/// `g` with parameters of the host types `params` (one per parameter of `g`) and result
/// type `ret`: each parameter is rebuilt into `g`'s type on entry, the result into `ret`.
pub fn adapt(g: Function, params: &[Type], ret: &Type) -> Result<Function> {
    if params.len() != g.params.len() {
        return Err(Diagnostic::new(
            ErrorKind::Internal,
            Span::DUMMY,
            format!(
                "tssa: {} parameters raised, {} expected",
                g.params.len(),
                params.len()
            ),
        ));
    }
    let mut used = all_names(&g.body);
    used.extend(g.params.iter().map(|p| p.name.clone()));
    let mut body = g.body;
    if g.ret != *ret {
        let r = fresh(&mut used, "tssa_out");
        let out = convert(&r, &g.ret, ret)?;
        body = ex(ExprKind::Let(Pat::Var(r), Box::new(body), Box::new(out)));
    }
    let mut new_params = Vec::new();
    for (p, host) in g.params.iter().zip(params).rev() {
        if p.ty == *host {
            new_params.push(p.clone());
            continue;
        }
        let h = fresh(&mut used, &format!("{}_in", p.name));
        let e = convert(&h, host, &p.ty)?;
        body = ex(ExprKind::Let(
            Pat::Var(p.name.clone()),
            Box::new(e),
            Box::new(body),
        ));
        new_params.push(Param {
            name: h,
            ty: host.clone(),
            span: p.span,
        });
    }
    new_params.reverse();
    Ok(Function {
        name: g.name,
        params: new_params,
        ret: ret.clone(),
        body,
    })
}
