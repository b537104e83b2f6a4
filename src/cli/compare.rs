//! `--engine all`: every registered engine answers the same question through the engine
//! harness (`adora_rewrites::engine::harness`), and each answer is compared with the
//! reference's by the harness — exactly in exact mode, within its relative tolerance
//! `harness::F64_TOLERANCE` (1e-9) in `f64` mode (rounding differs between engines). An
//! engine that declines a program (`Unsupported`: outside its fragment) is skipped with its
//! reason; an internal error (`Internal`: a bug in Adora) is a failure of that engine,
//! never a skip. An engine that hits a resource limit (`Resource`: `--max-steps`, the
//! rational-size limit) is reported as such — not as a difference — and the command then
//! exits 2 like any resource error; an error of the reference is the command's error.
//! The JSON form is documented in docs/json.md.

use super::error::CliError;
use super::inputs::{render, Loaded};
use super::schema::{answer_json, error_json, QuestionText};
use super::{Format, BAD_INPUT, FAILED, INTERNAL, OK};
use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind, Result as DResult};
use adora_rewrites::engine::harness::{self, Answer, Mode};
use adora_rewrites::engine::{Engine, Question};
use adora_semantics::io::to_text;
use adora_semantics::reference::Gradient;
use serde_json::{json, Map, Value as Json};

/// How one engine's answer compares with the reference's.
#[derive(Clone, Debug, PartialEq)]
pub enum Status<S> {
    /// The answer agrees (exactly, or within `harness::F64_TOLERANCE` in f64 mode).
    Agrees(Gradient<S>),
    /// The answer differs in the named parts (`value`, input names, `tangent`).
    Differs(Gradient<S>, Vec<String>),
    /// The engine declined the program (`Unsupported`), with its reason.
    Skipped(String),
    /// The engine failed with an internal error (a bug in Adora).
    InternalError(Diagnostic),
    /// The engine hit a resource limit (`ErrorKind::Resource`).
    Resource(Diagnostic),
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
            Status::Resource(_) => "resource-limit",
            Status::Error(_) => "error",
        }
    }
}

/// Classifies an engine's `answer` for `f` against the reference's `expected` answer
/// (compared by `harness::compare`). Only `Unsupported` is a skip; `Internal` is an
/// internal error, `Resource` a resource limit, any other error an error.
pub fn classify<S: Mode>(
    f: &Function,
    answer: DResult<Answer<S>>,
    expected: &Answer<S>,
) -> Status<S> {
    match answer {
        Err(d) if d.kind == ErrorKind::Unsupported => Status::Skipped(d.message),
        Err(d) if d.kind == ErrorKind::Internal => Status::InternalError(d),
        Err(d) if d.kind == ErrorKind::Resource => Status::Resource(d),
        Err(d) => Status::Error(d),
        Ok(a) => {
            let diff = harness::compare(f, &a, expected);
            if diff.is_empty() {
                Status::Agrees(a.into_gradient())
            } else {
                Status::Differs(a.into_gradient(), diff)
            }
        }
    }
}

/// The overall result of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every engine that answered agrees (skips allowed).
    Agree,
    /// Some engine differs or failed with an error that is neither internal nor a
    /// resource limit.
    Differ,
    /// No engine differs, but some engine hit a resource limit.
    Resource,
    /// Some engine failed with an internal error.
    Internal,
}

impl Verdict {
    /// The verdict over the engines' statuses: an internal error wins over a difference,
    /// a difference over a resource limit.
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
        } else if statuses.iter().any(|s| matches!(s, Status::Resource(_))) {
            Verdict::Resource
        } else {
            Verdict::Agree
        }
    }

    /// The exit code: 0 agree, 1 differ, 2 a resource limit (like any resource error,
    /// `error::exit_code`), 3 internal error.
    pub fn exit_code(self) -> u8 {
        match self {
            Verdict::Agree => OK,
            Verdict::Differ => FAILED,
            Verdict::Resource => BAD_INPUT,
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
pub fn compare<S: Mode>(
    f: &Function,
    engines: &[Box<dyn Engine>],
    ask: impl Fn(&dyn Engine) -> DResult<Answer<S>>,
) -> DResult<Comparison<S>> {
    let (reference, others) = engines.split_first().expect("the registry is never empty");
    let expected = ask(reference.as_ref())?;
    let rows = others
        .iter()
        .map(|e| {
            let status = classify(f, ask(e.as_ref()), &expected);
            (e.name().to_string(), status)
        })
        .collect();
    Ok(Comparison {
        expected: expected.into_gradient(),
        rows,
    })
}

impl<S: Mode> Comparison<S> {
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
                Status::InternalError(d) | Status::Resource(d) | Status::Error(d) => {
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
                Status::Resource(d) => {
                    println!("engine {name}: resource limit: {}", indented(l, d));
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
pub fn all_engines<S: Mode>(
    l: &Loaded,
    q: Question,
    format: Format,
    engines: &[Box<dyn Engine>],
    ask: impl Fn(&dyn Engine) -> DResult<Answer<S>>,
) -> Result<Verdict, CliError> {
    let c = compare(&l.func, engines, ask).map_err(|d| render(l, &d))?;
    match format {
        Format::Json => println!("{}", super::schema::with_warnings(l, c.to_json(q, l))),
        Format::Text => c.print_text(q, l),
    }
    Ok(c.verdict())
}

fn print_parts<S: Mode>(names: &[String], g: &Gradient<S>, title: &str) {
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
