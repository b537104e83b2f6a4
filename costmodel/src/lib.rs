//! `adora-costmodel`: cost models of core programs (docs/cost-models.md; definitions, tables and
//! worked examples in `docs/cost-models.md`).
//!
//! * `ops` ([`ops`]): seed 001's count of arithmetic operations on reals;
//! * `work`, `span` ([`work`]): seed 004's work–depth model of bulk operations;
//! * `mem` ([`mem`]): peak live scalars;
//! * `C` ([`tl`]): seed 001's sparsity-aware op count of tensor-language terms and
//!   Tensor-SSA programs (not a model of core programs: it interprets TL terms).
//!
//! Every model is an [`Observer`] of the one evaluator (`adora_semantics::eval::
//! eval_observed`), so value-dependent costs — the branch an `if` takes, colliding scatter
//! writes, in-bounds `reduce_by_index` writes — are exact for the inputs given, and no
//! semantic rule is implemented twice. [`measure`] runs all of them in one evaluation.

pub mod inputs;
pub mod lin;
pub mod mem;
pub mod node;
pub mod ops;
pub mod tl;
pub mod tl_ext;
pub mod work;

pub use inputs::default_inputs;

use adora_core::ast::Function;
use adora_core::diag::Result;
use adora_semantics::eval::{eval_observed, EvalOptions, Event, Observer};
use adora_semantics::scalar::Scalar;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use serde_json::json;
use std::fmt;

/// The counts of one evaluation under every model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Costs {
    /// Arithmetic operations on reals (seed 001).
    pub ops: u64,
    /// Scalar operations of every kind, data movement included (seed 004).
    pub work: u64,
    /// Depth (critical path) of the same operations (seed 004).
    pub span: u64,
    /// Peak live scalars.
    pub mem: u64,
}

impl Costs {
    /// `{"ops": .., "work": .., "span": .., "mem": ..}`.
    pub fn to_json(&self) -> serde_json::Value {
        json!({"ops": self.ops, "work": self.work, "span": self.span, "mem": self.mem})
    }
}

impl fmt::Display for Costs {
    /// `ops 19  work 29  span 6  mem 31`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ops {}  work {}  span {}  mem {}",
            self.ops, self.work, self.span, self.mem
        )
    }
}

/// Ratios gradient / primal per model; `None` where the primal's count is 0.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ratios {
    /// `ops` ratio.
    pub ops: Option<f64>,
    /// `work` ratio.
    pub work: Option<f64>,
    /// `span` ratio.
    pub span: Option<f64>,
    /// `mem` ratio.
    pub mem: Option<f64>,
}

impl Ratios {
    /// `{"ops": .., "work": .., "span": .., "mem": ..}` with `null` for undefined ratios.
    pub fn to_json(&self) -> serde_json::Value {
        json!({"ops": self.ops, "work": self.work, "span": self.span, "mem": self.mem})
    }
}

fn quotient(num: u64, den: u64) -> Option<f64> {
    (den != 0).then(|| num as f64 / den as f64)
}

/// The ratios `gradient / primal` of every model.
pub fn ratio(gradient: &Costs, primal: &Costs) -> Ratios {
    Ratios {
        ops: quotient(gradient.ops, primal.ops),
        work: quotient(gradient.work, primal.work),
        span: quotient(gradient.span, primal.span),
        mem: quotient(gradient.mem, primal.mem),
    }
}

/// The cheap-gradient bound of docs/cost-models.md: `ops(gradient) <= k * ops(primal) + c *
/// inputs_and_outputs` (scalars of the inputs plus the outputs), computed without overflow.
pub fn cheap_gradient_bound(
    primal: &Costs,
    gradient: &Costs,
    k: u64,
    c: u64,
    inputs_and_outputs: u64,
) -> bool {
    let rhs =
        u128::from(k) * u128::from(primal.ops) + u128::from(c) * u128::from(inputs_and_outputs);
    u128::from(gradient.ops) <= rhs
}

/// The measured cheap-gradient ratio `ops(gradient) / ops(primal)` (`None` when the primal
/// does no arithmetic).
pub fn cheap_gradient_ratio(primal: &Costs, gradient: &Costs) -> Option<f64> {
    quotient(gradient.ops, primal.ops)
}

/// The smallest integer `k` for which [`cheap_gradient_bound`] holds with the given `c`
/// (`None` when no `k` does: the primal does no arithmetic and the gradient exceeds
/// `c * inputs_and_outputs`).
pub fn cheap_gradient_min_k(
    primal: &Costs,
    gradient: &Costs,
    c: u64,
    inputs_and_outputs: u64,
) -> Option<u64> {
    let allowance = u128::from(c) * u128::from(inputs_and_outputs);
    let excess = u128::from(gradient.ops).saturating_sub(allowance);
    if excess == 0 {
        return Some(0);
    }
    let p = u128::from(primal.ops);
    if p == 0 {
        return None;
    }
    u64::try_from(excess.div_ceil(p)).ok()
}

/// The three models listening to one evaluation.
struct All<'t> {
    ops: ops::OpsModel<'t>,
    work: work::WorkSpanModel<'t>,
    mem: mem::MemModel<'t>,
}

impl Observer for All<'_> {
    fn event(&mut self, event: Event<'_>) {
        self.ops.event(event);
        self.work.event(event);
        self.mem.event(event);
    }
}

/// Costs of evaluating the elaborated function `f` on `inputs` with scalars `S` (all
/// models in one evaluation; evaluation errors are returned as they are). Runs on a thread
/// with a large stack ([`adora_core::with_stack`]), so deep programs cannot overflow it.
pub fn measure_with<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    opts: &EvalOptions,
) -> Result<Costs> {
    adora_core::with_stack(|| measure_here(f, inputs, opts))
}

fn measure_here<S: Scalar>(f: &Function, inputs: &[Value<S>], opts: &EvalOptions) -> Result<Costs> {
    let types = adora_core::check::node_types(f)?;
    let mut all = All {
        ops: ops::OpsModel::new(&types),
        work: work::WorkSpanModel::new(&types),
        mem: mem::MemModel::new(&types, f),
    };
    eval_observed(f, inputs, opts, &mut all)?;
    let ops = all.ops.finish()?;
    let (work, span) = all.work.finish()?;
    let mem = all.mem.finish()?;
    Ok(Costs {
        ops,
        work,
        span,
        mem,
    })
}

/// Costs of evaluating `f` on `inputs` exactly (the reference semantics).
pub fn measure(f: &Function, inputs: &[Value<Rat>], opts: &EvalOptions) -> Result<Costs> {
    measure_with(f, inputs, opts)
}
