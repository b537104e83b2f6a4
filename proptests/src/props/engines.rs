//! The engine properties, generated from the engine registry
//! (`adora_rewrites::engine::under_test`): every registered engine but the reference gets
//!
//! * `E/grad-equals-reference` (engines that answer `grad`): every route the engine
//!   offers for `grad` (its derivative program, its runtime answers) gives exactly the
//!   reference value and gradient;
//! * `E/jvp-equals-reference` (engines that answer `jvp`): every route the engine offers
//!   for `jvp` gives exactly the reference value and JVP for random tangents;
//! * `E/adjoint-law` (engines that answer both `jvp` and `vjp`): `<ct, J t> = <J^T ct,
//!   t>` exactly for random tangents and cotangents, and `J t` equals the reference JVP;
//!
//! A question an engine does not answer gets no property (never a property that passes
//! without checking anything: the harness would answer `Unsupported`).
//!
//! and every engine that derives programs also
//!
//! * `E/program-rechecks`: each derivative program type-checks against its signature,
//!   prints as source that loads again, and the reloaded program evaluates to the same
//!   answer, which equals the reference's;
//! * `E/cheap-gradient` (engines with a `grad` program whose paper claims the bound,
//!   `Engine::cheap_gradient`): the cheap-gradient bound of docs/cost-models.md,
//!   `ops(grad program) <= K ops(primal) + C (inputs + outputs)` with the engine's `(K,
//!   C)` (`dual`: 4, 1), with the documented fallback to the `work` model.
//!
//! Cases come from the generator fragments the engine declares (`Engine::fragments`).
//! All questions go through the engine harness (`adora_rewrites::engine::harness`). A
//! case is vacuous only when a resource limit is hit; an internal error (of the engine or
//! of the bulk-operation transform it runs first) fails the case, never a skip.

use super::util::{aux_rng, fail, load, load_text, opts, random_tangents, random_value};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::{Case, RetKind};
use crate::values::{dot, literal, reals, Rat};
use adora_core::diag::{Diagnostic, ErrorKind};
use adora_core::types::Type;
use adora_costmodel::measure;
use adora_rewrites::engine::harness::{self, Answer, Query, Route};
use adora_rewrites::engine::{self, DerivativeProgram, Engine, Question, Seed};
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference;
use adora_semantics::value::Value;
use num_traits::Zero;
use std::sync::OnceLock;

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// The generated properties (built once: their names are `'static`).
pub fn properties() -> Vec<Property> {
    static PROPS: OnceLock<Vec<Property>> = OnceLock::new();
    PROPS.get_or_init(generate).clone()
}

fn generate() -> Vec<Property> {
    let mut out = Vec::new();
    for e in engine::under_test() {
        let name = leak(e.name().to_string());
        let fragment = leak(
            e.fragments()
                .iter()
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(", "),
        );
        let prop = |suffix: &str,
                    source: &'static str,
                    description: String,
                    figure: Option<Figure>,
                    ret: RetKind,
                    check: fn(&dyn Engine, &Case) -> Outcome| Property {
            name: leak(format!("{name}/{suffix}")),
            source,
            fragment,
            description: leak(description),
            figure,
            check: Check::Engine {
                engine: name,
                ret,
                check,
            },
        };
        let answers = |q: Question| !harness::routes(e.as_ref(), q).is_empty();
        if answers(Question::Grad) {
            out.push(prop(
            "grad-equals-reference",
            "docs/architecture.md (the reference derivative is the ground truth); the engine's paper",
            format!("every route engine `{name}` offers for `grad` (derivative program, runtime answers), through the engine harness, gives exactly the reference value and gradient of a real-scalar program (the figure: the fraction of cases with a non-zero gradient)"),
            Some(Figure { label: "non-zero gradient (fraction)", agg: Agg::Mean }),
            RetKind::RealScalar,
            grad_equals_reference,
        ));
        }
        if answers(Question::Jvp) {
            out.push(prop(
                "jvp-equals-reference",
                "docs/architecture.md (the reference derivative is the ground truth); seed 004 §2.0.1, §3",
                format!("every route engine `{name}` offers for `jvp` (derivative program, runtime answers), through the engine harness, gives exactly the reference value and JVP for random tangents (the figure: the fraction of cases with a non-zero tangent)"),
                Some(Figure { label: "non-zero tangent (fraction)", agg: Agg::Mean }),
                RetKind::Any,
                jvp_equals_reference,
            ));
        }
        if answers(Question::Grad) || answers(Question::Jvp) {
            for (profile, check) in [
                (
                    "jax",
                    super::conventions::agrees_under_jax as fn(&dyn Engine, &Case) -> Outcome,
                ),
                ("pytorch", super::conventions::agrees_under_pytorch),
            ] {
                out.push(prop(
                    &format!("agrees-under-{profile}"),
                    "docs/conventions.md (\"Profiles\": engines agree with the reference under every profile)",
                    format!("under the `{profile}` conventions, every route engine `{name}` offers for `grad` (for a real-scalar result; else `jvp` with random tangents) gives exactly the reference's answer under `{profile}`, at tie-rich inputs (each real replaced by -1, 0 or 1 with probability 3/4); an engine that answers under `futhark` may not refuse the lowered program (the figure: the fraction of cases whose answer differs from the `futhark` one)"),
                    Some(Figure { label: "answer differs from futhark's (fraction)", agg: Agg::Mean }),
                    RetKind::Any,
                    check,
                ));
            }
        }
        if answers(Question::Jvp) && answers(Question::Vjp) {
            out.push(prop(
            "adjoint-law",
            "seed 002 §7 (transposition), seed 000 §6.4: <ct, J t> = <J^T ct, t>",
            format!("for random tangents t and cotangents ct, engine `{name}`'s JVP and VJP (through the harness) satisfy <ct, J t> = <J^T ct, t> exactly, and J t equals the reference JVP (the figure: the fraction of cases where both sides are not zero)"),
            Some(Figure { label: "non-zero <ct, J t> (fraction)", agg: Agg::Mean }),
            RetKind::Real,
            adjoint,
        ));
        }
        if e.programs().is_empty() {
            continue;
        }
        out.push(prop(
            "program-rechecks",
            "docs/architecture.md (the engine interface: derivative programs are core programs)",
            format!("each derivative program of engine `{name}` type-checks as an elaborated core function against its signature, prints as source that loads again, and the reloaded program evaluates (random tangents / cotangents) to the same answer, which equals the reference's exactly (the figure: the largest ratio of program size to primal size)"),
            Some(Figure { label: "max program/primal node ratio", agg: Agg::Max }),
            RetKind::Any,
            program_rechecks,
        ));
        if e.programs().contains(&Question::Grad) && e.cheap_gradient().is_some() {
            out.push(prop(
                "cheap-gradient",
                "docs/cost-models.md (cheap-gradient principle, the `ops` model of seed 001 §4)",
                format!("ops(gradient program of `{name}`) <= K * ops(the primal it differentiates) + C * (inputs + outputs) with the engine's (K, C) = {:?}, where inputs and outputs count real scalars; on the rare program dominated by data movement (which ops does not count) the same bound must hold in the work model instead (the figure: the largest ratio ops(gradient program) / (ops(primal) + io))", e.cheap_gradient().unwrap_or_default()),
                Some(Figure { label: "max ops(grad)/(ops(primal)+io)", agg: Agg::Max }),
                RetKind::RealScalar,
                cheap_gradient,
            ));
        }
    }
    out
}

/// Whether the case's result is outside the results the engine accepts
/// (`Engine::real_results_only`): it has an integer or boolean component.
pub(crate) fn outside_results(e: &dyn Engine, case: &Case) -> bool {
    fn all_real(t: &Type) -> bool {
        match t {
            Type::Tuple(ts) => ts.iter().all(all_real),
            t => t.has_reals(),
        }
    }
    e.real_results_only() && !all_real(&case.main().ret)
}

/// Whether an engine error makes the case vacuous: a resource limit only (an internal
/// error is a failure, docs/architecture.md "Errors and exit codes").
fn vacuous_error(d: &Diagnostic) -> bool {
    d.kind == ErrorKind::Resource
}

/// An engine or reference call: `Ok(None)` when the case is vacuous.
pub(crate) fn call<T>(r: adora_core::Result<T>, what: &str) -> Result<Option<T>, String> {
    match r {
        Ok(x) => Ok(Some(x)),
        Err(d) if vacuous_error(&d) => Ok(None),
        Err(d) => Err(format!("{what} fails: {d}")),
    }
}

macro_rules! or_vacuous {
    ($e:expr) => {
        match $e? {
            Some(x) => x,
            None => return Pass::vacuous(),
        }
    };
}

pub(crate) fn has_real_input(case: &Case) -> bool {
    case.inputs.iter().any(|x| !reals(x).is_empty())
}

pub(crate) fn show_answer(a: &Answer<Rat>) -> String {
    match a {
        Answer::Jvp(v, t) => format!("value {}, tangent {}", literal(v), literal(t)),
        Answer::Gradient(g) => {
            let grads: Vec<String> = g
                .grads
                .iter()
                .map(|x| x.as_ref().map(literal).unwrap_or_else(|| "-".into()))
                .collect();
            format!(
                "value {}, gradients {}",
                literal(&g.value),
                grads.join(", ")
            )
        }
    }
}

pub(crate) fn nonzero(a: &Answer<Rat>) -> bool {
    let g = a.clone().into_gradient();
    g.grads
        .iter()
        .flatten()
        .any(|v| reals(v).iter().any(|x| !x.is_zero()))
}

fn grad_equals_reference(e: &dyn Engine, case: &Case) -> Outcome {
    if !has_real_input(case) || case.main().ret != Type::real() {
        return Pass::vacuous();
    }
    let f = load(case)?;
    let r = engine::reference();
    let want = or_vacuous!(call(
        harness::ask(r.as_ref(), &f, &case.inputs, &Query::Grad, &opts()),
        "the reference"
    ));
    if let Some(out) = routes_agree(
        e,
        Question::Grad,
        &f,
        &Query::Grad,
        &want,
        &case.inputs,
        &opts(),
    ) {
        return out;
    }
    Pass::figure(if nonzero(&want) { 1.0 } else { 0.0 })
}

/// Every route `e` offers for `q` answers `query` exactly as the reference did (`want`);
/// `Some(outcome)` ends the case: a failure naming the first route that does not (with
/// its program), an error of a route, or a vacuous case (a resource limit).
pub(crate) fn routes_agree(
    e: &dyn Engine,
    q: Question,
    f: &adora_core::ast::Function,
    query: &Query<Rat>,
    want: &Answer<Rat>,
    inputs: &[Value<Rat>],
    opts: &EvalOptions,
) -> Option<Outcome> {
    for route in harness::routes(e, q) {
        let what = format!("engine `{}` ({route:?})", e.name());
        let got = match call(harness::ask_by(e, route, f, inputs, query, opts), &what) {
            Ok(Some(got)) => got,
            Ok(None) => return Some(Pass::vacuous()),
            Err(msg) => return Some(Err(msg)),
        };
        if &got != want {
            // Under another profile than `futhark` the engine differentiated the lowered
            // program (adora_rewrites::conventions).
            let lowered = adora_rewrites::conventions::lower(f, opts.conventions)
                .map(|l| l.function)
                .unwrap_or_else(|_| f.clone());
            let program = match route {
                Route::Program => e
                    .program(&lowered, q)
                    .map(|dp| adora_core::pretty::function(&dp.function))
                    .unwrap_or_default(),
                Route::Runtime => String::new(),
            };
            return Some(fail(format!(
                "{what}: {}\nreference: {}\n{program}",
                show_answer(&got),
                show_answer(want)
            )));
        }
    }
    None
}

fn jvp_equals_reference(e: &dyn Engine, case: &Case) -> Outcome {
    if !has_real_input(case) || outside_results(e, case) {
        return Pass::vacuous();
    }
    let f = load(case)?;
    let mut rng = aux_rng(case, 13);
    let query = Query::Jvp(random_tangents(&case.inputs, &mut rng));
    let r = engine::reference();
    let want = or_vacuous!(call(
        harness::ask(r.as_ref(), &f, &case.inputs, &query, &opts()),
        "the reference"
    ));
    if let Some(out) = routes_agree(e, Question::Jvp, &f, &query, &want, &case.inputs, &opts()) {
        return out;
    }
    Pass::figure(if nonzero(&want) { 1.0 } else { 0.0 })
}

fn adjoint(e: &dyn Engine, case: &Case) -> Outcome {
    let ret = case.main().ret.clone();
    if !has_real_input(case) || !ret.has_reals() {
        return Pass::vacuous();
    }
    let f = load(case)?;
    let mut rng = aux_rng(case, 11);
    let t = random_tangents(&case.inputs, &mut rng);
    let ct = random_value(&ret, &mut rng);
    let (_, jt) = or_vacuous!(call(
        harness::jvp(e, &f, &case.inputs, &t, &opts()),
        "the engine's JVP"
    ));
    let back = or_vacuous!(call(
        harness::vjp(e, &f, &case.inputs, &ct, &opts()),
        "the engine's VJP"
    ));
    let lhs = dot(&ct, &jt);
    let mut rhs = Rat::zero();
    for (gp, tp) in back.grads.iter().zip(&t) {
        if let (Some(gp), Some(tp)) = (gp, tp) {
            rhs += dot(gp, tp);
        }
    }
    if lhs != rhs {
        return fail(format!(
            "<ct, J t> = {lhs} but <J^T ct, t> = {rhs}\nct = {}\nJ t = {}",
            literal(&ct),
            literal(&jt)
        ));
    }
    if let Some((_, want)) = call(
        reference::jvp(&f, &case.inputs, &t, &opts()),
        "the reference JVP",
    )? {
        if want != jt {
            return fail(format!(
                "J t = {} but the reference JVP is {}",
                literal(&jt),
                literal(&want)
            ));
        }
    }
    Pass::figure(if lhs.is_zero() { 0.0 } else { 1.0 })
}

/// The query of question `q` with random seeds (`None`: `grad` of a non-scalar result).
fn random_query(q: Question, case: &Case, salt: u64) -> Option<Query<Rat>> {
    let mut rng = aux_rng(case, salt);
    match q {
        Question::Grad => (case.main().ret == Type::real()).then_some(Query::Grad),
        Question::Jvp => Some(Query::Jvp(random_tangents(&case.inputs, &mut rng))),
        Question::Vjp => Some(Query::Vjp(random_value(&case.main().ret, &mut rng))),
    }
}

fn program_rechecks(e: &dyn Engine, case: &Case) -> Outcome {
    if outside_results(e, case) {
        return Pass::vacuous();
    }
    let f = load(case)?;
    let mut ratio: f64 = 0.0;
    let mut checked = false;
    for (k, q) in e.programs().iter().enumerate() {
        let Some(query) = random_query(*q, case, 20 + k as u64) else {
            continue;
        };
        let what = format!("the {} program of `{}`", q.name(), e.name());
        let Some(dp) = call(e.program(&f, *q), &what)? else {
            continue;
        };
        let text = adora_core::pretty::function(&dp.function);
        dp.check(&f)
            .map_err(|d| format!("{what} does not re-check: {d}\n{text}"))?;
        let reloaded = load_text(&text, &dp.function.name)
            .map_err(|m| format!("{what}, printed, {m}\n{text}"))?;
        let again = DerivativeProgram {
            function: reloaded,
            ..dp.clone()
        };
        let Some(a) = call(
            harness::evaluate(&dp, &f, &case.inputs, &query, &opts()),
            &what,
        )?
        else {
            continue;
        };
        let b = call(
            harness::evaluate(&again, &f, &case.inputs, &query, &opts()),
            "the reloaded program",
        )?;
        if b.as_ref() != Some(&a) {
            return fail(format!(
                "{what} gives {} but reloaded {}\n{text}",
                show_answer(&a),
                b.as_ref().map(show_answer).unwrap_or_default()
            ));
        }
        let r = engine::reference();
        let Some(want) = call(
            harness::ask(r.as_ref(), &f, &case.inputs, &query, &opts()),
            "the reference",
        )?
        else {
            continue;
        };
        if a != want {
            return fail(format!(
                "{what} gives {}\nreference: {}\n{text}",
                show_answer(&a),
                show_answer(&want)
            ));
        }
        checked = true;
        let size = adora_core::visit::node_count(&dp.function.body) as f64;
        ratio = ratio.max(size / adora_core::visit::node_count(&dp.primal.body).max(1) as f64);
    }
    if checked {
        Pass::figure(ratio)
    } else {
        Pass::vacuous()
    }
}

/// The real scalars of the case's inputs.
fn input_reals(case: &Case) -> u64 {
    case.inputs
        .iter()
        .map(|v| reals(v).len() as u64)
        .sum::<u64>()
}

fn cheap_gradient(e: &dyn Engine, case: &Case) -> Outcome {
    if case.main().ret != Type::real() {
        return Pass::vacuous();
    }
    let f = load(case)?;
    let dp = or_vacuous!(call(e.program(&f, Question::Grad), "the gradient program"));
    let primal = or_vacuous!(call(
        measure(&dp.primal, &case.inputs, &opts()),
        "measuring the primal"
    ));
    let one = Value::real(Rat::from_integer(1.into()));
    let args = dp
        .arguments(&f, &case.inputs, Seed::Cotangent(&one))
        .map_err(|d| format!("the gradient program's arguments: {d}"))?;
    let grad = or_vacuous!(call(
        measure(&dp.function, &args, &opts()),
        "measuring the gradient program"
    ));
    let io = input_reals(case) + 1;
    let Some((k, c)) = e.cheap_gradient() else {
        return Pass::vacuous();
    };
    let ops_bound = adora_costmodel::cheap_gradient_bound(&primal, &grad, k, c, io);
    // `ops` counts no data movement; on the rare program whose arithmetic is negligible
    // next to the data movement left in place (about 1 in 1,000 generated programs), the
    // gradient's extra additions of moved cotangents exceed the ops bound. The same bound
    // in the `work` model, which counts data movement, must then hold
    // (docs/cost-models.md).
    let work_bound = u128::from(grad.work)
        <= u128::from(k) * u128::from(primal.work) + u128::from(c) * u128::from(io);
    if !ops_bound && !work_bound {
        return fail(format!(
            "ops(gradient program) = {} > {k} * {} + {io}, and work {} > {k} * {} + {io}\nprimal:\n{}\ngradient program:\n{}",
            grad.ops,
            primal.ops,
            grad.work,
            primal.work,
            adora_core::pretty::function(&dp.primal),
            adora_core::pretty::function(&dp.function)
        ));
    }
    Pass::figure(grad.ops as f64 / (primal.ops + io) as f64)
}

#[cfg(test)]
mod tests {
    use crate::runner::{run_property_persisting, CheckConfig, Persistence};
    use adora_rewrites::engine::harness;
    use adora_rewrites::engine::Question;

    /// Every generated engine property holds on 24 cases with a fixed seed, and every
    /// engine under test has its properties.
    #[test]
    fn generated_engine_properties_hold() {
        let props = super::properties();
        for e in adora_rewrites::engine::under_test() {
            // One `E/Q-equals-reference` per question the engine answers, none otherwise.
            for q in [Question::Grad, Question::Jvp] {
                let name = format!("{}/{}-equals-reference", e.name(), q.name());
                let answers = !harness::routes(e.as_ref(), q).is_empty();
                assert_eq!(
                    props.iter().any(|p| p.name == name),
                    answers,
                    "{name}: the property exists exactly when the engine answers {}",
                    q.name()
                );
            }
        }
        let mut failures = Vec::new();
        for p in &props {
            let cfg = CheckConfig {
                cases: 24,
                seed: 0xE4_61E5,
                filter: None,
                jobs: 1,
                size: 1,
            };
            let r = run_property_persisting(p, &cfg, Persistence::Off);
            if r.failures > 0 {
                failures.push(format!(
                    "{}:\n{}",
                    p.name,
                    r.counterexample.unwrap_or_default()
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }
}
