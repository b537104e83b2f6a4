//! The shared e-graph IR: the egg language of the core IR ([`lang`]), its analyses,
//! translation of elaborated core functions into an e-graph and back (extraction with
//! lets re-introduced), and the runner configuration every rule system uses.
//!
//! - [`lang`]: the language `Ir` (contract).
//! - [`analysis`]: per-class data (type, free index variables, constant, bounds) and the
//!   variable tables; [`typing`], [`fold`] and [`interval`] implement its `make`;
//!   [`leaves`] reads static leaves (naturals, shapes, binders) of classes.
//! - [`translate`]: elaborated core function → e-graph ([`translate::Translation`]).
//! - [`runner`]: one egg runner per phase ([`runner::Phase`], [`runner::run_phase`]).
//! - [`extract`]: scope-aware, build-free-preferring extraction back to a core function.
//!
//! Typical use (the bot driver):
//!
//! ```ignore
//! let mut tr = translate(&f)?;
//! let report = run_phase(&mut tr, &rules, &Phase::new("bot").with_iter_limit(100))?;
//! let g = extract_function(&tr.egraph, tr.root, &f)?;
//! ```

pub mod analysis;
pub mod extract;
pub mod fold;
pub mod interval;
pub mod lang;
pub mod leaves;
pub mod runner;
pub mod translate;
pub mod typing;
