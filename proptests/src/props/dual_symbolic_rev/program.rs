//! `dual/transpose-output-fragment`, `dual/primal-dual-separated` and
//! `dual/gradient-program-well-typed` (seed 000 §7.4, App. D): the fragment the
//! transposition emits, the separation of primal and dual parts, and closure of the core
//! language under differentiation.

use super::{args, outside_index, parts, refs};
use crate::catalogue::{Outcome, Pass};
use crate::gen::Case;
use crate::props::dual_symbolic::{show, step};
use crate::props::util::{fail, opts};
use crate::values::{literal, Rat};
use adora_core::ast::{BinOp, Expr, ExprKind, Name, Prim, UnOp};
use adora_core::types::Type;
use adora_core::visit;
use adora_rewrites::dual::symbolic::wrapper::GradientParts;
use adora_semantics::eval::eval;
use adora_semantics::value::Value;
use std::collections::BTreeSet;

fn allowed(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Lit(_) | ExprKind::Tuple(_) | ExprKind::Proj(..) => true,
        ExprKind::Index(..) | ExprKind::Gather(..) | ExprKind::Scatter(..) => true,
        ExprKind::Binary(op, ..) => matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div),
        ExprKind::Unary(op, _) => matches!(op, UnOp::Neg),
        ExprKind::Prim(p, _) => matches!(
            p,
            Prim::Select
                | Prim::Replicate(_)
                | Prim::SumOuter
                | Prim::Transpose(_)
                | Prim::Reshape(_)
                | Prim::Append
        ),
        _ => false,
    }
}

/// The cotangent terms: every shared term, and the gradient components of the result.
fn cotangent_terms(p: &GradientParts) -> Vec<Expr> {
    let mut out: Vec<Expr> = p.table.values().map(|s| s.term.clone()).collect();
    if !p.real_params.is_empty() {
        if let ExprKind::Tuple(cs) = &p.result.kind {
            out.extend(cs.iter().skip(1).cloned());
        }
    }
    out
}

pub(super) fn output_fragment(case: &Case) -> Outcome {
    let Some((_, g, p)) = parts(case)? else {
        return Pass::vacuous();
    };
    for t in cotangent_terms(&p) {
        let mut subs = Vec::new();
        outside_index(&t, &mut subs);
        if let Some(bad) = subs.iter().find(|e| !allowed(e)) {
            return fail(format!(
                "the reverse pass emitted `{}` outside the fragment (a `{}`) for\n{}",
                adora_core::pretty::expr(bad),
                bad.kind.form_name(),
                show(&g)
            ));
        }
    }
    Pass::ok()
}

pub(super) fn separated(case: &Case) -> Outcome {
    let Some((f, g, p)) = parts(case)? else {
        return Pass::vacuous();
    };
    let dual_names: BTreeSet<&Name> = p.table.values().map(|s| &s.name).chain([&p.dret]).collect();
    let primal_result = match &p.result.kind {
        ExprKind::Tuple(cs) if !p.real_params.is_empty() => cs[0].clone(),
        _ => p.result.clone(),
    };
    let primal = adora_rewrites::kit::anf::wrap(&p.bindings, primal_result);
    if !refs(&primal).is_empty()
        || visit::free_vars(&primal)
            .iter()
            .any(|v| dual_names.contains(v))
    {
        return fail(format!(
            "the primal half mentions the dual half:\n{}",
            adora_core::pretty::expr(&primal)
        ));
    }
    let gp = p.finish().map_err(|d| format!("share → let fails: {d}"))?;
    let value = |salt| -> Result<Option<Value<Rat>>, String> {
        let Some((v, _)) = step(
            eval(&gp.function, &args(case, &g, salt), &opts()),
            "the gradient program",
        )?
        else {
            return Ok(None);
        };
        Ok(Some(match v {
            Value::Tuple(mut vs) if !gp.real_params.is_empty() => vs.swap_remove(0),
            v => v,
        }))
    };
    let (Some(a), Some(b)) = (value(42)?, value(43)?) else {
        return Pass::vacuous();
    };
    let Some((want, _)) = step(eval(&f, &case.inputs, &opts()), "evaluation")? else {
        return Pass::vacuous();
    };
    if a != want || b != want {
        return fail(format!(
            "the gradient program's value is {} and {} for two cotangents, the program's {}",
            literal(&a),
            literal(&b),
            literal(&want)
        ));
    }
    Pass::ok()
}

pub(super) fn well_typed(case: &Case) -> Outcome {
    let Some((_, g, p)) = parts(case)? else {
        return Pass::vacuous();
    };
    let gp = p.finish().map_err(|d| format!("share → let fails: {d}"))?;
    let h = &gp.function;
    let mut want_params: Vec<Type> = g.params.iter().map(|q| q.ty.clone()).collect();
    want_params.push(g.ret.clone());
    let got_params: Vec<Type> = h.params.iter().map(|q| q.ty.clone()).collect();
    let reals: Vec<Type> = g
        .params
        .iter()
        .filter(|q| q.ty.has_reals())
        .map(|q| q.ty.clone())
        .collect();
    let want_ret = if reals.is_empty() {
        g.ret.clone()
    } else {
        Type::Tuple([vec![g.ret.clone()], reals].concat())
    };
    if got_params != want_params || h.ret != want_ret {
        return fail(format!("the gradient program's signature is {got_params:?} -> {} instead of {want_params:?} -> {want_ret}", h.ret));
    }
    let text = show(h);
    let reloaded = crate::props::util::load_text(&text, &h.name)
        .map_err(|m| format!("the printed gradient program {m}:\n{text}"))?;
    // Rational literals print as divisions (`(4.0 / 3.0)`), so the reloaded program is
    // compared by value, not by text.
    let a = args(case, &g, 44);
    let x = step(eval(h, &a, &opts()), "the gradient program")?;
    let y = step(
        eval(&reloaded, &a, &opts()),
        "the reloaded gradient program",
    )?;
    if let (Some((x, _)), Some((y, _))) = (x, y) {
        if x != y {
            return fail(format!(
                "the reloaded gradient program gives {} instead of {}:\n{text}",
                literal(&y),
                literal(&x)
            ));
        }
    }
    // Closed under differentiation: outside copied index terms the gradient program uses
    // only the seed-000 constructs (no build, and no seed-004 construct); scatter fusion's
    // lazy `if` segment test lives inside index maps only (docs/engines/dual.md §5).
    let mut subs = Vec::new();
    outside_index(&h.body, &mut subs);
    if let Some(bad) = subs.iter().find(|e| {
        !matches!(
            e.kind,
            ExprKind::Var(_)
                | ExprKind::Lit(_)
                | ExprKind::Array(_)
                | ExprKind::Tuple(_)
                | ExprKind::Proj(..)
                | ExprKind::Let(..)
                | ExprKind::Unary(..)
                | ExprKind::Binary(..)
                | ExprKind::Prim(..)
                | ExprKind::Index(..)
                | ExprKind::Gather(..)
                | ExprKind::Scatter(..)
        )
    }) {
        return fail(format!(
            "the gradient program uses `{}` outside index terms:\n{text}",
            bad.kind.form_name()
        ));
    }
    Pass::ok()
}
