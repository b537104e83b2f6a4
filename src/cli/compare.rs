//! `--engine all`: every registered engine answers the same question through the engine
//! harness (`adora_rewrites::engine::harness`), which compares each answer with the
//! reference's — exactly in exact mode, within its relative tolerance
//! `harness::F64_TOLERANCE` (1e-9) in `f64` mode (rounding differs between engines).
//! Engines that decline a program (outside their fragment) are listed as skipped with
//! their reason.

use super::inputs::{render, Loaded};
use super::Format;
use adora_rewrites::engine::harness::{self, Mode, Query, Verdict};
use adora_rewrites::engine::Engine;
use adora_semantics::eval::EvalOptions;
use adora_semantics::io::{to_json, to_text};
use adora_semantics::reference::Gradient;
use adora_semantics::value::Value;
use serde_json::json;

/// Asks every engine `query` through the engine harness (the first must be the
/// reference), prints the reference's answer and one line per other engine, and returns
/// whether all answering engines agree (exactly, or within the harness's `f64`
/// tolerance). `names` names the answer's parts (the inputs for gradients, `tangent` for
/// JVPs).
#[allow(clippy::too_many_arguments)]
pub fn all_engines<S: Mode>(
    l: &Loaded,
    names: &[String],
    format: Format,
    engines: &[Box<dyn Engine>],
    title: &str,
    query: &Query<S>,
    inputs: &[Value<S>],
    opts: &EvalOptions,
) -> Result<bool, String> {
    let (reference, others) = engines.split_first().expect("the registry is never empty");
    let expected = harness::ask(reference.as_ref(), &l.func, inputs, query, opts)
        .map_err(|d| render(l, &d))?;
    let mut all_agree = true;
    let mut rows = serde_json::Map::new();
    let mut lines = Vec::new();
    for e in others {
        let verdict = harness::judge(e.as_ref(), &l.func, inputs, query, &expected, opts);
        let (status, detail, answer) = match verdict {
            Verdict::Skipped(d) => ("skipped", d.message.clone(), None),
            Verdict::Failed(d) => {
                all_agree = false;
                ("error", render(l, &d).trim_end().to_string(), None)
            }
            Verdict::Agrees(a) => ("agrees", S::AGREEMENT.to_string(), Some(a.into_gradient())),
            Verdict::Differs(a, diff) => {
                all_agree = false;
                (
                    "differs",
                    format!("in {}", diff.join(", ")),
                    Some(a.into_gradient()),
                )
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
    let expected = expected.into_gradient();
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
