//! Printed-program headers: a golden case can state the exact program an engine derives
//! from it, and the runner checks both the text and its meaning.
//!
//! ```text
//! -- gradient-program[dual]:
//! -- | def main(x: R[5], dret: R) -> (R, R[5]) =
//! -- |   let t_1 = gather([5], x, i => [4 - i]) in
//! -- |   ...
//! ```
//!
//! The header line `-- KIND[ENGINE]:` (nothing after the colon) is followed by the
//! program, one source line per `-- |` comment line (the `-- |` and one space after it
//! are removed; the block ends at the first line that is not `-- |`). Kinds:
//!
//! * `gradient-program`: the engine's VJP derivative program (`Engine::program` with
//!   `Question::Vjp`, printed: what `adora show --engine E --stage vjp` prints; for
//!   scalar results also `--stage grad`), for any registered engine that derives one.
//!   For `dual` its signature is the wrapper's (seed 000 §7.5): the entry point's
//!   parameters followed by the output cotangent, returning the value and the gradient
//!   of each parameter that contains reals, in order (the value alone when there is
//!   none).
//!
//! The runner checks (1) that the engine prints exactly this text (lines compared after
//! removing trailing blanks; a mismatch shows both programs), and (2) that the printed
//! program — parsed, checked and evaluated through the engine harness with the engine's
//! signature on the case's inputs and a cotangent of `1` (scalar `R` results) or the
//! case's `-- cotangent:` — returns the case's `-- value:` and its `-- grad:` (or
//! `-- vjp:`) expectations.

use crate::case::Case;
use crate::compare::{literal_value, show, values_agree, Mode};
use crate::engine::harness::{self, Answer, Query};
use crate::engine::Question;
use adora_core::ast::Function;
use adora_core::types::Type;
use adora_rewrites::engine::{self, DerivativeProgram};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;

/// The printed-program kinds a header may name.
pub const PRINTED_KINDS: &[&str] = &["gradient-program"];

/// A printed program stated by a case's headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintedProgram {
    /// The kind (one of [`PRINTED_KINDS`]).
    pub kind: String,
    /// The engine that prints it.
    pub engine: String,
    /// The program text (lines joined with `\n`, ending with a newline).
    pub text: String,
    /// 1-based line of the `-- KIND[ENGINE]:` header.
    pub line: usize,
}

/// Parses `KIND[ENGINE]:` (the text after `--`); `None` when the comment is not a
/// printed-program header, `Some(Err)` when it looks like one but is malformed.
pub fn header(rest: &str) -> Option<Result<(String, String), String>> {
    let rest = rest.trim();
    let open = rest.find('[')?;
    let kind = &rest[..open];
    if kind.is_empty() || !kind.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
        return None;
    }
    if !PRINTED_KINDS.contains(&kind) {
        // Free text (`-- perm[k], so ...`), unless it looks like a misspelt kind.
        return kind.ends_with("-program").then(|| {
            Err(format!(
                "unknown printed-program kind `{kind}` (known: {})",
                PRINTED_KINDS.join(", ")
            ))
        });
    }
    let Some(close) = rest.find("]:") else {
        return Some(Err(format!("expected `-- {kind}[ENGINE]:`")));
    };
    let engine = &rest[open + 1..close];
    if engine.is_empty()
        || !engine
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
    {
        return Some(Err(format!("`{engine}` is not an engine name")));
    }
    if !rest[close + 2..].trim().is_empty() {
        return Some(Err(format!(
            "nothing may follow `-- {kind}[{engine}]:`; the program goes on `-- |` lines below it"
        )));
    }
    Some(Ok((kind.to_string(), engine.to_string())))
}

/// The program line of a `-- |` comment (`None` for any other line).
pub fn program_line(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("-- |")?;
    Some(rest.strip_prefix(' ').unwrap_or(rest))
}

/// The program engine `engine` derives as `kind` for `f` (`None`: no registered engine
/// of that name derives such a program).
pub fn program(
    kind: &str,
    engine: &str,
    f: &Function,
) -> Option<adora_core::Result<DerivativeProgram>> {
    let e = engine::find(engine)?;
    match kind {
        "gradient-program" if e.programs().contains(&Question::Vjp) => {
            Some(e.program(f, Question::Vjp))
        }
        _ => None,
    }
}

/// What engine `engine` prints as `kind` for `f`; `None` when no printer is known.
pub fn print(kind: &str, engine: &str, f: &Function) -> Option<adora_core::Result<String>> {
    program(kind, engine, f).map(|r| r.map(|dp| adora_core::pretty::function(&dp.function)))
}

fn normalise(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let mut s = lines.join("\n");
    while s.ends_with('\n') {
        s.pop();
    }
    s
}

/// The failures of one printed program of `case` (entry point `f`, evaluated inputs,
/// expected value and derivatives), and whether it was checked.
pub struct PrintedCheck {
    /// Disagreements, one message each.
    pub failures: Vec<String>,
    /// What was checked (`dual: gradient-program`).
    pub checked: Vec<String>,
}

/// Checks every printed program of `case` against the printers and the expectations:
/// `value` is the expected result, `grads` the `-- grad:` values per parameter (scalar
/// results), `vjps` the `-- vjp:` values (with `-- cotangent:`).
pub fn check<S: Mode>(
    case: &Case,
    f: &Function,
    inputs: &[Value<S>],
    value: &Value<S>,
    grads: Option<&[Option<Value<S>>]>,
    vjps: Option<&[Option<Value<S>>]>,
    opts: &EvalOptions,
) -> PrintedCheck {
    let mut out = PrintedCheck {
        failures: Vec::new(),
        checked: Vec::new(),
    };
    for p in &case.printed {
        let what = format!("{}[{}] (line {})", p.kind, p.engine, p.line);
        let Some(derived) = program(&p.kind, &p.engine, f) else {
            out.failures
                .push(format!("{what}: no printer for engine `{}`", p.engine));
            continue;
        };
        let dp = match derived {
            Ok(dp) => dp,
            Err(d) => {
                out.failures.push(format!("{what}: the engine fails: {d}"));
                continue;
            }
        };
        let text = adora_core::pretty::function(&dp.function);
        if normalise(&text) != normalise(&p.text) {
            out.failures.push(format!(
                "{what}: the engine prints\n{}\nbut the header says\n{}",
                normalise(&text),
                normalise(&p.text)
            ));
        }
        out.checked.push(format!("{}: {}", p.engine, p.kind));
        let g = match adora_core::load(&p.text, &dp.function.name) {
            Ok(g) => g,
            Err(d) => {
                out.failures.push(format!(
                    "{what}: the printed program does not load:\n{}",
                    d.render("printed", &p.text)
                ));
                continue;
            }
        };
        let (cotangent, want) = if f.ret == Type::real() {
            (Value::real(S::one()), grads)
        } else {
            match (&case.cotangent, vjps) {
                (Some(lit), Some(w)) => {
                    match literal_value::<S>(lit, &f.ret, &case.name(), &case.source) {
                        Ok(c) => (c, Some(w)),
                        Err(e) => {
                            out.failures.push(format!("{what}: {e}"));
                            continue;
                        }
                    }
                }
                _ => {
                    out.failures.push(format!(
                        "{what}: a program with a non-scalar result needs `-- cotangent:` and `-- vjp:` lines"
                    ));
                    continue;
                }
            }
        };
        // The printed program, read back, with the engine's signature.
        let printed = DerivativeProgram { function: g, ..dp };
        let query = Query::Vjp(cotangent);
        let (got_value, got_grads) = match harness::evaluate(&printed, f, inputs, &query, opts) {
            Ok(Answer::Gradient(g)) => (g.value, g.grads),
            Ok(Answer::Jvp(..)) => {
                out.failures.push(format!("{what}: evaluates to a JVP"));
                continue;
            }
            Err(d) => {
                out.failures.push(format!("{what}: evaluation fails: {d}"));
                continue;
            }
        };
        if !values_agree(&got_value, value, case.numeric) {
            out.failures.push(format!(
                "{what}: value: expected {} but got {}",
                show(value),
                show(&got_value)
            ));
        }
        if let Some(want) = want {
            for ((prm, w), g) in f.params.iter().zip(want).zip(&got_grads) {
                if let (Some(w), Some(g)) = (w, g) {
                    if !values_agree(g, w, case.numeric) {
                        out.failures.push(format!(
                            "{what}: gradient of `{}`: expected {} but got {}",
                            prm.name,
                            show(w),
                            show(g)
                        ));
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_case, run_case, specs_dir, Reference};
    use std::path::Path;

    fn fig18() -> String {
        std::fs::read_to_string(specs_dir().join("programs/dual/fig18.adl")).expect("fig18.adl")
    }

    #[test]
    fn a_printed_gradient_program_is_checked_by_text_and_by_value() {
        let text = fig18();
        let case = parse_case(Path::new("fig18.adl"), &text).expect("parses");
        assert_eq!(case.printed.len(), 1);
        assert!(case.printed[0]
            .text
            .starts_with("def main(x: R[5], dret: R) -> (R, R[5]) =\n"));
        let out = run_case(&case, &[&Reference]);
        assert!(out.passed(), "{:?}", out.failures);
        assert!(
            out.checked.iter().any(|c| c == "dual: gradient-program"),
            "{:?}",
            out.checked
        );
    }

    #[test]
    fn a_different_text_or_a_wrong_expectation_fails() {
        let text = fig18().replace(
            "let ct_1 = replicate(5, dret) in",
            "let ct_1 = replicate(5, dret + 0.0) in",
        );
        let case = parse_case(Path::new("fig18.adl"), &text).expect("parses");
        let out = run_case(&case, &[&Reference]);
        assert!(
            out.failures.iter().any(|f| f.contains("the engine prints")),
            "{:?}",
            out.failures
        );
        let text = fig18().replace(
            "-- grad: x = [10, 8, 6, 4, 2]",
            "-- grad: x = [10, 8, 6, 4, 3]",
        );
        let case = parse_case(Path::new("fig18.adl"), &text).expect("parses");
        let out = run_case(&case, &[&Reference]);
        assert!(
            out.failures
                .iter()
                .any(|f| f.contains("gradient-program[dual]") && f.contains("gradient of `x`")),
            "{:?}",
            out.failures
        );
    }

    #[test]
    fn malformed_blocks_are_rejected() {
        let base = "-- input: x = 1\n-- value: 1\n";
        let code = "def main(x: R) -> R = x\n";
        let e = parse_case(
            Path::new("t.adl"),
            &format!("{base}-- gradient-program[dual]:\n{code}"),
        )
        .unwrap_err();
        assert!(e.contains("t.adl:3:") && e.contains("`-- |` lines"), "{e}");
        let block =
            "-- gradient-program[dual]:\n-- | def main(x: R, dret: R) -> (R, R) = (x, dret)\n";
        let e = parse_case(Path::new("t.adl"), &format!("{base}{block}{block}{code}")).unwrap_err();
        assert!(e.contains("second"), "{e}");
        let e = parse_case(
            Path::new("t.adl"),
            &format!("{base}-- gradient-progam-program[dual]:\n{code}"),
        )
        .unwrap_err();
        assert!(e.contains("unknown printed-program kind"), "{e}");
        let ok = parse_case(Path::new("t.adl"), &format!("{base}{block}{code}")).expect("parses");
        assert_eq!(
            ok.printed[0].text,
            "def main(x: R, dret: R) -> (R, R) = (x, dret)\n"
        );
    }

    #[test]
    fn headers_parse_and_reject() {
        assert_eq!(
            header(" gradient-program[dual]:"),
            Some(Ok(("gradient-program".into(), "dual".into())))
        );
        assert_eq!(header("a free comment"), None);
        assert_eq!(header(" perm[k], so u[k, i, j] = t[i, j, k])"), None);
        assert!(matches!(header("gradient-program[dual]: x"), Some(Err(_))));
        assert!(matches!(header("derivative-program[dual]:"), Some(Err(_))));
        assert!(matches!(header("gradient-program[du al]:"), Some(Err(_))));
        assert_eq!(program_line("-- |   let x = 1 in"), Some("  let x = 1 in"));
        assert_eq!(program_line("-- |"), Some(""));
        assert_eq!(program_line("-- input: x = 1"), None);
    }
}
