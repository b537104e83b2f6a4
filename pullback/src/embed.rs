//! The embedding of the core language's first-order scalar fragment into the pullback
//! calculus (Mak and Ong, §1: the calculus "is an extension of the simply typed λ-calculus"
//! in which first-order programs are terms; the mapping is our decision:
//! docs/engines/pullback.md, "Engine `pullback`").
//!
//! | core construct | term |
//! |---|---|
//! | parameters `x1 … xn` | one parameter `z` of nested pairs of the real leaves; `Z`/`B` leaves are the concrete input values (constants) |
//! | `R`, `Z`, `B` scalars | `R` (integers exact, booleans 0/1) |
//! | `(e1, …, en)`, `e.k` | right-nested pairs, projection paths |
//! | `let x = e in b`, `let (a, b) = e in t` | `let`, projections of a fresh `let` |
//! | `a + b` … on `R` / `Z` | `add (a, b)` …; `/` is `div` on `R`, `zdiv` on `Z`; `%` is `zmod` |
//! | comparisons, `&&`, `||`, `!` | `lt` … `ne`, `and`, `or`, `not` (Jacobian 0) |
//! | `-e`, `abs`, `min`, `max`, `pow(e, k)`, `floor`, `real` | `neg`, `abs`, `min`, `max`, `pow<k>`, `floor`, the argument |
//! | `select(c, a, b)` | `sel_ne (c, (0, (a, b)))` (strict, follows the chosen branch) |
//! | `exp` … `sqrt` | the symbols (exact reduction refuses them: non-rational) |
//!
//! Everything else (arrays, `build`, SOACs, `if`, loops, non-finite literals) is an
//! `ErrorKind::Unsupported` error naming the construct at its source position.

use crate::syntax::{Cmp, FnSym, Fresh, Term, TermKind, Ty, Var};
use adora_core::ast::{BinOp, Expr, ExprKind, Function, Lit, Pat, Prim, UnOp};
use adora_core::diag::{Diagnostic, ErrorKind, Span};
use adora_core::types::{Base, Type};
use adora_semantics::value::Value;
use adora_semantics::Rat;
use std::collections::HashMap;

/// A core function embedded as `\z. t`, with the layout of its real inputs.
#[derive(Clone, Debug)]
pub struct Embedded {
    /// The term `\z. t` (not yet A-normalised).
    pub term: Term,
    /// The type of `z`: nested pairs of `R`, one per real input leaf (`R` when there is
    /// only one; a dummy `R` when there are none).
    pub input: Ty,
    /// The number of real input leaves (`0`: `z` is a dummy the body ignores).
    pub real_leaves: usize,
}

/// Embeds the elaborated scalar function `f` at `inputs` (whose integer and boolean
/// leaves become constants). `Unsupported` outside the first-order scalar fragment.
pub fn embed(f: &Function, inputs: &[Value<Rat>]) -> Result<Embedded, Diagnostic> {
    for p in &f.params {
        scalar_type(&p.ty, p.span)?;
    }
    scalar_type(&f.ret, f.body.span)?;
    let n = inputs.iter().map(count_reals).sum::<usize>();
    let mut fresh = Fresh::starting_at(1);
    let z = fresh.var("z");
    let paths = leaf_paths(n.max(1));
    let mut next = 0;
    let mut env = HashMap::new();
    for (p, v) in f.params.iter().zip(inputs) {
        let t = param_term(&p.ty, v, &z, &paths, &mut next, p.span)?;
        env.insert(p.name.clone(), (t, p.ty.clone()));
    }
    let mut cx = Cx { fresh, env };
    let (body, _) = cx.expr(&f.body)?;
    Ok(Embedded {
        term: Term::lam(&z, body),
        input: Ty::reals(n.max(1)),
        real_leaves: n,
    })
}

fn unsupported(span: Span, what: &str) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Unsupported,
        span,
        format!(
            "engine `pullback` embeds only the first-order scalar fragment; {what} is outside it"
        ),
    )
}

fn scalar_type(t: &Type, span: Span) -> Result<(), Diagnostic> {
    match t {
        Type::Array(_, s) if s.is_empty() => Ok(()),
        Type::Array(..) => Err(unsupported(span, "an array type")),
        Type::Tuple(ts) => ts.iter().try_for_each(|t| scalar_type(t, span)),
    }
}

fn count_reals(v: &Value<Rat>) -> usize {
    match v {
        Value::Real(t) => t.len(),
        Value::Int(_) | Value::Bool(_) => 0,
        Value::Tuple(vs) => vs.iter().map(count_reals).sum(),
    }
}

/// The projection paths of the `n` leaves of `Rⁿ` (right-nested pairs).
pub fn leaf_paths(n: usize) -> Vec<Vec<bool>> {
    (0..n)
        .map(|k| {
            let mut p = vec![true; k];
            if k + 1 < n {
                p.push(false);
            }
            p
        })
        .collect()
}

fn path_term(base: &Var, path: &[bool]) -> Term {
    path.iter().fold(Term::var(base), |t, &i| Term::proj(t, i))
}

/// The term standing for a parameter: its real leaves are projections of `z`, its integer
/// and boolean leaves the input's constants.
fn param_term(
    ty: &Type,
    v: &Value<Rat>,
    z: &Var,
    paths: &[Vec<bool>],
    next: &mut usize,
    span: Span,
) -> Result<Term, Diagnostic> {
    match (ty, v) {
        (Type::Array(Base::R, _), Value::Real(_)) => {
            let t = path_term(z, &paths[*next]);
            *next += 1;
            Ok(t)
        }
        (Type::Array(Base::Z, _), Value::Int(t)) => Ok(Term::int(scalar(t.as_scalar(), span)?)),
        (Type::Array(Base::B, _), Value::Bool(t)) => {
            Ok(Term::int(i64::from(scalar(t.as_scalar(), span)?)))
        }
        (Type::Tuple(ts), Value::Tuple(vs)) if ts.len() == vs.len() => {
            let parts = ts
                .iter()
                .zip(vs)
                .map(|(t, v)| param_term(t, v, z, paths, next, span))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(tuple(parts))
        }
        _ => Err(Diagnostic::new(
            ErrorKind::Input,
            span,
            "the input does not match the parameter's type",
        )),
    }
}

fn scalar<T: Clone>(x: Option<&T>, span: Span) -> Result<T, Diagnostic> {
    x.cloned()
        .ok_or_else(|| unsupported(span, "an array input"))
}

/// `(t1, (t2, …))`.
fn tuple(mut parts: Vec<Term>) -> Term {
    let last = parts.pop().expect("tuples have components");
    parts
        .into_iter()
        .rev()
        .fold(last, |acc, t| Term::pair(t, acc))
}

/// Component `k` of an `n`-tuple term (a pair literal is projected statically, so the
/// embedding never writes `(a, b).i`).
fn component(t: Term, k: usize, n: usize) -> Term {
    let mut out = t;
    for _ in 0..k {
        out = proj(out, true);
    }
    if k + 1 < n {
        out = proj(out, false);
    }
    out
}

/// `t.i`, or the component itself when `t` is a pair literal, pushed into the body of a
/// `let`.
fn proj(t: Term, second: bool) -> Term {
    match t.kind {
        TermKind::Let(x, s, body) => Term::let_(&x, *s, proj(*body, second)),
        TermKind::Pair(a, b) => {
            if second {
                *b
            } else {
                *a
            }
        }
        kind => Term::proj(Term::new(kind), second),
    }
}

struct Cx {
    fresh: Fresh,
    env: HashMap<String, (Term, Type)>,
}

fn app(f: FnSym, args: Vec<Term>) -> Term {
    Term::app(Term::sym(f), tuple(args))
}

impl Cx {
    fn scoped<T>(&mut self, binds: Vec<(String, (Term, Type))>, k: impl FnOnce(&mut Cx) -> T) -> T {
        let saved: Vec<(String, Option<(Term, Type)>)> = binds
            .into_iter()
            .map(|(n, t)| {
                let old = self.env.insert(n.clone(), t);
                (n, old)
            })
            .collect();
        let out = k(self);
        for (n, old) in saved.into_iter().rev() {
            match old {
                Some(t) => self.env.insert(n, t),
                None => self.env.remove(&n),
            };
        }
        out
    }

    /// The term of `e` and its core type.
    fn expr(&mut self, e: &Expr) -> Result<(Term, Type), Diagnostic> {
        let sp = e.span;
        let out =
            match &e.kind {
                ExprKind::Var(x) => self.env.get(x).cloned().ok_or_else(|| {
                    Diagnostic::new(ErrorKind::Name, sp, format!("unbound `{x}`"))
                })?,
                ExprKind::Lit(l) => match l {
                    Lit::Int(n) => (Term::num(Rat::from_integer(n.clone())), Type::int()),
                    Lit::Real(r) => (Term::num(r.clone()), Type::real()),
                    Lit::Bool(b) => (Term::int(i64::from(*b)), Type::bool()),
                    Lit::NonFinite(_) => return Err(unsupported(sp, "a non-finite literal")),
                },
                ExprKind::Tuple(es) => {
                    let mut parts = Vec::new();
                    let mut tys = Vec::new();
                    for e in es {
                        let (t, ty) = self.expr(e)?;
                        parts.push(t);
                        tys.push(ty);
                    }
                    (tuple(parts), Type::Tuple(tys))
                }
                ExprKind::Proj(e, k) => {
                    let (t, ty) = self.expr(e)?;
                    let Type::Tuple(ts) = ty else {
                        return Err(unsupported(sp, "a projection of a non-tuple"));
                    };
                    let c = ts
                        .get(*k)
                        .cloned()
                        .ok_or_else(|| unsupported(sp, "a projection out of range"))?;
                    (component(t, *k, ts.len()), c)
                }
                ExprKind::Let(pat, e1, e2) => {
                    let (t1, ty1) = self.expr(e1)?;
                    let base = match pat {
                        Pat::Var(n) => n.as_str(),
                        Pat::Tuple(_) => "t",
                    };
                    let v = self.fresh.var(base);
                    let binds = match pat {
                        Pat::Var(n) => vec![(n.clone(), (Term::var(&v), ty1.clone()))],
                        Pat::Tuple(ns) => {
                            let Type::Tuple(ts) = &ty1 else {
                                return Err(unsupported(sp, "a tuple pattern on a non-tuple"));
                            };
                            ns.iter()
                                .enumerate()
                                .map(|(k, n)| {
                                    (
                                        n.clone(),
                                        (
                                            component(Term::var(&v), k, ns.len()),
                                            ts.get(k).cloned().unwrap_or_else(Type::real),
                                        ),
                                    )
                                })
                                .collect()
                        }
                    };
                    let (t2, ty2) = self.scoped(binds, |cx| cx.expr(e2))?;
                    (Term::let_(&v, t1, t2), ty2)
                }
                ExprKind::Unary(op, a) => {
                    let (t, ty) = self.expr(a)?;
                    match op {
                        UnOp::Neg => (app(FnSym::Neg, vec![t]), ty),
                        UnOp::Not => (app(FnSym::Not, vec![t]), Type::bool()),
                    }
                }
                ExprKind::Binary(op, a, b) => {
                    let (ta, ty) = self.expr(a)?;
                    let (tb, _) = self.expr(b)?;
                    let int = ty == Type::int();
                    let (f, out) = match op {
                        BinOp::Add => (FnSym::Add, ty),
                        BinOp::Sub => (FnSym::Sub, ty),
                        BinOp::Mul => (FnSym::Mul, ty),
                        BinOp::Div if int => (FnSym::ZDiv, ty),
                        BinOp::Div => (FnSym::Div, ty),
                        BinOp::Mod => (FnSym::ZMod, ty),
                        BinOp::Eq => (FnSym::Cmp(Cmp::Eq), Type::bool()),
                        BinOp::Ne => (FnSym::Cmp(Cmp::Ne), Type::bool()),
                        BinOp::Lt => (FnSym::Cmp(Cmp::Lt), Type::bool()),
                        BinOp::Le => (FnSym::Cmp(Cmp::Le), Type::bool()),
                        BinOp::Gt => (FnSym::Cmp(Cmp::Gt), Type::bool()),
                        BinOp::Ge => (FnSym::Cmp(Cmp::Ge), Type::bool()),
                        BinOp::And => (FnSym::And, Type::bool()),
                        BinOp::Or => (FnSym::Or, Type::bool()),
                    };
                    (app(f, vec![ta, tb]), out)
                }
                ExprKind::Prim(p, args) => self.prim(p, args, sp)?,
                ExprKind::If(..) => return Err(unsupported(sp, "`if`")),
                ExprKind::Call(..) => return Err(unsupported(sp, "a call (not elaborated)")),
                ExprKind::Loop { .. } => return Err(unsupported(sp, "a loop")),
                ExprKind::Array(_) | ExprKind::Index(..) | ExprKind::Build(..) => {
                    return Err(unsupported(sp, "an array"))
                }
                _ => return Err(unsupported(sp, "an array operation")),
            };
        Ok(out)
    }

    fn prim(&mut self, p: &Prim, args: &[Expr], sp: Span) -> Result<(Term, Type), Diagnostic> {
        let mut ts = Vec::new();
        let mut tys = Vec::new();
        for a in args {
            let (t, ty) = self.expr(a)?;
            ts.push(t);
            tys.push(ty);
        }
        let ty0 = tys.first().cloned().unwrap_or_else(Type::real);
        let unary = |f: FnSym, ts: Vec<Term>| app(f, ts);
        Ok(match p {
            Prim::Exp => (unary(FnSym::Exp, ts), Type::real()),
            Prim::Log => (unary(FnSym::Log, ts), Type::real()),
            Prim::Sin => (unary(FnSym::Sin, ts), Type::real()),
            Prim::Cos => (unary(FnSym::Cos, ts), Type::real()),
            Prim::Tanh => (unary(FnSym::Tanh, ts), Type::real()),
            Prim::Sqrt => (unary(FnSym::Sqrt, ts), Type::real()),
            Prim::Abs => (unary(FnSym::Abs, ts), ty0),
            Prim::Floor => (unary(FnSym::Floor, ts), Type::int()),
            Prim::Real => (
                ts.into_iter().next().expect("real has one argument"),
                Type::real(),
            ),
            Prim::Min => (app(FnSym::Min, ts), ty0),
            Prim::Max => (app(FnSym::Max, ts), ty0),
            Prim::Pow(k) => (unary(FnSym::Pow(*k), ts), ty0),
            Prim::Select => {
                let mut it = ts.into_iter();
                let (c, a, b) = (
                    it.next().expect("select has three arguments"),
                    it.next().expect("select has three arguments"),
                    it.next().expect("select has three arguments"),
                );
                let ty = tys.get(1).cloned().unwrap_or_else(Type::real);
                (select(c, a, b, &ty, &mut self.fresh), ty)
            }
            _ => return Err(unsupported(sp, "an array primitive")),
        })
    }
}

/// `select(c, a, b)` at type `ty`: `sel_ne (c, (0, (a, b)))` on scalars, componentwise
/// on tuples (the components of `a` and `b` are let-bound once).
fn select(c: Term, a: Term, b: Term, ty: &Type, fresh: &mut Fresh) -> Term {
    match ty {
        Type::Tuple(ts) => {
            let (vc, va, vb) = (fresh.var("c"), fresh.var("a"), fresh.var("b"));
            let n = ts.len();
            let parts = ts
                .iter()
                .enumerate()
                .map(|(k, t)| {
                    select(
                        Term::var(&vc),
                        component(Term::var(&va), k, n),
                        component(Term::var(&vb), k, n),
                        t,
                        fresh,
                    )
                })
                .collect();
            Term::let_(&vc, c, Term::let_(&va, a, Term::let_(&vb, b, tuple(parts))))
        }
        _ => app(FnSym::Sel(Cmp::Ne), vec![c, Term::int(0), a, b]),
    }
}
