//! Free variables of terms and predicates, all names of a term, and fresh names
//! ([`NameSupply`]) — the bookkeeping behind capture-avoiding substitution (paper §4.1,
//! `e{x := e'}`; docs/engines/tssa-language.md, "Substitution").

use super::ast::{DataRef, IExpr, Index, PathStep, Pred, Term};
use std::collections::{BTreeSet, HashSet};

/// The free value variables and free index variables of a term or predicate.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FreeVars {
    /// Free value variables (including relation and data variables read by predicates).
    pub values: BTreeSet<String>,
    /// Free index variables.
    pub indices: BTreeSet<String>,
}

/// The free variables of a term.
pub fn free_vars(t: &Term) -> FreeVars {
    let mut c = Collect::default();
    c.term(t);
    c.out
}

/// The free variables of a predicate.
pub fn free_vars_pred(p: &Pred) -> FreeVars {
    let mut c = Collect::default();
    c.pred(p);
    c.out
}

/// The free variables of an index expression.
pub fn free_vars_index(a: &Index) -> FreeVars {
    let mut c = Collect::default();
    c.index(a);
    c.out
}

#[derive(Default)]
struct Collect {
    bound_v: Vec<String>,
    bound_i: Vec<String>,
    out: FreeVars,
}

impl Collect {
    fn val(&mut self, x: &str) {
        if !self.bound_v.iter().any(|b| b == x) {
            self.out.values.insert(x.to_string());
        }
    }
    fn ivar(&mut self, i: &str) {
        if !self.bound_i.iter().any(|b| b == i) {
            self.out.indices.insert(i.to_string());
        }
    }
    fn term(&mut self, t: &Term) {
        match t {
            Term::Var(x) => self.val(x),
            Term::Const(_) => {}
            Term::IndexConst(a) => self.index(a),
            Term::Add(a, b) | Term::Mul(a, b) | Term::Pair(a, b) => {
                self.term(a);
                self.term(b);
            }
            Term::Call(_, e) | Term::Proj(_, e) => self.term(e),
            Term::Gen(i, _, e) | Term::Sum(i, _, e) => {
                self.bound_i.push(i.clone());
                self.term(e);
                self.bound_i.pop();
            }
            Term::Access(e, a) => {
                self.term(e);
                self.index(a);
            }
            Term::Bracket(p, e) => {
                self.pred(p);
                self.term(e);
            }
            Term::Let(x, e1, e2) => {
                self.term(e1);
                self.bound_v.push(x.clone());
                self.term(e2);
                self.bound_v.pop();
            }
        }
    }
    fn pred(&mut self, p: &Pred) {
        match p {
            Pred::True | Pred::False => {}
            Pred::Cmp(_, a, b) => {
                self.index(a);
                self.index(b);
            }
            Pred::Rel(x, idx) => {
                self.val(x);
                idx.iter().for_each(|a| self.index(a));
            }
            Pred::Data(_, a, b) => {
                self.data(a);
                self.data(b);
            }
            Pred::And(a, b) | Pred::Or(a, b) => {
                self.pred(a);
                self.pred(b);
            }
            Pred::Not(a) => self.pred(a),
            Pred::Exists(i, _, q) => {
                self.bound_i.push(i.clone());
                self.pred(q);
                self.bound_i.pop();
            }
        }
    }
    fn data(&mut self, d: &DataRef) {
        if let DataRef::Read(x, path) = d {
            self.val(x);
            for s in path {
                if let PathStep::At(a) = s {
                    self.index(a);
                }
            }
        }
    }
    fn index(&mut self, a: &Index) {
        match a {
            Index::Aff(f) => f.terms.keys().for_each(|i| self.ivar(i)),
            Index::Opaque(e) => self.iexpr(e),
        }
    }
    fn iexpr(&mut self, e: &IExpr) {
        match e {
            IExpr::Var(i) => self.ivar(i),
            IExpr::Const(_) => {}
            IExpr::Add(a, b)
            | IExpr::Mul(a, b)
            | IExpr::Div(a, b)
            | IExpr::Mod(a, b)
            | IExpr::Min(a, b)
            | IExpr::Max(a, b) => {
                self.iexpr(a);
                self.iexpr(b);
            }
            IExpr::Neg(a) | IExpr::Abs(a) => self.iexpr(a),
            IExpr::Read(x, idx) => {
                self.val(x);
                idx.iter().for_each(|a| self.index(a));
            }
            IExpr::Floor(d) => self.data(d),
            IExpr::Cond(p, a, b) => {
                self.pred(p);
                self.iexpr(a);
                self.iexpr(b);
            }
        }
    }
}

/// Every name that occurs in a term, bound or free, value or index variable.
pub fn all_names(t: &Term) -> HashSet<String> {
    let mut out = HashSet::new();
    names_term(t, &mut out);
    out
}

fn names_term(t: &Term, out: &mut HashSet<String>) {
    match t {
        Term::Gen(i, _, _) | Term::Sum(i, _, _) | Term::Let(i, _, _) => {
            out.insert(i.clone());
        }
        _ => {}
    }
    let fv = free_vars(t);
    out.extend(fv.values);
    out.extend(fv.indices);
    match t {
        Term::Var(_) | Term::Const(_) | Term::IndexConst(_) => {}
        Term::Add(a, b) | Term::Mul(a, b) | Term::Pair(a, b) | Term::Let(_, a, b) => {
            names_term(a, out);
            names_term(b, out);
        }
        Term::Call(_, e) | Term::Proj(_, e) | Term::Gen(_, _, e) | Term::Sum(_, _, e) => {
            names_term(e, out)
        }
        Term::Access(e, _) => names_term(e, out),
        Term::Bracket(p, e) => {
            names_pred(p, out);
            names_term(e, out);
        }
    }
}

fn names_pred(p: &Pred, out: &mut HashSet<String>) {
    match p {
        Pred::Exists(i, _, q) => {
            out.insert(i.clone());
            names_pred(q, out);
        }
        Pred::And(a, b) | Pred::Or(a, b) => {
            names_pred(a, out);
            names_pred(b, out);
        }
        Pred::Not(a) => names_pred(a, out),
        _ => {}
    }
}

/// A supply of fresh names: `base_1`, `base_2`, … avoiding every name it was told about.
#[derive(Clone, Debug, Default)]
pub struct NameSupply {
    used: HashSet<String>,
    counter: u64,
}

impl NameSupply {
    /// An empty supply.
    pub fn new() -> NameSupply {
        NameSupply::default()
    }

    /// A supply avoiding every name of the given terms.
    pub fn avoiding<'t>(terms: impl IntoIterator<Item = &'t Term>) -> NameSupply {
        let mut s = NameSupply::new();
        for t in terms {
            s.used.extend(all_names(t));
        }
        s
    }

    /// Marks a name as taken.
    pub fn reserve(&mut self, name: &str) {
        self.used.insert(name.to_string());
    }

    /// Marks every name of a term as taken.
    pub fn reserve_term(&mut self, t: &Term) {
        self.used.extend(all_names(t));
    }

    /// A name not used before, derived from `base` (its trailing `_N` suffix replaced).
    pub fn fresh(&mut self, base: &str) -> String {
        let stem = match base.rsplit_once('_') {
            Some((s, n)) if !s.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => s,
            _ => base,
        };
        let stem = if stem.is_empty() { "v" } else { stem };
        loop {
            self.counter += 1;
            let name = format!("{stem}_{}", self.counter);
            if self.used.insert(name.clone()) {
                return name;
            }
        }
    }
}
