//! The engines `dual` and `dual-scalar`, and the library functions the command line uses
//! (`show --stage delta`; `show --stage grad` and `cost --engine dual` go through the
//! engine interface, docs/architecture.md).
//!
//! `dual` (seed 000 §5–§7): [`prepare`] (check, fragment, bot) → dual-arrays forward
//! transformation → reverse pass. Its derivative program answers `grad` and `vjp`: the
//! gradient program of [`gradient_program`] ([`vjp_program`]), evaluated by the one
//! evaluator through the engine harness. Its runtime answers are the runtime reverse
//! pass [`runtime_vjp`] and, for JVPs, the runtime forward pass and the forward
//! evaluation of its Delta ([`runtime_jvp`]).
//!
//! `dual-scalar` (seed 000 §2): the naive scalar algorithm of [`super::scalar`], on the
//! program with its builds.

use super::forward;
use super::fragment::prepare;
use super::print;
use super::runtime::{backprop, tangent};
use super::scalar;
use super::symbolic::forward::{separate, SV};
use super::symbolic::wrapper;
use super::value::{assemble, RDelta, DV};
use crate::engine::{
    DerivativeProgram, Derivatives, Engine, Fragment, Input, Layout, Output, Question, Runtime,
    Signature,
};
use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::pretty;
use adora_core::types::Type;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::reference::{check_cotangent, check_scalar_result, check_tangents, Gradient};
use adora_semantics::scalar::Scalar;
use adora_semantics::value::{Tensor, Value};

pub use wrapper::GradientProgram;

/// The engine `dual`: dual-arrays reverse AD after bot, with symbolic Delta evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dual;

/// The engine `dual-scalar`: naive scalar dual-numbers reverse AD (no bot).
#[derive(Clone, Copy, Debug, Default)]
pub struct DualScalar;

/// Figures of one runtime reverse pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuntimeStats {
    /// Delta nodes of the result (`Share` bodies once).
    pub delta_nodes: usize,
    /// One-hot arrays created (one per `Index` node transposed).
    pub one_hots: usize,
    /// `Share` fragments processed.
    pub shares: usize,
}

/// The gradient program of `f` (after bot), with its metadata: `adora show --stage grad`
/// prints `function` with `adora_core::pretty::function` (a `def` that parses, checks and
/// evaluates again), `adora cost --engine dual` measures it. See
/// [`super::symbolic::wrapper`] for its signature.
pub fn gradient_program(f: &Function) -> Result<GradientProgram> {
    let g = prepare(f)?;
    adora_core::with_stack(|| wrapper::gradient_program(&g))
}

/// The names of the real input leaves: parameters, and `p.k` for tuple components.
fn leaf_names(f: &Function) -> Vec<String> {
    fn go(name: String, ty: &Type, out: &mut Vec<String>) {
        match ty {
            Type::Array(adora_core::types::Base::R, _) => out.push(name),
            Type::Array(..) => {}
            Type::Tuple(ts) => {
                for (k, t) in ts.iter().enumerate() {
                    go(format!("{name}.{k}"), t, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    for p in &f.params {
        go(p.name.clone(), &p.ty, &mut out);
    }
    out
}

/// The separated form (Eq. 6) of `f` after bot, as text (`adora show --stage delta`):
/// the primal part as a `let` chain ending in the primal result, then the symbolic Delta
/// of each real component of the result, one `Share` definition per line.
pub fn delta_text(f: &Function) -> Result<String> {
    let g = prepare(f)?;
    adora_core::with_stack(|| {
        let sep = separate(&g)?;
        let primal = crate::kit::anf::wrap(&sep.bindings, sep.result.primal());
        let mut roots = Vec::new();
        fn collect(sv: &SV, name: String, out: &mut Vec<(String, super::symbolic::SDelta)>) {
            match sv {
                SV::R(_, d) => out.push((name, d.clone())),
                SV::N(_) => {}
                SV::T(vs) => {
                    for (k, c) in vs.iter().enumerate() {
                        collect(c, format!("{name}.{k}"), out);
                    }
                }
            }
        }
        collect(&sep.result, "result".to_string(), &mut roots);
        let ds: Vec<_> = roots.iter().map(|(_, d)| d.clone()).collect();
        let names = leaf_names(&g);
        let input = |i: usize| names.get(i).cloned().unwrap_or_else(|| format!("#{i}"));
        Ok(format!(
            "-- primal ({} bindings)\n{}\n-- delta ({} nodes)\n{}",
            sep.bindings.len(),
            pretty::expr(&primal),
            super::delta::node_count_all(&ds),
            print::render_many(&roots, &input)
        ))
    })
}

fn real_leaves<S: Scalar>(v: &Value<S>, out: &mut Vec<Tensor<S>>) {
    match v {
        Value::Real(t) => out.push(t.clone()),
        Value::Int(_) | Value::Bool(_) => {}
        Value::Tuple(vs) => vs.iter().for_each(|c| real_leaves(c, out)),
    }
}

fn grads_of<S: Scalar>(
    inputs: &[Value<S>],
    leaves: Vec<Option<Tensor<S>>>,
) -> Vec<Option<Value<S>>> {
    let mut it = leaves.into_iter();
    inputs
        .iter()
        .map(|v| {
            let g = assemble(v, &mut it);
            v.ty().has_reals().then_some(g)
        })
        .collect()
}

/// The runtime pipeline's VJP (bot, forward pass, runtime reverse pass of Fig. 17), with
/// its figures.
pub fn runtime_vjp<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    cotangent: &Value<S>,
    opts: &EvalOptions,
) -> Result<(Gradient<S>, RuntimeStats)> {
    check_cotangent(f, cotangent)?;
    let g = prepare(f)?;
    runtime_vjp_normal(&g, inputs, cotangent, opts)
}

/// [`runtime_vjp`] without bot, on a build-free program.
pub fn runtime_vjp_normal<S: Scalar>(
    g: &Function,
    inputs: &[Value<S>],
    cotangent: &Value<S>,
    opts: &EvalOptions,
) -> Result<(Gradient<S>, RuntimeStats)> {
    check_cotangent(g, cotangent)?;
    adora_core::with_stack(|| {
        let fw = forward::run(g, inputs, opts)?;
        let deltas: Vec<RDelta<S>> = fw.result.deltas();
        let mut cts = Vec::new();
        real_leaves(cotangent, &mut cts);
        let delta_nodes = super::delta::node_count_all(&deltas);
        let roots: Vec<(RDelta<S>, Tensor<S>)> = deltas.into_iter().zip(cts).collect();
        let bp = backprop(roots, fw.inputs);
        Ok((
            Gradient {
                value: fw.result.primal(),
                grads: grads_of(inputs, bp.grads),
            },
            RuntimeStats {
                delta_nodes,
                one_hots: bp.one_hots,
                shares: bp.shares,
            },
        ))
    })
}

/// The runtime pipeline's VJP **without bot** (seed 000 App. D.2, §9: AD is decoupled
/// from bot): the forward pass evaluates each `build` point by point
/// ([`forward::run_with_builds`]), then the runtime reverse pass. Same answers as
/// [`runtime_vjp`], with one `Index` node (and one one-hot) per executed index; a test
/// entry for `dual/without-bot-agrees`, not an engine route.
pub fn runtime_vjp_without_bot<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    cotangent: &Value<S>,
    opts: &EvalOptions,
) -> Result<(Gradient<S>, RuntimeStats)> {
    check_cotangent(f, cotangent)?;
    adora_core::with_stack(|| adora_core::check::check_function(f))?;
    super::fragment::check_fragment(f, "dual", true)?;
    adora_core::with_stack(|| {
        let fw = forward::run_with_builds(f, inputs, opts)?;
        let deltas: Vec<RDelta<S>> = fw.result.deltas();
        let mut cts = Vec::new();
        real_leaves(cotangent, &mut cts);
        let delta_nodes = super::delta::node_count_all(&deltas);
        let roots: Vec<(RDelta<S>, Tensor<S>)> = deltas.into_iter().zip(cts).collect();
        let bp = backprop(roots, fw.inputs);
        Ok((
            Gradient {
                value: fw.result.primal(),
                grads: grads_of(inputs, bp.grads),
            },
            RuntimeStats {
                delta_nodes,
                one_hots: bp.one_hots,
                shares: bp.shares,
            },
        ))
    })
}

/// The number of Delta nodes the runtime forward pass builds for the build-free `g` on
/// `inputs` (all real components of the result, `Share` bodies once).
pub fn runtime_delta_nodes<S: Scalar>(
    g: &Function,
    inputs: &[Value<S>],
    opts: &EvalOptions,
) -> Result<usize> {
    adora_core::with_stack(|| {
        let fw = forward::run(g, inputs, opts)?;
        Ok(super::delta::node_count_all(&fw.result.deltas()))
    })
}

/// The runtime pipeline's JVP: forward pass, then the forward evaluation of the result's
/// Delta on the input tangents (`None`: zero).
pub fn runtime_jvp<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    tangents: &[Option<Value<S>>],
    opts: &EvalOptions,
) -> Result<(Value<S>, Value<S>)> {
    let g = prepare(f)?;
    runtime_jvp_normal(&g, inputs, tangents, opts)
}

/// [`runtime_jvp`] without bot, on a build-free program.
pub fn runtime_jvp_normal<S: Scalar>(
    g: &Function,
    inputs: &[Value<S>],
    tangents: &[Option<Value<S>>],
    opts: &EvalOptions,
) -> Result<(Value<S>, Value<S>)> {
    check_tangents(g, inputs, tangents)?;
    let mut leaves = Vec::new();
    for (x, t) in inputs.iter().zip(tangents) {
        match t {
            Some(t) => {
                let mut ls = Vec::new();
                real_leaves(t, &mut ls);
                leaves.extend(ls.into_iter().map(Some));
            }
            None => {
                let mut ls = Vec::new();
                real_leaves(x, &mut ls);
                leaves.extend(ls.into_iter().map(|_| None));
            }
        }
    }
    adora_core::with_stack(|| {
        let fw = forward::run(g, inputs, opts)?;
        let value = fw.result.primal();
        let tangent = tangent_value(&fw.result, &leaves);
        Ok((value, tangent))
    })
}

/// The tangent of a dual value: reals from its Deltas, integers and booleans copied
/// (the reference's convention).
fn tangent_value<S: Scalar>(v: &DV<S>, leaves: &[Option<Tensor<S>>]) -> Value<S> {
    match v {
        DV::R(_, d) => Value::Real(tangent(d, leaves)),
        DV::Z(t) => Value::Int((**t).clone()),
        DV::B(t) => Value::Bool((**t).clone()),
        DV::T(vs) => Value::Tuple(vs.iter().map(|c| tangent_value(c, leaves)).collect()),
    }
}

/// Evaluates a gradient program on `inputs` and the cotangent: value and gradients.
pub fn eval_gradient_program<S: Scalar>(
    gp: &GradientProgram,
    inputs: &[Value<S>],
    cotangent: &Value<S>,
    opts: &EvalOptions,
) -> Result<Gradient<S>> {
    let mut args = inputs.to_vec();
    args.push(cotangent.clone());
    let (out, _) = adora_core::with_stack(|| eval(&gp.function, &args, opts))?;
    let mut grads: Vec<Option<Value<S>>> = vec![None; inputs.len()];
    let value = if gp.real_params.is_empty() {
        out
    } else {
        let Value::Tuple(mut parts) = out else {
            return Err(Diagnostic::new(
                ErrorKind::Type,
                gp.function.body.span,
                "the gradient program must return a tuple",
            ));
        };
        if parts.len() != gp.real_params.len() + 1 {
            return Err(Diagnostic::new(
                ErrorKind::Type,
                gp.function.body.span,
                "the gradient program's tuple has the wrong size",
            ));
        }
        let rest = parts.split_off(1);
        for (k, g) in gp.real_params.iter().zip(rest) {
            if let Some(slot) = grads.get_mut(*k) {
                *slot = Some(g);
            }
        }
        parts.remove(0)
    };
    Ok(Gradient { value, grads })
}

/// Engine `dual`'s VJP program of `f` (also its `grad` program, called with cotangent 1):
/// the gradient program of [`gradient_program`], signature `(params…, dret) -> (value,
/// cotangent of each real input…)` in the `Full` layout (the value alone when no input
/// has reals).
pub fn vjp_program(f: &Function) -> Result<DerivativeProgram> {
    let g = prepare(f)?;
    let gp = adora_core::with_stack(|| wrapper::gradient_program(&g))?;
    let mut inputs: Vec<Input> = (0..f.params.len()).map(Input::Primal).collect();
    inputs.push(Input::Cotangent);
    let mut outputs = vec![Output::Value];
    outputs.extend(gp.real_params.iter().map(|k| Output::Cotangent(*k)));
    Ok(DerivativeProgram {
        question: Question::Vjp,
        primal: g,
        function: gp.function,
        signature: Signature {
            inputs,
            outputs,
            layout: Layout::Full,
        },
    })
}

/// The runtime answers of `dual`: the dual-arrays forward pass, then the runtime reverse
/// pass of Fig. 17 (gradients, VJPs) or the forward evaluation of the Delta (JVPs).
impl<S: Scalar> Derivatives<S> for Dual {
    fn gradient(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        opts: &EvalOptions,
    ) -> Result<Gradient<S>> {
        check_scalar_result(f)?;
        runtime_vjp(f, inputs, &Value::real(S::one()), opts).map(|(g, _)| g)
    }
    fn jvp(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        tangents: &[Option<Value<S>>],
        opts: &EvalOptions,
    ) -> Result<(Value<S>, Value<S>)> {
        runtime_jvp(f, inputs, tangents, opts)
    }
    fn vjp(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        cotangent: &Value<S>,
        opts: &EvalOptions,
    ) -> Result<Gradient<S>> {
        runtime_vjp(f, inputs, cotangent, opts).map(|(g, _)| g)
    }
}

impl Engine for Dual {
    fn name(&self) -> &str {
        "dual"
    }
    fn description(&self) -> &str {
        "seed 000: bot, dual arrays with Delta terms, symbolic reverse pass to a gradient program (grad, vjp); JVPs and the runtime reverse pass at run time"
    }
    fn fragments(&self) -> &'static [Fragment] {
        &[Fragment::Bulk]
    }
    fn programs(&self) -> &'static [Question] {
        &[Question::Grad, Question::Vjp]
    }
    fn program(&self, f: &Function, q: Question) -> Result<DerivativeProgram> {
        q.check_function(f)?;
        match q {
            Question::Grad | Question::Vjp => {
                let mut dp = vjp_program(f)?;
                dp.question = q;
                Ok(dp)
            }
            Question::Jvp => Err(crate::engine::no_program(self.name(), q)),
        }
    }
    fn runtime(&self) -> Option<&dyn Runtime> {
        Some(self)
    }
    /// Seed 000 §7 with the `ops` model of seed 001 §4 (docs/cost-models.md): `K = 4`,
    /// `C = 2`. `C = 1` is too small: `min`/`max` chains cost nothing in `ops` but their
    /// cotangents must be added where a value fans out (found by `adora check --seed 2019`;
    /// the counterexample is in specs/theorems.md, row S000-X1a).
    fn cheap_gradient(&self) -> Option<(u64, u64)> {
        Some((4, 2))
    }
}

/// `dual-scalar` accepts the whole language the evaluator runs (the naive algorithm of
/// §2 needs no bot and no restriction on control flow).
impl<S: Scalar> Derivatives<S> for DualScalar {
    fn gradient(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        opts: &EvalOptions,
    ) -> Result<Gradient<S>> {
        scalar::gradient(f, inputs, opts)
    }
    fn jvp(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        tangents: &[Option<Value<S>>],
        opts: &EvalOptions,
    ) -> Result<(Value<S>, Value<S>)> {
        scalar::jvp(f, inputs, tangents, opts)
    }
    fn vjp(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        cotangent: &Value<S>,
        opts: &EvalOptions,
    ) -> Result<Gradient<S>> {
        scalar::vjp(f, inputs, cotangent, opts)
    }
}

impl Engine for DualScalar {
    fn name(&self) -> &str {
        "dual-scalar"
    }
    fn description(&self) -> &str {
        "seed 000 §2: naive scalar dual-numbers reverse AD (one Delta per scalar, no bot); runtime only, no derivative program"
    }
    fn fragments(&self) -> &'static [Fragment] {
        &[Fragment::Scalar, Fragment::Bulk, Fragment::Soac]
    }
    fn runtime(&self) -> Option<&dyn Runtime> {
        Some(self)
    }
}
