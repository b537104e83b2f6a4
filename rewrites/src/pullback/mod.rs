//! Engine `pullback` (seed 003: Mak and Ong, *A Differential-form Pullback Programming
//! Language for Higher-order Reverse-mode Automatic Differentiation*, §3.3: "to perform
//! reverse-mode AD on a term t at s with respect to x, we consider the term
//! `pb(\x. t, omega_p) s`"; docs/engines/pullback.md, "Engine `pullback`").
//!
//! | question | route |
//! |---|---|
//! | `grad`, `vjp` | embed the scalar program as `\z. t` (`adora_pullback::embed`), reduce `pb(\z. t, omega_ȳ) s` with the call-by-value strategy, read the covector row |
//! | `jvp` | reduce `J(\z. t, ṡ) s` |
//!
//! Runtime answers in exact mode only (`Derivatives<Rat>`); `f64` and interval modes
//! decline with the trait's defaults. Programs outside the first-order scalar fragment are
//! `Unsupported`.

use crate::engine::{Derivatives, Engine, Fragment, Runtime};
use adora_core::ast::Function;
use adora_core::diag::Result;
use adora_core::types::{Base, Type};
use adora_pullback::ad;
use adora_pullback::embed::embed;
use adora_pullback::reduce::Reducer;
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference::Gradient;
use adora_semantics::scalar::Interval;
use adora_semantics::value::{Tensor, Value};
use adora_semantics::Rat;
use num_traits::{ToPrimitive, Zero};

/// The engine `pullback`: reverse mode by reduction in the pullback calculus.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pullback;

/// The reducer the engine uses (the reduction's default step limit; exceeding it is a
/// `Resource` error).
fn reducer() -> Reducer {
    Reducer::new()
}

/// The real scalars of `v`, in order (integers and booleans skipped).
fn real_leaves(v: &Value<Rat>, out: &mut Vec<Rat>) {
    match v {
        Value::Real(t) => out.extend(t.data.iter().cloned()),
        Value::Int(_) | Value::Bool(_) => {}
        Value::Tuple(vs) => vs.iter().for_each(|c| real_leaves(c, out)),
    }
}

/// Every scalar of `v` as a rational (integers exact, booleans 0/1; `zero_non_real`: 0
/// for integers and booleans).
fn all_leaves(v: &Value<Rat>, zero_non_real: bool, out: &mut Vec<Rat>) {
    match v {
        Value::Real(t) => out.extend(t.data.iter().cloned()),
        Value::Int(t) => out.extend(t.data.iter().map(|n| {
            if zero_non_real {
                Rat::zero()
            } else {
                Rat::from_integer((*n).into())
            }
        })),
        Value::Bool(t) => out.extend(
            t.data
                .iter()
                .map(|b| Rat::from_integer(i64::from(*b && !zero_non_real).into())),
        ),
        Value::Tuple(vs) => vs.iter().for_each(|c| all_leaves(c, zero_non_real, out)),
    }
}

/// The value of type `ty` whose scalars are taken in order from `xs` (an integer or
/// boolean leaf from `like`'s scalars when given: the reference's tangent convention).
fn rebuild(
    ty: &Type,
    xs: &mut std::slice::Iter<Rat>,
    like: &mut std::slice::Iter<Rat>,
) -> Value<Rat> {
    match ty {
        Type::Tuple(ts) => Value::Tuple(ts.iter().map(|t| rebuild(t, xs, like)).collect()),
        Type::Array(b, _) => {
            let x = xs.next().cloned().unwrap_or_else(Rat::zero);
            let l = like.next().cloned().unwrap_or_else(|| x.clone());
            match b {
                Base::R => Value::real(x),
                Base::Z => Value::int(l.to_integer().to_i64().unwrap_or(0)),
                Base::B => Value::bool(!l.is_zero()),
            }
        }
    }
}

/// Per-input gradients from the row over the real input scalars (the reference's layout:
/// `None` for inputs without reals, zeros for their integer and boolean leaves).
fn split(inputs: &[Value<Rat>], row: &[Rat]) -> Vec<Option<Value<Rat>>> {
    fn go(v: &Value<Rat>, it: &mut std::slice::Iter<Rat>) -> Value<Rat> {
        match v {
            Value::Real(t) => Value::Real(Tensor {
                shape: t.shape.clone(),
                data: t
                    .data
                    .iter()
                    .map(|_| it.next().cloned().unwrap_or_else(Rat::zero))
                    .collect(),
            }),
            Value::Int(t) => Value::Int(Tensor::filled(t.shape.clone(), 0)),
            Value::Bool(t) => Value::Bool(Tensor::filled(t.shape.clone(), false)),
            Value::Tuple(vs) => Value::Tuple(vs.iter().map(|c| go(c, it)).collect()),
        }
    }
    let mut it = row.iter();
    inputs
        .iter()
        .map(|v| {
            let g = go(v, &mut it);
            v.ty().has_reals().then_some(g)
        })
        .collect()
}

/// The point `s`: the real input scalars (a dummy `0` when there are none).
fn point(inputs: &[Value<Rat>]) -> Vec<Rat> {
    let mut p = Vec::new();
    inputs.iter().for_each(|v| real_leaves(v, &mut p));
    if p.is_empty() {
        p.push(Rat::zero());
    }
    p
}

fn vjp_exact(f: &Function, inputs: &[Value<Rat>], cotangent: &Value<Rat>) -> Result<Gradient<Rat>> {
    let e = embed(f, inputs)?;
    let mut ct = Vec::new();
    all_leaves(cotangent, true, &mut ct);
    let out = ad::vjp(&e.term, &e.input, &point(inputs), &ct, &reducer())?;
    let value = rebuild(&f.ret, &mut out.value.iter(), &mut out.value.iter());
    let row = if e.real_leaves == 0 {
        Vec::new()
    } else {
        out.derivative
    };
    Ok(Gradient {
        value,
        grads: split(inputs, &row),
    })
}

/// The primal under the evaluator's budgets (steps, memory, number sizes) first: the
/// reducer has no budgets of its own beyond its step limit, so a program the evaluator
/// stops (e.g. `pow(x, -100000)`) is reported with the evaluator's error and position
/// instead of being reduced without bound.
fn within_budgets(f: &Function, inputs: &[Value<Rat>], opts: &EvalOptions) -> Result<()> {
    adora_semantics::eval::eval(f, inputs, opts).map(|_| ())
}

impl Derivatives<Rat> for Pullback {
    fn gradient(
        &self,
        f: &Function,
        inputs: &[Value<Rat>],
        opts: &EvalOptions,
    ) -> Result<Gradient<Rat>> {
        adora_semantics::reference::check_scalar_result(f)?;
        within_budgets(f, inputs, opts)?;
        vjp_exact(f, inputs, &Value::real(num_traits::One::one()))
    }
    fn vjp(
        &self,
        f: &Function,
        inputs: &[Value<Rat>],
        cotangent: &Value<Rat>,
        opts: &EvalOptions,
    ) -> Result<Gradient<Rat>> {
        within_budgets(f, inputs, opts)?;
        vjp_exact(f, inputs, cotangent)
    }
    fn jvp(
        &self,
        f: &Function,
        inputs: &[Value<Rat>],
        tangents: &[Option<Value<Rat>>],
        opts: &EvalOptions,
    ) -> Result<(Value<Rat>, Value<Rat>)> {
        within_budgets(f, inputs, opts)?;
        let e = embed(f, inputs)?;
        let mut dt = Vec::new();
        for (x, t) in inputs.iter().zip(tangents) {
            match t {
                Some(t) => real_leaves(t, &mut dt),
                None => {
                    let mut xs = Vec::new();
                    real_leaves(x, &mut xs);
                    dt.extend(xs.iter().map(|_| Rat::zero()));
                }
            }
        }
        if dt.is_empty() {
            dt.push(Rat::zero());
        }
        let out = ad::jvp(&e.term, &e.input, &point(inputs), &dt, &reducer())?;
        let value = rebuild(&f.ret, &mut out.value.iter(), &mut out.value.iter());
        let tangent = rebuild(&f.ret, &mut out.derivative.iter(), &mut out.value.iter());
        Ok((value, tangent))
    }
}

impl Derivatives<f64> for Pullback {}
impl Derivatives<Interval> for Pullback {}

impl Engine for Pullback {
    fn name(&self) -> &str {
        "pullback"
    }
    fn description(&self) -> &str {
        "seed 003: first-order scalar programs embedded in the pullback calculus, reverse mode by call-by-value reduction of pb(\\z. t, omega) s (grad, vjp; jvp by J(\\z. t, dz) s); exact mode, runtime only"
    }
    fn fragments(&self) -> &'static [Fragment] {
        &[Fragment::Scalar]
    }
    fn runtime(&self) -> Option<&dyn Runtime> {
        Some(self)
    }
}
