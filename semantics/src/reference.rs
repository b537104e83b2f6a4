//! The reference derivative: exact forward mode by dual numbers (DESIGN §3).
use crate::eval::EvalOptions;
use crate::scalar::Scalar;
use crate::value::Value;
use adora_core::ast::Function;
use adora_core::diag::Result;

/// Value and gradient of a program with a scalar real result.
#[derive(Clone, Debug, PartialEq)]
pub struct Gradient<F> {
    /// The program's value.
    pub value: Value<F>,
    /// One entry per parameter: the gradient (same shape as the input) for real-typed
    /// parameters (tuples of reals: a tuple of gradients), `None` for integer / boolean ones.
    pub grads: Vec<Option<Value<F>>>,
}

/// Gradient of `f` (scalar `R` result) at `inputs`. Error `ErrorKind::Type` otherwise.
pub fn gradient<F: Scalar>(f: &Function, inputs: &[Value<F>], opts: &EvalOptions) -> Result<Gradient<F>> {
    let _ = (f, inputs, opts);
    todo!("reference")
}

/// Jacobian-vector product: value and tangent of the result (reals only; integer and
/// boolean parts of the result get zero-free `Int`/`Bool` copies of the value) for the
/// tangents `tangents` (one per parameter; `None` = zero tangent).
pub fn jvp<F: Scalar>(
    f: &Function,
    inputs: &[Value<F>],
    tangents: &[Option<Value<F>>],
    opts: &EvalOptions,
) -> Result<(Value<F>, Value<F>)> {
    let _ = (f, inputs, tangents, opts);
    todo!("reference")
}

/// Vector-Jacobian product: value and, per parameter, the cotangent of the input for the
/// output cotangent `cotangent` (shaped like the result).
pub fn vjp<F: Scalar>(
    f: &Function,
    inputs: &[Value<F>],
    cotangent: &Value<F>,
    opts: &EvalOptions,
) -> Result<Gradient<F>> {
    let _ = (f, inputs, cotangent, opts);
    todo!("reference")
}
