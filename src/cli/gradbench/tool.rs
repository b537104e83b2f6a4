//! `adora gradbench`: the tool side of GradBench's protocol (GradBench's CONTRIBUTING.md,
//! "Protocol"; docs/gradbench.md), one JSON object per line on standard input and
//! output.
//!
//! | message | response |
//! |---|---|
//! | `start` | `id`, `tool: "adora"`, `config` (engine, numbers, version) |
//! | `define` | `success: true` for an eval served, else `false` and an `error` |
//! | `evaluate` | `success`, `output` in the eval's shape, `timings`: one `prepare` (loading, deriving), one `evaluate` per run, in nanoseconds; `false` and an `error` when the input cannot be served |
//! | `analysis`, any other kind | `id` |
//!
//! A run repeats until it has run `min_runs` times (default 1) and for `min_seconds`
//! (default 0), the protocol's `Runs`. A line that is not a JSON object with an `id` and
//! a `kind`, or an `evaluate` without `module`/`function`/`input`, is bad input: a
//! message on standard error with the line number, exit 2.

use super::compute::Job;
use super::evals::{self, Numbers};
use super::out::Out;
use crate::cli::error::CliError;
use crate::cli::inputs::plain_error;
use adora_core::diag::ErrorKind;
use adora_rewrites::engine::harness::Mode;
use adora_rewrites::engine::Engine;
use adora_semantics::eval::EvalOptions;
use adora_semantics::scalar::Scalar;
use adora_semantics::Rat;
use serde_json::{json, Map, Value as Json};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// How the tool computes the evals whose programs are rational.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ToolNumbers {
    /// Exact rationals for the rational programs (the answer is the double nearest the
    /// exact value), f64 for the others.
    Exact,
    /// f64 for every eval.
    F64,
}

/// The tool's configuration.
pub struct Tool<'e> {
    /// The engine whose gradients answer.
    pub engine: &'e dyn Engine,
    /// Exact or f64 for the rational evals.
    pub numbers: ToolNumbers,
    /// Evaluation options.
    pub opts: EvalOptions,
}

/// A number as JSON (`null` for a non-finite one, which JSON cannot write; answers with
/// one are unsuccessful responses).
pub fn number<S: Scalar>(x: &S) -> Json {
    serde_json::Number::from_f64(x.approx_f64()).map_or(Json::Null, Json::Number)
}

fn bad_line(line: usize, what: impl std::fmt::Display) -> CliError {
    plain_error(
        ErrorKind::Input,
        format!("standard input, line {line}: {what}"),
    )
}

impl Tool<'_> {
    /// Serves the messages of `input`, writing one response line per message to `out`.
    pub fn serve(&self, input: impl BufRead, mut out: impl Write) -> Result<(), CliError> {
        for (i, line) in input.lines().enumerate() {
            let n = i + 1;
            let line = line.map_err(|e| bad_line(n, format!("cannot read: {e}")))?;
            if line.trim().is_empty() {
                continue;
            }
            let msg: Json = serde_json::from_str(&line)
                .map_err(|e| bad_line(n, format!("invalid JSON at column {}: {e}", e.column())))?;
            let response = self.respond(&msg).map_err(|e| bad_line(n, e))?;
            writeln!(out, "{response}")
                .and_then(|()| out.flush())
                .map_err(|e| {
                    plain_error(ErrorKind::Input, format!("cannot write a response: {e}"))
                })?;
        }
        Ok(())
    }

    /// The response to one message; `Err` for a malformed message.
    pub fn respond(&self, msg: &Json) -> Result<Json, String> {
        let obj = msg.as_object().ok_or("a message must be a JSON object")?;
        let id = obj
            .get("id")
            .filter(|i| i.is_number())
            .ok_or("a message needs a numeric `id`")?;
        let kind = obj
            .get("kind")
            .and_then(Json::as_str)
            .ok_or("a message needs a string `kind`")?;
        let text = |k: &str| -> Result<&str, String> {
            obj.get(k)
                .and_then(Json::as_str)
                .ok_or_else(|| format!("a `{kind}` message needs a string `{k}`"))
        };
        Ok(match kind {
            "start" => json!({
                "id": id,
                "tool": "adora",
                "config": {
                    "engine": self.engine.name(),
                    "numbers": match self.numbers { ToolNumbers::Exact => "exact", ToolNumbers::F64 => "f64" },
                    "version": env!("CARGO_PKG_VERSION"),
                },
            }),
            "define" => match evals::find(text("module")?) {
                Some(_) => json!({"id": id, "success": true}),
                None => json!({"id": id, "success": false, "error": format!(
                    "adora serves no eval `{}` (it serves {})",
                    text("module")?,
                    evals::EVALS.iter().map(|e| e.name).collect::<Vec<_>>().join(", ")
                )}),
            },
            "evaluate" => {
                let input = obj
                    .get("input")
                    .ok_or("an `evaluate` message needs an `input`")?;
                let mut r = Map::new();
                r.insert("id".into(), id.clone());
                match self.evaluate(text("module")?, text("function")?, input) {
                    Ok((output, timings)) => {
                        r.insert("success".into(), Json::Bool(true));
                        r.insert("output".into(), output);
                        r.insert("timings".into(), Json::Array(timings));
                    }
                    Err(e) => {
                        r.insert("success".into(), Json::Bool(false));
                        r.insert("error".into(), Json::String(e));
                    }
                }
                Json::Object(r)
            }
            _ => json!({"id": id}),
        })
    }

    /// The output and timings of one `evaluate`.
    fn evaluate(
        &self,
        module: &str,
        function: &str,
        input: &Json,
    ) -> Result<(Json, Vec<Json>), String> {
        let eval = evals::find(module).ok_or_else(|| format!("adora serves no eval `{module}`"))?;
        let f = eval
            .function(function)
            .ok_or_else(|| format!("eval `{module}` has no function `{function}`"))?;
        let t = Instant::now();
        let job = Job::prepare(eval, f, input, self.engine)?;
        let prepare = t.elapsed();
        let runs = Runs::of(input)?;
        match (eval.numbers, self.numbers) {
            (Numbers::Exact, ToolNumbers::Exact) => self.repeat::<Rat>(&job, prepare, runs),
            _ => self.repeat::<f64>(&job, prepare, runs),
        }
    }

    fn repeat<S: Mode>(
        &self,
        job: &Job,
        prepare: Duration,
        runs: Runs,
    ) -> Result<(Json, Vec<Json>), String> {
        let xs = job.inputs::<S>()?;
        let mut timings = vec![timing("prepare", prepare)];
        let mut total = Duration::ZERO;
        let mut answer: Option<Out<S>> = None;
        while answer.is_none()
            || timings.len() - 1 < runs.min_runs
            || total.as_secs_f64() < runs.min_seconds
        {
            let t = Instant::now();
            let out = job.run::<S>(&xs, &self.opts)?;
            let dt = t.elapsed();
            total += dt;
            timings.push(timing("evaluate", dt));
            answer.get_or_insert(out);
        }
        let out = answer.expect("one run at least");
        if let Some(x) = out
            .numbers()
            .into_iter()
            .find(|x| !x.approx_f64().is_finite())
        {
            return Err(format!(
                "the answer has a number that is not a finite double (it rounds to {}), which JSON cannot carry",
                x.approx_f64()
            ));
        }
        Ok((out.to_json(&number::<S>), timings))
    }
}

fn timing(name: &str, d: Duration) -> Json {
    json!({"name": name, "nanoseconds": d.as_nanos() as u64})
}

/// The protocol's `Runs` fields of an input.
#[derive(Clone, Copy, Debug)]
struct Runs {
    min_runs: usize,
    min_seconds: f64,
}

impl Runs {
    fn of(input: &Json) -> Result<Runs, String> {
        let min_runs = match input.get("min_runs") {
            None => 1,
            Some(j) => j
                .as_u64()
                .ok_or("`min_runs` is not a non-negative integer")? as usize,
        };
        let min_seconds = match input.get("min_seconds") {
            None => 0.0,
            Some(j) => j
                .as_f64()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or("`min_seconds` is not a non-negative number")?,
        };
        Ok(Runs {
            min_runs: min_runs.max(1),
            min_seconds,
        })
    }
}
