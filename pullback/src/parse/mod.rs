//! The parser of the pullback calculus's concrete syntax (docs/engines/pullback.md,
//! "Concrete syntax"): the grammar the printer ([`crate::print`]) writes, plus the sugar
//! of the paper (Mak and Ong, A Differential-form Pullback Programming Language for
//! Higher-order Reverse-mode AD, §3.1): pattern abstractions `\(x, y). s`, the 1-form
//! `omega`, tuples `(a, b, c)` as right-nested pairs, and `--` comments.
//!
//! Every binder gets a fresh id and every occurrence resolves to its binder; free
//! variables have id 0. Errors are [`Diagnostic`]s with a span into the source:
//! `syntax` for malformed text, `name` for unknown function symbols and (in
//! [`term_closed`]) unbound variables, `resource` when the nesting is deeper than
//! [`MAX_DEPTH`].

mod lexer;
mod parser;

use crate::syntax::{Term, Ty};
use adora_core::diag::Diagnostic;

pub use parser::MAX_DEPTH;

/// Parses a term; free variables are allowed (id 0).
pub fn term(src: &str) -> Result<Term, Diagnostic> {
    parser::parse_term(src, false)
}

/// Parses a term that must be closed: an unbound name is a `name` error at its span.
pub fn term_closed(src: &str) -> Result<Term, Diagnostic> {
    parser::parse_term(src, true)
}

/// Parses a type (`R`, `(σ, τ)`, `σ -> τ`, `dual σ`).
pub fn ty(src: &str) -> Result<Ty, Diagnostic> {
    parser::parse_ty(src)
}
