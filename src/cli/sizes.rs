//! Size parameters on the command line (docs/language.md, "Size parameters"): the entry
//! point's size names are bound from the shapes of `--input`/`--inputs` values and from
//! `--size NAME=N`, before the program is parsed at those sizes.

use super::error::CliError;
use super::inputs::{plain_error, rendered, split_assignment};
use super::RunArgs;
use adora_core::diag::ErrorKind;
use adora_core::sizes::{self, Given, Shaped, Sizes, SymType};
use std::path::Path;

/// Where the sizes of one command come from: `--size` flags and, for commands that run
/// the program, its inputs.
#[derive(Clone, Copy)]
pub struct Sizing<'a> {
    /// The `--size NAME=N` flags.
    pub explicit: &'a [String],
    /// The inputs (`--input`, `--inputs`), when the command takes them.
    pub run: Option<&'a RunArgs>,
}

impl<'a> Sizing<'a> {
    /// The sizes of a command that runs the program with `run`'s inputs.
    pub fn of_run(run: &'a RunArgs) -> Sizing<'a> {
        Sizing {
            explicit: &run.sizes,
            run: Some(run),
        }
    }
}

/// The values of the size parameters of `entry` in `src` (`None`: it has none), from
/// `sizing`; an error rendered against the source otherwise.
pub fn bind(src: &str, file: &str, entry: &str, sizing: Sizing) -> Result<Option<Sizes>, CliError> {
    let sig = sizes::signature(src, entry).map_err(|d| rendered(&d, file, src))?;
    let Some(sig) = sig else {
        if let Some(s) = sizing.explicit.first() {
            return Err(plain_error(
                ErrorKind::Input,
                format!("--size {s}: `{entry}` has no size parameters"),
            ));
        }
        return Ok(None);
    };
    let mut explicit = Vec::new();
    for s in sizing.explicit {
        let (name, text) = split_assignment("--size", s)?;
        let v: usize = text.trim().parse().map_err(|_| {
            plain_error(
                ErrorKind::Input,
                format!("--size {s}: expected NAME=N with N a non-negative integer"),
            )
        })?;
        explicit.push((name, v, format!("--size {s}")));
    }
    let given = match sizing.run {
        Some(run) => given(&sig, run),
        None => Vec::new(),
    };
    sig.bind(&explicit, &given)
        .map(Some)
        .map_err(|d| rendered(&d, file, src))
}

/// The shapes of the given inputs that can be read; the others bind nothing (reading
/// the inputs against the instantiated types reports their errors).
fn given(sig: &sizes::Signature, run: &RunArgs) -> Vec<Given> {
    let mut out = Vec::new();
    for s in &run.inputs {
        let Ok((name, text)) = split_assignment("--input", s) else {
            continue;
        };
        let Some(p) = sig.params.iter().find(|p| p.name == name) else {
            continue;
        };
        if let Ok(e) = adora_core::parser::parse_literal(&text) {
            out.push(Given {
                param: name,
                shape: sizes::shape_of_literal(&e, &p.ty),
                origin: format!("--input {s}"),
            });
        }
    }
    if let Some(path) = &run.inputs_json {
        out.extend(json_given(sig, path));
    }
    out
}

fn json_given(sig: &sizes::Signature, path: &Path) -> Vec<Given> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let Ok(serde_json::Value::Object(obj)) = serde_json::from_str::<serde_json::Value>(&text)
    else {
        return Vec::new();
    };
    obj.iter()
        .filter_map(|(name, j)| {
            let p = sig.params.iter().find(|p| p.name == *name)?;
            Some(Given {
                param: name.clone(),
                shape: json_shape(j, &p.ty),
                origin: format!("{}: key {name:?}", path.display()),
            })
        })
        .collect()
}

/// The shape of a JSON value read against `ty` (tuples are JSON arrays of their parts).
pub fn json_shape(j: &serde_json::Value, ty: &SymType) -> Shaped {
    match ty {
        SymType::Tuple(ts) => match j.as_array() {
            Some(js) if js.len() == ts.len() => {
                Shaped::Tuple(js.iter().zip(ts).map(|(j, t)| json_shape(j, t)).collect())
            }
            _ => Shaped::Unknown,
        },
        SymType::Array(_, dims) => {
            let mut shape = Vec::with_capacity(dims.len());
            let mut cur = j;
            while shape.len() < dims.len() {
                match cur.as_array() {
                    Some(js) if js.is_empty() => shape.resize(dims.len(), 0),
                    Some(js) => {
                        shape.push(js.len());
                        cur = &js[0];
                    }
                    None => return Shaped::Unknown,
                }
            }
            Shaped::Array(shape)
        }
    }
}
