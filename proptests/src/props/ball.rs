//! Properties of certified enclosures (`--numeric ball`, docs/oracle.md, "Certified
//! enclosures"): they contain the exact value, they contain the f64 result where f64 is
//! exact, they shrink (by inclusion) as the precision grows, and every engine's gradient
//! enclosure overlaps the reference's.

use super::util::{exact, fail, load, opts, Eval};
use crate::catalogue::{Check, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, RetKind};
use crate::values::Rat;
use adora_core::diag::{Diagnostic, ErrorKind};
use adora_core::Function;
use adora_rewrites::engine::{self, harness};
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::reference::{gradient, Gradient};
use adora_semantics::scalar::interval::PrecisionScope;
use adora_semantics::scalar::Interval;
use adora_semantics::value::Value;

/// The properties of certified enclosures.
pub fn properties() -> Vec<Property> {
    vec![
        Property {
            name: "ball/contains-exact",
            source: "docs/oracle.md, \"Certified enclosures\" (issue 17: enclosures contain the exact value)",
            fragment: "all",
            description: "on random rational programs, every real of the ball evaluation at 128 bits contains \
                          the exact rational result, and the integer and boolean parts are equal; an \
                          undecidable comparison or divisor (error[runtime]) makes the case vacuous",
            figure: None,
            check: Check::Case { strategy: || CaseStrategy::all_fragments(32, RetKind::Any), check: contains_exact },
        },
        Property {
            name: "ball/contains-f64",
            source: "docs/oracle.md, \"Certified enclosures\" (issue 17: enclosures contain the f64 result)",
            fragment: "all",
            description: "on f64-exact programs (dyadic literals and inputs, division by 2, 4 or 0.5 only) whose \
                          exact intermediates all fit in 53 bits, f64 computes without rounding, so its result \
                          must lie inside the 128-bit enclosure with no widening (the provable form: an f64 \
                          result that rounded has no bound relative to the enclosure without an error analysis \
                          of the program)",
            figure: None,
            check: Check::Case {
                strategy: || CaseStrategy::all_fragments(32, RetKind::Any).f64_exact(),
                check: contains_f64,
            },
        },
        Property {
            name: "ball/width-shrinks",
            source: "docs/oracle.md, \"Certified enclosures\" (inclusion isotonicity of outward-rounded interval arithmetic)",
            fragment: "all",
            description: "every real of the 256-bit enclosure lies inside the 128-bit enclosure, and whatever \
                          128 bits decide 256 bits decide too (outward rounding at a finer precision stays \
                          inside the coarser bounds, operation by operation)",
            figure: None,
            check: Check::Case { strategy: || CaseStrategy::all_fragments(32, RetKind::Any), check: width_shrinks },
        },
        Property {
            name: "ball/engines-overlap-reference",
            source: "docs/oracle.md, \"Certified enclosures\" (issue 17: engines agree when enclosures overlap)",
            fragment: "all",
            description: "for every engine under test that answers, each component of its 128-bit gradient \
                          enclosure overlaps the reference's (the exact gradient lies in both); engines that \
                          refuse the program and undecidable cases are skipped",
            figure: None,
            check: Check::Case {
                strategy: || CaseStrategy::all_fragments(24, RetKind::RealScalar),
                check: engines_overlap,
            },
        },
    ]
}

/// The inputs as (point or tight) enclosures at the current precision.
fn enclose(inputs: &[Value<Rat>]) -> Vec<Value<Interval>> {
    inputs
        .iter()
        .map(|v| v.map_reals(&mut |r: &Rat| Interval::of_rational(r, precision())))
        .collect()
}

fn precision() -> usize {
    adora_semantics::scalar::interval::precision()
}

/// Whether an error of a ball evaluation is an undecided operation or a documented limit
/// (the case is then vacuous).
fn excused(d: &Diagnostic) -> bool {
    matches!(d.kind, ErrorKind::Runtime | ErrorKind::Resource)
}

/// The ball evaluation at `bits` bits: `Ok(None)` when excused.
fn ball(
    f: &Function,
    inputs: &[Value<Rat>],
    bits: usize,
) -> Result<Option<Value<Interval>>, String> {
    let _p = PrecisionScope::new(bits);
    match eval(f, &enclose(inputs), &opts()) {
        Ok((v, _)) => Ok(Some(v)),
        Err(d) if excused(&d) => Ok(None),
        Err(d) => Err(format!("ball evaluation fails: {d}")),
    }
}

/// Same structure and equal integer and boolean parts, and `ok` for each pair of reals.
fn pairwise<A, B>(a: &Value<A>, b: &Value<B>, ok: &mut impl FnMut(&A, &B) -> bool) -> bool {
    match (a, b) {
        (Value::Real(x), Value::Real(y)) => {
            x.shape == y.shape && x.data.iter().zip(&y.data).all(|(p, q)| ok(p, q))
        }
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Tuple(xs), Value::Tuple(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| pairwise(x, y, ok))
        }
        _ => false,
    }
}

fn contains_exact(case: &Case) -> Outcome {
    let f = load(case)?;
    let Eval::Value(v, _) = exact(&f, &case.inputs)? else {
        return Pass::vacuous();
    };
    let Some(w) = ball(&f, &case.inputs, 128)? else {
        return Pass::vacuous();
    };
    if pairwise(&v, &w, &mut |r: &Rat, e: &Interval| e.contains(r)) {
        Pass::ok()
    } else {
        fail(format!("exact {v:?} is not inside the enclosure {w:?}"))
    }
}

fn contains_f64(case: &Case) -> Outcome {
    let f = load(case)?;
    let limited = EvalOptions {
        max_rational_bits: 53,
        ..opts()
    };
    // f64 is exact only when every exact intermediate fits in 53 bits.
    if eval(&f, &case.inputs, &limited).is_err() {
        return Pass::vacuous();
    }
    let Eval::Value(x, _) = super::util::float(&f, &case.inputs)? else {
        return Pass::vacuous();
    };
    let Some(w) = ball(&f, &case.inputs, 128)? else {
        return Pass::vacuous();
    };
    let inside = |d: &f64, e: &Interval| Rat::from_float(*d).is_some_and(|r| e.contains(&r));
    if pairwise(&x, &w, &mut |d: &f64, e: &Interval| inside(d, e)) {
        Pass::ok()
    } else {
        fail(format!("f64 {x:?} is not inside the enclosure {w:?}"))
    }
}

fn width_shrinks(case: &Case) -> Outcome {
    let f = load(case)?;
    let Some(coarse) = ball(&f, &case.inputs, 128)? else {
        return Pass::vacuous();
    };
    let Some(fine) = ball(&f, &case.inputs, 256)? else {
        return fail("128 bits decide the program but 256 bits do not");
    };
    if pairwise(&fine, &coarse, &mut |a: &Interval, b: &Interval| {
        a.is_subset_of(b)
    }) {
        Pass::ok()
    } else {
        fail(format!(
            "256 bits {fine:?} is not inside 128 bits {coarse:?}"
        ))
    }
}

fn engines_overlap(case: &Case) -> Outcome {
    let f = load(case)?;
    let _p = PrecisionScope::new(128);
    let xs = enclose(&case.inputs);
    let want: Gradient<Interval> = match gradient(&f, &xs, &opts()) {
        Ok(g) => g,
        Err(d) if excused(&d) => return Pass::vacuous(),
        Err(d) => return fail(format!("reference gradient fails: {d}")),
    };
    let mut answered = false;
    for e in engine::under_test() {
        let got = match harness::gradient(e.as_ref(), &f, &xs, &opts()) {
            Ok(g) => g,
            Err(d) if excused(&d) || d.kind == ErrorKind::Unsupported => continue,
            Err(d) => return fail(format!("engine {} fails: {d}", e.name())),
        };
        answered = true;
        let overlap = |a: &Interval, b: &Interval| a.overlaps(b);
        let same = pairwise(&got.value, &want.value, &mut |a, b| overlap(a, b))
            && got.grads.len() == want.grads.len()
            && got
                .grads
                .iter()
                .zip(&want.grads)
                .all(|(g, w)| match (g, w) {
                    (Some(g), Some(w)) => pairwise(g, w, &mut |a, b| overlap(a, b)),
                    (None, None) => true,
                    _ => false,
                });
        if !same {
            return fail(format!(
                "engine {}: {:?} does not overlap the reference {:?}",
                e.name(),
                got.grads,
                want.grads
            ));
        }
    }
    if answered {
        Pass::ok()
    } else {
        Pass::vacuous()
    }
}
