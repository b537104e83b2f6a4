//! Comparing the other system's floats with our numbers: exact rationals, certified
//! enclosures or (where no enclosure can be had) our f64 answers, with the error in ULPs
//! (docs/oracle.md, "Differential testing").

use crate::cli::inputs::{self, render};
use crate::export::{probe_cotangent, probe_tangent};
use adora_core::types::{Base, Type};
use adora_rewrites::engine::{self, harness};
use adora_semantics::eval::EvalOptions;
use adora_semantics::scalar::Interval;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use num_traits::{Signed, ToPrimitive};
use serde_json::Value as Json;

/// The relative bound of an agreement: `|d - r| <= BOUND * max(1, |r|)`.
pub const BOUND: f64 = 1e-9;

/// The precision of the enclosures the float answers are compared against.
pub const ENCLOSURE_BITS: usize = 128;

/// Our numbers of each compared output: `(what, ours, theirs, conditions)`, the last the
/// condition number of each of our numbers where one is known ([`conditions`]: the
/// value's reals), else empty.
pub type Ours<'t> = Vec<(String, Vec<Num>, &'t Json, Vec<Option<f64>>)>;

/// Our value (the reference semantics) and, where the other side gave them, our gradient,
/// JVP along the probing tangent and VJP of the probing cotangent (the reference engine;
/// `crate::export::probe_tangent`, `probe_cotangent`), against the other side's JSON.
pub fn ours_all<'t, S: harness::Mode>(
    l: &inputs::Loaded,
    xs: &[Value<S>],
    opts: &EvalOptions,
    reference: &dyn engine::Engine,
    theirs: &'t Json,
    num: fn(&S) -> Num,
) -> Result<Ours<'t>, String> {
    let (v, _) = adora_semantics::eval::eval(&l.func, xs, opts).map_err(|d| render(l, &d).text)?;
    let kappa = super::condition::conditions(l, xs, opts).unwrap_or_default();
    // The input reals of each parameter, numbered as the gradient's and VJP's conditions.
    let mut firsts = Vec::new();
    let mut next = 0usize;
    for x in xs {
        firsts.push(next);
        next += x.real_scalars().len();
    }
    let per_param = |c: &[f64], k: usize| -> Vec<f64> {
        let len = xs[k].real_scalars().len();
        c.get(firsts[k]..firsts[k] + len)
            .map(<[f64]>::to_vec)
            .unwrap_or_default()
    };
    let ours = nums(&v, num);
    let conds = align(&ours, &kappa.value);
    let mut out = vec![("value".to_string(), ours, &theirs["value"], conds)];
    if let Some(g) = theirs.get("gradient") {
        let ours =
            harness::gradient(reference, &l.func, xs, opts).map_err(|d| render(l, &d).text)?;
        for (k, (p, gi)) in l.func.params.iter().zip(&ours.grads).enumerate() {
            if let Some(gi) = gi {
                let ns = nums(gi, num);
                let conds = align(&ns, &per_param(&kappa.gradient, k));
                out.push((format!("gradient {}", p.name), ns, &g[&p.name], conds));
            }
        }
    }
    if theirs.get("jvp").is_some() || theirs.get("vjp").is_some() {
        let bad = |d: adora_core::diag::Diagnostic| render(l, &d).text;
        let mut k = 0usize;
        let tangents: Vec<Option<Value<S>>> = xs
            .iter()
            .map(|x| {
                (!x.real_scalars().is_empty()).then(|| {
                    x.map_reals(&mut |_| {
                        k += 1;
                        <S as adora_semantics::scalar::Scalar>::from_rational(&probe_tangent(k - 1))
                    })
                })
            })
            .collect();
        if let Some(t) = theirs.get("jvp") {
            let (_, ours) = harness::jvp(reference, &l.func, xs, &tangents, opts).map_err(bad)?;
            let ns = nums(&ours, num);
            let conds = align(&ns, &kappa.jvp);
            out.push(("jvp".to_string(), ns, t, conds));
        }
        if let (Some(t), Type::Array(Base::R, shape)) = (theirs.get("vjp"), &l.func.ret) {
            let n: usize = shape.iter().product();
            let data = (0..n)
                .map(|k| <S as adora_semantics::scalar::Scalar>::from_rational(&probe_cotangent(k)))
                .collect();
            let ct = Value::reals(shape.clone(), data)
                .ok_or_else(|| "the probing cotangent does not fit the result".to_string())?;
            let ours = harness::vjp(reference, &l.func, xs, &ct, opts).map_err(bad)?;
            for (k, (p, gi)) in l.func.params.iter().zip(&ours.grads).enumerate() {
                if let Some(gi) = gi {
                    let ns = nums(gi, num);
                    let conds = align(&ns, &per_param(&kappa.vjp, k));
                    out.push((format!("vjp {}", p.name), ns, &t[&p.name], conds));
                }
            }
        }
    }
    Ok(out)
}

/// Condition numbers `c` (one per real) placed beside our numbers `ns` (`None` beside an
/// integer or boolean); all `None` when the counts do not match (not known).
fn align(ns: &[Num], c: &[f64]) -> Vec<Option<f64>> {
    let reals = ns
        .iter()
        .filter(|n| matches!(n, Num::Exact(_) | Num::F64(_) | Num::Ball(..)))
        .count();
    if reals != c.len() {
        return vec![None; ns.len()];
    }
    let mut it = c.iter().copied();
    ns.iter()
        .map(|n| match n {
            Num::Exact(_) | Num::F64(_) | Num::Ball(..) => it.next(),
            Num::Int(_) | Num::Bool(_) => None,
        })
        .collect()
}

/// One of our numbers.
#[derive(Debug)]
pub enum Num {
    /// An exact real.
    Exact(Rat),
    /// An f64 real.
    F64(f64),
    /// A certified enclosure `[lo, hi]` of a real.
    Ball(Rat, Rat),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

impl Num {
    /// An exact number.
    pub fn exact(r: &Rat) -> Num {
        Num::Exact(r.clone())
    }
    /// An enclosure.
    pub fn ball(x: &Interval) -> Num {
        Num::Ball(x.lo(), x.hi())
    }
    /// The number for a report.
    pub fn show(&self) -> String {
        match self {
            Num::Exact(r) => format!("{r} (≈ {})", r.to_f64().unwrap_or(f64::NAN)),
            Num::F64(x) => format!("{x:?}"),
            Num::Ball(lo, hi) => format!(
                "[{}, {}]",
                lo.to_f64().unwrap_or(f64::NAN),
                hi.to_f64().unwrap_or(f64::NAN)
            ),
            Num::Int(n) => n.to_string(),
            Num::Bool(b) => b.to_string(),
        }
    }
}

fn nums<S>(v: &Value<S>, num: fn(&S) -> Num) -> Vec<Num> {
    match v {
        Value::Real(t) => t.data.iter().map(num).collect(),
        Value::Int(t) => t.data.iter().map(|n| Num::Int(*n)).collect(),
        Value::Bool(t) => t.data.iter().map(|b| Num::Bool(*b)).collect(),
        Value::Tuple(vs) => vs.iter().flat_map(|v| nums(v, num)).collect(),
    }
}

/// The numbers of a nested JSON array, row-major.
pub fn flatten(j: &Json) -> Vec<Json> {
    match j {
        Json::Array(xs) => xs.iter().flat_map(flatten).collect(),
        other => vec![other.clone()],
    }
}

/// The other side's number: a JSON number or `"inf"`, `"-inf"`, `"nan"`.
pub fn their_f64(t: &Json) -> Option<f64> {
    match t {
        Json::Number(n) => n.as_f64(),
        Json::String(s) => match s.as_str() {
            "inf" => Some(f64::INFINITY),
            "-inf" => Some(f64::NEG_INFINITY),
            "nan" => Some(f64::NAN),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `t` agrees with `o`: `Some(error in ULPs)` (0 for non-exact numbers) or `None`.
pub fn agree(o: &Num, t: &Json) -> Option<f64> {
    match o {
        Num::Int(n) => (t.as_i64() == Some(*n)).then_some(0.0),
        Num::Bool(b) => (t.as_bool() == Some(*b)).then_some(0.0),
        Num::F64(x) => {
            let d = their_f64(t)?;
            let ok = (x.is_nan() && d.is_nan())
                || (x.is_infinite() && d == *x)
                || (x.is_finite() && d.is_finite() && (d - x).abs() <= BOUND * x.abs().max(1.0));
            ok.then_some(0.0)
        }
        Num::Ball(lo, hi) => {
            let d = their_f64(t)?;
            let dr = Rat::from_float(d)?;
            let dist = if dr < *lo {
                lo - &dr
            } else if dr > *hi {
                &dr - hi
            } else {
                Rat::from_integer(0.into())
            };
            let mid = (lo + hi) / Rat::from_integer(2.into());
            within(&dist, &mid)
        }
        Num::Exact(r) => {
            let d = their_f64(t)?;
            let dr = Rat::from_float(d)?;
            within(&(&dr - r).abs(), r)
        }
    }
}

/// An error `err >= 0` against the real `r`: `None` past `BOUND * max(1, |r|)`, else the
/// error in ULPs of the double nearest `r` — at `r = 0` in ULPs of 1 (`2^-52`), since no
/// nonzero double is a finite number of ULPs of 0 away from it.
fn within(err: &Rat, r: &Rat) -> Option<f64> {
    let scale = r.abs().to_f64().unwrap_or(f64::INFINITY).max(1.0);
    let err_f = err.to_f64().unwrap_or(f64::INFINITY);
    if err_f > BOUND * scale {
        return None;
    }
    let at = r.to_f64().unwrap_or(0.0);
    Some(err_f / ulp(if at == 0.0 { 1.0 } else { at }))
}

/// The gap between `x` and the next double away from zero (the smallest subnormal at 0).
pub fn ulp(x: f64) -> f64 {
    let a = x.abs();
    if a == 0.0 || !a.is_finite() {
        return f64::from_bits(1);
    }
    f64::from_bits(a.to_bits() + 1) - a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rat(x: f64) -> Rat {
        Rat::from_float(x).unwrap()
    }

    #[test]
    fn a_float_inside_the_enclosure_is_zero_ulps_off() {
        let b = Num::Ball(rat(1.0), rat(2.0));
        assert_eq!(agree(&b, &serde_json::json!(1.5)), Some(0.0));
        assert_eq!(agree(&b, &serde_json::json!(2.0)), Some(0.0));
    }

    #[test]
    fn a_float_outside_the_enclosure_is_counted_in_ulps_of_the_midpoint() {
        let x = 1.5f64;
        let b = Num::Ball(rat(x), rat(x));
        let two_up = f64::from_bits(x.to_bits() + 2);
        assert_eq!(agree(&b, &serde_json::json!(two_up)), Some(2.0));
        let two_down = f64::from_bits(x.to_bits() - 2);
        assert_eq!(agree(&b, &serde_json::json!(two_down)), Some(2.0));
    }

    #[test]
    fn an_error_next_to_an_exact_zero_is_counted_in_ulps_of_one() {
        let zero = Num::Exact(Rat::from_integer(0.into()));
        let eps = f64::EPSILON;
        assert_eq!(agree(&zero, &serde_json::json!(3.0 * eps)), Some(3.0));
        assert_eq!(agree(&zero, &serde_json::json!(0.0)), Some(0.0));
    }

    #[test]
    fn a_float_past_the_bound_disagrees_with_the_enclosure() {
        let b = Num::Ball(rat(1.0), rat(1.0 + 1e-12));
        assert_eq!(agree(&b, &serde_json::json!(1.0 + 1e-6)), None);
        assert_eq!(agree(&b, &serde_json::json!("nan")), None);
    }
}
