//! The integration tests of `adora-costmodel`, built as one test binary so that a change to a
//! crate links one executable instead of one per file (docs/architecture.md, "Tests").
//! A new test file `tests/it/NAME.rs` is added here as `mod NAME;`.

mod api;
mod common;
mod corpus;
mod design_examples;
mod mem;
mod ops_rules;
mod regress_cost_scaling;
mod tl_cost;
mod work_span;
