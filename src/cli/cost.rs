//! `adora cost FILE [--engine E]`: cost-model counts of a program (and, for engines that
//! produce a derivative program, of that program and the ratios).

use super::diff::select_engines;
use super::inputs::{self, render};
use super::{Format, RunArgs};
use adora_core::diag::ErrorKind;
use adora_costmodel::Costs;
use adora_semantics::Rat;
use serde_json::json;

/// `adora cost`.
pub fn cost(a: &RunArgs) -> Result<(), String> {
    select_engines(&a.engine)?;
    if a.numeric != super::Numeric::Exact {
        return Err(inputs::plain_error(
            ErrorKind::Input,
            "cost models count operations of exact evaluation; drop --numeric",
        ));
    }
    let l = inputs::load(&a.file, &a.entry)?;
    let given = !a.inputs.is_empty() || a.inputs_json.is_some();
    let xs = if given {
        inputs::inputs::<Rat>(&l, a)?
    } else {
        adora_costmodel::default_inputs(&l.func)
    };
    let opts = super::diff::options(a);
    let primal = adora_costmodel::measure(&l.func, &xs, &opts).map_err(|d| render(&l, &d))?;
    // The reference engine differentiates by evaluation and produces no derivative program,
    // so only the primal's costs exist; program-producing engines add "gradient" and "ratio".
    match a.format {
        Format::Json => println!("{}", json!({"primal": primal.to_json()})),
        Format::Text => {
            if !given {
                println!("inputs: deterministic defaults (give --input to choose them)");
            }
            print_costs("primal", &primal);
            if a.engine == "reference" {
                println!("(engine `reference` computes derivatives by evaluation: it has no derivative program to cost)");
            }
        }
    }
    Ok(())
}

fn print_costs(title: &str, c: &Costs) {
    println!(
        "{title}: ops {}  work {}  span {}  mem {}",
        c.ops, c.work, c.span, c.mem
    );
}
