//! Loading a case whose entry point has size parameters: its `-- input:` literals bind
//! the sizes (docs/language.md, "Size parameters"), as `--input` does on the command line.

use crate::case::Case;
use adora_core::ast::{Expr, Function, Name, Program};
use adora_core::diag::Result;

/// The case's input literals that parse (the others bind nothing; reading the inputs
/// reports their errors).
fn literals(case: &Case) -> Vec<(Name, Expr)> {
    case.inputs
        .iter()
        .filter_map(|l| {
            let e = adora_core::parser::parse_literal(&l.lit.text).ok()?;
            Some((l.name.clone(), e))
        })
        .collect()
}

/// Parses, checks and elaborates the case's program at its entry point, instantiated at
/// the sizes of its inputs when it has size parameters.
pub fn load(case: &Case) -> Result<Function> {
    adora_core::sizes::load_for_literals(&case.source, &case.entry, &literals(case))
}

/// The case's surface program, instantiated at the sizes of its inputs when its entry
/// point has size parameters.
pub fn parse(case: &Case) -> Result<Program> {
    let Some(sig) = adora_core::sizes::signature(&case.source, &case.entry)? else {
        return adora_core::parse(&case.source);
    };
    let given: Vec<adora_core::sizes::Given> = literals(case)
        .iter()
        .filter_map(|(n, e)| {
            let p = sig.params.iter().find(|p| p.name == *n)?;
            Some(adora_core::sizes::Given {
                param: n.clone(),
                shape: adora_core::sizes::shape_of_literal(e, &p.ty),
                origin: String::new(),
            })
        })
        .collect();
    let sizes = sig.bind(&[], &given)?;
    adora_core::parser::parse_program_sized(&case.source, &case.entry, &sizes)
}
