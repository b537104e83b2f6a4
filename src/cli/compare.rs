//! `--engine all`: every registered engine answers the same question, and each answer is
//! compared with the reference's — exactly in exact mode, within a stated tolerance in
//! `f64` mode (rounding differs between engines). An engine that declines a program
//! (`Unsupported`: outside its fragment) is skipped with its reason; an internal error
//! (`Internal`: a bug in Adora) is a failure of that engine, never a skip. The JSON form
//! is documented in docs/json.md.

use super::error::CliError;
use super::inputs::{render, Loaded};
use super::schema::{answer_json, error_json, Question};
use super::{Format, FAILED, INTERNAL, OK};
use adora_core::diag::{Diagnostic, ErrorKind, Result as DResult};
use adora_rewrites::engine::{Engine, EngineScalar};
use adora_semantics::io::to_text;
use adora_semantics::reference::Gradient;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use serde_json::{json, Map, Value as Json};

/// Relative tolerance of `--engine all` in f64 mode: `|a - r| <= 1e-9 * max(1, |r|)`.
pub const F64_TOLERANCE: f64 = 1e-9;

/// A numeric mode of the command line: the engines' answers and how to compare them.
pub trait CliScalar: EngineScalar {
    /// Whether an engine's `actual` agrees with the reference's `expected`.
    fn agrees(actual: &Self, expected: &Self) -> bool;
    /// How agreement is judged, for the report.
    const AGREEMENT: &'static str;
    /// Whether agreement means equality (exact mode) rather than a tolerance.
    const EXACT: bool;
}

impl CliScalar for Rat {
    fn agrees(actual: &Rat, expected: &Rat) -> bool {
        actual == expected
    }
    const AGREEMENT: &'static str = "exactly";
    const EXACT: bool = true;
}

impl CliScalar for f64 {
    fn agrees(actual: &f64, expected: &f64) -> bool {
        actual == expected || (actual - expected).abs() <= F64_TOLERANCE * expected.abs().max(1.0)
    }
    const AGREEMENT: &'static str = "within relative tolerance 1e-9";
    const EXACT: bool = false;
}

fn values_agree<S: CliScalar>(a: &Value<S>, b: &Value<S>) -> bool {
    match (a, b) {
        (Value::Real(x), Value::Real(y)) => {
            x.shape == y.shape && x.data.iter().zip(&y.data).all(|(p, q)| S::agrees(p, q))
        }
        (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| values_agree(p, q))
        }
        (x, y) => x == y,
    }
}

/// The parts of `actual` that differ from `expected`: `value`, or part names.
fn differences<S: CliScalar>(
    names: &[String],
    actual: &Gradient<S>,
    expected: &Gradient<S>,
) -> Vec<String> {
    let mut out = Vec::new();
    if !values_agree(&actual.value, &expected.value) {
        out.push("value".to_string());
    }
    for (k, (a, e)) in actual.grads.iter().zip(&expected.grads).enumerate() {
        let same = match (a, e) {
            (Some(a), Some(e)) => values_agree(a, e),
            (None, None) => true,
            _ => false,
        };
        if !same {
            out.push(names.get(k).cloned().unwrap_or_else(|| format!("#{k}")));
        }
    }
    if actual.grads.len() != expected.grads.len() {
        out.push("number of inputs".to_string());
    }
    out
}

/// How one engine's answer compares with the reference's.
#[derive(Clone, Debug, PartialEq)]
pub enum Status<S> {
    /// The answer agrees (exactly, or within [`F64_TOLERANCE`] in f64 mode).
    Agrees(Gradient<S>),
    /// The answer differs in the named parts (`value`, input names, `tangent`).
    Differs(Gradient<S>, Vec<String>),
    /// The engine declined the program (`Unsupported`), with its reason.
    Skipped(String),
    /// The engine failed with an internal error (a bug in Adora).
    InternalError(Diagnostic),
    /// The engine failed with another error (e.g. a resource limit).
    Error(Diagnostic),
}

impl<S> Status<S> {
    /// The status word of the report and of the JSON `status` field.
    pub fn word(&self) -> &'static str {
        match self {
            Status::Agrees(_) => "agrees",
            Status::Differs(..) => "differs",
            Status::Skipped(_) => "skipped",
            Status::InternalError(_) => "internal-error",
            Status::Error(_) => "error",
        }
    }
}

/// Classifies an engine's `answer` against the reference's `expected` answer. Only
/// `Unsupported` is a skip; `Internal` is an internal error, any other error an error.
pub fn classify<S: CliScalar>(
    names: &[String],
    answer: DResult<Gradient<S>>,
    expected: &Gradient<S>,
) -> Status<S> {
    match answer {
        Err(d) if d.kind == ErrorKind::Unsupported => Status::Skipped(d.message),
        Err(d) if d.kind == ErrorKind::Internal => Status::InternalError(d),
        Err(d) => Status::Error(d),
        Ok(g) => {
            let diff = differences(names, &g, expected);
            if diff.is_empty() {
                Status::Agrees(g)
            } else {
                Status::Differs(g, diff)
            }
        }
    }
}

/// The overall result of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every engine that answered agrees (skips allowed).
    Agree,
    /// Some engine differs or failed with an error that is not internal.
    Differ,
    /// Some engine failed with an internal error.
    Internal,
}

impl Verdict {
    /// The verdict over the engines' statuses: an internal error wins over a difference.
    pub fn of<'a, S: 'a>(statuses: impl IntoIterator<Item = &'a Status<S>>) -> Verdict {
        let statuses: Vec<&Status<S>> = statuses.into_iter().collect();
        if statuses
            .iter()
            .any(|s| matches!(s, Status::InternalError(_)))
        {
            Verdict::Internal
        } else if statuses
            .iter()
            .any(|s| matches!(s, Status::Differs(..) | Status::Error(_)))
        {
            Verdict::Differ
        } else {
            Verdict::Agree
        }
    }

    /// The exit code: 0 agree, 1 differ, 3 internal error.
    pub fn exit_code(self) -> u8 {
        match self {
            Verdict::Agree => OK,
            Verdict::Differ => FAILED,
            Verdict::Internal => INTERNAL,
        }
    }
}

/// The reference's answer and every other engine's status, in registry order.
pub struct Comparison<S> {
    /// The reference's answer.
    pub expected: Gradient<S>,
    /// `(engine name, status)` for every engine but the reference.
    pub rows: Vec<(String, Status<S>)>,
}

/// Asks every engine (the first must be the reference) and classifies each answer; an
/// error of the reference is returned as it is.
pub fn compare<S: CliScalar>(
    names: &[String],
    engines: &[Box<dyn Engine>],
    ask: impl Fn(&dyn Engine) -> DResult<Gradient<S>>,
) -> DResult<Comparison<S>> {
    let (reference, others) = engines.split_first().expect("the registry is never empty");
    let expected = ask(reference.as_ref())?;
    let rows = others
        .iter()
        .map(|e| {
            let status = classify(names, ask(e.as_ref()), &expected);
            (e.name().to_string(), status)
        })
        .collect();
    Ok(Comparison { expected, rows })
}

impl<S: CliScalar> Comparison<S> {
    /// The verdict over all engines.
    pub fn verdict(&self) -> Verdict {
        Verdict::of(self.rows.iter().map(|(_, s)| s))
    }

    /// The JSON report (docs/json.md): `{"reference": ANSWER, "engines": {NAME: ROW},
    /// "agree": bool}`.
    pub fn to_json(&self, q: Question, l: &Loaded) -> Json {
        let mut engines = Map::new();
        for (name, status) in &self.rows {
            let mut row = Map::new();
            row.insert("status".into(), json!(status.word()));
            match status {
                Status::Agrees(g) => {
                    row.insert("exact".into(), json!(S::EXACT));
                    row.insert("result".into(), answer_json(q, l, g));
                }
                Status::Differs(g, diff) => {
                    row.insert("exact".into(), json!(S::EXACT));
                    row.insert("result".into(), answer_json(q, l, g));
                    row.insert("differences".into(), json!(diff));
                }
                Status::Skipped(reason) => {
                    row.insert("reason".into(), json!(reason));
                }
                Status::InternalError(d) | Status::Error(d) => {
                    row.insert("error".into(), error_json(l, d));
                }
            }
            engines.insert(name.clone(), Json::Object(row));
        }
        json!({"reference": answer_json(q, l, &self.expected), "engines": engines,
               "agree": self.verdict() == Verdict::Agree})
    }

    /// Prints the text report: the reference's answer, then one line per engine (with
    /// the answer of an engine that differs, and the error of one that failed).
    pub fn print_text(&self, q: Question, l: &Loaded) {
        let names = q.part_names(l);
        println!("reference:");
        print_parts(&names, &self.expected, q.title());
        for (name, status) in &self.rows {
            match status {
                Status::Agrees(_) => println!("engine {name}: agrees ({})", S::AGREEMENT),
                Status::Differs(g, diff) => {
                    println!("engine {name}: differs (in {})", diff.join(", "));
                    print_parts(&names, g, q.title());
                }
                Status::Skipped(reason) => println!("engine {name}: skipped ({reason})"),
                Status::InternalError(d) => {
                    println!("engine {name}: internal error: {}", indented(l, d));
                }
                Status::Error(d) => println!("engine {name}: error: {}", indented(l, d)),
            }
        }
    }
}

/// A rendered error with its continuation lines indented under the engine's line.
fn indented(l: &Loaded, d: &Diagnostic) -> String {
    render(l, d).text.trim_end().replace('\n', "\n  ")
}

/// Runs `ask` on every engine (the first must be the reference), prints the comparison
/// in `format`, and returns its verdict. An error of the reference is the command's
/// error.
pub fn all_engines<S: CliScalar>(
    l: &Loaded,
    q: Question,
    format: Format,
    engines: &[Box<dyn Engine>],
    ask: impl Fn(&dyn Engine) -> DResult<Gradient<S>>,
) -> Result<Verdict, CliError> {
    let c = compare(&q.part_names(l), engines, ask).map_err(|d| render(l, &d))?;
    match format {
        Format::Json => println!("{}", c.to_json(q, l)),
        Format::Text => c.print_text(q, l),
    }
    Ok(c.verdict())
}

fn print_parts<S: CliScalar>(names: &[String], g: &Gradient<S>, title: &str) {
    println!("  value: {}", to_text(&g.value));
    println!("  {title}:");
    for (name, gv) in names.iter().zip(&g.grads) {
        match gv {
            Some(gv) => println!("    {name}: {}", to_text(gv)),
            None => println!("    {name}: (not real: a constant)"),
        }
    }
}

#[cfg(test)]
#[path = "compare_tests.rs"]
mod tests;
