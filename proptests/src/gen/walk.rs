//! Paths into surface expressions and a typed pre-order traversal, for the shrinker.
//!
//! Children, their order and the names each child sees are those of
//! [`adora_core::visit::scoped_children`]; a path lists child indices in that order.

use super::typing::{Env, SurfaceTypes};
use adora_core::ast::Expr;
use adora_core::visit::{children_mut, scoped_children};

/// A position in an expression tree: child indices from the root.
pub type Path = Vec<usize>;

/// Visits every node of `e` in pre-order with its path and its environment (`env`
/// extended by the binders on the way down, typed by `types`). Does not descend below a
/// node whose binders have no types (a node of a `def` that does not elaborate).
pub fn visit(
    types: &SurfaceTypes,
    env: &mut Env,
    e: &Expr,
    path: &mut Path,
    f: &mut dyn FnMut(&Expr, &Env, &Path),
) {
    f(e, env, path);
    let Some(bound) = types.binder_types(e) else {
        return;
    };
    for (k, (c, names)) in scoped_children(e).into_iter().enumerate() {
        // A child in the scope of `e`'s binders sees all of them.
        let before = env.len();
        env.extend(names.into_iter().cloned().zip(bound.iter().cloned()));
        path.push(k);
        visit(types, env, c, path, f);
        path.pop();
        env.truncate(before);
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
