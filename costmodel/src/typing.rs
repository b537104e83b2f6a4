//! Static types of every node of an elaborated function, keyed by node address.
//!
//! The evaluator reports each evaluated node by reference (`Event::Node { expr, .. }`);
//! the cost models need the node's base type (real arithmetic costs, index arithmetic does
//! not) and its static shape (lanes of a reduction, slices of a scatter). Shapes are static
//! in the core language, so one pass over the tree before evaluation gives them all.
//! Elaborated programs are well typed; a node this pass cannot type is reported as a
//! `Type` / `Unsupported` diagnostic at its span, never a panic.

use adora_core::ast::{Expr, ExprKind, Function, Lambda, Lit, Op, Pat, Prim};
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::types::{Base, Type};
use std::collections::HashMap;

/// The type of every node of one function, keyed by the node's address.
#[derive(Debug, Default)]
pub struct Types {
    map: HashMap<usize, Type>,
}

/// The address of a node, the key of [`Types`].
pub fn key(e: &Expr) -> usize {
    e as *const Expr as usize
}

impl Types {
    /// Types every node of `f.body` (parameters in scope).
    pub fn of_function(f: &Function) -> Result<Types> {
        let mut t = Typer {
            types: Types::default(),
            env: Vec::new(),
        };
        for p in &f.params {
            t.env.push((p.name.clone(), p.ty.clone()));
        }
        t.expr(&f.body)?;
        Ok(t.types)
    }

    /// The type of `e`, if `e` is a node of the typed function.
    pub fn get(&self, e: &Expr) -> Option<&Type> {
        self.map.get(&key(e))
    }

    /// The type of `e`, or an error naming `e` when the evaluator reports a node that is not
    /// part of the function being measured.
    pub fn of(&self, e: &Expr) -> Result<&Type> {
        self.get(e).ok_or_else(|| {
            Diagnostic::new(
                ErrorKind::Unsupported,
                e.span,
                "cost model: the evaluator reported a node outside the measured function",
            )
        })
    }
}

/// Number of scalars of a value of type `t`, as `u64`.
pub fn size(t: &Type) -> u64 {
    t.size() as u64
}

/// Base type of an array type (`None` for tuples).
pub fn base(t: &Type) -> Option<Base> {
    t.as_array().map(|(b, _)| b)
}

/// Shape of an array type (empty for tuples).
pub fn shape(t: &Type) -> &[usize] {
    t.as_array().map(|(_, s)| s.as_slice()).unwrap_or(&[])
}

struct Typer {
    types: Types,
    env: Vec<(String, Type)>,
}

fn err(kind: ErrorKind, e: &Expr, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(kind, e.span, msg)
}

fn array(e: &Expr, t: &Type) -> Result<(Base, Vec<usize>)> {
    match t {
        Type::Array(b, s) => Ok((*b, s.clone())),
        Type::Tuple(_) => Err(err(
            ErrorKind::Type,
            e,
            format!("cost model: expected an array, found {t}"),
        )),
    }
}

/// `[n] ++ t`, componentwise for tuples (the type of a map or build of `t`s).
fn prepend(dims: &[usize], t: &Type) -> Type {
    match t {
        Type::Array(b, s) => Type::Array(*b, dims.iter().chain(s.iter()).copied().collect()),
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| prepend(dims, t)).collect()),
    }
}

/// The type of one outer slice of an array type.
fn element(e: &Expr, t: &Type) -> Result<Type> {
    let (b, s) = array(e, t)?;
    if s.is_empty() {
        return Err(err(
            ErrorKind::Shape,
            e,
            "cost model: expected an array of rank at least 1",
        ));
    }
    Ok(Type::Array(b, s[1..].to_vec()))
}

impl Typer {
    fn bind(&mut self, pat: &Pat, t: &Type, e: &Expr) -> Result<usize> {
        match pat {
            Pat::Var(n) => {
                self.env.push((n.clone(), t.clone()));
                Ok(1)
            }
            Pat::Tuple(ns) => match t {
                Type::Tuple(ts) if ts.len() == ns.len() => {
                    for (n, t) in ns.iter().zip(ts) {
                        self.env.push((n.clone(), t.clone()));
                    }
                    Ok(ns.len())
                }
                _ => Err(err(
                    ErrorKind::Type,
                    e,
                    format!("cost model: a tuple pattern cannot bind a value of type {t}"),
                )),
            },
        }
    }

    fn unbind(&mut self, k: usize) {
        let n = self.env.len().saturating_sub(k);
        self.env.truncate(n);
    }

    /// Types a lambda's body with its parameters bound to `params`.
    fn lambda(&mut self, lam: &Lambda, params: &[Type], e: &Expr) -> Result<Type> {
        if lam.params.len() != params.len() {
            return Err(err(
                ErrorKind::Type,
                e,
                "cost model: wrong number of lambda parameters",
            ));
        }
        for (n, t) in lam.params.iter().zip(params) {
            self.env.push((n.clone(), t.clone()));
        }
        let t = self.expr(&lam.body);
        self.unbind(params.len());
        t
    }

    fn op(&mut self, op: &Op, slice: &Type, e: &Expr) -> Result<()> {
        if let Op::Lambda(lam) = op {
            self.lambda(lam, &[slice.clone(), slice.clone()], e)?;
        }
        Ok(())
    }

    fn indices(&mut self, names: &[String], ix: &[Expr]) -> Result<()> {
        for n in names {
            self.env.push((n.clone(), Type::int()));
        }
        let r = ix.iter().try_for_each(|i| self.expr(i).map(|_| ()));
        self.unbind(names.len());
        r
    }

    fn expr(&mut self, e: &Expr) -> Result<Type> {
        let t = self.synth(e)?;
        self.types.map.insert(key(e), t.clone());
        Ok(t)
    }

    fn synth(&mut self, e: &Expr) -> Result<Type> {
        use ExprKind as K;
        Ok(match &e.kind {
            K::Var(n) => match self.env.iter().rev().find(|(m, _)| m == n) {
                Some((_, t)) => t.clone(),
                None => {
                    return Err(err(
                        ErrorKind::Name,
                        e,
                        format!("cost model: unbound variable `{n}`"),
                    ))
                }
            },
            K::Lit(Lit::Int(_)) => Type::int(),
            K::Lit(Lit::Real(_)) => Type::real(),
            K::Lit(Lit::Bool(_)) => Type::bool(),
            K::Array(es) => {
                let mut first = None;
                for x in es {
                    let t = self.expr(x)?;
                    first.get_or_insert(t);
                }
                let t = first
                    .ok_or_else(|| err(ErrorKind::Shape, e, "cost model: empty array literal"))?;
                let (b, s) = array(e, &t)?;
                prepend(&[es.len()], &Type::Array(b, s))
            }
            K::Tuple(es) => Type::Tuple(es.iter().map(|x| self.expr(x)).collect::<Result<_>>()?),
            K::Proj(x, k) => match self.expr(x)? {
                Type::Tuple(ts) if *k < ts.len() => ts[*k].clone(),
                t => {
                    return Err(err(
                        ErrorKind::Type,
                        e,
                        format!("cost model: cannot project .{k} of {t}"),
                    ))
                }
            },
            K::Let(p, e1, e2) => {
                let t1 = self.expr(e1)?;
                let k = self.bind(p, &t1, e)?;
                let t = self.expr(e2);
                self.unbind(k);
                t?
            }
            K::If(c, a, b) => {
                self.expr(c)?;
                self.expr(b)?;
                self.expr(a)?
            }
            K::Unary(_, x) => self.expr(x)?,
            K::Binary(op, a, b) => {
                use adora_core::ast::BinOp as B;
                let ta = self.expr(a)?;
                self.expr(b)?;
                match op {
                    B::Eq | B::Ne | B::Lt | B::Le | B::Gt | B::Ge => {
                        Type::Array(Base::B, array(e, &ta)?.1)
                    }
                    _ => ta,
                }
            }
            K::Call(name, _) => {
                return Err(err(
                    ErrorKind::Unsupported,
                    e,
                    format!(
                        "cost models measure elaborated programs; call of `{name}` was not inlined"
                    ),
                ))
            }
            K::Prim(p, args) => {
                let ts = args
                    .iter()
                    .map(|x| self.expr(x))
                    .collect::<Result<Vec<_>>>()?;
                self.prim(e, p, &ts)?
            }
            K::Index(x, is) => {
                let (b, s) = array(e, &self.expr(x)?)?;
                for i in is {
                    self.expr(i)?;
                }
                Type::Array(b, s.get(is.len()..).unwrap_or(&[]).to_vec())
            }
            K::Build(sh, names, body) => {
                for n in names {
                    self.env.push((n.clone(), Type::int()));
                }
                let t = self.expr(body);
                self.unbind(names.len());
                prepend(sh, &t?)
            }
            K::Gather(sh, x, names, ix) => {
                let (b, s) = array(e, &self.expr(x)?)?;
                self.indices(names, ix)?;
                Type::Array(
                    b,
                    sh.iter()
                        .chain(s.get(ix.len()..).unwrap_or(&[]))
                        .copied()
                        .collect(),
                )
            }
            K::Scatter(sh, x, names, ix) => {
                let (b, _) = array(e, &self.expr(x)?)?;
                self.indices(names, ix)?;
                Type::Array(b, sh.clone())
            }
            K::Map(lam, xs) => {
                let mut params = Vec::new();
                let mut n = 0;
                for x in xs {
                    let t = self.expr(x)?;
                    n = array(e, &t)?.1.first().copied().unwrap_or(0);
                    params.push(element(e, &t)?);
                }
                let body = self.lambda(lam, &params, e)?;
                prepend(&[n], &body)
            }
            K::Reduce(op, ne, xs) => {
                let t = self.expr(ne)?;
                self.expr(xs)?;
                self.op(op, &t, e)?;
                t
            }
            K::Scan(op, ne, xs) => {
                let t = self.expr(ne)?;
                let txs = self.expr(xs)?;
                self.op(op, &t, e)?;
                txs
            }
            K::ReduceByIndex {
                dest,
                op,
                ne,
                is,
                vs,
            } => {
                let t = self.expr(dest)?;
                let tne = self.expr(ne)?;
                self.expr(is)?;
                self.expr(vs)?;
                self.op(op, &tne, e)?;
                t
            }
            K::ScatterInto { dest, is, vs } => {
                let t = self.expr(dest)?;
                self.expr(is)?;
                self.expr(vs)?;
                t
            }
            K::Loop {
                acc,
                init,
                var,
                body,
                ..
            } => {
                let t = self.expr(init)?;
                let k = self.bind(acc, &t, e)?;
                self.env.push((var.clone(), Type::int()));
                let r = self.expr(body);
                self.unbind(k + 1);
                r?;
                t
            }
        })
    }

    fn prim(&mut self, e: &Expr, p: &Prim, ts: &[Type]) -> Result<Type> {
        let arg = |k: usize| {
            ts.get(k)
                .ok_or_else(|| err(ErrorKind::Type, e, "cost model: missing argument"))
        };
        Ok(match p {
            Prim::Exp
            | Prim::Log
            | Prim::Sin
            | Prim::Cos
            | Prim::Tanh
            | Prim::Sqrt
            | Prim::Abs
            | Prim::Pow(_) => arg(0)?.clone(),
            Prim::Min | Prim::Max => arg(0)?.clone(),
            Prim::Floor => Type::Array(Base::Z, array(e, arg(0)?)?.1),
            Prim::Real => Type::Array(Base::R, array(e, arg(0)?)?.1),
            Prim::Select => arg(1)?.clone(),
            Prim::Sum => Type::scalar(array(e, arg(0)?)?.0),
            Prim::SumOuter => element(e, arg(0)?)?,
            Prim::Replicate(n) => prepend(&[*n], arg(0)?),
            Prim::Transpose(perm) => {
                let (b, s) = array(e, arg(0)?)?;
                let dims = perm
                    .iter()
                    .map(|&k| s.get(k).copied())
                    .collect::<Option<Vec<_>>>();
                Type::Array(
                    b,
                    dims.ok_or_else(|| err(ErrorKind::Shape, e, "cost model: bad permutation"))?,
                )
            }
            Prim::Reshape(sh) => Type::Array(array(e, arg(0)?)?.0, sh.clone()),
            Prim::Iota(n) => Type::Array(Base::Z, vec![*n]),
            Prim::Append => {
                let (b, s) = array(e, arg(0)?)?;
                let (_, s2) = array(e, arg(1)?)?;
                let mut s = s.clone();
                match (s.first_mut(), s2.first()) {
                    (Some(a), Some(b2)) => *a += b2,
                    _ => return Err(err(ErrorKind::Shape, e, "cost model: append of scalars")),
                }
                Type::Array(b, s)
            }
            Prim::Stack => prepend(&[ts.len()], arg(0)?),
        })
    }
}
