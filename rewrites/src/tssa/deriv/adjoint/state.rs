//! The term the adjoint rules rewrite (*Differentiating a Tensor Language* §6.3):
//! `let (primal, coefficient and differential bindings) in let (adjoint bindings) in
//! t1 + … + tk`, the `ti` inner products, plus the two transient shapes of the
//! algorithm's ends: inner products whose right side is still the tuple `D⟦e⟧`'s output
//! (before rule 6.26) and the per-input inner products `⟨A, dX⟩` of step 3 (rules 6.27,
//! 6.28).

use super::super::forward::Kind;
use super::super::inner::{desugar, desugar_sum, proj_path, Inner, Left};
use super::super::term::{gen, let_block, rhs_term};
use super::super::{ty_at, Names};
use adora_core::tl::{Pred, Rat, Rhs, SsaOut, Stmt, Term, Ty, Var};
use adora_costmodel::tl_ext::ExtTerm;
use std::collections::BTreeMap;

/// The adjoint collected for one input: a tree shaped like the input's tangent type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Adj {
    /// A zero of the given (tensor) type.
    Zero(Ty),
    /// A variable holding the adjoint of this component.
    Leaf(Var),
    /// A pair of adjoints.
    Pair(Box<Adj>, Box<Adj>),
}

/// The state of the adjoint rewriting (module documentation).
#[derive(Clone, Debug)]
pub struct State {
    /// The primal inputs.
    pub inputs: Vec<(Var, Ty)>,
    /// `(X, dX, type of dX)` per differentiated input.
    pub tangent_inputs: Vec<(Var, Var, Ty)>,
    /// The output cotangent `dY` and its type.
    pub cot: (Var, Ty),
    /// The `let` bindings of `D⟦e⟧` still in the term, in order.
    pub lets: Vec<(Stmt, Kind)>,
    /// The adjoint bindings produced so far, in order.
    pub adjoints: Vec<Stmt>,
    /// The inner products `t1 + … + tk`.
    pub ips: Vec<Inner>,
    /// Inner products `⟨dY.k…, out⟩` whose right side is a (tuple) output of `D⟦e⟧`.
    pub outs: Vec<(Left, SsaOut)>,
    /// Per differentiated input, `⟨A, dX⟩` (step 3).
    pub finals: Vec<(Var, Adj)>,
    /// Fresh names.
    pub names: Names,
    /// The type of every bound variable.
    pub types: BTreeMap<Var, Ty>,
    /// Projections of the cotangent already bound to variables.
    pub bound_left: BTreeMap<(Var, Vec<u8>), Var>,
}

impl State {
    /// Whether `x` is a differential variable still bound in the term.
    pub fn is_diff(&self, x: &str) -> bool {
        self.lets
            .iter()
            .any(|(s, k)| *k == Kind::Diff && s.var == x)
    }

    /// Appends an adjoint binding `var = rhs : ty` (a fresh name from `base`).
    pub fn bind(&mut self, base: &str, ty: &Ty, rhs: Rhs) -> Var {
        let var = self.names.fresh(base);
        self.types.insert(var.clone(), ty.clone());
        self.adjoints.push(Stmt {
            var: var.clone(),
            ty: ty.clone(),
            rhs,
        });
        var
    }

    /// The left side as a variable: a projection of the cotangent is bound once by an
    /// input statement (cost 0).
    pub fn left_var(&mut self, left: &Left) -> Var {
        if left.path.is_empty() {
            return left.var.clone();
        }
        let key = (left.var.clone(), left.path.clone());
        if let Some(v) = self.bound_left.get(&key) {
            return v.clone();
        }
        let ty = self
            .types
            .get(&left.var)
            .and_then(|t| ty_at(t, &left.path))
            .cloned()
            .unwrap_or(Ty::Num);
        let rhs = Rhs::Input {
            input: left.var.clone(),
            path: left.path.clone(),
        };
        let v = self.bind("w", &ty, rhs);
        self.bound_left.insert(key, v.clone());
        v
    }

    /// The type of the output tree `out` (statement types).
    pub fn out_ty(&self, out: &SsaOut) -> Ty {
        match out {
            SsaOut::Var(x) => self.types.get(x).cloned().unwrap_or(Ty::Num),
            SsaOut::Pair(a, b) => Ty::Pair(Box::new(self.out_ty(a)), Box::new(self.out_ty(b))),
        }
    }

    /// The whole term desugared into the tensor language (rules 6.17–6.19): a scalar
    /// whose free variables are the inputs, the differential inputs and `dY`. Two
    /// states related by a rule desugar to terms with equal values.
    pub fn desugar(&self) -> Term {
        let mut parts = vec![desugar_sum(&self.ips)];
        for (left, out) in &self.outs {
            let ty = self.out_ty(out);
            parts.push(desugar(
                &ty,
                proj_path(&left.var, &left.path),
                out_term(out),
                None,
            ));
        }
        for (dx, adj) in &self.finals {
            let ty = self
                .tangent_inputs
                .iter()
                .find(|(_, d, _)| d == dx)
                .map(|(_, _, t)| t.clone())
                .unwrap_or(Ty::Num);
            parts.push(desugar(&ty, adj_term(adj), Term::Var(dx.clone()), None));
        }
        let sum = parts
            .into_iter()
            .reduce(|a, b| Term::Add(Box::new(a), Box::new(b)))
            .unwrap_or_else(|| Term::Const(Rat::from_integer(0.into())));
        let stmts: Vec<Stmt> = self
            .lets
            .iter()
            .map(|(s, _)| s.clone())
            .chain(self.adjoints.iter().cloned())
            .collect();
        let_block(&stmts, sum)
    }

    /// Every binding of the term in order (the `let`s of `D⟦e⟧`, then the adjoint ones),
    /// as `(variable, right-hand side term)`.
    pub fn bindings(&self) -> Vec<(Var, Term)> {
        self.lets
            .iter()
            .map(|(s, _)| s)
            .chain(self.adjoints.iter())
            .map(|s| (s.var.clone(), rhs_term(&s.rhs)))
            .collect()
    }
}

/// The TL term of an output tree.
pub fn out_term(out: &SsaOut) -> Term {
    match out {
        SsaOut::Var(x) => Term::Var(x.clone()),
        SsaOut::Pair(a, b) => Term::Pair(Box::new(out_term(a)), Box::new(out_term(b))),
    }
}

/// The TL term of an adjoint tree (zeros as `gen K. 0`).
pub fn adj_term(adj: &Adj) -> Term {
    match adj {
        Adj::Leaf(v) => Term::Var(v.clone()),
        Adj::Pair(a, b) => Term::Pair(Box::new(adj_term(a)), Box::new(adj_term(b))),
        Adj::Zero(ty) => {
            let dims: Vec<_> = super::super::shape(ty)
                .unwrap_or_default()
                .into_iter()
                .enumerate()
                .map(|(k, n)| (format!("k{k}"), n))
                .collect();
            gen(
                &dims,
                Term::Bracket(
                    Pred::True,
                    Box::new(Term::Const(Rat::from_integer(0.into()))),
                ),
            )
        }
    }
}

impl State {
    /// The term as the extended cost model sees it (Fig. 17): the bindings, then the sum
    /// of the inner products with their filters (`adora_costmodel::tl_ext`).
    pub fn ext(&self) -> ExtTerm {
        let mut parts: Vec<ExtTerm> = self
            .ips
            .iter()
            .map(|ip| ExtTerm::Inner {
                filter: Some((ip.filter.dims.clone(), ip.filter.pred.clone())),
                left: ip.left_term(),
                right: ip.right_term(),
                ty: ip.ty.clone(),
            })
            .collect();
        for (left, out) in &self.outs {
            parts.push(ExtTerm::Inner {
                filter: None,
                left: proj_path(&left.var, &left.path),
                right: out_term(out),
                ty: self.out_ty(out),
            });
        }
        for (dx, adj) in &self.finals {
            let ty = self.types.get(dx).cloned().unwrap_or(Ty::Num);
            parts.push(ExtTerm::Inner {
                filter: None,
                left: adj_term(adj),
                right: Term::Var(dx.clone()),
                ty,
            });
        }
        let sum = parts
            .into_iter()
            .reduce(|a, b| ExtTerm::Add(Box::new(a), Box::new(b)))
            .unwrap_or(ExtTerm::Zero);
        self.bindings()
            .into_iter()
            .rev()
            .fold(sum, |t, (x, e)| ExtTerm::Let(x, e, Box::new(t)))
    }
}
