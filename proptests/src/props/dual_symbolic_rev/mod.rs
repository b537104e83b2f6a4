//! Properties of engine `dual`'s symbolic reverse pass and gradient program (seed 000
//! *Dual-Numbers Reverse AD for Functional Array Languages* §7.3–§7.4, App. C.2, App. D;
//! docs/engines/dual.md §5): no duplicated cotangent, increasing share ids, the output
//! fragment of the transposition, share → let, global sharing kept apart from `let`s,
//! primal/dual separation and the closure of the core language under differentiation.
//!
//! The gradient program's parts before unsharing come from the engine's read-only hook
//! `adora_rewrites::dual::symbolic::wrapper::gradient_parts`.
//!
//! One file per job: [`duplication`] (no duplicated cotangent), [`sharing`] (share ids,
//! share → let, no share under a `let`), [`program`] (the output fragment, primal/dual
//! separation, the gradient program's type); the helpers they share are here.

mod duplication;
mod program;
mod sharing;

use super::dual_symbolic::{bulk, prepared, step};
use super::util::{aux_rng, random_value};
use crate::catalogue::{Check, Property};
use crate::gen::{Case, RetKind};
use crate::values::Rat;
use adora_core::ast::{Expr, ExprKind, Function, Name};
use adora_core::visit;
use adora_rewrites::dual::symbolic::wrapper::{gradient_parts, GradientParts};
use adora_rewrites::kit::lets::reference_id;
use adora_semantics::value::Value;
use duplication::no_duplication;
use program::{output_fragment, separated, well_typed};
use sharing::{no_share_under_let, share_ids, share_to_let};
use std::collections::BTreeSet;

/// The properties of this module.
pub fn properties() -> Vec<Property> {
    let p = |name, source, description, check| Property {
        name,
        source,
        fragment: "bulk",
        description,
        figure: None,
        check: Check::Case {
            strategy: || bulk(RetKind::Real),
            check,
        },
    };
    vec![
        p("dual/no-cotangent-duplication", "seed 000 §7.2, §7.3",
          "the symbolic reverse pass duplicates no cotangent term: run on the bot output's symbolic Delta through a target that tags every cotangent it builds, every cotangent used more than once (Add, Select, Append, Stack) is the output of `dup` (a share reference or an atom), every other one is used at most once", no_duplication),
        p("dual/symbolic-share-ids-increase", "seed 000 §7.3",
          "the shared cotangents of the symbolic reverse pass have increasing ids: every shared term mentions only share ids smaller than its own, all of them in the table", share_ids),
        p("dual/transpose-output-fragment", "seed 000 §7.4",
          "apart from copied index terms and index maps, the cotangent terms of the symbolic reverse pass (shared terms and gradients, before share → let) contain only variables (the primal's, the initial cotangent `dret` and its projections, share references), literals, `+`, `-`, `*`, `/` by primal factors, negation, `select`, `replicate`, `sum_outer`, `transpose`, `reshape`, `append` (scatter fusion), `index`, `gather`, `scatter` and tuples of gradients; no `let`", output_fragment),
        p("dual/share-to-let-preserves-semantics", "seed 000 §7.4, App. C.2",
          "converting global sharing to lets gives a well-scoped let chain (each shared id bound by one let, in ascending id order, the program type-checks) and preserves semantics: the gradient program evaluates exactly as the same program with every share reference replaced by its term, for a random cotangent (cases whose inlined terms pass 200,000 nodes are vacuous)", share_to_let),
        p("dual/no-share-under-let", "seed 000 App. C.2",
          "global sharing and lets are kept apart: no shared cotangent term contains a `let` (outside copied index terms), no primal binding mentions a share reference, the cotangent or a shared cotangent, the gradient program has no share reference left, and every shared cotangent is bound by exactly one `let` whose value contains no other `let` (outside index terms): computed once however often it is used", no_share_under_let),
        p("dual/primal-dual-separated", "seed 000 App. D, §7.6",
          "the primal and dual halves are separated: the primal bindings and the primal result of the gradient program mention neither the cotangent nor a shared cotangent, and its value component equals the program's value whatever the cotangent (evaluated with two random cotangents)", separated),
        p("dual/gradient-program-well-typed", "seed 000 App. D.2",
          "the core language is closed under differentiation: the gradient program is a well-typed core program with signature (params…, dret: T) -> (T, G1, …) (Gi the types of the parameters with reals), it prints, and the printed text parses, checks, elaborates and evaluates to the same value (random cotangent), and outside copied index terms it uses only seed-000 constructs (no build, no seed-004 construct: scatter fusion's lazy `if` segment test occurs only inside index maps)", well_typed),
    ]
}

/// The gradient parts of the bot output (`None`: a resource limit).
pub(super) fn parts(case: &Case) -> Result<Option<(Function, Function, GradientParts)>, String> {
    let Some((f, g)) = prepared(case)? else {
        return Ok(None);
    };
    let p = step(
        adora_core::with_stack(|| gradient_parts(&g)),
        "the gradient program",
    )?;
    Ok(p.map(|p| (f, g, p)))
}

pub(super) fn refs(e: &Expr) -> BTreeSet<u64> {
    visit::subexprs(e)
        .into_iter()
        .filter_map(reference_id)
        .collect()
}

/// The sub-terms of `e` outside index positions (index terms of `index`, index maps of
/// `gather`/`scatter`), pre-order.
pub(super) fn outside_index(e: &Expr, out: &mut Vec<Expr>) {
    out.push(e.clone());
    match &e.kind {
        ExprKind::Index(x, _) | ExprKind::Gather(_, x, _, _) | ExprKind::Scatter(_, x, _, _) => {
            outside_index(x, out)
        }
        _ => visit::children(e)
            .into_iter()
            .for_each(|c| outside_index(c, out)),
    }
}

/// The let-bound names of `e` in pre-order, with the let's value.
pub(super) fn lets(e: &Expr) -> Vec<(Name, Expr)> {
    visit::subexprs(e)
        .into_iter()
        .filter_map(|x| match &x.kind {
            ExprKind::Let(adora_core::ast::Pat::Var(n), v, _) => Some((n.clone(), (**v).clone())),
            _ => None,
        })
        .collect()
}

pub(super) fn args(case: &Case, g: &Function, salt: u64) -> Vec<Value<Rat>> {
    let mut rng = aux_rng(case, salt);
    let mut a = case.inputs.clone();
    a.push(random_value(&g.ret, &mut rng));
    a
}
