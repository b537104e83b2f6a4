//! Linearize, unzip, transpose: Linear A and the `linear` engine (seed 002, "You Only
//! Linearize Once"; the dialect itself lives in `adora_core::linear`).
//!
//! The pipeline, one module per transformation (rule tables in each module and in
//! `docs/engines/linear.md`):
//!
//! * [`anf`]: an elaborated core function as a non-linear Linear A def (A-normal form);
//! * [`jvp`]: forward differentiation `J` into Linear A (§5, Theorem 5.1);
//! * [`repair`]: the explicit `dup`s and `drop`s of the substructural discipline;
//! * [`rules`]: the named JVP and transpose rule registries;
//! * [`unzip`]: `U` into Linear B with a [`unzip::Checkpoint`] policy (§6);
//! * [`transpose`]: `T` of a linear Linear B def (§7, Theorem 7.1);
//! * [`erase`]: linearity erasure `E` (§4.5, Lemma 4.4);
//! * [`lower`]: non-linear Linear A to an elaborated core function;
//! * [`interp`]: a direct interpreter counting `lin` work;
//! * [`program`]: its derivative programs (JVP; VJP = primal half and transpose composed);
//! * [`engine`]: the `linear` engine ([`engine::Linear`]: `grad`, `jvp`, `vjp`).
//!
//! User-facing entry points: [`linearize`] (`adora linearize FILE`) and
//! [`transpose_source`] (`adora transpose FILE`).

pub mod anf;
pub mod engine;
pub mod erase;
pub mod interp;
pub mod jvp;
pub mod lower;
pub mod program;
pub mod repair;
pub mod rules;
pub mod tangent;
pub mod transpose;
pub mod unzip;
pub mod util;
pub mod values;

pub use engine::{linearize, Linear};
pub use unzip::Checkpoint;

use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::linear::{check_linear_b, check_program, parse_program, print};

/// `adora transpose FILE`: parses a Linear A program, checks it, and transposes its def
/// `entry` (which must return only linear results). A def that is not in Linear B is
/// unzipped first (recomputing its non-linear intermediates, so the transposed def needs
/// no tape). Returns the printed program: the input defs followed by the new ones (the
/// transpose of `entry` is `entry_t`, or `entry_lin_t` after unzipping).
pub fn transpose_source(src: &str, entry: &str) -> Result<String> {
    let p = parse_program(src)?;
    check_program(&p)?;
    let d = p.def(entry).ok_or_else(|| {
        let names: Vec<&str> = p.defs.iter().map(|d| d.name.as_str()).collect();
        Diagnostic::new(
            ErrorKind::Name,
            Span::DUMMY,
            format!(
                "no def named `{entry}`; the program defines: {}",
                names.join(", ")
            ),
        )
    })?;
    if !d.ret.is_empty() {
        return Err(Diagnostic::new(
            ErrorKind::Type,
            d.span,
            format!(
                "`{entry}` returns non-linear results; transposition needs a def with only linear results"
            ),
        ));
    }
    let t = match check_linear_b(&p) {
        Ok(_) => transpose::transpose_program(&p, entry)?,
        Err(_) => {
            let u = unzip::unzip_program(&p, &Checkpoint::RecomputeAll)?;
            transpose::transpose_program(&u, &unzip::lin_name(entry))?
        }
    };
    Ok(print::program(&t))
}
