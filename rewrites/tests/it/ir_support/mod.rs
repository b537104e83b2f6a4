//! Shared helpers of the `ir_*` integration tests: the golden corpus, inputs, exact
//! evaluation and comparison.

#![allow(dead_code)]

use adora_core::ast::Function;
use adora_core::types::{Base, Type};
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::value::{Tensor, Value};
use adora_semantics::Rat;
use num_bigint::BigInt;
use std::path::{Path, PathBuf};

/// Every `.adl` file under `specs/programs`, sorted.
pub fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../specs/programs");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("specs/programs is readable") {
            let p = entry.expect("a directory entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "adl") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Inputs numbered like `adora cost`'s defaults, with a `variant`: 0 gives positive
/// reals `k/(k+2)` and integers `p mod d`; 1 alternates signs and shifts integers down
/// by one (so some indices are out of bounds); booleans alternate.
pub fn inputs(f: &Function, variant: u64) -> Vec<Value<Rat>> {
    let mut k = 0u64;
    f.params
        .iter()
        .map(|p| value(&p.ty, &mut k, variant))
        .collect()
}

fn value(t: &Type, k: &mut u64, variant: u64) -> Value<Rat> {
    match t {
        Type::Tuple(ts) => Value::Tuple(ts.iter().map(|t| value(t, k, variant)).collect()),
        Type::Array(b, shape) => {
            let n: usize = shape.iter().product();
            let outer = shape.first().copied().unwrap_or(0) as i64;
            let shape = shape.clone();
            let mut next = || {
                *k += 1;
                *k
            };
            match b {
                Base::R => Value::Real(Tensor {
                    shape,
                    data: (0..n)
                        .map(|p| {
                            let k = next();
                            let sign = if variant == 1 && p % 2 == 1 { -1 } else { 1 };
                            Rat::new(BigInt::from(sign * k as i64), BigInt::from(k + 2))
                        })
                        .collect(),
                }),
                Base::Z => Value::Int(Tensor {
                    shape,
                    data: (0..n as i64)
                        .map(|p| {
                            next();
                            let base = if outer == 0 { 1 } else { p % outer };
                            base - variant as i64
                        })
                        .collect(),
                }),
                Base::B => Value::Bool(Tensor {
                    shape,
                    data: (0..n)
                        .map(|p| {
                            next();
                            (p as u64 + variant) & 1 == 0
                        })
                        .collect(),
                }),
            }
        }
    }
}

/// The inputs of the `-- input:` header lines, when they cover every parameter.
pub fn header_inputs(src: &str, f: &Function) -> Option<Vec<Value<Rat>>> {
    let mut out = Vec::new();
    for p in &f.params {
        let lit = src.lines().find_map(|l| {
            let rest = l.strip_prefix("-- input:")?.trim();
            let (name, lit) = rest.split_once('=')?;
            (name.trim() == p.name).then(|| lit.trim().to_string())
        })?;
        let e = adora_core::parser::parse_expr(&lit).ok()?;
        out.push(adora_semantics::io::value_from_expr(&e, &p.ty).ok()?);
    }
    Some(out)
}

/// Exact evaluation with default options.
pub fn run(f: &Function, inputs: &[Value<Rat>]) -> adora_core::Result<Value<Rat>> {
    eval(f, inputs, &EvalOptions::default()).map(|(v, _)| v)
}

/// Evaluates both functions exactly on `inputs` and demands the same outcome: equal
/// values, or errors of the same kind (when the original fails).
pub fn assert_same(original: &Function, result: &Function, inputs: &[Value<Rat>], what: &str) {
    let a = run(original, inputs);
    let b = run(result, inputs);
    match (&a, &b) {
        (Ok(x), Ok(y)) => assert_eq!(
            x,
            y,
            "{what}: values differ\n{}",
            adora_core::pretty::function(result)
        ),
        (Err(x), Err(y)) => assert_eq!(x.kind, y.kind, "{what}: different errors"),
        (Err(x), Ok(_)) => assert!(
            x.kind != adora_core::ErrorKind::NonRational,
            "{what}: the original failed ({x}) but the result did not"
        ),
        (Ok(_), Err(y)) => panic!(
            "{what}: the result fails: {y}\n{}",
            adora_core::pretty::function(result)
        ),
    }
}
