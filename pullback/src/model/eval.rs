//! The evaluator of the concrete model (docs/engines/pullback.md, "The model"; the note's
//! concrete semantics, Mak and Ong §3.1 and the model section, whose text is lost):
//!
//! | term | meaning |
//! |---|---|
//! | `x`, `r`, `\x. s`, `s t`, `let`, `(s, t)`, `s.i` | environment, constant, closure, application, … |
//! | `f` | the symbol on tagged numbers ([`super::prims`]) |
//! | `J(s, t)` | `λx. D⟦s⟧(x)·⟦t⟧` |
//! | `dual(s, t)` | `⟦t⟧ ∘ ⟦s⟧` |
//! | `pb(s, t)` | `λx. λv. ⟦t⟧(⟦s⟧ x)(D⟦s⟧(x)·v)` |
//! | `zero`, `s + t` | zero, pointwise sum |
//!
//! It shares no code with the reducer: derivatives come from tagged dual numbers.

use super::num::Num;
use super::prims;
use super::value::{add, apply, derivative, proj, V};
use super::Budget;
use crate::syntax::{FnSym, Term, TermKind, Var};
use std::rc::Rc;

/// A persistent environment.
#[derive(Clone, Default)]
pub struct Env(Option<Rc<(Var, V, Env)>>);

impl Env {
    /// `self` extended with `x ↦ v`.
    pub fn bind(&self, x: Var, v: V) -> Env {
        Env(Some(Rc::new((x, v, self.clone()))))
    }
    fn get(&self, x: &Var) -> Option<&V> {
        let mut cur = self;
        while let Some(node) = &cur.0 {
            if &node.0 == x {
                return Some(&node.1);
            }
            cur = &node.2;
        }
        None
    }
}

fn symbol(f: FnSym) -> V {
    V::fun(move |_, arg| {
        let mut args = Vec::new();
        let mut cur = arg;
        for k in 0..f.arity() {
            if k + 1 == f.arity() {
                args.push(num(&cur)?);
            } else {
                args.push(num(&proj(&cur, false)?)?);
                cur = proj(&cur, true)?;
            }
        }
        Ok(V::Num(prims::apply(f, &args)?))
    })
}

fn num(v: &V) -> Result<Num, String> {
    match v {
        V::Num(n) => Ok(n.clone()),
        V::Zero => Ok(Num::default()),
        _ => Err("a function symbol got a non-number".to_string()),
    }
}

/// `⟦t⟧ρ`.
pub fn eval(b: &Budget, t: &Term, env: &Env) -> Result<V, String> {
    b.tick()?;
    Ok(match &t.kind {
        TermKind::Var(x) => env
            .get(x)
            .cloned()
            .ok_or_else(|| format!("the model met the free variable `{x}`"))?,
        TermKind::Num(r) => V::Num(Num::constant(r.clone())),
        TermKind::Fn(f) => symbol(*f),
        TermKind::Lam(x, _, body) => {
            let (x, body, env) = (x.clone(), (**body).clone(), env.clone());
            V::fun(move |b, v| eval(b, &body, &env.bind(x.clone(), v)))
        }
        TermKind::App(f, a) => {
            let fv = eval(b, f, env)?;
            let av = eval(b, a, env)?;
            apply(b, &fv, av)?
        }
        TermKind::Let(x, s, body) => {
            let v = eval(b, s, env)?;
            eval(b, body, &env.bind(x.clone(), v))?
        }
        TermKind::Pair(x, y) => V::pair(eval(b, x, env)?, eval(b, y, env)?),
        TermKind::Proj(s, i) => proj(&eval(b, s, env)?, *i)?,
        TermKind::Jac(s, u) => {
            let (f, u) = (eval(b, s, env)?, eval(b, u, env)?);
            V::fun(move |b, x| derivative(b, &f, &x, &u))
        }
        TermKind::Dual(s, w) => {
            let (f, w) = (eval(b, s, env)?, eval(b, w, env)?);
            V::fun(move |b, x| {
                let y = apply(b, &f, x)?;
                apply(b, &w, y)
            })
        }
        TermKind::Pb(s, w) => {
            let (f, w) = (eval(b, s, env)?, eval(b, w, env)?);
            V::fun(move |_, x| {
                let (f, w) = (f.clone(), w.clone());
                Ok(V::fun(move |b, v| {
                    let form = apply(b, &w, apply(b, &f, x.clone())?)?;
                    let jv = derivative(b, &f, &x, &v)?;
                    apply(b, &form, jv)
                }))
            })
        }
        TermKind::Zero => V::Zero,
        TermKind::Sum(ts) => {
            let mut acc = V::Zero;
            for s in ts {
                acc = add(&acc, &eval(b, s, env)?)?;
            }
            acc
        }
    })
}
