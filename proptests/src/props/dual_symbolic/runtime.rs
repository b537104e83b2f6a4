//! Helpers of the `dual/` forward properties over runtime Deltas (docs/engines/dual.md):
//! the nodes of a Delta DAG, one layer of a node over fresh leaves, the runtime forward
//! pass of a case, and random input tangents.

use super::{step, RD};
use crate::gen::Case;
use crate::props::util::{opts, random_rat};
use crate::values::Rat;
use adora_core::ast::Function;
use adora_rewrites::dual::delta::{Delta, Kind, Node};
use adora_rewrites::dual::forward;
use adora_rewrites::dual::value::DV;
use adora_semantics::value::{Tensor, Value};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

/// Every node of the DAGs of `roots` once (pointer identity).
pub(super) fn nodes(roots: &[RD]) -> Vec<RD> {
    let mut seen: HashSet<*const Node<_>> = HashSet::new();
    let mut out = Vec::new();
    let mut stack: Vec<RD> = roots.to_vec();
    while let Some(d) = stack.pop() {
        if !seen.insert(d.node() as *const _) {
            continue;
        }
        stack.extend(d.children().into_iter().cloned());
        out.push(d);
    }
    out
}

/// Node `d` rebuilt over the children `k` (in [`Delta::children`] order) with the smart
/// constructors; `None` for leaves and `Share`.
pub(super) fn layer(d: &RD, k: &[RD]) -> Option<RD> {
    let shape = d.shape().to_vec();
    let a = || k[0].clone();
    let b = || k[1].clone();
    Some(match d.kind() {
        Kind::Zero | Kind::Input(_) | Kind::Share(..) => return None,
        Kind::Add(..) => Delta::plus(a(), b()),
        Kind::Neg(_) => Delta::minus(a()),
        Kind::Scale(f, _) => Delta::scale(f.clone(), a()),
        Kind::DivBy(f, _) => Delta::div_by(f.clone(), a()),
        Kind::Select(c, ..) => Delta::select(c.clone(), a(), b()),
        Kind::Index(_, ix) => Delta::index(a(), ix.clone(), ix.len()),
        Kind::Gather(_, m) => Delta::gather(a(), m.clone(), shape),
        Kind::Scatter(_, m) => Delta::scatter(a(), m.clone(), shape),
        Kind::Sum(_) => Delta::sum(a()),
        Kind::SumOuter(_) => Delta::sum_outer(a()),
        Kind::Replicate(n, _) => Delta::replicate(*n, a()),
        Kind::Transpose(p, _) => Delta::transpose(p.clone(), a()),
        Kind::Reshape(_) => Delta::reshape(shape, a()),
        Kind::Append(..) => Delta::append(a(), b()),
        Kind::Stack(_) => Delta::stack(k.to_vec()),
    })
}

pub(super) fn rand_tensor(shape: &[usize], rng: &mut ChaCha8Rng) -> Tensor<Rat> {
    let n: usize = shape.iter().product();
    Tensor {
        shape: shape.to_vec(),
        data: (0..n).map(|_| random_rat(rng)).collect(),
    }
}

pub(super) fn dot(a: &Tensor<Rat>, b: &Tensor<Rat>) -> Rat {
    a.data.iter().zip(&b.data).map(|(x, y)| x * y).sum()
}

/// The runtime forward pass of the bot output `g` on the case's inputs: the result and
/// the number of input leaves (`None`: a resource limit).
pub(super) fn forward_of(g: &Function, case: &Case) -> Result<Option<(DV<Rat>, usize)>, String> {
    Ok(
        step(forward::run(g, &case.inputs, &opts()), "the forward pass")?
            .map(|fw| (fw.result, fw.inputs)),
    )
}

/// Random tangents of the input leaves of the case (shapes from the inputs).
pub(super) fn leaf_tangents(case: &Case, rng: &mut ChaCha8Rng) -> Vec<Option<Tensor<Rat>>> {
    let mut out = Vec::new();
    for x in &case.inputs {
        leaf_shapes(x, &mut |s| out.push(Some(rand_tensor(s, rng))));
    }
    out
}

fn leaf_shapes(v: &Value<Rat>, f: &mut impl FnMut(&[usize])) {
    match v {
        Value::Real(t) => f(&t.shape),
        Value::Tuple(vs) => vs.iter().for_each(|c| leaf_shapes(c, f)),
        _ => {}
    }
}
