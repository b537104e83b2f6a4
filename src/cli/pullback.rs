//! The pullback calculus on the command line (docs/engines/pullback.md, "Command line"):
//! `adora reduce F.adp` reduces a file's term with the call-by-value strategy (Mak and
//! Ong, A Differential-form Pullback Programming Language for Higher-order Reverse-mode
//! AD, §3.4); `adora grad|vjp|jvp F.adp` differentiate the file's function `\x. t` of a
//! first-order input by reduction (`pb(\x. t, ω) s`, `J(\x. t, ṡ) s`). Bad input exits 2
//! with its position, internal failures exit 3.

use super::error::CliError;
use super::{Format, RunArgs};
use adora_core::diag::{Diagnostic, ErrorKind, Span};
use adora_pullback::ad::{self, AdResult};
use adora_pullback::file::{self, AdpFile, Lit};
use adora_pullback::reduce::{Outcome, Reducer, Stats, DEFAULT_STEP_LIMIT};
use adora_pullback::syntax::Ty;
use adora_semantics::Rat;
use clap::Args;
use serde_json::json;
use std::path::{Path, PathBuf};

/// `adora reduce`'s arguments.
#[derive(Args, Debug, Clone)]
pub struct ReduceArgs {
    /// The `.adp` file.
    pub file: PathBuf,
    /// Print every step as `[rule] term`.
    #[arg(long)]
    pub trace: bool,
    /// Most reduction steps before a resource error (default: the file's `step-limit`
    /// header, else 1000000).
    #[arg(long, value_name = "N")]
    pub step_limit: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

/// Whether a path names a pullback-calculus file (`.adp`).
pub fn is_adp(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "adp")
}

/// A loaded file: its name, source and parse.
struct Loaded {
    name: String,
    src: String,
    file: AdpFile,
}

fn render(name: &str, src: &str, d: &Diagnostic) -> CliError {
    CliError::new(d.kind, d.render(name, src))
}

fn load(path: &Path) -> Result<Loaded, CliError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| {
        CliError::new(
            ErrorKind::Input,
            format!("error[input]: cannot read {name}: {e}\n"),
        )
    })?;
    let src = String::from_utf8(bytes).map_err(|_| {
        CliError::new(
            ErrorKind::Syntax,
            format!("error[syntax]: {name} is not UTF-8\n"),
        )
    })?;
    let file = file::parse(&src).map_err(|d| render(&name, &src, &d))?;
    Ok(Loaded { name, src, file })
}

fn reducer(l: &Loaded, limit: Option<u64>, trace: bool) -> Reducer {
    let n = limit
        .or(l.file.header.step_limit)
        .unwrap_or(DEFAULT_STEP_LIMIT);
    Reducer::new().step_limit(n).trace(trace)
}

/// `adora reduce F.adp`.
pub fn reduce(a: &ReduceArgs) -> Result<(), CliError> {
    let l = load(&a.file)?;
    let r = reducer(&l, a.step_limit, a.trace);
    let out = r
        .run(&l.file.term)
        .map_err(|d| render(&l.name, &l.src, &d))?;
    match a.format {
        Format::Text => {
            if a.trace {
                print!("{}", trace_text(&out));
            }
            println!("{}", out.value);
            println!("{}", stats_line(&out.stats));
        }
        Format::Json => {
            let mut j = json!({
                "normal_form": out.value.to_string(),
                "type": l.file.ty.to_string(),
                "stats": stats_json(&out.stats),
            });
            if a.trace {
                j["trace"] = out
                    .trace
                    .iter()
                    .map(|s| json!({"rule": s.rule.name(), "term": s.term.to_string()}))
                    .collect();
            }
            println!("{j}");
        }
    }
    Ok(())
}

/// The trace as `[rule] term` lines (a δ step names its symbol: `[3 mul]`).
pub fn trace_text(out: &Outcome) -> String {
    out.trace_text()
}

fn counts(m: impl IntoIterator<Item = (impl AsRef<str>, u64)>) -> String {
    let v: Vec<String> = m
        .into_iter()
        .map(|(k, n)| format!("{}={n}", k.as_ref()))
        .collect();
    if v.is_empty() {
        "-".into()
    } else {
        v.join(" ")
    }
}

/// `steps: N; rules: …; delta: …; delta-j: …` (the `.adp` header spellings).
fn stats_line(s: &Stats) -> String {
    format!(
        "steps: {}; rules: {}; delta: {}; delta-j: {}",
        s.steps,
        counts(s.by_rule.iter().map(|(k, n)| (*k, *n))),
        counts(s.delta_f.iter().map(|(k, n)| (k.as_str(), *n))),
        counts(s.delta_j.iter().map(|(k, n)| (k.as_str(), *n))),
    )
}

fn stats_json(s: &Stats) -> serde_json::Value {
    json!({
        "steps": s.steps,
        "rules": s.by_rule,
        "delta": s.delta_f,
        "delta_j": s.delta_j,
    })
}

/// Which derivative `adora grad|vjp|jvp` asks for.
pub enum Question<'a> {
    /// The gradient.
    Grad,
    /// The VJP for a cotangent literal.
    Vjp(&'a str),
    /// The JVP for `--tangent` literals.
    Jvp(&'a [String]),
}

fn input_error(msg: impl Into<String>) -> CliError {
    let msg = msg.into();
    CliError::new(ErrorKind::Input, format!("error[input]: {msg}\n"))
}

/// A command-line literal (`(1, 3)`), shaped like `ty`.
fn cli_literal(what: &str, text: &str, ty: &Ty) -> Result<Lit, CliError> {
    let lit = file::literal(text, Span::new(0, text.len()))
        .map_err(|d| CliError::new(ErrorKind::Input, d.render(what, text)))?;
    if lit.ty != *ty {
        return Err(input_error(format!(
            "{what} `{text}` has type {}, expected {ty}",
            lit.ty
        )));
    }
    Ok(lit)
}

/// `adora grad|vjp|jvp F.adp`.
pub fn derivative(a: &RunArgs, q: Question) -> Result<(), CliError> {
    let l = load(&a.file)?;
    let h = &l.file.header;
    let (input_ty, out_ty) = match &l.file.ty {
        Ty::Fun(i, o) if i.is_first_order() && o.is_first_order() => ((**i).clone(), (**o).clone()),
        other => {
            return Err(input_error(format!(
                "{}: the file's term has type {other}; `grad`, `vjp` and `jvp` need a function of first-order input and output (`\\x. t`)",
                l.name
            )))
        }
    };
    let (name, point) = match a.inputs.as_slice() {
        [] => match &h.input {
            Some((n, lit)) => (n.clone(), lit.clone()),
            None => {
                return Err(input_error(format!(
                    "{}: no input: give `--input x=LITERAL` or a `-- input:` header",
                    l.name
                )))
            }
        },
        [one] => {
            let (n, text) = one
                .split_once('=')
                .ok_or_else(|| input_error(format!("--input `{one}`: expected NAME=LITERAL")))?;
            (
                n.trim().to_string(),
                cli_literal("--input", text.trim(), &input_ty)?,
            )
        }
        _ => {
            return Err(input_error(
                "an `.adp` function takes one input (a tuple for several reals)",
            ))
        }
    };
    if point.ty != input_ty {
        return Err(input_error(format!(
            "input `{}` has type {}, the function takes {input_ty}",
            point.text, point.ty
        )));
    }
    let r = reducer(&l, None, false);
    let f = &l.file.term;
    let err = |d: Diagnostic| render(&l.name, &l.src, &d);
    let (title, res): (&str, AdResult) = match q {
        Question::Grad => {
            if out_ty != Ty::Real {
                return Err(input_error(format!(
                    "`grad` needs a real result; the function returns {out_ty} (use `vjp`)"
                )));
            }
            (
                "gradient",
                ad::grad(f, &input_ty, &point.values, &r).map_err(err)?,
            )
        }
        Question::Vjp(c) => {
            let c = cli_literal("--cotangent", c, &out_ty)?;
            (
                "vjp",
                ad::vjp(f, &input_ty, &point.values, &c.values, &r).map_err(err)?,
            )
        }
        Question::Jvp(ts) => {
            let [t] = ts else {
                return Err(input_error(
                    "`jvp` of an `.adp` function takes one `--tangent NAME=LITERAL`",
                ));
            };
            let text = t.split_once('=').map_or(t.as_str(), |(_, v)| v);
            let t = cli_literal("--tangent", text.trim(), &input_ty)?;
            (
                "jvp",
                ad::jvp(f, &input_ty, &point.values, &t.values, &r).map_err(err)?,
            )
        }
    };
    let deriv_ty = if title == "jvp" { &out_ty } else { &input_ty };
    let value = shaped(&out_ty, &res.value);
    let deriv = shaped(deriv_ty, &res.derivative);
    match a.format {
        Format::Text => {
            println!("value: {value}");
            if title == "jvp" {
                println!("jvp: {deriv}");
            } else {
                println!("{title}:");
                println!("  {name}: {deriv}");
            }
            println!("{}", stats_line(&res.outcome.stats));
        }
        Format::Json => {
            let rat = |v: &[Rat]| -> Vec<String> { v.iter().map(|r| r.to_string()).collect() };
            let j = json!({
                "value": rat(&res.value),
                title: rat(&res.derivative),
                "input": name,
                "stats": stats_json(&res.outcome.stats),
            });
            println!("{j}");
        }
    }
    Ok(())
}

/// Numbers as a literal shaped like `ty` (`(15, 12)`).
pub fn shaped(ty: &Ty, vals: &[Rat]) -> String {
    fn go(ty: &Ty, vals: &mut std::slice::Iter<'_, Rat>, out: &mut String) {
        match ty {
            Ty::Pair(a, b) => {
                out.push('(');
                go(a, vals, out);
                out.push_str(", ");
                go(b, vals, out);
                out.push(')');
            }
            _ => out.push_str(&vals.next().map_or("?".into(), |r| r.to_string())),
        }
    }
    let mut s = String::new();
    go(ty, &mut vals.iter(), &mut s);
    s
}
