//! Warnings of the checker (docs/language.md, "Warnings"): an integer division of
//! constants that truncates — `1/2` where both operands are `Z` (by the literal typing of
//! [`super::infer`]) is `0` on `Z`, which is rarely what was meant.

use super::infer::Literals;
use crate::ast::{BinOp, Expr, ExprKind, Lit, UnOp};
use crate::diag::{Diagnostic, ErrorKind};
use crate::types::Base;
use crate::visit::children;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::Zero;

/// The warnings for the surface `def` body `body` whose integer literals are typed by
/// `lits`, in source order of the divisions.
pub(crate) fn truncating_divisions(body: &Expr, lits: &Literals) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    fold(body, lits, &mut out);
    out.sort_by_key(|d| d.span);
    out
}

/// The value of `e` when it is an integer constant (integer literals typed `Z`, combined
/// by `-`, `+`, `-`, `*`, `/`); pushes a warning for every truncating `/` of constants
/// in `e`. Visits every node once.
fn fold(e: &Expr, lits: &Literals, out: &mut Vec<Diagnostic>) -> Option<BigInt> {
    use ExprKind as K;
    let vals: Vec<Option<BigInt>> = children(e)
        .into_iter()
        .map(|c| fold(c, lits, out))
        .collect();
    match &e.kind {
        K::Lit(Lit::Int(n)) if lits.base(e) != Some(Base::R) => Some(n.clone()),
        K::Unary(UnOp::Neg, _) => vals[0].as_ref().map(|v| -v),
        K::Binary(op, _, _) => {
            let (a, b) = (vals[0].as_ref()?, vals[1].as_ref()?);
            match op {
                BinOp::Add => Some(a + b),
                BinOp::Sub => Some(a - b),
                BinOp::Mul => Some(a * b),
                BinOp::Div if b.is_zero() => None,
                BinOp::Div => {
                    let (q, r) = a.div_mod_floor(b);
                    if !r.is_zero() {
                        out.push(truncation(e, a, b, &q));
                    }
                    Some(q)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

fn truncation(e: &Expr, a: &BigInt, b: &BigInt, q: &BigInt) -> Diagnostic {
    let msg = format!("integer division of constants truncates: {a}/{b} is {q} on Z");
    let help = format!(
        "for the rational {a}/{b} write `{a}.0 / {b}` (or `real({a}) / {b}`), or use the division where a real is expected: `x * ({a}/{b})` with `x: R` is exact"
    );
    Diagnostic::warning(ErrorKind::Type, e.span, msg).with_help(help)
}
