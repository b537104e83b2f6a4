//! Properties of engine `dual`'s Delta terms and evaluators (seed 000 §2.2–§2.6: primal
//! preservation, the correctness criterion, the evaluator versions, visit-once and
//! decreasing-id evaluation). The discrete,
//! baseline and Jacobian properties are in [`super::dual_baselines`].
//!
//! Every generated case goes through the engine's preparation (check, fragment, bot:
//! `adora_rewrites::dual::fragment::prepare`); a resource limit makes the case vacuous,
//! every other error fails it. The runtime forward pass (`dual::forward::run`) gives the
//! runtime Delta DAG; the symbolic forward pass (`dual::symbolic::forward::separate`)
//! the symbolic one (seed 000 §7.2's SymDelta). The DAG structure (invariants 1 and 2,
//! share placement) is checked in [`super::dual_dag`].

use super::dual_dag::dag;
use super::util::{aux_rng, fail, load, opts, random_rat, random_tangents};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, Fragment, GenSpec, RetKind};
use crate::values::{literal, Rat};
use adora_core::ast::Function;
use adora_core::diag::ErrorKind;
use adora_rewrites::dual::delta::Delta;
use adora_rewrites::dual::runtime::{backprop, tangent};
use adora_rewrites::dual::value::RDelta;
use adora_rewrites::dual::{forward, fragment};
use adora_semantics::eval::eval;
use adora_semantics::reference;
use adora_semantics::value::{Tensor, Value};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// Generated programs of the bulk fragment (seed 000) with results of kind `ret`.
pub fn bulk(ret: RetKind) -> CaseStrategy {
    CaseStrategy::new(GenSpec::new(Fragment::Bulk).size(24).ret(ret))
}

/// A property of generated bulk programs.
pub fn prop(
    name: &'static str,
    source: &'static str,
    description: &'static str,
    figure: Option<(&'static str, Agg)>,
    strategy: fn() -> CaseStrategy,
    check: fn(&Case) -> Outcome,
) -> Property {
    Property {
        name,
        source,
        fragment: "bulk",
        description,
        figure: figure.map(|(label, agg)| Figure { label, agg }),
        check: Check::Case { strategy, check },
    }
}

/// The Delta-term properties of this module.
pub fn properties() -> Vec<Property> {
    vec![
        prop("dual/primal-equals-eval", "seed 000 §2.2 (primal preservation)",
            "the primal components of the runtime forward pass's result (dual arrays of the bot output) equal the \
             source program's value exactly, integer and boolean parts included, and the pass builds a Delta for \
             exactly the real arrays of the result (the figure: the mean number of result scalars)",
            Some(("result scalars (mean)", Agg::Mean)), || bulk(RetKind::Any), primal_equals_eval),
        prop("dual/delta-fwd-equals-jvp", "seed 000 §2.3 (correctness criterion of the transformation)",
            "run on the inputs paired with Input nodes, the forward pass returns (value, d), and interpreting d \
             forward in two random directions gives the reference JVP exactly (the figure: the mean number of \
             Delta nodes)",
            Some(("Delta nodes (mean)", Agg::Mean)), || bulk(RetKind::Any), delta_fwd_equals_jvp),
        prop("dual/evaluator-versions-agree", "seed 000 §2.4 (eval2, eval3 and eval4)",
            "the reverse evaluator started with a random accumulator acc (Input roots seeded first) and cotangent \
             c gives acc + c·eval2(d), where eval2(d) is the Jacobian from forward evaluation of d along every \
             basis direction (eval4); with c all ones it gives acc + eval2(d) summed over outputs (eval3); exact \
             (the figure: the largest number of basis directions)",
            Some(("max input scalars", Agg::Max)), || bulk(RetKind::Real), evaluator_versions),
        prop("dual/eval-visits-node-once", "seed 000 §2.5-§2.6 (visit every node once)",
            "the runtime reverse pass evaluates every distinct Delta node other than Zero, Input and Share \
             references exactly once and processes every Share fragment once, so its work is linear in the \
             DAG's distinct nodes (the figure: the largest ratio of the Delta's tree size, sharing ignored, to \
             its distinct nodes)",
            Some(("max tree / DAG nodes", Agg::Max)), || bulk(RetKind::Real), visits_once),
        Property {
            name: "dual/let-chain-sharing",
            source: "seed 000 §2.5 (x_{k+1} = x_k + x_k)",
            fragment: "shapes",
            description: "for the let chain x_{k+1} = x_k + x_k of random depth k on a random input shape, the \
                          Delta has k Share ids and 2k + 1 distinct nodes, the reverse pass visits k Add nodes, \
                          and without sharing the tree has 2^(k+1) - 1 nodes; the gradient is 2^k (the figure: \
                          the largest tree / DAG ratio)",
            figure: Some(Figure { label: "max tree / DAG nodes", agg: Agg::Max }),
            check: Check::Dims { count: 2, max: 14, check: let_chain },
        },
        prop("dual/eval-decreasing-ids", "seed 000 §2.6 (evaluator order; sharing becomes addition)",
            "the runtime reverse pass processes the Share fragments in strictly decreasing id order, each id \
             reachable from the result exactly once, and no contribution to an id arrives once the fragment \
             of an id not larger has been taken (each cotangent is complete when processed; the figure: the \
             largest number of fragments processed)",
            Some(("max fragments", Agg::Max)), || bulk(RetKind::Real), decreasing_ids),
    ]
}

/// A derivative or evaluation call; resource limits give `Ok(None)`.
pub fn call<T>(r: adora_core::Result<T>, what: &str) -> Result<Option<T>, String> {
    match r {
        Ok(x) => Ok(Some(x)),
        Err(d) if d.kind == ErrorKind::Resource => Ok(None),
        Err(d) => Err(format!("{what} fails: {d}")),
    }
}

/// The program the transformation differentiates (bot output); `None`: a resource limit.
pub fn prepared(f: &Function) -> Result<Option<Function>, String> {
    call(
        fragment::prepare(f),
        "preparing the program (fragment, bot)",
    )
}

/// The runtime forward pass of `g` on the case's inputs.
pub fn run_forward(
    g: &Function,
    inputs: &[Value<Rat>],
) -> Result<Option<forward::ForwardResult<Rat>>, String> {
    call(forward::run(g, inputs, &opts()), "the runtime forward pass")
}

/// The case's bot output and its runtime forward pass (`None`: vacuous).
pub fn forward_case(
    case: &Case,
) -> Result<Option<(Function, Function, forward::ForwardResult<Rat>)>, String> {
    let f = load(case)?;
    let Some(g) = prepared(&f)? else {
        return Ok(None);
    };
    let Some(fw) = run_forward(&g, &case.inputs)? else {
        return Ok(None);
    };
    Ok(Some((f, g, fw)))
}

/// The real leaves of a value, in order.
pub fn real_leaves(v: &Value<Rat>, out: &mut Vec<Tensor<Rat>>) {
    match v {
        Value::Real(t) => out.push(t.clone()),
        Value::Tuple(vs) => vs.iter().for_each(|c| real_leaves(c, out)),
        _ => {}
    }
}

fn leaves_of(vs: &[Value<Rat>]) -> Vec<Tensor<Rat>> {
    let mut out = Vec::new();
    vs.iter().for_each(|v| real_leaves(v, &mut out));
    out
}

/// A random tensor of `shape`.
pub fn random_tensor(shape: &[usize], rng: &mut ChaCha8Rng) -> Tensor<Rat> {
    let n: usize = shape.iter().product();
    Tensor {
        shape: shape.to_vec(),
        data: (0..n).map(|_| random_rat(rng)).collect(),
    }
}

/// The tangent leaves of random tangents (`None`: zero).
fn tangent_leaves(inputs: &[Value<Rat>], ts: &[Option<Value<Rat>>]) -> Vec<Option<Tensor<Rat>>> {
    let mut out = Vec::new();
    for (x, t) in inputs.iter().zip(ts) {
        let n = leaves_of(std::slice::from_ref(x)).len();
        match t {
            Some(t) => out.extend(leaves_of(std::slice::from_ref(t)).into_iter().map(Some)),
            None => out.extend((0..n).map(|_| None)),
        }
    }
    out
}

fn primal_equals_eval(case: &Case) -> Outcome {
    let Some((f, _, fw)) = forward_case(case)? else {
        return Pass::vacuous();
    };
    let Some((want, _)) = call(eval(&f, &case.inputs, &opts()), "evaluation")? else {
        return Pass::vacuous();
    };
    let got = fw.result.primal();
    if got != want {
        return fail(format!(
            "the forward pass's primal is {} but the program computes {}",
            literal(&got),
            literal(&want)
        ));
    }
    let reals = leaves_of(std::slice::from_ref(&want)).len();
    if fw.result.deltas().len() != reals {
        return fail(format!(
            "{} Deltas for {reals} real arrays in the result",
            fw.result.deltas().len()
        ));
    }
    Pass::figure(crate::values::reals(&want).len() as f64)
}

fn delta_fwd_equals_jvp(case: &Case) -> Outcome {
    if case
        .inputs
        .iter()
        .all(|x| crate::values::reals(x).is_empty())
    {
        return Pass::vacuous();
    }
    let Some((f, _, fw)) = forward_case(case)? else {
        return Pass::vacuous();
    };
    let deltas = fw.result.deltas();
    let mut rng = aux_rng(case, 23);
    for _ in 0..2 {
        let t = random_tangents(&case.inputs, &mut rng);
        let Some((_, want)) = call(
            reference::jvp(&f, &case.inputs, &t, &opts()),
            "the reference jvp",
        )?
        else {
            return Pass::vacuous();
        };
        let ls = tangent_leaves(&case.inputs, &t);
        let got: Vec<Tensor<Rat>> = deltas.iter().map(|d| tangent(d, &ls)).collect();
        if got != leaves_of(std::slice::from_ref(&want)) {
            return fail(format!(
                "eval(d) in direction {} gives {got:?} but the reference JVP is {}",
                super::util::show_tangents(&t),
                literal(&want)
            ));
        }
    }
    Pass::figure(adora_rewrites::dual::delta::node_count_all(&deltas) as f64)
}

fn evaluator_versions(case: &Case) -> Outcome {
    let Some((_, _, fw)) = forward_case(case)? else {
        return Pass::vacuous();
    };
    let xs = leaves_of(&case.inputs);
    if xs.is_empty() {
        return Pass::vacuous();
    }
    let deltas = fw.result.deltas();
    // eval2: the Jacobian, one forward evaluation per basis direction.
    let mut columns: Vec<(usize, usize, Vec<Tensor<Rat>>)> = Vec::new();
    for (leaf, x) in xs.iter().enumerate() {
        for k in 0..x.data.len() {
            let mut e: Vec<Option<Tensor<Rat>>> = vec![None; xs.len()];
            let mut t = Tensor {
                shape: x.shape.clone(),
                data: vec![Rat::from_integer(0.into()); x.data.len()],
            };
            t.data[k] = Rat::from_integer(1.into());
            e[leaf] = Some(t);
            columns.push((leaf, k, deltas.iter().map(|d| tangent(d, &e)).collect()));
        }
    }
    let mut rng = aux_rng(case, 24);
    for ones in [true, false] {
        let cts: Vec<Tensor<Rat>> = deltas
            .iter()
            .map(|d| match ones {
                true => Tensor::filled(d.shape().to_vec(), Rat::from_integer(1.into())),
                false => random_tensor(d.shape(), &mut rng),
            })
            .collect();
        let acc: Vec<Tensor<Rat>> = xs
            .iter()
            .map(|x| random_tensor(&x.shape, &mut rng))
            .collect();
        let mut roots: Vec<(RDelta<Rat>, Tensor<Rat>)> = acc
            .iter()
            .enumerate()
            .map(|(i, a)| (Delta::input(i, a.shape.clone()), a.clone()))
            .collect();
        roots.extend(deltas.iter().cloned().zip(cts.iter().cloned()));
        let bp = backprop(roots, xs.len());
        let mut want = acc.clone();
        for (leaf, k, col) in &columns {
            let mut s = Rat::from_integer(0.into());
            for (c, t) in cts.iter().zip(col) {
                for (a, b) in c.data.iter().zip(&t.data) {
                    s += a * b;
                }
            }
            want[*leaf].data[*k] += s;
        }
        for (i, w) in want.iter().enumerate() {
            let got = bp.grads.get(i).cloned().flatten();
            if got.as_ref() != Some(w) {
                return fail(format!(
                    "{}: the reverse evaluator gives {got:?} for input leaf {i}, acc + c·eval2(d) is {w:?}",
                    if ones { "eval3 (c = 1)" } else { "eval4" }
                ));
            }
        }
    }
    Pass::figure(columns.len() as f64)
}

fn visits_once(case: &Case) -> Outcome {
    let Some((_, _, fw)) = forward_case(case)? else {
        return Pass::vacuous();
    };
    let deltas = fw.result.deltas();
    let d = dag(&deltas);
    let mut rng = aux_rng(case, 25);
    let roots = deltas
        .iter()
        .map(|x| (x.clone(), random_tensor(x.shape(), &mut rng)))
        .collect();
    let bp = backprop(roots, fw.inputs);
    let inner = d
        .nodes
        .values()
        .filter(|n| n.share.is_none() && !n.leaf)
        .count();
    let shares = d.nodes.values().filter(|n| n.share.is_some()).count();
    if bp.trace.node_visits != inner || bp.shares != shares {
        return fail(format!(
            "the reverse pass made {} node visits and processed {} Share fragments; the DAG has {inner} distinct \
             inner nodes and {shares} Share ids",
            bp.trace.node_visits, bp.shares
        ));
    }
    Pass::figure(d.tree_size() as f64 / d.nodes.len().max(1) as f64)
}

fn let_chain(dims: &[usize]) -> Outcome {
    let k = dims[0];
    let n = dims[1].min(4);
    let mut src = format!("def main(x: R[{n}]) -> R = let x0 = x in ");
    for j in 0..k {
        src.push_str(&format!("let x{} = x{j} + x{j} in ", j + 1));
    }
    src.push_str(&format!("sum(x{k})"));
    let f = super::util::load_text(&src, "main")?;
    let x: Vec<Rat> = (0..n)
        .map(|i| crate::values::rat(i as i64 + 1, 2))
        .collect();
    let inputs = vec![Value::Real(Tensor {
        shape: vec![n],
        data: x,
    })];
    let Some(fw) = run_forward(&f, &inputs)? else {
        return Pass::vacuous();
    };
    let deltas = fw.result.deltas();
    let d = dag(&deltas);
    let shares = d.nodes.values().filter(|n| n.share.is_some()).count();
    // Sum, then per level Share and Add; Input at the bottom (x0 = x is the Input itself).
    if shares != k || d.nodes.len() != 2 * k + 2 {
        return fail(format!(
            "{shares} Share ids and {} nodes for a chain of depth {k}:\n{src}",
            d.nodes.len()
        ));
    }
    let tree = d.tree_size();
    let want_tree = (1u128 << (k + 1)) + (1 << k) - 1;
    if tree != want_tree {
        return fail(format!(
            "the tree of the chain of depth {k} has {tree} nodes, not {want_tree}"
        ));
    }
    let bp = backprop(
        vec![(
            deltas[0].clone(),
            Tensor::scalar(Rat::from_integer(1.into())),
        )],
        1,
    );
    let two_k = Rat::from_integer((1i64 << k).into());
    let want = Tensor {
        shape: vec![n],
        data: vec![two_k; n],
    };
    if bp.trace.node_visits != k + 1 || bp.grads[0].as_ref() != Some(&want) {
        return fail(format!(
            "the reverse pass visits {} nodes (want {}) and gives {:?}",
            bp.trace.node_visits,
            k + 1,
            bp.grads[0]
        ));
    }
    Pass::figure(tree as f64 / d.nodes.len() as f64)
}

fn decreasing_ids(case: &Case) -> Outcome {
    let Some((_, _, fw)) = forward_case(case)? else {
        return Pass::vacuous();
    };
    let deltas = fw.result.deltas();
    let d = dag(&deltas);
    let mut rng = aux_rng(case, 26);
    let roots = deltas
        .iter()
        .map(|x| (x.clone(), random_tensor(x.shape(), &mut rng)))
        .collect();
    let bp = backprop(roots, fw.inputs);
    let order = &bp.trace.processed;
    if let Some(w) = order.windows(2).find(|w| w[0] <= w[1]) {
        return fail(format!(
            "Share {} processed before Share {} (order {order:?})",
            w[0], w[1]
        ));
    }
    let ids: BTreeSet<u64> = d.nodes.values().filter_map(|n| n.share).collect();
    let seen: BTreeSet<u64> = order.iter().copied().collect();
    if ids != seen || seen.len() != order.len() {
        return fail(format!(
            "processed {order:?}, but the DAG's Share ids are {ids:?}"
        ));
    }
    if bp.trace.late_contributions > 0 {
        return fail(format!(
            "{} contributions arrived after their Share's turn",
            bp.trace.late_contributions
        ));
    }
    Pass::figure(order.len() as f64)
}
