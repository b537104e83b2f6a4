//! Engine `tssa`: AD of the tensor language of seed 001 (*Differentiating a Tensor
//! Language*, Bernstein, Mara, Li, Maclaurin, Ragan-Kelley, 2020; docs/engines/tssa.md).
//!
//! | module | job | paper |
//! |---|---|---|
//! | [`egg`] | let-lifting, pair elimination, gen push-out as egg rule systems (rules 5.1–5.24a) | §5.1–§5.3 |

pub mod egg;
