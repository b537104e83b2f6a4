//! Values from literal expressions (`--input x=[1, 2/3]`) and JSON, values to text and JSON.
use crate::scalar::Scalar;
use crate::value::Value;
use adora_core::ast::Expr;
use adora_core::diag::Result;
use adora_core::types::Type;

/// Converts a constant literal expression (numbers, `true`/`false`, array and tuple
/// literals, unary minus, and `/` between numbers) to a value of type `ty`.
/// Errors are `ErrorKind::Input` with the offending span.
pub fn value_from_expr<S: Scalar>(e: &Expr, ty: &Type) -> Result<Value<S>> {
    let _ = (e, ty);
    todo!("io")
}

/// Converts JSON (nested arrays of numbers or of `"p/q"` strings, booleans, and arrays for
/// tuples) to a value of type `ty`. `what` names the input in error messages.
pub fn value_from_json<S: Scalar>(j: &serde_json::Value, ty: &Type, what: &str) -> Result<Value<S>> {
    let _ = (j, ty, what);
    todo!("io")
}

/// Human-readable text: shape, exact value, and (for non-integers) a decimal approximation.
pub fn to_text<S: Scalar>(v: &Value<S>) -> String {
    let _ = v;
    todo!("io")
}

/// Concrete-syntax literal of a value (`[[1, 2/3], [0, -1]]`), parseable by
/// `value_from_expr`; tuples as `(a, b)`.
pub fn to_literal<S: Scalar>(v: &Value<S>) -> String {
    let _ = v;
    todo!("io")
}

/// JSON: exact values as strings `"p/q"` (integers `"n"`) nested to the array's shape;
/// `f64` values as JSON numbers; booleans as JSON booleans; tuples as arrays.
pub fn to_json<S: Scalar>(v: &Value<S>) -> serde_json::Value {
    let _ = v;
    todo!("io")
}
