//! `dual/linear-op-derivative-is-itself` (seed 000 §4.2, §6.1): the runtime Delta of a
//! generated program, read as a core program over the input tangents, is evaluated by the
//! evaluator and differentiated by the reference.
//!
//! Every Delta constructor is translated into the core operation it stands for
//! (docs/engines/dual.md, §2): `Input i` is the parameter `dx<i>`, `Share n d` a `let`
//! of `s<n>` (ascending ids, so each binding is in scope of its uses by invariant 1),
//! `Index`, `Sum`, `SumOuter`, `Replicate`, `Transpose`, `Reshape`, `Append` and `Stack`
//! the operation itself, `Gather` / `Scatter` the operation with the materialised index
//! table as literal integer arrays indexed by the binders (an out-of-bounds entry reads
//! position `n` of a dimension of size `n`), `Add` / `Neg` the arithmetic, `Scale k` /
//! `DivBy k` a product / quotient with the primal factor as a literal, `Select b` a
//! `select` with the condition as a literal, `Zero` a literal of zeros. The property
//! checks that the program type-checks, that the evaluator computes on it exactly what
//! the runtime evaluates the Delta to (each constructor has the semantics of its core
//! operation), and that its reference JVP at a random point, in a random direction, is
//! the program applied to that direction (the forward derivative of a linear function is
//! the function itself).

use super::dual_delta::{bulk, call, prepared, random_tensor, real_leaves, run_forward};
use super::util::{aux_rng, fail, load, opts};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::{Case, RetKind};
use crate::values::Rat;
use adora_core::ast::{BinOp, Expr, ExprKind, Function, Lit, Param, Pat, Prim, UnOp};
use adora_core::types::{Base, Type};
use adora_core::Span;
use adora_rewrites::dual::delta::Kind;
use adora_rewrites::dual::runtime::tangent;
use adora_rewrites::dual::value::{RDelta, Table};
use adora_semantics::eval::eval;
use adora_semantics::reference;
use adora_semantics::value::{Tensor, Value};
use num_bigint::BigInt;
use std::collections::BTreeMap;

/// The property.
pub fn properties() -> Vec<Property> {
    vec![Property {
        name: "dual/linear-op-derivative-is-itself",
        source: "seed 000 §4.2, §6.1 (the forward derivative of a linear function is itself)",
        fragment: "bulk",
        description: "the runtime Delta of the bot output, read as a core program over the input tangents \
                      (each linear constructor Index, Gather, Scatter, Sum, SumOuter, Replicate, Transpose, \
                      Reshape, Append, Stack as its core operation), type-checks, evaluates to exactly what \
                      the runtime evaluates the Delta to, and its reference JVP at a random point in a random \
                      direction is the program applied to that direction (the figure: the mean number of \
                      linear-operation nodes)",
        figure: Some(Figure {
            label: "linear-operation nodes (mean)",
            agg: Agg::Mean,
        }),
        check: Check::Case {
            strategy: || bulk(RetKind::Real),
            check: linear_itself,
        },
    }]
}

fn mk(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

fn nested<T>(shape: &[usize], data: &[T], leaf: &dyn Fn(&T) -> Expr) -> Expr {
    match shape.split_first() {
        None => leaf(&data[0]),
        Some((n, rest)) => {
            let m: usize = rest.iter().product();
            mk(ExprKind::Array(
                (0..*n)
                    .map(|k| nested(rest, &data[k * m..(k + 1) * m], leaf))
                    .collect(),
            ))
        }
    }
}

fn reals(t: &Tensor<Rat>) -> Expr {
    nested(&t.shape, &t.data, &|x| {
        mk(ExprKind::Lit(Lit::Real(x.clone())))
    })
}

fn ints(shape: &[usize], data: &[i64]) -> Expr {
    nested(shape, data, &|x| {
        mk(ExprKind::Lit(Lit::Int(BigInt::from(*x))))
    })
}

fn var(n: &str) -> Expr {
    mk(ExprKind::Var(n.to_string()))
}

/// The translation state: shared terms by id, and a binder counter.
struct Tr {
    shares: BTreeMap<u64, Expr>,
    binders: usize,
    linear: usize,
}

impl Tr {
    /// The index map `bs => [t_0[bs], …]` of a table into the leading dimensions `dims`.
    fn map(&mut self, t: &Table, dims: &[usize]) -> (Vec<String>, Vec<Expr>) {
        let bs: Vec<String> = (0..t.space.len())
            .map(|_| {
                self.binders += 1;
                format!("b{}", self.binders)
            })
            .collect();
        let comps = (0..t.prefix)
            .map(|c| {
                let data: Vec<i64> = t
                    .targets
                    .iter()
                    .map(|slot| match slot {
                        Some(s) => {
                            let below: usize = dims[c + 1..t.prefix].iter().product();
                            ((s / below) % dims[c]) as i64
                        }
                        None if c == 0 => dims[0] as i64,
                        None => 0,
                    })
                    .collect();
                let lit = ints(&t.space, &data);
                if bs.is_empty() {
                    lit
                } else {
                    mk(ExprKind::Index(
                        Box::new(lit),
                        bs.iter().map(|b| var(b)).collect(),
                    ))
                }
            })
            .collect();
        (bs, comps)
    }

    fn expr(&mut self, d: &RDelta<Rat>) -> Expr {
        let un = |p: Prim, a: Expr| mk(ExprKind::Prim(p, vec![a]));
        let bin = |op: BinOp, a: Expr, b: Expr| mk(ExprKind::Binary(op, Box::new(a), Box::new(b)));
        if !matches!(
            d.kind(),
            Kind::Zero
                | Kind::Input(_)
                | Kind::Share(..)
                | Kind::Add(..)
                | Kind::Neg(_)
                | Kind::Scale(..)
                | Kind::DivBy(..)
                | Kind::Select(..)
        ) {
            self.linear += 1;
        }
        match d.kind() {
            Kind::Zero => reals(&Tensor::filled(
                d.shape().to_vec(),
                Rat::from_integer(0.into()),
            )),
            Kind::Input(i) => var(&format!("dx{i}")),
            Kind::Share(id, body) => {
                if !self.shares.contains_key(id) {
                    let e = self.expr(body);
                    self.shares.insert(*id, e);
                }
                var(&format!("s{id}"))
            }
            Kind::Add(a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                bin(BinOp::Add, a, b)
            }
            Kind::Neg(a) => mk(ExprKind::Unary(UnOp::Neg, Box::new(self.expr(a)))),
            Kind::Scale(k, a) => bin(BinOp::Mul, reals(k), self.expr(a)),
            Kind::DivBy(k, a) => bin(BinOp::Div, self.expr(a), reals(k)),
            Kind::Select(b, x, y) => {
                let c = nested(&b.shape, &b.data, &|v| mk(ExprKind::Lit(Lit::Bool(*v))));
                let (x, y) = (self.expr(x), self.expr(y));
                mk(ExprKind::Prim(Prim::Select, vec![c, x, y]))
            }
            Kind::Index(a, ix) => {
                let is = ix.iter().map(|i| ints(&[], &[*i])).collect();
                mk(ExprKind::Index(Box::new(self.expr(a)), is))
            }
            Kind::Gather(a, t) => {
                let (bs, ix) = self.map(t, a.shape());
                mk(ExprKind::Gather(
                    t.space.clone(),
                    Box::new(self.expr(a)),
                    bs,
                    ix,
                ))
            }
            Kind::Scatter(a, t) => {
                let (bs, ix) = self.map(t, d.shape());
                mk(ExprKind::Scatter(
                    d.shape().to_vec(),
                    Box::new(self.expr(a)),
                    bs,
                    ix,
                ))
            }
            Kind::Sum(a) => un(Prim::Sum, self.expr(a)),
            Kind::SumOuter(a) => un(Prim::SumOuter, self.expr(a)),
            Kind::Replicate(n, a) => un(Prim::Replicate(*n), self.expr(a)),
            Kind::Transpose(p, a) => un(Prim::Transpose(p.clone()), self.expr(a)),
            Kind::Reshape(a) => un(Prim::Reshape(d.shape().to_vec()), self.expr(a)),
            Kind::Append(a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                mk(ExprKind::Prim(Prim::Append, vec![a, b]))
            }
            Kind::Stack(ds) => mk(ExprKind::Array(ds.iter().map(|x| self.expr(x)).collect())),
        }
    }
}

/// The Deltas `roots` over input leaves of `shapes` as a core function `main(dx0, …)`,
/// and the number of linear-operation nodes translated.
pub fn delta_program(roots: &[RDelta<Rat>], shapes: &[Vec<usize>]) -> (Function, usize) {
    let mut tr = Tr {
        shares: BTreeMap::new(),
        binders: 0,
        linear: 0,
    };
    let outs: Vec<Expr> = roots.iter().map(|d| tr.expr(d)).collect();
    let tys: Vec<Type> = roots
        .iter()
        .map(|d| Type::Array(Base::R, d.shape().to_vec()))
        .collect();
    let (mut body, ret) = match (outs.len(), tys.len()) {
        (1, 1) => (outs[0].clone(), tys[0].clone()),
        _ => (mk(ExprKind::Tuple(outs)), Type::Tuple(tys)),
    };
    for (id, e) in tr.shares.into_iter().rev() {
        body = mk(ExprKind::Let(
            Pat::Var(format!("s{id}")),
            Box::new(e),
            Box::new(body),
        ));
    }
    let params = shapes
        .iter()
        .enumerate()
        .map(|(i, s)| Param {
            name: format!("dx{i}"),
            ty: Type::Array(Base::R, s.clone()),
            span: Span::DUMMY,
        })
        .collect();
    let f = Function {
        name: "main".into(),
        params,
        ret,
        body,
    };
    (f, tr.linear)
}

fn linear_itself(case: &Case) -> Outcome {
    let f = load(case)?;
    let Some(g) = prepared(&f)? else {
        return Pass::vacuous();
    };
    let Some(fw) = run_forward(&g, &case.inputs)? else {
        return Pass::vacuous();
    };
    let mut xs = Vec::new();
    case.inputs.iter().for_each(|v| real_leaves(v, &mut xs));
    let deltas = fw.result.deltas();
    if xs.is_empty() || deltas.is_empty() {
        return Pass::vacuous();
    }
    let shapes: Vec<Vec<usize>> = xs.iter().map(|x| x.shape.clone()).collect();
    let (p, linear) = delta_program(&deltas, &shapes);
    let text = adora_core::pretty::function(&p);
    adora_core::check::check_function(&p)
        .map_err(|d| format!("the Delta as a core program does not check: {d}\n{text}"))?;
    let mut rng = aux_rng(case, 41);
    let dx: Vec<Value<Rat>> = xs
        .iter()
        .map(|x| Value::Real(random_tensor(&x.shape, &mut rng)))
        .collect();
    let at: Vec<Value<Rat>> = xs
        .iter()
        .map(|x| Value::Real(random_tensor(&x.shape, &mut rng)))
        .collect();
    let Some((got, _)) = call(eval(&p, &dx, &opts()), "evaluating the Delta program")? else {
        return Pass::vacuous();
    };
    let leaves: Vec<Option<Tensor<Rat>>> = dx
        .iter()
        .map(|v| match v {
            Value::Real(t) => Some(t.clone()),
            _ => None,
        })
        .collect();
    let mut got_leaves = Vec::new();
    real_leaves(&got, &mut got_leaves);
    let want: Vec<Tensor<Rat>> = deltas.iter().map(|d| tangent(d, &leaves)).collect();
    if got_leaves != want {
        return fail(format!(
            "the evaluator gives {got_leaves:?} on the Delta program, the runtime Delta {want:?}\n{text}"
        ));
    }
    let ts: Vec<Option<Value<Rat>>> = dx.iter().cloned().map(Some).collect();
    let Some((_, j)) = call(
        reference::jvp(&p, &at, &ts, &opts()),
        "the reference jvp of the Delta program",
    )?
    else {
        return Pass::vacuous();
    };
    if j != got {
        return fail(format!(
            "the reference JVP of the Delta program is {} but the program applied to the direction gives {}\n{text}",
            crate::values::literal(&j),
            crate::values::literal(&got)
        ));
    }
    Pass::figure(linear as f64)
}
