//! The evaluator: one interpreter of elaborated core programs, generic over the scalar
//! type, with semantic conventions of docs/language.md and an observer hook for cost models.
//!
//! # Conventions (docs/language.md, exactly as implemented)
//!
//! * Out-of-bounds `index` / `gather` reads give zeros of the read shape (`0`, `0`,
//!   `false`), one `oob_reads` per offending read; out-of-bounds writes of `scatter`,
//!   `scatter_into` and `reduce_by_index` are dropped, one `oob_writes` per dropped write.
//! * Division is total in exact mode: on `R`, `x / 0 = 0` (`f64` gives the IEEE result
//!   instead, see `Scalar::div_by_zero`, but counts the event the same); on `Z`, `/` is
//!   floor division with `x / 0 = 0` and `%` its remainder with `x % 0 = x`; each event
//!   counts one `div_by_zero` (a negative power of zero too); with `strict` it is an
//!   `ErrorKind::Runtime` error "division by zero" at the node.
//! * `Z` is 64-bit; overflow is `ErrorKind::Runtime` "integer overflow" (also `floor` of a
//!   real out of range).
//! * `max(a, b)` is `a` when `a >= b`, `min(a, b)` is `a` when `a <= b` (primal values; the
//!   selected operand is returned whole, so dual numbers keep its tangent).
//! * `reduce(op, ne, xs)`: `+`, `*` and lambdas fold left from `ne`
//!   (`op(op(ne, x0), x1)…`); `min`/`max` fold the elements left to right keeping the
//!   accumulator on ties (the lowest index wins) and then combine `op(r, ne)`; an empty
//!   `xs` gives `ne`. Built-in operators apply to slices elementwise, lambdas receive whole
//!   slices. `scan` is inclusive, `scan[k]` = `reduce` over `xs[0..=k]`.
//! * `reduce_by_index(dest, op, ne, is, vs)`: for `j` ascending
//!   `dest[is[j]] = op(dest[is[j]], vs[j])` (`min`/`max` keep the destination on a tie); `ne`
//!   is evaluated but not otherwise used.
//! * `scatter_into(dest, is, vs)`: for `j` ascending `dest[is[j]] = vs[j]`; a write to an
//!   element already written by the same operation counts one `colliding_writes` (with
//!   `strict`: `ErrorKind::Runtime`); `scatter` adds colliding writes (the first write to an
//!   element stores the value, later ones add).
//! * `select` is strict, `if` lazy; `sum`, `sum_outer` fold left starting from the first
//!   element (an empty sum is 0).
//! * `pow(x, k)` computes `x^|k|` by squaring after checking that the result fits
//!   `max_rational_bits` (`x^0 = 1`), a negative `k` takes the total reciprocal; it costs
//!   [`crate::kernels::arith::pow_steps`] extra steps per element.
//! * Steps: one per node evaluation (each iteration counts), plus one per scalar of each
//!   array (rank >= 1) a node produces — elementwise operators, primitives, array
//!   literals, `build`, `map`, `gather`, `scatter`, `reduce`/`scan` of arrays,
//!   `reduce_by_index`, `scatter_into`; variables, projections, `if`, `let`, `loop` and
//!   indexing pass values on and produce nothing ([`crate::kernels::limits::produced`]).
//!   Past `max_steps` the evaluation stops with `ErrorKind::Resource` "evaluation step
//!   limit (N) exceeded". An operation that allocates an array of `n` scalars in bulk
//!   (`build`, `map`, `gather`, `replicate`, `iota`, ...) first checks that `n` more steps
//!   and its bytes fit the limits, so it fails before allocating.
//! * Memory: every produced array counts [`crate::kernels::limits::array_bytes`] bytes
//!   against `max_memory` (a budget of total allocation, never given back, so it bounds
//!   the peak); past it, `ErrorKind::Resource` "memory budget (N bytes of arrays)
//!   exceeded".
//!   Every real produced by arithmetic is checked against `max_rational_bits` (exact
//!   scalars only; `ErrorKind::Resource`).
//! * Arrays built by `build`, `map`, `gather`, `replicate` may hold at most
//!   [`adora_core::limits::MAX_ARRAY_ELEMENTS`] scalars (`ErrorKind::Resource`).
//! * Inputs must match the parameters' types exactly (`ErrorKind::Input`); a result that
//!   does not match the declared type is an `ErrorKind::Type` error. Ill-typed programs
//!   (not produced by the checker) give `ErrorKind::Type` / `ErrorKind::Shape` errors,
//!   never panics.
//!
//! # Observer events
//!
//! For one evaluation the observer sees: `Bind` for each input (parameter order), the
//! events of the body, `Unbind` for each input (reverse order). For each node, in
//! post-order:
//!
//! * `Var`, `Lit`, `Iota`: `Node` with `args = []`.
//! * `Let(p, e1, e2)`: events of `e1`; `Bind` per variable of `p` (pattern order); events
//!   of `e2`; `Unbind` per variable (reverse order); `Node` with `args = [|e1|, |e2|]`.
//! * `If(c, a, b)`: events of `c`, of the taken branch, `Node` with
//!   `args = [|c|, |branch|]`.
//! * Other non-binding forms (`Array`, `Tuple`, `Proj`, `Unary`, `Binary`, `Prim`,
//!   `Index`): the operands' events in source order, then `Node` with their sizes in
//!   source order (for `Index`: the array, then each index).
//! * `Build(sh, is, e)`: `ParBegin { iterations: product of sh }`, per iteration `Iter`
//!   then the body's events, `End`, `Node` with `args = []`.
//! * `Map(f, xs…)`: events of each `xs`, `ParBegin { n }`, per iteration `Iter`, `Bind`
//!   per lambda parameter (the slices), the body's events, `Unbind` (reverse), then `End`
//!   and `Node` with `args = [|xs1|, …]`.
//! * `Gather(sh, x, is => ix)`: events of `x`, `ParBegin { product of sh }`, per
//!   iteration `Iter` and the events of the index expressions, `End`, `Node` with
//!   `args = [|x|]`.
//! * `Scatter(sh, x, is => ix)`: the same with `ParBegin { product of the first k dims of
//!   x }`; its `Node` reports `writes` and `collisions`.
//! * `Reduce(op, ne, xs)` / `Scan`: events of `ne`, `xs`, `ParBegin { n }` (`n` = outer
//!   size of `xs`), per element `Iter` (and for a lambda `Bind` of its two parameters, the
//!   body's events, `Unbind` of both, reverse order), `End`, `Node` with
//!   `args = [|ne|, |xs|]`.
//! * `ReduceByIndex`: events of `dest`, `ne`, `is`, `vs`, `ParBegin { m }`, per `j` an
//!   `Iter` (out-of-bounds `j` too; lambda events as for reduce, only for in-bounds `j`),
//!   `End`, `Node` with `args = [|dest|, |ne|, |is|, |vs|]`, `writes`, `collisions`.
//! * `ScatterInto`: events of `dest`, `is`, `vs`, `Node` with `args = [|dest|, |is|, |vs|]`,
//!   `writes`, `collisions` (no `ParBegin`).
//! * `Loop`: events of `init`, `SeqBegin { count }`, per iteration `Iter`, `Bind` per
//!   accumulator variable, the body's events, `Unbind` (reverse), then `End` and `Node`
//!   with `args = [|init|]`.
//!
//! Index variables (binders of `build`, `gather`, `scatter` and the loop counter) get no
//! `Bind`/`Unbind` events. `writes` and `collisions` count scalars: an in-bounds write of a
//! slice of `r` scalars counts `r` writes, and `r` collisions when its target slice was
//! already written by the same operation. (`EvalStats` counts events, not scalars: one
//! `oob_writes` / `colliding_writes` per offending index.)
use crate::scalar::Scalar;
use crate::value::Value;
use adora_core::ast::{Expr, Function};
use adora_core::diag::Result;

mod bulk;
mod layout;
mod machine;

pub use machine::check_inputs;
mod ops;
mod soac;

/// The default step limit: 10^7 steps, which the exact evaluator runs in one to two
/// seconds on a development machine, so that a runaway loop or a huge nested `build`
/// reports the limit within seconds (docs/language.md, "Resource limits"; `--max-steps N`
/// raises it).
pub const DEFAULT_MAX_STEPS: u64 = 10_000_000;

/// The default memory budget: 2^30 bytes (1 GiB) of array storage per run, counted by
/// [`crate::kernels::limits::array_bytes`] (docs/language.md, "Resource limits";
/// `--max-memory N` changes it).
pub const DEFAULT_MAX_MEMORY: u64 = 1 << 30;

/// Options of one evaluation.
#[derive(Clone, Debug)]
pub struct EvalOptions {
    /// Turn total-division events (`x / 0`) and colliding `scatter_into` writes into
    /// `ErrorKind::Runtime` errors.
    pub strict: bool,
    /// Most evaluation steps (node evaluations, counting each iteration, plus one per
    /// scalar of every array a node produces) before a `ErrorKind::Resource` error.
    pub max_steps: u64,
    /// Most bytes of array storage a run may allocate (the memory budget: every array a
    /// node produces counts, checked before a bulk allocation, never given back) before a
    /// `ErrorKind::Resource` error.
    pub max_memory: u64,
    /// Largest numerator or denominator, in bits, an exact rational may reach before a
    /// `ErrorKind::Resource` error.
    pub max_rational_bits: u64,
    /// The derivative conventions at ties and kinks (docs/conventions.md); values are the
    /// same under every profile.
    pub conventions: crate::conventions::Conventions,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            strict: false,
            max_steps: DEFAULT_MAX_STEPS,
            max_memory: DEFAULT_MAX_MEMORY,
            max_rational_bits: 1 << 16,
            conventions: crate::conventions::Conventions::Futhark,
        }
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
    /// same operation (0 elsewhere), `writes` the number of in-bounds writes. Writes and
    /// collisions are counted in scalars: writing a slice of `r` scalars counts `r`. The
    /// module documentation lists the exact `args` of every form.
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
pub fn eval<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    opts: &EvalOptions,
) -> Result<(Value<S>, EvalStats)> {
    machine::run(f, inputs, opts, None)
}

/// Evaluates `f` on `inputs`, reporting events to `obs`.
pub fn eval_observed<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    opts: &EvalOptions,
    obs: &mut dyn Observer,
) -> Result<(Value<S>, EvalStats)> {
    machine::run(f, inputs, opts, Some(obs))
}
