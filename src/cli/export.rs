//! `adora export F --to jax|pytorch`: the program and its inputs as a self-contained
//! Python module (docs/oracle.md, "Export").

use super::error::CliError;
use super::inputs::{self, render, Loaded};
use super::{Numeric, RunArgs};
use crate::export::{self, Input, Target};
use adora_core::types::Base;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use clap::ValueEnum;
use num_traits::ToPrimitive;
use std::path::PathBuf;

/// The systems `--to` and `--against` name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TargetArg {
    /// JAX (float64, CPU).
    Jax,
    /// PyTorch (float64).
    Pytorch,
}

impl From<TargetArg> for Target {
    fn from(t: TargetArg) -> Target {
        match t {
            TargetArg::Jax => Target::Jax,
            TargetArg::Pytorch => Target::Pytorch,
        }
    }
}

/// `adora export`: prints the module, or writes it to `output`.
pub fn export(a: &RunArgs, to: TargetArg, output: Option<&PathBuf>) -> Result<(), CliError> {
    if a.numeric == Numeric::Ball {
        return Err(super::cost::ball_unsupported("export"));
    }
    let l = inputs::load_run(a)?;
    let text = module(&l, a, to.into())?;
    match output {
        None => print!("{text}"),
        Some(p) => std::fs::write(p, text).map_err(|e| {
            inputs::plain_error(
                adora_core::diag::ErrorKind::Input,
                format!("--output {}: cannot write: {e}", p.display()),
            )
        })?,
    }
    Ok(())
}

/// The module of the loaded program `l` on the inputs of `a`, for `target`.
pub fn module(l: &Loaded, a: &RunArgs, target: Target) -> Result<String, CliError> {
    let ins = export_inputs(l, a)?;
    export::module(&l.func, &ins, target, a.numeric == Numeric::Exact, &l.file)
        .map_err(|d| render(l, &d))
}

/// The inputs of `a` for `l`, exact and as the doubles used.
pub fn export_inputs(l: &Loaded, a: &RunArgs) -> Result<Vec<Input>, CliError> {
    let names: Vec<String> = l.func.params.iter().map(|p| p.name.clone()).collect();
    let mut out = Vec::new();
    match a.numeric {
        Numeric::Ball => return Err(super::cost::ball_unsupported("export")),
        Numeric::Exact => {
            let xs = inputs::inputs::<Rat>(l, a)?;
            for (n, v) in names.iter().zip(&xs) {
                flatten(
                    n,
                    v,
                    &|r: &Rat| (r.to_string(), double_text(r.to_f64().unwrap_or(f64::NAN))),
                    &mut out,
                );
            }
        }
        Numeric::F64 => {
            let xs = inputs::inputs::<f64>(l, a)?;
            for (n, v) in names.iter().zip(&xs) {
                flatten(
                    n,
                    v,
                    &|x: &f64| {
                        let exact = match Rat::from_float(*x) {
                            Some(r) => r.to_string(),
                            None => double_text(*x),
                        };
                        (exact, double_text(*x))
                    },
                    &mut out,
                );
            }
        }
    }
    Ok(out)
}

/// A double as text Python's `float` reads back exactly (Rust's shortest round-trip form).
fn double_text(x: f64) -> String {
    if x.is_nan() {
        "nan".to_string()
    } else {
        format!("{x:?}")
    }
}

/// The leaves of the input `name = v` appended to `out`: the value itself, or for a tuple
/// its components `name.0`, `name.1`, … depth first (the module's `PARAMS` regroups them).
fn flatten<S>(
    name: &str,
    v: &Value<S>,
    real: &dyn Fn(&S) -> (String, String),
    out: &mut Vec<Input>,
) {
    let (base, shape, exact, used): (Base, Vec<usize>, Vec<String>, Vec<String>) = match v {
        Value::Real(t) => {
            let (e, u) = t.data.iter().map(real).unzip();
            (Base::R, t.shape.clone(), e, u)
        }
        Value::Int(t) => {
            let e: Vec<String> = t.data.iter().map(|n| n.to_string()).collect();
            (Base::Z, t.shape.clone(), e.clone(), e)
        }
        Value::Bool(t) => {
            let e: Vec<String> = t.data.iter().map(|b| b.to_string()).collect();
            (Base::B, t.shape.clone(), e.clone(), e)
        }
        Value::Tuple(vs) => {
            for (k, c) in vs.iter().enumerate() {
                flatten(&format!("{name}.{k}"), c, real, out);
            }
            return;
        }
    };
    out.push(Input {
        name: name.to_string(),
        base,
        shape,
        exact,
        used,
    });
}
