//! Helpers shared by the bot tests: loading programs, the spec corpus with its header
//! inputs, exact evaluation.

#![allow(dead_code)]

pub mod instances;

use adora_core::ast::Function;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::io::value_from_expr;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use std::path::{Path, PathBuf};

/// Parses, checks and elaborates `main` of `src` (panics with the diagnostic: test input);
/// a program with size parameters is instantiated at the sizes of its `-- input:` lines
/// (docs/language.md, "Size parameters").
pub fn load(src: &str) -> Function {
    let inputs: Vec<(String, adora_core::Expr)> = src
        .lines()
        .filter_map(|l| {
            let (name, lit) = l.strip_prefix("-- input:")?.split_once('=')?;
            let e = adora_core::parser::parse_literal(lit.trim()).ok()?;
            Some((name.trim().to_string(), e))
        })
        .collect();
    adora_core::sizes::load_for_literals(src, "main", &inputs)
        .unwrap_or_else(|d| panic!("{d}\n{src}"))
}

/// Exact evaluation with default options.
pub fn exact(f: &Function, inputs: &[Value<Rat>]) -> adora_core::Result<Value<Rat>> {
    eval(f, inputs, &EvalOptions::default()).map(|(v, _)| v)
}

/// Every `specs/programs/**.adl` file, sorted: (path relative to the workspace, source).
pub fn programs() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../specs/programs");
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let src = std::fs::read_to_string(&p).unwrap();
            let rel = p
                .strip_prefix(root.parent().unwrap().parent().unwrap())
                .unwrap()
                .display()
                .to_string();
            (rel, src)
        })
        .collect()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "adl") {
            out.push(p);
        }
    }
}

/// The `-- input: name = literal` values of a program's header, in parameter order
/// (`None` when one is missing or does not parse).
pub fn header_inputs(src: &str, f: &Function) -> Option<Vec<Value<Rat>>> {
    f.params
        .iter()
        .map(|p| {
            let line = src.lines().find_map(|l| {
                let rest = l.strip_prefix("-- input:")?.trim();
                let (name, lit) = rest.split_once('=')?;
                (name.trim() == p.name).then(|| lit.trim().to_string())
            })?;
            let e = adora_core::parser::parse_expr(&line).ok()?;
            value_from_expr(&e, &p.ty).ok()
        })
        .collect()
}

/// What a program evaluates to, for comparisons: the exact value's literal, or (for
/// programs with non-rational operations) the `f64` value's literal; `Err` carries the
/// error text.
pub fn outcome(f: &Function, inputs: &[Value<Rat>]) -> Result<String, String> {
    use adora_core::diag::ErrorKind;
    use adora_semantics::io::to_literal;
    match exact(f, inputs) {
        Ok(v) => Ok(to_literal(&v)),
        Err(d) if d.kind == ErrorKind::NonRational => {
            let xs: Vec<Value<f64>> = inputs.iter().map(to_f64).collect();
            eval(f, &xs, &EvalOptions::default())
                .map(|(v, _)| format!("f64 {}", to_literal(&v)))
                .map_err(|d| d.to_string())
        }
        Err(d) => Err(d.to_string()),
    }
}

/// The `f64` version of an exact value.
pub fn to_f64(v: &Value<Rat>) -> Value<f64> {
    use adora_semantics::value::Tensor;
    use num_traits::ToPrimitive;
    match v {
        Value::Real(t) => Value::Real(Tensor {
            shape: t.shape.clone(),
            data: t
                .data
                .iter()
                .map(|x| x.to_f64().unwrap_or(f64::NAN))
                .collect(),
        }),
        Value::Int(t) => Value::Int(t.clone()),
        Value::Bool(t) => Value::Bool(t.clone()),
        Value::Tuple(vs) => Value::Tuple(vs.iter().map(to_f64).collect()),
    }
}

/// Random inputs for `f`: reals `p/q` (`p` in -5..=5, `q` in 1..=4), integers in
/// -1..=5 (so indices are sometimes out of bounds), random booleans.
pub fn random_inputs(f: &Function, rng: &mut impl rand::Rng) -> Vec<Value<Rat>> {
    f.params.iter().map(|p| random_value(&p.ty, rng)).collect()
}

fn random_value(t: &adora_core::types::Type, rng: &mut impl rand::Rng) -> Value<Rat> {
    use adora_core::types::{Base, Type};
    use adora_semantics::value::Tensor;
    use num_bigint::BigInt;
    match t {
        Type::Tuple(ts) => Value::Tuple(ts.iter().map(|t| random_value(t, rng)).collect()),
        Type::Array(b, s) => {
            let n: usize = s.iter().product();
            let shape = s.clone();
            match b {
                Base::R => Value::Real(Tensor {
                    shape,
                    data: (0..n)
                        .map(|_| {
                            Rat::new(
                                BigInt::from(rng.gen_range(-5..=5)),
                                BigInt::from(rng.gen_range(1..=4)),
                            )
                        })
                        .collect(),
                }),
                Base::Z => Value::Int(Tensor {
                    shape,
                    data: (0..n).map(|_| rng.gen_range(-1..=5)).collect(),
                }),
                Base::B => Value::Bool(Tensor {
                    shape,
                    data: (0..n).map(|_| rng.gen_bool(0.5)).collect(),
                }),
            }
        }
    }
}
