//! Dual-arrays reverse AD with symbolic Delta evaluation (seed 000 §2, §4, §6, §7):
//! engines `dual` and `dual-scalar`.
//!
//! Pipeline of `dual` (docs/engines/dual.md):
//!
//! 1. [`fragment::prepare`]: check, reject constructs outside the seed-000 fragment, run
//!    the bulk-operation transform ([`crate::bot`]) to its build-free normal form;
//! 2. the dual-arrays forward transformation ([`forward`], runtime: primal tensors and
//!    [`delta::Delta`] terms; [`symbolic::forward`], symbolic: the separated form of
//!    Eq. 6), with the non-differentiating transformation 𝒩 for index terms and maps;
//! 3. the reverse pass ([`reverse`], generic; [`runtime`] on concrete cotangents with
//!    `Share` ids in decreasing order; [`symbolic::target`] on terms, sharing duplicated
//!    cotangents);
//! 4. global sharing to `let`s ([`crate::kit::lets`]) and the wrapper
//!    ([`symbolic::wrapper`]) giving a core gradient program.
//!
//! `dual-scalar` ([`scalar`]) is §2's naive algorithm: the evaluator at a scalar type that
//! records one Delta per scalar.
//!
//! Public entry points: [`Dual`], [`DualScalar`] (the engines), [`gradient_program`],
//! [`delta_text`], [`runtime_vjp`], [`runtime_jvp`],
//! [`vjp_program`], [`eval_gradient_program`], [`scalar::delta_nodes`].

pub mod delta;
pub mod engine;
pub mod forward;
pub mod fragment;
pub mod print;
pub mod reverse;
pub mod runtime;
pub mod scalar;
pub mod symbolic;
pub mod table;
pub mod value;

pub use engine::{
    delta_text, eval_gradient_program, gradient_program, runtime_delta_nodes, runtime_jvp,
    runtime_jvp_normal, runtime_vjp, runtime_vjp_normal, runtime_vjp_without_bot, vjp_program,
    Dual, DualScalar, GradientProgram, RuntimeStats,
};
