//! Alpha-equivalence of expressions: both sides' bound variables are renamed canonically
//! (in traversal order) and the results compared structurally.

use adora_core::ast::{Expr, ExprKind, Function, Name};
use adora_core::visit::{rebuild, Rebuild, ScopedMap};

/// Renames binders to `_b1`, `_b2`, ... in the order [`rebuild`] meets them.
#[derive(Default)]
struct Canon {
    scope: ScopedMap<Name>,
    counter: usize,
}

impl Canon {
    fn go(&mut self, e: &Expr) -> Expr {
        match &e.kind {
            ExprKind::Var(v) => {
                let new = self.scope.get(v).unwrap_or(v).clone();
                Expr::new(ExprKind::Var(new), e.span)
            }
            _ => rebuild(e, self),
        }
    }
}

impl Rebuild for Canon {
    fn binder(&mut self, _: &Name) -> Name {
        self.counter += 1;
        format!("_b{}", self.counter)
    }

    fn child(&mut self, e: &Expr, bound: &[(Name, Name)]) -> Expr {
        for (old, new) in bound {
            self.scope.push(old, new.clone());
        }
        let out = self.go(e);
        for (old, _) in bound.iter().rev() {
            self.scope.pop(old);
        }
        out
    }
}

/// `e` with its bound variables renamed canonically.
pub fn canonical(e: &Expr) -> Expr {
    Canon::default().go(e)
}

/// Whether two expressions are equal up to renaming of bound variables.
pub fn alpha_eq(a: &Expr, b: &Expr) -> bool {
    canonical(a) == canonical(b)
}

/// Whether two functions are equal up to renaming of bound variables in their bodies
/// (names, parameters and result types must be equal).
pub fn functions_alpha_eq(f: &Function, g: &Function) -> bool {
    // `Param` equality compares names and types.
    f.name == g.name && f.ret == g.ret && f.params == g.params && alpha_eq(&f.body, &g.body)
}
