//! Helpers shared by the checker tests: parsing and checking source text, hand-built
//! ASTs, and a tiny exact interpreter for scalar programs (to test that inlining keeps
//! the meaning).

use adora_core::ast::{
    BinOp, Binding, Def, Expr, ExprKind, Function, Lit, Param, Pat, Prim, Program, UnOp,
};
use adora_core::check::{check_function, check_program, elaborate};
use adora_core::types::Type;
use adora_core::{Diagnostic, ErrorKind, Span};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::HashMap;

/// Parses `src` (panics on a syntax error: the tests' sources are valid syntax).
pub fn parse(src: &str) -> Program {
    adora_core::parse(src).unwrap_or_else(|d| panic!("syntax error {d} in\n{src}"))
}

/// Programs whose elaborated `main` covers the array forms, loops and lambdas.
pub const ELABORATED_SOURCES: &[&str] = &[
    "def main(x: R[10], w: R[3]) -> R = let y = build 8 (i => sum(build 3 (k => x[i + k] * w[k]))) in sum(y * y)",
    "def main(x: R[3]) -> R = sum(x * build 3 (i => x[2 - i]))",
    "def main(x: R[4,3], d: R[5,3], is: Z[4]) -> R[5,3] = reduce_by_index(d, (a, b) => max(a, b) * 1, 0, is, x)",
    "def main(x: R[4]) -> (R, R[4]) = loop ((s, v) = (0, x)) for i < 3 do (s + sum(v), scan(+, 0, v))",
    "def main(x: R[5,2]) -> R[7,2] = scatter([7, 2], x, i => [i % 7]) + gather([7, 2], x, (i, j) => [i / 2, j])",
    "def main(x: R[2,3]) -> R[3,2] = map(r => r * 2, transpose([1, 0], reshape([2, 3], x)))",
];

/// Checks and elaborates `main` of `src`; also checks the result with `check_function`.
pub fn elab(src: &str) -> Function {
    elab_entry(src, "main")
}

/// Checks and elaborates `entry` of `src`; also checks the result with `check_function`.
pub fn elab_entry(src: &str, entry: &str) -> Function {
    let p = parse(src);
    check_program(&p)
        .unwrap_or_else(|d| panic!("unexpected {d} at {:?} in\n{src}", d.position(src)));
    let f = elaborate(&p, entry).unwrap_or_else(|d| panic!("unexpected {d} in\n{src}"));
    check_function(&f).unwrap_or_else(|d| panic!("elaborated function rejected: {d}"));
    f
}

/// The checker's error for `src`, which must be rejected by both `check_program` and
/// `elaborate` (with the same error).
pub fn fail(src: &str) -> Diagnostic {
    let p = parse(src);
    let d = check_program(&p).expect_err(&format!("expected an error for\n{src}"));
    let d2 = elaborate(&p, "main").expect_err("elaborate must fail too");
    assert_eq!(d, d2, "check_program and elaborate disagree");
    d
}

/// Asserts that `src` is rejected with `kind` at the first occurrence of `at` (the last
/// one when `at` starts with `~`), and that the message contains `msg`.
pub fn fails_at(src: &str, kind: ErrorKind, at: &str, msg: &str) {
    let d = fail(src);
    assert_eq!(d.kind, kind, "wrong kind for {d} in\n{src}");
    let pos = match at.strip_prefix('~') {
        Some(last) => src.rfind(last),
        None => src.find(at),
    };
    let pos = pos.unwrap_or_else(|| panic!("`{at}` not in source"));
    assert_eq!(
        d.span.start, pos,
        "wrong position for {d}: {:?} in\n{src}",
        d.span
    );
    assert!(
        d.message.contains(msg),
        "message `{}` lacks `{msg}`",
        d.message
    );
}

/// The type of the elaborated `main` body.
pub fn ret_type(src: &str) -> Type {
    elab(src).ret
}

/// An expression with a dummy span.
pub fn ex(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

/// A variable.
pub fn var(n: &str) -> Expr {
    ex(ExprKind::Var(n.to_string()))
}

/// An integer literal.
pub fn int(i: i64) -> Expr {
    ex(ExprKind::Lit(Lit::Int(BigInt::from(i))))
}

/// A real literal.
pub fn real(i: i64) -> Expr {
    ex(ExprKind::Lit(Lit::Real(BigRational::from_integer(
        BigInt::from(i),
    ))))
}

/// `a op b`.
pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    ex(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}

/// `let n = v in b`.
pub fn let_(n: &str, v: Expr, b: Expr) -> Expr {
    ex(ExprKind::Let(
        Pat::Var(n.to_string()),
        Box::new(v),
        Box::new(b),
    ))
}

/// A built-in application.
pub fn prim(p: Prim, args: Vec<Expr>) -> Expr {
    ex(ExprKind::Prim(p, args))
}

/// A parameter.
pub fn param(n: &str, ty: Type) -> Param {
    Param {
        name: n.to_string(),
        ty,
        span: Span::DUMMY,
    }
}

/// A def with dummy spans.
pub fn def(name: &str, params: Vec<Param>, ret: Type, body: Expr) -> Def {
    Def {
        name: name.to_string(),
        params,
        ret,
        body,
        span: Span::DUMMY,
        name_span: Span::DUMMY,
    }
}

/// An elaborated function.
pub fn func(params: Vec<Param>, ret: Type, body: Expr) -> Function {
    Function {
        name: "main".to_string(),
        params,
        ret,
        body,
    }
}

/// A typing environment.
pub fn env(bs: &[(&str, Type)]) -> Vec<Binding> {
    bs.iter()
        .map(|(n, t)| Binding {
            name: n.to_string(),
            ty: t.clone(),
        })
        .collect()
}

/// `R[dims]`.
pub fn r(dims: &[usize]) -> Type {
    Type::Array(adora_core::Base::R, dims.to_vec())
}

/// `Z[dims]`.
pub fn z(dims: &[usize]) -> Type {
    Type::Array(adora_core::Base::Z, dims.to_vec())
}

/// Evaluates a scalar program of literals, variables, `let`, `if`, arithmetic and
/// comparisons exactly (rationals; booleans as 0/1).
pub fn eval(e: &Expr, env: &mut HashMap<String, Vec<BigRational>>) -> BigRational {
    let one = || BigRational::from_integer(1.into());
    let zero = || BigRational::from_integer(0.into());
    match &e.kind {
        ExprKind::Lit(Lit::Int(i)) => BigRational::from_integer(i.clone()),
        ExprKind::Lit(Lit::Real(q)) => q.clone(),
        ExprKind::Lit(Lit::Bool(b)) => {
            if *b {
                one()
            } else {
                zero()
            }
        }
        ExprKind::Var(n) => env[n].last().expect("bound").clone(),
        ExprKind::Let(Pat::Var(n), v, b) => {
            let x = eval(v, env);
            env.entry(n.clone()).or_default().push(x);
            let out = eval(b, env);
            env.get_mut(n).expect("bound").pop();
            out
        }
        ExprKind::If(c, a, b) => {
            if eval(c, env) != zero() {
                eval(a, env)
            } else {
                eval(b, env)
            }
        }
        ExprKind::Unary(UnOp::Neg, a) => -eval(a, env),
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (eval(a, env), eval(b, env));
            let t = |c: bool| if c { one() } else { zero() };
            match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Lt => t(x < y),
                BinOp::Eq => t(x == y),
                other => panic!("eval: unsupported operator {other:?}"),
            }
        }
        other => panic!("eval: unsupported form {other:?}"),
    }
}

/// Runs an elaborated scalar function on integer inputs.
pub fn run(f: &Function, inputs: &[i64]) -> BigRational {
    let mut env = HashMap::new();
    for (p, v) in f.params.iter().zip(inputs) {
        env.insert(
            p.name.clone(),
            vec![BigRational::from_integer(BigInt::from(*v))],
        );
    }
    eval(&f.body, &mut env)
}
