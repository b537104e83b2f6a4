//! The evaluator of tensor-language terms, rules 4.1–4.12 (paper §4.1;
//! docs/engines/tssa-language.md, "Evaluation"), as an evaluation context [`Ctx`] that
//! other interpreters (the cost model `C`) drive node by node.
//!
//! | rule | term | value |
//! |---|---|---|
//! | 4.1 | `x` | the bound value |
//! | 4.2 | `c` | `c` (and `#a`, E2: the value of `a`) |
//! | 4.3, 4.4 | `e1 + e2`, `e1 * e2` | on numbers |
//! | 4.5 | `f(e)` | the black box ([`super::blackbox`]) |
//! | 4.6, 4.7 | `(e1, e2)`, `e.k` | pairs; `.k` of an array of pairs is elementwise (§5.2) |
//! | 4.8 | `[p] e` | `e` if `p`, else the zero of `e`'s type (`e` not evaluated) |
//! | 4.9 | `let x = e1 in e2` | `e2` with `x` bound to `e1` |
//! | 4.10, 4.11 | `gen i:n. e`, `sum i:n. e` | array, sum over `i < n` (`0` for `n = 0`) |
//! | 4.12 | `e[a]` | the element; out of bounds the zero of the element type (host convention); an access of a pair of arrays is the pair of accesses (§5.2) |
//!
//! Predicates and index expressions (rules 4.13–4.21) are in [`super::pred`]. Before
//! evaluating, the context types the root term (up to the struct-of-arrays isomorphism),
//! so zeros of brackets and out-of-bounds accesses have their static type even where
//! an array is empty.

use super::blackbox::apply;
use super::value::{TlEnv, TlValue};
use crate::scalar::Scalar;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::tl::{types::check_with, Index, PathStep, Term, Ty};
use std::collections::HashMap;

/// The most evaluation steps (terms, predicate nodes) one evaluation may take.
pub const MAX_STEPS: u64 = 200_000_000;

/// An evaluation context: the scopes of value and index variables and the static types
/// of the root term's brackets and accesses.
pub struct Ctx<S> {
    pub(crate) vals: Vec<(String, TlValue<S>)>,
    pub(crate) idx: Vec<(String, i64)>,
    types: HashMap<*const Term, Ty>,
    steps: u64,
}

pub(crate) fn internal(msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(ErrorKind::Internal, Span::DUMMY, msg)
}

/// A step of an access path, with the index already evaluated.
enum Step<'t> {
    Proj(u8),
    At(i64, &'t Term),
}

/// A value being navigated: borrowed from a scope or owned.
enum Cur<'a, S> {
    Ref(&'a TlValue<S>),
    Own(TlValue<S>),
}

impl<S: Scalar> Ctx<S> {
    /// A context for evaluating subterms of `root` under `env`: types `root` (an
    /// ill-typed term is reported as `ErrorKind::Type` or `ErrorKind::Name`).
    pub fn new(root: &Term, env: &TlEnv<S>) -> Result<Ctx<S>> {
        let mut types = HashMap::new();
        check_with(root, &env.types(), true, &mut |t, ty| {
            if matches!(t, Term::Access(..) | Term::Bracket(..)) {
                types.insert(t as *const Term, ty.clone());
            }
        })?;
        Ok(Ctx {
            vals: env
                .vals
                .iter()
                .map(|(x, _, v)| (x.clone(), v.clone()))
                .collect(),
            idx: Vec::new(),
            types,
            steps: 0,
        })
    }

    /// Counts one evaluation step (a `Resource` error past [`MAX_STEPS`]).
    pub(crate) fn step(&mut self) -> Result<()> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(Diagnostic::new(
                ErrorKind::Resource,
                Span::DUMMY,
                format!("tensor-language evaluation exceeded {MAX_STEPS} steps"),
            ));
        }
        Ok(())
    }

    /// Binds the index variable `i` to `k` (innermost scope).
    pub fn push_index(&mut self, i: &str, k: i64) {
        self.idx.push((i.to_string(), k));
    }

    /// Removes the innermost index binding.
    pub fn pop_index(&mut self) {
        self.idx.pop();
    }

    /// Binds the value variable `x` to `v` (innermost scope).
    pub fn push_value(&mut self, x: &str, v: TlValue<S>) {
        self.vals.push((x.to_string(), v));
    }

    /// Removes the innermost value binding.
    pub fn pop_value(&mut self) {
        self.vals.pop();
    }

    /// The value bound to `x`.
    pub fn lookup(&self, x: &str) -> Result<&TlValue<S>> {
        self.vals
            .iter()
            .rev()
            .find(|(y, _)| y == x)
            .map(|(_, v)| v)
            .ok_or_else(|| internal(format!("unbound variable `{x}` during evaluation")))
    }

    /// The zero of the static type of a bracket or access node of the root term.
    pub fn zero_of_node(&self, t: &Term) -> Result<TlValue<S>> {
        self.types
            .get(&(t as *const Term))
            .map(TlValue::zero_of)
            .ok_or_else(|| internal("a subterm outside the typed root term"))
    }

    /// Evaluates a subterm of the root term.
    pub fn eval(&mut self, t: &Term) -> Result<TlValue<S>> {
        self.step()?;
        match t {
            Term::Var(x) => Ok(self.lookup(x)?.clone()),
            Term::Const(c) => Ok(TlValue::Num(S::from_rational(c))),
            Term::IndexConst(a) => Ok(TlValue::Num(S::from_i64(self.index(a)?))),
            Term::Add(a, b) | Term::Mul(a, b) => {
                let x = self.num(a)?;
                let y = self.num(b)?;
                Ok(TlValue::Num(if matches!(t, Term::Add(..)) {
                    x.add(&y)
                } else {
                    x.mul(&y)
                }))
            }
            Term::Call(f, e) => {
                let x = self.num(e)?;
                apply(*f, &x)
                    .map(TlValue::Num)
                    .map_err(|e| Diagnostic::new(ErrorKind::NonRational, Span::DUMMY, e.message()))
            }
            Term::Pair(a, b) => Ok(TlValue::pair(self.eval(a)?, self.eval(b)?)),
            Term::Proj(..) | Term::Access(..) => self.path(t),
            Term::Gen(i, n, e) => {
                let mut out = Vec::with_capacity(*n as usize);
                for k in 0..*n as i64 {
                    self.push_index(i, k);
                    let v = self.eval(e);
                    self.pop_index();
                    out.push(v?);
                }
                Ok(TlValue::Arr(out))
            }
            Term::Sum(i, n, e) => {
                let mut acc = S::zero();
                for k in 0..*n as i64 {
                    self.push_index(i, k);
                    let v = self.num(e);
                    self.pop_index();
                    acc.add_assign(&v?);
                }
                Ok(TlValue::Num(acc))
            }
            Term::Bracket(p, e) => {
                if self.holds(p)? {
                    self.eval(e)
                } else {
                    self.zero_of_node(t)
                }
            }
            Term::Let(x, e1, e2) => {
                let v = self.eval(e1)?;
                self.push_value(x, v);
                let r = self.eval(e2);
                self.pop_value();
                r
            }
        }
    }

    /// Evaluates a subterm that must be a number.
    pub fn num(&mut self, t: &Term) -> Result<S> {
        match self.eval(t)? {
            TlValue::Num(x) => Ok(x),
            v => Err(internal(format!(
                "expected a number, found `{v}` evaluating `{t}`"
            ))),
        }
    }

    /// Projections and accesses: the path is navigated from its root without copying
    /// the root's arrays.
    fn path(&mut self, t: &Term) -> Result<TlValue<S>> {
        let mut steps = Vec::new();
        let mut root = t;
        loop {
            match root {
                Term::Proj(k, e) => {
                    steps.push(Step::Proj(*k));
                    root = e;
                }
                Term::Access(e, a) => {
                    steps.push(Step::At(self.index(a)?, root));
                    root = e;
                }
                _ => break,
            }
        }
        steps.reverse();
        let owned;
        let mut cur = match root {
            Term::Var(x) => Cur::Ref(self.lookup(x)?),
            _ => {
                owned = self.eval(root)?;
                Cur::Ref(&owned)
            }
        };
        for s in &steps {
            cur = self.navigate(cur, s)?;
        }
        Ok(match cur {
            Cur::Ref(v) => v.clone(),
            Cur::Own(v) => v,
        })
    }

    fn navigate<'a>(&self, cur: Cur<'a, S>, s: &Step) -> Result<Cur<'a, S>> {
        let v = match &cur {
            Cur::Ref(v) => *v,
            Cur::Own(v) => v,
        };
        match (s, v) {
            (Step::Proj(k), TlValue::Pair(..)) => Ok(match cur {
                Cur::Ref(TlValue::Pair(a, b)) => Cur::Ref(if *k == 0 { a } else { b }),
                Cur::Own(TlValue::Pair(a, b)) => Cur::Own(if *k == 0 { *a } else { *b }),
                _ => unreachable!("matched a pair above"),
            }),
            (Step::Proj(k), TlValue::Arr(_)) => Ok(Cur::Own(project_all(v, *k)?)),
            (Step::At(k, node), TlValue::Arr(es)) => {
                if *k < 0 || *k as usize >= es.len() {
                    return Ok(Cur::Own(self.zero_of_node(node)?));
                }
                Ok(match cur {
                    Cur::Ref(TlValue::Arr(es)) => Cur::Ref(&es[*k as usize]),
                    Cur::Own(TlValue::Arr(mut es)) => Cur::Own(es.swap_remove(*k as usize)),
                    _ => unreachable!("matched an array above"),
                })
            }
            (Step::At(k, node), TlValue::Pair(..)) => match access_pair(v, *k)? {
                Some(x) => Ok(Cur::Own(x)),
                None => Ok(Cur::Own(self.zero_of_node(node)?)),
            },
            (Step::Proj(k), other) => Err(internal(format!("projection `.{k}` of `{other}`"))),
            (Step::At(..), other) => Err(internal(format!("access of `{other}`"))),
        }
    }

    /// The number `x.k[a]…` (a data path, E1, which the typing makes end at a number);
    /// a read out of bounds anywhere along the path is `0`.
    pub fn read_path(&mut self, x: &str, path: &[PathStep]) -> Result<TlValue<S>> {
        let idx: Vec<Option<i64>> = path
            .iter()
            .map(|s| match s {
                PathStep::At(a) => self.index(a).map(Some),
                PathStep::Proj(_) => Ok(None),
            })
            .collect::<Result<_>>()?;
        let mut v = self.lookup(x)?;
        for (s, k) in path.iter().zip(idx) {
            v = match (s, v, k) {
                (PathStep::Proj(j), TlValue::Pair(a, b), _) => {
                    if *j == 0 {
                        a
                    } else {
                        b
                    }
                }
                (PathStep::At(_), TlValue::Arr(es), Some(k)) => {
                    match usize::try_from(k).ok().and_then(|k| es.get(k)) {
                        Some(e) => e,
                        None => return Ok(TlValue::Num(S::zero())),
                    }
                }
                _ => {
                    return Err(internal(format!(
                        "the data read `{x}` does not fit its value"
                    )))
                }
            };
        }
        Ok(v.clone())
    }

    /// The value of the index variable `i`.
    pub fn ivar(&self, i: &str) -> Result<i64> {
        self.idx
            .iter()
            .rev()
            .find(|(j, _)| j == i)
            .map(|(_, k)| *k)
            .ok_or_else(|| internal(format!("unbound index variable `{i}` during evaluation")))
    }

    /// Evaluates an index expression (rules 4.18–4.21 and E3).
    pub fn index(&mut self, a: &Index) -> Result<i64> {
        match a {
            Index::Aff(f) => {
                let idx = &self.idx;
                f.eval(|i| idx.iter().rev().find(|(j, _)| j == i).map(|(_, k)| *k))
                    .ok_or_else(|| overflow_or_unbound(f.terms.keys()))
            }
            Index::Opaque(e) => self.iexpr(e),
        }
    }
}

fn overflow_or_unbound<'a>(mut names: impl Iterator<Item = &'a String>) -> Diagnostic {
    let first = names.next().cloned().unwrap_or_default();
    Diagnostic::new(
        ErrorKind::Runtime,
        Span::DUMMY,
        format!("index arithmetic overflows or `{first}` is unbound"),
    )
}

/// `.k` of an array of pairs (of arrays of pairs, …): elementwise (paper §5.2).
fn project_all<S: Scalar>(v: &TlValue<S>, k: u8) -> Result<TlValue<S>> {
    match v {
        TlValue::Pair(a, b) => Ok(if k == 0 { (**a).clone() } else { (**b).clone() }),
        TlValue::Arr(es) => Ok(TlValue::Arr(
            es.iter()
                .map(|e| project_all(e, k))
                .collect::<Result<_>>()?,
        )),
        other => Err(internal(format!("projection `.{k}` of `{other}`"))),
    }
}

/// `(a, b)[k] = (a[k], b[k])` on a pair of arrays (paper §5.2); `None` out of bounds.
fn access_pair<S: Scalar>(v: &TlValue<S>, k: i64) -> Result<Option<TlValue<S>>> {
    match v {
        TlValue::Pair(a, b) => Ok(match (access_pair(a, k)?, access_pair(b, k)?) {
            (Some(x), Some(y)) => Some(TlValue::pair(x, y)),
            _ => None,
        }),
        TlValue::Arr(es) => Ok(usize::try_from(k).ok().and_then(|k| es.get(k)).cloned()),
        other => Err(internal(format!("access of `{other}`"))),
    }
}
