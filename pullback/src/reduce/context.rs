//! Evaluation contexts and the unique decomposition of Lemma 3.6 (Mak and Ong, *A
//! Differential-form Pullback Programming Language for Higher-order Reverse-mode AD*,
//! §3.4; the context grammar is reconstructed, docs/engines/pullback-reduction.md,
//! "Strategy").
//!
//! | frame | context | note |
//! |---|---|---|
//! | `AppL`, `AppR` | `E P`, `v E` | call by value, function first |
//! | `LetB` | `let x = E in s` | `(\x. s) E`; carries the pending substitution of the let spine |
//! | `PairL`, `PairR` | `(E, s)`, `(v, E)` | |
//! | `Proj` | `E.i` | |
//! | `SumAt` | `v + … + E + P` | left to right |
//! | `JacL`, `JacR`, `DualL`, `DualR`, `PbL`, `PbR` | `J(E, s)`, `J(v, E)`, … | paper: "extended with duals and pullbacks" |
//! | `DualLam` | `dual(\w. E, s)` | the linear map of a dual is reduced under its binder (our decision: the Jacobian of P's right side is computed there) |
//! | `DualLamP` | `dual(\w. E, ω s)` | the same context as P leaves it, `ω` known to be a value (the machine does not re-check it) |
//!
//! The A-context `pb(\x. A, t)` is realised by rule A3 at the root of `pb(\x. s, t)`
//! ([`root_rule`]). [`root_rule`] says which rule applies at the root of a term whose
//! evaluated subterms are values; the value set ([`super::is_value`]) is its complement,
//! so every term is a value or exactly one `E[r]`.

use super::subst::Env;
use super::values::{is_value, is_zero_value, normalize_linear, numeric_arg};
use super::{jacobian, Rule};
use crate::anf;
use crate::syntax::{Term, TermKind, Ty, Var};

/// One frame of an evaluation context (innermost last in a [`Context`]).
#[derive(Clone, Debug)]
pub enum Frame {
    /// `[] s`
    AppL(Term),
    /// `v []`
    AppR(Term),
    /// `let x = [] in s`, with the pending substitution of `s`.
    LetB(Var, Term, Env),
    /// `([], s)`
    PairL(Term),
    /// `(v, [])`
    PairR(Term),
    /// `[].i`
    Proj(bool),
    /// `v1 + … + [] + s…`: the values before the hole and the terms after it.
    SumAt(Vec<Term>, Vec<Term>),
    /// `J([], s)`
    JacL(Term),
    /// `J(v, [])`
    JacR(Term),
    /// `dual([], s)`
    DualL(Term),
    /// `dual(v, [])`
    DualR(Term),
    /// `dual(\w. [], s)`
    DualLam(Var, Option<Ty>, Term),
    /// `pb([], s)`
    PbL(Term),
    /// `pb(v, [])`
    PbR(Term),
    /// `dual(\w. [], ω s)` as rule P leaves it: `ω` was a value in P's redex, so the
    /// machine resumes into `s` without checking `ω` again (the same context as
    /// `DualLam`; only `Machine::eval` builds it).
    DualLamP(Var, Option<Ty>, Term, Term),
}

/// An evaluation context: frames from the root inwards.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// The frames, outermost first.
    pub frames: Vec<Frame>,
}

impl Frame {
    /// The term with `t` in the hole (a `LetB` frame applies its pending substitution).
    pub fn plug(self, t: Term, fresh: &mut crate::syntax::Fresh) -> Term {
        match self {
            Frame::AppL(s) => Term::app(t, s),
            Frame::AppR(v) => Term::app(v, t),
            Frame::LetB(x, s, mut env) => Term::let_(&x, t, env.apply(&s, fresh)),
            Frame::PairL(s) => Term::pair(t, s),
            Frame::PairR(v) => Term::pair(v, t),
            Frame::Proj(i) => Term::proj(t, i),
            Frame::SumAt(mut done, rest) => {
                done.push(t);
                done.extend(rest);
                Term::new(TermKind::Sum(done))
            }
            Frame::JacL(s) => Term::jac(t, s),
            Frame::JacR(v) => Term::jac(v, t),
            Frame::DualL(s) => Term::dual(t, s),
            Frame::DualR(v) => Term::dual(v, t),
            Frame::DualLam(w, ty, s) => Term::dual(Term::new(TermKind::Lam(w, ty, Box::new(t))), s),
            Frame::PbL(s) => Term::pb(t, s),
            Frame::PbR(v) => Term::pb(v, t),
            Frame::DualLamP(w, ty, omega, s) => Term::dual(
                Term::new(TermKind::Lam(w, ty, Box::new(t))),
                Term::app(omega, s),
            ),
        }
    }
}

/// Like [`enter`] on `frame` plugged with the value `v`, for a frame popped by the machine:
/// the subterms left of the hole are known to be values, so they are not checked again
/// (this keeps a long pending chain of pullbacks from being re-traversed at every step).
pub(crate) fn resume(
    frame: Frame,
    v: Term,
    fresh: &mut crate::syntax::Fresh,
) -> Result<(Frame, Term), Term> {
    let next = |s: Term, right: fn(Term) -> Frame, v: Term, k: fn(Term, Term) -> Term| {
        if is_value(&s) {
            Err(k(v, s))
        } else {
            Ok((right(v), s))
        }
    };
    match frame {
        Frame::AppR(f) => Err(Term::app(f, v)),
        Frame::PairR(a) => Err(Term::pair(a, v)),
        Frame::JacR(a) => Err(Term::jac(a, v)),
        Frame::DualR(a) => Err(Term::dual(a, v)),
        Frame::PbR(a) => Err(Term::pb(a, v)),
        Frame::Proj(i) => Err(Term::proj(v, i)),
        Frame::AppL(s) => next(s, Frame::AppR, v, Term::app),
        Frame::PairL(s) => next(s, Frame::PairR, v, Term::pair),
        Frame::JacL(s) => next(s, Frame::JacR, v, Term::jac),
        Frame::PbL(s) => next(s, Frame::PbR, v, Term::pb),
        other => enter(other.plug(v, fresh)),
    }
}

impl Context {
    /// `E[t]`.
    pub fn plug(&self, t: Term, fresh: &mut crate::syntax::Fresh) -> Term {
        self.frames
            .iter()
            .rev()
            .fold(t, |acc, f| f.clone().plug(acc, fresh))
    }
}

/// The first frame to enter when reducing `t`, or `Err(t)` when all of `t`'s evaluated
/// subterms are values (then `t` is a redex or a value: [`root_rule`]).
pub(crate) fn enter(t: Term) -> Result<(Frame, Term), Term> {
    let span = t.span;
    match t.kind {
        TermKind::App(a, b) => {
            if !is_value(&a) {
                Ok((Frame::AppL(*b), *a))
            } else if !is_value(&b) {
                Ok((Frame::AppR(*a), *b))
            } else {
                Err(Term {
                    kind: TermKind::App(a, b),
                    span,
                })
            }
        }
        TermKind::Let(x, s, b) => {
            if !is_value(&s) {
                Ok((Frame::LetB(x, *b, Env::default()), *s))
            } else {
                Err(Term {
                    kind: TermKind::Let(x, s, b),
                    span,
                })
            }
        }
        TermKind::Pair(a, b) => two(a, b, span, Frame::PairL, Frame::PairR, TermKind::Pair),
        TermKind::Jac(a, b) => two(a, b, span, Frame::JacL, Frame::JacR, TermKind::Jac),
        TermKind::Pb(a, b) => two(a, b, span, Frame::PbL, Frame::PbR, TermKind::Pb),
        TermKind::Dual(a, b) => {
            if !is_value(&a) {
                return Ok((Frame::DualL(*b), *a));
            }
            if let TermKind::Lam(w, ty, body) = a.kind {
                if !is_value(&body) {
                    return Ok((Frame::DualLam(w, ty, *b), *body));
                }
                let a = Box::new(Term::new(TermKind::Lam(w, ty, body)));
                return two(a, b, span, Frame::DualL, Frame::DualR, TermKind::Dual);
            }
            two(a, b, span, Frame::DualL, Frame::DualR, TermKind::Dual)
        }
        TermKind::Proj(s, i) => {
            if !is_value(&s) {
                Ok((Frame::Proj(i), *s))
            } else {
                Err(Term {
                    kind: TermKind::Proj(s, i),
                    span,
                })
            }
        }
        TermKind::Sum(mut ts) => match ts.iter().position(|s| !is_value(s)) {
            Some(k) => {
                let rest = ts.split_off(k + 1);
                let hole = ts.pop().expect("the position exists");
                Ok((Frame::SumAt(ts, rest), hole))
            }
            None => Err(Term {
                kind: TermKind::Sum(ts),
                span,
            }),
        },
        kind => Err(Term { kind, span }),
    }
}

fn two(
    a: Box<Term>,
    b: Box<Term>,
    span: adora_core::diag::Span,
    left: fn(Term) -> Frame,
    right: fn(Term) -> Frame,
    k: fn(Box<Term>, Box<Term>) -> TermKind,
) -> Result<(Frame, Term), Term> {
    if !is_value(&a) {
        Ok((left(*b), *a))
    } else if !is_value(&b) {
        Ok((right(*a), *b))
    } else {
        Err(Term {
            kind: k(a, b),
            span,
        })
    }
}

/// The unique decomposition `t = E[r]` (Lemma 3.6), or `None` when `t` is a value.
pub fn decompose(t: &Term) -> Option<(Context, Term)> {
    let mut ctx = Context::default();
    let mut focus = t.clone();
    loop {
        match enter(focus) {
            Ok((frame, child)) => {
                ctx.frames.push(frame);
                focus = child;
            }
            Err(node) => {
                return root_rule(&node).map(|_| (ctx, node));
            }
        }
    }
}

/// Whether the Jacobian application `J(a, e) w` reduces: `a` is a symbol, an abstraction, a
/// pullback, or a Jacobian of one of these (`J(J(\y. s, d), e) w`; rule 17).
fn jacobian_head_unfolds(a: &Term) -> bool {
    match &a.kind {
        TermKind::Fn(_) | TermKind::Lam(..) | TermKind::Pb(..) => true,
        TermKind::Jac(b, _) => jacobian_head_unfolds(b),
        _ => false,
    }
}

/// The rule that applies at the root of `t`, assuming its evaluated subterms are values.
pub fn root_rule(t: &Term) -> Option<Rule> {
    use TermKind as K;
    match &t.kind {
        K::Let(..) => Some(Rule::R1),
        K::App(f, a) => match &f.kind {
            K::Lam(..) => Some(Rule::R1),
            K::Sum(_) | K::Zero => Some(Rule::R4),
            K::Fn(g) => numeric_arg(*g, a).map(|_| Rule::R3),
            K::Jac(s, w) => match &s.kind {
                K::Fn(_) => Some(Rule::R3),
                K::Lam(x, _, body) => jacobian::rule(x, body, w, a),
                K::Pb(..) => Some(Rule::R17),
                K::Sum(_) => Some(Rule::R4),
                // Only an inner Jacobian whose premise can make progress (a free variable
                // there is value 1 and stays stuck), also through Jacobians of Jacobians.
                K::Jac(a, _) if jacobian_head_unfolds(a) => Some(Rule::R17),
                _ => None,
            },
            K::Pb(..) => Some(Rule::P),
            K::Dual(..) => Some(Rule::R5),
            _ => None,
        },
        K::Proj(s, _) => match &s.kind {
            K::Pair(..) => Some(Rule::R2),
            K::Sum(_) | K::Zero => Some(Rule::R4),
            _ => None,
        },
        K::Sum(ts) => {
            let nums = ts.iter().filter(|s| matches!(s.kind, K::Num(_))).count();
            let pairs = ts.iter().filter(|s| matches!(s.kind, K::Pair(..))).count();
            // A summand that is itself a sum or zero (left by a step inside the sum) is
            // flattened by rule 4 too, so values are canonical sums.
            let nested = ts.iter().any(|s| matches!(s.kind, K::Sum(_) | K::Zero));
            (nums >= 2 || pairs >= 2 || nested).then_some(Rule::R4)
        }
        K::Jac(s, d) => (is_zero_value(d) && !matches!(d.kind, K::Num(_))
            || matches!(s.kind, K::Zero))
        .then_some(Rule::R9p),
        K::Dual(s, d) => match (&s.kind, &d.kind) {
            (_, K::Zero) => Some(Rule::R9p),
            (K::Lam(..), K::Lam(_, _, body)) => {
                if !is_value(body) || !normalize_linear((**body).clone()).alpha_eq(body) {
                    Some(Rule::Covec)
                } else {
                    Some(Rule::R5)
                }
            }
            (K::Lam(..), K::Dual(s2, d2))
                if matches!(s2.kind, K::Lam(..)) && !matches!(d2.kind, K::Lam(..)) =>
            {
                Some(Rule::R6)
            }
            _ => None,
        },
        K::Pb(s, d) => {
            if matches!(d.kind, K::Zero) {
                return Some(Rule::R9p);
            }
            match &s.kind {
                K::Lam(_, _, body) => match &body.kind {
                    K::Let(y, _, rest) => {
                        if matches!(&rest.kind, K::Var(r) if r == y) {
                            Some(Rule::R7)
                        } else {
                            Some(Rule::R8)
                        }
                    }
                    _ if !anf::is_elementary(body) => Some(Rule::A3),
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}
