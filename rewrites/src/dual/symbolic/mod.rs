//! Compile-time differentiation (seed 000 §7): the symbolic forward pass producing the
//! separated form of Eq. 6 ([`forward`]), the symbolic reverse pass with `share` on
//! duplicated cotangents ([`target`], §7.3 approach (2)), the conversion of global
//! sharing to `let`s (the lowering kit's [`crate::kit::lets`], §7.4), and the wrapper
//! that assembles a core gradient program ([`wrapper`], §7.5). [`check`] verifies the separated form.
//!
//! Symbolic Deltas ([`Sym`], the paper's `SymDelta` of §7.2) embed, where a runtime
//! Delta embeds concrete data: variable references to primal let-bindings (the `Scale`
//! and `DivBy` factors and the `Select` conditions: exception (2) of §7.1), index terms
//! (atoms: variables or literals; exception (3)), and the index maps of gather/scatter as
//! their binders and index terms, copied from the primal program.

pub mod check;
pub mod forward;
pub mod fuse;
pub mod target;
pub mod wrapper;

use super::delta::{Delta, Rep};
use adora_core::ast::{Expr, ExprKind, Lit, Name, Prim};
use adora_core::diag::Span;
use adora_core::pretty;
use num_bigint::BigInt;
use num_rational::BigRational;
use std::rc::Rc;

/// The payloads of symbolic Deltas.
pub struct Sym;

/// The index map of a symbolic `Gather` / `Scatter`: `binders => ix`, the binders ranging
/// over `space`.
#[derive(Clone, Debug, PartialEq)]
pub struct SymMap {
    /// The binders.
    pub binders: Vec<Name>,
    /// The index terms (they may mention the binders and the primal program's variables).
    pub ix: Vec<Expr>,
    /// The extents of the binders.
    pub space: Vec<usize>,
}

impl Rep for Sym {
    type Factor = Expr;
    type Cond = Expr;
    type Ix = Vec<Expr>;
    type Map = Rc<SymMap>;
    fn factor_text(k: &Expr) -> String {
        pretty::expr(k)
    }
    fn cond_text(c: &Expr) -> String {
        pretty::expr(c)
    }
    fn ix_text(ix: &Vec<Expr>) -> String {
        let parts: Vec<String> = ix.iter().map(pretty::expr).collect();
        format!("[{}]", parts.join(", "))
    }
    fn map_text(m: &Rc<SymMap>) -> String {
        let bs = if m.binders.len() == 1 {
            m.binders[0].clone()
        } else {
            format!("({})", m.binders.join(", "))
        };
        format!("{bs} => {}", Sym::ix_text(&m.ix))
    }
}

/// A symbolic Delta.
pub type SDelta = Delta<Sym>;

/// An expression at [`Span::DUMMY`].
pub fn mk(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

/// A variable reference.
pub fn var(n: &str) -> Expr {
    mk(ExprKind::Var(n.to_string()))
}

/// A real literal.
pub fn real_lit(n: i64) -> Expr {
    mk(ExprKind::Lit(Lit::Real(BigRational::from_integer(
        BigInt::from(n),
    ))))
}

/// An integer literal.
pub fn int_lit(n: i64) -> Expr {
    mk(ExprKind::Lit(Lit::Int(BigInt::from(n))))
}

/// `e` replicated to `shape` (nested `replicate`s, outermost first; `e` itself for a
/// scalar shape).
pub fn replicate_to(shape: &[usize], e: Expr) -> Expr {
    shape.iter().rev().fold(e, |acc, &n| {
        mk(ExprKind::Prim(Prim::Replicate(n), vec![acc]))
    })
}

/// The real array of `shape` filled with the integer `n`.
pub fn filled(shape: &[usize], n: i64) -> Expr {
    replicate_to(shape, real_lit(n))
}

/// Whether `e` is an atom: a variable, a literal, or a projection of a variable.
pub fn is_atom(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Lit(_) => true,
        ExprKind::Proj(x, _) => is_atom(x),
        _ => false,
    }
}
