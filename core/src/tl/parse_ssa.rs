//! A parser for Tensor-SSA programs in the concrete syntax [`super::print`] writes
//! (docs/engines/tssa-language.md, "Concrete syntax"): `input x: T` lines, `let x: T =
//! rhs` statements and a final `return out`. A right-hand side is read as a term and
//! recognised as one of the six forms of Fig. 10 (`input X.0` marks an input
//! projection); anything else is an `ErrorKind::Syntax` error at the statement.

use super::ast::{Index, Pred, Term};
use super::parse::Parser;
use super::ssa::{Access, ConstVal, Rhs, SsaOut, SsaProgram, Stmt};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};

/// Parses a whole Tensor-SSA program.
pub fn parse_ssa(src: &str) -> Result<SsaProgram> {
    let mut p = Parser::new(src)?;
    let mut inputs = Vec::new();
    let mut stmts = Vec::new();
    while p.at_kw("input") {
        p.expect_kw("input")?;
        let x = p.ident()?;
        p.expect_sym(":")?;
        inputs.push((x, p.ty()?));
    }
    while p.at_kw("let") {
        p.expect_kw("let")?;
        let start = p.here();
        let var = p.ident()?;
        p.expect_sym(":")?;
        let ty = p.ty()?;
        p.expect_sym("=")?;
        let rhs = if p.at_kw("input") {
            p.expect_kw("input")?;
            let input = p.ident()?;
            let mut path = Vec::new();
            while p.at_sym(".") {
                p.expect_sym(".")?;
                path.push(p.projection()?);
            }
            Rhs::Input { input, path }
        } else {
            let t = p.term()?;
            recognise(&t).ok_or_else(|| {
                Diagnostic::new(
                    ErrorKind::Syntax,
                    Span::new(start.start, p.here().start),
                    format!("`{t}` is not a Tensor-SSA right-hand side (Fig. 10)"),
                )
            })?
        };
        stmts.push(Stmt { var, ty, rhs });
    }
    p.expect_kw("return")?;
    let output = out(&mut p)?;
    p.end()?;
    Ok(SsaProgram {
        inputs,
        stmts,
        output,
    })
}

fn out(p: &mut Parser) -> Result<SsaOut> {
    if p.at_sym("(") {
        p.expect_sym("(")?;
        let a = out(p)?;
        p.expect_sym(",")?;
        let b = out(p)?;
        p.expect_sym(")")?;
        return Ok(SsaOut::Pair(Box::new(a), Box::new(b)));
    }
    Ok(SsaOut::Var(p.ident()?))
}

/// `y[i, j]` with index variables only.
fn access(t: &Term) -> Option<Access> {
    match t {
        Term::Var(x) => Some(Access {
            var: x.clone(),
            idx: Vec::new(),
        }),
        Term::Access(e, Index::Aff(a)) => {
            let mut acc = access(e)?;
            acc.idx.push(a.as_var()?.to_string());
            Some(acc)
        }
        _ => None,
    }
}

/// `[p] e` or `e` (then `p = true`).
fn bracketed(t: &Term) -> (Pred, &Term) {
    match t {
        Term::Bracket(p, e) => (p.clone(), e),
        _ => (Pred::True, t),
    }
}

/// The right-hand side a term writes out, if it is one of the six forms.
pub fn recognise(t: &Term) -> Option<Rhs> {
    let mut dims = Vec::new();
    let mut body = t;
    while let Term::Gen(i, n, e) = body {
        dims.push((i.clone(), *n));
        body = e;
    }
    let mut sums = Vec::new();
    while let Term::Sum(i, n, e) = body {
        sums.push((i.clone(), *n));
        body = e;
    }
    let at_dims = |a: &Access| a.idx.iter().eq(dims.iter().map(|(i, _)| i));
    let in_scope = |a: &Access| {
        a.idx
            .iter()
            .all(|i| dims.iter().chain(&sums).any(|(j, _)| j == i))
    };
    if sums.is_empty() {
        if let Term::Add(l, r) = body {
            let ((p, y), (q, z)) = (bracketed(l), bracketed(r));
            let (y, z) = (access(y)?, access(z)?);
            return (at_dims(&y) && at_dims(&z)).then_some(Rhs::Add {
                dims,
                p,
                y: y.var,
                q,
                z: z.var,
            });
        }
        let (pred, e) = bracketed(body);
        match e {
            Term::Const(c) => {
                return Some(Rhs::Const {
                    dims,
                    pred,
                    value: ConstVal::Num(c.clone()),
                })
            }
            Term::IndexConst(a) => {
                return Some(Rhs::Const {
                    dims,
                    pred,
                    value: ConstVal::Index(a.clone()),
                })
            }
            Term::Call(f, y) => {
                let y = access(y)?;
                return at_dims(&y).then_some(Rhs::Map {
                    dims,
                    pred,
                    f: *f,
                    y: y.var,
                });
            }
            _ => {}
        }
    }
    // Contractions: `[p] (y * z)`, `([p] y) * z`, `y * z`, `[p] y`, `y`.
    let (pred, y, z) = match body {
        Term::Mul(l, r) => {
            let (p, y) = bracketed(l);
            (p, access(y)?, Some(access(r)?))
        }
        _ => {
            let (p, e) = bracketed(body);
            match e {
                Term::Mul(y, z) => (p, access(y)?, Some(access(z)?)),
                e => (p, access(e)?, None),
            }
        }
    };
    (in_scope(&y) && z.as_ref().is_none_or(in_scope)).then_some(Rhs::Contract {
        dims,
        sums,
        pred,
        y,
        z,
    })
}
