//! Values from literal expressions (`--input x=[1, 2/3]`) and JSON, values to text and JSON.
//!
//! Formats (exact scalars `Rat` and `Dual<Rat>` print their exact primal value, `f64`
//! its shortest round-trip decimal):
//!
//! * [`to_literal`]: the concrete syntax, `[[1, 2/3], [0, -1]]`, `(1/2, [true, false])`,
//!   `[]` for an empty dimension; parseable back by [`value_from_expr`] (non-finite
//!   `f64`s print as the literals `inf`, `-inf`, `nan`, read back into `f64` only).
//! * [`to_text`]: scalars as `1/3 ≈ 0.333333` (the approximation only when some real is
//!   a non-integer exact rational), arrays and tuples with a type header:
//!   `R[2] = [1/3, 2] ≈ [0.333333, 2]`, `Z[3] = [0, 1, 2]`,
//!   `(R, Z) = (1/2, 3) ≈ (0.5, 3)`. Approximations use 6 significant digits (`%g`
//!   style: `0.333333`, `1.5e-7`, `1.23457e8`).
//! * [`to_json`]: exact reals as strings `"p/q"` / `"n"`, `f64` reals as JSON numbers
//!   (non-finite: strings `"inf"`, `"-inf"`, `"nan"`), integers as JSON numbers, booleans
//!   as JSON booleans, arrays nested to their shape, tuples as JSON arrays.
//! * [`value_from_json`] accepts for `R`: JSON numbers (converted exactly from their
//!   decimal text: `0.1` is 1/10; [`value_from_json_with`] and [`JsonNumbers::Double`]:
//!   the exact value of the nearest IEEE double), strings `"p/q"`, `"n"` or decimals
//!   (`"-2.5e-3"`), and, for `f64` scalars only, `"inf"`, `"-inf"`, `"nan"`; for
//!   `Z`: integral JSON numbers or strings `"n"`; for `B`: JSON booleans; arrays nested
//!   to the shape, tuples as arrays.
use crate::scalar::Scalar;
use crate::value::Value;
use adora_core::ast::Expr;
use adora_core::diag::Result;
use adora_core::types::Type;

mod read;
mod write;

pub use read::parse_rational;

/// Converts a constant literal expression (numbers, `true`/`false`, array and tuple
/// literals, unary minus, and `/` between numbers) to a value of type `ty`.
/// Errors are `ErrorKind::Input` with the offending span.
pub fn value_from_expr<S: Scalar>(e: &Expr, ty: &Type) -> Result<Value<S>> {
    read::from_expr(e, ty)
}

/// How JSON numbers (not strings) given for reals are read (`--json-numbers`,
/// docs/language.md, "Inputs").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum JsonNumbers {
    /// Exactly as written in decimal: `0.1` is 1/10 (the default).
    #[default]
    Decimal,
    /// As the exact binary value of the IEEE double nearest to the decimal text:
    /// `0.1` is 3602879701896397/36028797018963968, the number JAX or NumPy wrote.
    Double,
}

/// Converts JSON (nested arrays of numbers or of `"p/q"` strings, booleans, and arrays for
/// tuples) to a value of type `ty`, reading JSON numbers as exact decimals. `what` names
/// the input in error messages.
pub fn value_from_json<S: Scalar>(
    j: &serde_json::Value,
    ty: &Type,
    what: &str,
) -> Result<Value<S>> {
    read::from_json(j, ty, what, JsonNumbers::Decimal)
}

/// [`value_from_json`] with JSON numbers for reals read as `numbers` says.
pub fn value_from_json_with<S: Scalar>(
    j: &serde_json::Value,
    ty: &Type,
    what: &str,
    numbers: JsonNumbers,
) -> Result<Value<S>> {
    read::from_json(j, ty, what, numbers)
}

/// Human-readable text: shape, exact value, and (for non-integers) a decimal approximation.
pub fn to_text<S: Scalar>(v: &Value<S>) -> String {
    write::text(v)
}

/// Concrete-syntax literal of a value (`[[1, 2/3], [0, -1]]`), parseable by
/// `value_from_expr`; tuples as `(a, b)`.
pub fn to_literal<S: Scalar>(v: &Value<S>) -> String {
    write::literal(v, &|x: &S| x.to_literal())
}

/// JSON: exact values as strings `"p/q"` (integers `"n"`) nested to the array's shape;
/// `f64` values as JSON numbers; booleans as JSON booleans; tuples as arrays.
pub fn to_json<S: Scalar>(v: &Value<S>) -> serde_json::Value {
    write::json(v)
}

/// A number in `%g` style with 6 significant digits (`0.333333`, `2`, `1.5e-7`).
pub fn approx_text(x: f64) -> String {
    write::fmt_g(x)
}
