//! Simple types of the pullback calculus (Mak and Ong, A Differential-form Pullback
//! Programming Language for Higher-order Reverse-mode AD, §3.1, Fig. 2; reconstructed:
//! docs/engines/pullback.md, "Types"):
//!
//! ```text
//! x : Γ(x)      r : R      f : Rⁿ -> R      \x. s : σ -> τ      s P : τ  (s : σ -> τ, P : σ)
//! (s, t) : (σ, τ)      s.i : σi      0 : σ (any σ)      s + P : σ  (both σ)
//! J(s, t) : σ -> τ          (s : σ -> τ, t : σ)
//! dual(s, t) : dual σ       (s : σ -> τ, t : dual τ)
//! pb(s, t) : σ -> dual σ    (s : σ -> τ, t : τ -> dual τ)
//! let x = s in t : τ        (x : σ in t, s : σ)
//! ```
//!
//! An abstraction without annotation gets its parameter type by unification; `dual σ` is
//! convertible to `σ -> R` (a `dual σ` term may be applied to a `σ`). Type variables left
//! open at the end (`\x. x`) are taken to be `R`. A free variable not in the environment
//! gets a type by unification too (one per variable). Errors are `type` diagnostics at
//! the span of the offending subterm.

use crate::syntax::{Term, TermKind, Ty, Var};
use adora_core::diag::{Diagnostic, ErrorKind, Span};
use std::collections::HashMap;

/// A type with unification variables.
#[derive(Clone, Debug, PartialEq)]
enum T {
    Real,
    Pair(Box<T>, Box<T>),
    Fun(Box<T>, Box<T>),
    Dual(Box<T>),
    Meta(usize),
}

fn fun(a: T, b: T) -> T {
    T::Fun(Box::new(a), Box::new(b))
}

impl T {
    fn of(t: &Ty) -> T {
        match t {
            Ty::Real => T::Real,
            Ty::Pair(a, b) => T::Pair(Box::new(T::of(a)), Box::new(T::of(b))),
            Ty::Fun(a, b) => fun(T::of(a), T::of(b)),
            Ty::Dual(a) => T::Dual(Box::new(T::of(a))),
        }
    }
}

/// Unification state and the variables in scope.
struct Infer {
    metas: Vec<Option<T>>,
    scope: Vec<(Var, T)>,
    free: HashMap<Var, T>,
}

/// The type of `t` with the free variables of `env` typed as given.
pub fn infer(t: &Term, env: &[(Var, Ty)]) -> Result<Ty, Diagnostic> {
    let mut st = Infer {
        metas: Vec::new(),
        scope: env.iter().map(|(v, ty)| (v.clone(), T::of(ty))).collect(),
        free: HashMap::new(),
    };
    let ty = st.term(t)?;
    Ok(st.finish(&ty))
}

impl Infer {
    fn meta(&mut self) -> T {
        self.metas.push(None);
        T::Meta(self.metas.len() - 1)
    }

    /// Follows bound unification variables at the root.
    fn walk(&self, t: &T) -> T {
        let mut t = t.clone();
        while let T::Meta(m) = t {
            match &self.metas[m] {
                Some(u) => t = u.clone(),
                None => break,
            }
        }
        t
    }

    /// The type with every bound variable replaced; open ones become `R`.
    fn finish(&self, t: &T) -> Ty {
        match self.walk(t) {
            T::Real | T::Meta(_) => Ty::Real,
            T::Pair(a, b) => Ty::pair(self.finish(&a), self.finish(&b)),
            T::Fun(a, b) => Ty::fun(self.finish(&a), self.finish(&b)),
            T::Dual(a) => Ty::Dual(Box::new(self.finish(&a))),
        }
    }

    /// The type for messages (`?` for open variables).
    fn show(&self, t: &T) -> String {
        match self.walk(t) {
            T::Real => "R".into(),
            T::Meta(_) => "?".into(),
            T::Pair(a, b) => format!("({}, {})", self.show(&a), self.show(&b)),
            T::Fun(a, b) => {
                let a_s = self.show(&a);
                let a_s = if matches!(self.walk(&a), T::Fun(..)) {
                    format!("({a_s})")
                } else {
                    a_s
                };
                format!("{a_s} -> {}", self.show(&b))
            }
            T::Dual(a) => match self.walk(&a) {
                T::Fun(..) | T::Dual(_) => format!("dual ({})", self.show(&a)),
                _ => format!("dual {}", self.show(&a)),
            },
        }
    }

    fn occurs(&self, m: usize, t: &T) -> bool {
        match self.walk(t) {
            T::Meta(n) => n == m,
            T::Real => false,
            T::Pair(a, b) | T::Fun(a, b) => self.occurs(m, &a) || self.occurs(m, &b),
            T::Dual(a) => self.occurs(m, &a),
        }
    }

    /// Unifies; `false` on a mismatch. `dual σ` unifies with `σ -> R`.
    fn unify(&mut self, a: &T, b: &T) -> bool {
        let (a, b) = (self.walk(a), self.walk(b));
        match (&a, &b) {
            (T::Meta(m), T::Meta(n)) if m == n => true,
            (T::Meta(m), t) | (t, T::Meta(m)) => {
                if self.occurs(*m, t) {
                    return false;
                }
                self.metas[*m] = Some(t.clone());
                true
            }
            (T::Real, T::Real) => true,
            (T::Pair(a1, b1), T::Pair(a2, b2)) | (T::Fun(a1, b1), T::Fun(a2, b2)) => {
                self.unify(a1, a2) && self.unify(b1, b2)
            }
            (T::Dual(a1), T::Dual(a2)) => self.unify(a1, a2),
            (T::Dual(s), T::Fun(a2, r)) | (T::Fun(a2, r), T::Dual(s)) => {
                self.unify(s, a2) && self.unify(r, &T::Real)
            }
            _ => false,
        }
    }

    /// Unifies `found` (the type of the term at `span`) with `expected`, or fails there.
    fn expect(
        &mut self,
        span: Span,
        found: &T,
        expected: &T,
        what: &str,
    ) -> Result<(), Diagnostic> {
        if self.unify(found, expected) {
            return Ok(());
        }
        Err(Diagnostic::new(
            ErrorKind::Type,
            span,
            format!(
                "type mismatch: {what} should have type {}, but it has type {}",
                self.show(expected),
                self.show(found)
            ),
        ))
    }

    fn term(&mut self, t: &Term) -> Result<T, Diagnostic> {
        Ok(match &t.kind {
            TermKind::Var(x) => {
                if let Some((_, ty)) = self.scope.iter().rev().find(|(v, _)| v == x) {
                    ty.clone()
                } else if let Some(ty) = self.free.get(x) {
                    ty.clone()
                } else {
                    let m = self.meta();
                    self.free.insert(x.clone(), m.clone());
                    m
                }
            }
            TermKind::Num(_) => T::Real,
            TermKind::Fn(f) => T::of(&f.ty()),
            TermKind::Zero => self.meta(),
            TermKind::Lam(x, ann, body) => {
                let a = match ann {
                    Some(ty) => T::of(ty),
                    None => self.meta(),
                };
                self.scope.push((x.clone(), a.clone()));
                let b = self.term(body);
                self.scope.pop();
                fun(a, b?)
            }
            TermKind::Let(x, s, body) => {
                let a = self.term(s)?;
                self.scope.push((x.clone(), a));
                let b = self.term(body);
                self.scope.pop();
                b?
            }
            TermKind::App(f, arg) => {
                let tf = self.term(f)?;
                let ta = self.term(arg)?;
                let (dom, res) = match self.walk(&tf) {
                    T::Fun(a, b) => (*a, *b),
                    T::Dual(a) => (*a, T::Real),
                    m @ T::Meta(_) => {
                        let (d, r) = (self.meta(), self.meta());
                        self.unify(&m, &fun(d.clone(), r.clone()));
                        (d, r)
                    }
                    other => {
                        return Err(Diagnostic::new(
                            ErrorKind::Type,
                            f.span,
                            format!(
                                "this is applied to an argument but has type {}, not a function or dual type",
                                self.show(&other)
                            ),
                        ))
                    }
                };
                self.expect(arg.span, &ta, &dom, "the argument")?;
                res
            }
            TermKind::Pair(a, b) => T::Pair(Box::new(self.term(a)?), Box::new(self.term(b)?)),
            TermKind::Proj(s, second) => {
                let ts = self.term(s)?;
                let (a, b) = (self.meta(), self.meta());
                let pair = T::Pair(Box::new(a.clone()), Box::new(b.clone()));
                self.expect(s.span, &ts, &pair, "a projected term")?;
                if *second {
                    b
                } else {
                    a
                }
            }
            TermKind::Sum(items) => {
                let first = self.term(&items[0])?;
                for s in &items[1..] {
                    let ts = self.term(s)?;
                    self.expect(s.span, &ts, &first, "a summand (all summands share a type)")?;
                }
                first
            }
            TermKind::Jac(s, u) => {
                let (a, b) = (self.meta(), self.meta());
                let f = fun(a.clone(), b);
                let ts = self.term(s)?;
                self.expect(s.span, &ts, &f, "the first argument of `J`")?;
                let tu = self.term(u)?;
                self.expect(u.span, &tu, &a, "the direction of `J`")?;
                f
            }
            TermKind::Dual(s, u) => {
                let (a, b) = (self.meta(), self.meta());
                let ts = self.term(s)?;
                self.expect(
                    s.span,
                    &ts,
                    &fun(a.clone(), b.clone()),
                    "the first argument of `dual`",
                )?;
                let tu = self.term(u)?;
                self.expect(
                    u.span,
                    &tu,
                    &T::Dual(Box::new(b)),
                    "the functional of `dual`",
                )?;
                T::Dual(Box::new(a))
            }
            TermKind::Pb(s, u) => {
                let (a, b) = (self.meta(), self.meta());
                let ts = self.term(s)?;
                self.expect(
                    s.span,
                    &ts,
                    &fun(a.clone(), b.clone()),
                    "the first argument of `pb`",
                )?;
                let tu = self.term(u)?;
                let form = fun(b.clone(), T::Dual(Box::new(b)));
                self.expect(u.span, &tu, &form, "the 1-form of `pb`")?;
                fun(a.clone(), T::Dual(Box::new(a)))
            }
        })
    }
}
