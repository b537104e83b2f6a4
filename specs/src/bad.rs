//! Running a bad case: the program (or one of its inputs, or its evaluation) must fail
//! with the stated error code, at the stated position, with the stated message substring.

use crate::case::{Case, ExpectedError, Numeric};
use crate::golden::options;
use adora_core::diag::{line_col, Diagnostic};
use adora_semantics::eval::eval;
use adora_semantics::io;
use adora_semantics::scalar::Scalar;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The first error a case produces, in pipeline order: loading (parse, check, elaborate),
/// then each input literal (parse, convert; spans mapped from the literal into the file),
/// then evaluation in the case's mode. `Ok(Some(d))` is that error with its span in file
/// coordinates; `Ok(None)` means everything ran; `Err` describes a problem with the case
/// itself (a missing input).
pub fn first_error(case: &Case) -> Result<Option<Diagnostic>, String> {
    let f = match crate::sized::load(case) {
        Ok(f) => f,
        Err(d) => return Ok(Some(d)),
    };
    match case.numeric {
        Numeric::Exact => eval_error::<Rat>(case, &f),
        Numeric::F64 { .. } => eval_error::<f64>(case, &f),
        Numeric::Ball { precision, .. } => {
            let _p = adora_semantics::scalar::interval::PrecisionScope::new(precision as usize);
            eval_error::<adora_semantics::scalar::Interval>(case, &f)
        }
    }
}

fn eval_error<S: Scalar>(
    case: &Case,
    f: &adora_core::Function,
) -> Result<Option<Diagnostic>, String> {
    let mut inputs: Vec<Value<S>> = Vec::new();
    for p in &f.params {
        let Some(l) = case.inputs.iter().find(|l| l.name == p.name) else {
            return Err(format!(
                "no `-- input: {} = ...` line (parameter `{}: {}`)",
                p.name, p.name, p.ty
            ));
        };
        let shift = |mut d: Diagnostic| {
            d.span = adora_core::Span::new(d.span.start + l.lit.offset, d.span.end + l.lit.offset);
            d
        };
        let e = match adora_core::parser::parse_expr(&l.lit.text) {
            Ok(e) => e,
            Err(d) => return Ok(Some(shift(d))),
        };
        match io::value_from_expr::<S>(&e, &p.ty) {
            Ok(v) => inputs.push(v),
            Err(d) => return Ok(Some(shift(d))),
        }
    }
    match eval::<S>(f, &inputs, &options(case)) {
        Ok(_) => Ok(None),
        Err(d) => Ok(Some(d)),
    }
}

/// Checks a bad case: `Ok` when its first error has the expected code, starts at the
/// expected position and contains the expected message substring; otherwise a report
/// naming the file, what was expected and what happened (rendered diagnostic included).
/// Panics inside Adora are caught and reported. Runs on a large stack.
pub fn run_bad_case(case: &Case) -> Result<(), String> {
    let name = case.name();
    let Some(want) = &case.error else {
        return Err(format!(
            "{name}: a bad case needs `-- error:`, `-- at:` and `-- message:` lines"
        ));
    };
    let result = catch_unwind(AssertUnwindSafe(|| {
        adora_core::with_stack(|| first_error(case))
    }));
    let got = match result {
        Ok(Ok(got)) => got,
        Ok(Err(problem)) => return Err(format!("{name}: {problem}")),
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "(no message)".to_string());
            return Err(format!("{name}: panicked: {msg}"));
        }
    };
    match got {
        None => Err(format!(
            "{name}: expected error[{}] at {}:{} but the program ran without error",
            want.code, want.line, want.col
        )),
        Some(d) => check_error(&name, &case.source, want, &d),
    }
}

/// Compares one diagnostic with the expectation (all three parts, reported together).
pub fn check_error(
    name: &str,
    source: &str,
    want: &ExpectedError,
    d: &Diagnostic,
) -> Result<(), String> {
    let (line, col) = line_col(source, d.span.start);
    let mut problems = Vec::new();
    if d.kind.code() != want.code {
        problems.push(format!(
            "code: expected `{}` but got `{}`",
            want.code,
            d.kind.code()
        ));
    }
    if (line, col) != (want.line, want.col) {
        problems.push(format!(
            "position: expected {}:{} but got {line}:{col}",
            want.line, want.col
        ));
    }
    if !d.message.contains(&want.message) {
        problems.push(format!(
            "message: expected a substring `{}` of `{}`",
            want.message, d.message
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        let rendered = d.render(name, source);
        Err(format!(
            "{name}: {}\n{}",
            problems.join("; "),
            rendered.trim_end()
        ))
    }
}
