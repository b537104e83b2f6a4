//! Engine `soac`'s own properties (seed 004, *AD for an Array Language with Nested
//! Parallelism*; docs/engines/soac-forward.md). The properties every engine gets
//! (`soac/jvp-equals-reference`, `soac/program-rechecks`) are generated from the
//! registry (`super::engines`).
//!
//! * `soac/lower-preserves-semantics`: lowering the bulk forms to SOACs
//!   (`adora_rewrites::soac::lower::lower`, seed 004 §2) keeps the value: the lowered
//!   program re-checks, binds each name once, contains no `build`, `gather`, `scatter`,
//!   `sum`, `sum_outer` or `replicate`, and evaluates exactly (`==` on rationals) to the
//!   value of the source on the case's inputs.

use super::kit::repeated_binder;
use super::util::{fail, load, opts};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, Fragment, GenSpec, RetKind};
use crate::values::literal;
use adora_core::ast::{ExprKind, Prim};
use adora_core::diag::ErrorKind;
use adora_core::visit::subexprs;
use adora_semantics::eval::eval;
use adora_semantics::Rat;

/// Engine `soac`'s properties.
pub fn properties() -> Vec<Property> {
    vec![Property {
        name: "soac/lower-preserves-semantics",
        source: "seed 004 §2 (the bulk forms as SOACs)",
        fragment: "bulk, soac",
        description: "lowering build, gather, scatter, sum, sum_outer and replicate to map, reduce and \
                      reduce_by_index gives a program that re-checks, binds each name once, has none of \
                      those forms left, and evaluates exactly to the source's value (the figure: the \
                      fraction of cases with a bulk form to lower)",
        figure: Some(Figure {
            label: "cases with a bulk form (fraction)",
            agg: Agg::Mean,
        }),
        check: Check::Case {
            strategy: || CaseStrategy {
                specs: [Fragment::Bulk, Fragment::Soac]
                    .iter()
                    .map(|f| GenSpec::new(*f).size(40).ret(RetKind::Any))
                    .collect(),
            },
            check: lower_preserves_semantics,
        },
    }]
}

/// Whether `e` is a form the lowering removes.
fn bulk_form(k: &ExprKind) -> bool {
    matches!(
        k,
        ExprKind::Build(..)
            | ExprKind::Gather(..)
            | ExprKind::Scatter(..)
            | ExprKind::Prim(Prim::Sum | Prim::SumOuter | Prim::Replicate(_), _)
    )
}

/// The check of one case.
pub fn lower_preserves_semantics(case: &Case) -> Outcome {
    let f = load(case)?;
    let had = subexprs(&f.body).iter().any(|e| bulk_form(&e.kind));
    let g = adora_rewrites::soac::lower::lower(&f).map_err(|d| format!("lowering fails: {d}"))?;
    let text = adora_core::pretty::function(&g);
    if let Some(n) = repeated_binder(&g) {
        return fail(format!("the lowered program binds `{n}` twice\n{text}"));
    }
    if let Some(e) = subexprs(&g.body).iter().find(|e| bulk_form(&e.kind)) {
        return fail(format!(
            "the lowered program still has `{}`\n{text}",
            adora_core::pretty::expr(e)
        ));
    }
    let inputs: &[adora_semantics::value::Value<Rat>] = &case.inputs;
    let want = match eval(&f, inputs, &opts()) {
        Ok((v, _)) => v,
        Err(d) if d.kind == ErrorKind::Resource => return Pass::vacuous(),
        Err(d) => return fail(format!("the source fails: {d}")),
    };
    let got = match eval(&g, inputs, &opts()) {
        Ok((v, _)) => v,
        Err(d) if d.kind == ErrorKind::Resource => return Pass::vacuous(),
        Err(d) => return fail(format!("the lowered program fails: {d}\n{text}")),
    };
    if got != want {
        return fail(format!(
            "the lowered program gives {} but the source {}\n{text}",
            literal(&got),
            literal(&want)
        ));
    }
    Pass::figure(if had { 1.0 } else { 0.0 })
}
