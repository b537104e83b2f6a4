//! The integration tests of `adora-proptests`, built as one test binary so that a change to a
//! crate links one executable instead of one per file (docs/architecture.md, "Tests").
//! A new test file `tests/it/NAME.rs` is added here as `mod NAME;`.

mod backend;
mod ball;
mod bot_claims;
mod dual_delta;
mod dual_symbolic;
mod generators;
mod kit;
mod linear_claims;
mod properties;
mod runner;
mod scale;
mod sem_arrays;
mod sized_cases;
mod sized_helper_cases;
mod soac_loops;
mod soac_maps;
mod soac_reverse;
mod soac_rules;
mod tl_generators;
mod tssa_deriv;
mod tssa_lower;
mod tssa_passes;
mod tssa_tl;
