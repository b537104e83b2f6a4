//! Properties of the framework rules of engine `soac`'s reverse mode (seed 004 *AD for an
//! Array Language with Nested Parallelism* §2.0.2, §4.2, §6.3; docs/engines/soac-reverse.md,
//! "Rules"), on random programs of the seed-004 fragment. Each rule property looks only
//! at programs where its rule fires (`reverse::derive` counts the applications; a case
//! where it does not fire is vacuous, so the runner's vacuous count is the coverage) and
//! compares engine `soac`'s gradient with the reference's exactly:
//!
//! * `soac/rule-loop-sound` (S004-X4.2b): `rev/loop-return`, under each checkpointing
//!   policy (`every`, `once`, `stripmine:2`);
//! * `soac/rule-index-sound` (S004-X4.2c): `rev/index`;
//! * `soac/rule-if-sound` (S004-X6.3): `rev/if`;
//! * `soac/adjoint-final-before-use` (S004-X2d): in the derivative program, every
//!   contribution to a statement's adjoint is emitted before the statement's rule reads
//!   it (`Derived::late` is empty).

use super::soac_loops::soac;
use super::util::load;
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, Fragment, GenSpec, RetKind};
use adora_core::diag::ErrorKind;
use adora_rewrites::engine::harness::{ask, Answer, Query};
use adora_rewrites::engine::{Checkpoint, Question};
use adora_rewrites::soac::reverse::{self, Derived, Rules};
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference;

fn strategy() -> CaseStrategy {
    CaseStrategy {
        specs: vec![GenSpec::new(Fragment::Soac)
            .size(40)
            .ret(RetKind::RealScalar)],
    }
}

/// The case's gradient program with what its construction observed; `None`: declined or
/// a resource limit.
fn derived(case: &Case, q: Question) -> Result<Option<Derived>, String> {
    let f = load(case)?;
    match reverse::derive(&f, q, Rules::default(), Checkpoint::Every) {
        Ok(d) => Ok(Some(d)),
        Err(d) if matches!(d.kind, ErrorKind::Unsupported | ErrorKind::Resource) => Ok(None),
        Err(d) => Err(format!("no program: {d}")),
    }
}

/// Vacuous unless `rule` fires in the case's gradient program; then engine `soac`'s
/// gradient under each of `policies` equals the reference's exactly. The figure: the
/// rule's applications.
fn rule_sound(case: &Case, rule: &str, policies: &[Checkpoint]) -> Outcome {
    let Some(d) = derived(case, Question::Grad)? else {
        return Pass::vacuous();
    };
    let fired = d.fired.get(rule).copied().unwrap_or(0);
    if fired == 0 {
        return Pass::vacuous();
    }
    let f = load(case)?;
    let opts = EvalOptions::default();
    let want = match reference::gradient(&f, &case.inputs, &opts) {
        Ok(w) => w,
        Err(e) if e.kind == ErrorKind::Resource => return Pass::vacuous(),
        Err(e) => return Err(format!("reference: {e}")),
    };
    let src = case.render();
    for &c in policies {
        match ask(soac(c)?.as_ref(), &f, &case.inputs, &Query::Grad, &opts) {
            Ok(a) if a == Answer::Gradient(want.clone()) => {}
            Err(e) if e.kind == ErrorKind::Resource => {}
            other => return Err(format!("{c}: soac {other:?}, reference {want:?}\n{src}")),
        }
    }
    Pass::figure(fired as f64)
}

fn loop_sound(case: &Case) -> Outcome {
    rule_sound(
        case,
        "rev/loop-return",
        &[
            Checkpoint::Every,
            Checkpoint::Once,
            Checkpoint::StripMine(2),
        ],
    )
}

fn index_sound(case: &Case) -> Outcome {
    rule_sound(case, "rev/index", &[Checkpoint::Every])
}

fn if_sound(case: &Case) -> Outcome {
    rule_sound(case, "rev/if", &[Checkpoint::Every])
}

fn final_before_use(case: &Case) -> Outcome {
    let Some(d) = derived(case, Question::Vjp)? else {
        return Pass::vacuous();
    };
    if !d.late.is_empty() {
        return Err(format!(
            "adjoints of {:?} got contributions after their rule read them\n{}",
            d.late,
            adora_core::pretty::function(&d.program.function)
        ));
    }
    Pass::figure(d.fired.values().sum::<usize>() as f64)
}

fn prop(
    name: &'static str,
    source: &'static str,
    description: &'static str,
    label: &'static str,
    check: fn(&Case) -> Outcome,
) -> Property {
    Property {
        name,
        source,
        fragment: "soac",
        description,
        figure: Some(Figure {
            label,
            agg: Agg::Max,
        }),
        check: Check::Case { strategy, check },
    }
}

/// The framework-rule properties of engine `soac`'s reverse mode.
pub fn properties() -> Vec<Property> {
    vec![
        prop(
            "soac/rule-loop-sound",
            "seed 004 §4.2 (loop rule), §4.3",
            "on generated seed-004 programs whose gradient program applies the loop rule (rev/loop-return; others vacuous), engine soac's gradient equals the reference exactly under --checkpoint every, once and stripmine:2 (the figure: the most applications in a program)",
            "most loop-rule applications",
            loop_sound,
        ),
        prop(
            "soac/rule-index-sound",
            "seed 004 §4.2 (indexing rule)",
            "on generated seed-004 programs whose gradient program applies the indexing rule (rev/index: x̄s[i] += ȳ by a one-element reduce_by_index; others vacuous), engine soac's gradient equals the reference exactly (the figure: the most applications in a program)",
            "most index-rule applications",
            index_sound,
        ),
        prop(
            "soac/rule-if-sound",
            "seed 004 §6.3",
            "on generated seed-004 programs whose gradient program applies the if rule (rev/if: both branches differentiated, the taken one run; others vacuous), engine soac's gradient equals the reference exactly (the figure: the most applications in a program)",
            "most if-rule applications",
            if_sound,
        ),
        prop(
            "soac/adjoint-final-before-use",
            "seed 004 §2.0.2",
            "in engine soac's VJP program of a generated seed-004 program, no statement's adjoint receives a contribution after the statement's rule has read it: the return sweep processes statements in reverse order and every use of a name comes after its binding (the figure: the most framework-rule applications in a program)",
            "most rule applications",
            final_before_use,
        ),
    ]
}
