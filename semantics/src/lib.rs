//! `adora-semantics`: values and the one evaluator of the core language, generic over a
//! scalar field and instantiated at exact rationals (the reference semantics), at `f64`,
//! and at dual numbers over either (the reference derivative, docs/architecture.md).
//!
//! Public API (the contract other crates and the command line rely on):
//!
//! * [`value`]: `Tensor<T>`, `Value<S>`;
//! * [`scalar`]: the `Scalar` trait, implemented for `Rat` (= `BigRational`) and `f64`;
//! * [`dual`]: `Dual<F>`, value plus sparse tangent map, itself a `Scalar`;
//! * [`eval`]: `eval`, `EvalOptions`, `EvalStats`;
//! * [`conventions`]: the derivative conventions at ties and kinks (`futhark`, `jax`,
//!   `pytorch`) the reference derivative applies;
//! * [`reference`](mod@reference): `gradient`, `jvp`, `vjp` by forward mode over dual numbers;
//! * [`io`]: values from literal expressions and JSON, values to text and JSON;
//! * [`tl`]: the evaluator of seed 001's tensor language (terms, Tensor-SSA, a JVP over
//!   dual numbers);
//! * [`kernels`]: the element-generic array and scalar kernels of the semantic
//!   conventions (gather/scatter, total division, `pow`, ties, limits), shared by the
//!   evaluator and the engines' runtimes.
//!
//! Internally the evaluator shares array storage between values (`Rc`), so variable uses
//! and prefix indexing never copy whole arrays; `build n (i => x[i])` is linear in `n`.

#![warn(missing_docs)]

pub mod conventions;
pub mod dual;
pub mod eval;
pub mod io;
pub mod kernels;
pub mod reference;
pub mod scalar;
pub mod tl;
pub mod value;

mod rt;

/// Exact rationals, the scalars of the reference semantics.
pub type Rat = num_rational::BigRational;
