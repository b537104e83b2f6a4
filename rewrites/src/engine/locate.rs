//! Source positions for engine errors that have none (docs/architecture.md, "Errors of
//! engines").
//!
//! An engine evaluates a program it generated (`dual`'s and `linear`'s derivative
//! programs, bot's normal form): a division by zero under `--strict`, `exp` in exact
//! mode, an integer overflow, the step limit or the rational-size limit met there is a
//! `Diagnostic` at `Span::DUMMY`, because generated nodes carry no source span. Rather
//! than thread spans through every transformation, the harness locates such an error by
//! re-asking the same question of the reference (exact forward mode on the *original*
//! program, the ground truth): when the reference fails with an error of the same kind,
//! its position is the position of the engine's error. When the reference answers (the
//! engine's program took more steps, say), the error is placed at the body of the entry
//! point with a note saying so. This costs nothing on success and one reference
//! evaluation on failure.

use super::harness::{answer_by, Mode, Query, Route};
use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind, Span};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;

/// Whether `d` is an error about the program or its inputs that lacks a position
/// (internal errors and declined programs are not located: they are not about the
/// user's program's evaluation).
pub fn needs_position(d: &Diagnostic) -> bool {
    d.span == Span::DUMMY && !matches!(d.kind, ErrorKind::Internal | ErrorKind::Unsupported)
}

/// `d` (an error of engine `engine` without a position, [`needs_position`]) with a source
/// position in `f`: the reference's position of the same error, else the body of `f`.
pub fn locate<S: Mode>(
    engine: &str,
    d: Diagnostic,
    f: &Function,
    inputs: &[Value<S>],
    query: &Query<S>,
    opts: &EvalOptions,
) -> Diagnostic {
    let reference = super::reference();
    let found = answer_by(reference.as_ref(), Route::Runtime, f, inputs, query, opts);
    let mut d = d;
    match found {
        Err(r) if r.kind == d.kind && r.span != Span::DUMMY => {
            d.span = r.span;
            d.notes.push(format!(
                "position found by the reference on the source program (engine `{engine}` met this error in the program it generated, which has no source positions)"
            ));
        }
        _ => {
            d.span = f.body.span;
            d.notes.push(format!(
                "engine `{engine}` met this error in the program it generated, which has no source positions; the reference does not meet it, so the position is the body of `{}`",
                f.name
            ));
        }
    }
    d
}
