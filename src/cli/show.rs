//! `adora show FILE --stage S`: the program after a named stage, as valid source.

use super::error::CliError;
use super::inputs;
use adora_core::diag::ErrorKind;
use std::path::Path;

/// The stages `show` knows, in pipeline order.
pub const STAGES: &[(&str, &str)] = &[
    ("parse", "the program as parsed (all defs)"),
    (
        "inline",
        "the elaborated entry point: calls inlined, literals typed, broadcasts explicit",
    ),
    (
        "bot",
        "after the bulk-operation transform (seed 000 §5): no build, indexing only of variables, constants, appends and scatters",
    ),
    (
        "delta",
        "the dual-arrays forward derivative in the separated form of seed 000 Eq. (6): primal bindings, then the symbolic Delta",
    ),
    (
        "grad",
        "the gradient program of engine `dual` (seed 000 §7.5): inputs plus the cotangent `dret`, result (value, gradients)",
    ),
];

/// `adora show`.
pub fn show(file: &Path, stage: &str, entry: &str) -> Result<(), CliError> {
    match stage {
        "parse" => {
            let src = inputs::read_source(file)?;
            let p = adora_core::parse(&src)
                .map_err(|d| inputs::rendered(&d, &file.display().to_string(), &src))?;
            print!("{}", adora_core::pretty::program(&p));
        }
        "inline" => {
            let l = inputs::load(file, entry)?;
            print!("{}", adora_core::pretty::function(&l.func));
        }
        "bot" | "delta" | "grad" => {
            let l = inputs::load(file, entry)?;
            let text = match stage {
                "bot" => adora_rewrites::bot::show(&l.func),
                "delta" => adora_rewrites::dual::delta_text(&l.func),
                _ => adora_rewrites::dual::gradient_text(&l.func),
            }
            .map_err(|d| inputs::render(&l, &d))?;
            print!("{text}");
            if !text.ends_with('\n') {
                println!();
            }
        }
        other => {
            let list: Vec<String> = STAGES.iter().map(|(n, w)| format!("  {n}: {w}")).collect();
            return Err(inputs::plain_error(
                ErrorKind::Input,
                format!(
                    "unknown stage `{other}`; available stages:\n{}",
                    list.join("\n")
                ),
            ));
        }
    }
    Ok(())
}

/// `adora linearize`: the Linear A program of the entry point's JVP.
pub fn linearize(file: &Path, entry: &str) -> Result<(), CliError> {
    let l = inputs::load(file, entry)?;
    let lp = adora_rewrites::linear::linearize(&l.func).map_err(|d| inputs::render(&l, &d))?;
    print!("{}", adora_core::linear::print::program(&lp));
    Ok(())
}

/// `adora transpose`: the transpose of a Linear A `def`.
pub fn transpose(file: &Path, entry: &str) -> Result<(), CliError> {
    let src = inputs::read_source(file)?;
    let out = adora_rewrites::linear::transpose_source(&src, entry)
        .map_err(|d| inputs::rendered(&d, &file.display().to_string(), &src))?;
    print!("{out}");
    if !out.ends_with('\n') {
        println!();
    }
    Ok(())
}
