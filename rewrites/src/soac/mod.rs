//! Engine `soac`: forward and reverse AD of the second-order array combinators, loops
//! and `if` by redundant execution (seed 004, *AD for an Array Language with Nested
//! Parallelism*; docs/engines/soac.md).
//!
//! | module | job | paper |
//! |---|---|---|
//! | [`engine`] | the `Engine` impl `Soac`, registered as `soac` | — |
//! | [`forward`] | JVP programs: tangent statements interleaved with the primal | §2.0.1, §3 |
//! | [`lower`] | bulk forms (`build`, `gather`, `scatter`, `sum`, …) as SOACs | §2 |
//! | [`reverse`] | reverse mode (VJP, grad) by redundant execution: forward sweep, return sweep, statements, `let`, tuples, indexing, `if`, `map`, `loop` | §4, §5.4, §6 |
//! | [`rules`] | reverse rules of `reduce`, `scan`, `reduce_by_index`, `scatter_into` | §5.1–§5.3 |

pub mod engine;
pub mod forward;
pub mod lower;
pub mod reverse;
pub mod rules;

pub use engine::Soac;
