//! Dead-code elimination of re-executed statements (seed 004 *AD for an Array Language
//! with Nested Parallelism* §1 and §4.1: "perfectly nested scopes introduce no
//! re-execution after dead-code elimination"). A forward sweep re-executed inside a
//! return sweep (of a `map`, an `if` or an operator lambda) recomputes every primal
//! statement of its scope, but the return sweep reads only some of them; the others are
//! removed. Only names the builder marked droppable are removed (re-executions, never
//! the first run of a statement, whose errors the primal program would also meet), and
//! only where nothing reads them: the language is pure, so that preserves the meaning.

use adora_core::ast::{Expr, ExprKind, Name};
use adora_core::visit::{children_mut, pat_names, scoped_children};
use std::collections::{BTreeSet, HashSet};

/// Removes the `let`s of `e` that bind only droppable names read nowhere; returns the
/// free variables of the result.
pub fn dce(e: &mut Expr, droppable: &HashSet<Name>) -> BTreeSet<Name> {
    if let ExprKind::Let(p, v, b) = &mut e.kind {
        let mut fb = dce(b, droppable);
        let names = pat_names(p);
        if names
            .iter()
            .all(|n| droppable.contains(*n) && !fb.contains(*n))
        {
            let body = std::mem::replace(&mut **b, Expr::new(ExprKind::Tuple(vec![]), e.span));
            *e = body;
            return fb;
        }
        for n in names {
            fb.remove(n);
        }
        fb.extend(dce(v, droppable));
        return fb;
    }
    if let ExprKind::Var(n) = &e.kind {
        return BTreeSet::from([n.clone()]);
    }
    let binders: Vec<Vec<Name>> = scoped_children(e)
        .into_iter()
        .map(|(_, bs)| bs.into_iter().cloned().collect())
        .collect();
    let mut out = BTreeSet::new();
    for (c, bs) in children_mut(e).into_iter().zip(binders) {
        let mut fv = dce(c, droppable);
        for b in bs {
            fv.remove(&b);
        }
        out.extend(fv);
    }
    out
}
