//! The three normalising passes of engine `tssa` as egg rule systems (seed 001,
//! *Differentiating a Tensor Language* §5.1–§5.3; docs/engines/tssa-passes.md):
//! let-lifting ([`letlift()`], rules 5.1–5.10), pair elimination ([`pairelim()`], rules
//! 5.11–5.20) and gen push-out ([`genpush()`], rules 5.21–5.24a).
//!
//! Each pass adds the term to an e-graph of the TL language ([`lang`], which keeps `let`
//! as a node; [`analysis`] tracks free variables and types up to the struct-of-arrays
//! isomorphism), runs one `Runner` with explicit iteration and node limits
//! ([`run::Limits`]; the wall-clock limit is a safety net only), requires saturation
//! (hitting a limit is a `Resource` error naming it), extracts by a total order that
//! realises the cost `C` ([`extract`]), renames binders canonically ([`names`]) and
//! checks the pass's normal form ([`nf`]). Let-lifting runs the same rules by a direct
//! strategy without an e-graph by default ([`letlift_direct`]; saturation stays an
//! option of [`letlift::LetLiftOptions`]).
//!
//! | module | job |
//! |---|---|
//! | [`lang`] | the egg language, `Term` → `RecExpr`, node → `Term` |
//! | [`analysis`] | free variables, SoA types, data paths |
//! | [`vars`] | free variables and capture-avoiding substitution on terms |
//! | [`types`] | types up to `[n](T × U) ≅ [n]T × [n]U` |
//! | [`appliers`] | custom appliers (substitution, fresh binders, guards, conjunction) and the η searcher |
//! | [`extract`] | extraction: normal-form violations, then `C̄`, size, structure |
//! | [`names`] | canonical binder names |
//! | [`nf`] | the LL-NF, PE-NF and GP-NF checkers |
//! | [`run`] | one runner per pass, limits, stop reasons |
//! | [`single`] | one rule for one step (the per-rule soundness properties) |
//! | [`letlift`], [`pairelim`], [`genpush`] | the rule tables and the passes |
//! | [`letlift_direct`] | let-lifting by a direct strategy (the default; no e-graph) |

pub mod analysis;
pub mod appliers;
pub mod extract;
pub mod genpush;
pub mod lang;
pub mod letlift;
pub mod letlift_direct;
pub mod names;
pub mod nf;
pub mod pairelim;
pub mod run;
pub mod single;
pub mod types;
pub mod vars;

pub use genpush::genpush;
pub use letlift::letlift;
pub use nf::{is_gp_nf, is_ll_nf, is_pe_nf};
pub use pairelim::pairelim;
