//! Builders of elaborated ASTs and values for the semantics tests.
#![allow(dead_code)]

use adora_core::ast::*;
use adora_core::diag::Span;
use adora_core::types::{Base, Type};
use adora_semantics::eval::{eval, EvalOptions, EvalStats};
use adora_semantics::scalar::Scalar;
use adora_semantics::value::{Tensor, Value};
use adora_semantics::Rat;
use num_bigint::BigInt;

/// An expression at a span that encodes a number (so errors can be located in tests).
pub fn at(kind: ExprKind, pos: usize) -> Expr {
    Expr::new(kind, Span::new(pos, pos + 1))
}
pub fn ex(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}
pub fn b(e: Expr) -> Box<Expr> {
    Box::new(e)
}
pub fn var(x: &str) -> Expr {
    ex(ExprKind::Var(x.to_string()))
}
/// Real literal p/q.
pub fn rl(p: i64, q: i64) -> Expr {
    ex(ExprKind::Lit(Lit::Real(rat(p, q))))
}
/// Real literal n.
pub fn rn(n: i64) -> Expr {
    rl(n, 1)
}
/// Integer literal.
pub fn zn(n: i64) -> Expr {
    ex(ExprKind::Lit(Lit::Int(BigInt::from(n))))
}
pub fn bl(v: bool) -> Expr {
    ex(ExprKind::Lit(Lit::Bool(v)))
}
pub fn bin(op: BinOp, a: Expr, c: Expr) -> Expr {
    ex(ExprKind::Binary(op, b(a), b(c)))
}
pub fn add(a: Expr, c: Expr) -> Expr {
    bin(BinOp::Add, a, c)
}
pub fn sub(a: Expr, c: Expr) -> Expr {
    bin(BinOp::Sub, a, c)
}
pub fn mul(a: Expr, c: Expr) -> Expr {
    bin(BinOp::Mul, a, c)
}
pub fn div(a: Expr, c: Expr) -> Expr {
    bin(BinOp::Div, a, c)
}
pub fn neg(a: Expr) -> Expr {
    ex(ExprKind::Unary(UnOp::Neg, b(a)))
}
pub fn prim(p: Prim, args: Vec<Expr>) -> Expr {
    ex(ExprKind::Prim(p, args))
}
pub fn index(a: Expr, is: Vec<Expr>) -> Expr {
    ex(ExprKind::Index(b(a), is))
}
pub fn build(sh: &[usize], names: &[&str], body: Expr) -> Expr {
    ex(ExprKind::Build(
        sh.to_vec(),
        names.iter().map(|s| s.to_string()).collect(),
        b(body),
    ))
}
pub fn let_(x: &str, e1: Expr, e2: Expr) -> Expr {
    ex(ExprKind::Let(Pat::Var(x.to_string()), b(e1), b(e2)))
}
pub fn let_tuple(xs: &[&str], e1: Expr, e2: Expr) -> Expr {
    ex(ExprKind::Let(
        Pat::Tuple(xs.iter().map(|s| s.to_string()).collect()),
        b(e1),
        b(e2),
    ))
}
pub fn tuple(es: Vec<Expr>) -> Expr {
    ex(ExprKind::Tuple(es))
}
pub fn arr(es: Vec<Expr>) -> Expr {
    ex(ExprKind::Array(es))
}
pub fn lam(ps: &[&str], body: Expr) -> Lambda {
    Lambda {
        params: ps.iter().map(|s| s.to_string()).collect(),
        body: b(body),
    }
}
pub fn sum(e: Expr) -> Expr {
    prim(Prim::Sum, vec![e])
}
pub fn rep(n: usize, e: Expr) -> Expr {
    prim(Prim::Replicate(n), vec![e])
}

pub fn rat(p: i64, q: i64) -> Rat {
    Rat::new(BigInt::from(p), BigInt::from(q))
}
pub fn ri(n: i64) -> Rat {
    rat(n, 1)
}
pub fn tr() -> Type {
    Type::real()
}
pub fn tz() -> Type {
    Type::int()
}
pub fn tb() -> Type {
    Type::bool()
}
pub fn ta(base: Base, shape: &[usize]) -> Type {
    Type::Array(base, shape.to_vec())
}
pub fn tra(shape: &[usize]) -> Type {
    ta(Base::R, shape)
}

/// A function with the given parameters and body; the return type is given.
pub fn func(params: &[(&str, Type)], ret: Type, body: Expr) -> Function {
    Function {
        name: "main".to_string(),
        params: params
            .iter()
            .map(|(n, t)| Param {
                name: n.to_string(),
                ty: t.clone(),
                span: Span::DUMMY,
            })
            .collect(),
        ret,
        body,
    }
}

/// Real vector value from integers.
pub fn vr(xs: &[i64]) -> Value<Rat> {
    Value::real_vector(xs.iter().map(|&x| ri(x)).collect())
}
/// Real vector value from rationals.
pub fn vq(xs: &[Rat]) -> Value<Rat> {
    Value::real_vector(xs.to_vec())
}
/// Real array of a shape.
pub fn va(shape: &[usize], xs: &[i64]) -> Value<Rat> {
    Value::reals(shape.to_vec(), xs.iter().map(|&x| ri(x)).collect()).unwrap()
}
/// Integer vector value.
pub fn vz(xs: &[i64]) -> Value<Rat> {
    Value::Int(Tensor::vector(xs.to_vec()))
}
pub fn sr(x: Rat) -> Value<Rat> {
    Value::real(x)
}

/// Evaluates exactly with default options.
pub fn run(f: &Function, inputs: &[Value<Rat>]) -> Value<Rat> {
    eval(f, inputs, &EvalOptions::default())
        .expect("evaluation")
        .0
}
/// Evaluates exactly with default options, returning the stats too.
pub fn run_stats(f: &Function, inputs: &[Value<Rat>]) -> (Value<Rat>, EvalStats) {
    eval(f, inputs, &EvalOptions::default()).expect("evaluation")
}
/// Evaluates at any scalar type.
pub fn run_at<S: Scalar>(f: &Function, inputs: &[Value<S>]) -> Value<S> {
    eval(f, inputs, &EvalOptions::default())
        .expect("evaluation")
        .0
}
/// Evaluates a closed expression of the given type.
pub fn run_expr(e: Expr, ret: Type) -> Value<Rat> {
    run(&func(&[], ret, e), &[])
}

/// Loads `main` of a source program (panics with the rendered diagnostic).
pub fn prog(src: &str) -> Function {
    adora_core::load(src, "main").unwrap_or_else(|d| panic!("{}", d.render("test.adl", src)))
}

/// A value of type `ty` from literal text such as `[1, 2/3]`.
pub fn lit<S: Scalar>(text: &str, ty: &Type) -> Value<S> {
    let e = adora_core::parser::parse_expr(text)
        .unwrap_or_else(|d| panic!("{}", d.render("input", text)));
    adora_semantics::io::value_from_expr(&e, ty)
        .unwrap_or_else(|d| panic!("{}", d.render("input", text)))
}

/// Inputs of `f` from literal texts, in parameter order.
pub fn lits<S: Scalar>(f: &Function, texts: &[&str]) -> Vec<Value<S>> {
    assert_eq!(f.params.len(), texts.len(), "number of inputs");
    f.params
        .iter()
        .zip(texts)
        .map(|(p, t)| lit(t, &p.ty))
        .collect()
}

/// Exact value of `main` of `src` on literal inputs, as a literal string.
pub fn ev(src: &str, inputs: &[&str]) -> String {
    let f = prog(src);
    let v = run(&f, &lits(&f, inputs));
    adora_semantics::io::to_literal(&v)
}

/// Exact value and stats of `main` of `src`.
pub fn ev_stats(src: &str, inputs: &[&str]) -> (String, EvalStats) {
    let f = prog(src);
    let (v, st) = run_stats(&f, &lits(&f, inputs));
    (adora_semantics::io::to_literal(&v), st)
}
