//! The integration tests of `adora-semantics`, built as one test binary so that a change to a
//! crate links one executable instead of one per file (docs/architecture.md, "Tests").
//! A new test file `tests/it/NAME.rs` is added here as `mod NAME;`.

mod ball;
mod common;
mod dual;
mod eval_arrays;
mod eval_basic;
mod eval_soac;
mod f64_agreement;
mod io;
mod limits;
mod limits_memory;
mod nonfinite_inputs;
mod observer;
mod pow;
mod programs;
mod reference;
mod regress_f64_ieee;
mod scalar;
mod step_default;
mod tl_eval;
