//! The rules run standalone, without the reverse framework (docs/engines/soac-rules.md,
//! "Checking the rules"): [`StandaloneEnv`], a [`RevEnv`] whose reverse of an operator
//! lambda is a small symbolic differentiator of elementwise bodies, and
//! [`vjp_program`], the VJP derivative program of a function whose body is one
//! `reduce`, `scan`, `reduce_by_index` or `scatter_into` of variables, built from the
//! rule's [`RuleOutput`]. [`check`] compares it exactly with the reference VJP.

use super::code::*;
use super::{reduce, reduce_by_index, scan, scatter_into, LambdaVjp, RevEnv, Stmt};
use crate::engine::harness::{evaluate, Answer, Query};
use crate::engine::program::{DerivativeProgram, Input, Layout, Output, Question, Signature};
use crate::kit::names::supply_for;
use adora_core::ast::{BinOp, Expr, ExprKind, Function, Lambda, Lit, Name, Param, Pat, Prim, UnOp};
use adora_core::diag::{Result, Span};
use adora_core::types::Type;
use adora_core::visit::{all_binders, free_vars, NameSupply};
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use std::collections::{BTreeMap, BTreeSet};

/// A [`RevEnv`] for one function: names from one supply seeded with the function, the
/// types of its parameters (the free variables an operator may use).
pub struct StandaloneEnv {
    supply: NameSupply,
    types: BTreeMap<Name, Type>,
}

impl StandaloneEnv {
    /// The environment of `f`.
    pub fn new(f: &Function) -> Self {
        let params: Vec<Name> = f.params.iter().map(|p| p.name.clone()).collect();
        StandaloneEnv {
            supply: supply_for(&params, &f.body),
            types: f
                .params
                .iter()
                .map(|p| (p.name.clone(), p.ty.clone()))
                .collect(),
        }
    }
}

impl RevEnv for StandaloneEnv {
    fn fresh(&mut self, base: &str) -> Name {
        self.supply.fresh(base)
    }

    fn lambda_vjp(&mut self, lam: &Lambda, params: &[Type], body: &Type) -> Result<LambdaVjp> {
        let copy = copy_lambda(self, lam);
        if !all_binders(&copy.body).is_empty() {
            return Err(unsupported(
                "the standalone reverse differentiates operator bodies without binders only",
            ));
        }
        let shape = |ty: &Type| {
            real_shape(ty)
                .cloned()
                .ok_or_else(|| unsupported(format!("an operator over {ty}")))
        };
        let sh = shape(body)?;
        let eb = self.fresh("e_bar");
        let mut adj: BTreeMap<Name, Vec<Expr>> = BTreeMap::new();
        let mut types = self.types.clone();
        types.extend(copy.params.iter().cloned().zip(params.iter().cloned()));
        self.back(&copy.body, var(&eb), &sh, &types, &mut adj)?;
        let free: Vec<(Name, Type)> = free_vars(&copy.body)
            .into_iter()
            .filter(|v| !copy.params.contains(v))
            .filter_map(|v| {
                let ty = self.types.get(&v)?.clone();
                ty.has_reals().then_some((v, ty))
            })
            .collect();
        let mut parts = Vec::new();
        let named = copy.params.iter().cloned().zip(params.iter().cloned());
        for (v, ty) in named.chain(free.iter().cloned()) {
            let zero = zeros(&shape(&ty)?);
            let sum = adj.remove(&v).and_then(|cs| cs.into_iter().reduce(add));
            parts.push(sum.unwrap_or(zero));
        }
        let mut ps = copy.params.clone();
        ps.push(eb);
        Ok(LambdaVjp {
            lambda: lambda(ps, tuple(parts)),
            free,
        })
    }
}

impl StandaloneEnv {
    /// Propagates the adjoint `a` of the expression `e` (shape `sh`; elementwise
    /// operations, `replicate`, and a variable indexed by one integer literal) to its
    /// variables (types `types`).
    fn back(
        &mut self,
        e: &Expr,
        a: Expr,
        sh: &[usize],
        types: &BTreeMap<Name, Type>,
        out: &mut BTreeMap<Name, Vec<Expr>>,
    ) -> Result<()> {
        if free_vars(e).is_empty() {
            return Ok(());
        }
        match &e.kind {
            ExprKind::Var(v) => {
                out.entry(v.clone()).or_default().push(a);
                Ok(())
            }
            ExprKind::Unary(UnOp::Neg, x) => self.back(x, neg(a), sh, types, out),
            ExprKind::Binary(BinOp::Add, x, y) => {
                self.back(x, a.clone(), sh, types, out)?;
                self.back(y, a, sh, types, out)
            }
            ExprKind::Binary(BinOp::Sub, x, y) => {
                self.back(x, a.clone(), sh, types, out)?;
                self.back(y, neg(a), sh, types, out)
            }
            ExprKind::Binary(BinOp::Mul, x, y) => {
                self.back(x, mul(a.clone(), (**y).clone()), sh, types, out)?;
                self.back(y, mul(a, (**x).clone()), sh, types, out)
            }
            ExprKind::Prim(p @ (Prim::Min | Prim::Max), args) if args.len() == 2 => {
                let cmp = if *p == Prim::Min {
                    BinOp::Le
                } else {
                    BinOp::Ge
                };
                let first = bin(cmp, args[0].clone(), args[1].clone());
                let to_first = select(first.clone(), a.clone(), zeros(sh));
                self.back(&args[0], to_first, sh, types, out)?;
                self.back(&args[1], select(first, zeros(sh), a), sh, types, out)
            }
            ExprKind::Prim(Prim::Replicate(_), args) if args.len() == 1 && !sh.is_empty() => {
                let summed = prim(Prim::SumOuter, vec![a]);
                self.back(&args[0], summed, &sh[1..], types, out)
            }
            ExprKind::Index(x, ix) if ix.len() == 1 => {
                let (ExprKind::Var(v), ExprKind::Lit(Lit::Int(k))) = (&x.kind, &ix[0].kind) else {
                    return Err(unsupported(
                        "the standalone reverse indexes variables by literals only",
                    ));
                };
                let Some(xsh) = types.get(v).and_then(real_shape).cloned() else {
                    return Err(unsupported(format!("no real array type for `{v}`")));
                };
                let k = i64::try_from(k).map_err(|_| unsupported("an index beyond 64 bits"))?;
                let u = self.fresh("u");
                let one_hot = ite(bin(BinOp::Eq, var(&u), int(k)), a, zeros(&xsh[1..]));
                self.back(x, build(vec![xsh[0]], vec![u], one_hot), &xsh, types, out)
            }
            _ => Err(unsupported(format!(
                "the standalone reverse does not differentiate `{}`",
                adora_core::pretty::expr(e)
            ))),
        }
    }
}

/// The VJP derivative program of `f`, whose body is one `reduce`, `scan`,
/// `reduce_by_index` or `scatter_into` of variables: `let y = body in` the rule's
/// bindings, returning `(y, x̄1, …)` for the real parameters.
pub fn vjp_program(f: &Function) -> Result<DerivativeProgram> {
    let mut env = StandaloneEnv::new(f);
    let (y, yb) = (env.fresh("y"), env.fresh("y_bar"));
    let (operands, out) = {
        let stmt = |operands: Vec<Expr>| {
            let types = operands
                .iter()
                .map(|o| match &o.kind {
                    ExprKind::Var(v) => env.types.get(v).cloned(),
                    _ => None,
                })
                .collect::<Option<Vec<Type>>>()
                .ok_or_else(|| unsupported("operands must be parameters"));
            types.map(|types| Stmt {
                operands,
                types,
                result: var(&y),
                result_ty: f.ret.clone(),
                adjoint: var(&yb),
            })
        };
        match &f.body.kind {
            ExprKind::Reduce(op, ne, xs) => {
                let s = stmt(vec![(**ne).clone(), (**xs).clone()])?;
                (s.operands.clone(), reduce::reverse(&mut env, op, &s)?)
            }
            ExprKind::Scan(op, ne, xs) => {
                let s = stmt(vec![(**ne).clone(), (**xs).clone()])?;
                (s.operands.clone(), scan::reverse(&mut env, op, &s)?)
            }
            ExprKind::ReduceByIndex {
                dest,
                op,
                ne,
                is,
                vs,
            } => {
                let ops = [dest, ne, is, vs].map(|e| (**e).clone()).to_vec();
                let s = stmt(ops)?;
                (
                    s.operands.clone(),
                    reduce_by_index::reverse(&mut env, op, &s)?,
                )
            }
            ExprKind::ScatterInto { dest, is, vs } => {
                let s = stmt([dest, is, vs].map(|e| (**e).clone()).to_vec())?;
                (s.operands.clone(), scatter_into::reverse(&mut env, &s)?)
            }
            _ => {
                return Err(unsupported(
                    "not a reduce, scan, reduce_by_index or scatter_into",
                ))
            }
        }
    };
    let mut contributions: BTreeMap<Name, Vec<Expr>> = BTreeMap::new();
    for (o, c) in operands.iter().zip(out.operands) {
        if let (ExprKind::Var(v), Some(c)) = (&o.kind, c) {
            contributions.entry(v.clone()).or_default().push(c);
        }
    }
    for (v, c) in out.free {
        contributions.entry(v).or_default().push(c);
    }
    let mut results = vec![var(&y)];
    let mut outputs = vec![Output::Value];
    let mut rets = vec![f.ret.clone()];
    for (k, p) in f.params.iter().enumerate() {
        let Some(sh) = real_shape(&p.ty) else {
            continue;
        };
        let sum = contributions
            .remove(&p.name)
            .and_then(|cs| cs.into_iter().reduce(add));
        results.push(sum.unwrap_or_else(|| zeros(sh)));
        outputs.push(Output::Cotangent(k));
        rets.push(p.ty.clone());
    }
    let tail = tuple(results);
    let body = out
        .lets
        .into_iter()
        .rev()
        .fold(tail, |b, (p, v)| let_(p, v, b));
    let body = let_(Pat::Var(y), f.body.clone(), body);
    let mut params = f.params.clone();
    params.push(Param {
        name: yb,
        ty: f.ret.clone(),
        span: Span::DUMMY,
    });
    let mut inputs: Vec<Input> = (0..f.params.len()).map(Input::Primal).collect();
    inputs.push(Input::Cotangent);
    Ok(DerivativeProgram {
        question: Question::Vjp,
        primal: f.clone(),
        function: Function {
            name: format!("{}_vjp", f.name),
            params,
            ret: Type::Tuple(rets),
            body,
        },
        signature: Signature {
            inputs,
            outputs,
            layout: Layout::Full,
        },
    })
}

/// Builds [`vjp_program`] of `f`, checks it (types, signature, unique binders, printing
/// that parses back to the same program), runs it
/// in exact mode and compares value and cotangents with the reference VJP with `==`.
/// `Err` carries a readable failure.
pub fn check(
    f: &Function,
    inputs: &[Value<Rat>],
    cotangent: &Value<Rat>,
) -> std::result::Result<(), String> {
    let show = |d: adora_core::diag::Diagnostic| d.message;
    let dp = vjp_program(f).map_err(show)?;
    dp.check(f)
        .map_err(|d| format!("ill-formed derivative program: {}", d.message))?;
    let mut seen = BTreeSet::new();
    let params = dp.function.params.iter().map(|p| (&p.name, Span::DUMMY));
    for (b, _) in params.chain(all_binders(&dp.function.body)) {
        if !seen.insert(b.clone()) {
            return Err(format!("binder `{b}` is not unique"));
        }
    }
    let text = adora_core::pretty::function(&dp.function);
    let parsed = adora_core::parser::parse_program(&text).map_err(|d| {
        format!(
            "the printed derivative program does not parse: {}\n{text}",
            d.message
        )
    })?;
    if parsed.defs.len() != 1 || parsed.defs[0].body != dp.function.body {
        return Err(format!(
            "the printed derivative program parses to another program:\n{text}"
        ));
    }
    let opts = EvalOptions::default();
    let want = reference::vjp(f, inputs, cotangent, &opts).map_err(show)?;
    let got = evaluate(&dp, f, inputs, &Query::Vjp(cotangent.clone()), &opts).map_err(show)?;
    let Answer::Gradient(got) = got else {
        return Err("the program answered a JVP".into());
    };
    if got != want {
        return Err(format!(
            "rule VJP differs from the reference\n  rule:      {:?}\n  reference: {:?}",
            got.grads, want.grads
        ));
    }
    Ok(())
}
