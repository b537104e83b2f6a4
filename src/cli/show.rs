//! `adora show FILE --stage S`: the program after a named stage, as valid source.

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
];

/// `adora show`.
pub fn show(file: &Path, stage: &str, entry: &str) -> Result<(), String> {
    match stage {
        "parse" => {
            let src = inputs::read_source(file)?;
            let p =
                adora_core::parse(&src).map_err(|d| d.render(&file.display().to_string(), &src))?;
            print!("{}", adora_core::pretty::program(&p));
        }
        "inline" => {
            let l = inputs::load(file, entry)?;
            print!("{}", adora_core::pretty::function(&l.func));
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
