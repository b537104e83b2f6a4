//! The two numeric modes of the runner: exact rationals compared with `==`, and `f64`
//! compared within a stated tolerance; plus the dispatch of engine questions by mode.

use crate::case::{HeaderLit, Numeric};
use crate::engine::{Derivatives, Engine};
use adora_core::diag::Diagnostic;
use adora_core::types::Type;
use adora_semantics::io;
use adora_semantics::scalar::Scalar;
use adora_semantics::value::Value;
use adora_semantics::Rat;

/// A scalar type the runner can evaluate in: how to compare, and which of an engine's
/// answers serve this mode.
pub trait Mode: Scalar {
    /// Whether `actual` agrees with `expected` (exact: equality; `f64`: within `tol`).
    fn agrees(actual: &Self, expected: &Self, numeric: Numeric) -> bool;
    /// The engine's answers in this mode.
    fn derivatives(e: &dyn Engine) -> &dyn Derivatives<Self>;
}

impl Mode for Rat {
    fn agrees(actual: &Rat, expected: &Rat, _: Numeric) -> bool {
        actual == expected
    }
    fn derivatives(e: &dyn Engine) -> &dyn Derivatives<Rat> {
        e
    }
}

impl Mode for f64 {
    /// `|actual - expected| <= tol * max(1, |expected|)`; with an exact mode, equality.
    fn agrees(actual: &f64, expected: &f64, numeric: Numeric) -> bool {
        match numeric {
            Numeric::Exact => actual == expected,
            Numeric::F64 { tol } => (actual - expected).abs() <= tol * expected.abs().max(1.0),
        }
    }
    fn derivatives(e: &dyn Engine) -> &dyn Derivatives<f64> {
        e
    }
}

/// Whether two values agree: same structure and shapes, equal integers and booleans, and
/// reals that agree in the sense of [`Mode::agrees`].
pub fn values_agree<S: Mode>(actual: &Value<S>, expected: &Value<S>, numeric: Numeric) -> bool {
    match (actual, expected) {
        (Value::Real(a), Value::Real(b)) => {
            a.shape == b.shape
                && a.data.len() == b.data.len()
                && a.data
                    .iter()
                    .zip(&b.data)
                    .all(|(x, y)| S::agrees(x, y, numeric))
        }
        (Value::Int(a), Value::Int(b)) => a == b,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Tuple(a), Value::Tuple(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| values_agree(x, y, numeric))
        }
        _ => false,
    }
}

/// A value as a literal for reports (`io::to_literal`: nested brackets show the shape).
pub fn show<S: Scalar>(v: &Value<S>) -> String {
    io::to_literal(v)
}

/// The value of a header literal at type `ty`: parsed with the expression parser and
/// converted by `value_from_expr`. Errors are rendered against the case's file.
pub fn literal_value<S: Scalar>(
    lit: &HeaderLit,
    ty: &Type,
    file: &str,
    source: &str,
) -> std::result::Result<Value<S>, String> {
    let shifted = |d: Diagnostic| {
        let mut d = d;
        d.span = adora_core::Span::new(d.span.start + lit.offset, d.span.end + lit.offset);
        d.render(file, source)
    };
    let e = adora_core::parser::parse_expr(&lit.text).map_err(shifted)?;
    io::value_from_expr::<S>(&e, ty).map_err(shifted)
}
