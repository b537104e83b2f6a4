//! Engine `tssa`: differentiation of a tensor language through Tensor-SSA form (seed 001,
//! *Differentiating a Tensor Language*, Bernstein, Mara, Li, Maclaurin, Ragan-Kelley 2020;
//! docs/engines/tssa.md). The language itself is `adora_core::tl`.
//!
//! | module | job | paper |
//! |---|---|---|
//! | [`lower`] | core → TL (the construct table, extensions E1–E4) | — (Adora) |
//! | [`egg`] | let-lifting, pair elimination, gen push-out as egg rule systems (rules 5.1–5.24a) | §5.1–§5.3 |
//! | [`ssa`] | GP-NF → Tensor-SSA, rules 5.25–5.34, fix-ups F1–F4, the normal-form checker | §5.4, Figs. 10–12 |
//! | [`deriv`] | `D` (forward, rules 6.1–6.16) and `R` (adjoint, rules 6.17–6.49) on Tensor SSA | §6 |
//! | [`raise`] | Tensor-SSA → core | — (Adora) |
//! | [`pipeline`] | the stages in order (lower, let-lift, pair elimination, gen push-out, SSA, derivatives), each observable | — |
//! | [`adapt`] | host tuples ↔ right-nested pairs at the parameters and the result of raised programs | — (Adora) |
//! | [`engine`] | the `Engine` impl `Tssa`, registered as `tssa` | — |

pub mod adapt;
pub mod deriv;
pub mod egg;
pub mod engine;
pub mod lower;
pub mod pipeline;
pub mod raise;
pub mod ssa;

pub use engine::Tssa;
