//! Theorem 5.1's normal form for a language with tuples: the paper's language has none,
//! so its "variable" is, in ours, a variable or a projection of one (`p.1` of a tuple
//! parameter `p` is an array variable in a tuple-free encoding). The extractor's cost
//! counts such projections as stuck (`ir::extract::select`); the shared checker
//! ([`super::normal_form::check_normal_form`]) counts only plain variables, so
//! [`check_normal_form`] masks every such projection in index position by a variable and
//! asks the shared checker.
//!
//! The shared checker also counts a `let`-bound name as a variable (the paper's `let` is a
//! term former, ours is sharing), so on a function it cannot tell `let t = x + y in t[j]`
//! from `x[j]`. [`check_term`] decides the normal form on the extracted term *before* lets
//! are re-introduced, where every array is what it is; the bot driver checks both.

use super::normal_form::NormalFormViolation;
use crate::ir::lang::Ir;
use adora_core::ast::{Expr, ExprKind, Function};
use adora_core::visit::children_mut;
use egg::{Id, RecExpr};

/// The name the masked projections get (not a valid source identifier, so it cannot
/// clash with a program's names).
const MASK: &str = "<projection>";

/// Whether `e` is a variable or a (nested) projection of one.
fn projected_variable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) => true,
        ExprKind::Proj(x, _) => projected_variable(x),
        _ => false,
    }
}

fn mask(e: &mut Expr) {
    if let ExprKind::Index(x, _) = &mut e.kind {
        if matches!(x.kind, ExprKind::Proj(..)) && projected_variable(x) {
            x.kind = ExprKind::Var(MASK.to_string());
        }
    }
    for c in children_mut(e) {
        mask(c);
    }
}

/// [`check_normal_form`] with projections of variables counted as variables.
pub fn check_normal_form(f: &Function) -> Result<(), NormalFormViolation> {
    let mut g = f.clone();
    adora_core::with_stack(|| mask(&mut g.body));
    super::normal_form::check_normal_form(&g)
}

/// Whether node `id` of `e` is a stuck array for Theorem 5.1: a variable or a projection
/// of one, an `append`, a `scatter`, or a constant (a literal, or an array literal of
/// constants).
fn stuck(e: &RecExpr<Ir>, id: Id) -> bool {
    match &e[id] {
        Ir::Var(_) | Ir::Append(_) | Ir::Scatter(_) => true,
        Ir::Proj([_, t]) => projected(e, *t),
        _ => crate::ir::lang::is_constant(e, id),
    }
}

fn projected(e: &RecExpr<Ir>, id: Id) -> bool {
    match &e[id] {
        Ir::Var(_) => true,
        Ir::Proj([_, t]) => projected(e, *t),
        _ => false,
    }
}

/// Theorem 5.1's normal form of an extracted term (no lets): no `build`, and every
/// `index` of a stuck array (a variable or a projection of one, an `append`, a `scatter`,
/// a literal or an array literal of constants). The error names the first offending node.
pub fn check_term(e: &RecExpr<Ir>) -> Result<(), String> {
    for n in e.as_ref() {
        match n {
            Ir::Build(_) => return Err("a `build` remains".to_string()),
            Ir::Index(ch) if !stuck(e, ch[0]) => {
                let what = e[ch[0]].to_string();
                return Err(format!(
                    "an index of `{what}` (not a variable, a constant, an append or a scatter)"
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn projections_of_variables_count_as_variables() {
        let f =
            adora_core::load("def main(p: (R, R[2]), j: Z) -> R = p.1[j] * p.0", "main").unwrap();
        assert!(super::super::normal_form::check_normal_form(&f).is_err());
        assert_eq!(check_normal_form(&f), Ok(()));
        let g = adora_core::load("def main(x: R[2], j: Z) -> R = (x + x)[j]", "main").unwrap();
        assert!(check_normal_form(&g).is_err());
    }

    #[test]
    fn terms_are_checked_without_lets() {
        let ok: RecExpr<Ir> = "(+ (index (proj n1 v0) v1) (index (append v2 v2) v1))"
            .parse()
            .unwrap();
        assert_eq!(check_term(&ok), Ok(()));
        let c: RecExpr<Ir> = "(index (array (array r1 r2) (array r3 r4)) v1 z0)"
            .parse()
            .unwrap();
        assert_eq!(check_term(&c), Ok(()));
        let bad: RecExpr<Ir> = "(index (+ v2 v2) v1)".parse().unwrap();
        assert!(check_term(&bad).unwrap_err().contains("index of `+`"));
        let b: RecExpr<Ir> = "(build n2 i0 (index v2 i0))".parse().unwrap();
        assert!(check_term(&b).is_err());
    }
}
