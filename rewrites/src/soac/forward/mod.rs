//! Forward mode of engine `soac`: the JVP derivative program by tangent statements
//! interleaved with the primal ones (seed 004, *AD for an Array Language with Nested
//! Parallelism*, §2.0.1 and §3; docs/engines/soac-forward.md).
//!
//! Every primal statement `y = e` of the source becomes `y = e'` followed by its tangent
//! statement `ẏ = …` in the same scope; bodies (lambdas of `map` and operators, `build`
//! and `loop` bodies, branches of `if`) are transformed in place, so free variables keep
//! their tangents. The tangent layout is `Reals` (`crate::engine::Layout`): the tangent
//! of a value of type `T` has the tangent type of seed 002 §5.1.5 (only its reals). A
//! value whose tangent is zero because it does not depend on a real input carries no
//! tangent at all ([`Dual::t`] is `None`); zeros are materialised only where a construct
//! needs one of each of its parts (tuples, branches, loop accumulators, stacks).
//!
//! | module | constructs |
//! |---|---|
//! | [`scalar`] | unary and binary operators, the primitives (partial derivatives read from `crate::prims`) |
//! | [`bulk`] | array literals, `stack`, indexing, `build`, `gather`, `scatter` |
//! | [`control`] | tuples, projections, `let`, `if`, `loop` |
//! | [`soacs`] | `map`, `reduce`, `scan`, `reduce_by_index`, `scatter_into` |
//!
//! Bodies whose result carries a tangent return the primal and the tangent stacked into
//! a new dimension (`[p, ṗ]`), since a `map` returns one array: the combinator then runs
//! once on primal and tangent together, and a transpose and two indexings take the pair
//! apart ([`Fwd::unstack`]). Operators of `reduce`, `scan` and `reduce_by_index` other
//! than `+` get a JVP lambda on such stacked pairs ([`soacs`]).

mod bulk;
mod control;
mod scalar;
mod soacs;

use crate::engine::{DerivativeProgram, Input, Layout, Output, Question, Signature};
use crate::kit::names::supply_for;
use crate::linear::tangent::tangent_type;
use adora_core::ast::{Expr, ExprKind, Function, Lit, Name, Param, Pat, Prim};
use adora_core::check::NodeTypes;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::types::{Base, Type};
use adora_core::visit::NameSupply;
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::HashMap;

/// A transformed value: its primal atom and its tangent atom (`None`: zero).
#[derive(Clone, Debug)]
pub(crate) struct Dual {
    /// The primal value (a variable or a literal).
    pub p: Expr,
    /// The tangent (a variable of the tangent type), `None` when it is zero.
    pub t: Option<Expr>,
}

impl Dual {
    fn constant(p: Expr) -> Dual {
        Dual { p, t: None }
    }
}

/// The JVP derivative program of `f`: `f_jvp(x…, ẋ…) -> (y, ẏ)` in the `Reals` layout
/// (a tangent parameter for each input with reals; the tangent output only when the
/// result has reals). It re-checks as an elaborated core function.
pub fn program(f: &Function) -> Result<DerivativeProgram> {
    adora_core::with_stack(|| build_program(f))
}

fn build_program(f: &Function) -> Result<DerivativeProgram> {
    let types = adora_core::check::node_types(f)?;
    let names: Vec<Name> = f.params.iter().map(|p| p.name.clone()).collect();
    let mut fwd = Fwd {
        types: &types,
        supply: supply_for(&names, &f.body),
        env: HashMap::new(),
        lets: Vec::new(),
    };
    let mut params = f.params.clone();
    let mut inputs: Vec<Input> = (0..f.params.len()).map(Input::Primal).collect();
    for (k, p) in f.params.iter().enumerate() {
        let t = tangent_type(&p.ty).map(|tt| {
            let name = fwd.supply.claim(&format!("d{}", p.name));
            params.push(Param {
                name: name.clone(),
                ty: tt,
                span: p.span,
            });
            inputs.push(Input::Tangent(k));
            var(&name)
        });
        fwd.env.insert(p.name.clone(), Dual { p: var(&p.name), t });
    }
    let d = fwd.jvp(&f.body)?;
    let (tail, ret, outputs) = match tangent_type(&f.ret) {
        Some(tt) => {
            let t = fwd.mat(d.t, &f.ret);
            (
                tuple(vec![d.p, t]),
                Type::Tuple(vec![f.ret.clone(), tt]),
                vec![Output::Value, Output::Tangent],
            )
        }
        None => (d.p, f.ret.clone(), vec![Output::Value]),
    };
    let body = wrap(std::mem::take(&mut fwd.lets), tail);
    let dp = DerivativeProgram {
        question: Question::Jvp,
        primal: f.clone(),
        function: Function {
            name: format!("{}_jvp", f.name),
            params,
            ret,
            body,
        },
        signature: Signature {
            inputs,
            outputs,
            layout: Layout::Reals,
        },
    };
    dp.check(f).map_err(|d| {
        internal(format!(
            "its JVP program does not re-check: {}\n{}",
            d.message,
            adora_core::pretty::function(&dp.function)
        ))
    })?;
    Ok(dp)
}

/// The state of the transformation: node types of the source, the one name supply, the
/// source variables' transformed values and the statements of the current scope.
pub(crate) struct Fwd<'a> {
    types: &'a NodeTypes,
    supply: NameSupply,
    env: HashMap<Name, Dual>,
    lets: Vec<(Pat, Expr)>,
}

impl Fwd<'_> {
    /// The transformed value of the source expression `e`, after its statements.
    fn jvp(&mut self, e: &Expr) -> Result<Dual> {
        use ExprKind as K;
        match &e.kind {
            K::Var(x) => self
                .env
                .get(x)
                .cloned()
                .ok_or_else(|| internal(format!("the variable `{x}` is unbound"))),
            K::Lit(_) => Ok(Dual::constant(e.clone())),
            K::Array(es) => self.array(e, es),
            K::Tuple(es) => self.tuple(e, es),
            K::Proj(x, k) => self.proj(x, *k),
            K::Let(p, v, b) => self.let_in(p, v, b),
            K::If(c, a, b) => self.if_then(e, c, a, b),
            K::Unary(op, x) => self.unary(e, *op, x),
            K::Binary(op, a, b) => self.binary(e, *op, a, b),
            K::Prim(p, args) => self.prim(e, p, args),
            K::Index(x, is) => self.index(e, x, is),
            K::Build(sh, is, b) => self.build(e, sh, is, b),
            K::Gather(sh, x, bs, ix) => self.gather(e, sh, x, bs, ix, false),
            K::Scatter(sh, x, bs, ix) => self.gather(e, sh, x, bs, ix, true),
            K::Map(lam, xs) => self.map(e, lam, xs),
            K::Reduce(op, ne, xs) => self.reduce(e, op, ne, xs, false),
            K::Scan(op, ne, xs) => self.reduce(e, op, ne, xs, true),
            K::ReduceByIndex {
                dest,
                op,
                ne,
                is,
                vs,
            } => self.reduce_by_index(e, dest, op, ne, is, vs),
            K::ScatterInto { dest, is, vs } => self.scatter_into(e, dest, is, vs),
            K::Loop {
                acc,
                init,
                var,
                count,
                body,
            } => self.loop_(e, acc, init, var, *count, body),
            K::Call(name, _) => Err(internal(format!(
                "the call of `{name}` was not inlined (the input is not elaborated)"
            ))),
        }
    }

    /// The type of the source node `e`.
    fn ty(&self, e: &Expr) -> Result<Type> {
        self.types
            .get(e)
            .cloned()
            .ok_or_else(|| internal("a source node has no type"))
    }

    /// Whether the source node `e` carries reals (so has a tangent).
    fn real(&self, e: &Expr) -> Result<bool> {
        Ok(self.ty(e)?.has_reals())
    }

    /// `e` itself when it is an atom, else a fresh `base_k` bound to it.
    fn bind(&mut self, base: &str, e: Expr) -> Expr {
        if is_atom(&e) {
            return e;
        }
        let x = self.supply.fresh(base);
        self.lets.push((Pat::Var(x.clone()), e));
        var(&x)
    }

    /// Binds `e` to a name claimed for the source binder `name` (an atom is aliased).
    fn bind_as(&mut self, name: &str, e: Expr) -> Expr {
        if is_atom(&e) {
            return e;
        }
        let x = self.supply.claim(name);
        self.lets.push((Pat::Var(x.clone()), e));
        var(&x)
    }

    /// Runs `f` in a new scope: its statements come back apart from the enclosing ones.
    fn scoped<R>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<R>,
    ) -> Result<(Vec<(Pat, Expr)>, R)> {
        let outer = std::mem::take(&mut self.lets);
        let r = f(self);
        let inner = std::mem::replace(&mut self.lets, outer);
        Ok((inner, r?))
    }

    /// The tangent `t` of a value of type `ty`, zeros when it is `None` (only for types
    /// with reals; else `None`).
    fn mat_opt(&mut self, t: Option<Expr>, ty: &Type) -> Option<Expr> {
        let tt = tangent_type(ty)?;
        Some(t.unwrap_or_else(|| zeros(&tt)))
    }

    /// [`Fwd::mat_opt`] for a type known to have reals.
    fn mat(&mut self, t: Option<Expr>, ty: &Type) -> Expr {
        self.mat_opt(t, ty).unwrap_or_else(|| zeros(ty))
    }

    /// The pair `(p, t)` of a stacked array `r` whose dimension `k` (of `rank`) holds the
    /// primal (index 0) and the tangent (index 1).
    fn unstack(&mut self, r: Expr, k: usize, rank: usize) -> Dual {
        let front = if k == 0 {
            r
        } else {
            let mut perm = vec![k];
            perm.extend((0..rank).filter(|&d| d != k));
            self.bind("tr", prim(Prim::Transpose(perm), vec![r]))
        };
        let p = self.bind("p", index(front.clone(), 0));
        let t = self.bind("dp", index(front, 1));
        Dual { p, t: Some(t) }
    }

    /// The arrays `xs` and `dxs` (rank `rank >= 1`) stacked into dimension 1:
    /// `[n, 2, …]`, row `i` the pair of slices `[xs[i], dxs[i]]`.
    fn stack_inner(&mut self, xs: Expr, dxs: Expr, rank: usize) -> Expr {
        let both = self.bind("st", array(vec![xs, dxs]));
        let mut perm = vec![1, 0];
        perm.extend(2..=rank);
        self.bind("zs", prim(Prim::Transpose(perm), vec![both]))
    }
}

/// An internal error of engine `soac` (a bug, never a property of the input program).
pub(crate) fn internal(msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Internal,
        Span::DUMMY,
        format!("internal error: engine soac: {}", msg.into()),
    )
}

/// An expression of `kind` without a source position (a generated node).
pub(crate) fn mk(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

/// The variable `n`.
pub(crate) fn var(n: &str) -> Expr {
    mk(ExprKind::Var(n.to_string()))
}

/// Whether `e` is an atom: a variable or a literal.
pub(crate) fn is_atom(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Var(_) | ExprKind::Lit(_))
}

/// The real literal `n`.
pub(crate) fn real_lit(n: i64) -> Expr {
    mk(ExprKind::Lit(Lit::Real(BigRational::from_integer(
        BigInt::from(n),
    ))))
}

/// The integer literal `n`.
pub(crate) fn int_lit(n: i64) -> Expr {
    mk(ExprKind::Lit(Lit::Int(BigInt::from(n))))
}

/// The built-in `p` applied to `args`.
pub(crate) fn prim(p: Prim, args: Vec<Expr>) -> Expr {
    mk(ExprKind::Prim(p, args))
}

/// The array literal `[e1, …, en]`.
pub(crate) fn array(es: Vec<Expr>) -> Expr {
    mk(ExprKind::Array(es))
}

/// The tuple `(e1, …, en)`.
pub(crate) fn tuple(es: Vec<Expr>) -> Expr {
    mk(ExprKind::Tuple(es))
}

/// `e[i]` for a constant index `i`.
pub(crate) fn index(e: Expr, i: i64) -> Expr {
    mk(ExprKind::Index(Box::new(e), vec![int_lit(i)]))
}

/// `c` broadcast to `shape` by explicit `replicate`s (elaborated programs have no
/// implicit broadcasting).
pub(crate) fn filled(shape: &[usize], c: Expr) -> Expr {
    shape
        .iter()
        .rev()
        .fold(c, |acc, &n| prim(Prim::Replicate(n), vec![acc]))
}

/// Zeros of the tangent type `tt`.
pub(crate) fn zeros(tt: &Type) -> Expr {
    match tt {
        Type::Array(Base::R, s) => filled(s, real_lit(0)),
        Type::Array(_, s) => filled(s, int_lit(0)),
        Type::Tuple(ts) => tuple(ts.iter().map(zeros).collect()),
    }
}

/// `let p1 = v1 in … tail`.
pub(crate) fn wrap(lets: Vec<(Pat, Expr)>, tail: Expr) -> Expr {
    lets.into_iter().rev().fold(tail, |acc, (p, v)| {
        mk(ExprKind::Let(p, Box::new(v), Box::new(acc)))
    })
}

/// The shape of an array type (empty for tuples, which have none).
pub(crate) fn shape_of(ty: &Type) -> Vec<usize> {
    match ty {
        Type::Array(_, s) => s.clone(),
        Type::Tuple(_) => Vec::new(),
    }
}
