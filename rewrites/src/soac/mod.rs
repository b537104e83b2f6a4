//! Engine `soac`: forward and reverse AD of the second-order array combinators, loops
//! and `if` by redundant execution (seed 004, *AD for an Array Language with Nested
//! Parallelism*; docs/engines/soac.md).
//!
//! | module | job | paper |
//! |---|---|---|
//! | [`reverse`] | reverse mode (VJP, grad) by redundant execution: forward sweep, return sweep, statements, `let`, tuples, indexing, `if`, `map`, `loop` | §4, §5.4, §6 |
//! | [`rules`] | reverse rules of `reduce`, `scan`, `reduce_by_index`, `scatter_into` | §5.1–§5.3 |

pub mod reverse;
pub mod rules;
