//! `adora-proptests`: generators of random well-typed Adora programs and inputs
//! ([`gen`]: proptest strategies and quickcheck `Arbitrary`), and the property
//! catalogue ([`catalogue`]) with its runner ([`runner`]), shared by `cargo test` and
//! `adora check`.
//!
//! Quick use: `catalogue::catalogue()` lists the properties; `runner::run_property` runs
//! one with a [`runner::CheckConfig`] and returns a [`runner::PropertyReport`] whose
//! counterexample is a shrunk program with its `--input` flags and a replay command;
//! `gen::generate(&GenSpec::new(Fragment::Bulk), seed)` gives one random case.

#![warn(missing_docs)]

pub mod catalogue;
pub mod gen;
pub mod props;
pub mod runner;
pub mod values;
