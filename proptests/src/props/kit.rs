//! The lowering kit's properties (`adora_rewrites::kit`, docs/architecture.md, "Lowering
//! kit"): names are unique by construction, with no renaming pass afterwards.
//!
//! * `kit/unique-binders`: the program bot prepares (`adora_rewrites::bot::prepare`) and
//!   every derivative program of every registered engine that derives one (each question
//!   in `Engine::programs`) bind each name once — no two binders share a name, and no
//!   binder takes a parameter's name — and the typed `let` chains of the kit's ANF state
//!   their values' types (`adora_rewrites::kit::anf::verify`): engine `dual`'s primal
//!   bindings (the separated form, seed 000 Eq. 6) and the kit ANF engine `linear` reads
//!   (seed 002 §4.1.2). A question an engine declines for the program (`Unsupported`),
//!   `grad` of a program without a scalar `R` result, or a resource limit skips; every
//!   other error fails the case.

use super::util::load;
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, RetKind};
use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind};
use adora_core::types::{Base, Type};
use adora_core::visit::{all_binders, NameSupply};
use adora_rewrites::engine;
use adora_rewrites::kit::anf;
use std::collections::BTreeSet;

/// The kit's properties.
pub fn properties() -> Vec<Property> {
    vec![Property {
        name: "kit/unique-binders",
        source: "engine invariant (issue 10: fresh names by construction, no uniqueness repair)",
        fragment: "all",
        description: "bot's prepared program and every derivative program of every engine bind each name \
                      once (no two binders, and no binder and parameter, share a name) without a renaming \
                      pass, and the kit's typed ANF chains (dual's primal bindings, linear's ANF) state \
                      their values' types (the figure: the mean number of programs checked per case)",
        figure: Some(Figure {
            label: "mean programs checked",
            agg: Agg::Mean,
        }),
        check: Check::Case {
            strategy: || CaseStrategy::all_fragments(24, RetKind::Real),
            check: unique_binders,
        },
    }]
}

/// `Ok(None)` for a declined question or a resource limit.
fn call<T>(r: adora_core::Result<T>, what: &str) -> Result<Option<T>, String> {
    match r {
        Ok(x) => Ok(Some(x)),
        Err(d) if matches!(d.kind, ErrorKind::Unsupported | ErrorKind::Resource) => Ok(None),
        Err(d) => Err(format!("{what} fails: {d}")),
    }
}

/// The first name `f` binds twice (two binders, or a binder and a parameter).
pub fn repeated_binder(f: &Function) -> Option<String> {
    let mut seen: BTreeSet<&str> = f.params.iter().map(|p| p.name.as_str()).collect();
    all_binders(&f.body)
        .into_iter()
        .find(|(n, _)| !seen.insert(n.as_str()))
        .map(|(n, _)| n.clone())
}

fn unique(f: &Function, what: &str) -> Result<(), String> {
    match repeated_binder(f) {
        Some(n) => Err(format!(
            "{what} binds `{n}` twice\n{}",
            adora_core::pretty::function(f)
        )),
        None => Ok(()),
    }
}

fn linear_reject(e: &adora_core::ast::Expr) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, e.span, "outside the flat fragment")
}

/// The check of one case (public so that the kit's tests run it on their own cases).
pub fn unique_binders(case: &Case) -> Outcome {
    let f = load(case)?;
    let mut checked = 0usize;
    if let Some(g) = call(adora_rewrites::bot::prepare(&f), "bot's preparation")? {
        unique(&g, "bot's prepared program")?;
        checked += 1;
        if let Some(sep) = call(
            adora_rewrites::dual::symbolic::forward::separate(&g),
            "dual's symbolic forward pass",
        )? {
            anf::verify(&adora_core::check::param_env(&g), &sep.bindings)
                .map_err(|d| format!("dual's primal bindings: {d}"))?;
        }
    }
    if let Some(a) = call(
        anf::normalize(&f, NameSupply::new(), linear_reject),
        "the kit's typed ANF",
    )? {
        let env: Vec<adora_core::ast::Binding> = a
            .params
            .iter()
            .map(|p| adora_core::ast::Binding {
                name: p.name.clone(),
                ty: p.ty.clone(),
            })
            .collect();
        anf::verify(&env, &a.lets).map_err(|d| format!("the kit's typed ANF: {d}"))?;
        let g = Function {
            params: a.params,
            body: anf::wrap(&a.lets, a.result),
            ..f.clone()
        };
        unique(&g, "the kit's typed ANF")?;
        checked += 1;
    }
    for e in engine::under_test() {
        for q in e.programs() {
            if *q == engine::Question::Grad && f.ret != Type::Array(Base::R, Vec::new()) {
                continue;
            }
            let what = format!("the {} program of `{}`", q.name(), e.name());
            if let Some(dp) = call(e.program(&f, *q), &what)? {
                unique(&dp.function, &what)?;
                checked += 1;
            }
        }
    }
    if checked == 0 {
        return Pass::vacuous();
    }
    Pass::figure(checked as f64)
}
