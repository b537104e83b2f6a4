//! A Tensor-SSA right-hand side as a tensor-language term (the forms of
//! *Differentiating a Tensor Language* §5.4, Fig. 10, written out), and a statement
//! list as a `let` block: the derivative transforms' bridge to the TL evaluator and the
//! cost model `C` (the per-rule properties evaluate both sides of a rule this way).

use super::pred::var_index;
use adora_core::tl::{Access, ConstVal, Dims, Rhs, Stmt, Term};

/// `x[i1]…[ik]` for the access `x[U]`.
pub fn access(a: &Access) -> Term {
    a.idx.iter().fold(Term::Var(a.var.clone()), |t, i| {
        Term::Access(Box::new(t), var_index(i))
    })
}

/// `x[I]` for the binders `I`.
pub fn at_dims(x: &str, dims: &Dims) -> Term {
    dims.iter().fold(Term::Var(x.to_string()), |t, (i, _)| {
        Term::Access(Box::new(t), var_index(i))
    })
}

/// `gen I. body`.
pub fn gen(dims: &Dims, body: Term) -> Term {
    dims.iter()
        .rev()
        .fold(body, |t, (i, n)| Term::Gen(i.clone(), *n, Box::new(t)))
}

/// `sum J. body`.
pub fn sum(dims: &Dims, body: Term) -> Term {
    dims.iter()
        .rev()
        .fold(body, |t, (i, n)| Term::Sum(i.clone(), *n, Box::new(t)))
}

/// The TL term of a right-hand side.
pub fn rhs_term(rhs: &Rhs) -> Term {
    match rhs {
        Rhs::Input { input, path } => path
            .iter()
            .fold(Term::Var(input.clone()), |t, k| Term::Proj(*k, Box::new(t))),
        Rhs::Const { dims, pred, value } => {
            let c = match value {
                ConstVal::Num(r) => Term::Const(r.clone()),
                ConstVal::Index(a) => Term::IndexConst(a.clone()),
            };
            gen(dims, Term::Bracket(pred.clone(), Box::new(c)))
        }
        Rhs::Add { dims, p, y, q, z } => gen(
            dims,
            Term::Add(
                Box::new(Term::Bracket(p.clone(), Box::new(at_dims(y, dims)))),
                Box::new(Term::Bracket(q.clone(), Box::new(at_dims(z, dims)))),
            ),
        ),
        Rhs::Map { dims, pred, f, y } => gen(
            dims,
            Term::Bracket(
                pred.clone(),
                Box::new(Term::Call(*f, Box::new(at_dims(y, dims)))),
            ),
        ),
        Rhs::Contract {
            dims,
            sums,
            pred,
            y,
            z,
        } => {
            let body = match z {
                Some(z) => Term::Mul(Box::new(access(y)), Box::new(access(z))),
                None => access(y),
            };
            gen(dims, sum(sums, Term::Bracket(pred.clone(), Box::new(body))))
        }
    }
}

/// `let s1 in … let sn in body`.
pub fn let_block(stmts: &[Stmt], body: Term) -> Term {
    stmts.iter().rev().fold(body, |t, s| {
        Term::Let(s.var.clone(), Box::new(rhs_term(&s.rhs)), Box::new(t))
    })
}
