//! Pretty-printer: programs, functions and expressions back to concrete syntax that parses
//! to the same tree.
use crate::ast::{Expr, Function, Program};

/// Prints a whole program.
pub fn program(p: &Program) -> String {
    let _ = p;
    todo!("pretty")
}

/// Prints an elaborated function as a `def`.
pub fn function(f: &Function) -> String {
    let _ = f;
    todo!("pretty")
}

/// Prints one expression.
pub fn expr(e: &Expr) -> String {
    let _ = e;
    todo!("pretty")
}
