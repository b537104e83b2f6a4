//! The one JSON schema of `grad`, `jvp` and `vjp` (docs/json.md): an answer object
//! `{"value": V, "gradient": {INPUT: V, ...}}` (grad, vjp) or `{"value": V, "tangent": V}`
//! (jvp), printed alone for one engine and nested, per engine, for `--engine all`.

use super::inputs::Loaded;
use adora_core::diag::{Diagnostic, Span};
use adora_semantics::io::to_json;
use adora_semantics::reference::Gradient;
use adora_semantics::scalar::Scalar;
use serde_json::{json, Map, Value as Json};

pub use adora_rewrites::engine::Question;

/// How the command line names a question's parts and titles them.
pub trait QuestionText {
    /// The names of an answer's parts: the entry point's inputs (grad, vjp) or `tangent`
    /// (jvp, whose one part is the result's tangent).
    fn part_names(self, l: &Loaded) -> Vec<String>;
    /// The heading of the parts in text output.
    fn title(self) -> &'static str;
}

impl QuestionText for Question {
    fn part_names(self, l: &Loaded) -> Vec<String> {
        match self {
            Question::Jvp => vec!["tangent".to_string()],
            Question::Grad | Question::Vjp => {
                l.func.params.iter().map(|p| p.name.clone()).collect()
            }
        }
    }

    fn title(self) -> &'static str {
        match self {
            Question::Grad => "gradient",
            Question::Jvp => "result",
            Question::Vjp => "cotangents",
        }
    }
}

/// The answer object of `q`: `{"value", "gradient": {input: value}}` for grad and vjp
/// (inputs without a real part have no entry), `{"value", "tangent"}` for jvp. `g.grads`
/// holds one entry per input (grad, vjp) or the result's tangent alone (jvp).
pub fn answer_json<S: Scalar>(q: Question, l: &Loaded, g: &Gradient<S>) -> Json {
    match q {
        Question::Jvp => {
            let tangent = g
                .grads
                .first()
                .and_then(Option::as_ref)
                .map_or(Json::Null, to_json);
            json!({"value": to_json(&g.value), "tangent": tangent})
        }
        Question::Grad | Question::Vjp => {
            let mut parts = Map::new();
            for (p, gv) in l.func.params.iter().zip(&g.grads) {
                if let Some(gv) = gv {
                    parts.insert(p.name.clone(), to_json(gv));
                }
            }
            json!({"value": to_json(&g.value), "gradient": parts})
        }
    }
}

/// An error as JSON: `{"code", "message", "line", "column", "notes"}`; `line` and
/// `column` (1-based) are `null` for an error without a source position.
pub fn error_json(l: &Loaded, d: &Diagnostic) -> Json {
    let (line, column) = if d.span == Span::DUMMY {
        (Json::Null, Json::Null)
    } else {
        let (line, col) = d.position(&l.src);
        (json!(line), json!(col))
    };
    json!({"code": d.kind.code(), "message": d.message, "line": line, "column": column,
           "notes": d.notes})
}

/// `answer` (a JSON object printed by a command) with the program's warnings added under
/// `"warnings"` (each `{"code", "message", "line", "column", "notes", "help"}`), when
/// there are any; other objects, and any object when there are none, are unchanged.
pub fn with_warnings(l: &Loaded, answer: Json) -> Json {
    match answer {
        Json::Object(mut m) if !l.warnings.is_empty() => {
            let ws: Vec<Json> = l
                .warnings
                .iter()
                .map(|w| {
                    let mut j = error_json(l, w);
                    if let Json::Object(o) = &mut j {
                        o.insert("help".into(), json!(w.help));
                    }
                    j
                })
                .collect();
            m.insert("warnings".into(), Json::Array(ws));
            Json::Object(m)
        }
        other => other,
    }
}
