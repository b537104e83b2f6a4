//! One case of `adora gradbench-check`: the tool's output against our numbers
//! (docs/gradbench.md, "Checking a log").
//!
//! | our number | error of the tool's `d` | `r` |
//! |---|---|---|
//! | exact `r` | `|d - r|` | `r` |
//! | enclosure `[lo, hi]` | distance from `d` to `[lo, hi]` | the midpoint |
//!
//! A case agrees when `max_i err_i <= tol · max_i |r_i|` (norm-wise relative; an all-zero
//! answer needs an all-zero output). GradBench's own verdict,
//! `|d - r| / max(1, |d| + |r|) <= 1e-4` per number, is computed alongside.

use super::out::Out;
use crate::cli::difftest::compare::{their_f64, ulp, Num};
use adora_semantics::Rat;
use num_traits::{Signed, ToPrimitive, Zero};
use serde_json::Value as Json;

/// GradBench's own tolerance: `|d - r| / max(1, |d| + |r|) <= 1e-4` (its
/// `gradbench/comparison.py`).
pub const GRADBENCH_TOLERANCE: f64 = 1e-4;

/// The verdict on one case.
pub enum Verdict {
    /// Within the bound.
    Agree(Errors),
    /// Past the bound (why: the worst component, ours and theirs; or a wrong shape).
    Disagree(Errors, String),
    /// The tool answered no output (`success: false` or no response).
    ToolFailed,
    /// We could not compute the answer (why).
    Unchecked(String),
    /// An eval or function we do not serve.
    NotServed,
}

/// The errors of one case.
#[derive(Clone, Copy, Debug, Default)]
pub struct Errors {
    /// The largest absolute error.
    pub abs: f64,
    /// The largest absolute error over the largest magnitude of our answer.
    pub rel: f64,
    /// The largest error in ULPs of the double nearest our number (of 1 at 0).
    pub ulps: f64,
    /// Whether GradBench's own check passes the output.
    pub gradbench_passes: bool,
    /// The exact answer is all zeros: only an all-zero output agrees, and every check
    /// that compares with it (GradBench's too) is passed by a tool that prints zeros.
    pub zero_answer: bool,
}

/// Our reference value of a number and its distance to `d`.
fn reference_and_distance(o: &Num, d: &Rat) -> (Rat, Rat) {
    match o {
        Num::Ball(lo, hi) => {
            let mid = (lo + hi) / Rat::from_integer(2.into());
            let dist = if d < lo {
                lo - d
            } else if d > hi {
                d - hi
            } else {
                Rat::zero()
            };
            (mid, dist)
        }
        Num::Exact(r) => (r.clone(), (d - r).abs()),
        Num::F64(x) => {
            let r = Rat::from_float(*x).unwrap_or_else(Rat::zero);
            let dist = (d - &r).abs();
            (r, dist)
        }
        Num::Int(n) => {
            let r = Rat::from_integer((*n).into());
            let dist = (d - &r).abs();
            (r, dist)
        }
        Num::Bool(_) => (Rat::zero(), Rat::zero()),
    }
}

/// Judges the tool's output against ours (module documentation).
pub fn compare(ours: &Out<Num>, theirs: &Json, tol: f64) -> Verdict {
    let ts = match ours.theirs(theirs, "output") {
        Ok(ts) => ts,
        Err(e) => return Verdict::Disagree(Errors::default(), format!("wrong shape: {e}")),
    };
    let os = ours.numbers();
    let mut refs = Vec::with_capacity(os.len());
    let mut dists = Vec::with_capacity(os.len());
    let mut gradbench_passes = true;
    for (i, (o, t)) in os.iter().zip(&ts).enumerate() {
        let Some(d) = their_f64(t).and_then(Rat::from_float) else {
            return Verdict::Disagree(
                Errors::default(),
                format!("component {i} is {t}, not a finite number"),
            );
        };
        let (r, dist) = reference_and_distance(o, &d);
        let (df, rf) = (
            d.to_f64().unwrap_or(f64::NAN),
            r.to_f64().unwrap_or(f64::NAN),
        );
        let gb = (df - rf).abs() / (df.abs() + rf.abs()).max(1.0);
        gradbench_passes &= gb <= GRADBENCH_TOLERANCE;
        refs.push((r, d));
        dists.push(dist);
    }
    let scale = refs
        .iter()
        .map(|(r, _)| r.abs())
        .max()
        .unwrap_or_else(Rat::zero);
    let worst = dists
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.cmp(b.1))
        .map(|(i, d)| (i, d.clone()));
    let zero_answer = scale.is_zero();
    let Some((wi, worst)) = worst else {
        return Verdict::Agree(Errors {
            gradbench_passes,
            zero_answer,
            ..Errors::default()
        });
    };
    let ulps = dists
        .iter()
        .zip(&refs)
        .map(|(e, (r, _))| {
            let at = r.to_f64().unwrap_or(0.0);
            e.to_f64().unwrap_or(f64::INFINITY) / ulp(if at == 0.0 { 1.0 } else { at })
        })
        .fold(0.0f64, f64::max);
    let abs = worst.to_f64().unwrap_or(f64::INFINITY);
    let rel = if scale.is_zero() {
        if worst.is_zero() {
            0.0
        } else {
            f64::INFINITY
        }
    } else {
        (&worst / &scale).to_f64().unwrap_or(f64::INFINITY)
    };
    let errors = Errors {
        abs,
        rel,
        ulps,
        gradbench_passes,
        zero_answer,
    };
    let bound = Rat::from_float(tol).unwrap_or_else(Rat::zero) * &scale;
    if worst <= bound {
        Verdict::Agree(errors)
    } else {
        let (r, d) = &refs[wi];
        Verdict::Disagree(
            errors,
            format!(
                "component {wi}: ours {}, theirs {}; error {abs:.3e} against the largest magnitude {:.3e}",
                fmt_num(r),
                fmt_num(d),
                scale.to_f64().unwrap_or(f64::INFINITY)
            ),
        )
    }
}

fn fmt_num(r: &Rat) -> String {
    format!("{:e}", r.to_f64().unwrap_or(f64::NAN))
}
