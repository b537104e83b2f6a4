//! The array and scalar kernels of the core language's semantics, generic over the element
//! type: the one implementation of each convention of docs/language.md ("Semantic
//! conventions", "Resource limits"), used by the evaluator ([`crate::eval`]) and by the
//! engines' runtimes (the dual-arrays runtime of `adora-rewrites`). Engines use these
//! kernels; the kernels and the reference derivative use no engine code.
//!
//! | kernel | convention (docs/language.md) |
//! |---|---|
//! | [`tensor::flat_prefix`] | a prefix index is in bounds when every component is in `0..d`; otherwise the read is out of bounds |
//! | [`tensor::read_prefix`], [`tensor::gather_rows`] | out-of-bounds `index` / `gather` reads give zeros of the read shape |
//! | [`tensor::scatter_slots`], [`tensor::scatter_rows`] | out-of-bounds `scatter` writes are dropped; colliding writes add, in index order |
//! | [`buckets::scatter_sums`], [`buckets::Buckets`] | the same `scatter` (and `reduce_by_index` with `+`) as one left fold per slot, rows in index order (linear for dual numbers) |
//! | [`tensor::one_hot`] | the transpose of indexing: out of bounds gives all zeros |
//! | [`tensor::select`], [`tensor::transpose`] ([`tensor::transpose_data`]), [`tensor::append`], [`tensor::stack`], [`tensor::replicate`], [`tensor::reshape`], [`tensor::slice_outer`] | layout operations (row-major) |
//! | [`arith::div_real`] | total division: `x / 0 = 0` exact, IEEE in f64, and one division-by-zero event |
//! | [`arith::int_op`], [`arith::floor_div`], [`arith::floor_mod`] | `Z` division is floor division, `x / 0 = 0`, `x % 0 = x` (an event); overflow is an error |
//! | [`arith::pow_real`], [`arith::pow_int`], [`arith::pow_total`] | `pow(x, k)`: the size check of the result ([`arith::pow_too_large`]), then `x^|k|` by squaring ([`arith::pow_steps`] steps), `k < 0` the total reciprocal; `pow(x, 0) = 1` |
//! | [`arith::pick`], [`arith::pick_int`], [`arith::keeps_left`] | ties: `max(a, b)` is `a` when `a >= b`, `min(a, b)` is `a` when `a <= b` (primal values) |
//! | [`arith::holds`] | comparison operators on primal values (an unordered `NaN` compares unequal) |
//! | [`arith::sign`] | `abs'(x)`: `-1` below zero, `0` at zero (`abs'(0) = 0`), `1` above |
//! | [`limits::check_elements`], [`limits::too_large`], [`limits::step_limit_message`] | resource limits: `2^24` elements per array, the size of exact rationals, evaluation steps |
//! | [`limits::Checks`] | the limits and events for a runtime other than the evaluator (`--strict` makes division by zero an error) |

pub mod arith;
pub mod buckets;
pub mod limits;
pub mod tensor;
