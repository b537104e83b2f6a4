//! Inner-product terms (*Differentiating a Tensor Language* §6.3, Fig. 14) and their
//! meaning by desugaring into the tensor language (rules 6.17–6.19):
//!
//! * 6.17 `⟨a, b⟩_num = a * b`;
//! * 6.18 `⟨a, b⟩_(T×U) = ⟨a.0, b.0⟩ + ⟨a.1, b.1⟩`;
//! * 6.19 `⟨a, b⟩_[n]T = sum i:n. ⟨a[i], b[i]⟩`;
//!
//! and the filtered inner product `⟨[r] a, b⟩ := ⟨gen K. [r] a[K], b⟩`, `r` a predicate
//! over the positions `K` of the type (the "inner-product filtering predicate").
//!
//! The adjoint rewriting works on a term `let … in t1 + … + tk`; the sum is kept as a
//! list (so 6.33–6.36, the let-lifting, commutativity, associativity and unit laws of
//! `+`, hold by construction; docs/engines/tssa-derivatives.md). The left side of every
//! inner product is a variable or a projection of one, so it costs 0 (the invariant of
//! the proof of Theorem 6.55).

use super::term::{gen, rhs_term, sum};
use super::{shape, ty_at};
use adora_core::tl::{Dims, Pred, Rat, Rhs, Term, Ty, Var};

/// The filter `[r]` of an inner product: `r` over the binders `K`, one per dimension of
/// the inner product's tensor type (none for `num` and pair types).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// `K`.
    pub dims: Dims,
    /// `r`.
    pub pred: Pred,
}

/// The left side of an inner product: a variable or a projection path into one (the
/// output cotangent `dY`). It costs 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Left {
    /// The variable.
    pub var: Var,
    /// The projections applied to it, outermost first.
    pub path: Vec<u8>,
}

/// The right side of an inner product: a differential.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Right {
    /// A differential variable bound by a differential statement.
    Diff(Var),
    /// The right-hand side of a differential statement (rule 6.31 put it here).
    Tangent(Box<Rhs>),
    /// A projection `dX.k…` of a differential input.
    Input {
        /// `dX`.
        dx: Var,
        /// The projections.
        path: Vec<u8>,
    },
}

impl Right {
    /// Whether the right side is the differential variable `x` or reads it.
    pub fn mentions(&self, x: &str) -> bool {
        match self {
            Right::Diff(v) => v == x,
            Right::Input { dx, .. } => dx == x,
            Right::Tangent(rhs) => rhs_reads(rhs, x),
        }
    }
}

/// Whether a right-hand side reads the variable `x` as an operand.
pub fn rhs_reads(rhs: &Rhs, x: &str) -> bool {
    match rhs {
        Rhs::Input { input, .. } => input == x,
        Rhs::Const { .. } => false,
        Rhs::Add { y, z, .. } => y == x || z == x,
        Rhs::Map { y, .. } => y == x,
        Rhs::Contract { y, z, .. } => y.var == x || z.as_ref().is_some_and(|z| z.var == x),
    }
}

/// One inner product `⟨[r] a, d⟩` of type `ty`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inner {
    /// `[r]`.
    pub filter: Filter,
    /// `a`.
    pub left: Left,
    /// `d`.
    pub right: Right,
    /// The type of both sides.
    pub ty: Ty,
}

/// `x.k…` for a projection path.
pub fn proj_path(x: &str, path: &[u8]) -> Term {
    path.iter()
        .fold(Term::Var(x.to_string()), |t, k| Term::Proj(*k, Box::new(t)))
}

/// The unfiltered filter of a type: `[true]` over fresh binders `k0, k1, …`.
pub fn no_filter(ty: &Ty) -> Filter {
    let dims = shape(ty)
        .unwrap_or_default()
        .into_iter()
        .enumerate()
        .map(|(k, n)| (format!("k{k}"), n))
        .collect();
    Filter {
        dims,
        pred: Pred::True,
    }
}

impl Inner {
    /// The TL term of the left side.
    pub fn left_term(&self) -> Term {
        proj_path(&self.left.var, &self.left.path)
    }

    /// The TL term of the right side.
    pub fn right_term(&self) -> Term {
        match &self.right {
            Right::Diff(v) => Term::Var(v.clone()),
            Right::Tangent(rhs) => rhs_term(rhs),
            Right::Input { dx, path } => proj_path(dx, path),
        }
    }

    /// The inner product desugared by 6.17–6.19 (with the filter as an Iverson bracket).
    pub fn desugar(&self) -> Term {
        desugar(
            &self.ty,
            self.left_term(),
            self.right_term(),
            Some(&self.filter),
        )
    }
}

/// `⟨[r] a, b⟩` of type `ty` desugared by 6.17–6.19 (the filter applies to tensor types).
pub fn desugar(ty: &Ty, a: Term, b: Term, filter: Option<&Filter>) -> Term {
    if let Ty::Pair(..) = ty {
        let part = |k: u8| {
            let t = ty_at(ty, &[k]).cloned().unwrap_or(Ty::Num);
            desugar(
                &t,
                Term::Proj(k, Box::new(a.clone())),
                Term::Proj(k, Box::new(b.clone())),
                None,
            )
        };
        return Term::Add(Box::new(part(0)), Box::new(part(1)));
    }
    let f = filter.cloned().unwrap_or_else(|| no_filter(ty));
    let at = |t: Term| {
        f.dims.iter().fold(t, |t, (i, _)| {
            Term::Access(Box::new(t), super::pred::var_index(i))
        })
    };
    let left = Term::Bracket(f.pred.clone(), Box::new(at(a)));
    sum(&f.dims, Term::Mul(Box::new(left), Box::new(at(b))))
}

/// The sum `t1 + … + tk` of desugared inner products (`0` for none).
pub fn desugar_sum(ips: &[Inner]) -> Term {
    ips.iter()
        .map(Inner::desugar)
        .reduce(|a, b| Term::Add(Box::new(a), Box::new(b)))
        .unwrap_or(Term::Const(Rat::from_integer(0.into())))
}

/// `gen K. [r] a[K]`: the filtered left side as a tensor term.
pub fn filtered_left(ip: &Inner) -> Term {
    let f = &ip.filter;
    let at = f.dims.iter().fold(ip.left_term(), |t, (i, _)| {
        Term::Access(Box::new(t), super::pred::var_index(i))
    });
    gen(&f.dims, Term::Bracket(f.pred.clone(), Box::new(at)))
}
