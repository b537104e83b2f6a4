//! The let-block embedding of Tensor-SSA into the tensor language (paper §5.4, Fig. 10:
//! "statement binding" is a `let`): every statement becomes `let x = rhs in …` with the
//! right-hand side written out as the term its short form stands for.

use super::ast::Term;
use super::ssa::{Access, ConstVal, Rhs, SsaOut, SsaProgram};

/// The term of a Tensor-SSA program: `let x1 = rhs1 in … let xk = rhsk in out`.
pub fn ssa_to_term(p: &SsaProgram) -> Term {
    p.stmts.iter().rev().fold(out_term(&p.output), |body, s| {
        Term::let_(s.var.clone(), rhs_to_term(&s.rhs), body)
    })
}

/// The output as a term: a variable or nested pairs of them.
pub fn out_term(o: &SsaOut) -> Term {
    match o {
        SsaOut::Var(x) => Term::var(x.clone()),
        SsaOut::Pair(a, b) => Term::pair(out_term(a), out_term(b)),
    }
}

fn access(a: &Access) -> Term {
    Term::at_vars(Term::var(a.var.clone()), &a.idx)
}

fn at_dims(y: &str, dims: &[(String, u64)]) -> Term {
    let idx: Vec<&str> = dims.iter().map(|(i, _)| i.as_str()).collect();
    Term::at_vars(Term::var(y), &idx)
}

/// The term a right-hand side stands for:
///
/// | form | term |
/// |---|---|
/// | `X.k…` | the projections of `X` |
/// | `gen I. [p] c` | `gen I. [p] c` |
/// | `gen I. [p] y[I] + [q] z[I]` | the same |
/// | `gen I. [p] f(y[I])` | `gen I. [p] f(y[I])` |
/// | `gen I. sum J. [p] y[U] * z[V]` | `gen I. sum J. [p] (y[U] * z[V])` |
/// | `gen I. sum J. [p] y[U]` | `gen I. sum J. [p] y[U]` |
pub fn rhs_to_term(r: &Rhs) -> Term {
    match r {
        Rhs::Input { input, path } => path
            .iter()
            .fold(Term::var(input.clone()), |t, k| Term::proj(*k, t)),
        Rhs::Const { dims, pred, value } => {
            let c = match value {
                ConstVal::Num(c) => Term::num(c.clone()),
                ConstVal::Index(a) => Term::index_const(a.clone()),
            };
            Term::gens(dims, Term::bracket(pred.clone(), c))
        }
        Rhs::Add { dims, p, y, q, z } => Term::gens(
            dims,
            Term::add(
                Term::bracket(p.clone(), at_dims(y, dims)),
                Term::bracket(q.clone(), at_dims(z, dims)),
            ),
        ),
        Rhs::Map { dims, pred, f, y } => Term::gens(
            dims,
            Term::bracket(pred.clone(), Term::call(*f, at_dims(y, dims))),
        ),
        Rhs::Contract {
            dims,
            sums,
            pred,
            y,
            z,
        } => {
            let body = match z {
                Some(z) => Term::mul(access(y), access(z)),
                None => access(y),
            };
            Term::gens(dims, Term::sums(sums, Term::bracket(pred.clone(), body)))
        }
    }
}
