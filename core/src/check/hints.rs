//! `help:` lines for the type errors newcomers meet (docs/language.md, "Help in error
//! messages"): a `Z` where an `R` is needed gets "convert with `real(i)`", naming the
//! expression.

use crate::ast::Expr;
use crate::diag::{Diagnostic, ErrorKind};
use crate::types::{Base, Type};

/// The longest expression text a hint quotes; longer ones are written `real(...)`.
const QUOTE_MAX: usize = 40;

/// `expr` as it reads in a hint: its printed source, or `...` when long.
fn quote(e: &Expr) -> String {
    let text = crate::pretty::expr(e);
    if text.contains('\n') || text.chars().count() > QUOTE_MAX {
        "...".to_string()
    } else {
        text
    }
}

/// Adds to a type error whose operands (surface expression, type) mix `Z` and `R`
/// arrays the help "convert with `real(e)`" for each `Z` operand `e`.
pub(super) fn convert_to_real(d: Diagnostic, operands: &[(&Expr, &Type)]) -> Diagnostic {
    let base = |t: &Type| t.as_array().map(|(b, _)| b);
    let has_real = operands.iter().any(|(_, t)| base(t) == Some(Base::R));
    if d.kind != ErrorKind::Type || !has_real {
        return d;
    }
    operands
        .iter()
        .filter(|(_, t)| base(t) == Some(Base::Z))
        .fold(d, |d, (e, _)| {
            d.with_help(format!("convert with `real({})`", quote(e)))
        })
}

/// Adds to a type error about the expression `e` of type `found` where type `want` is
/// expected the help "convert with `real(e)`" when `found` is a `Z` array and `want` an
/// `R` array.
pub(super) fn expected_real(d: Diagnostic, e: &Expr, found: &Type, want: &Type) -> Diagnostic {
    let z = matches!(found, Type::Array(Base::Z, _));
    let r = matches!(want, Type::Array(Base::R, _));
    if d.kind == ErrorKind::Type && z && r {
        d.with_help(format!("convert with `real({})`", quote(e)))
    } else {
        d
    }
}
