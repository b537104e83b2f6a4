//! `dual/simplify-preserves-semantics`, `dual/share-is-identity` and
//! `dual/without-bot-agrees` (seed 000 §7.1, §7.3, App. D.2): the separated form of the
//! symbolic forward pass, `share` as the identity, and the runtime pipeline without bot.

use super::runtime::{forward_of, layer, leaf_tangents, nodes, rand_tensor};
use super::{prepared, show, step, RD};
use crate::catalogue::{Outcome, Pass};
use crate::gen::Case;
use crate::props::util::{aux_rng, fail, load, opts, random_value};
use crate::values::{literal, reals, Rat};
use adora_core::ast::Function;
use adora_core::diag::ErrorKind;
use adora_rewrites::dual::delta::{Kind, Node};
use adora_rewrites::dual::runtime::{backprop, tangent};
use adora_rewrites::dual::symbolic::check::instantiate;
use adora_rewrites::dual::symbolic::forward::separate;
use adora_rewrites::dual::{runtime_vjp, runtime_vjp_without_bot};
use adora_semantics::eval::eval;
use adora_semantics::reference;
use adora_semantics::value::Tensor;
use std::collections::HashMap;

pub(super) fn simplify(case: &Case) -> Outcome {
    adora_core::with_stack(|| simplify_deep(case))
}

fn simplify_deep(case: &Case) -> Outcome {
    let Some((f, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    let sep = separate(&g).map_err(|d| format!("the symbolic forward pass fails: {d}"))?;
    let primal = Function {
        name: g.name.clone(),
        params: g.params.clone(),
        ret: g.ret.clone(),
        body: adora_rewrites::kit::anf::wrap(&sep.bindings, sep.result.primal()),
    };
    adora_core::with_stack(|| adora_core::check::check_function(&primal)).map_err(|d| {
        format!(
            "the primal part does not type-check: {d}\n{}",
            show(&primal)
        )
    })?;
    let Some((got, _)) = step(
        eval(&primal, &case.inputs, &opts()),
        "evaluating the primal part",
    )?
    else {
        return Pass::vacuous();
    };
    let Some((want, _)) = step(eval(&f, &case.inputs, &opts()), "evaluation")? else {
        return Pass::vacuous();
    };
    if got != want {
        return fail(format!(
            "the primal part gives {} but the program {}\n{}",
            literal(&got),
            literal(&want),
            show(&primal)
        ));
    }
    let Some((_, sym)) = step(
        instantiate(&g, &case.inputs, &opts()),
        "instantiating the separated form",
    )?
    else {
        return Pass::vacuous();
    };
    let Some((v, _)) = forward_of(&g, case)? else {
        return Pass::vacuous();
    };
    let mut rng = aux_rng(case, 33);
    let ls = leaf_tangents(case, &mut rng);
    let a: Vec<Tensor<Rat>> = sym.iter().map(|d| tangent(d, &ls)).collect();
    let b: Vec<Tensor<Rat>> = v.deltas().iter().map(|d| tangent(d, &ls)).collect();
    if a != b {
        return fail(format!(
            "the separated form's tangent {a:?} differs from the forward pass's {b:?}\n{}",
            show(&g)
        ));
    }
    Pass::ok()
}

/// The number of nodes of `d` unfolded as a tree (saturating).
fn tree_size(
    d: &RD,
    memo: &mut HashMap<*const Node<adora_rewrites::dual::value::Runtime<Rat>>, usize>,
) -> usize {
    let key = d.node() as *const _;
    if let Some(n) = memo.get(&key) {
        return *n;
    }
    let n = d
        .children()
        .iter()
        .fold(1usize, |acc, c| acc.saturating_add(tree_size(c, memo)));
    memo.insert(key, n);
    n
}

/// `d` with every `Share` node replaced by its body.
fn strip(
    d: &RD,
    memo: &mut HashMap<*const Node<adora_rewrites::dual::value::Runtime<Rat>>, RD>,
) -> RD {
    let key = d.node() as *const _;
    if let Some(s) = memo.get(&key) {
        return s.clone();
    }
    let out = match d.kind() {
        Kind::Share(_, body) => strip(body, memo),
        _ => {
            let kids: Vec<RD> = d.children().into_iter().map(|c| strip(c, memo)).collect();
            layer(d, &kids).unwrap_or_else(|| d.clone())
        }
    };
    memo.insert(key, out.clone());
    out
}

pub(super) fn share_identity(case: &Case) -> Outcome {
    let Some((_, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    let Some((v, inputs)) = forward_of(&g, case)? else {
        return Pass::vacuous();
    };
    let ds = v.deltas();
    let mut sizes = HashMap::new();
    if ds
        .iter()
        .map(|d| tree_size(d, &mut sizes))
        .fold(0usize, usize::saturating_add)
        > 200_000
    {
        return Pass::vacuous();
    }
    if !ds.iter().any(|d| {
        nodes(std::slice::from_ref(d))
            .iter()
            .any(|n| matches!(n.kind(), Kind::Share(..)))
    }) {
        return Pass::vacuous();
    }
    let mut memo = HashMap::new();
    let unshared: Vec<RD> = ds.iter().map(|d| strip(d, &mut memo)).collect();
    let mut rng = aux_rng(case, 34);
    let ls = leaf_tangents(case, &mut rng);
    for (a, b) in ds.iter().zip(&unshared) {
        let (ta, tb) = (tangent(a, &ls), tangent(b, &ls));
        if ta != tb {
            return fail(format!(
                "with shares the tangent is {ta:?}, without {tb:?}\n{}",
                show(&g)
            ));
        }
    }
    let cts: Vec<Tensor<Rat>> = ds
        .iter()
        .map(|d| rand_tensor(d.shape(), &mut rng))
        .collect();
    let with = backprop(ds.iter().cloned().zip(cts.clone()).collect(), inputs).grads;
    let without = backprop(unshared.into_iter().zip(cts).collect(), inputs).grads;
    if with != without {
        return fail(format!(
            "with shares the reverse pass gives {with:?}, without {without:?}\n{}",
            show(&g)
        ));
    }
    Pass::ok()
}

pub(super) fn without_bot(case: &Case) -> Outcome {
    let f = load(case)?;
    if case.inputs.iter().all(|x| reals(x).is_empty()) {
        return Pass::vacuous();
    }
    let mut rng = aux_rng(case, 35);
    let ct = random_value(&f.ret, &mut rng);
    let nobot = match runtime_vjp_without_bot(&f, &case.inputs, &ct, &opts()) {
        Ok((g, _)) => g,
        Err(d) if matches!(d.kind, ErrorKind::Resource | ErrorKind::Unsupported) => {
            return Pass::vacuous()
        }
        Err(d) => return fail(format!("the pipeline without bot fails: {d}")),
    };
    let Some(want) = step(
        reference::vjp(&f, &case.inputs, &ct, &opts()),
        "the reference vjp",
    )?
    else {
        return Pass::vacuous();
    };
    let Some((bot, _)) = step(
        runtime_vjp(&f, &case.inputs, &ct, &opts()),
        "the pipeline with bot",
    )?
    else {
        return Pass::vacuous();
    };
    if nobot.value != want.value || nobot.grads != want.grads {
        return fail(format!(
            "without bot: value {}, gradients {:?}; reference: value {}, gradients {:?}",
            literal(&nobot.value),
            nobot
                .grads
                .iter()
                .map(|g| g.as_ref().map(literal))
                .collect::<Vec<_>>(),
            literal(&want.value),
            want.grads
                .iter()
                .map(|g| g.as_ref().map(literal))
                .collect::<Vec<_>>()
        ));
    }
    if bot.grads != nobot.grads {
        return fail("the pipelines with and without bot disagree");
    }
    Pass::ok()
}
