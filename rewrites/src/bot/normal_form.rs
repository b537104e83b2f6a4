//! The normal form of the bulk-operation transform (seed 000, Theorem 5.1), decided on a
//! core function: no `build` remains, and every index `e[j1, ..]` has as its array `e`
//!
//! 1. a variable (a parameter or a `let`-bound name),
//! 2. a constant: a literal or an array literal whose elements are constants,
//! 3. an `append`, or
//! 4. a `scatter`.
//!
//! Constructs outside the seed-000 fragment (`if`, `map`, `reduce`, `scan`,
//! `reduce_by_index`, `scatter_into`, `loop`, calls) are violations too: the transform
//! never produces them. Index maps of `gather`/`scatter` and `let` definitions are checked
//! like any other subexpression.

use adora_core::ast::{Expr, ExprKind, Function, Prim};
use adora_core::diag::Span;
use adora_core::visit::{construct, subexprs};
use std::fmt;

/// Why a function is not in normal form: the first offending node (in pre-order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NormalFormViolation {
    /// Where the offending node is (synthesised nodes carry [`Span::DUMMY`]).
    pub span: Span,
    /// What is wrong, naming the construct.
    pub message: String,
}

impl fmt::Display for NormalFormViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for NormalFormViolation {}

/// Whether `e` is a constant: a literal, or an array literal of constants.
fn is_constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Lit(_) => true,
        ExprKind::Array(es) => es.iter().all(is_constant),
        _ => false,
    }
}

/// Whether an index of `e` is in normal form (the four allowed array forms).
fn stuck(e: &Expr) -> bool {
    matches!(
        &e.kind,
        ExprKind::Var(_) | ExprKind::Scatter(..) | ExprKind::Prim(Prim::Append, _)
    ) || is_constant(e)
}

fn violation(e: &Expr, message: String) -> NormalFormViolation {
    NormalFormViolation {
        span: e.span,
        message,
    }
}

/// Checks Theorem 5.1's normal form on `f` (see the module docs). Iterative: works on
/// bodies of any depth.
pub fn check_normal_form(f: &Function) -> Result<(), NormalFormViolation> {
    for e in subexprs(&f.body) {
        match &e.kind {
            ExprKind::Build(..) => {
                return Err(violation(
                    e,
                    "a `build` remains (the normal form has none)".to_string(),
                ))
            }
            ExprKind::Index(x, _) if !stuck(x) => {
                return Err(violation(
                    e,
                    format!(
                        "an index of `{}` (the normal form indexes only a variable, a \
                         constant, an `append` or a `scatter`)",
                        construct(x)
                    ),
                ))
            }
            ExprKind::If(..)
            | ExprKind::Map(..)
            | ExprKind::Reduce(..)
            | ExprKind::Scan(..)
            | ExprKind::ReduceByIndex { .. }
            | ExprKind::ScatterInto { .. }
            | ExprKind::Loop { .. }
            | ExprKind::Call(..) => {
                return Err(violation(
                    e,
                    format!("`{}` is outside the seed-000 fragment", e.kind.form_name()),
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(src: &str) -> Function {
        adora_core::load(src, "main").unwrap()
    }

    #[test]
    fn accepts_each_allowed_index_form() {
        for src in [
            "def main(x: R[3]) -> R = x[1]",
            "def main(x: R[3]) -> R = let y = x + x in y[2]",
            "def main(i: Z) -> R = [1.5, 2.5, 3][i]",
            "def main(i: Z) -> R = [[1.0, 2], [3, 4]][i, 0]",
            "def main(x: R[3], y: R[2]) -> R = append(x, y)[4]",
            "def main(x: R[3]) -> R = scatter([2], x, i => [i % 2])[1]",
            "def main(x: R[3]) -> R[2] = gather([2], x, i => [[2, 0][i] + i])",
            "def main(x: R[3]) -> R = sum(x * x)",
        ] {
            let f = load(src);
            assert_eq!(check_normal_form(&f), Ok(()), "{src}");
        }
    }

    #[test]
    fn rejects_each_violation_naming_it() {
        let cases = [
            ("def main(x: R[3]) -> R[3] = build 3 (i => x[i])", "build"),
            ("def main(x: R[3]) -> R = (x + x)[1]", "binop:add"),
            (
                "def main(x: R[3]) -> R = gather([2], x, i => [i])[0]",
                "gather",
            ),
            (
                "def main(x: R[3]) -> R = transpose([0], x)[0]",
                "prim:transpose",
            ),
            ("def main(x: R[3]) -> R = [x[0], 2.0][1]", "array"),
            ("def main(x: R) -> R = if x > 0.0 then x else 0.0", "`if`"),
            ("def main(x: R[3]) -> R = reduce(+, 0.0, x)", "`reduce`"),
        ];
        for (src, what) in cases {
            let f = load(src);
            let v = check_normal_form(&f).unwrap_err();
            assert!(v.message.contains(what), "{src}: {}", v.message);
        }
    }

    #[test]
    fn reports_the_span_of_the_offending_node() {
        let src = "def main(x: R[3]) -> R = sum(x) + (x * x)[0]";
        let f = load(src);
        let v = check_normal_form(&f).unwrap_err();
        assert_eq!(&src[v.span.start..v.span.end], "(x * x)[0]");
    }
}
