//! The backend's property (`adora_gpu`, docs/backend.md):
//!
//! * `backend/cpu-equals-exact`: on random programs of every fragment, and on the
//!   derivative programs of every registered engine for them (each question in
//!   `Engine::programs`: `grad` with cotangent 1 when the result is a real scalar, `vjp`
//!   with a random cotangent, `jvp` with random tangents), the kernel plan run by the CPU
//!   executor — its lanes, and its compiled kernels when a C compiler is found (all of a
//!   case's programs in one translation unit; docs/backend.md, "Compiled kernels") —
//!   equals the exact evaluator's value converted to `f64`, within
//!   [`TOLERANCE`] (`|a - r| <= 1e-9 · max(1, |r|)`, the harness's f64 rule: the executor
//!   sums in another order). The backend computes in IEEE doubles like `--numeric f64`;
//!   where that semantics itself departs from the exact one — the exact run divides by
//!   zero (total division gives 0, IEEE gives ±inf or NaN), or the `f64` evaluator's value
//!   does not agree with the exact value (a comparison of rounded values such as
//!   `0.1 + 0.2 == 0.3`) — the reference is the `f64` evaluator instead. A program the plan refuses (`Unsupported`) and a resource limit
//!   skip that program; a case where every program was skipped is vacuous.

use super::util::{aux_rng, load, random_tangents, random_value};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, RetKind};
use crate::values::to_f64;
use adora_core::ast::Function;
use adora_core::diag::ErrorKind;
use adora_core::types::Type;
use adora_gpu::cpu::native::{compiler, Native, Optimize};
use adora_gpu::cpu::Machine;
use adora_gpu::plan::Plan;
use adora_rewrites::engine::harness::values_agree;
use adora_rewrites::engine::{self, Question, Seed};
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::value::Value;
use adora_semantics::Rat;

/// The tolerance of the comparison (relative, with an absolute floor of the same size).
pub const TOLERANCE: f64 = 1e-9;

/// The backend's properties.
pub fn properties() -> Vec<Property> {
    vec![Property {
        name: "backend/cpu-equals-exact",
        source: "engine invariant (issue 15: the kernel plan runs the program's semantics)",
        fragment: "all",
        description: "the kernel plan of a random program of every fragment, and of every registered \
                      engine's derivative programs for it, run by the CPU executor (its lanes, and its \
                      compiled kernels where a C compiler is found), equals the exact \
                      evaluator converted to f64 within 1e-9 relative (the f64 evaluator where f64 \
                      semantics departs from the exact one); the figure is the mean number of programs compared per case",
        figure: Some(Figure {
            label: "mean programs compared",
            agg: Agg::Mean,
        }),
        check: Check::Case {
            strategy: || CaseStrategy::all_fragments(24, RetKind::Any),
            check: cpu_equals_exact,
        },
    }]
}

/// What comparing one program gave.
pub enum Compared {
    /// The values agree.
    Agree,
    /// The program was skipped (refused by the plan, or a resource limit).
    Skipped,
}

/// Runs `f` on `inputs` through the plan and the CPU executor's lanes and compares the
/// result with the exact evaluator (see the module documentation).
pub fn compare(f: &Function, inputs: &[Value<Rat>], what: &str) -> Result<Compared, String> {
    let plan = match adora_gpu::plan::plan(f) {
        Ok(p) => p,
        Err(d) if d.kind == ErrorKind::Unsupported => return Ok(Compared::Skipped),
        Err(d) => return Err(format!("{what}: the plan fails: {d}")),
    };
    compare_plan(f, &plan, None, inputs, what)
}

/// [`compare`] on `f`'s plan, by the lanes and, when given, by the compiled kernels
/// `native` of that plan (docs/backend.md, "Compiled kernels").
pub fn compare_plan(
    f: &Function,
    plan: &Plan,
    native: Option<Native>,
    inputs: &[Value<Rat>],
    what: &str,
) -> Result<Compared, String> {
    let opts = EvalOptions::default();
    let xs: Vec<Value<f64>> = inputs.iter().map(to_f64).collect();
    let float = match adora_core::with_stack(|| eval(f, &xs, &opts)) {
        Ok((v, _)) => Some(v),
        Err(d) if d.kind == ErrorKind::Resource => return Ok(Compared::Skipped),
        Err(_) => None,
    };
    let exact = match adora_core::with_stack(|| eval(f, inputs, &opts)) {
        Ok((v, st)) if st.div_by_zero == 0 => Some(to_f64(&v)),
        Err(d) if d.kind == ErrorKind::Resource => return Ok(Compared::Skipped),
        _ => None,
    };
    // The exact value, unless the f64 semantics itself departs from it (a comparison of
    // rounded values, an IEEE division by zero): then the f64 evaluator's.
    let expected = match (exact, float) {
        (Some(e), Some(fl)) if !values_agree(&fl, &e, TOLERANCE) => fl,
        (Some(e), _) => e,
        (None, Some(fl)) => fl,
        (None, None) => return Err(format!("{what}: neither evaluator runs it")),
    };
    let check = |got: Value<f64>, by: &str| {
        if values_agree(&got, &expected, TOLERANCE) {
            Ok(())
        } else {
            Err(format!(
                "{what}: the CPU executor ({by}) gives {}, the evaluator {}\nprogram:\n{}\nplan:\n{}",
                adora_semantics::io::to_text(&got),
                adora_semantics::io::to_text(&expected),
                adora_core::pretty::function(f),
                adora_gpu::plan::show(plan)
            ))
        }
    };
    let got =
        adora_gpu::cpu::run(plan, &xs).map_err(|d| format!("{what}: the executor fails: {d}"))?;
    check(got, "lanes")?;
    if let Some(n) = native {
        let mut m = Machine::with_native(plan, n)
            .map_err(|d| format!("{what}: the compiled kernels: {d}"))?;
        m.load(&xs)
            .map_err(|d| format!("{what}: the compiled kernels' inputs: {d}"))?;
        let got = m
            .call()
            .map_err(|d| format!("{what}: the compiled kernels fail: {d}"))?;
        check(got, "compiled kernels")?;
    }
    Ok(Compared::Agree)
}

/// The compiled kernels of `plans`, one translation unit (none without a C compiler).
fn compile(plans: &[&Plan]) -> Result<Vec<Option<Native>>, String> {
    match compiler() {
        None => Ok(plans.iter().map(|_| None).collect()),
        Some(cc) => Native::compile_all(plans, cc, Optimize::Quick)
            .map(|ns| ns.into_iter().map(Some).collect())
            .map_err(|d| format!("the compiled kernels do not compile: {d}")),
    }
}

/// The check of one case: the program and its derivative programs planned, their
/// kernels compiled in one translation unit (when a C compiler is found), each run by the
/// lanes and the compiled kernels.
pub fn cpu_equals_exact(case: &Case) -> Outcome {
    let f = load(case)?;
    let mut programs: Vec<(Function, Vec<Value<Rat>>, String)> =
        vec![(f.clone(), case.inputs.clone(), "the program".into())];
    let mut rng = aux_rng(case, 15);
    let one = Value::real(adora_semantics::scalar::Scalar::one());
    let ct = random_value(&f.ret, &mut rng);
    let ts = random_tangents(&case.inputs, &mut rng);
    for e in engine::under_test() {
        for q in e.programs() {
            let seed = match q {
                Question::Grad if f.ret != Type::real() => continue,
                Question::Grad => Seed::Cotangent(&one),
                Question::Vjp => Seed::Cotangent(&ct),
                Question::Jvp => Seed::Tangents(&ts),
            };
            let dp = match e.program(&f, *q) {
                Ok(dp) => dp,
                Err(d) if matches!(d.kind, ErrorKind::Unsupported | ErrorKind::Resource) => {
                    continue
                }
                Err(d) => {
                    return Err(format!(
                        "the {} program of `{}` fails: {d}",
                        q.name(),
                        e.name()
                    ))
                }
            };
            let args = dp.arguments(&f, &case.inputs, seed).map_err(|d| {
                format!(
                    "the arguments of `{}`'s {} program: {d}",
                    e.name(),
                    q.name()
                )
            })?;
            let what = format!("the {} program of `{}`", q.name(), e.name());
            programs.push((dp.function, args, what));
        }
    }
    let mut planned = Vec::new();
    for (g, args, what) in &programs {
        match adora_gpu::plan::plan(g) {
            Ok(p) => planned.push((g, p, args, what)),
            Err(d) if d.kind == ErrorKind::Unsupported => {}
            Err(d) => return Err(format!("{what}: the plan fails: {d}")),
        }
    }
    let plans: Vec<&Plan> = planned.iter().map(|(_, p, _, _)| p).collect();
    let natives = compile(&plans)?;
    let mut compared = 0usize;
    for ((g, p, args, what), n) in planned.iter().zip(natives) {
        if matches!(compare_plan(g, p, n, args, what)?, Compared::Agree) {
            compared += 1;
        }
    }
    if compared == 0 {
        return Pass::vacuous();
    }
    Pass::figure(compared as f64)
}
