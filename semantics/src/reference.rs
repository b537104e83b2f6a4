//! The reference derivative: exact forward mode by dual numbers (docs/architecture.md).
//!
//! Each function runs the one evaluator at [`Dual<F>`]: `gradient` and `vjp` seed one
//! tangent id per real input scalar (parameters in order, tuples depth-first, arrays
//! row-major) and read the full Jacobian off the output's tangent maps; `jvp` uses a single
//! tangent id carrying the given input tangents. Integer and boolean inputs are constants.
//! Inside a tuple parameter that mixes reals with integers or booleans, the gradient's
//! integer and boolean components are zeros (`0`, `false`).
use crate::dual::Dual;
use crate::eval::{eval, EvalOptions};
use crate::scalar::Scalar;
use crate::value::{Tensor, Value};
use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::types::Type;

/// Value and gradient of a program with a scalar real result.
#[derive(Clone, Debug, PartialEq)]
pub struct Gradient<F> {
    /// The program's value.
    pub value: Value<F>,
    /// One entry per parameter: the gradient (same shape as the input) for real-typed
    /// parameters (tuples of reals: a tuple of gradients), `None` for integer / boolean ones.
    pub grads: Vec<Option<Value<F>>>,
}

/// The inputs as dual numbers, real scalar number `k` (in `real_scalars` order over all
/// inputs) seeded with tangent `1` at id `k`; also returns the number of real scalars.
fn seed_all<F: Scalar>(inputs: &[Value<F>]) -> (Vec<Value<Dual<F>>>, usize) {
    let mut next = 0usize;
    let duals = inputs
        .iter()
        .map(|v| {
            v.map_reals(&mut |x| {
                next += 1;
                Dual::variable(x.clone(), next - 1)
            })
        })
        .collect();
    (duals, next)
}

/// A value shaped like `like` whose reals are taken in order from `dense`, starting at
/// `*pos`; integers and booleans become zeros.
fn unflatten<F: Scalar>(like: &Value<F>, dense: &[F], pos: &mut usize) -> Value<F> {
    match like {
        Value::Real(t) => {
            let data = dense[*pos..*pos + t.len()].to_vec();
            *pos += t.len();
            Value::Real(Tensor {
                shape: t.shape.clone(),
                data,
            })
        }
        Value::Int(t) => Value::Int(Tensor::filled(t.shape.clone(), 0)),
        Value::Bool(t) => Value::Bool(Tensor::filled(t.shape.clone(), false)),
        Value::Tuple(vs) => Value::Tuple(vs.iter().map(|v| unflatten(v, dense, pos)).collect()),
    }
}

/// Per-parameter gradients from the dense gradient over all real input scalars.
fn split_grads<F: Scalar>(inputs: &[Value<F>], dense: &[F]) -> Vec<Option<Value<F>>> {
    let mut pos = 0;
    inputs
        .iter()
        .map(|v| {
            let g = unflatten(v, dense, &mut pos);
            v.ty().has_reals().then_some(g)
        })
        .collect()
}

/// The primal part of a dual value.
fn primal<F: Scalar>(v: &Value<Dual<F>>) -> Value<F> {
    v.map_reals(&mut |d| d.value().clone())
}

/// Gradient of `f` (scalar `R` result) at `inputs`. Error `ErrorKind::Type` otherwise.
pub fn gradient<F: Scalar>(
    f: &Function,
    inputs: &[Value<F>],
    opts: &EvalOptions,
) -> Result<Gradient<F>> {
    check_scalar_result(f)?;
    let (duals, n) = seed_all(inputs);
    let (out, _) = eval(f, &duals, opts)?;
    let Some(y) = out.as_real() else {
        return Err(Diagnostic::new(
            ErrorKind::Type,
            f.body.span,
            "grad needs a scalar R result; use vjp",
        ));
    };
    let mut dense = vec![F::zero(); n];
    for (id, d) in y.tangents() {
        dense[*id] = d.clone();
    }
    Ok(Gradient {
        value: Value::real(y.value().clone()),
        grads: split_grads(inputs, &dense),
    })
}

/// The validation of the derivative questions, shared by the reference and by every
/// engine (the engine harness of `adora_rewrites::engine::harness` runs it before asking
/// an engine): `grad` needs a scalar `R` result ([`check_scalar_result`]), inputs must
/// match the parameters ([`check_inputs`]), tangents and cotangents must have the types
/// of the inputs and of the result ([`check_tangents`], [`check_cotangent`]).
///
/// An `ErrorKind::Type` error unless `f` returns a scalar `R` (what `grad` needs).
pub fn check_scalar_result(f: &Function) -> Result<()> {
    if f.ret == Type::real() {
        return Ok(());
    }
    Err(Diagnostic::new(
        ErrorKind::Type,
        f.body.span,
        format!(
            "grad needs a scalar R result; use vjp (`{}` returns {})",
            f.name, f.ret
        ),
    ))
}

pub use crate::eval::check_inputs;

/// An `ErrorKind::Input` error unless there is one tangent per input (`None`: zero) and
/// each given tangent has its input's type.
pub fn check_tangents<F>(
    f: &Function,
    inputs: &[Value<F>],
    tangents: &[Option<Value<F>>],
) -> Result<()> {
    if tangents.len() != inputs.len() {
        return Err(Diagnostic::new(
            ErrorKind::Input,
            f.body.span,
            format!(
                "{} tangents given for {} inputs",
                tangents.len(),
                inputs.len()
            ),
        ));
    }
    for (k, (x, t)) in inputs.iter().zip(tangents).enumerate() {
        if let Some(t) = t {
            let name = f.params.get(k).map_or("?", |p| p.name.as_str());
            expect_type(t, &x.ty(), &format!("tangent of `{name}`"), f)?;
        }
    }
    Ok(())
}

/// An `ErrorKind::Input` error unless the cotangent has the result's type.
pub fn check_cotangent<F>(f: &Function, cotangent: &Value<F>) -> Result<()> {
    expect_type(cotangent, &f.ret, "cotangent", f)
}

/// Checks that `v` has type `ty` (an `ErrorKind::Input` error naming `what` otherwise).
fn expect_type<F>(v: &Value<F>, ty: &Type, what: &str, f: &Function) -> Result<()> {
    let found = v.ty();
    if &found == ty {
        return Ok(());
    }
    Err(Diagnostic::new(
        ErrorKind::Input,
        f.body.span,
        format!("{what}: expected {ty}, found {found}"),
    ))
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
    check_tangents(f, inputs, tangents)?;
    let mut duals = Vec::with_capacity(inputs.len());
    for (x, t) in inputs.iter().zip(tangents) {
        let d = match t {
            None => x.map_reals(&mut |v| Dual::constant(v.clone())),
            Some(t) => {
                let ts = t.real_scalars();
                let mut pos = 0;
                x.map_reals(&mut |v| {
                    pos += 1;
                    Dual::new(v.clone(), vec![(0, ts[pos - 1].clone())])
                })
            }
        };
        duals.push(d);
    }
    let (out, _) = eval(f, &duals, opts)?;
    Ok((primal(&out), out.map_reals(&mut |d| d.tangent(0))))
}

/// One sparse row of a Jacobian: `(k, ∂y/∂x_k)` for the non-zero partial derivatives.
pub type JacobianRow<F> = Vec<(usize, F)>;

/// The value of `f` and its Jacobian, one sparse row per real scalar of the result (in
/// [`Value::real_scalars`] order): the partial derivatives `(k, ∂y/∂x_k)` with respect to
/// the real scalars `x_k` of the inputs (numbered in the inputs' `real_scalars` order),
/// zeros left out. One evaluation at dual numbers seeded with every input, as
/// [`gradient`] and [`vjp`] do; `adora difftest` reads condition numbers off it.
pub fn jacobian<F: Scalar>(
    f: &Function,
    inputs: &[Value<F>],
    opts: &EvalOptions,
) -> Result<(Value<F>, Vec<JacobianRow<F>>)> {
    let (duals, _) = seed_all(inputs);
    let (out, _) = eval(f, &duals, opts)?;
    let rows = out
        .real_scalars()
        .into_iter()
        .map(|y| y.tangents().to_vec())
        .collect();
    Ok((primal(&out), rows))
}

/// Vector-Jacobian product: value and, per parameter, the cotangent of the input for the
/// output cotangent `cotangent` (shaped like the result).
pub fn vjp<F: Scalar>(
    f: &Function,
    inputs: &[Value<F>],
    cotangent: &Value<F>,
    opts: &EvalOptions,
) -> Result<Gradient<F>> {
    check_cotangent(f, cotangent)?;
    let (duals, n) = seed_all(inputs);
    let (out, _) = eval(f, &duals, opts)?;
    let mut dense = vec![F::zero(); n];
    for (y, c) in out.real_scalars().into_iter().zip(cotangent.real_scalars()) {
        // Exact mode skips zero cotangents (their products are zero); f64 mode forms them,
        // so `0 · inf = NaN` appears as in a dense VJP (docs/language.md).
        if !F::keeps_explicit_zeros() && c.is_zero() {
            continue;
        }
        for (id, d) in y.tangents() {
            dense[*id].add_assign(&c.mul(d));
        }
    }
    Ok(Gradient {
        value: primal(&out),
        grads: split_grads(inputs, &dense),
    })
}
