//! Builders of the core code the reverse rules emit (elaborated form: real literals where
//! a real is meant, broadcasts explicit; docs/architecture.md §7a "Lowering kit"), and
//! the two ways a rule uses a lambda more than once: a copy with fresh binders
//! ([`copy_lambda`]) and an application by `let` ([`apply`]).

use super::RevEnv;
use adora_core::ast::{BinOp, Expr, ExprKind, Lambda, Lit, Name, Op, Pat, Prim, UnOp};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::types::{Base, Shape, Type};
use adora_core::visit::{rebuild, Rebuild, ScopedMap};
use num_bigint::BigInt;
use num_rational::BigRational;

fn mk(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

/// The variable `name`.
pub fn var(name: &str) -> Expr {
    mk(ExprKind::Var(name.to_string()))
}

/// The real literal `v`.
pub fn real(v: i64) -> Expr {
    mk(ExprKind::Lit(Lit::Real(BigRational::from_integer(
        BigInt::from(v),
    ))))
}

/// The integer literal `v`.
pub fn int(v: i64) -> Expr {
    mk(ExprKind::Lit(Lit::Int(BigInt::from(v))))
}

/// The integer literal of a static size.
pub fn size(v: usize) -> Expr {
    int(v as i64)
}

/// `a op b`.
pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    mk(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}

/// `a + b`.
pub fn add(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Add, a, b)
}

/// `a - b`.
pub fn sub(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Sub, a, b)
}

/// `a * b`.
pub fn mul(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Mul, a, b)
}

/// `-a`.
pub fn neg(a: Expr) -> Expr {
    mk(ExprKind::Unary(UnOp::Neg, Box::new(a)))
}

/// A built-in function applied to `args`.
pub fn prim(p: Prim, args: Vec<Expr>) -> Expr {
    mk(ExprKind::Prim(p, args))
}

/// `select(c, a, b)` (strict; elementwise when `c` has `a`'s shape).
pub fn select(c: Expr, a: Expr, b: Expr) -> Expr {
    prim(Prim::Select, vec![c, a, b])
}

/// `if c then a else b` (lazy).
pub fn ite(c: Expr, a: Expr, b: Expr) -> Expr {
    mk(ExprKind::If(Box::new(c), Box::new(a), Box::new(b)))
}

/// `x[ix…]`.
pub fn index(x: Expr, ix: Vec<Expr>) -> Expr {
    mk(ExprKind::Index(Box::new(x), ix))
}

/// `x[i]`.
pub fn at(x: Expr, i: Expr) -> Expr {
    index(x, vec![i])
}

/// `build sh ((is…) => body)`.
pub fn build(sh: Shape, binders: Vec<Name>, body: Expr) -> Expr {
    mk(ExprKind::Build(sh, binders, Box::new(body)))
}

/// `map((ps…) => body, xs…)`.
pub fn map(params: Vec<Name>, body: Expr, xs: Vec<Expr>) -> Expr {
    mk(ExprKind::Map(lambda(params, body), xs))
}

/// The lambda `(ps…) => body`.
pub fn lambda(params: Vec<Name>, body: Expr) -> Lambda {
    Lambda {
        params,
        body: Box::new(body),
    }
}

/// `reduce(op, ne, xs)`.
pub fn reduce(op: Op, ne: Expr, xs: Expr) -> Expr {
    mk(ExprKind::Reduce(op, Box::new(ne), Box::new(xs)))
}

/// `scan(op, ne, xs)`.
pub fn scan(op: Op, ne: Expr, xs: Expr) -> Expr {
    mk(ExprKind::Scan(op, Box::new(ne), Box::new(xs)))
}

/// `reduce_by_index(dest, op, ne, is, vs)`.
pub fn reduce_by_index(dest: Expr, op: Op, ne: Expr, is: Expr, vs: Expr) -> Expr {
    mk(ExprKind::ReduceByIndex {
        dest: Box::new(dest),
        op,
        ne: Box::new(ne),
        is: Box::new(is),
        vs: Box::new(vs),
    })
}

/// `scatter_into(dest, is, vs)`.
pub fn scatter_into(dest: Expr, is: Expr, vs: Expr) -> Expr {
    mk(ExprKind::ScatterInto {
        dest: Box::new(dest),
        is: Box::new(is),
        vs: Box::new(vs),
    })
}

/// `loop (acc = init) for var < count do body`.
pub fn lp(acc: Pat, init: Expr, var: Name, count: usize, body: Expr) -> Expr {
    mk(ExprKind::Loop {
        acc,
        init: Box::new(init),
        var,
        count,
        body: Box::new(body),
    })
}

/// `(es…)` (two or more components).
pub fn tuple(es: Vec<Expr>) -> Expr {
    mk(ExprKind::Tuple(es))
}

/// `e.k`.
pub fn proj(e: Expr, k: usize) -> Expr {
    mk(ExprKind::Proj(Box::new(e), k))
}

/// `[es…]` (one or more elements).
pub fn array(es: Vec<Expr>) -> Expr {
    mk(ExprKind::Array(es))
}

/// `let p = v in b`.
pub fn let_(p: Pat, v: Expr, b: Expr) -> Expr {
    mk(ExprKind::Let(p, Box::new(v), Box::new(b)))
}

/// `reshape(sh, x)`.
pub fn reshape(sh: Shape, x: Expr) -> Expr {
    prim(Prim::Reshape(sh), vec![x])
}

/// `replicate(n, x)`.
pub fn replicate(n: usize, x: Expr) -> Expr {
    prim(Prim::Replicate(n), vec![x])
}

/// The scalar `x` broadcast to `sh` (nested `replicate`s, outermost last).
pub fn fill(sh: &[usize], x: Expr) -> Expr {
    sh.iter().rev().fold(x, |acc, &d| replicate(d, acc))
}

/// The real zero of shape `sh`.
pub fn zeros(sh: &[usize]) -> Expr {
    fill(sh, real(0))
}

/// The real one of shape `sh`.
pub fn ones(sh: &[usize]) -> Expr {
    fill(sh, real(1))
}

/// `0 <= t && t < b` as nested lazy `if`s choosing `yes` or `no`.
pub fn if_in_bounds(t: Expr, b: usize, yes: Expr, no: Expr) -> Expr {
    ite(
        bin(BinOp::Le, int(0), t.clone()),
        ite(bin(BinOp::Lt, t, size(b)), yes, no.clone()),
        no,
    )
}

/// The shape of a real array type; `None` for other types (no adjoint).
pub fn real_shape(ty: &Type) -> Option<&Shape> {
    match ty.as_array() {
        Some((Base::R, sh)) => Some(sh),
        _ => None,
    }
}

/// The error of a rule asked about a statement it does not cover.
pub fn unsupported(what: impl Into<String>) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, Span::DUMMY, what.into())
}

/// The internal error of a statement that breaks the rules' contract ([`super::Stmt`]).
pub fn malformed(what: impl Into<String>) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Internal,
        Span::DUMMY,
        format!("soac reverse rule: {}", what.into()),
    )
}

/// The outer size and the slice shape of an array type `R[n, s…]`.
pub fn outer(ty: &Type) -> Result<(usize, Shape)> {
    match ty.as_array() {
        Some((_, sh)) if !sh.is_empty() => Ok((sh[0], sh[1..].to_vec())),
        _ => Err(malformed(format!("expected an array, found {ty}"))),
    }
}

/// The contribution of an operand: `None` for literals (they have no adjoint).
pub fn for_operand(operand: &Expr, e: Expr) -> Option<Expr> {
    matches!(operand.kind, ExprKind::Var(_)).then_some(e)
}

struct Fresh<'a> {
    env: &'a mut dyn RevEnv,
    scope: ScopedMap<Name>,
}

impl Rebuild for Fresh<'_> {
    fn binder(&mut self, name: &Name) -> Name {
        self.env.fresh(adora_core::visit::base_name(name))
    }
    fn child(&mut self, e: &Expr, bound: &[(Name, Name)]) -> Expr {
        for (o, n) in bound {
            self.scope.push(o, n.clone());
        }
        let out = self.go(e);
        for (o, _) in bound.iter().rev() {
            self.scope.pop(o);
        }
        out
    }
}

impl Fresh<'_> {
    fn go(&mut self, e: &Expr) -> Expr {
        match &e.kind {
            ExprKind::Var(v) => match self.scope.get(v) {
                Some(n) => Expr::new(ExprKind::Var(n.clone()), e.span),
                None => e.clone(),
            },
            _ => rebuild(e, self),
        }
    }
}

/// A copy of `lam` whose every binder (parameters included) is a fresh name of the
/// engine's supply, so that one lambda can be used at several places of a program whose
/// binders are unique (docs/architecture.md §7a, property `kit/unique-binders`).
pub fn copy_lambda(env: &mut dyn RevEnv, lam: &Lambda) -> Lambda {
    let mut f = Fresh {
        env,
        scope: ScopedMap::new(),
    };
    let bound: Vec<(Name, Name)> = lam
        .params
        .iter()
        .map(|p| (p.clone(), f.binder(p)))
        .collect();
    let body = f.child(&lam.body, &bound);
    lambda(bound.into_iter().map(|(_, n)| n).collect(), body)
}

/// `lam(args…)` as `let (p1, …) = (a1, …) in body` with a fresh copy of `lam`.
pub fn apply(env: &mut dyn RevEnv, lam: &Lambda, args: Vec<Expr>) -> Expr {
    let l = copy_lambda(env, lam);
    match (l.params.as_slice(), args.as_slice()) {
        ([p], [a]) => let_(Pat::Var(p.clone()), a.clone(), *l.body),
        _ => let_(Pat::Tuple(l.params), tuple(args), *l.body),
    }
}
