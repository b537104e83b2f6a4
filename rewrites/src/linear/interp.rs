//! A direct interpreter of Linear A that counts `lin` work as it runs (seed 002 §4.3):
//! the dynamic counterpart of `adora_costmodel::lin` (which computes the same work from
//! the types alone), used by the properties to check Theorem 4.1 (work independent of the
//! values) and Lemma 4.4 (erasure preserves values and work) against an evaluator that
//! does not go through erasure.
//!
//! Linear `+`, scaling, `zero`, `dup` and `drop` are interpreted here; every other
//! operation is evaluated by the core evaluator as a one-operation function
//! ([`super::lower::op_function`]). Work per node: arithmetic 1 per result scalar; data
//! movement `max(0, |data operands| - |result|)`; `drop` 1 per real scalar; the rest 0.

use super::lower::op_function;
use super::util::internal;
use adora_core::ast::{BinOp, Name, Prim};
use adora_core::diag::Result;
use adora_core::linear::check::{lit_type, masked_branch, DefTypes, ProgramTypes};
use adora_core::linear::{check_program, Atom, LExpr, LKind, LinearProgram, Op};
use adora_core::types::Type;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::scalar::Scalar;
use adora_semantics::value::{Tensor, Value};
use std::collections::HashMap;

/// The results of running a def: non-linear results, linear results, and the work done.
#[derive(Clone, Debug, PartialEq)]
pub struct Run<S> {
    /// Non-linear results.
    pub nl: Vec<Value<S>>,
    /// Linear results.
    pub lin: Vec<Value<S>>,
    /// `lin` work of the run.
    pub work: u64,
}

/// Runs def `entry` of `p` on non-linear arguments `args` and linear arguments `largs`.
pub fn run<S: Scalar>(
    p: &LinearProgram,
    entry: &str,
    args: &[Value<S>],
    largs: &[Value<S>],
    opts: &EvalOptions,
) -> Result<Run<S>> {
    let types = check_program(p)?;
    let mut it = Interp {
        p,
        types: &types,
        opts,
        work: 0,
        _s: std::marker::PhantomData,
    };
    let (nl, lin) = adora_core::with_stack(|| it.call(entry, args, largs))?;
    Ok(Run {
        nl,
        lin,
        work: it.work,
    })
}

struct Interp<'a, S> {
    p: &'a LinearProgram,
    types: &'a ProgramTypes,
    opts: &'a EvalOptions,
    work: u64,
    _s: std::marker::PhantomData<S>,
}

type Env<S> = HashMap<Name, Value<S>>;

/// Non-linear and linear results.
type Results<S> = (Vec<Value<S>>, Vec<Value<S>>);

fn real_count<S>(v: &Value<S>) -> u64 {
    v.real_scalars().len() as u64
}

/// Elementwise `a + b` over matching values.
fn add<S: Scalar>(a: &Value<S>, b: &Value<S>) -> Result<Value<S>> {
    match (a, b) {
        (Value::Real(x), Value::Real(y)) if x.shape == y.shape => Ok(Value::Real(Tensor {
            shape: x.shape.clone(),
            data: x.data.iter().zip(&y.data).map(|(p, q)| p.add(q)).collect(),
        })),
        (Value::Tuple(xs), Value::Tuple(ys)) if xs.len() == ys.len() => Ok(Value::Tuple(
            xs.iter()
                .zip(ys)
                .map(|(x, y)| add(x, y))
                .collect::<Result<_>>()?,
        )),
        _ => Err(internal("linear + of mismatched values")),
    }
}

/// `c * v` for a real scalar `c` or a real array of `v`'s shape.
fn scale<S: Scalar>(c: &Value<S>, v: &Value<S>) -> Result<Value<S>> {
    match (c, v) {
        (Value::Real(k), Value::Real(y)) if k.shape.is_empty() => Ok(Value::Real(Tensor {
            shape: y.shape.clone(),
            data: y.data.iter().map(|q| k.data[0].mul(q)).collect(),
        })),
        (Value::Real(k), Value::Real(y)) if k.shape == y.shape => Ok(Value::Real(Tensor {
            shape: y.shape.clone(),
            data: k.data.iter().zip(&y.data).map(|(p, q)| p.mul(q)).collect(),
        })),
        (Value::Real(_), Value::Tuple(ys)) => Ok(Value::Tuple(
            ys.iter().map(|y| scale(c, y)).collect::<Result<_>>()?,
        )),
        _ => Err(internal("linear scaling of mismatched values")),
    }
}

impl<S: Scalar> Interp<'_, S> {
    fn atom(&self, a: &Atom, env: &Env<S>) -> Result<Value<S>> {
        match a {
            Atom::Var(v) => env
                .get(v)
                .cloned()
                .ok_or_else(|| internal(format!("unbound `{v}`"))),
            Atom::Lit(l) => {
                let e = adora_core::ast::Expr::new(
                    adora_core::ast::ExprKind::Lit(l.clone()),
                    adora_core::Span::DUMMY,
                );
                adora_semantics::io::value_from_expr(&e, &lit_type(l))
            }
        }
    }

    fn call(&mut self, f: &str, args: &[Value<S>], largs: &[Value<S>]) -> Result<Results<S>> {
        let d = self
            .p
            .def(f)
            .ok_or_else(|| internal(format!("no def `{f}`")))?;
        if args.len() != d.params.len() || largs.len() != d.lparams.len() {
            return Err(internal(format!(
                "`{f}` called with the wrong number of arguments"
            )));
        }
        let mut env = Env::new();
        for (p, v) in d.params.iter().zip(args).chain(d.lparams.iter().zip(largs)) {
            if v.ty() != p.ty {
                return Err(internal(format!(
                    "`{}` expects {}, given {}",
                    p.name,
                    p.ty,
                    v.ty()
                )));
            }
            env.insert(p.name.clone(), v.clone());
        }
        let dt = self.types.def(f);
        self.expr(&d.body, &mut env, &dt)
    }

    fn expr(&mut self, e: &LExpr, env: &mut Env<S>, dt: &DefTypes) -> Result<Results<S>> {
        let mut cur = e;
        loop {
            match &cur.kind {
                LKind::Let(b, bound, body) => {
                    let (nl, lin) = self.expr(bound, env, dt)?;
                    for (n, v) in b.nl.iter().zip(nl).chain(b.lin.iter().zip(lin)) {
                        env.insert(n.clone(), v);
                    }
                    cur = body;
                }
                LKind::Unpack(ns, t, body) => {
                    let v = self.atom(&Atom::Var(t.clone()), env)?;
                    let Value::Tuple(vs) = v else {
                        return Err(internal("unpacking a non-tuple"));
                    };
                    for (n, c) in ns.iter().zip(vs) {
                        env.insert(n.clone(), c);
                    }
                    cur = body;
                }
                LKind::Ret(a, l) => {
                    let nl = a.iter().map(|x| self.atom(x, env)).collect::<Result<_>>()?;
                    let lin = l
                        .iter()
                        .map(|x| self.atom(&Atom::Var(x.clone()), env))
                        .collect::<Result<_>>()?;
                    return Ok((nl, lin));
                }
                LKind::Call(f, a, l) => {
                    let av: Vec<Value<S>> =
                        a.iter().map(|x| self.atom(x, env)).collect::<Result<_>>()?;
                    let lv: Vec<Value<S>> = l
                        .iter()
                        .map(|x| self.atom(&Atom::Var(x.clone()), env))
                        .collect::<Result<_>>()?;
                    return self.call(f, &av, &lv);
                }
                LKind::Dup(x) => {
                    let v = self.atom(&Atom::Var(x.clone()), env)?;
                    return Ok((Vec::new(), vec![v.clone(), v]));
                }
                LKind::Drop(x) => {
                    let v = self.atom(&Atom::Var(x.clone()), env)?;
                    self.work += real_count(&v);
                    return Ok((Vec::new(), Vec::new()));
                }
                LKind::Op { op, args, linear } => {
                    let v = self.op(op, args, *linear, env, dt)?;
                    return Ok(if *linear {
                        (Vec::new(), vec![v])
                    } else {
                        (vec![v], Vec::new())
                    });
                }
            }
        }
    }

    fn op(
        &mut self,
        op: &Op,
        args: &[Atom],
        linear: bool,
        env: &Env<S>,
        dt: &DefTypes,
    ) -> Result<Value<S>> {
        let vals: Vec<Value<S>> = args
            .iter()
            .map(|a| self.atom(a, env))
            .collect::<Result<_>>()?;
        let result = match (op, linear) {
            (Op::Zero(t), _) => Value::zeros(t),
            (Op::Binary(BinOp::Add), true) => add(&vals[0], &vals[1])?,
            (Op::Binary(BinOp::Mul), true) => scale(&vals[0], &vals[1])?,
            _ => {
                let tys: Vec<Type> = vals.iter().map(Value::ty).collect();
                let res_ty = adora_core::linear::check::op_type(op, args, &tys, linear, &|n| {
                    env.get(n).map(Value::ty).or_else(|| Some(dt.ty(n)))
                })?;
                let f = op_function(op, args, &res_ty, &|n| {
                    env.get(n).map(Value::ty).unwrap_or_else(|| dt.ty(n))
                })?;
                let inputs: Vec<Value<S>> = f
                    .params
                    .iter()
                    .map(|p| {
                        env.get(&p.name)
                            .cloned()
                            .ok_or_else(|| internal(format!("unbound `{}`", p.name)))
                    })
                    .collect::<Result<_>>()?;
                eval(&f, &inputs, self.opts)?.0
            }
        };
        self.work += self.op_work(op, args, &vals, &result);
        Ok(result)
    }

    fn op_work(&self, op: &Op, args: &[Atom], vals: &[Value<S>], result: &Value<S>) -> u64 {
        let arithmetic = match op {
            Op::Unary(_) | Op::Binary(_) => true,
            Op::Prim(p) => !matches!(
                p,
                Prim::Sum
                    | Prim::SumOuter
                    | Prim::Replicate(_)
                    | Prim::Transpose(_)
                    | Prim::Reshape(_)
                    | Prim::Append
                    | Prim::Stack
                    | Prim::Select
                    | Prim::Iota(_)
            ),
            _ => false,
        };
        let res = result.size() as u64;
        if arithmetic {
            return res;
        }
        let data: Vec<usize> = match op {
            Op::Id | Op::Tuple | Op::Array | Op::Prim(Prim::Stack) | Op::Prim(Prim::Append) => {
                (0..vals.len()).collect()
            }
            Op::Prim(Prim::Select) => {
                let m = masked_branch(op, args);
                [1usize, 2].into_iter().filter(|k| Some(*k) != m).collect()
            }
            Op::Zero(_) | Op::Prim(Prim::Iota(_)) => Vec::new(),
            _ => vec![0],
        };
        let inputs: u64 = data
            .iter()
            .filter_map(|k| vals.get(*k))
            .map(|v| v.size() as u64)
            .sum();
        inputs.saturating_sub(res)
    }
}
