//! Canonical names: every binder of a term (`let`, `gen`, `sum`, `exists`) renamed, in
//! order of occurrence, to `<p>0, <p>1, …` (value variables) and `<q>0, …` (index
//! variables), where the prefixes are chosen so that no free variable starts with them.
//! After it, every binder of the term is unique (the paper's "no re-use of variable
//! names", seed 001 §5) even where a rule duplicated a subterm, and α-equivalent terms
//! are equal.

use adora_core::tl::{DataRef, IExpr, Index, PathStep, Pred, Term, Var};
use std::collections::BTreeMap;

use super::vars::Free;

/// The renaming state.
struct Canon {
    vprefix: String,
    iprefix: String,
    nv: usize,
    ni: usize,
}

/// A prefix starting with `base` that no name in `names` starts with.
pub fn safe_prefix<'a>(base: &str, names: impl Iterator<Item = &'a String> + Clone) -> String {
    let mut p = base.to_string();
    while names.clone().any(|n| n.starts_with(&p)) {
        p.push_str(base);
    }
    p
}

/// `t` with canonical binder names (free variables unchanged); `also_free` are further
/// names to avoid (the inputs, whether or not they occur).
pub fn canonical(t: &Term, also_free: &[Var]) -> Term {
    let f = Free::of_term(t);
    let names: Vec<String> = f.vars.iter().chain(also_free.iter()).cloned().collect();
    let inames: Vec<String> = f.ivars.iter().cloned().collect();
    let mut c = Canon {
        vprefix: safe_prefix("t", names.iter()),
        iprefix: safe_prefix("i", inames.iter()),
        nv: 0,
        ni: 0,
    };
    c.term(t, &BTreeMap::new(), &BTreeMap::new())
}

type Env = BTreeMap<String, String>;

impl Canon {
    fn v(&mut self) -> String {
        self.nv += 1;
        format!("{}{}", self.vprefix, self.nv - 1)
    }
    fn i(&mut self) -> String {
        self.ni += 1;
        format!("{}{}", self.iprefix, self.ni - 1)
    }
    fn term(&mut self, t: &Term, ve: &Env, ie: &Env) -> Term {
        match t {
            Term::Var(x) => Term::Var(ve.get(x).cloned().unwrap_or_else(|| x.clone())),
            Term::Const(_) => t.clone(),
            Term::IndexConst(a) => Term::IndexConst(index(a, ve, ie)),
            Term::Add(a, b) => {
                let a = self.term(a, ve, ie);
                Term::Add(Box::new(a), Box::new(self.term(b, ve, ie)))
            }
            Term::Mul(a, b) => {
                let a = self.term(a, ve, ie);
                Term::Mul(Box::new(a), Box::new(self.term(b, ve, ie)))
            }
            Term::Pair(a, b) => {
                let a = self.term(a, ve, ie);
                Term::Pair(Box::new(a), Box::new(self.term(b, ve, ie)))
            }
            Term::Call(f, e) => Term::Call(*f, Box::new(self.term(e, ve, ie))),
            Term::Proj(k, e) => Term::Proj(*k, Box::new(self.term(e, ve, ie))),
            Term::Gen(i, n, e) | Term::Sum(i, n, e) => {
                let j = self.i();
                let mut ie2 = ie.clone();
                ie2.insert(i.clone(), j.clone());
                let body = Box::new(self.term(e, ve, &ie2));
                match t {
                    Term::Gen(..) => Term::Gen(j, *n, body),
                    _ => Term::Sum(j, *n, body),
                }
            }
            Term::Access(e, a) => Term::Access(Box::new(self.term(e, ve, ie)), index(a, ve, ie)),
            Term::Bracket(p, e) => {
                let p = self.pred(p, ve, ie);
                Term::Bracket(p, Box::new(self.term(e, ve, ie)))
            }
            Term::Let(x, e1, e2) => {
                let e1 = self.term(e1, ve, ie);
                let y = self.v();
                let mut ve2 = ve.clone();
                ve2.insert(x.clone(), y.clone());
                Term::Let(y, Box::new(e1), Box::new(self.term(e2, &ve2, ie)))
            }
        }
    }
    fn pred(&mut self, p: &Pred, ve: &Env, ie: &Env) -> Pred {
        match p {
            Pred::True | Pred::False => p.clone(),
            Pred::Cmp(op, a, b) => Pred::Cmp(*op, index(a, ve, ie), index(b, ve, ie)),
            Pred::Rel(x, ixs) => {
                Pred::Rel(ren(x, ve), ixs.iter().map(|a| index(a, ve, ie)).collect())
            }
            Pred::Data(op, u, v) => Pred::Data(*op, data(u, ve, ie), data(v, ve, ie)),
            Pred::And(a, b) => {
                let a = self.pred(a, ve, ie);
                Pred::And(Box::new(a), Box::new(self.pred(b, ve, ie)))
            }
            Pred::Or(a, b) => {
                let a = self.pred(a, ve, ie);
                Pred::Or(Box::new(a), Box::new(self.pred(b, ve, ie)))
            }
            Pred::Not(a) => Pred::Not(Box::new(self.pred(a, ve, ie))),
            Pred::Exists(i, n, q) => {
                let j = self.i();
                let mut ie2 = ie.clone();
                ie2.insert(i.clone(), j.clone());
                Pred::Exists(j, *n, Box::new(self.pred(q, ve, &ie2)))
            }
        }
    }
}

fn ren(x: &String, e: &Env) -> String {
    e.get(x).cloned().unwrap_or_else(|| x.clone())
}

fn data(d: &DataRef, ve: &Env, ie: &Env) -> DataRef {
    match d {
        DataRef::Const(_) => d.clone(),
        DataRef::Read(x, path) => DataRef::Read(
            ren(x, ve),
            path.iter()
                .map(|s| match s {
                    PathStep::Proj(k) => PathStep::Proj(*k),
                    PathStep::At(a) => PathStep::At(index(a, ve, ie)),
                })
                .collect(),
        ),
    }
}

fn index(a: &Index, ve: &Env, ie: &Env) -> Index {
    match a {
        Index::Aff(f) => {
            let mut g = f.clone();
            g.terms = f.terms.iter().map(|(v, c)| (ren(v, ie), *c)).collect();
            Index::Aff(g)
        }
        Index::Opaque(e) => Index::Opaque(iexpr(e, ve, ie)),
    }
}

fn iexpr(e: &IExpr, ve: &Env, ie: &Env) -> IExpr {
    let b = |q: &IExpr| Box::new(iexpr(q, ve, ie));
    match e {
        IExpr::Var(i) => IExpr::Var(ren(i, ie)),
        IExpr::Const(_) => e.clone(),
        IExpr::Add(p, q) => IExpr::Add(b(p), b(q)),
        IExpr::Mul(p, q) => IExpr::Mul(b(p), b(q)),
        IExpr::Div(p, q) => IExpr::Div(b(p), b(q)),
        IExpr::Mod(p, q) => IExpr::Mod(b(p), b(q)),
        IExpr::Min(p, q) => IExpr::Min(b(p), b(q)),
        IExpr::Max(p, q) => IExpr::Max(b(p), b(q)),
        IExpr::Neg(p) => IExpr::Neg(b(p)),
        IExpr::Abs(p) => IExpr::Abs(b(p)),
        IExpr::Read(x, ixs) => {
            IExpr::Read(ren(x, ve), ixs.iter().map(|a| index(a, ve, ie)).collect())
        }
        IExpr::Floor(d) => IExpr::Floor(data(d, ve, ie)),
        IExpr::Cond(p, a, c) => {
            // A predicate inside an opaque expression keeps its own `exists` binders.
            IExpr::Cond(Box::new(pred_plain(p, ve, ie)), b(a), b(c))
        }
    }
}

/// Renames free occurrences in a predicate without touching its own binders.
fn pred_plain(p: &Pred, ve: &Env, ie: &Env) -> Pred {
    let b = |q: &Pred| Box::new(pred_plain(q, ve, ie));
    match p {
        Pred::True | Pred::False => p.clone(),
        Pred::Cmp(op, a, c) => Pred::Cmp(*op, index(a, ve, ie), index(c, ve, ie)),
        Pred::Rel(x, ixs) => Pred::Rel(ren(x, ve), ixs.iter().map(|a| index(a, ve, ie)).collect()),
        Pred::Data(op, u, v) => Pred::Data(*op, data(u, ve, ie), data(v, ve, ie)),
        Pred::And(a, c) => Pred::And(b(a), b(c)),
        Pred::Or(a, c) => Pred::Or(b(a), b(c)),
        Pred::Not(a) => Pred::Not(b(a)),
        Pred::Exists(i, n, q) => {
            let mut ie2 = ie.clone();
            ie2.remove(i);
            Pred::Exists(i.clone(), *n, Box::new(pred_plain(q, ve, &ie2)))
        }
    }
}
