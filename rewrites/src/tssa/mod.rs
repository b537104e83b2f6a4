//! Engine `tssa`: *Differentiating a Tensor Language* (Bernstein, Mara, Li, Maclaurin,
//! Ragan-Kelley, 2020; docs/engines/tssa.md). Core programs are lowered to the tensor
//! language (`adora_core::tl`), normalised by the passes of §5 into Tensor SSA,
//! differentiated there (§6) and raised back to core programs.
//!
//! | module | job | paper |
//! |---|---|---|
//! | [`deriv`] | `D` (forward, rules 6.1–6.16) and `R` (adjoint, rules 6.17–6.49) on Tensor SSA | §6 |

pub mod deriv;
