//! Loading a program file and its inputs (`--input name=literal`, `--inputs F.json`),
//! with every error rendered as text with its position.

use super::error::CliError;
use super::sizes::Sizing;
use super::RunArgs;
use adora_core::ast::{ExprKind, Function, Lit};
use adora_core::diag::{Diagnostic, ErrorKind, Span};
use adora_core::types::Type;
use adora_semantics::scalar::Scalar;
use adora_semantics::value::Value;
use std::path::Path;

/// A program read from a file and elaborated at its entry point.
pub struct Loaded {
    /// The file name as given.
    pub file: String,
    /// Its source text.
    pub src: String,
    /// The elaborated entry point.
    pub func: Function,
    /// The checker's warnings about the program (already printed on standard error by
    /// [`load`]; JSON outputs repeat them under `"warnings"`).
    pub warnings: Vec<Diagnostic>,
}

/// An error that has no source text (command-line level), rendered as
/// `error[code]: message`.
pub fn plain_error(kind: ErrorKind, message: impl std::fmt::Display) -> CliError {
    CliError::new(kind, format!("error[{}]: {message}\n", kind.code()))
}

/// A diagnostic rendered against the source text `src` of `file`.
pub fn rendered(d: &Diagnostic, file: &str, src: &str) -> CliError {
    CliError::new(d.kind, d.render(file, src))
}

/// Reads a source file; non-UTF-8 content is an error with the position of the first bad
/// byte.
pub fn read_source(file: &Path) -> Result<String, CliError> {
    let bytes = std::fs::read(file).map_err(|e| {
        plain_error(
            ErrorKind::Input,
            format!("cannot read `{}`: {e}", file.display()),
        )
    })?;
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => {
            let good = e.utf8_error().valid_up_to();
            let prefix = String::from_utf8_lossy(&e.as_bytes()[..good]).into_owned();
            let (line, col) = adora_core::diag::line_col(&prefix, prefix.len());
            Err(CliError::new(ErrorKind::Syntax, format!(
                "{}:{line}:{col}: error[syntax]: the file is not valid UTF-8 (byte {good} cannot start a character)\n",
                file.display()
            )))
        }
    }
}

/// Reads, parses, checks and elaborates `file` at `entry`, a program with size
/// parameters at the sizes `sizing` binds (docs/language.md, "Size parameters"). The
/// checker's warnings are printed on standard error at once (`file:line:col:
/// warning[code]: ...`, never changing the exit code; docs/language.md, "Warnings") and
/// kept in the result.
pub fn load(file: &Path, entry: &str, sizing: Sizing) -> Result<Loaded, CliError> {
    load_with(file, entry, sizing, true)
}

/// [`load`], printing the warnings only when `warn`.
pub fn load_with(file: &Path, entry: &str, sizing: Sizing, warn: bool) -> Result<Loaded, CliError> {
    let src = read_source(file)?;
    let name = file.display().to_string();
    let loaded = match super::sizes::bind(&src, &name, entry, sizing)? {
        None => adora_core::load_with_warnings(&src, entry),
        Some(sizes) => adora_core::sizes::load_sized_with_warnings(&src, entry, &sizes),
    };
    match loaded {
        Ok((func, warnings)) => {
            for w in warnings.iter().filter(|_| warn) {
                eprint!("{}", w.render(&name, &src));
            }
            Ok(Loaded {
                file: name,
                src,
                func,
                warnings,
            })
        }
        Err(d) => Err(rendered(&d, &name, &src)),
    }
}

/// [`load`]s the program of a command that runs it; in exact and ball modes a
/// non-finite literal (`inf`, `nan`) anywhere in the elaborated entry point is an error at
/// its position, evaluated or not (docs/language.md, "Non-finite literals").
pub fn load_run(a: &RunArgs) -> Result<Loaded, CliError> {
    load_run_with(a, true)
}

/// [`load_run`], printing the checker's warnings only when `warn`.
pub fn load_run_with(a: &RunArgs, warn: bool) -> Result<Loaded, CliError> {
    let l = load_with(&a.file, &a.entry, Sizing::of_run(a), warn)?;
    if a.numeric != super::Numeric::F64 {
        let first = adora_core::visit::subexprs(&l.func.body)
            .into_iter()
            .find_map(|e| match &e.kind {
                ExprKind::Lit(Lit::NonFinite(x)) => Some((*x, e.span)),
                _ => None,
            });
        if let Some((x, span)) = first {
            let d = Diagnostic::new(
                ErrorKind::NonRational,
                span,
                adora_semantics::scalar::non_finite_message(x),
            );
            return Err(rendered(&d, &l.file, &l.src));
        }
    }
    Ok(l)
}

/// Parses `text` as a literal of type `ty`; `what` names it in errors.
pub fn literal<S: Scalar>(what: &str, text: &str, ty: &Type) -> Result<Value<S>, CliError> {
    let e = adora_core::parser::parse_literal(text).map_err(|d| rendered(&d, what, text))?;
    adora_semantics::io::value_from_expr::<S>(&e, ty).map_err(|d| rendered(&d, what, text))
}

/// Splits `name=literal`; a malformed value is an error that names the flag and the value
/// (`--input x: expected NAME=LITERAL`).
pub fn split_assignment(flag: &str, s: &str) -> Result<(String, String), CliError> {
    match s.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() => Ok((n.trim().to_string(), v.to_string())),
        _ => Err(plain_error(
            ErrorKind::Input,
            format!("{flag} {s}: expected NAME=LITERAL"),
        )),
    }
}

/// Where an input value came from, for errors: `--input x=1` or `F.json: key "x"`.
fn origin_of_flag(flag: &str, s: &str) -> String {
    format!("{flag} {s}")
}

fn origin_of_key(path: &Path, name: &str) -> String {
    format!("{}: key {name:?}", path.display())
}

/// The error for a name that is not a parameter of `l`'s entry point, at `origin`.
pub fn unknown_input(l: &Loaded, origin: &str, name: &str) -> CliError {
    let names: Vec<_> = l
        .func
        .params
        .iter()
        .map(|p| format!("{}: {}", p.name, p.ty))
        .collect();
    plain_error(
        ErrorKind::Input,
        format!(
            "{origin}: `{}` has no input `{name}` (its inputs: {})",
            l.func.name,
            names.join(", ")
        ),
    )
}

/// The values of the entry point's parameters, from `--input` flags and `--inputs` JSON.
/// Every parameter must be given exactly once; unknown names are errors. Every error
/// names where the offending value was given: the flag and its value (`--input x=1`, a
/// literal's errors with `--input x:LINE:COL`) or the JSON file and key (`F.json: key
/// "x"`).
pub fn inputs<S: Scalar>(l: &Loaded, args: &RunArgs) -> Result<Vec<Value<S>>, CliError> {
    let params = &l.func.params;
    let mut values: Vec<Option<Value<S>>> = vec![None; params.len()];
    let mut origins: Vec<Option<String>> = vec![None; params.len()];
    let index_of = |origin: &str, name: &str| -> Result<usize, CliError> {
        params
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| unknown_input(l, origin, name))
    };
    if let Some(path) = &args.inputs_json {
        let text = std::fs::read_to_string(path).map_err(|e| {
            plain_error(
                ErrorKind::Input,
                format!("cannot read `{}`: {e}", path.display()),
            )
        })?;
        let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            CliError::new(
                ErrorKind::Input,
                format!(
                    "{}:{}:{}: error[input]: invalid JSON: {e}\n",
                    path.display(),
                    e.line(),
                    e.column()
                ),
            )
        })?;
        let obj = json.as_object().ok_or_else(|| {
            plain_error(
                ErrorKind::Input,
                format!("{}: expected a JSON object of inputs", path.display()),
            )
        })?;
        for (name, j) in obj {
            let origin = origin_of_key(path, name);
            let k = index_of(&origin, name)?;
            // `value_from_json` starts its messages with `origin`.
            let v = adora_semantics::io::value_from_json_with::<S>(
                j,
                &params[k].ty,
                &origin,
                args.json_numbers.into(),
            )
            .map_err(|d| plain_error(d.kind, d.message))?;
            values[k] = Some(v);
            origins[k] = Some(origin);
        }
    }
    for s in &args.inputs {
        let (name, text) = split_assignment("--input", s)?;
        let origin = origin_of_flag("--input", s);
        let k = index_of(&origin, &name)?;
        if let Some(first) = &origins[k] {
            return Err(plain_error(
                ErrorKind::Input,
                format!("{origin}: input `{name}` is given twice (first by {first})"),
            ));
        }
        values[k] = Some(literal(&format!("--input {name}"), &text, &params[k].ty)?);
        origins[k] = Some(origin);
    }
    let missing: Vec<String> = params
        .iter()
        .zip(&values)
        .filter(|(_, v)| v.is_none())
        .map(|(p, _)| format!("`{}: {}`", p.name, p.ty))
        .collect();
    if !missing.is_empty() {
        return Err(plain_error(
            ErrorKind::Input,
            format!(
                "missing input {} (give --input NAME=LITERAL or --inputs FILE.json)",
                missing.join(", ")
            ),
        ));
    }
    Ok(values
        .into_iter()
        .map(|v| v.expect("checked above"))
        .collect())
}

/// Renders an evaluation or engine error against the program's source (an error without
/// a source position as `error[code]: message`, with its notes).
pub fn render(l: &Loaded, d: &Diagnostic) -> CliError {
    if d.span == Span::DUMMY {
        let mut text = format!("error[{}]: {}\n", d.kind.code(), d.message);
        for n in &d.notes {
            text.push_str(&format!("  = note: {n}\n"));
        }
        CliError::new(d.kind, text)
    } else {
        rendered(d, &l.file, &l.src)
    }
}
