//! Recursive-descent / Pratt parser for the concrete syntax of DESIGN §2.1.
use crate::ast::{Expr, Program};
use crate::diag::Result;
use crate::types::Type;

/// Parses a whole file (a list of `def`s).
pub fn parse_program(src: &str) -> Result<Program> {
    let _ = src;
    todo!("parser")
}

/// Parses a single expression (used for command-line literals and tests).
pub fn parse_expr(src: &str) -> Result<Expr> {
    let _ = src;
    todo!("parser")
}

/// Parses a type such as `R[2,3]` or `(R, Z[4])`.
pub fn parse_type(src: &str) -> Result<Type> {
    let _ = src;
    todo!("parser")
}
