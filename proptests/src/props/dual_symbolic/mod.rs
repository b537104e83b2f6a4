//! Properties of engine `dual`'s forward transformation and runtime Deltas (seed 000
//! *Dual-Numbers Reverse AD for Functional Array Languages* §6, §7.1, §7.3, App. D.2;
//! docs/engines/dual.md): the non-differentiating transformation 𝒩, integer paths,
//! totality on bot output, the transpose pairs, `shapeDelta`, the simplified (separated)
//! form, `share` as the identity, and the pipeline without bot. The symbolic reverse pass
//! and the gradient program are in [`super::dual_symbolic_rev`].
//!
//! Cases are generated programs of the `bulk` fragment taken through bot
//! (`adora_rewrites::dual::fragment::prepare`); a resource limit makes a case vacuous, any
//! other error fails it.
//!
//! One file per job: [`runtime`] (walking and evaluating runtime Deltas), [`nondiff`]
//! (𝒩 and integer paths), [`deltas`] (totality, transpose pairs, `shapeDelta`),
//! [`separated`] (the simplified form, `share` as the identity, the pipeline without bot).

mod deltas;
mod nondiff;
mod runtime;
mod separated;

use super::util::load;
use crate::catalogue::{Check, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, Fragment, GenSpec, RetKind};
use crate::values::Rat;
use adora_core::ast::Function;
use adora_core::diag::ErrorKind;
use adora_rewrites::dual::fragment;
use adora_rewrites::dual::value::RDelta;
use deltas::{shapes, total, transpose_pairs};
use nondiff::{integer_paths, nondiff};
use separated::{share_identity, simplify, without_bot};

/// A runtime Delta over exact rationals.
pub(crate) type RD = RDelta<Rat>;

/// Generated `bulk` programs of size 24 with results of kind `ret`.
pub(crate) fn bulk(ret: RetKind) -> CaseStrategy {
    CaseStrategy::new(GenSpec::new(Fragment::Bulk).size(24).ret(ret))
}

/// A library call's result: a resource limit is `Ok(None)` (vacuous), another error a
/// failure message.
pub(crate) fn step<T>(r: adora_core::Result<T>, what: &str) -> Result<Option<T>, String> {
    match r {
        Ok(x) => Ok(Some(x)),
        Err(d) if d.kind == ErrorKind::Resource => Ok(None),
        Err(d) => Err(format!("{what} fails: {d}")),
    }
}

/// The case's program and its bot output (`None`: a resource limit).
pub(crate) fn prepared(case: &Case) -> Result<Option<(Function, Function)>, String> {
    let f = load(case)?;
    Ok(step(
        fragment::prepare(&f),
        "preparing the program (fragment, bot)",
    )?
    .map(|g| (f, g)))
}

/// `def`-level text of a function, for messages.
pub(crate) fn show(f: &Function) -> String {
    adora_core::pretty::function(f)
}

/// The properties of this module.
pub fn properties() -> Vec<Property> {
    let p = |name, source, description, strategy, check| Property {
        name,
        source,
        fragment: "bulk",
        description,
        figure: None,
        check: Check::Case { strategy, check },
    };
    vec![
        p("dual/nondiff-preserves-type", "seed 000 §6.2 (Fig. 13)",
          "the non-differentiating transformation 𝒩 (the forward pass with Deltas off) run on the whole bot output, inputs bound to their dual arrays, builds no Delta node (every Delta of the result is Zero or an input's own Input node) and gives the evaluator's value, of the function's result type",
          || bulk(RetKind::Any), nondiff),
        p("dual/integer-paths-zero-derivative", "seed 000 §6.3",
          "a computation that reaches the result only through integers has derivative zero: for a real scalar program body b, `let r = b in real(floor(r))` has gradient exactly zero by the runtime reverse pass and the gradient program, and `let r = b in real(floor(r)) * r` has the reference gradient (floor(r) a constant factor)",
          || bulk(RetKind::RealScalar), integer_paths),
        p("dual/total-on-bot-output", "seed 000 §6.3",
          "the dual-arrays transformation is defined on every bot normal form: the bot output has no build, and the runtime forward pass, the symbolic forward pass (separated form) and the gradient program all succeed on it (no Unsupported or other error)",
          || bulk(RetKind::Any), total),
        p("dual/transpose-pairs-adjoint", "seed 000 §3.2, §6.4 (transpose pairs)",
          "every non-leaf node of the runtime Delta of the bot output, taken alone over fresh Input leaves (add/dup, neg, scale, divby, select, index/one-hot, gather/scatter with its table, sum/replicate, sum_outer/replicate, transpose/inverse permutation, reshape/reshape back, append/slices, stack/index), satisfies <A u, v> = <u, A^T v> exactly for random u, v: forward evaluation vs the runtime reverse pass",
          || bulk(RetKind::Real), transpose_pairs),
        p("dual/delta-shape-consistent", "seed 000 §6.4 (shapeDelta)",
          "every node of the runtime Delta of the bot output records the shape of the tangent it denotes (its forward evaluation on random input tangents has that shape), and every real result's Delta has its primal's shape",
          || bulk(RetKind::Any), shapes),
        p("dual/simplify-preserves-semantics", "seed 000 §7.1",
          "the simplified derivative (the separated form of Eq. 6 that the symbolic forward pass builds directly) preserves semantics: its primal part, as a core function, type-checks and evaluates to the program's value, and its symbolic Delta read at the primal values gives the same tangent as the unsimplified runtime forward pass (Fig. 14's rules) for random input tangents",
          || bulk(RetKind::Real), simplify),
        p("dual/share-is-identity", "seed 000 §7.3",
          "`share` is the identity: the runtime Delta of the bot output with every Share node removed (its body in its place) gives the same tangent for random input tangents and the same gradient by the reverse pass for a random cotangent, exactly (cases whose unshared tree passes 200,000 nodes are vacuous)",
          || bulk(RetKind::Real), share_identity),
        p("dual/without-bot-agrees", "seed 000 App. D.2, §9",
          "AD is decoupled from bot: the runtime pipeline without bot (each build evaluated point by point, `runtime_vjp_without_bot`) gives the reference VJP for a random cotangent exactly, and the same as the pipeline with bot",
          || bulk(RetKind::Real), without_bot),
    ]
}
