//! The `linear` engine (seed 002): JVP by `J`; VJP and gradients by `J`, then unzipping
//! (`U`, tape stored), then transposition (`T`) of the linear half:
//!
//! ```text
//! f  --anf-->  f (non-linear Linear A)  --J-->  f_jvp(x ; dx) -> (y ; dy)
//!    --U-->  f_jvp_primal(x) -> (y, tape),  f_jvp_lin(tape ; dx) -> (; dy)
//!    --T-->  f_jvp_lin_t(tape ; ct_dy) -> (; ct_dx)
//! ```
//!
//! Each stage's output is erased, lowered to core and evaluated by `adora_semantics`, in
//! exact or `f64` mode. Programs with `build` go through the bot transform first
//! (`crate::bot`, seed 000 §5), whose normal form is build-free.

use super::jvp::{jvp_name, jvp_program};
use super::tangent::tangent_type;
use super::transpose::{transpose_name, transpose_program};
use super::unzip::{lin_name, primal_name, unzip_program, Checkpoint};
use super::util::internal;
use super::values::{eval_def, from_tangent, tangent_part};
use crate::engine::{DerivativeProgram, Derivatives, Engine, Fragment, Question, Runtime};
use adora_core::ast::Function;
use adora_core::diag::Result;
use adora_core::linear::LinearProgram;
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference::{
    check_cotangent, check_inputs, check_scalar_result, check_tangents, Gradient,
};
use adora_semantics::scalar::Scalar;
use adora_semantics::value::Value;

/// The `linear` engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct Linear;

/// A build-free version of `f`: the one bot preparation ([`crate::bot::prepare`]: `f`
/// itself, or its bot normal form when it contains `build`). Bot's errors pass through
/// unchanged: resource limits stay `Resource`, and a bot that cannot reach the normal form
/// (which seed 000 Theorem 5.1 guarantees) is an `Internal` error, never a skip.
pub fn build_free(f: &Function) -> Result<Function> {
    crate::bot::prepare(f)
}

/// `J(f)`: the linearized program of an elaborated core function (its non-linear Linear A
/// form differentiated; one def `NAME_jvp`).
pub fn linearize(f: &Function) -> Result<LinearProgram> {
    let f = build_free(f)?;
    let p = super::anf::from_core(&f)?;
    jvp_program(&p)
}

/// The reverse-mode program of `f` under a checkpointing policy: `NAME_jvp_primal`,
/// `NAME_jvp_lin` and the transpose `NAME_jvp_lin_t`, with the JVP def first.
pub fn reverse_program(f: &Function, policy: &Checkpoint) -> Result<LinearProgram> {
    let j = linearize(f)?;
    let u = unzip_program(&j, policy)?;
    let jname = jvp_name(&f.name);
    transpose_program(&u, &lin_name(&jname))
}

/// Value and tangent of the result of `f` for the given input tangents (`None`: zero).
pub fn jvp<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    tangents: &[Option<Value<S>>],
    opts: &EvalOptions,
) -> Result<(Value<S>, Value<S>)> {
    check_inputs(f, inputs)?;
    check_tangents(f, inputs, tangents)?;
    let j = linearize(f)?;
    let mut args: Vec<Value<S>> = inputs.to_vec();
    for ((p, x), t) in f.params.iter().zip(inputs).zip(tangents) {
        if let Some(tt) = tangent_type(&p.ty) {
            let part = match t {
                Some(t) => tangent_part(t, &p.ty),
                None => tangent_part(&Value::zeros(&x.ty()), &p.ty),
            };
            args.push(part.unwrap_or_else(|| Value::zeros(&tt)));
        }
    }
    let outs = eval_def(&j, &jvp_name(&f.name), &args, opts)?;
    let y = outs
        .first()
        .cloned()
        .ok_or_else(|| internal("the JVP returned nothing"))?;
    let dy = outs.get(1);
    Ok((y.clone(), from_tangent(dy, &y, &f.ret, true)))
}

/// Value and input cotangents of `f` for the output cotangent `cotangent`, by
/// J → U (with `policy`) → T.
pub fn vjp_with<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    cotangent: &Value<S>,
    opts: &EvalOptions,
    policy: &Checkpoint,
) -> Result<Gradient<S>> {
    check_inputs(f, inputs)?;
    check_cotangent(f, cotangent)?;
    let p = reverse_program(f, policy)?;
    let jname = jvp_name(&f.name);
    let outs = eval_def(&p, &primal_name(&jname), inputs, opts)?;
    let y = outs
        .first()
        .cloned()
        .ok_or_else(|| internal("the primal returned nothing"))?;
    let mut args: Vec<Value<S>> = outs[1..].to_vec();
    if let Some(ct) = tangent_part(cotangent, &f.ret) {
        args.push(ct);
    }
    let cts = eval_def(&p, &transpose_name(&lin_name(&jname)), &args, opts)?;
    let mut k = 0;
    let mut grads = Vec::new();
    for (prm, x) in f.params.iter().zip(inputs) {
        if tangent_type(&prm.ty).is_some() {
            grads.push(Some(from_tangent(cts.get(k), x, &prm.ty, false)));
            k += 1;
        } else {
            grads.push(None);
        }
    }
    Ok(Gradient { value: y, grads })
}

/// Value and gradient of a scalar-real `f` (the VJP with cotangent 1).
pub fn gradient<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    opts: &EvalOptions,
) -> Result<Gradient<S>> {
    check_scalar_result(f)?;
    vjp_with(
        f,
        inputs,
        &Value::real(S::one()),
        opts,
        &Checkpoint::StoreAll,
    )
}

impl<S: Scalar> Derivatives<S> for Linear {
    fn gradient(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        opts: &EvalOptions,
    ) -> Result<Gradient<S>> {
        gradient(f, inputs, opts)
    }
    fn jvp(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        tangents: &[Option<Value<S>>],
        opts: &EvalOptions,
    ) -> Result<(Value<S>, Value<S>)> {
        jvp(f, inputs, tangents, opts)
    }
    fn vjp(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        cotangent: &Value<S>,
        opts: &EvalOptions,
    ) -> Result<Gradient<S>> {
        vjp_with(f, inputs, cotangent, opts, &Checkpoint::StoreAll)
    }
}

impl Engine for Linear {
    fn name(&self) -> &str {
        "linear"
    }
    fn description(&self) -> &str {
        "seed 002 (You Only Linearize Once): JVP into Linear A, unzip, transpose, erase to core programs (grad, vjp, jvp)"
    }
    fn fragments(&self) -> &'static [Fragment] {
        &[Fragment::Scalar, Fragment::Bulk]
    }
    fn programs(&self) -> &'static [Question] {
        &[Question::Grad, Question::Vjp, Question::Jvp]
    }
    fn program(&self, f: &Function, q: Question) -> Result<DerivativeProgram> {
        q.check_function(f)?;
        let mut dp = match q {
            Question::Jvp => super::program::jvp_program(f)?,
            Question::Grad | Question::Vjp => {
                super::program::vjp_program(f, &Checkpoint::StoreAll)?
            }
        };
        dp.question = q;
        Ok(dp)
    }
    /// The runtime answers: the Linear A defs erased, lowered and evaluated one after the
    /// other (the tape of the primal half passed at run time to the transposed half).
    fn runtime(&self) -> Option<&dyn Runtime> {
        Some(self)
    }
}
