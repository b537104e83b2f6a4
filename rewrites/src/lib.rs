//! Adora's rewrite systems and AD engines.
//!
//! - [`engine`]: the engine registry (what every AD engine answers) and the reference.
//! - [`ir`]: the egg language of the core IR, its analyses, translation in and out.
//! - [`bot`]: the bulk-operation transform of seed 000 §5 as an egg rule system.
//! - [`dual`]: dual-arrays reverse AD with symbolic Delta evaluation (engines `dual`,
//!   `dual-scalar`; seed 000 §2, §4, §6, §7).
//! - [`linear`]: Linear A, linearize, unzip, transpose (engine `linear`; seed 002).
//! - [`kit`]: the lowering kit — fresh names, one substitution, shared DAG → `let`s.
//! - [`prims`]: the one table of primitives and their partial derivatives.
//! - [`pullback`]: engine `pullback`, reverse-mode AD by reduction in the pullback calculus
//!   (seed 003).
//! - [`soac`]: engine `soac`, AD of SOACs, loops and `if` by redundant execution (seed 004).
//! - [`stats`]: the largest e-graph built, for `adora check`'s summary.
//! - [`tssa`]: engine `tssa`, differentiation of a tensor language in Tensor-SSA form (seed 001).

#![warn(missing_docs)]

pub mod bot;
pub mod conventions;
pub mod dual;
pub mod engine;
pub mod ir;
pub mod kit;
pub mod linear;
pub mod prims;
pub mod pullback;
pub mod soac;
pub mod stats;
pub mod tssa;
