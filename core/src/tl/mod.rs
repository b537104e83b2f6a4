//! The tensor language (TL) of seed 001, *Differentiating a Tensor Language* (Bernstein,
//! Mara, Li, Maclaurin, Ragan-Kelley, 2020): its syntax ([`ast`], paper §3 Fig. 3) and the
//! Tensor-SSA form ([`ssa`], paper §5.4 Fig. 10). It lives next to the core language: the
//! `tssa` engine lowers core programs into it, normalises and differentiates them there,
//! and raises the result back (docs/engines/tssa-language.md).
//!
//! | paper row (Fig. 3) | item |
//! |---|---|
//! | variable, constant number, scalar addition, scalar multiplication | [`Term::Var`], [`Term::Const`], [`Term::Add`], [`Term::Mul`] |
//! | black-box scalar function | [`Term::Call`] with a [`BlackBox`] |
//! | pair construction, pair projection | [`Term::Pair`], [`Term::Proj`] |
//! | tensor generation, tensor summation, tensor access | [`Term::Gen`], [`Term::Sum`], [`Term::Access`] |
//! | Iverson bracket (indicator) | [`Term::Bracket`] |
//! | let-bindings | [`Term::Let`] |
//! | comparison predicates, relational (data) predicates, conjunction and disjunction, existential quantification | [`Pred`] |
//! | index variable name, integer constant, integer addition, integer scaling | [`Aff`] (affine index expressions) |
//! | number type, pair type, tensor type | [`Ty`] |
//!
//! Adora's extensions (docs/engines/tssa-language.md, "Extensions"; none changes the cost model):
//! E1 data predicates comparing real values read from let-bound variables
//! ([`Pred::Data`]), E2 index constants ([`Term::IndexConst`]), E3 opaque integer index
//! expressions and integer data ([`Index::Opaque`], [`IExpr`]), E4 predicate negation
//! ([`Pred::Not`]).

pub mod ast;
pub mod build;
pub mod embed;
pub mod free;
pub mod print;
pub mod ssa;
pub mod subst;
pub mod types;

pub use ast::{
    Aff, BlackBox, CmpOp, DataRef, IExpr, IVar, Index, PathStep, Pred, Rat, Term, Ty, Var,
};
pub use build::rat;
pub use embed::{out_term, rhs_to_term, ssa_to_term};
pub use free::{free_vars, free_vars_pred, FreeVars, NameSupply};
pub use ssa::{Access, ConstVal, Dims, Rhs, SsaOut, SsaProgram, Stmt};
pub use subst::{freshen, path_of, subst, subst_index, term_of_path};
pub use types::{type_of, type_of_iso};
