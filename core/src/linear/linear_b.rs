//! The Linear B restriction (seed 002 Definition 6.1), checked separately from Fig. 4:
//!
//! 1. every def and every expression returns either only non-linear or only linear
//!    results (an expression with no results is both);
//! 2. an expression that returns non-linear results reads no linear variable, not even
//!    to `drop` it.
//!
//! Transposition ([§7]) takes Linear B: the non-linear part of a Linear B expression can
//! run forward as it is while the linear part runs backward.

use super::ast::{LExpr, LKind, LinearProgram};
use super::check::{check_program, DefTypes, ProgramTypes};
use super::visit::{arity, free_vars};
use crate::ast::Name;
use crate::diag::{Diagnostic, ErrorKind, Result};
use std::collections::HashMap;

/// Checks the program (Fig. 4) and then the Linear B restriction; returns the types.
pub fn check_linear_b(p: &LinearProgram) -> Result<ProgramTypes> {
    let types = check_program(p)?;
    let sigs = super::visit::signatures(p);
    for d in &p.defs {
        if !d.ret.is_empty() && !d.lret.is_empty() {
            return Err(Diagnostic::new(
                ErrorKind::Type,
                d.span,
                format!(
                    "Linear B: `{}` returns both non-linear and linear results (unzip it first)",
                    d.name
                ),
            ));
        }
        let dt = types.def(&d.name);
        crate::with_stack(|| restrict(&d.body, &dt, &sigs))?;
    }
    Ok(types)
}

fn restrict(e: &LExpr, types: &DefTypes, sigs: &HashMap<Name, (usize, usize)>) -> Result<()> {
    let mut cur = e;
    loop {
        let (n, m) = arity(cur, sigs);
        if n > 0 && m > 0 {
            return Err(Diagnostic::new(
                ErrorKind::Type,
                cur.span,
                format!("Linear B: this expression returns {n} non-linear and {m} linear results (unzip it first)"),
            ));
        }
        if n > 0 {
            if let Some(v) = free_vars(cur).into_iter().find(|v| types.is_linear(v)) {
                return Err(Diagnostic::new(
                    ErrorKind::Type,
                    cur.span,
                    format!("Linear B: an expression with non-linear results reads the linear variable `{v}`"),
                ));
            }
            // Its sub-expressions read no linear variable either, and a let inside it
            // may bind only non-linear values: nothing more to check.
            return Ok(());
        }
        match &cur.kind {
            LKind::Let(_, bound, body) => {
                restrict(bound, types, sigs)?;
                cur = body;
            }
            LKind::Unpack(_, _, body) => cur = body,
            _ => return Ok(()),
        }
    }
}
