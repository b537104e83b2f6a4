//! Properties of engine `dual` on seed 000 §2.7 (discrete inputs and outputs), §4
//! (the naive baselines: scalar dual numbers, dual arrays without bot; linear array
//! operations are their own derivative) and App. A (Jacobians of array outputs, one
//! reverse pass per output scalar). Shared helpers are in [`super::dual_delta`].
//!
//! The naive pipelines do not exist as engines of their own: scalar dual numbers are
//! engine `dual-scalar` (`dual::scalar`), and "dual arrays without bot" is the runtime
//! forward and reverse pass (`runtime_vjp_normal`) on the program with its `build`
//! executed index by index — for `sum(build n (i => x[i] * y[i]))` the build-free
//! `sum([x[0] * y[0], …, x[n-1] * y[n-1]])`, which is what §4.2–§4.4's dual arrays do
//! with a `build` (§4.3: the Delta of `build1` is the array of its bodies' Deltas).

use super::dual_delta::{bulk, call, prepared, real_leaves, run_forward};
use super::util::{aux_rng, fail, load, load_text, opts};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::{Case, RetKind};
use crate::values::{literal, rat, reals, with_reals, Rat};
use adora_core::ast::{Expr, ExprKind, Function, Pat};
use adora_core::types::Type;
use adora_core::Span;
use adora_rewrites::dual::{
    eval_gradient_program, gradient_program, runtime_delta_nodes, runtime_vjp_normal, scalar,
};
use adora_semantics::reference;
use adora_semantics::value::{Tensor, Value};

/// The baseline, discrete and Jacobian properties.
pub fn properties() -> Vec<Property> {
    vec![
        Property {
            name: "dual/discrete-inputs-constant",
            source: "seed 000 §2.7 (derivatives of discrete types)",
            fragment: "bulk",
            description: "Input nodes are given to real input arrays only and Deltas to real result arrays only; \
                          the runtime VJP has no gradient for integer or boolean parameters and equals the \
                          reference; substituting every integer or boolean input by its value as a `let`-bound \
                          constant leaves the gradient unchanged; and the integer and boolean parts of the \
                          cotangent are ignored (the figure: the share of cases with discrete inputs or outputs)",
            figure: Some(Figure { label: "cases with discrete parts", agg: Agg::Mean }),
            check: Check::Case { strategy: || bulk(RetKind::Any), check: discrete },
        },
        Property {
            name: "dual/naive-delta-size-linear",
            source: "seed 000 §4.1 (the Delta explosion)",
            fragment: "shapes",
            description: "dual-scalar's Delta of sum(build n (i => x[i] * y[i])) at n, 2n and 3n has a node count \
                          affine in n with a positive slope, and dual's (after bot) the same count at all three \
                          (the figure: dual-scalar's nodes per element)",
            figure: Some(Figure { label: "dual-scalar Delta nodes per element", agg: Agg::Max }),
            check: Check::Dims { count: 1, max: 12, check: naive_linear },
        },
        Property {
            name: "dual/one-hot-quadratic-without-bot",
            source: "seed 000 §4.4 (the one-hot problem)",
            fragment: "shapes",
            description: "without bot (the build executed index by index, dual arrays), the gradient of \
                          sum(build n (i => x[i] * y[i])) transposes 2n Index nodes into one-hot arrays of 2n² \
                          scalars in all; after bot it creates none; both gradients equal the reference (the \
                          figure: one-hot scalars / n² without bot)",
            figure: Some(Figure { label: "one-hot scalars / n^2", agg: Agg::Max }),
            check: Check::Dims { count: 1, max: 12, check: one_hot_quadratic },
        },
        Property {
            name: "dual/jacobian-rows-equal-vjps",
            source: "seed 000 App. A (Jacobians of array outputs)",
            fragment: "bulk",
            description: "for every scalar k of an array or tuple result, one reverse pass with cotangent e_k \
                          (runtime, and the gradient program) gives row k of the Jacobian: the reference VJP \
                          at e_k, and the k-th entries of the forward columns eval(d)(e_j); exact (the figure: \
                          the largest number of rows)",
            figure: Some(Figure { label: "max Jacobian rows", agg: Agg::Max }),
            check: Check::Case { strategy: || bulk(RetKind::Real), check: jacobian_rows },
        },
    ]
}

fn sp() -> Span {
    Span::DUMMY
}

/// `f` with every parameter without reals replaced by a `let` of its input's value.
fn constants_inlined(
    f: &Function,
    inputs: &[Value<Rat>],
) -> Result<(Function, Vec<Value<Rat>>), String> {
    let mut g = f.clone();
    g.params.clear();
    let mut kept = Vec::new();
    let mut body = f.body.clone();
    for (p, v) in f.params.iter().zip(inputs).rev() {
        if p.ty.has_reals() {
            g.params.insert(0, p.clone());
            kept.insert(0, v.clone());
            continue;
        }
        let e =
            adora_core::parser::parse_literal(&literal(v)).map_err(|d| format!("literal: {d}"))?;
        body = Expr::new(
            ExprKind::Let(Pat::Var(p.name.clone()), Box::new(e), Box::new(body)),
            sp(),
        );
    }
    g.body = body;
    adora_core::check::check_function(&g)
        .map_err(|d| format!("the program with constants does not check: {d}"))?;
    Ok((g, kept))
}

/// The value with every integer increased by 1 and every boolean negated.
fn bump_discrete(v: &Value<Rat>) -> Value<Rat> {
    match v {
        Value::Real(t) => Value::Real(t.clone()),
        Value::Int(t) => Value::Int(t.map(|x| x + 1)),
        Value::Bool(t) => Value::Bool(t.map(|b| !b)),
        Value::Tuple(vs) => Value::Tuple(vs.iter().map(bump_discrete).collect()),
    }
}

fn has_discrete(ty: &Type) -> bool {
    match ty {
        Type::Array(b, _) => *b != adora_core::types::Base::R,
        Type::Tuple(ts) => ts.iter().any(has_discrete),
    }
}

fn discrete(case: &Case) -> Outcome {
    let f = load(case)?;
    let Some(g) = prepared(&f)? else {
        return Pass::vacuous();
    };
    let Some(fw) = run_forward(&g, &case.inputs)? else {
        return Pass::vacuous();
    };
    let mut xs = Vec::new();
    case.inputs.iter().for_each(|v| real_leaves(v, &mut xs));
    if fw.inputs != xs.len() {
        return fail(format!(
            "{} Input nodes for {} real input arrays",
            fw.inputs,
            xs.len()
        ));
    }
    let value = fw.result.primal();
    let mut ys = Vec::new();
    real_leaves(&value, &mut ys);
    if fw.result.deltas().len() != ys.len() {
        return fail(format!(
            "{} Deltas for {} real result arrays",
            fw.result.deltas().len(),
            ys.len()
        ));
    }
    let discrete_in = f.params.iter().any(|p| has_discrete(&p.ty));
    let discrete_out = has_discrete(&f.ret);
    if xs.is_empty() || ys.is_empty() {
        return Pass::figure(0.0);
    }
    let mut rng = aux_rng(case, 31);
    let ct = with_reals(
        &value,
        &reals(&value)
            .iter()
            .map(|_| super::util::random_rat(&mut rng))
            .collect::<Vec<_>>(),
    );
    let Some((got, _)) = call(
        runtime_vjp_normal(&g, &case.inputs, &ct, &opts()),
        "the runtime vjp",
    )?
    else {
        return Pass::vacuous();
    };
    let Some(want) = call(
        reference::vjp(&f, &case.inputs, &ct, &opts()),
        "the reference vjp",
    )?
    else {
        return Pass::vacuous();
    };
    if got.grads != want.grads {
        return fail(format!(
            "the runtime vjp gives {:?}, the reference {:?}",
            got.grads, want.grads
        ));
    }
    for (p, gr) in f.params.iter().zip(&got.grads) {
        if !p.ty.has_reals() && gr.is_some() {
            return fail(format!(
                "a gradient for the discrete parameter `{}`",
                p.name
            ));
        }
    }
    if discrete_out {
        let other = bump_discrete(&ct);
        let Some((g2, _)) = call(
            runtime_vjp_normal(&g, &case.inputs, &other, &opts()),
            "the runtime vjp",
        )?
        else {
            return Pass::vacuous();
        };
        if g2.grads != got.grads {
            return fail(format!(
                "the discrete part of the cotangent changes the gradient: {} vs {}",
                literal(&ct),
                literal(&other)
            ));
        }
    }
    if discrete_in {
        let (h, kept) = constants_inlined(&f, &case.inputs)?;
        let Some(hg) = prepared(&h)? else {
            return Pass::vacuous();
        };
        let Some((g3, _)) = call(
            runtime_vjp_normal(&hg, &kept, &ct, &opts()),
            "the runtime vjp with constants",
        )?
        else {
            return Pass::vacuous();
        };
        let real_grads: Vec<_> = got
            .grads
            .iter()
            .zip(&f.params)
            .filter(|(_, p)| p.ty.has_reals())
            .map(|(g, _)| g.clone())
            .collect();
        if g3.grads != real_grads {
            return fail(format!(
                "with the discrete inputs as constants the gradient is {:?}, with them as inputs {:?}:\n{}",
                g3.grads,
                real_grads,
                adora_core::pretty::function(&h)
            ));
        }
    }
    Pass::figure(if discrete_in || discrete_out {
        1.0
    } else {
        0.0
    })
}

/// Inputs of the dot-product family, all non-zero (dual-scalar drops exact zero scales).
fn dot_inputs(n: usize) -> Vec<Value<Rat>> {
    let v = |k: i64| {
        Value::Real(Tensor {
            shape: vec![n],
            data: (0..n as i64).map(|i| rat((i * k) % 7 + 1, 2)).collect(),
        })
    };
    vec![v(3), v(5)]
}

fn dot_build(n: usize) -> String {
    format!("def main(x: R[{n}], y: R[{n}]) -> R = sum(build {n} (i => x[i] * y[i]))")
}

fn naive_linear(dims: &[usize]) -> Outcome {
    let n = dims[0] + 1;
    let mut sc = Vec::new();
    let mut du = Vec::new();
    for m in [n, 2 * n, 3 * n] {
        let f = load_text(&dot_build(m), "main")?;
        let xs = dot_inputs(m);
        let Some(c) = call(scalar::delta_nodes(&f, &xs, &opts()), "dual-scalar")? else {
            return Pass::vacuous();
        };
        let Some(g) = prepared(&f)? else {
            return Pass::vacuous();
        };
        let Some(d) = call(runtime_delta_nodes(&g, &xs, &opts()), "the forward pass")? else {
            return Pass::vacuous();
        };
        sc.push(c as i64);
        du.push(d);
    }
    let (s1, s2) = (sc[1] - sc[0], sc[2] - sc[1]);
    if s1 != s2 || s1 <= 0 {
        return fail(format!("dual-scalar's Delta nodes at n = {n}, {}, {}: {sc:?} (not affine with a positive slope)", 2 * n, 3 * n));
    }
    if du[0] != du[1] || du[1] != du[2] {
        return fail(format!(
            "dual's Delta nodes at n = {n}, {}, {}: {du:?}",
            2 * n,
            3 * n
        ));
    }
    Pass::figure(s1 as f64 / n as f64)
}

fn one_hot_quadratic(dims: &[usize]) -> Outcome {
    let n = dims[0] + 1;
    let xs = dot_inputs(n);
    let one = Value::real(rat(1, 1));
    let f = load_text(&dot_build(n), "main")?;
    let Some(want) = call(
        reference::gradient(&f, &xs, &opts()),
        "the reference gradient",
    )?
    else {
        return Pass::vacuous();
    };
    let terms: Vec<String> = (0..n).map(|i| format!("x[{i}] * y[{i}]")).collect();
    let unrolled = format!(
        "def main(x: R[{n}], y: R[{n}]) -> R = sum([{}])",
        terms.join(", ")
    );
    let u = load_text(&unrolled, "main")?;
    let Some((gu, su)) = call(
        runtime_vjp_normal(&u, &xs, &one, &opts()),
        "the pass without bot",
    )?
    else {
        return Pass::vacuous();
    };
    let Some(g) = prepared(&f)? else {
        return Pass::vacuous();
    };
    let Some((gb, sb)) = call(
        runtime_vjp_normal(&g, &xs, &one, &opts()),
        "the pass after bot",
    )?
    else {
        return Pass::vacuous();
    };
    if gu.grads != want.grads || gb.grads != want.grads {
        return fail(format!(
            "gradients without bot {:?}, after bot {:?}, reference {:?}",
            gu.grads, gb.grads, want.grads
        ));
    }
    if su.one_hots != 2 * n {
        return fail(format!(
            "without bot: {} one-hot arrays for n = {n}",
            su.one_hots
        ));
    }
    let (mut stats_u, mut stats_b) = (None, None);
    for (prog, slot) in [(&u, &mut stats_u), (&g, &mut stats_b)] {
        let Some(fw) = run_forward(prog, &xs)? else {
            return Pass::vacuous();
        };
        let roots = fw
            .result
            .deltas()
            .into_iter()
            .map(|d| (d, Tensor::scalar(rat(1, 1))))
            .collect();
        let bp = adora_rewrites::dual::runtime::backprop(roots, fw.inputs);
        *slot = Some((bp.one_hots, bp.trace.one_hot_scalars));
    }
    let (Some((hu, vu)), Some((hb, vb))) = (stats_u, stats_b) else {
        return Pass::vacuous();
    };
    if hu != 2 * n || vu != 2 * n * n {
        return fail(format!(
            "without bot: {hu} one-hot arrays of {vu} scalars for n = {n} (want {} and {})",
            2 * n,
            2 * n * n
        ));
    }
    if hb != 0 || vb != 0 || sb.one_hots != 0 {
        return fail(format!(
            "after bot: {hb} one-hot arrays of {vb} scalars for n = {n}:\n{}",
            adora_core::pretty::function(&g)
        ));
    }
    Pass::figure(vu as f64 / (n * n) as f64)
}

fn unit(like: &Value<Rat>, k: usize) -> Value<Rat> {
    let xs: Vec<Rat> = (0..reals(like).len())
        .map(|j| rat((j == k) as i64, 1))
        .collect();
    with_reals(like, &xs)
}

fn jacobian_rows(case: &Case) -> Outcome {
    let f = load(case)?;
    let Some(g) = prepared(&f)? else {
        return Pass::vacuous();
    };
    let Some(fw) = run_forward(&g, &case.inputs)? else {
        return Pass::vacuous();
    };
    let value = fw.result.primal();
    let m = reals(&value).len();
    let n: usize = case.inputs.iter().map(|x| reals(x).len()).sum();
    if m == 0 || n == 0 || m > 64 {
        return Pass::vacuous();
    }
    let gp = adora_core::with_stack(|| gradient_program(&f))
        .map_err(|d| format!("the gradient program fails: {d}"))?;
    let deltas = fw.result.deltas();
    let mut xs = Vec::new();
    case.inputs.iter().for_each(|v| real_leaves(v, &mut xs));
    // Forward columns: column j = eval(d)(e_j), flattened over the result's real scalars.
    let mut columns: Vec<Vec<Rat>> = Vec::new();
    for (leaf, x) in xs.iter().enumerate() {
        for k in 0..x.data.len() {
            let mut t = Tensor {
                shape: x.shape.clone(),
                data: vec![rat(0, 1); x.data.len()],
            };
            t.data[k] = rat(1, 1);
            let mut e = vec![None; xs.len()];
            e[leaf] = Some(t);
            columns.push(
                deltas
                    .iter()
                    .flat_map(|d| adora_rewrites::dual::runtime::tangent(d, &e).data)
                    .collect(),
            );
        }
    }
    for k in 0..m {
        let ek = unit(&value, k);
        let Some(want) = call(
            reference::vjp(&f, &case.inputs, &ek, &opts()),
            "the reference vjp",
        )?
        else {
            return Pass::vacuous();
        };
        let Some((rt, _)) = call(
            runtime_vjp_normal(&g, &case.inputs, &ek, &opts()),
            "the runtime vjp",
        )?
        else {
            return Pass::vacuous();
        };
        let Some(sym) = call(
            eval_gradient_program(&gp, &case.inputs, &ek, &opts()),
            "the gradient program",
        )?
        else {
            return Pass::vacuous();
        };
        if rt.grads != want.grads || sym.grads != want.grads {
            return fail(format!(
                "row {k}: runtime {:?}, gradient program {:?}, reference {:?}",
                rt.grads, sym.grads, want.grads
            ));
        }
        let row: Vec<Rat> = want.grads.iter().flatten().flat_map(reals).collect();
        let col: Vec<Rat> = columns.iter().map(|c| c[k].clone()).collect();
        if row != col {
            return fail(format!(
                "row {k} of the Jacobian is {row:?} by reverse passes, {col:?} by forward columns"
            ));
        }
    }
    Pass::figure(m as f64)
}
