//! Reverse rules of the SOACs without bodies of their own (seed 004, *AD for an Array
//! Language with Nested Parallelism*, §5): `reduce` (§5.1), `reduce_by_index` (§5.1.2),
//! `scan` (§5.2) and `scatter_into` (§5.3).
//!
//! A rule sees one primal statement `y = C(operands…)` in A-normal form ([`Stmt`]: every
//! operand an atom, the result bound, the result's adjoint final) and returns the core
//! code of its return sweep ([`RuleOutput`]): bindings, then one adjoint *contribution*
//! per operand, which the engine adds into that operand's adjoint. Adjoints have the type
//! of their primal (integer and boolean components are carried as zeros and ignored).
//! The engine provides names and the reverse of an operator lambda through [`RevEnv`].
//! Each construct's module is a dispatcher trying its special cases first (`+`, `*`,
//! `min`/`max`), then the general rule.

use adora_core::ast::{Expr, Lambda, Name, Pat};
use adora_core::diag::Result;
use adora_core::types::Type;

/// What a rule needs from the engine that calls it.
pub trait RevEnv {
    /// A fresh name from the program's one name supply (`base_k`).
    fn fresh(&mut self, base: &str) -> Name;
    /// The reverse of the lambda `lam` (parameters of types `params`, body of type
    /// `body`): see [`LambdaVjp`].
    fn lambda_vjp(&mut self, lam: &Lambda, params: &[Type], body: &Type) -> Result<LambdaVjp>;
}

/// The reverse of a lambda `(p1, …, pn) => e`.
#[derive(Clone, Debug)]
pub struct LambdaVjp {
    /// `(p1, …, pn, e_bar) => (p1_bar, …, pn_bar, v1_bar, …, vk_bar)`: the adjoints of
    /// the parameters, then those of the lambda's free variables [`free`](Self::free), in
    /// that order; one component stands alone, several form a tuple. Its binders are
    /// fresh names of the engine's supply.
    pub lambda: Lambda,
    /// The free variables of the original lambda with real components, and their types.
    pub free: Vec<(Name, Type)>,
}

/// One primal statement `y = C(operands…)` as a rule sees it.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// The operands as atoms (variables or literals) in the construct's order:
    /// `reduce`/`scan`: `[ne, xs]`; `reduce_by_index`: `[dest, ne, is, vs]`;
    /// `scatter_into`: `[dest, is, vs]`.
    pub operands: Vec<Expr>,
    /// Their types.
    pub types: Vec<Type>,
    /// The primal result (a variable bound by the forward sweep).
    pub result: Expr,
    /// Its type.
    pub result_ty: Type,
    /// The result's adjoint, final when the rule runs (a variable of `result_ty`).
    pub adjoint: Expr,
}

/// The return-sweep code of one statement.
#[derive(Clone, Debug, Default)]
pub struct RuleOutput {
    /// Bindings, in order; each value may use the operands, the result, its adjoint and
    /// earlier bindings. Binders are fresh names of the engine's supply.
    pub lets: Vec<(Pat, Expr)>,
    /// One entry per operand: its adjoint contribution (an expression of the operand's
    /// type over the bindings), or `None` when it has none (integer operands, literals).
    pub operands: Vec<Option<Expr>>,
    /// Contributions to free variables of an operator lambda: name and expression.
    pub free: Vec<(Name, Expr)>,
}

pub mod code;
pub mod instances;
pub mod recurrence;
pub mod reduce;
pub mod reduce_by_index;
pub mod scan;
pub mod scatter_into;
pub mod standalone;
