//! Free variables of TL terms, predicates and index expressions, and the two
//! substitutions the rule systems need (seed 001, *Differentiating a Tensor Language*
//! §4.1 "substitution"; docs/engines/tssa-passes.md, "Substitution"):
//!
//! - value variables by a *data path* replacement, `x := x'[i]` (rules 5.6, 5.7) and
//!   `x := (x0, x1)` (rules 5.18, 5.19); data predicates (extension E1) read value
//!   variables through paths, so the replacement also rewrites those paths;
//! - index variables, `i := a` (rule 5.21), through affine forms (staying affine when `a`
//!   is) and opaque integer expressions (extension E3).
//!
//! Both are capture-avoiding: a binder that would capture a variable of the replacement
//! is renamed first (to the first of `name'`, `name''`, … free in neither).

use adora_core::tl::{Aff, DataRef, IExpr, IVar, Index, PathStep, Pred, Term, Var};
use std::collections::BTreeSet;

/// The free value variables and free index variables of something.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Free {
    /// Value variables (inputs, `let` binders, relation and integer data).
    pub vars: BTreeSet<Var>,
    /// Index variables.
    pub ivars: BTreeSet<IVar>,
}

impl Free {
    /// The free variables of a term.
    pub fn of_term(t: &Term) -> Free {
        let mut f = Free::default();
        f.term(t);
        f
    }
    /// The free variables of a predicate.
    pub fn of_pred(p: &Pred) -> Free {
        let mut f = Free::default();
        f.pred(p);
        f
    }
    /// The free variables of an index expression.
    pub fn of_index(a: &Index) -> Free {
        let mut f = Free::default();
        f.index(a);
        f
    }
    fn term(&mut self, t: &Term) {
        match t {
            Term::Var(x) => {
                self.vars.insert(x.clone());
            }
            Term::Const(_) => {}
            Term::IndexConst(a) => self.index(a),
            Term::Add(a, b) | Term::Mul(a, b) | Term::Pair(a, b) => {
                self.term(a);
                self.term(b);
            }
            Term::Call(_, e) | Term::Proj(_, e) => self.term(e),
            Term::Gen(i, _, e) | Term::Sum(i, _, e) => {
                let inner = Free::of_term(e);
                self.vars.extend(inner.vars);
                self.ivars
                    .extend(inner.ivars.into_iter().filter(|j| j != i));
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
                let inner = Free::of_term(e2);
                self.vars.extend(inner.vars.into_iter().filter(|y| y != x));
                self.ivars.extend(inner.ivars);
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
            Pred::Rel(x, ixs) => {
                self.vars.insert(x.clone());
                ixs.iter().for_each(|a| self.index(a));
            }
            Pred::Data(_, u, v) => {
                self.data(u);
                self.data(v);
            }
            Pred::And(p, q) | Pred::Or(p, q) => {
                self.pred(p);
                self.pred(q);
            }
            Pred::Not(p) => self.pred(p),
            Pred::Exists(i, _, p) => {
                let inner = Free::of_pred(p);
                self.vars.extend(inner.vars);
                self.ivars
                    .extend(inner.ivars.into_iter().filter(|j| j != i));
            }
        }
    }
    fn data(&mut self, d: &DataRef) {
        if let DataRef::Read(x, path) = d {
            self.vars.insert(x.clone());
            for s in path {
                if let PathStep::At(a) = s {
                    self.index(a);
                }
            }
        }
    }
    fn index(&mut self, a: &Index) {
        match a {
            Index::Aff(f) => self.ivars.extend(f.terms.keys().cloned()),
            Index::Opaque(e) => self.iexpr(e),
        }
    }
    fn iexpr(&mut self, e: &IExpr) {
        match e {
            IExpr::Var(i) => {
                self.ivars.insert(i.clone());
            }
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
            IExpr::Read(x, ixs) => {
                self.vars.insert(x.clone());
                ixs.iter().for_each(|a| self.index(a));
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

/// The first of `base'`, `base''`, … not in `avoid`.
pub fn fresh_like(base: &str, avoid: &BTreeSet<String>) -> String {
    let mut s = format!("{base}'");
    while avoid.contains(&s) {
        s.push('\'');
    }
    s
}

/// What a value variable is replaced by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarRepl {
    /// `x := x'[i]` (rules 5.6, 5.7).
    Access(Var, IVar),
    /// `x := (x0, x1)` (rules 5.18, 5.19).
    Split(Var, Var),
    /// `x := y` (renaming a binder to avoid capture).
    Rename(Var),
}

impl VarRepl {
    fn term(&self) -> Term {
        match self {
            VarRepl::Access(x, i) => Term::Access(Box::new(Term::Var(x.clone())), aff_var(i)),
            VarRepl::Split(a, b) => Term::Pair(
                Box::new(Term::Var(a.clone())),
                Box::new(Term::Var(b.clone())),
            ),
            VarRepl::Rename(y) => Term::Var(y.clone()),
        }
    }
    fn free(&self) -> Free {
        Free::of_term(&self.term())
    }
    /// The data path `x.path` rewritten: `x'[i].path`, or `x_k.path'` where `path'` is
    /// `path` without its first projection `.k` (struct-of-arrays reading, §5.2).
    fn path(&self, path: &[PathStep]) -> Option<(Var, Vec<PathStep>)> {
        match self {
            VarRepl::Access(x, i) => {
                let mut p = vec![PathStep::At(aff_var(i))];
                p.extend(path.iter().cloned());
                Some((x.clone(), p))
            }
            VarRepl::Split(a, b) => {
                let k = path.iter().position(|s| matches!(s, PathStep::Proj(_)))?;
                let PathStep::Proj(which) = path[k] else {
                    return None;
                };
                let mut p = path.to_vec();
                p.remove(k);
                Some((if which == 0 { a.clone() } else { b.clone() }, p))
            }
            VarRepl::Rename(y) => Some((y.clone(), path.to_vec())),
        }
    }
}

/// The index expression `i`.
pub fn aff_var(i: &str) -> Index {
    let mut a = Aff::default();
    a.terms.insert(i.to_string(), 1);
    Index::Aff(a)
}

/// The index expression `k`.
pub fn aff_const(k: i64) -> Index {
    Index::Aff(Aff {
        terms: Default::default(),
        constant: k,
    })
}

/// `t{x := r}`, capture-avoiding. `None` when a data path of `x` cannot be rewritten
/// (a split of a scalar read without a projection: ill-typed input).
pub fn subst_var(t: &Term, x: &str, r: &VarRepl) -> Option<Term> {
    let rf = r.free();
    SubstV { x, r, rf: &rf }.term(t)
}

struct SubstV<'a> {
    x: &'a str,
    r: &'a VarRepl,
    rf: &'a Free,
}

impl SubstV<'_> {
    fn term(&self, t: &Term) -> Option<Term> {
        let b = |e: &Term| self.term(e).map(Box::new);
        Some(match t {
            Term::Var(y) if y == self.x => self.r.term(),
            Term::Var(_) | Term::Const(_) => t.clone(),
            Term::IndexConst(a) => Term::IndexConst(self.index(a)?),
            Term::Add(p, q) => Term::Add(b(p)?, b(q)?),
            Term::Mul(p, q) => Term::Mul(b(p)?, b(q)?),
            Term::Pair(p, q) => Term::Pair(b(p)?, b(q)?),
            Term::Call(f, e) => Term::Call(*f, b(e)?),
            Term::Proj(k, e) => Term::Proj(*k, b(e)?),
            Term::Gen(i, n, e) | Term::Sum(i, n, e) => {
                let (i2, body) = if self.rf.ivars.contains(i) {
                    let mut avoid = self.rf.ivars.clone();
                    avoid.extend(Free::of_term(e).ivars);
                    let j = fresh_like(i, &avoid);
                    let e2 = subst_ivar(e, i, &aff_var(&j))?;
                    (j, self.term(&e2)?)
                } else {
                    // No copy of the body before substituting: nested binders would
                    // copy each level once per enclosing level.
                    (i.clone(), self.term(e)?)
                };
                let body = Box::new(body);
                match t {
                    Term::Gen(..) => Term::Gen(i2, *n, body),
                    _ => Term::Sum(i2, *n, body),
                }
            }
            Term::Access(e, a) => Term::Access(b(e)?, self.index(a)?),
            Term::Bracket(p, e) => Term::Bracket(self.pred(p)?, b(e)?),
            Term::Let(y, e1, e2) => {
                let e1 = b(e1)?;
                if y == self.x {
                    return Some(Term::Let(y.clone(), e1, e2.clone()));
                }
                if self.rf.vars.contains(y) {
                    let mut avoid = self.rf.vars.clone();
                    avoid.extend(Free::of_term(e2).vars);
                    let y2 = fresh_like(y, &avoid);
                    let e2 = subst_var(e2, y, &VarRepl::Rename(y2.clone()))?;
                    return Some(Term::Let(y2, e1, Box::new(self.term(&e2)?)));
                }
                Term::Let(y.clone(), e1, b(e2)?)
            }
        })
    }
    /// Relation and integer data are read by name; only a rename reaches them (they are
    /// free inputs, never `let`-bound, so the other replacements never meet them).
    fn renamed(&self, y: &Var) -> Var {
        match self.r {
            VarRepl::Rename(z) if y == self.x => z.clone(),
            _ => y.clone(),
        }
    }
    fn pred(&self, p: &Pred) -> Option<Pred> {
        let b = |q: &Pred| self.pred(q).map(Box::new);
        Some(match p {
            Pred::True | Pred::False => p.clone(),
            Pred::Cmp(op, a, c) => Pred::Cmp(*op, self.index(a)?, self.index(c)?),
            Pred::Rel(y, ixs) => Pred::Rel(
                self.renamed(y),
                ixs.iter().map(|a| self.index(a)).collect::<Option<_>>()?,
            ),
            Pred::Data(op, u, v) => Pred::Data(*op, self.data(u)?, self.data(v)?),
            Pred::And(p, q) => Pred::And(b(p)?, b(q)?),
            Pred::Or(p, q) => Pred::Or(b(p)?, b(q)?),
            Pred::Not(p) => Pred::Not(b(p)?),
            Pred::Exists(i, n, q) => Pred::Exists(i.clone(), *n, b(q)?),
        })
    }
    fn data(&self, d: &DataRef) -> Option<DataRef> {
        Some(match d {
            DataRef::Read(y, path) if y == self.x => {
                let (z, p) = self.r.path(path)?;
                DataRef::Read(z, p)
            }
            _ => d.clone(),
        })
    }
    fn index(&self, a: &Index) -> Option<Index> {
        // Value variables occur in index expressions only as integer data and floors of
        // data reads (E3); a let-bound variable is never integer data.
        Some(match a {
            Index::Aff(_) => a.clone(),
            Index::Opaque(e) => Index::Opaque(self.iexpr(e)?),
        })
    }
    fn iexpr(&self, e: &IExpr) -> Option<IExpr> {
        let b = |q: &IExpr| self.iexpr(q).map(Box::new);
        Some(match e {
            IExpr::Var(_) | IExpr::Const(_) => e.clone(),
            IExpr::Add(p, q) => IExpr::Add(b(p)?, b(q)?),
            IExpr::Mul(p, q) => IExpr::Mul(b(p)?, b(q)?),
            IExpr::Div(p, q) => IExpr::Div(b(p)?, b(q)?),
            IExpr::Mod(p, q) => IExpr::Mod(b(p)?, b(q)?),
            IExpr::Min(p, q) => IExpr::Min(b(p)?, b(q)?),
            IExpr::Max(p, q) => IExpr::Max(b(p)?, b(q)?),
            IExpr::Neg(p) => IExpr::Neg(b(p)?),
            IExpr::Abs(p) => IExpr::Abs(b(p)?),
            IExpr::Read(y, ixs) => IExpr::Read(
                self.renamed(y),
                ixs.iter().map(|a| self.index(a)).collect::<Option<_>>()?,
            ),
            IExpr::Floor(d) => IExpr::Floor(self.data(d)?),
            IExpr::Cond(p, a, c) => IExpr::Cond(Box::new(self.pred(p)?), b(a)?, b(c)?),
        })
    }
}

/// `t{i := a}` for an index variable `i`, capture-avoiding. `None` when the result
/// would not be an index expression (never, for well-formed terms).
pub fn subst_ivar(t: &Term, i: &str, a: &Index) -> Option<Term> {
    let af = Free::of_index(a);
    SubstI { i, a, af: &af }.term(t)
}

/// `p{i := a}` on a predicate.
pub fn subst_ivar_pred(p: &Pred, i: &str, a: &Index) -> Pred {
    let af = Free::of_index(a);
    SubstI { i, a, af: &af }.pred(p)
}

struct SubstI<'a> {
    i: &'a str,
    a: &'a Index,
    af: &'a Free,
}

/// An affine form as an opaque integer expression.
pub fn aff_to_iexpr(f: &Aff) -> IExpr {
    let mut e = IExpr::Const(f.constant);
    for (v, c) in &f.terms {
        let t = if *c == 1 {
            IExpr::Var(v.clone())
        } else {
            IExpr::Mul(Box::new(IExpr::Const(*c)), Box::new(IExpr::Var(v.clone())))
        };
        e = if matches!(e, IExpr::Const(0)) {
            t
        } else {
            IExpr::Add(Box::new(e), Box::new(t))
        };
    }
    e
}

fn index_to_iexpr(a: &Index) -> IExpr {
    match a {
        Index::Aff(f) => aff_to_iexpr(f),
        Index::Opaque(e) => e.clone(),
    }
}

impl SubstI<'_> {
    fn term(&self, t: &Term) -> Option<Term> {
        let b = |e: &Term| self.term(e).map(Box::new);
        Some(match t {
            Term::Var(_) | Term::Const(_) => t.clone(),
            Term::IndexConst(a) => Term::IndexConst(self.index(a)),
            Term::Add(p, q) => Term::Add(b(p)?, b(q)?),
            Term::Mul(p, q) => Term::Mul(b(p)?, b(q)?),
            Term::Pair(p, q) => Term::Pair(b(p)?, b(q)?),
            Term::Call(f, e) => Term::Call(*f, b(e)?),
            Term::Proj(k, e) => Term::Proj(*k, b(e)?),
            Term::Gen(j, n, e) | Term::Sum(j, n, e) => {
                if j == self.i {
                    return Some(t.clone());
                }
                let (j2, body) = if self.af.ivars.contains(j) {
                    let mut avoid = self.af.ivars.clone();
                    avoid.extend(Free::of_term(e).ivars);
                    avoid.insert(self.i.to_string());
                    let j2 = fresh_like(j, &avoid);
                    let e2 = subst_ivar(e, j, &aff_var(&j2))?;
                    (j2, self.term(&e2)?)
                } else {
                    (j.clone(), self.term(e)?)
                };
                let body = Box::new(body);
                match t {
                    Term::Gen(..) => Term::Gen(j2, *n, body),
                    _ => Term::Sum(j2, *n, body),
                }
            }
            Term::Access(e, a) => Term::Access(b(e)?, self.index(a)),
            Term::Bracket(p, e) => Term::Bracket(self.pred(p), b(e)?),
            Term::Let(y, e1, e2) => Term::Let(y.clone(), b(e1)?, b(e2)?),
        })
    }
    fn pred(&self, p: &Pred) -> Pred {
        let b = |q: &Pred| Box::new(self.pred(q));
        match p {
            Pred::True | Pred::False => p.clone(),
            Pred::Cmp(op, a, c) => Pred::Cmp(*op, self.index(a), self.index(c)),
            Pred::Rel(y, ixs) => Pred::Rel(y.clone(), ixs.iter().map(|a| self.index(a)).collect()),
            Pred::Data(op, u, v) => Pred::Data(*op, self.data(u), self.data(v)),
            Pred::And(p, q) => Pred::And(b(p), b(q)),
            Pred::Or(p, q) => Pred::Or(b(p), b(q)),
            Pred::Not(p) => Pred::Not(b(p)),
            Pred::Exists(j, n, q) => {
                if j == self.i {
                    return p.clone();
                }
                if self.af.ivars.contains(j) {
                    let mut avoid = self.af.ivars.clone();
                    avoid.extend(Free::of_pred(q).ivars);
                    avoid.insert(self.i.to_string());
                    let j2 = fresh_like(j, &avoid);
                    let q2 = subst_ivar_pred(q, j, &aff_var(&j2));
                    return Pred::Exists(j2, *n, Box::new(self.pred(&q2)));
                }
                Pred::Exists(j.clone(), *n, b(q))
            }
        }
    }
    fn data(&self, d: &DataRef) -> DataRef {
        match d {
            DataRef::Const(_) => d.clone(),
            DataRef::Read(y, path) => DataRef::Read(
                y.clone(),
                path.iter()
                    .map(|s| match s {
                        PathStep::Proj(k) => PathStep::Proj(*k),
                        PathStep::At(a) => PathStep::At(self.index(a)),
                    })
                    .collect(),
            ),
        }
    }
    fn index(&self, a: &Index) -> Index {
        match a {
            Index::Aff(f) => match f.terms.get(self.i) {
                None => a.clone(),
                Some(&c) => {
                    let mut rest = f.clone();
                    rest.terms.remove(self.i);
                    match self.a {
                        Index::Aff(g) => {
                            let mut out = rest;
                            out.constant += c * g.constant;
                            for (v, d) in &g.terms {
                                let e = out.terms.entry(v.clone()).or_insert(0);
                                *e += c * d;
                                if *e == 0 {
                                    out.terms.remove(v);
                                }
                            }
                            Index::Aff(out)
                        }
                        Index::Opaque(g) => {
                            let scaled = if c == 1 {
                                g.clone()
                            } else {
                                IExpr::Mul(Box::new(IExpr::Const(c)), Box::new(g.clone()))
                            };
                            Index::Opaque(IExpr::Add(
                                Box::new(aff_to_iexpr(&rest)),
                                Box::new(scaled),
                            ))
                        }
                    }
                }
            },
            Index::Opaque(e) => Index::Opaque(self.iexpr(e)),
        }
    }
    fn iexpr(&self, e: &IExpr) -> IExpr {
        let b = |q: &IExpr| Box::new(self.iexpr(q));
        match e {
            IExpr::Var(j) if j == self.i => index_to_iexpr(self.a),
            IExpr::Var(_) | IExpr::Const(_) => e.clone(),
            IExpr::Add(p, q) => IExpr::Add(b(p), b(q)),
            IExpr::Mul(p, q) => IExpr::Mul(b(p), b(q)),
            IExpr::Div(p, q) => IExpr::Div(b(p), b(q)),
            IExpr::Mod(p, q) => IExpr::Mod(b(p), b(q)),
            IExpr::Min(p, q) => IExpr::Min(b(p), b(q)),
            IExpr::Max(p, q) => IExpr::Max(b(p), b(q)),
            IExpr::Neg(p) => IExpr::Neg(b(p)),
            IExpr::Abs(p) => IExpr::Abs(b(p)),
            IExpr::Read(y, ixs) => {
                IExpr::Read(y.clone(), ixs.iter().map(|a| self.index(a)).collect())
            }
            IExpr::Floor(d) => IExpr::Floor(self.data(d)),
            IExpr::Cond(p, a, c) => IExpr::Cond(Box::new(self.pred(p)), b(a), b(c)),
        }
    }
}
