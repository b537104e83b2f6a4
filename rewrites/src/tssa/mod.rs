//! Engine `tssa`: differentiation of a tensor language through Tensor-SSA form (seed 001,
//! *Differentiating a Tensor Language*, Bernstein, Mara, Li, Maclaurin, Ragan-Kelley 2020;
//! docs/engines/tssa.md). The language itself is `adora_core::tl`.
//!
//! | module | job | paper |
//! |---|---|---|
//! | [`lower`] | core → TL (the construct table, extensions E1–E4) | — (Adora) |
//! | [`ssa`] | GP-NF → Tensor-SSA, rules 5.25–5.34, fix-ups F1–F4, the normal-form checker | §5.4, Figs. 10–12 |
//! | [`raise`] | Tensor-SSA → core | — (Adora) |

pub mod lower;
pub mod raise;
pub mod ssa;
