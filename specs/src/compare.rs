//! The two numeric modes of the runner: exact rationals compared with `==`, and `f64`
//! compared within the case's stated tolerance (the engine harness's comparison).

use crate::case::{HeaderLit, Numeric};
use adora_core::diag::Diagnostic;
use adora_core::types::Type;
use adora_semantics::io;
use adora_semantics::scalar::Scalar;
use adora_semantics::value::Value;

/// A numeric mode of the runner: the engine harness's (`adora_rewrites::engine::harness`).
pub use adora_rewrites::engine::harness::Mode;

/// The tolerance of a case's numeric mode (`0`: exact equality).
pub fn tolerance(numeric: Numeric) -> f64 {
    match numeric {
        Numeric::Exact => 0.0,
        Numeric::F64 { tol } => tol,
        Numeric::Ball { .. } => 0.0,
    }
}

/// Whether two values agree in the case's numeric mode: the harness's
/// `values_agree` (same structure and shapes, equal integers and booleans, reals equal
/// in exact mode and within the case's `tol` in `f64` mode).
pub fn values_agree<S: Mode>(actual: &Value<S>, expected: &Value<S>, numeric: Numeric) -> bool {
    if let Numeric::Ball { tol, .. } = numeric {
        let wide = expected.map_reals(&mut |x: &S| x.widened(tol));
        return adora_rewrites::engine::harness::values_agree(actual, &wide, 0.0);
    }
    adora_rewrites::engine::harness::values_agree(actual, expected, tolerance(numeric))
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
    let e = adora_core::parser::parse_literal(&lit.text).map_err(shifted)?;
    io::value_from_expr::<S>(&e, ty).map_err(shifted)
}
