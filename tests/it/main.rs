//! The integration tests of the top-level crate (the `adora` command line and the theorem
//! catalogue), built as one test binary so that a change to a crate links one executable
//! instead of one per file (docs/architecture.md, "Tests").
//! A new test file `tests/it/NAME.rs` is added here as `mod NAME;`.

mod ball_cli;
mod check_size;
mod checkpoint_cli;
mod cli;
mod cli_exit_codes;
mod cli_json;
mod cli_literal_typing;
mod cli_run;
mod conventions;
mod export_oracle;
mod float_inputs;
mod fuzz_smoke;
mod gradbench_cli;
mod limits_elements;
mod pullback_cli;
mod regress_fuzz_findings;
mod regress_reliability;
mod run_interp;
mod sized_helpers;
mod sizes;
mod soac_cli;
mod support;
mod theorems;
mod tssa_cli;
