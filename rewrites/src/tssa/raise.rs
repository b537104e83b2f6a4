//! Raising: a Tensor-SSA program back to an elaborated core function (Adora's decision:
//! every engine output is a core program; docs/engines/tssa-lowering.md, "Raising").
//!
//! | statement | core |
//! |---|---|
//! | `x = X.k…` | `let x = X.k… in` |
//! | `x = gen I. [p] c` | `build s (I => select(p, c, 0))` (`#a` as `real(a)`) |
//! | `x = gen I. [p] y[I] + [q] z[I]` | `build s (I => select(p, y[I], 0) + select(q, z[I], 0))` |
//! | `x = gen I. [p] f(y[I])` | `build s (I => select(p, f(y[I]), 0))`, black boxes as host primitives |
//! | `x = gen I. sum J. [p] y[U] (* z[V])` | summation binders solved by affine equalities with coefficient ±1 are substituted (with the bounds guard); `build s (I => sum(build J' (J' => select(p', y[U'] * z[V'], 0))))`, without the inner `sum(build …)` when `J'` is empty |
//!
//! Rank-0 statements have no `build`. The output tuple becomes a core tuple (pairs as
//! 2-tuples), inputs keep their order and names.

pub mod expr;
pub mod solve;

use crate::tssa::lower::mk;
use adora_core::ast::{BinOp, Expr, ExprKind, Function, Param, Pat};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::tl::{Access, ConstVal, Dims, Pred, Rhs, SsaOut, SsaProgram, Stmt, Ty};
use adora_core::types::Type;
use adora_core::visit::NameSupply;
use expr::{bin, ex, index, real_int, select, var, IBind, Rx};

fn internal(msg: String) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Internal,
        Span::DUMMY,
        format!("tssa raising: {msg}"),
    )
}

/// The core type of a TL type (pairs as 2-tuples).
pub fn core_type(t: &Ty) -> Type {
    match t {
        Ty::Num => Type::real(),
        Ty::Int => Type::int(),
        Ty::Bool => Type::bool(),
        Ty::Pair(a, b) => Type::Tuple(vec![core_type(a), core_type(b)]),
        Ty::Arr(n, el) => match core_type(el) {
            Type::Array(b, mut s) => {
                s.insert(0, *n as usize);
                Type::Array(b, s)
            }
            tuple => tuple,
        },
    }
}

/// Raises `p` to the elaborated core function `name` (parameters: `p.inputs` in order),
/// checked by `adora_core::check::check_function`.
pub fn raise(p: &SsaProgram, name: &str) -> Result<Function> {
    let mut names = NameSupply::new();
    for (x, _) in &p.inputs {
        names.reserve(x);
    }
    for s in &p.stmts {
        names.reserve(&s.var);
    }
    let mut rx = Rx {
        names,
        ivars: Default::default(),
    };
    let mut lets = Vec::new();
    for s in &p.stmts {
        lets.push((s.var.clone(), raise_stmt(&mut rx, s)?));
    }
    let (tail, ret) = output(p, &p.output)?;
    let body = lets.into_iter().rev().fold(tail, |b, (x, e)| {
        ex(ExprKind::Let(Pat::Var(x), Box::new(e), Box::new(b)))
    });
    let params = p
        .inputs
        .iter()
        .map(|(x, t)| Param {
            name: x.clone(),
            ty: core_type(t),
            span: Span::DUMMY,
        })
        .collect();
    let f = Function {
        name: name.to_string(),
        params,
        ret,
        body,
    };
    adora_core::check::check_function(&f).map_err(|d| {
        // A size limit of the elaborated form (docs/language.md, "Limits") is a resource
        // limit of the derived program, not a wrong one: said as such, without the program.
        if d.kind == adora_core::diag::ErrorKind::Resource {
            return adora_core::diag::Diagnostic::new(
                adora_core::diag::ErrorKind::Resource,
                d.span,
                format!(
                    "engine `tssa`'s derived program exceeds a limit: {}",
                    d.message
                ),
            );
        }
        internal(format!(
            "the raised function is ill-typed: {}\n{}",
            d.message,
            adora_core::pretty::function(&f)
        ))
    })?;
    Ok(f)
}

fn output(p: &SsaProgram, o: &SsaOut) -> Result<(Expr, Type)> {
    match o {
        SsaOut::Var(v) => {
            let ty = p
                .stmts
                .iter()
                .find(|s| &s.var == v)
                .map(|s| core_type(&s.ty))
                // An output may be an input itself (the identity's VJP returns its cotangent).
                .or_else(|| {
                    p.inputs
                        .iter()
                        .find(|(x, _)| x == v)
                        .map(|(_, t)| core_type(t))
                })
                .ok_or_else(|| {
                    internal(format!(
                        "the output `{v}` is neither a statement nor an input"
                    ))
                })?;
            Ok((var(v), ty))
        }
        SsaOut::Pair(a, b) => {
            let (ea, ta) = output(p, a)?;
            let (eb, tb) = output(p, b)?;
            Ok((ex(ExprKind::Tuple(vec![ea, eb])), Type::Tuple(vec![ta, tb])))
        }
    }
}

/// `build dims (I => body(I))` with fresh binders (no `build` at rank 0).
fn build(rx: &mut Rx, dims: &Dims, body: impl FnOnce(&mut Rx) -> Result<Expr>) -> Result<Expr> {
    let binders: Vec<String> = dims.iter().map(|(v, _)| rx.names.fresh(v)).collect();
    for ((v, _), b) in dims.iter().zip(&binders) {
        rx.ivars.insert(v.clone(), IBind::Name(b.clone()));
    }
    let e = body(rx)?;
    for (v, _) in dims {
        rx.ivars.remove(v);
    }
    if dims.is_empty() {
        return Ok(e);
    }
    let shape = dims.iter().map(|(_, n)| *n as usize).collect();
    Ok(ex(ExprKind::Build(shape, binders, Box::new(e))))
}

fn whole_at(rx: &mut Rx, y: &str, dims: &Dims) -> Result<Expr> {
    let idx = dims
        .iter()
        .map(|(v, _)| rx.ivar(v))
        .collect::<Result<Vec<_>>>()?;
    Ok(index(var(y), idx))
}

fn masked(rx: &mut Rx, p: &Pred, e: Expr) -> Result<Expr> {
    Ok(select(rx.pred(p)?, e, real_int(0)))
}

fn raise_stmt(rx: &mut Rx, s: &Stmt) -> Result<Expr> {
    match &s.rhs {
        Rhs::Input { input, path } => Ok(path.iter().fold(var(input), |e, &k| {
            ex(ExprKind::Proj(Box::new(e), k as usize))
        })),
        Rhs::Const { dims, pred, value } => build(rx, dims, |rx| {
            let c = match value {
                ConstVal::Num(r) => expr::real(r.clone()),
                ConstVal::Index(a) => expr::prim(adora_core::ast::Prim::Real, vec![rx.index(a)?]),
            };
            masked(rx, pred, c)
        }),
        Rhs::Add { dims, p, y, q, z } => build(rx, dims, |rx| {
            let a = whole_at(rx, y, dims)?;
            let a = masked(rx, p, a)?;
            let b = whole_at(rx, z, dims)?;
            let b = masked(rx, q, b)?;
            Ok(bin(BinOp::Add, a, b))
        }),
        Rhs::Map { dims, pred, f, y } => build(rx, dims, |rx| {
            let a = whole_at(rx, y, dims)?;
            let t = rx.names.fresh("a");
            let fa = rx.black_box(*f, var(&t));
            let body = masked(rx, pred, fa)?;
            Ok(ex(ExprKind::Let(Pat::Var(t), Box::new(a), Box::new(body))))
        }),
        Rhs::Contract {
            dims,
            sums,
            pred,
            y,
            z,
        } => build(rx, dims, |rx| contraction(rx, sums, pred, y, z.as_ref())),
    }
}

fn access(rx: &mut Rx, a: &Access) -> Result<Expr> {
    let idx = a
        .idx
        .iter()
        .map(|v| rx.ivar(v))
        .collect::<Result<Vec<_>>>()?;
    Ok(index(var(&a.var), idx))
}

/// `sum J. [p] y[U] (* z[V])` at the current `I`, with the summation binders solved by
/// equalities eliminated ([`solve`]).
fn contraction(
    rx: &mut Rx,
    sums: &Dims,
    pred: &Pred,
    y: &Access,
    z: Option<&Access>,
) -> Result<Expr> {
    let s = solve::eliminate(sums, pred);
    let mut guard = s.rest.clone();
    for (j, a) in &s.solved {
        let n = sums
            .iter()
            .find(|(v, _)| v == j)
            .map(|(_, n)| *n)
            .unwrap_or(0);
        guard = mk::and(
            guard,
            mk::in_range(&adora_core::tl::Index::Aff(a.clone()), n),
        );
    }
    let r = build_sum(rx, &s.kept, |rx| {
        // The solutions are raised here, where every variable they mention is bound, and
        // last first: a solution mentions no variable solved before it, only later ones
        // (`solve`). Raising them where they are used instead would let an `exists`
        // binder of the guard capture a variable of a solution (`∃i3. i1 == 1` with
        // `i1 := i3`).
        for (j, a) in s.solved.iter().rev() {
            let e = rx.aff(a)?;
            rx.ivars.insert(j.clone(), IBind::Solved(e));
        }
        let ey = access(rx, y)?;
        let e = match z {
            Some(z) => bin(BinOp::Mul, ey, access(rx, z)?),
            None => ey,
        };
        masked(rx, &guard, e)
    });
    for (j, _) in &s.solved {
        rx.ivars.remove(j);
    }
    r
}

fn build_sum(rx: &mut Rx, kept: &Dims, body: impl FnOnce(&mut Rx) -> Result<Expr>) -> Result<Expr> {
    if kept.is_empty() {
        return body(rx);
    }
    let b = build(rx, kept, body)?;
    Ok(expr::prim(adora_core::ast::Prim::Sum, vec![b]))
}
