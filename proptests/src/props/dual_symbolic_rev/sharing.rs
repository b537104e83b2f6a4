//! `dual/symbolic-share-ids-increase`, `dual/share-to-let-preserves-semantics` and
//! `dual/no-share-under-let` (seed 000 §7.3–§7.4, App. C.2): global sharing in the gradient
//! program's parts and its conversion to `let`s.

use super::{args, lets, outside_index, parts, refs};
use crate::catalogue::{Outcome, Pass};
use crate::gen::Case;
use crate::props::dual_symbolic::{show, step};
use crate::props::util::{fail, opts};
use crate::values::literal;
use adora_core::ast::{Expr, ExprKind, Function, Name};
use adora_core::visit;
use adora_rewrites::dual::symbolic::wrapper::GradientParts;
use adora_rewrites::kit::lets::reference_id;
use adora_semantics::eval::eval;
use std::collections::{BTreeMap, BTreeSet};

pub(super) fn share_ids(case: &Case) -> Outcome {
    let Some((_, g, p)) = parts(case)? else {
        return Pass::vacuous();
    };
    for (n, s) in &p.table {
        if let Some(m) = refs(&s.term)
            .into_iter()
            .find(|m| m >= n || !p.table.contains_key(m))
        {
            return fail(format!(
                "shared cotangent {n} mentions share id {m}\n{}",
                show(&g)
            ));
        }
    }
    if let Some(m) = refs(&p.result)
        .into_iter()
        .find(|m| !p.table.contains_key(m))
    {
        return fail(format!(
            "the gradient mentions share id {m}, not in the table"
        ));
    }
    Pass::ok()
}

/// `e` with every share reference replaced by its term (transitively); `None` past
/// `budget` nodes.
fn inline(e: &Expr, p: &GradientParts, budget: &mut usize) -> Option<Expr> {
    if let Some(n) = reference_id(e) {
        if let Some(s) = p.table.get(&n) {
            return inline(&s.term, p, budget);
        }
    }
    *budget = budget.checked_sub(1)?;
    let kids: Vec<Expr> = visit::children(e)
        .into_iter()
        .map(|c| inline(c, p, budget))
        .collect::<Option<_>>()?;
    let mut out = e.clone();
    for (slot, k) in visit::children_mut(&mut out).into_iter().zip(kids) {
        *slot = k;
    }
    Some(out)
}

pub(super) fn share_to_let(case: &Case) -> Outcome {
    let Some((_, g, p)) = parts(case)? else {
        return Pass::vacuous();
    };
    if p.table.is_empty() {
        return Pass::vacuous();
    }
    let mut budget = 200_000usize;
    let Some(inlined) = inline(&p.result, &p, &mut budget) else {
        return Pass::vacuous();
    };
    let plain = Function {
        name: g.name.clone(),
        params: p.params.clone(),
        ret: p.ret.clone(),
        body: adora_rewrites::kit::anf::wrap(&p.bindings, inlined),
    };
    let gp = p
        .clone()
        .finish()
        .map_err(|d| format!("share → let fails: {d}"))?;
    let ids: BTreeMap<&Name, u64> = p.table.iter().map(|(n, s)| (&s.name, *n)).collect();
    let order: Vec<u64> = lets(&gp.function.body)
        .iter()
        .filter_map(|(n, _)| ids.get(n).copied())
        .collect();
    if order.windows(2).any(|w| w[0] >= w[1]) || order.len() != p.table.len() {
        return fail(format!(
            "the shared cotangents are bound in the order {order:?} (table {:?})",
            p.table.keys().collect::<Vec<_>>()
        ));
    }
    let a = args(case, &g, 41);
    let Some((x, _)) = step(eval(&gp.function, &a, &opts()), "the gradient program")? else {
        return Pass::vacuous();
    };
    let Some((y, _)) = step(eval(&plain, &a, &opts()), "the inlined gradient program")? else {
        return Pass::vacuous();
    };
    if x != y {
        return fail(format!(
            "with lets {} but inlined {}\n{}",
            literal(&x),
            literal(&y),
            show(&gp.function)
        ));
    }
    Pass::ok()
}

fn has_let_outside_index(e: &Expr) -> bool {
    let mut subs = Vec::new();
    outside_index(e, &mut subs);
    subs.iter().any(|x| matches!(x.kind, ExprKind::Let(..)))
}

pub(super) fn no_share_under_let(case: &Case) -> Outcome {
    let Some((_, g, p)) = parts(case)? else {
        return Pass::vacuous();
    };
    if let Some((n, _)) = p.table.iter().find(|(_, s)| has_let_outside_index(&s.term)) {
        return fail(format!("shared cotangent {n} contains a let\n{}", show(&g)));
    }
    let dual_names: BTreeSet<&Name> = p.table.values().map(|s| &s.name).chain([&p.dret]).collect();
    for l in &p.bindings {
        let fv = visit::free_vars(&l.value);
        if !refs(&l.value).is_empty() || fv.iter().any(|v| dual_names.contains(v)) {
            return fail(format!(
                "the primal binding `{}` mentions the dual half",
                adora_core::pretty::expr(&l.value)
            ));
        }
    }
    let gp = p
        .clone()
        .finish()
        .map_err(|d| format!("share → let fails: {d}"))?;
    if !refs(&gp.function.body).is_empty() {
        return fail("a share reference survived share → let");
    }
    let bound = lets(&gp.function.body);
    for s in p.table.values() {
        let found: Vec<&(Name, Expr)> = bound.iter().filter(|(n, _)| *n == s.name).collect();
        if found.len() != 1 {
            return fail(format!(
                "shared cotangent `{}` is bound {} times",
                s.name,
                found.len()
            ));
        }
        if has_let_outside_index(&found[0].1) {
            return fail(format!(
                "the let of shared cotangent `{}` has a let in its value",
                s.name
            ));
        }
    }
    Pass::ok()
}
