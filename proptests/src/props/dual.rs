//! Properties specific to the `dual` and `dual-scalar` engines (seed 000: bot, dual
//! arrays, symbolic reverse pass; the naive scalar algorithm of §2). Gradients equal to
//! the reference, the adjoint law and the cheap-gradient bound are the generated engine
//! properties of [`super::engines`] (`dual/...`, `dual-scalar/...`).
//!
//! Generated programs of the `bulk` fragment go through bot first
//! (`adora_rewrites::dual::fragment::prepare`, with the engine's bot limits); a case on
//! which bot stops at a resource limit is vacuous, and an internal error
//! (`ErrorKind::Internal`) is a failure, never a skip. "The bot output" below is that
//! program, the one the dual-arrays transformation differentiates.

use super::util::{aux_rng, fail, load, load_text, opts, random_tangents};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, Fragment, GenSpec, RetKind};
use crate::values::{literal, rat, reals, Rat};
use adora_core::ast::{ExprKind, Function};
use adora_core::diag::ErrorKind;
use adora_core::visit;
use adora_rewrites::dual::symbolic::check::{check_form, instantiate};
use adora_rewrites::dual::symbolic::wrapper::gradient_program;
use adora_rewrites::dual::{fragment, runtime, runtime_delta_nodes, runtime_vjp_normal, scalar};
use adora_semantics::eval::eval;
use adora_semantics::reference;
use adora_semantics::value::{Tensor, Value};

fn bulk(ret: RetKind) -> CaseStrategy {
    CaseStrategy::new(GenSpec::new(Fragment::Bulk).size(24).ret(ret))
}

/// The `dual` properties.
pub fn properties() -> Vec<Property> {
    vec![
        Property {
            name: "dual/separated-form",
            source: "seed 000 §7.1 Eq. (6) and §7.6",
            fragment: "bulk",
            description: "the symbolic forward pass of the bot output has the separated form of Eq. 6 (Share ids \
                          decrease inward; factors and conditions are primal variables; index positions are \
                          atoms; index maps mention only their binders and primal variables; leaves are inputs), \
                          its primal part computes the program's value, and its symbolic Delta, read at the \
                          primal part's values, computes the reference JVP exactly (the figure: the mean number \
                          of primal bindings)",
            figure: Some(Figure { label: "primal bindings (mean)", agg: Agg::Mean }),
            check: Check::Case { strategy: || bulk(RetKind::Real), check: separated },
        },
        Property {
            name: "dual/one-hot-bound",
            source: "seed 000 §5.1 (after Theorem 5.1: one-hots <= lexical index occurrences)",
            fragment: "bulk",
            description: "the runtime reverse pass creates at most as many one-hot arrays as the bot output has \
                          lexical `index` occurrences (the figure: the largest ratio one-hots / occurrences)",
            figure: Some(Figure { label: "max one-hots / index occurrences", agg: Agg::Max }),
            check: Check::Case { strategy: || bulk(RetKind::RealScalar), check: one_hot_bound },
        },
        Property {
            name: "dual/delta-size-constant",
            source: "seed 000 §4.3-§4.5 (dual arrays end the Delta explosion)",
            fragment: "shapes",
            description: "for program families (Fig. 18's self-convolution, a convolution loss, a let-shared dot \
                          product, a matrix-vector product) at two random sizes, the Delta of the bot output has \
                          the same number of nodes, while dual-scalar's grows with the size (the figure: the \
                          largest ratio of dual-scalar's to dual's node count)",
            figure: Some(Figure { label: "max dual-scalar / dual Delta nodes", agg: Agg::Max }),
            check: Check::Dims { count: 2, max: 8, check: delta_size },
        },
        Property {
            name: "dual/grad-program-build-free",
            source: "seed 000 §7.4-§7.5 (the gradient program is a core program of bulk operations)",
            fragment: "bulk",
            description: "the gradient program of every program of the bulk fragment contains no `build` (nor any \
                          share marker), and type-checks as an elaborated core function (the figure: the \
                          largest ratio of its size to the bot output's)",
            figure: Some(Figure { label: "max gradient/primal node ratio", agg: Agg::Max }),
            check: Check::Case { strategy: || bulk(RetKind::Real), check: build_free },
        },
    ]
}

/// A derivative call; resource limits give `Ok(None)`.
fn derivative<T>(r: adora_core::Result<T>, what: &str) -> Result<Option<T>, String> {
    match r {
        Ok(x) => Ok(Some(x)),
        Err(d) if d.kind == ErrorKind::Resource => Ok(None),
        Err(d) => Err(format!("{what} fails: {d}")),
    }
}

/// The bot output of `f` (`None`: bot stopped at a resource limit; an internal error is
/// a failure).
fn normal_form(f: &Function) -> Result<Option<Function>, String> {
    prepared(fragment::prepare(f))
}

/// How [`normal_form`] classifies the preparation's result.
fn prepared(r: adora_core::Result<Function>) -> Result<Option<Function>, String> {
    match r {
        Ok(g) => Ok(Some(g)),
        Err(d) if d.kind == ErrorKind::Resource => Ok(None),
        Err(d) => Err(format!("preparing the program (fragment, bot) fails: {d}")),
    }
}

fn has_real_input(case: &Case) -> bool {
    case.inputs.iter().any(|x| !reals(x).is_empty())
}

/// Whether a gradient property applies: a real input and a scalar real result (shrinking
/// may change the result type).
fn gradient_case(case: &Case) -> bool {
    has_real_input(case) && case.main().ret == adora_core::types::Type::real()
}

fn one() -> Value<Rat> {
    Value::real(rat(1, 1))
}

/// The real leaves of the tangents, in input-leaf order (`None` for zero tangents).
fn leaves(inputs: &[Value<Rat>], t: &[Option<Value<Rat>>]) -> Vec<Option<Tensor<Rat>>> {
    fn go(v: &Value<Rat>, t: Option<&Value<Rat>>, out: &mut Vec<Option<Tensor<Rat>>>) {
        match (v, t) {
            (Value::Real(_), Some(Value::Real(d))) => out.push(Some(d.clone())),
            (Value::Real(_), _) => out.push(None),
            (Value::Tuple(vs), Some(Value::Tuple(ts))) => {
                for (a, b) in vs.iter().zip(ts) {
                    go(a, Some(b), out);
                }
            }
            (Value::Tuple(vs), _) => vs.iter().for_each(|a| go(a, None, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (v, d) in inputs.iter().zip(t) {
        go(v, d.as_ref(), &mut out);
    }
    out
}

fn real_parts(v: &Value<Rat>, out: &mut Vec<Tensor<Rat>>) {
    match v {
        Value::Real(t) => out.push(t.clone()),
        Value::Tuple(vs) => vs.iter().for_each(|c| real_parts(c, out)),
        _ => {}
    }
}

fn separated(case: &Case) -> Outcome {
    let f = load(case)?;
    let Some(g) = normal_form(&f)? else {
        return Pass::vacuous();
    };
    let report = adora_core::with_stack(|| check_form(&g))?;
    let Some((value, deltas)) = derivative(
        instantiate(&g, &case.inputs, &opts()),
        "instantiating the separated form",
    )?
    else {
        return Pass::vacuous();
    };
    let Some((want_value, _)) = derivative(eval(&f, &case.inputs, &opts()), "evaluation")? else {
        return Pass::vacuous();
    };
    if value != want_value {
        return fail(format!(
            "the primal part gives {} but the program {}",
            literal(&value),
            literal(&want_value)
        ));
    }
    let mut rng = aux_rng(case, 12);
    let t = random_tangents(&case.inputs, &mut rng);
    let Some((_, want)) = derivative(
        reference::jvp(&f, &case.inputs, &t, &opts()),
        "the reference jvp",
    )?
    else {
        return Pass::vacuous();
    };
    let ls = leaves(&case.inputs, &t);
    let got: Vec<Tensor<Rat>> = deltas.iter().map(|d| runtime::tangent(d, &ls)).collect();
    let mut parts = Vec::new();
    real_parts(&want, &mut parts);
    if got != parts {
        return fail(format!(
            "the separated form's Delta gives {got:?} but the reference JVP is {}",
            literal(&want)
        ));
    }
    Pass::figure(report.bindings as f64)
}

fn index_occurrences(g: &Function) -> usize {
    visit::subexprs(&g.body)
        .iter()
        .filter(|e| matches!(e.kind, ExprKind::Index(..)))
        .count()
}

fn one_hot_bound(case: &Case) -> Outcome {
    if !gradient_case(case) {
        return Pass::vacuous();
    }
    let f = load(case)?;
    let Some(g) = normal_form(&f)? else {
        return Pass::vacuous();
    };
    let Some((_, stats)) = derivative(
        runtime_vjp_normal(&g, &case.inputs, &one(), &opts()),
        "the runtime reverse pass",
    )?
    else {
        return Pass::vacuous();
    };
    let n = index_occurrences(&g);
    if stats.one_hots > n {
        return fail(format!(
            "{} one-hot arrays for {n} index occurrences in\n{}",
            stats.one_hots,
            adora_core::pretty::function(&g)
        ));
    }
    Pass::figure(if n == 0 {
        0.0
    } else {
        stats.one_hots as f64 / n as f64
    })
}

/// The families of `dual/delta-size-constant`: source text for size `n`.
fn family(k: usize, n: usize) -> String {
    match k {
        0 => format!("def main(x: R[{n}]) -> R = sum_outer(build {n} (i => x[i] * x[{} - i]))", n - 1),
        1 => format!(
            "def main(x: R[{}], w: R[3]) -> R = let y = build {n} (i => sum(build 3 (k => x[i + k] * w[k]))) in sum(y * y)",
            n + 2
        ),
        2 => format!("def main(x: R[{n}], y: R[{n}]) -> R = let z = x * y in sum(z * z + z)"),
        _ => format!("def main(a: R[{n}, {n}], v: R[{n}]) -> R = sum(build {n} (i => sum(build {n} (j => a[i, j] * v[j]))))"),
    }
}

fn family_inputs(f: &Function) -> Vec<Value<Rat>> {
    let mut k = 0i64;
    f.params
        .iter()
        .map(|p| {
            let n = p.ty.size();
            let data: Vec<Rat> = (0..n)
                .map(|_| {
                    k += 1;
                    rat(k % 7 - 3, 2)
                })
                .collect();
            let shape = p.ty.as_array().map(|(_, s)| s.clone()).unwrap_or_default();
            Value::Real(Tensor { shape, data })
        })
        .collect()
}

/// Dual's and dual-scalar's Delta node counts for family `k` at size `n`.
fn counts(k: usize, n: usize) -> Result<Option<(usize, usize)>, String> {
    let f = load_text(&family(k, n), "main")?;
    let xs = family_inputs(&f);
    let Some(g) = normal_form(&f)? else {
        return Ok(None);
    };
    let dual = runtime_delta_nodes(&g, &xs, &opts())
        .map_err(|d| format!("the forward pass fails: {d}"))?;
    let Some(sc) = derivative(scalar::delta_nodes(&f, &xs, &opts()), "dual-scalar")? else {
        return Ok(None);
    };
    Ok(Some((dual, sc)))
}

fn delta_size(dims: &[usize]) -> Outcome {
    let (a, b) = (dims[0].max(2), dims[1].max(2));
    let (small, large) = (a.min(b), a.max(b));
    let mut worst: f64 = 0.0;
    for k in 0..4 {
        let (Some((d1, s1)), Some((d2, s2))) = (counts(k, small)?, counts(k, large)?) else {
            return Pass::vacuous();
        };
        if d1 != d2 {
            return fail(format!(
                "family {k}: {d1} Delta nodes at size {small} but {d2} at size {large}:\n{}",
                family(k, large)
            ));
        }
        if large > small && s2 <= s1 {
            return fail(format!("family {k}: dual-scalar's Delta does not grow ({s1} nodes at size {small}, {s2} at {large})"));
        }
        worst = worst.max(s2 as f64 / d2.max(1) as f64);
    }
    Pass::figure(worst)
}

fn build_free(case: &Case) -> Outcome {
    let f = load(case)?;
    let Some(g) = normal_form(&f)? else {
        return Pass::vacuous();
    };
    let gp = adora_core::with_stack(|| gradient_program(&g))
        .map_err(|d| format!("the gradient program fails: {d}"))?;
    for e in visit::subexprs(&gp.function.body) {
        match &e.kind {
            ExprKind::Build(..) => {
                return fail(format!(
                    "the gradient program contains a build:\n{}",
                    adora_core::pretty::function(&gp.function)
                ))
            }
            ExprKind::Var(n) if n.starts_with('#') => {
                return fail(format!("a share marker `{n}` survived"))
            }
            _ => {}
        }
    }
    adora_core::check::check_function(&gp.function)
        .map_err(|d| format!("the gradient program does not check: {d}"))?;
    let ratio =
        visit::node_count(&gp.function.body) as f64 / visit::node_count(&g.body).max(1) as f64;
    Pass::figure(ratio)
}

#[cfg(test)]
mod tests {
    use crate::catalogue::find;
    use crate::runner::{run_property_persisting, CheckConfig, Persistence};
    use adora_core::diag::{Diagnostic, ErrorKind, Span};

    /// An internal error of bot is a failure of the case, never a vacuous pass; a
    /// resource limit is vacuous.
    #[test]
    fn internal_errors_of_the_preparation_fail() {
        let internal = Diagnostic::new(
            ErrorKind::Internal,
            Span::DUMMY,
            "internal error in bot: bot stopped (Saturated) without a normal form",
        );
        let r = super::prepared(Err(internal));
        assert!(
            r.as_ref().is_err_and(|m| m.contains("error[internal]")),
            "{r:?}"
        );
        let resource = Diagnostic::new(ErrorKind::Resource, Span::DUMMY, "limit");
        assert_eq!(super::prepared(Err(resource)), Ok(None));
    }

    fn check(name: &str, cases: u32) {
        let p = find(name).unwrap_or_else(|| panic!("no property {name}"));
        let cfg = CheckConfig {
            cases,
            seed: 0xD0A1,
            filter: None,
            jobs: 1,
            size: 1,
        };
        let r = run_property_persisting(&p, &cfg, Persistence::Off);
        println!(
            "{name}: {} cases, {:.2}s, {}",
            r.cases_run,
            r.elapsed.as_secs_f64(),
            r.figure.as_deref().unwrap_or("")
        );
        assert_eq!(
            r.failures,
            0,
            "property {name} failed:\n{}",
            r.counterexample.unwrap_or_default()
        );
    }

    macro_rules! property_tests {
        ($($test:ident: $name:literal, $cases:expr;)*) => {
            $(
                #[test]
                fn $test() {
                    check($name, $cases);
                }
            )*
        };
    }

    property_tests! {
        separated_form: "dual/separated-form", 24;
        one_hot_bound: "dual/one-hot-bound", 24;
        delta_size_constant: "dual/delta-size-constant", 4;
        gradient_programs_are_build_free: "dual/grad-program-build-free", 24;
    }
}
