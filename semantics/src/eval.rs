//! The evaluator: one interpreter of elaborated core programs, generic over the scalar
//! type, with semantic conventions of DESIGN §2 and an observer hook for cost models.
use crate::scalar::Scalar;
use crate::value::Value;
use adora_core::ast::{Expr, Function};
use adora_core::diag::Result;

/// Options of one evaluation.
#[derive(Clone, Debug)]
pub struct EvalOptions {
    /// Turn total-division events (`x / 0`) and colliding `scatter_into` writes into
    /// `ErrorKind::Runtime` errors.
    pub strict: bool,
    /// Most evaluation steps (node evaluations, counting each iteration) before a
    /// `ErrorKind::Resource` error.
    pub max_steps: u64,
    /// Largest numerator or denominator, in bits, an exact rational may reach before a
    /// `ErrorKind::Resource` error.
    pub max_rational_bits: u64,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions { strict: false, max_steps: 200_000_000, max_rational_bits: 1 << 16 }
    }
}

/// Counters of events the conventions make total.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalStats {
    /// Divisions by zero that returned 0.
    pub div_by_zero: u64,
    /// Out-of-bounds reads (index, gather) that returned 0.
    pub oob_reads: u64,
    /// Out-of-bounds writes (scatter, scatter_into, reduce_by_index) that were dropped.
    pub oob_writes: u64,
    /// Writes of `scatter_into` to an element already written by it.
    pub colliding_writes: u64,
    /// Evaluation steps taken.
    pub steps: u64,
}

/// What the evaluator reports to an [`Observer`] while it runs (cost models listen).
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// `expr` was evaluated (post-order, once per evaluation, so once per iteration inside
    /// builds, maps and loops). `result` is the number of scalars of its value, `args` the
    /// number of scalars of each evaluated operand in source order (bound sub-expressions
    /// of lambdas excluded), `collisions` the number of in-bounds writes of a scatter /
    /// reduce_by_index / scatter_into that landed on an element already written by the
    /// same operation (0 elsewhere), `writes` the number of in-bounds writes.
    Node {
        /// The node just evaluated.
        expr: &'a Expr,
        /// Scalars in its result.
        result: usize,
        /// Scalars in each operand.
        args: &'a [usize],
        /// Writes landing on already-written elements.
        collisions: usize,
        /// In-bounds writes.
        writes: usize,
    },
    /// A parallel construct (`build`, `map`, `gather`, `scatter`, `reduce`, `scan`,
    /// `reduce_by_index`) starts `iterations` evaluations of its body or operator.
    ParBegin {
        /// The construct.
        expr: &'a Expr,
        /// Number of iterations to come.
        iterations: usize,
    },
    /// A sequential construct (`loop`) starts `iterations` evaluations of its body.
    SeqBegin {
        /// The construct.
        expr: &'a Expr,
        /// Number of iterations to come.
        iterations: usize,
    },
    /// The next iteration of the innermost open construct starts.
    Iter,
    /// The innermost open construct ends.
    End,
    /// A value of `scalars` scalars was bound (let, lambda or loop parameter, input).
    Bind {
        /// Size of the bound value.
        scalars: usize,
    },
    /// A binding of `scalars` scalars went out of scope.
    Unbind {
        /// Size of the released value.
        scalars: usize,
    },
}

/// Receives [`Event`]s during evaluation. The default methods ignore everything.
pub trait Observer {
    /// One event.
    fn event(&mut self, event: Event<'_>) {
        let _ = event;
    }
}

/// An observer that ignores every event.
pub struct NoObserver;
impl Observer for NoObserver {}

/// Evaluates `f` on `inputs` (one value per parameter, matching its type).
pub fn eval<S: Scalar>(f: &Function, inputs: &[Value<S>], opts: &EvalOptions) -> Result<(Value<S>, EvalStats)> {
    eval_observed(f, inputs, opts, &mut NoObserver)
}

/// Evaluates `f` on `inputs`, reporting events to `obs`.
pub fn eval_observed<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    opts: &EvalOptions,
    obs: &mut dyn Observer,
) -> Result<(Value<S>, EvalStats)> {
    let _ = (f, inputs, opts, obs);
    todo!("eval")
}
