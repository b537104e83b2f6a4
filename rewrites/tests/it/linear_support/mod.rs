//! Shared helpers of the `linear_*` tests: golden programs and their inputs, and
//! comparisons with the reference derivative.

#![allow(dead_code)]

use adora_core::ast::Function;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use std::path::{Path, PathBuf};

/// A golden program: its path, elaborated entry point, inputs, and whether it is f64.
pub struct Golden {
    pub path: PathBuf,
    pub f: Function,
    pub inputs: Vec<Value<Rat>>,
    pub f64: bool,
}

fn header(text: &str, key: &str) -> Vec<String> {
    text.lines()
        .take_while(|l| l.starts_with("--") || l.trim().is_empty())
        .filter_map(|l| l.strip_prefix("--"))
        .filter_map(|l| l.trim().strip_prefix(&format!("{key}:")))
        .map(|s| s.trim().to_string())
        .collect()
}

/// Every `.adl` file under `dir`, sorted.
pub fn adl_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "adl") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The golden programs of `specs/programs` that load (bad ones are skipped).
pub fn goldens() -> Vec<Golden> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../specs/programs");
    let mut out = Vec::new();
    for path in adl_files(&root) {
        let text = std::fs::read_to_string(&path).unwrap();
        let entry = header(&text, "entry")
            .pop()
            .unwrap_or_else(|| "main".into());
        let Ok(f) = adora_core::load(&text, &entry) else {
            continue;
        };
        let mut inputs = Vec::new();
        for line in header(&text, "input") {
            let (name, lit) = line.split_once('=').unwrap();
            let p = f.params.iter().find(|p| p.name == name.trim()).unwrap();
            let e = adora_core::parser::parse_expr(lit.trim()).unwrap();
            inputs.push((
                p.name.clone(),
                adora_semantics::io::value_from_expr(&e, &p.ty).unwrap(),
            ));
        }
        let inputs = f
            .params
            .iter()
            .map(|p| inputs.iter().find(|(n, _)| *n == p.name).unwrap().1.clone())
            .collect();
        let f64 = header(&text, "numeric")
            .iter()
            .any(|l| l.starts_with("f64") || l.starts_with("ball"));
        out.push(Golden {
            path,
            f,
            inputs,
            f64,
        });
    }
    out
}

/// `k/3 - 1` for the k-th real scalar: a deterministic non-trivial direction.
pub fn direction(v: &Value<Rat>, seed: i64) -> Value<Rat> {
    let mut k = seed;
    v.map_reals(&mut |_| {
        k += 1;
        Rat::new(((k * 7) % 11 - 5).into(), 3.into())
    })
}

/// Whether two f64 values agree within `tol` relative to `max(1, |b|)` (integers and
/// booleans exactly).
pub fn close(a: &Value<f64>, b: &Value<f64>, tol: f64) -> bool {
    match (a, b) {
        (Value::Real(x), Value::Real(y)) => {
            x.shape == y.shape
                && x.data.iter().zip(&y.data).all(|(p, q)| {
                    (p - q).abs() <= tol * q.abs().max(1.0) || (p.is_nan() && q.is_nan())
                })
        }
        (Value::Tuple(xs), Value::Tuple(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(p, q)| close(p, q, tol))
        }
        _ => a == b,
    }
}
