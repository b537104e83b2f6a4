//! Helpers shared by the parser tests: tree builders (spans are dummies; `Expr`'s equality
//! ignores them), error helpers, round-trip checks and a small deterministic RNG.

use adora_core::ast::{BinOp, Def, Expr, ExprKind, Lambda, Lit, Op, Pat, Prim, Program, UnOp};
use adora_core::parser::{parse_expr, parse_program};
use adora_core::{pretty, ErrorKind, Span};
use num_bigint::BigInt;
use num_rational::BigRational;

pub fn mk(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}
pub fn bx(kind: ExprKind) -> Box<Expr> {
    Box::new(mk(kind))
}
pub fn var(n: &str) -> Expr {
    mk(ExprKind::Var(n.to_string()))
}
pub fn int(n: i64) -> Expr {
    mk(ExprKind::Lit(Lit::Int(BigInt::from(n))))
}
pub fn real(p: i64, q: i64) -> Expr {
    mk(ExprKind::Lit(Lit::Real(BigRational::new(
        p.into(),
        q.into(),
    ))))
}
pub fn boolean(b: bool) -> Expr {
    mk(ExprKind::Lit(Lit::Bool(b)))
}
pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    mk(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}
pub fn neg(a: Expr) -> Expr {
    mk(ExprKind::Unary(UnOp::Neg, Box::new(a)))
}
pub fn not(a: Expr) -> Expr {
    mk(ExprKind::Unary(UnOp::Not, Box::new(a)))
}
pub fn index(a: Expr, is: Vec<Expr>) -> Expr {
    mk(ExprKind::Index(Box::new(a), is))
}
pub fn proj(a: Expr, k: usize) -> Expr {
    mk(ExprKind::Proj(Box::new(a), k))
}
pub fn prim(p: Prim, args: Vec<Expr>) -> Expr {
    mk(ExprKind::Prim(p, args))
}
pub fn call(f: &str, args: Vec<Expr>) -> Expr {
    mk(ExprKind::Call(f.to_string(), args))
}
pub fn names(ns: &[&str]) -> Vec<String> {
    ns.iter().map(|s| s.to_string()).collect()
}
pub fn lam(ps: &[&str], body: Expr) -> Lambda {
    Lambda {
        params: names(ps),
        body: Box::new(body),
    }
}
pub fn build(sh: &[usize], ps: &[&str], body: Expr) -> Expr {
    mk(ExprKind::Build(sh.to_vec(), names(ps), Box::new(body)))
}
pub fn let_(p: Pat, rhs: Expr, body: Expr) -> Expr {
    mk(ExprKind::Let(p, Box::new(rhs), Box::new(body)))
}
pub fn pvar(n: &str) -> Pat {
    Pat::Var(n.to_string())
}
pub fn if_(c: Expr, a: Expr, b: Expr) -> Expr {
    mk(ExprKind::If(Box::new(c), Box::new(a), Box::new(b)))
}
pub fn lambda_op(ps: &[&str], body: Expr) -> Op {
    Op::Lambda(lam(ps, body))
}

/// Parses an expression, panicking with the diagnostic on failure.
pub fn e(src: &str) -> Expr {
    parse_expr(src).unwrap_or_else(|d| panic!("{src:?}: {}", d.render("test", src)))
}

/// Parses a program, panicking with the diagnostic on failure.
pub fn prog(src: &str) -> Program {
    parse_program(src).unwrap_or_else(|d| panic!("{src:?}: {}", d.render("test", src)))
}

/// The error of parsing `src` as a program: (line, column, message). Must be a syntax error.
pub fn perr(src: &str) -> (usize, usize, String) {
    match parse_program(src) {
        Ok(p) => panic!("{src:?} parsed: {p:?}"),
        Err(d) => {
            assert_eq!(d.kind, ErrorKind::Syntax, "{src:?}: {d}");
            let (l, c) = d.position(src);
            (l, c, d.message)
        }
    }
}

/// The error of parsing `src` as an expression: (line, column, message).
pub fn eerr(src: &str) -> (usize, usize, String) {
    match parse_expr(src) {
        Ok(x) => panic!("{src:?} parsed: {x:?}"),
        Err(d) => {
            assert_eq!(d.kind, ErrorKind::Syntax, "{src:?}: {d}");
            let (l, c) = d.position(src);
            (l, c, d.message)
        }
    }
}

/// `Def` and `Param` compare spans, so programs are compared field by field here.
pub fn same_def(a: &Def, b: &Def) -> bool {
    a.name == b.name
        && a.ret == b.ret
        && a.body == b.body
        && a.params.len() == b.params.len()
        && a.params
            .iter()
            .zip(&b.params)
            .all(|(x, y)| x.name == y.name && x.ty == y.ty)
}

/// Whether two programs are equal up to spans.
pub fn same_program(a: &Program, b: &Program) -> bool {
    a.defs.len() == b.defs.len() && a.defs.iter().zip(&b.defs).all(|(x, y)| same_def(x, y))
}

/// Prints `p`, parses it back, and checks the tree and that printing is stable.
pub fn roundtrip_program(p: &Program) {
    let text = pretty::program(p);
    let q =
        parse_program(&text).unwrap_or_else(|d| panic!("{}\n{text}", d.render("printed", &text)));
    assert!(
        same_program(p, &q),
        "round trip changed the program:\n{text}\n{p:#?}\n{q:#?}"
    );
    assert_eq!(pretty::program(&q), text, "printing is not stable");
    assert!(!text.contains("--"), "printed text contains `--`:\n{text}");
}

/// Prints `x`, parses it back, and checks the tree.
pub fn roundtrip_expr(x: &Expr) {
    let text = pretty::expr(x);
    let y = parse_expr(&text)
        .unwrap_or_else(|d| panic!("{}\n{text}\n{x:#?}", d.render("printed", &text)));
    assert!(
        *x == y,
        "round trip changed the expression:\n{text}\n{x:#?}\n{y:#?}"
    );
    assert!(!text.contains("--"), "printed text contains `--`:\n{text}");
}

/// xorshift64*: a tiny deterministic generator for fuzz-style tests.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
