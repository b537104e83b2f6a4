//! The integration tests of `adora-core`, built as one test binary so that a change to a
//! crate links one executable instead of one per file (docs/architecture.md, "Tests").
//! A new test file `tests/it/NAME.rs` is added here as `mod NAME;`.

mod check;
mod linear_check;
mod linear_syntax;
mod literal_inference;
mod nonfinite;
mod parse;
mod pretty_real;
mod print_nonfinite;
mod sized_helpers;
mod sizes;
mod tl_terms;
