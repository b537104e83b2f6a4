//! The integration tests of `adora-rewrites`, built as one test binary so that a change to a
//! crate links one executable instead of one per file (docs/architecture.md, "Tests").
//! A new test file `tests/it/NAME.rs` is added here as `mod NAME;`.

mod bot_build_let;
mod bot_coverage;
mod bot_index_select_proj;
mod bot_prepare;
mod bot_programs;
mod bot_rules;
mod bot_scaling;
mod bot_sharing;
mod bot_support;
mod dual_errors;
mod dual_fused_scatter_cost;
mod dual_laws;
mod dual_paths;
mod dual_specs;
mod dual_support;
mod dual_symbolic;
mod ir_analysis;
mod ir_deadline;
mod ir_extract;
mod ir_roundtrip;
mod ir_runner;
mod ir_support;
mod ir_translate;
mod kit_anf;
mod kit_lets;
mod kit_subst;
mod limits_elements;
mod limits_pow;
mod linear_engine;
mod linear_golden;
mod linear_jvp;
mod linear_support;
mod linear_transpose;
mod nonfinite_literals;
mod prims_table;
mod regress_constant_lets;
mod regress_extract;
mod regress_f64_ieee;
mod regress_singularities;
mod soac_forward;
mod soac_reverse;
mod soac_reverse_plan;
mod soac_rules;
mod tssa_egg;
