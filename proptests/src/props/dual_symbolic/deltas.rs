//! `dual/total-on-bot-output`, `dual/transpose-pairs-adjoint` and
//! `dual/delta-shape-consistent` (seed 000 §3.2, §6.3, §6.4): the transformation is total on
//! bot output, every Delta node's transpose pair is adjoint, and Deltas record their shapes.

use super::runtime::{dot, forward_of, layer, leaf_tangents, nodes, rand_tensor};
use super::{prepared, show, step, RD};
use crate::catalogue::{Outcome, Pass};
use crate::gen::Case;
use crate::props::util::{aux_rng, fail};
use crate::values::{rat, Rat};
use adora_rewrites::dual::delta::Delta;
use adora_rewrites::dual::runtime::{backprop, tangent};
use adora_rewrites::dual::symbolic::forward::separate;
use adora_rewrites::dual::symbolic::wrapper::gradient_program;
use adora_rewrites::dual::value::DV;
use adora_semantics::value::Tensor;

pub(super) fn total(case: &Case) -> Outcome {
    let Some((_, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    if adora_rewrites::bot::has_build(&g) {
        return fail(format!("the bot output has a build:\n{}", show(&g)));
    }
    if forward_of(&g, case)?.is_none() {
        return Pass::vacuous();
    }
    step(
        adora_core::with_stack(|| separate(&g).map(|_| ())),
        "the symbolic forward pass",
    )?;
    step(
        adora_core::with_stack(|| gradient_program(&g).map(|_| ())),
        "the gradient program",
    )?;
    Pass::ok()
}

pub(super) fn transpose_pairs(case: &Case) -> Outcome {
    let Some((_, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    let Some((v, _)) = forward_of(&g, case)? else {
        return Pass::vacuous();
    };
    let mut rng = aux_rng(case, 31);
    let mut checked = 0usize;
    for d in nodes(&v.deltas()) {
        let kids: Vec<RD> = d
            .children()
            .iter()
            .enumerate()
            .map(|(i, c)| Delta::input(i, c.shape().to_vec()))
            .collect();
        let Some(a) = layer(&d, &kids) else { continue };
        let us: Vec<Option<Tensor<Rat>>> = kids
            .iter()
            .map(|k| Some(rand_tensor(k.shape(), &mut rng)))
            .collect();
        let ct = rand_tensor(a.shape(), &mut rng);
        let lhs = dot(&ct, &tangent(&a, &us));
        let bp = backprop(vec![(a.clone(), ct)], kids.len());
        let rhs: Rat = bp
            .grads
            .iter()
            .zip(&us)
            .map(|(g, u)| {
                g.as_ref()
                    .map(|g| dot(g, u.as_ref().unwrap_or(g)))
                    .unwrap_or_else(|| rat(0, 1))
            })
            .sum();
        if lhs != rhs {
            return fail(format!(
                "the transpose of a `{}` node of shape {:?} is not its adjoint: <A u, v> = {lhs}, <u, A^T v> = {rhs}\nbot output:\n{}",
                adora_rewrites::dual::delta::kind_name(d.kind()),
                d.shape(),
                show(&g)
            ));
        }
        checked += 1;
    }
    if checked == 0 {
        Pass::vacuous()
    } else {
        Pass::ok()
    }
}

pub(super) fn shapes(case: &Case) -> Outcome {
    let Some((_, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    let Some((v, _)) = forward_of(&g, case)? else {
        return Pass::vacuous();
    };
    fn roots_match(v: &DV<Rat>) -> Result<(), String> {
        match v {
            DV::R(t, d) if t.shape != d.shape() => Err(format!(
                "a result of shape {:?} has a Delta of shape {:?}",
                t.shape,
                d.shape()
            )),
            DV::T(vs) => vs.iter().try_for_each(roots_match),
            _ => Ok(()),
        }
    }
    roots_match(&v)?;
    let mut rng = aux_rng(case, 32);
    let ls = leaf_tangents(case, &mut rng);
    for d in nodes(&v.deltas()) {
        let t = tangent(&d, &ls);
        if t.shape != d.shape() {
            return fail(format!(
                "a `{}` node records shape {:?} but denotes a tangent of shape {:?}\n{}",
                adora_rewrites::dual::delta::kind_name(d.kind()),
                d.shape(),
                t.shape,
                show(&g)
            ));
        }
    }
    Pass::ok()
}
