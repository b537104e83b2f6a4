//! Convention profiles (docs/conventions.md, "Profiles"): the lowering that gives every
//! engine the profiles (`adora_rewrites::conventions`) and the engines under each profile.
//!
//! * `conventions/lowering-preserves-values`: under `jax` and `pytorch`, the lowered
//!   program's value is exactly the original's;
//! * `conventions/lowering-gives-the-profile`: the reference JVP of the lowered program
//!   under `futhark` is exactly the reference JVP of the original under the profile (the
//!   reference implements the profiles itself, `adora_semantics::conventions`);
//! * `E/agrees-under-jax`, `E/agrees-under-pytorch` (generated with the engine properties,
//!   `super::engines`): every route of engine `E` for `grad` (or else `jvp`) gives exactly
//!   the reference's answer under the profile.
//!
//! Random inputs rarely tie, so every check draws tie-rich inputs ([`tie_rich`]): each real
//! of the case's inputs replaced, with probability 3/4, by one of -1, 0, 1. Each figure is
//! the fraction of cases whose answer under the profile differs from the `futhark` one (a
//! convention exercised), so a run that never meets a tie shows it.

use super::engines::{call, has_real_input, outside_results, routes_agree, show_answer};
use super::util::{aux_rng, fail, load, random_tangents};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, RetKind};
use crate::values::{literal, rat, reals, with_reals, Rat};
use adora_core::diag::ErrorKind;
use adora_core::types::Type;
use adora_rewrites::conventions::lower;
use adora_rewrites::engine::harness::{self, Query};
use adora_rewrites::engine::{self, Engine, Question};
use adora_semantics::conventions::Conventions;
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The profiles other than `futhark` (the engine properties cover `futhark`).
const PROFILES: [Conventions; 2] = [Conventions::Jax, Conventions::Pytorch];

/// The lowering properties.
pub fn properties() -> Vec<Property> {
    let fig = Some(Figure {
        label: "answer differs from futhark's (fraction)",
        agg: Agg::Mean,
    });
    vec![
        Property {
            name: "conventions/lowering-preserves-values",
            source: "docs/conventions.md (\"Profiles\": values never depend on the profile)",
            fragment: "all",
            description: "under `jax` and `pytorch`, the program lowered by adora_rewrites::conventions evaluates exactly to the original's value on tie-rich inputs (the figure: the fraction of cases where a lowering rule fired)",
            figure: Some(Figure { label: "a rule fired (fraction)", agg: Agg::Mean }),
            check: Check::Case {
                strategy: || CaseStrategy::all_fragments(32, RetKind::Any),
                check: lowering_preserves_values,
            },
        },
        Property {
            name: "conventions/lowering-gives-the-profile",
            source: "docs/conventions.md (\"Profiles\"); the reference derivative implements each profile",
            fragment: "all",
            description: "under `jax` and `pytorch`, the reference JVP of the lowered program under `futhark` equals exactly the reference JVP of the original under the profile, for random tangents at tie-rich inputs",
            figure: fig,
            check: Check::Case {
                strategy: || CaseStrategy::all_fragments(32, RetKind::Any),
                check: lowering_gives_the_profile,
            },
        },
    ]
}

/// The profile's options (otherwise the properties' defaults).
fn under(profile: Conventions) -> EvalOptions {
    EvalOptions {
        conventions: profile,
        ..super::util::opts()
    }
}

/// The case's inputs with each real replaced, with probability 3/4, by -1, 0 or 1.
pub fn tie_rich(case: &Case, rng: &mut ChaCha8Rng) -> Vec<Value<Rat>> {
    case.inputs
        .iter()
        .map(|x| {
            let xs: Vec<Rat> = reals(x)
                .into_iter()
                .map(|r| {
                    if rng.gen_bool(0.75) {
                        rat(rng.gen_range(-1..=1), 1)
                    } else {
                        r
                    }
                })
                .collect();
            with_reals(x, &xs)
        })
        .collect()
}

fn lowering_preserves_values(case: &Case) -> Outcome {
    let f = load(case)?;
    let inputs = tie_rich(case, &mut aux_rng(case, 31));
    let lowered = PROFILES
        .into_iter()
        .map(|p| {
            lower(&f, p)
                .map(|l| (p, l))
                .map_err(|d| format!("the `{p}` lowering fails: {d}"))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let fired = lowered.iter().any(|(_, l)| l.fired.iter().any(|&n| n > 0));
    // The original is evaluated once, for both profiles.
    let opts = super::util::opts();
    let Some(want) = call(
        adora_semantics::eval::eval(&f, &inputs, &opts),
        "the original",
    )?
    else {
        return Pass::vacuous();
    };
    for (p, l) in &lowered {
        let Some(got) = call(
            adora_semantics::eval::eval(&l.function, &inputs, &opts),
            "the lowered program",
        )?
        else {
            return Pass::vacuous();
        };
        if got.0 != want.0 {
            return fail(format!(
                "under `{p}` the lowered program gives {} where the original gives {}\n{}",
                literal(&got.0),
                literal(&want.0),
                adora_core::pretty::function(&l.function)
            ));
        }
    }
    Pass::figure(if fired { 1.0 } else { 0.0 })
}

fn lowering_gives_the_profile(case: &Case) -> Outcome {
    if !has_real_input(case) {
        return Pass::vacuous();
    }
    let f = load(case)?;
    let mut rng = aux_rng(case, 37);
    let inputs = tie_rich(case, &mut rng);
    let query = Query::Jvp(random_tangents(&inputs, &mut rng));
    let r = engine::reference();
    let ask = |f: &adora_core::ast::Function, opts: &EvalOptions| {
        call(
            harness::ask(r.as_ref(), f, &inputs, &query, opts),
            "the reference",
        )
    };
    let Some(futhark) = ask(&f, &under(Conventions::Futhark))? else {
        return Pass::vacuous();
    };
    let mut differs = false;
    for p in PROFILES {
        let l = lower(&f, p).map_err(|d| format!("the `{p}` lowering fails: {d}"))?;
        let (Some(want), Some(got)) = (
            ask(&f, &under(p))?,
            ask(&l.function, &under(Conventions::Futhark))?,
        ) else {
            return Pass::vacuous();
        };
        if got != want {
            return fail(format!(
                "under `{p}`: the lowered program's futhark JVP is {}, the reference's under `{p}` {}\n{}",
                show_answer(&got),
                show_answer(&want),
                adora_core::pretty::function(&l.function)
            ));
        }
        differs |= want != futhark;
    }
    Pass::figure(if differs { 1.0 } else { 0.0 })
}

/// `E/agrees-under-jax`.
pub fn agrees_under_jax(e: &dyn Engine, case: &Case) -> Outcome {
    agrees_under(e, case, Conventions::Jax)
}

/// `E/agrees-under-pytorch`.
pub fn agrees_under_pytorch(e: &dyn Engine, case: &Case) -> Outcome {
    agrees_under(e, case, Conventions::Pytorch)
}

/// The question asked: `grad` where the engine answers it and the result is a real
/// scalar, else `jvp` with random tangents.
fn question(
    e: &dyn Engine,
    case: &Case,
    inputs: &[Value<Rat>],
    rng: &mut ChaCha8Rng,
) -> Option<(Question, Query<Rat>)> {
    let answers = |q| !harness::routes(e, q).is_empty();
    if answers(Question::Grad) && case.main().ret == Type::real() {
        Some((Question::Grad, Query::Grad))
    } else if answers(Question::Jvp) {
        Some((Question::Jvp, Query::Jvp(random_tangents(inputs, rng))))
    } else {
        None
    }
}

fn agrees_under(e: &dyn Engine, case: &Case, profile: Conventions) -> Outcome {
    if !has_real_input(case) || outside_results(e, case) {
        return Pass::vacuous();
    }
    let f = load(case)?;
    let mut rng = aux_rng(case, 41);
    let inputs = tie_rich(case, &mut rng);
    let Some((q, query)) = question(e, case, &inputs, &mut rng) else {
        return Pass::vacuous();
    };
    let r = engine::reference();
    let reference = |opts: &EvalOptions| {
        call(
            harness::ask(r.as_ref(), &f, &inputs, &query, opts),
            "the reference",
        )
    };
    let (Some(want), Some(futhark)) = (
        reference(&under(profile))?,
        reference(&under(Conventions::Futhark))?,
    ) else {
        return Pass::vacuous();
    };
    // An engine that answers under `futhark` must answer under the profile: the lowering
    // may not leave its fragment.
    if let Err(d) = harness::ask(e, &f, &inputs, &query, &under(profile)) {
        if d.kind == ErrorKind::Unsupported {
            return match harness::ask(e, &f, &inputs, &query, &under(Conventions::Futhark)) {
                Err(d2) if d2.kind == ErrorKind::Unsupported => Pass::vacuous(),
                _ => fail(format!(
                    "engine `{}` answers under `futhark` but refuses the `{profile}` lowering: {d}",
                    e.name()
                )),
            };
        }
    }
    if let Some(out) = routes_agree(e, q, &f, &query, &want, &inputs, &under(profile)) {
        return out;
    }
    Pass::figure(if want != futhark { 1.0 } else { 0.0 })
}
