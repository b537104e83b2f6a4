//! Well-scopedness of an extracted [`RecExpr`]: every index variable is used under a
//! binder of it, binder positions hold index variables, and static positions hold their
//! leaves. Also the free index variables of every node of a `RecExpr` (the let placement
//! needs them).

use crate::ir::lang::{IVarId, Ir};
use egg::{Id, Language, RecExpr};

/// The index variables a node binds over child `k` (from the `RecExpr` leaves).
pub(crate) fn bound_over(e: &RecExpr<Ir>, node: &Ir, k: usize) -> Vec<IVarId> {
    match node {
        Ir::Build([_, i, _]) if k == 2 => ivar(e, *i).into_iter().collect(),
        Ir::Gather([_, _, bs, _]) | Ir::Scatter([_, _, bs, _]) if k == 3 => binders(e, *bs),
        _ => Vec::new(),
    }
}

/// Whether child `k` of `node` is a binder or static position (not a use).
pub(crate) fn is_binding_position(node: &Ir, k: usize) -> bool {
    match node {
        Ir::Proj(_) | Ir::Replicate(_) | Ir::Transpose(_) | Ir::Reshape(_) | Ir::Iota(_) => k == 0,
        Ir::Pow(_) => k == 1,
        Ir::Build(_) => k <= 1,
        Ir::Gather(_) | Ir::Scatter(_) => k == 0 || k == 2,
        _ => false,
    }
}

/// The `IVar` leaf at `id`, if it is one.
pub(crate) fn ivar(e: &RecExpr<Ir>, id: Id) -> Option<IVarId> {
    match &e[id] {
        Ir::IVar(v) => Some(*v),
        _ => None,
    }
}

/// The variables of a `binders` node (empty if it is not one).
pub(crate) fn binders(e: &RecExpr<Ir>, id: Id) -> Vec<IVarId> {
    match &e[id] {
        Ir::Binders(ch) => ch.iter().filter_map(|c| ivar(e, *c)).collect(),
        _ => Vec::new(),
    }
}

/// The free index variables of every node (indexed like the `RecExpr`), sorted.
pub(crate) fn free_ivars(e: &RecExpr<Ir>) -> Vec<Vec<IVarId>> {
    let mut out: Vec<Vec<IVarId>> = Vec::with_capacity(e.as_ref().len());
    for node in e.as_ref() {
        let mut fv: Vec<IVarId> = match node {
            Ir::IVar(v) => vec![*v],
            _ => Vec::new(),
        };
        for (k, c) in node.children().iter().enumerate() {
            if is_binding_position(node, k) {
                continue;
            }
            let bound = bound_over(e, node, k);
            fv.extend(
                out[usize::from(*c)]
                    .iter()
                    .copied()
                    .filter(|v| !bound.contains(v)),
            );
        }
        fv.sort_unstable();
        fv.dedup();
        out.push(fv);
    }
    out
}

fn static_ok(e: &RecExpr<Ir>, node: &Ir, k: usize, c: Id) -> bool {
    match (node, &e[c]) {
        (Ir::Pow(_), Ir::Lit(crate::ir::lang::Const::Int(_))) => true,
        (Ir::Build(_), Ir::Nat(_)) => k == 0,
        (Ir::Build(_), Ir::IVar(_)) => k == 1,
        (Ir::Gather(_) | Ir::Scatter(_), Ir::Shape(_)) => k == 0,
        (Ir::Gather(_) | Ir::Scatter(_), Ir::Binders(ch)) => {
            k == 2 && ch.iter().all(|b| ivar(e, *b).is_some())
        }
        (Ir::Transpose(_) | Ir::Reshape(_), Ir::Shape(_)) => true,
        (Ir::Proj(_) | Ir::Replicate(_) | Ir::Iota(_), Ir::Nat(_)) => true,
        _ => false,
    }
}

/// Checks that `e` is well scoped (see the module docs); the error names the problem.
pub fn check_scoped(e: &RecExpr<Ir>) -> Result<(), String> {
    let nodes = e.as_ref();
    if nodes.is_empty() {
        return Err("the extracted term is empty".into());
    }
    for node in nodes {
        for (k, c) in node.children().iter().enumerate() {
            let child = &e[*c];
            if is_binding_position(node, k) {
                if !static_ok(e, node, k, *c) {
                    return Err(format!(
                        "`{node}` has `{child}` in a static or binder position"
                    ));
                }
            } else if matches!(child, Ir::Binders(_) | Ir::Nat(_) | Ir::Shape(_))
                || (matches!(child, Ir::Ixs(_))
                    != (k == 3 && matches!(node, Ir::Gather(_) | Ir::Scatter(_))))
            {
                return Err(format!("`{node}` has `{child}` as an operand"));
            }
        }
    }
    let fv = free_ivars(e);
    match fv.last() {
        Some(vs) if vs.is_empty() => Ok(()),
        Some(vs) => {
            let names: Vec<String> = vs.iter().map(|v| v.to_string()).collect();
            Err(format!(
                "the extracted term uses index variable(s) {} outside their binders",
                names.join(", ")
            ))
        }
        None => Err("the extracted term is empty".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_escaping_and_accepts_bound_index_variables() {
        let ok: RecExpr<Ir> = "(build n3 i0 (+ (real i0) (index v0 i0)))".parse().unwrap();
        assert_eq!(check_scoped(&ok), Ok(()));
        let g: RecExpr<Ir> = "(gather [2] v0 (binders i1) (ixs (* z2 i1)))"
            .parse()
            .unwrap();
        assert_eq!(check_scoped(&g), Ok(()));
        let bad: RecExpr<Ir> = "(+ (build n3 i0 (real i0)) (replicate n3 (real i0)))"
            .parse()
            .unwrap();
        assert!(check_scoped(&bad).unwrap_err().contains("i0"));
        let src_bad: RecExpr<Ir> = "(gather [2] (replicate n2 i1) (binders i1) (ixs i1))"
            .parse()
            .unwrap();
        assert!(check_scoped(&src_bad).is_err());
        let malformed: RecExpr<Ir> = "(build n3 z0 (real z0))".parse().unwrap();
        assert!(check_scoped(&malformed).is_err());
    }
}
