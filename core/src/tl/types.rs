//! Type inference and checking of tensor-language terms (paper §3, Fig. 3;
//! docs/engines/tssa-language.md, "Typing"): `+`, `*`, `sum` and black boxes on scalars
//! only, `[p] e` at any type, accesses of arrays, projections of pairs; index variables
//! must be bound, relation inputs are boolean tensors read at all their dimensions,
//! integer data likewise, data predicates read scalars.
//!
//! [`type_of_iso`] types the intermediates of pair elimination up to the struct-of-arrays
//! isomorphism `[n](T × U) ≅ [n]T × [n]U` (paper §5.2): a projection of an array of
//! pairs is an array of components, an access of a pair of arrays a pair of elements.

use super::ast::{DataRef, IExpr, Index, PathStep, Pred, Term, Ty};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};

/// The type of `t` with free variables typed by `inputs`.
pub fn type_of(t: &Term, inputs: &[(String, Ty)]) -> Result<Ty> {
    check_with(t, inputs, false, &mut |_, _| {})
}

/// [`type_of`] up to the struct-of-arrays isomorphism (see the module docs).
pub fn type_of_iso(t: &Term, inputs: &[(String, Ty)]) -> Result<Ty> {
    check_with(t, inputs, true, &mut |_, _| {})
}

/// Types `t` (up to the isomorphism when `iso`), calling `visit` with every subterm and
/// its type, children before parents.
pub fn check_with(
    t: &Term,
    inputs: &[(String, Ty)],
    iso: bool,
    visit: &mut dyn FnMut(&Term, &Ty),
) -> Result<Ty> {
    let mut c = Checker {
        vals: inputs.to_vec(),
        idx: Vec::new(),
        iso,
        visit,
    };
    c.term(t)
}

/// Whether a type contains `bool` or `int` (the types of data inputs, never of terms).
pub fn is_data_type(t: &Ty) -> bool {
    match t {
        Ty::Num => false,
        Ty::Bool | Ty::Int => true,
        Ty::Pair(a, b) => is_data_type(a) || is_data_type(b),
        Ty::Arr(_, e) => is_data_type(e),
    }
}

/// Whether a type is in struct-of-arrays form: no `[n](T × U)` inside (paper §5.2).
pub fn is_soa(t: &Ty) -> bool {
    match t {
        Ty::Num | Ty::Bool | Ty::Int => true,
        Ty::Pair(a, b) => is_soa(a) && is_soa(b),
        Ty::Arr(_, e) => !matches!(**e, Ty::Pair(..)) && is_soa(e),
    }
}

/// The struct-of-arrays form of a type (`[n](T × U)` ↦ `[n]T × [n]U`, recursively).
pub fn soa(t: &Ty) -> Ty {
    match t {
        Ty::Num | Ty::Bool | Ty::Int => t.clone(),
        Ty::Pair(a, b) => Ty::pair(soa(a), soa(b)),
        Ty::Arr(n, e) => match soa(e) {
            Ty::Pair(a, b) => soa(&Ty::pair(Ty::arr(*n, *a), Ty::arr(*n, *b))),
            e => Ty::arr(*n, e),
        },
    }
}

fn err(kind: ErrorKind, msg: String) -> Diagnostic {
    Diagnostic::new(kind, Span::DUMMY, msg)
}

struct Checker<'v> {
    vals: Vec<(String, Ty)>,
    idx: Vec<String>,
    iso: bool,
    visit: &'v mut dyn FnMut(&Term, &Ty),
}

impl Checker<'_> {
    fn lookup(&self, x: &str) -> Result<&Ty> {
        self.vals
            .iter()
            .rev()
            .find(|(y, _)| y == x)
            .map(|(_, t)| t)
            .ok_or_else(|| err(ErrorKind::Name, format!("unbound variable `{x}`")))
    }

    fn num(&self, what: &str, t: Ty) -> Result<()> {
        if t.is_num() {
            Ok(())
        } else {
            Err(err(
                ErrorKind::Type,
                format!("{what} takes a scalar operand, found `{t}`"),
            ))
        }
    }

    fn term(&mut self, t: &Term) -> Result<Ty> {
        let ty = match t {
            Term::Var(x) => {
                let ty = self.lookup(x)?.clone();
                if is_data_type(&ty) {
                    return Err(err(
                        ErrorKind::Type,
                        format!("the data input `{x}` of type `{ty}` is used as a value"),
                    ));
                }
                ty
            }
            Term::Const(_) => Ty::Num,
            Term::IndexConst(a) => {
                self.index(a)?;
                Ty::Num
            }
            Term::Add(a, b) | Term::Mul(a, b) => {
                let what = if matches!(t, Term::Add(..)) {
                    "`+`"
                } else {
                    "`*`"
                };
                let ta = self.term(a)?;
                self.num(what, ta)?;
                let tb = self.term(b)?;
                self.num(what, tb)?;
                Ty::Num
            }
            Term::Call(f, e) => {
                let te = self.term(e)?;
                self.num(&format!("the black box `{}`", f.name()), te)?;
                Ty::Num
            }
            Term::Pair(a, b) => Ty::pair(self.term(a)?, self.term(b)?),
            Term::Proj(k, e) => {
                let te = self.term(e)?;
                self.proj(*k, &te)?
            }
            Term::Gen(i, n, e) => {
                self.idx.push(i.clone());
                let te = self.term(e);
                self.idx.pop();
                Ty::arr(*n, te?)
            }
            Term::Sum(i, _, e) => {
                self.idx.push(i.clone());
                let te = self.term(e);
                self.idx.pop();
                self.num("`sum`", te?)?;
                Ty::Num
            }
            Term::Access(e, a) => {
                let te = self.term(e)?;
                self.index(a)?;
                self.access(&te)?
            }
            Term::Bracket(p, e) => {
                self.pred(p)?;
                self.term(e)?
            }
            Term::Let(x, e1, e2) => {
                let t1 = self.term(e1)?;
                self.vals.push((x.clone(), t1));
                let t2 = self.term(e2);
                self.vals.pop();
                t2?
            }
        };
        (self.visit)(t, &ty);
        Ok(ty)
    }

    fn proj(&self, k: u8, t: &Ty) -> Result<Ty> {
        match t {
            Ty::Pair(a, b) if k <= 1 => Ok(if k == 0 { (**a).clone() } else { (**b).clone() }),
            Ty::Arr(n, e) if self.iso => Ok(Ty::arr(*n, self.proj(k, e)?)),
            _ => Err(err(
                ErrorKind::Type,
                format!("projection `.{k}` of a value of type `{t}`"),
            )),
        }
    }

    fn access(&self, t: &Ty) -> Result<Ty> {
        match t {
            Ty::Arr(_, e) => Ok((**e).clone()),
            Ty::Pair(a, b) if self.iso => Ok(Ty::pair(self.access(a)?, self.access(b)?)),
            _ => Err(err(
                ErrorKind::Type,
                format!("access of a value of type `{t}`, which is not an array"),
            )),
        }
    }

    fn index(&mut self, a: &Index) -> Result<()> {
        match a {
            Index::Aff(f) => f.terms.keys().try_for_each(|i| self.ivar(i)),
            Index::Opaque(e) => self.iexpr(e),
        }
    }

    fn ivar(&self, i: &str) -> Result<()> {
        if self.idx.iter().any(|j| j == i) {
            Ok(())
        } else {
            Err(err(
                ErrorKind::Name,
                format!("unbound index variable `{i}`"),
            ))
        }
    }

    /// A read `x[a1]…[ak]` of a data input whose elements have type `elem`.
    fn data_read(&mut self, x: &str, idx: &[Index], elem: Ty) -> Result<()> {
        let mut t = self.lookup(x)?.clone();
        for a in idx {
            self.index(a)?;
            t = match t {
                Ty::Arr(_, e) => *e,
                other => {
                    return Err(err(
                        ErrorKind::Type,
                        format!("`{x}` is read at too many indices (found `{other}`)"),
                    ))
                }
            };
        }
        if t == elem {
            Ok(())
        } else {
            Err(err(
                ErrorKind::Type,
                format!(
                    "`{x}` read at {} indices has type `{t}`, expected `{elem}`",
                    idx.len()
                ),
            ))
        }
    }

    fn iexpr(&mut self, e: &IExpr) -> Result<()> {
        match e {
            IExpr::Var(i) => self.ivar(i),
            IExpr::Const(_) => Ok(()),
            IExpr::Add(a, b)
            | IExpr::Mul(a, b)
            | IExpr::Div(a, b)
            | IExpr::Mod(a, b)
            | IExpr::Min(a, b)
            | IExpr::Max(a, b) => {
                self.iexpr(a)?;
                self.iexpr(b)
            }
            IExpr::Neg(a) | IExpr::Abs(a) => self.iexpr(a),
            IExpr::Read(x, idx) => self.data_read(x, idx, Ty::Int),
            IExpr::Floor(d) => self.data(d),
            IExpr::Cond(p, a, b) => {
                self.pred(p)?;
                self.iexpr(a)?;
                self.iexpr(b)
            }
        }
    }

    fn data(&mut self, d: &DataRef) -> Result<()> {
        let DataRef::Read(x, path) = d else {
            return Ok(());
        };
        let mut t = self.lookup(x)?.clone();
        for s in path {
            t = match (s, t) {
                (PathStep::Proj(k), Ty::Pair(a, b)) if *k <= 1 => {
                    if *k == 0 {
                        *a
                    } else {
                        *b
                    }
                }
                (PathStep::At(a), Ty::Arr(_, e)) => {
                    self.index(a)?;
                    *e
                }
                (_, other) => {
                    return Err(err(
                        ErrorKind::Type,
                        format!("the data read of `{x}` does not fit its type (at `{other}`)"),
                    ))
                }
            };
        }
        if t.is_num() {
            Ok(())
        } else {
            Err(err(
                ErrorKind::Type,
                format!("a data predicate reads `{x}` at type `{t}`, expected `num`"),
            ))
        }
    }

    fn pred(&mut self, p: &Pred) -> Result<()> {
        match p {
            Pred::True | Pred::False => Ok(()),
            Pred::Cmp(_, a, b) => {
                self.index(a)?;
                self.index(b)
            }
            Pred::Rel(x, idx) => self.data_read(x, idx, Ty::Bool),
            Pred::Data(_, a, b) => {
                self.data(a)?;
                self.data(b)
            }
            Pred::And(a, b) | Pred::Or(a, b) => {
                self.pred(a)?;
                self.pred(b)
            }
            Pred::Not(a) => self.pred(a),
            Pred::Exists(i, _, q) => {
                self.idx.push(i.clone());
                let r = self.pred(q);
                self.idx.pop();
                r
            }
        }
    }
}
