//! One rule, one step: the per-rule soundness properties (`tl/5-N-sound`) run a single
//! rule of a pass for one iteration on a term and read back the term with the rule's
//! right-hand side at every place it fired (docs/engines/tssa-passes.md, "Checking the
//! rules"): in every class the extraction prefers a node the rule added over the
//! original one, unless that would close a cycle. The evaluator then compares both terms.

use super::analysis::{TlAnalysis, TlGraph};
use super::appliers::Ctx;
use super::extract::Mode;
use super::lang::{is_data_leaf, node_term, to_recexpr, Tl};
use super::names::canonical;
use super::types::{binder_types, soa};
use super::vars::Free;
use super::{genpush, letlift, pairelim};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::tl::{Term, Ty, Var};
use egg::{Id, Language, Rewrite, Runner, SimpleScheduler, StopReason};
use std::collections::{BTreeMap, BTreeSet};

/// The pass a rule belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Let-lifting (rules 5.1–5.10).
    LetLift,
    /// Pair elimination (rules 5.11–5.20).
    PairElim,
    /// Gen push-out (rules 5.21–5.24a).
    GenPush,
}

/// The rules of a pass (let-lifting with the predicate copy unless `no_copy`).
pub fn pass_rules(pass: Pass, ctx: &Ctx, no_copy: bool) -> Vec<Rewrite<Tl, TlAnalysis>> {
    match pass {
        Pass::LetLift => letlift::rules(ctx, !no_copy),
        Pass::PairElim => pairelim::rules(ctx),
        Pass::GenPush => genpush::rules(ctx),
    }
}

/// The names of a pass's rules, in table order.
pub fn rule_names(pass: Pass) -> Vec<String> {
    let ctx = Ctx::new(Mode::LetLift, BTreeSet::new());
    let mut names: Vec<String> = pass_rules(pass, &ctx, false)
        .iter()
        .map(|r| r.name.to_string())
        .collect();
    if pass == Pass::LetLift {
        names.push("tl/5.9-no-copy".into());
    }
    names
}

/// Runs rule `rule` of `pass` for one iteration on `t` (binders renamed canonically
/// first); returns the canonical `t`, the term with the rule applied wherever it matched,
/// and the number of applications.
pub fn apply_once(
    pass: Pass,
    rule: &str,
    t: &Term,
    inputs: &[(Var, Ty)],
) -> Result<(Term, Term, usize)> {
    let err = |m: String| Diagnostic::new(ErrorKind::Internal, Span::DUMMY, m);
    let names: Vec<Var> = inputs.iter().map(|(x, _)| x.clone()).collect();
    let t = canonical(t, &names);
    let env: BTreeMap<Var, Ty> = inputs.iter().map(|(x, ty)| (x.clone(), soa(ty))).collect();
    let mut types = env.clone();
    binder_types(&t, &env, &mut types);
    let mut input_set: BTreeSet<Var> = names.iter().cloned().collect();
    input_set.extend(Free::of_term(&t).vars);
    let mode = match pass {
        Pass::LetLift => Mode::LetLift,
        Pass::PairElim => Mode::PairElim,
        Pass::GenPush => Mode::GenPush,
    };
    let ctx = Ctx::new(mode, input_set);
    let rules: Vec<_> = pass_rules(pass, &ctx, rule == "tl/5.9-no-copy")
        .into_iter()
        .filter(|r| r.name.as_str() == rule)
        .collect();
    if rules.is_empty() {
        return Err(err(format!("no rule {rule}")));
    }
    let mut eg = TlGraph::new(TlAnalysis {
        types,
        conflict: None,
    });
    let expr = to_recexpr(&t)?;
    let mut ids: Vec<Id> = Vec::new();
    let mut old: Vec<Tl> = Vec::new();
    for n in expr.as_ref() {
        let m = n.clone().map_children(|c| ids[usize::from(c)]);
        ids.push(eg.add(m.clone()));
        old.push(m);
    }
    let root = *ids.last().ok_or_else(|| err("empty term".into()))?;
    let runner: Runner<Tl, TlAnalysis> = Runner::new(TlAnalysis::default())
        .with_egraph(eg)
        .with_iter_limit(1)
        .with_node_limit(1_000_000)
        .with_scheduler(SimpleScheduler)
        .run(&rules);
    crate::stats::note_egraph(runner.egraph.total_size());
    match &runner.stop_reason {
        Some(StopReason::Saturated) | Some(StopReason::IterationLimit(_)) => {}
        other => return Err(err(format!("{rule}: the run stopped: {other:?}"))),
    }
    let eg = &runner.egraph;
    if let Some(c) = &eg.analysis.conflict {
        return Err(err(format!("{rule}: analysis conflict: {c}")));
    }
    let applied: usize = runner
        .iterations
        .iter()
        .map(|it| {
            it.applied
                .get(&egg::Symbol::from(rule))
                .copied()
                .unwrap_or(0)
        })
        .sum();
    let old: BTreeSet<Tl> = old
        .into_iter()
        .map(|n| n.map_children(|c| eg.find(c)))
        .collect();
    let mut budget = 200_000usize;
    let out = newest(eg, eg.find(root), &old, &mut Vec::new(), &mut budget)
        .ok_or_else(|| err(format!("{rule}: no term read back")))?;
    Ok((t, out, applied))
}

fn newest(
    eg: &TlGraph,
    c: Id,
    old: &BTreeSet<Tl>,
    stack: &mut Vec<Id>,
    budget: &mut usize,
) -> Option<Term> {
    if stack.contains(&c) || *budget == 0 {
        return None;
    }
    *budget -= 1;
    stack.push(c);
    let mut nodes: Vec<&Tl> = eg[c].nodes.iter().filter(|n| !is_data_leaf(n)).collect();
    nodes.sort_by_key(|n| old.contains(*n));
    let mut found = None;
    for n in nodes {
        let mut leaf = |id: Id| eg[id].nodes.first().cloned();
        let mut term = |id: Id| newest(eg, eg.find(id), old, stack, budget);
        if let Some(t) = node_term(n, &mut leaf, &mut term) {
            found = Some(t);
            break;
        }
    }
    stack.pop();
    found
}
