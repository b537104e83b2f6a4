//! `adora gradbench-check LOG.jsonl`: every `evaluate` of a GradBench log (the
//! intermediary's `-o` file: `{"elapsed": …, "message": …}` and `{"elapsed": …,
//! "response": …}` lines) recomputed by our programs and compared with the tool's output
//! (docs/gradbench.md, "Checking a log").
//!
//! | eval numbers | our answer | a case agrees when |
//! |---|---|---|
//! | exact (rational program) | the exact rationals `r` | `max_i |d_i - r_i| <= tol · max_i |r_i|` |
//! | transcendental | certified enclosures `[lo, hi]` at 128 bits | the same with the distance to the enclosure and its midpoint |
//!
//! The bound is norm-wise relative (`--tolerance`, default 1e-9): a tool's rounding passes
//! at any magnitude, and a zero vector where the answer is not zero fails at any
//! magnitude, unlike GradBench's own check (absolute 1e-4 below magnitude 1), which the
//! report evaluates too. An exact answer that is all zeros needs an all-zero output. The
//! largest error in ULPs of the double nearest each `r_i` (of 1 at 0) is reported.

use super::agree::{compare, Errors, Verdict};
use super::compute::Job;
use super::evals::{self, Numbers};
use super::out::Out;
use crate::cli::difftest::compare::Num;
use crate::cli::error::CliError;
use crate::cli::inputs::plain_error;
use crate::cli::{FAILED, OK};
use adora_core::diag::ErrorKind;
use adora_rewrites::engine::harness::Mode;
use adora_rewrites::engine::Engine;
use adora_semantics::eval::EvalOptions;
use adora_semantics::scalar::Interval;
use adora_semantics::Rat;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::Path;

/// One `evaluate` of the log with the tool's response.
struct Case {
    id: Json,
    line: usize,
    module: String,
    function: String,
    input: Json,
    description: Option<String>,
    response: Option<Json>,
    /// The log's `analysis` of this evaluate: GradBench's own verdict (`valid`).
    analysis: Option<bool>,
}

/// Reads the log: the `evaluate` messages in order, each with its response.
fn read_log(path: &Path) -> Result<Vec<Case>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        plain_error(
            ErrorKind::Input,
            format!("cannot read `{}`: {e}", path.display()),
        )
    })?;
    let bad = |n: usize, what: String| {
        CliError::new(
            ErrorKind::Input,
            format!("{}:{n}: error[input]: {what}\n", path.display()),
        )
    };
    let mut cases: Vec<Case> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let j: Json = serde_json::from_str(line)
            .map_err(|e| bad(n, format!("invalid JSON at column {}: {e}", e.column())))?;
        if let Some(m) = j.get("message") {
            let kind = m.get("kind").and_then(Json::as_str);
            let id = m
                .get("id")
                .cloned()
                .ok_or_else(|| bad(n, "a message without `id`".into()))?;
            if kind == Some("analysis") {
                let of = m.get("of");
                let valid = m.get("valid").and_then(Json::as_bool);
                if let Some(c) = cases.iter_mut().rev().find(|c| Some(&c.id) == of) {
                    c.analysis = valid;
                }
                continue;
            }
            if kind != Some("evaluate") {
                continue;
            }
            let text = |k: &str| {
                m.get(k)
                    .and_then(Json::as_str)
                    .map(str::to_string)
                    .ok_or_else(|| bad(n, format!("an `evaluate` message without a string `{k}`")))
            };
            cases.push(Case {
                id,
                line: n,
                module: text("module")?,
                function: text("function")?,
                input: m
                    .get("input")
                    .cloned()
                    .ok_or_else(|| bad(n, "an `evaluate` message without `input`".into()))?,
                description: m
                    .get("description")
                    .and_then(Json::as_str)
                    .map(str::to_string),
                response: None,
                analysis: None,
            });
        } else if let Some(r) = j.get("response") {
            let id = r
                .get("id")
                .ok_or_else(|| bad(n, "a response without `id`".into()))?;
            if let Some(c) = cases
                .iter_mut()
                .rev()
                .find(|c| &c.id == id && c.response.is_none())
            {
                c.response = Some(r.clone());
            }
        } else {
            return Err(bad(
                n,
                "a line with neither `message` nor `response`".into(),
            ));
        }
    }
    Ok(cases)
}

/// `adora gradbench-check`; the exit code.
pub fn check(
    log: &Path,
    engine: &dyn Engine,
    tol: f64,
    opts: &EvalOptions,
) -> Result<u8, CliError> {
    if !(tol.is_finite() && tol >= 0.0) {
        return Err(plain_error(
            ErrorKind::Input,
            "--tolerance must be a non-negative number",
        ));
    }
    let cases = read_log(log)?;
    let mut rows: BTreeMap<(String, String), Vec<(usize, Verdict)>> = BTreeMap::new();
    for (k, c) in cases.iter().enumerate() {
        let v = judge(c, engine, tol, opts);
        rows.entry((c.module.clone(), c.function.clone()))
            .or_default()
            .push((k, v));
    }
    println!(
        "{:<18} {:>6} {:>6} {:>9} {:>11} {:>10} {:>11} {:>10} {:>10} {:>12}",
        "eval/function",
        "cases",
        "agree",
        "disagree",
        "tool failed",
        "unchecked",
        "zero answer",
        "max abs",
        "max rel",
        "max ulps"
    );
    let mut disagreements = Vec::new();
    let mut notes = Vec::new();
    for ((m, f), vs) in &rows {
        let count = |p: fn(&Verdict) -> bool| vs.iter().filter(|(_, v)| p(v)).count();
        let errs: Vec<Errors> = vs
            .iter()
            .filter_map(|(_, v)| match v {
                Verdict::Agree(e) | Verdict::Disagree(e, _) => Some(*e),
                _ => None,
            })
            .collect();
        let max = |g: fn(&Errors) -> f64| errs.iter().map(g).fold(0.0f64, f64::max);
        println!(
            "{:<18} {:>6} {:>6} {:>9} {:>11} {:>10} {:>11} {:>10.3e} {:>10.3e} {:>12.1}",
            format!("{m}/{f}"),
            vs.len(),
            count(|v| matches!(v, Verdict::Agree(_))),
            count(|v| matches!(v, Verdict::Disagree(..))),
            count(|v| matches!(v, Verdict::ToolFailed)),
            count(|v| matches!(v, Verdict::Unchecked(_) | Verdict::NotServed)),
            errs.iter().filter(|e| e.zero_answer).count(),
            max(|e| e.abs),
            max(|e| e.rel),
            max(|e| e.ulps),
        );
        for (k, v) in vs {
            let c = &cases[*k];
            let at = format!(
                "{m}/{f} id {} (line {}{})",
                c.id,
                c.line,
                c.description
                    .as_ref()
                    .map(|d| format!(", {d}"))
                    .unwrap_or_default()
            );
            match v {
                Verdict::Disagree(e, why) => disagreements.push(format!(
                    "{at}: {why}; relative error {:.3e}; GradBench's 1e-4 check {}{}",
                    e.rel,
                    if e.gradbench_passes {
                        "passes it"
                    } else {
                        "fails it too"
                    },
                    match c.analysis {
                        Some(true) => "; the log's analysis says valid",
                        Some(false) => "; the log's analysis says invalid",
                        None => "",
                    }
                )),
                Verdict::Agree(e) if e.zero_answer => notes.push(format!(
                    "{at}: the exact answer is all zeros, so any check of it (GradBench's too) passes a tool that prints zeros"
                )),
                Verdict::Unchecked(why) => notes.push(format!("{at}: not checked: {why}")),
                Verdict::NotServed => notes.push(format!(
                    "{at}: not checked: adora serves no such eval function"
                )),
                _ => {}
            }
        }
    }
    for n in &notes {
        println!("{n}");
    }
    for d in &disagreements {
        println!("disagree: {d}");
    }
    println!(
        "agreement: max_i |d_i - r_i| <= {tol:e} * max_i |r_i| (exact r for rational evals, certified enclosures for the others)"
    );
    Ok(if disagreements.is_empty() { OK } else { FAILED })
}

fn judge(c: &Case, engine: &dyn Engine, tol: f64, opts: &EvalOptions) -> Verdict {
    let Some(eval) = evals::find(&c.module) else {
        return Verdict::NotServed;
    };
    let Some(f) = eval.function(&c.function) else {
        return Verdict::NotServed;
    };
    let output = match &c.response {
        Some(r) if r.get("success").and_then(Json::as_bool) == Some(true) => {
            match r.get("output") {
                Some(o) => o,
                None => return Verdict::ToolFailed,
            }
        }
        _ => return Verdict::ToolFailed,
    };
    let job = match Job::prepare(eval, f, &c.input, engine) {
        Ok(j) => j,
        Err(e) => return Verdict::Unchecked(first_line(&e)),
    };
    let ours = match eval.numbers {
        Numbers::Exact => ours::<Rat>(&job, opts, |r| Num::Exact(r.clone())),
        Numbers::Transcendental => ours::<Interval>(&job, opts, Num::ball),
    };
    match ours {
        Ok(ours) => compare(&ours, output, tol),
        Err(e) => Verdict::Unchecked(first_line(&e)),
    }
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}

fn ours<S: Mode>(job: &Job, opts: &EvalOptions, num: fn(&S) -> Num) -> Result<Out<Num>, String> {
    let xs = job.inputs::<S>()?;
    let out = job.run::<S>(&xs, opts)?;
    Ok(map_out(&out, num))
}

fn map_out<S, T>(o: &Out<S>, f: fn(&S) -> T) -> Out<T> {
    match o {
        Out::Num(x) => Out::Num(f(x)),
        Out::List(xs) => Out::List(xs.iter().map(|x| map_out(x, f)).collect()),
        Out::Fields(fs) => Out::Fields(fs.iter().map(|(k, x)| (*k, map_out(x, f))).collect()),
    }
}
