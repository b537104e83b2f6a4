//! Small constructors of surface AST nodes (all with [`Span::DUMMY`]).

use adora_core::ast::{BinOp, Expr, ExprKind, Lambda, Lit, Name, Op, Pat, Prim, UnOp};
use adora_core::Span;
use num_bigint::BigInt;
use num_rational::BigRational;

/// An expression node of `kind` without a source position.
pub fn node(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

/// A variable reference.
pub fn var(name: &str) -> Expr {
    node(ExprKind::Var(name.to_string()))
}

/// An integer literal (non-negative in generated programs: negation is a [`UnOp::Neg`]).
pub fn int(n: i64) -> Expr {
    node(ExprKind::Lit(Lit::Int(BigInt::from(n))))
}

/// An exact real literal `num / den`.
pub fn real(num: i64, den: i64) -> Expr {
    node(ExprKind::Lit(Lit::Real(BigRational::new(
        BigInt::from(num),
        BigInt::from(den),
    ))))
}

/// A boolean literal.
pub fn boolean(b: bool) -> Expr {
    node(ExprKind::Lit(Lit::Bool(b)))
}

/// `a op b`.
pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    node(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}

/// `-e` or `!e`.
pub fn un(op: UnOp, e: Expr) -> Expr {
    node(ExprKind::Unary(op, Box::new(e)))
}

/// A built-in applied to `args`.
pub fn prim(p: Prim, args: Vec<Expr>) -> Expr {
    node(ExprKind::Prim(p, args))
}

/// `let pat = e1 in e2`.
pub fn let_(pat: Pat, e1: Expr, e2: Expr) -> Expr {
    node(ExprKind::Let(pat, Box::new(e1), Box::new(e2)))
}

/// `e[ix...]`.
pub fn index(e: Expr, ix: Vec<Expr>) -> Expr {
    node(ExprKind::Index(Box::new(e), ix))
}

/// `(a, b, ...)`.
pub fn tuple(es: Vec<Expr>) -> Expr {
    node(ExprKind::Tuple(es))
}

/// `e.k`.
pub fn proj(e: Expr, k: usize) -> Expr {
    node(ExprKind::Proj(Box::new(e), k))
}

/// `(ps) => body`.
pub fn lambda(params: Vec<Name>, body: Expr) -> Lambda {
    Lambda {
        params,
        body: Box::new(body),
    }
}

/// The lambda operator `(a, b) => body`.
pub fn op_lambda(a: Name, b: Name, body: Expr) -> Op {
    Op::Lambda(lambda(vec![a, b], body))
}

/// `if c then a else b`.
pub fn if_(c: Expr, a: Expr, b: Expr) -> Expr {
    node(ExprKind::If(Box::new(c), Box::new(a), Box::new(b)))
}
