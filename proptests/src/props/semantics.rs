//! Properties of the evaluators and the reference derivative (exact forward mode by dual
//! numbers, docs/architecture.md).

use super::util::{
    aux_rng, exact, fail, float, load, opts, random_rat, random_tangents, random_value,
    show_tangents, Eval,
};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, RetKind};
use crate::values::{dot, lin_comb, literal, max_rel_err, reals, with_reals, Rat};
use adora_core::diag::ErrorKind;
use adora_core::types::Type;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::reference::{gradient, jvp, vjp};
use adora_semantics::value::Value;
use num_traits::Zero;

/// Relative tolerance of `sem/exact-f64-agree` (with an absolute floor: errors are
/// divided by `max(|exact|, 1)`).
pub const F64_TOLERANCE: f64 = 1e-9;

/// At most this many basis directions per case in `sem/grad-equals-basis-jvps` (chosen at
/// random among all real input scalars when there are more).
pub const MAX_BASIS_JVPS: usize = 24;

/// The semantics properties.
pub fn properties() -> Vec<Property> {
    vec![
        Property {
            name: "sem/exact-f64-agree",
            source: "engine invariant (docs/architecture.md: one evaluator, generic over the scalar field)",
            fragment: "all",
            description: "exact and f64 evaluation agree within relative tolerance 1e-9 with an absolute floor \
                          (|exact - f64| <= 1e-9 * max(|exact|, 1)) and have equal integer/boolean parts, on \
                          f64-exact programs: dyadic literals and inputs, reals divided only by 2, 4 or 0.5, \
                          non-negative powers. Division by a runtime value is excluded because f64 is IEEE \
                          (x/0 = inf) while exact division is total (x/0 = 0), and because comparisons and \
                          floor of rounded values near a tie are discontinuous. A disagreement is excused \
                          (the case counts as vacuous) only when an exact intermediate needs more than 53 \
                          bits (re-evaluation with max_rational_bits = 53 hits its limit): below that, f64 \
                          computes these programs exactly",
            figure: Some(Figure { label: "max rel err", agg: Agg::Max }),
            check: Check::Case { strategy: || CaseStrategy::all_fragments(40, RetKind::Any).f64_exact(), check: f64_agree },
        },
        Property {
            name: "sem/jvp-linear",
            source: "seed 002 §3 (the JVP is linear in the tangent); docs/architecture.md",
            fragment: "all",
            description: "the reference JVP is exactly linear in the tangent: jvp(a*t1 + b*t2) = a*jvp(t1) + \
                          b*jvp(t2) for random rational a, b and random tangents (the figure: the fraction \
                          of cases where jvp(a*t1 + b*t2) is not zero)",
            figure: Some(Figure { label: "non-zero jvp (fraction)", agg: Agg::Mean }),
            check: Check::Case { strategy: || CaseStrategy::all_fragments(32, RetKind::Any), check: jvp_linear },
        },
        Property {
            name: "sem/grad-equals-basis-jvps",
            source: "docs/architecture.md (gradient = transpose of the Jacobian; seed 002 §2)",
            fragment: "all",
            description: "the reference gradient of a real-scalar program equals, component by component, the \
                          JVPs along the basis vectors of the real inputs, exactly (at most 24 random basis \
                          directions per case), and its value equals exact evaluation (the figure: the \
                          fraction of cases with a non-zero gradient)",
            figure: Some(Figure { label: "non-zero gradient (fraction)", agg: Agg::Mean }),
            check: Check::Case { strategy: || CaseStrategy::all_fragments(32, RetKind::RealScalar), check: grad_basis },
        },
        Property {
            name: "sem/adjoint-law",
            source: "seed 002 §7 (transposition), seed 001 §6: <ct, J t> = <J^T ct, t>",
            fragment: "all",
            description: "for random tangents t and output cotangents ct, <ct, jvp(t)> = <vjp(ct), t> exactly, on \
                          programs with scalar, array and tuple results (the figure: the fraction of cases \
                          where both sides are not zero)",
            figure: Some(Figure { label: "non-zero <ct, J t> (fraction)", agg: Agg::Mean }),
            check: Check::Case { strategy: || CaseStrategy::all_fragments(32, RetKind::Real), check: adjoint },
        },
        Property {
            name: "sem/total-no-panic",
            source: "engine invariant (docs/language.md: total conventions; never panic)",
            fragment: "all",
            description: "exact and f64 evaluation, the reference JVP and (for real-scalar results) the gradient \
                          of generated programs never panic and never fail except by documented resource \
                          limits (non-strict mode)",
            figure: Some(Figure { label: "cases hitting a resource limit (fraction)", agg: Agg::Mean }),
            check: Check::Case { strategy: || CaseStrategy::all_fragments(40, RetKind::Any), check: total },
        },
        Property {
            name: "sem/deterministic",
            source: "engine invariant",
            fragment: "all",
            description: "the same program and inputs give identical values and statistics on two runs (exact, \
                          f64 bit for bit, and the reference JVP)",
            figure: None,
            check: Check::Case { strategy: || CaseStrategy::all_fragments(40, RetKind::Any), check: deterministic },
        },
    ]
}

/// Runs a reference-derivative call; resource limits give `Ok(None)`.
fn derivative<T>(r: adora_core::Result<T>, what: &str) -> Result<Option<T>, String> {
    match r {
        Ok(x) => Ok(Some(x)),
        Err(d) if d.kind == ErrorKind::Resource => Ok(None),
        Err(d) => Err(format!("{what} fails: {d}")),
    }
}

fn has_real_input(case: &Case) -> bool {
    case.inputs.iter().any(|x| !reals(x).is_empty())
}

fn f64_agree(case: &Case) -> Outcome {
    let f = load(case)?;
    let Eval::Value(v, _) = exact(&f, &case.inputs)? else {
        return Pass::vacuous();
    };
    let Eval::Value(w, _) = float(&f, &case.inputs)? else {
        return Pass::vacuous();
    };
    let verdict = match max_rel_err(&v, &w) {
        Ok(err) if err <= F64_TOLERANCE => return Pass::figure(err),
        Ok(err) => format!("relative error {err:e}"),
        Err(e) => e,
    };
    // A disagreement is explained when some exact intermediate needs more than 53 bits
    // (f64 then rounds, and may overflow or flip a comparison): rerun exactly with that
    // limit, which then stops with a resource error.
    let limited = EvalOptions {
        max_rational_bits: 53,
        ..opts()
    };
    match eval(&f, &case.inputs, &limited) {
        Err(d) if d.kind == ErrorKind::Resource => Pass::vacuous(),
        _ => fail(format!(
            "exact {} vs f64 {:?}: {verdict} (all exact intermediates fit in 53 bits)",
            literal(&v),
            w
        )),
    }
}

fn jvp_linear(case: &Case) -> Outcome {
    if !has_real_input(case) {
        return Pass::vacuous();
    }
    let f = load(case)?;
    let mut rng = aux_rng(case, 1);
    let t1 = random_tangents(&case.inputs, &mut rng);
    let t2 = random_tangents(&case.inputs, &mut rng);
    let (a, b) = (random_rat(&mut rng), random_rat(&mut rng));
    let t3: Vec<Option<Value<Rat>>> = t1
        .iter()
        .zip(&t2)
        .map(|(x, y)| match (x, y) {
            (Some(x), Some(y)) => Some(lin_comb(&a, x, &b, y)),
            _ => None,
        })
        .collect();
    let run = |t: &[Option<Value<Rat>>]| derivative(jvp(&f, &case.inputs, t, &opts()), "jvp");
    let (Some((_, j1)), Some((_, j2)), Some((_, j3))) = (run(&t1)?, run(&t2)?, run(&t3)?) else {
        return Pass::vacuous();
    };
    let expect = lin_comb(&a, &j1, &b, &j2);
    if j3 != expect {
        return fail(format!(
            "a = {a}, b = {b}\nt1 = {}\nt2 = {}\njvp(t1) = {}\njvp(t2) = {}\njvp(a*t1 + b*t2) = {}\nexpected {}",
            show_tangents(&t1),
            show_tangents(&t2),
            literal(&j1),
            literal(&j2),
            literal(&j3),
            literal(&expect)
        ));
    }
    Pass::figure(if reals(&j3).iter().any(|x| !x.is_zero()) {
        1.0
    } else {
        0.0
    })
}

fn grad_basis(case: &Case) -> Outcome {
    if !has_real_input(case) {
        return Pass::vacuous();
    }
    let f = load(case)?;
    let Some(g) = derivative(gradient(&f, &case.inputs, &opts()), "gradient")? else {
        return Pass::vacuous();
    };
    if let Eval::Value(v, _) = exact(&f, &case.inputs)? {
        if v != g.value {
            return fail(format!(
                "gradient's value {} differs from evaluation {}",
                literal(&g.value),
                literal(&v)
            ));
        }
    }
    if g.grads.len() != case.inputs.len() {
        return fail(format!(
            "{} gradients for {} inputs",
            g.grads.len(),
            case.inputs.len()
        ));
    }
    // All (input, component) directions; at most MAX_BASIS_JVPS of them, chosen at random.
    let mut dirs: Vec<(usize, usize)> = Vec::new();
    for (p, x) in case.inputs.iter().enumerate() {
        let n = reals(x).len();
        match (&g.grads[p], n) {
            (None, 0) => {}
            (Some(gp), n) if reals(gp).len() == n && n > 0 => dirs.extend((0..n).map(|k| (p, k))),
            (other, _) => {
                return fail(format!(
                    "gradient of input {p} is {:?}, the input has {n} reals",
                    other.as_ref().map(literal)
                ))
            }
        }
    }
    let nonzero = g
        .grads
        .iter()
        .flatten()
        .any(|v| reals(v).iter().any(|x| !x.is_zero()));
    let mut rng = aux_rng(case, 2);
    while dirs.len() > MAX_BASIS_JVPS {
        let k = rand::Rng::gen_range(&mut rng, 0..dirs.len());
        dirs.swap_remove(k);
    }
    for (p, k) in dirs {
        let x = &case.inputs[p];
        let mut e = vec![Rat::zero(); reals(x).len()];
        e[k] = Rat::from_integer(1.into());
        let mut ts: Vec<Option<Value<Rat>>> = vec![None; case.inputs.len()];
        ts[p] = Some(with_reals(x, &e));
        let Some((_, t)) = derivative(jvp(&f, &case.inputs, &ts, &opts()), "jvp")? else {
            return Pass::vacuous();
        };
        let got = reals(&t);
        let want = reals(g.grads[p].as_ref().expect("checked above"))[k].clone();
        if got.len() != 1 || got[0] != want {
            return fail(format!(
                "input {} component {k}: gradient {} but jvp along the basis vector gives {}",
                case.main().params[p].name,
                want,
                literal(&t)
            ));
        }
    }
    Pass::figure(if nonzero { 1.0 } else { 0.0 })
}

fn adjoint(case: &Case) -> Outcome {
    let ret = case.main().ret.clone();
    if !has_real_input(case) || !ret.has_reals() {
        return Pass::vacuous();
    }
    let f = load(case)?;
    let mut rng = aux_rng(case, 3);
    let t = random_tangents(&case.inputs, &mut rng);
    let ct = random_value(&ret, &mut rng);
    let Some((_, jt)) = derivative(jvp(&f, &case.inputs, &t, &opts()), "jvp")? else {
        return Pass::vacuous();
    };
    let Some(g) = derivative(vjp(&f, &case.inputs, &ct, &opts()), "vjp")? else {
        return Pass::vacuous();
    };
    let lhs = dot(&ct, &jt);
    let mut rhs = Rat::zero();
    for (gp, tp) in g.grads.iter().zip(&t) {
        if let (Some(gp), Some(tp)) = (gp, tp) {
            rhs += dot(gp, tp);
        }
    }
    if lhs != rhs {
        let grads: Vec<String> = g
            .grads
            .iter()
            .map(|x| x.as_ref().map(literal).unwrap_or_else(|| "-".into()))
            .collect();
        return fail(format!(
            "<ct, J t> = {lhs} but <vjp(ct), t> = {rhs}\nt = {}\nct = {}\nJ t = {}\nvjp(ct) = {}",
            show_tangents(&t),
            literal(&ct),
            literal(&jt),
            grads.join(", ")
        ));
    }
    Pass::figure(if lhs.is_zero() { 0.0 } else { 1.0 })
}

fn total(case: &Case) -> Outcome {
    let f = load(case)?;
    let mut limited = matches!(exact(&f, &case.inputs)?, Eval::Resource(_));
    limited |= matches!(float(&f, &case.inputs)?, Eval::Resource(_));
    let mut rng = aux_rng(case, 4);
    let t = random_tangents(&case.inputs, &mut rng);
    limited |= derivative(jvp(&f, &case.inputs, &t, &opts()), "jvp")?.is_none();
    if f.ret == Type::real() {
        limited |= derivative(gradient(&f, &case.inputs, &opts()), "gradient")?.is_none();
    }
    Pass::figure(if limited { 1.0 } else { 0.0 })
}

fn bits(v: &Value<f64>) -> Vec<u64> {
    reals(v).iter().map(|x| x.to_bits()).collect()
}

fn deterministic(case: &Case) -> Outcome {
    let f = load(case)?;
    match (exact(&f, &case.inputs)?, exact(&f, &case.inputs)?) {
        (Eval::Value(v1, s1), Eval::Value(v2, s2)) => {
            if v1 != v2 || s1 != s2 {
                return fail(format!(
                    "two exact runs differ: {} {s1:?} vs {} {s2:?}",
                    literal(&v1),
                    literal(&v2)
                ));
            }
        }
        (Eval::Resource(_), Eval::Resource(_)) => {}
        _ => return fail("one exact run hit a resource limit and the other did not"),
    }
    match (float(&f, &case.inputs)?, float(&f, &case.inputs)?) {
        (Eval::Value(v1, s1), Eval::Value(v2, s2)) => {
            let zero = |v: &Value<f64>| with_reals::<f64, f64>(v, &vec![0.0; reals(v).len()]);
            if bits(&v1) != bits(&v2) || zero(&v1) != zero(&v2) || s1 != s2 {
                return fail(format!(
                    "two f64 runs differ: {v1:?} {s1:?} vs {v2:?} {s2:?}"
                ));
            }
        }
        (Eval::Resource(_), Eval::Resource(_)) => {}
        _ => return fail("one f64 run hit a resource limit and the other did not"),
    }
    let mut rng = aux_rng(case, 5);
    let t = random_tangents(&case.inputs, &mut rng);
    let j1 = derivative(jvp(&f, &case.inputs, &t, &opts()), "jvp")?;
    let j2 = derivative(jvp(&f, &case.inputs, &t, &opts()), "jvp")?;
    if j1 != j2 {
        return fail("two runs of the reference jvp differ");
    }
    Pass::ok()
}
