//! Capture-avoiding substitution (paper §4.1, `e{x := e'}`; docs/engines/tssa-language.md,
//! "Substitution"), of a term for a value variable ([`subst`]) and of an index expression
//! for an index variable ([`subst_index`]), and renaming every binder to a fresh name
//! ([`freshen`]).
//!
//! Predicates read value variables through access paths (relation inputs `R(a, …)`,
//! data predicates `x.k[a] <= …`, integer data reads): substituting a path-shaped term —
//! a variable, a projection or an access of one — extends the path. Substituting any
//! other term into a path position is an `ErrorKind::Internal` error: the passes never
//! do it (data predicates read only let-bound variables, which they substitute by
//! variables or accesses of them).

use super::ast::{Aff, DataRef, IExpr, Index, PathStep, Pred, Term};
use super::free::{free_vars, free_vars_index, NameSupply};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use std::collections::{BTreeSet, HashMap};

/// `t{x := e}`, renaming binders of `t` that would capture free variables of `e`.
pub fn subst(t: &Term, x: &str, e: &Term) -> Result<Term> {
    let mut names = NameSupply::avoiding([t, e]);
    subst_with(t, x, e, &mut names)
}

/// [`subst`] with a caller's supply of fresh names (it must avoid the names of `t`
/// and `e`).
pub fn subst_with(t: &Term, x: &str, e: &Term, names: &mut NameSupply) -> Result<Term> {
    let fv = free_vars(e);
    let mut s = Subst {
        what: What::Value(x.to_string(), e.clone()),
        fv_values: fv.values,
        fv_indices: fv.indices,
        names,
    };
    s.term(t)
}

/// `t{i := a}` for an index variable `i`, renaming binders of `t` that would capture
/// free variables of `a`. Affine forms stay affine when `a` is affine.
pub fn subst_index(t: &Term, i: &str, a: &Index) -> Result<Term> {
    let mut names = NameSupply::avoiding([t]);
    let fv = free_vars_index(a);
    names.reserve(i);
    fv.indices
        .iter()
        .chain(&fv.values)
        .for_each(|n| names.reserve(n));
    subst_index_with(t, i, a, &mut names)
}

/// [`subst_index`] with a caller's supply of fresh names.
pub fn subst_index_with(t: &Term, i: &str, a: &Index, names: &mut NameSupply) -> Result<Term> {
    let fv = free_vars_index(a);
    let mut s = Subst {
        what: What::Index(i.to_string(), a.clone()),
        fv_values: fv.values,
        fv_indices: fv.indices,
        names,
    };
    s.term(t)
}

/// `p{i := a}` on a predicate.
pub fn subst_index_pred(p: &Pred, i: &str, a: &Index, names: &mut NameSupply) -> Result<Pred> {
    let fv = free_vars_index(a);
    let mut s = Subst {
        what: What::Index(i.to_string(), a.clone()),
        fv_values: fv.values,
        fv_indices: fv.indices,
        names,
    };
    s.pred(p)
}

/// `p{x := e}` on a predicate (`e` path-shaped where `x` is read).
pub fn subst_pred(p: &Pred, x: &str, e: &Term, names: &mut NameSupply) -> Result<Pred> {
    let fv = free_vars(e);
    let mut s = Subst {
        what: What::Value(x.to_string(), e.clone()),
        fv_values: fv.values,
        fv_indices: fv.indices,
        names,
    };
    s.pred(p)
}

/// The access path of a path-shaped term: a variable under projections and accesses.
pub fn path_of(t: &Term) -> Option<(String, Vec<PathStep>)> {
    match t {
        Term::Var(x) => Some((x.clone(), Vec::new())),
        Term::Proj(k, e) => {
            let (x, mut p) = path_of(e)?;
            p.push(PathStep::Proj(*k));
            Some((x, p))
        }
        Term::Access(e, a) => {
            let (x, mut p) = path_of(e)?;
            p.push(PathStep::At(a.clone()));
            Some((x, p))
        }
        _ => None,
    }
}

/// The term of an access path.
pub fn term_of_path(x: &str, path: &[PathStep]) -> Term {
    path.iter().fold(Term::var(x), |t, s| match s {
        PathStep::Proj(k) => Term::proj(*k, t),
        PathStep::At(a) => Term::at(t, a.clone()),
    })
}

/// Renames every binder of `t` (lets, `gen`, `sum`, `exists`) to a fresh name from
/// `names`, so that binders are unique and distinct from the free variables.
pub fn freshen(t: &Term, names: &mut NameSupply) -> Term {
    names.reserve_term(t);
    let mut r = Rename {
        names,
        vals: HashMap::new(),
        idxs: HashMap::new(),
    };
    r.term(t)
}

enum What {
    Value(String, Term),
    Index(String, Index),
}

struct Subst<'n> {
    what: What,
    fv_values: BTreeSet<String>,
    fv_indices: BTreeSet<String>,
    names: &'n mut NameSupply,
}

fn internal(msg: String) -> Diagnostic {
    Diagnostic::new(ErrorKind::Internal, Span::DUMMY, msg)
}

impl Subst<'_> {
    fn target_value(&self) -> Option<&str> {
        match &self.what {
            What::Value(x, _) => Some(x),
            What::Index(..) => None,
        }
    }
    fn target_index(&self) -> Option<&str> {
        match &self.what {
            What::Index(i, _) => Some(i),
            What::Value(..) => None,
        }
    }

    /// Under an index binder `i`: `None` if it shadows the target, else the (maybe
    /// renamed) binder and the body renamed to it.
    fn ibinder<T>(
        &mut self,
        i: &str,
        body: &T,
        rename: impl Fn(&T, &str, &str, &mut NameSupply) -> Result<T>,
    ) -> Result<Option<(String, T)>>
    where
        T: Clone,
    {
        if self.target_index() == Some(i) {
            return Ok(None);
        }
        if self.fv_indices.contains(i) {
            let j = self.names.fresh(i);
            let b = rename(body, i, &j, self.names)?;
            return Ok(Some((j, b)));
        }
        Ok(Some((i.to_string(), body.clone())))
    }

    fn term(&mut self, t: &Term) -> Result<Term> {
        Ok(match t {
            Term::Var(y) => match &self.what {
                What::Value(x, e) if x == y => e.clone(),
                _ => t.clone(),
            },
            Term::Const(_) => t.clone(),
            Term::IndexConst(a) => Term::IndexConst(self.index(a)?),
            Term::Add(a, b) => Term::add(self.term(a)?, self.term(b)?),
            Term::Mul(a, b) => Term::mul(self.term(a)?, self.term(b)?),
            Term::Pair(a, b) => Term::pair(self.term(a)?, self.term(b)?),
            Term::Call(f, e) => Term::call(*f, self.term(e)?),
            Term::Proj(k, e) => Term::proj(*k, self.term(e)?),
            Term::Access(e, a) => Term::at(self.term(e)?, self.index(a)?),
            Term::Bracket(p, e) => Term::bracket(self.pred(p)?, self.term(e)?),
            Term::Gen(i, n, e) | Term::Sum(i, n, e) => {
                let body = match self.ibinder(i, &**e, rename_index_term)? {
                    None => return Ok(t.clone()),
                    Some((j, b)) => (j, self.term(&b)?),
                };
                match t {
                    Term::Gen(..) => Term::gen(body.0, *n, body.1),
                    _ => Term::sum(body.0, *n, body.1),
                }
            }
            Term::Let(y, e1, e2) => {
                let e1 = self.term(e1)?;
                if self.target_value() == Some(y.as_str()) {
                    return Ok(Term::let_(y.clone(), e1, (**e2).clone()));
                }
                if self.fv_values.contains(y) {
                    let y2 = self.names.fresh(y);
                    let b = subst_with(e2, y, &Term::var(y2.clone()), self.names)?;
                    Term::let_(y2, e1, self.term(&b)?)
                } else {
                    Term::let_(y.clone(), e1, self.term(e2)?)
                }
            }
        })
    }

    fn pred(&mut self, p: &Pred) -> Result<Pred> {
        Ok(match p {
            Pred::True | Pred::False => p.clone(),
            Pred::Cmp(op, a, b) => Pred::Cmp(*op, self.index(a)?, self.index(b)?),
            Pred::Rel(x, idx) => {
                let idx = idx
                    .iter()
                    .map(|a| self.index(a))
                    .collect::<Result<Vec<_>>>()?;
                let (x, idx) = self.indexed_read(x, idx, "relation")?;
                Pred::Rel(x, idx)
            }
            Pred::Data(op, a, b) => Pred::Data(*op, self.data(a)?, self.data(b)?),
            Pred::And(a, b) => Pred::And(Box::new(self.pred(a)?), Box::new(self.pred(b)?)),
            Pred::Or(a, b) => Pred::Or(Box::new(self.pred(a)?), Box::new(self.pred(b)?)),
            Pred::Not(a) => Pred::Not(Box::new(self.pred(a)?)),
            Pred::Exists(i, n, q) => match self.ibinder(i, &**q, rename_index_pred)? {
                None => p.clone(),
                Some((j, b)) => Pred::Exists(j, *n, Box::new(self.pred(&b)?)),
            },
        })
    }

    /// A read `x[idx]` of boolean or integer data with `x` substituted: the substitute
    /// must be a variable under accesses.
    fn indexed_read(
        &mut self,
        x: &str,
        idx: Vec<Index>,
        what: &str,
    ) -> Result<(String, Vec<Index>)> {
        match &self.what {
            What::Value(y, e) if y == x => {
                let (root, path) = path_of(e).ok_or_else(|| {
                    internal(format!("substituting a non-path term for the {what} `{x}`"))
                })?;
                let mut out = Vec::new();
                for s in path {
                    match s {
                        PathStep::At(a) => out.push(a),
                        PathStep::Proj(_) => {
                            return Err(internal(format!(
                                "substituting a projection for the {what} `{x}`"
                            )))
                        }
                    }
                }
                out.extend(idx);
                Ok((root, out))
            }
            _ => Ok((x.to_string(), idx)),
        }
    }

    fn data(&mut self, d: &DataRef) -> Result<DataRef> {
        match d {
            DataRef::Const(_) => Ok(d.clone()),
            DataRef::Read(x, path) => {
                let mut steps = Vec::with_capacity(path.len());
                for s in path {
                    steps.push(match s {
                        PathStep::Proj(k) => PathStep::Proj(*k),
                        PathStep::At(a) => PathStep::At(self.index(a)?),
                    });
                }
                match &self.what {
                    What::Value(y, e) if y == x => {
                        let (root, mut p) = path_of(e).ok_or_else(|| {
                            internal(format!(
                                "substituting a non-path term for `{x}` in a data predicate"
                            ))
                        })?;
                        p.extend(steps);
                        Ok(DataRef::Read(root, p))
                    }
                    _ => Ok(DataRef::Read(x.clone(), steps)),
                }
            }
        }
    }

    fn index(&mut self, a: &Index) -> Result<Index> {
        match a {
            Index::Aff(f) => match &self.what {
                What::Index(i, sub) if f.terms.contains_key(i) => {
                    let c = f.coeff(i);
                    let mut rest = f.clone();
                    rest.terms.remove(i);
                    Ok(match sub {
                        Index::Aff(g) => Index::Aff(rest.add(&g.scale(c))),
                        Index::Opaque(_) => Index::from_iexpr(self.iexpr(&f.to_iexpr())?),
                    })
                }
                _ => Ok(a.clone()),
            },
            Index::Opaque(e) => Ok(Index::from_iexpr(self.iexpr(e)?)),
        }
    }

    fn iexpr(&mut self, e: &IExpr) -> Result<IExpr> {
        let b = |x: IExpr| Box::new(x);
        Ok(match e {
            IExpr::Var(i) => match &self.what {
                What::Index(j, a) if i == j => a.to_iexpr(),
                _ => e.clone(),
            },
            IExpr::Const(_) => e.clone(),
            IExpr::Add(x, y) => IExpr::Add(b(self.iexpr(x)?), b(self.iexpr(y)?)),
            IExpr::Mul(x, y) => IExpr::Mul(b(self.iexpr(x)?), b(self.iexpr(y)?)),
            IExpr::Div(x, y) => IExpr::Div(b(self.iexpr(x)?), b(self.iexpr(y)?)),
            IExpr::Mod(x, y) => IExpr::Mod(b(self.iexpr(x)?), b(self.iexpr(y)?)),
            IExpr::Min(x, y) => IExpr::Min(b(self.iexpr(x)?), b(self.iexpr(y)?)),
            IExpr::Max(x, y) => IExpr::Max(b(self.iexpr(x)?), b(self.iexpr(y)?)),
            IExpr::Neg(x) => IExpr::Neg(b(self.iexpr(x)?)),
            IExpr::Abs(x) => IExpr::Abs(b(self.iexpr(x)?)),
            IExpr::Read(x, idx) => {
                let idx = idx
                    .iter()
                    .map(|a| self.index(a))
                    .collect::<Result<Vec<_>>>()?;
                let (x, idx) = self.indexed_read(x, idx, "integer datum")?;
                IExpr::Read(x, idx)
            }
            IExpr::Floor(d) => IExpr::Floor(self.data(d)?),
            IExpr::Cond(p, x, y) => IExpr::Cond(
                Box::new(self.pred(p)?),
                b(self.iexpr(x)?),
                b(self.iexpr(y)?),
            ),
        })
    }
}

fn rename_index_term(t: &Term, i: &str, j: &str, names: &mut NameSupply) -> Result<Term> {
    subst_index_with(t, i, &Index::Aff(Aff::var(j)), names)
}

fn rename_index_pred(p: &Pred, i: &str, j: &str, names: &mut NameSupply) -> Result<Pred> {
    subst_index_pred(p, i, &Index::Aff(Aff::var(j)), names)
}

struct Rename<'n> {
    names: &'n mut NameSupply,
    vals: HashMap<String, Vec<String>>,
    idxs: HashMap<String, Vec<String>>,
}

fn top<'m>(m: &'m HashMap<String, Vec<String>>, x: &'m str) -> &'m str {
    m.get(x).and_then(|v| v.last()).map_or(x, |s| s.as_str())
}

impl Rename<'_> {
    fn bind(&mut self, index: bool, x: &str) -> String {
        let y = self.names.fresh(x);
        let m = if index {
            &mut self.idxs
        } else {
            &mut self.vals
        };
        m.entry(x.to_string()).or_default().push(y.clone());
        y
    }
    fn unbind(&mut self, index: bool, x: &str) {
        let m = if index {
            &mut self.idxs
        } else {
            &mut self.vals
        };
        if let Some(v) = m.get_mut(x) {
            v.pop();
        }
    }
    fn term(&mut self, t: &Term) -> Term {
        match t {
            Term::Var(x) => Term::var(top(&self.vals, x)),
            Term::Const(_) => t.clone(),
            Term::IndexConst(a) => Term::IndexConst(self.index(a)),
            Term::Add(a, b) => Term::add(self.term(a), self.term(b)),
            Term::Mul(a, b) => Term::mul(self.term(a), self.term(b)),
            Term::Pair(a, b) => Term::pair(self.term(a), self.term(b)),
            Term::Call(f, e) => Term::call(*f, self.term(e)),
            Term::Proj(k, e) => Term::proj(*k, self.term(e)),
            Term::Access(e, a) => Term::at(self.term(e), self.index(a)),
            Term::Bracket(p, e) => Term::bracket(self.pred(p), self.term(e)),
            Term::Gen(i, n, e) | Term::Sum(i, n, e) => {
                let j = self.bind(true, i);
                let body = self.term(e);
                self.unbind(true, i);
                match t {
                    Term::Gen(..) => Term::gen(j, *n, body),
                    _ => Term::sum(j, *n, body),
                }
            }
            Term::Let(x, e1, e2) => {
                let e1 = self.term(e1);
                let y = self.bind(false, x);
                let e2 = self.term(e2);
                self.unbind(false, x);
                Term::let_(y, e1, e2)
            }
        }
    }
    fn pred(&mut self, p: &Pred) -> Pred {
        match p {
            Pred::True | Pred::False => p.clone(),
            Pred::Cmp(op, a, b) => Pred::Cmp(*op, self.index(a), self.index(b)),
            Pred::Rel(x, idx) => Pred::Rel(
                top(&self.vals, x).to_string(),
                idx.iter().map(|a| self.index(a)).collect(),
            ),
            Pred::Data(op, a, b) => Pred::Data(*op, self.data(a), self.data(b)),
            Pred::And(a, b) => Pred::And(Box::new(self.pred(a)), Box::new(self.pred(b))),
            Pred::Or(a, b) => Pred::Or(Box::new(self.pred(a)), Box::new(self.pred(b))),
            Pred::Not(a) => Pred::Not(Box::new(self.pred(a))),
            Pred::Exists(i, n, q) => {
                let j = self.bind(true, i);
                let q = self.pred(q);
                self.unbind(true, i);
                Pred::Exists(j, *n, Box::new(q))
            }
        }
    }
    fn data(&mut self, d: &DataRef) -> DataRef {
        match d {
            DataRef::Const(_) => d.clone(),
            DataRef::Read(x, path) => DataRef::Read(
                top(&self.vals, x).to_string(),
                path.iter()
                    .map(|s| match s {
                        PathStep::Proj(k) => PathStep::Proj(*k),
                        PathStep::At(a) => PathStep::At(self.index(a)),
                    })
                    .collect(),
            ),
        }
    }
    fn index(&mut self, a: &Index) -> Index {
        match a {
            Index::Aff(f) => Index::Aff(Aff {
                terms: f
                    .terms
                    .iter()
                    .map(|(v, c)| (top(&self.idxs, v).to_string(), *c))
                    .collect(),
                constant: f.constant,
            }),
            Index::Opaque(e) => Index::Opaque(self.iexpr(e)),
        }
    }
    fn iexpr(&mut self, e: &IExpr) -> IExpr {
        let b = Box::new;
        match e {
            IExpr::Var(i) => IExpr::Var(top(&self.idxs, i).to_string()),
            IExpr::Const(_) => e.clone(),
            IExpr::Add(x, y) => IExpr::Add(b(self.iexpr(x)), b(self.iexpr(y))),
            IExpr::Mul(x, y) => IExpr::Mul(b(self.iexpr(x)), b(self.iexpr(y))),
            IExpr::Div(x, y) => IExpr::Div(b(self.iexpr(x)), b(self.iexpr(y))),
            IExpr::Mod(x, y) => IExpr::Mod(b(self.iexpr(x)), b(self.iexpr(y))),
            IExpr::Min(x, y) => IExpr::Min(b(self.iexpr(x)), b(self.iexpr(y))),
            IExpr::Max(x, y) => IExpr::Max(b(self.iexpr(x)), b(self.iexpr(y))),
            IExpr::Neg(x) => IExpr::Neg(b(self.iexpr(x))),
            IExpr::Abs(x) => IExpr::Abs(b(self.iexpr(x))),
            IExpr::Read(x, idx) => IExpr::Read(
                top(&self.vals, x).to_string(),
                idx.iter().map(|a| self.index(a)).collect(),
            ),
            IExpr::Floor(d) => IExpr::Floor(self.data(d)),
            IExpr::Cond(p, x, y) => {
                IExpr::Cond(Box::new(self.pred(p)), b(self.iexpr(x)), b(self.iexpr(y)))
            }
        }
    }
}
