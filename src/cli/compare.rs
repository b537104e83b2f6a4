//! `--engine all`: every registered engine answers the same question, and each answer is
//! compared with the reference's — exactly in exact mode, within a stated tolerance in
//! `f64` mode (rounding differs between engines). Engines that decline a program (outside
//! their fragment) are listed as skipped with their reason.

use super::inputs::{render, Loaded};
use super::Format;
use adora_core::diag::{ErrorKind, Result as DResult};
use adora_rewrites::engine::{Engine, EngineScalar};
use adora_semantics::io::{to_json, to_text};
use adora_semantics::reference::Gradient;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use serde_json::json;

/// Relative tolerance of `--engine all` in f64 mode: `|a - r| <= 1e-9 * max(1, |r|)`.
pub const F64_TOLERANCE: f64 = 1e-9;

/// A numeric mode of the command line: the engines' answers and how to compare them.
pub trait CliScalar: EngineScalar {
    /// Whether an engine's `actual` agrees with the reference's `expected`.
    fn agrees(actual: &Self, expected: &Self) -> bool;
    /// How agreement is judged, for the report.
    const AGREEMENT: &'static str;
}

impl CliScalar for Rat {
    fn agrees(actual: &Rat, expected: &Rat) -> bool {
        actual == expected
    }
    const AGREEMENT: &'static str = "exactly";
}

impl CliScalar for f64 {
    fn agrees(actual: &f64, expected: &f64) -> bool {
        actual == expected || (actual - expected).abs() <= F64_TOLERANCE * expected.abs().max(1.0)
    }
    const AGREEMENT: &'static str = "within relative tolerance 1e-9";
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

/// The parts of `actual` that differ from `expected`: `value`, or input names.
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

/// Runs `ask` on every engine (the first must be the reference), prints the reference's
/// answer and one line per other engine, and returns whether all answering engines agree.
/// `names` names the answer's parts (the inputs for gradients, `tangent` for JVPs).
pub fn all_engines<S: CliScalar>(
    l: &Loaded,
    names: &[String],
    format: Format,
    engines: &[Box<dyn Engine>],
    title: &str,
    ask: impl Fn(&dyn Engine) -> DResult<Gradient<S>>,
) -> Result<bool, String> {
    let (reference, others) = engines.split_first().expect("the registry is never empty");
    let expected = ask(reference.as_ref()).map_err(|d| render(l, &d))?;
    let mut all_agree = true;
    let mut rows = serde_json::Map::new();
    let mut lines = Vec::new();
    for e in others {
        let (status, detail, answer) = match ask(e.as_ref()) {
            Err(d) if d.kind == ErrorKind::Unsupported => ("skipped", d.message.clone(), None),
            Err(d) => {
                all_agree = false;
                ("error", render(l, &d).trim_end().to_string(), None)
            }
            Ok(g) => {
                let diff = differences(names, &g, &expected);
                if diff.is_empty() {
                    ("agrees", S::AGREEMENT.to_string(), Some(g))
                } else {
                    all_agree = false;
                    ("differs", format!("in {}", diff.join(", ")), Some(g))
                }
            }
        };
        let mut row = serde_json::Map::new();
        row.insert("status".into(), json!(status));
        row.insert("detail".into(), json!(detail));
        if let Some(g) = &answer {
            row.insert("value".into(), to_json(&g.value));
            let grads: Vec<serde_json::Value> = g
                .grads
                .iter()
                .map(|x| x.as_ref().map_or(serde_json::Value::Null, to_json))
                .collect();
            row.insert(title.into(), json!(grads));
        }
        rows.insert(e.name().to_string(), serde_json::Value::Object(row));
        lines.push((e.name().to_string(), status, detail, answer));
    }
    match format {
        Format::Json => {
            let grads: Vec<serde_json::Value> = expected
                .grads
                .iter()
                .map(|x| x.as_ref().map_or(serde_json::Value::Null, to_json))
                .collect();
            println!(
                "{}",
                json!({"reference": {"value": to_json(&expected.value), title: grads},
                       "engines": rows, "agree": all_agree})
            );
        }
        Format::Text => {
            println!("reference:");
            print_parts(names, &expected, title);
            for (name, status, detail, answer) in lines {
                println!("engine {name}: {status} ({detail})");
                if status == "differs" {
                    if let Some(g) = answer {
                        print_parts(names, &g, title);
                    }
                }
            }
        }
    }
    Ok(all_agree)
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
