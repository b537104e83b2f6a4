//! Helpers shared by the cost-model tests: load a program, build inputs, measure.
#![allow(dead_code)]

use adora_core::ast::Function;
use adora_costmodel::{default_inputs, measure, measure_with, Costs};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::{Tensor, Value};
use adora_semantics::Rat;
use num_bigint::BigInt;

/// Parses, checks and elaborates `main` of `src`; panics with the diagnostic otherwise.
pub fn load(src: &str) -> Function {
    match adora_core::load(src, "main") {
        Ok(f) => f,
        Err(d) => panic!("{}", d.render("test.adl", src)),
    }
}

/// Costs of `main` of `src` on the default inputs.
pub fn costs(src: &str) -> Costs {
    let f = load(src);
    let xs = default_inputs(&f);
    measure(&f, &xs, &EvalOptions::default())
        .unwrap_or_else(|d| panic!("{}", d.render("test.adl", src)))
}

/// Costs of `main` of `src` on `inputs`.
pub fn costs_on(src: &str, inputs: &[Value<Rat>]) -> Costs {
    let f = load(src);
    measure(&f, inputs, &EvalOptions::default())
        .unwrap_or_else(|d| panic!("{}", d.render("test.adl", src)))
}

/// Costs of `main` of `src` evaluated in f64 (for programs with `exp`, `sin`, …), every real
/// input element 0.5 and every integer input element 0.
pub fn costs_f64(src: &str) -> Costs {
    let f = load(src);
    let xs: Vec<Value<f64>> = default_inputs(&f).iter().map(to_f64).collect();
    measure_with(&f, &xs, &EvalOptions::default())
        .unwrap_or_else(|d| panic!("{}", d.render("test.adl", src)))
}

fn to_f64(v: &Value<Rat>) -> Value<f64> {
    match v {
        Value::Real(t) => Value::Real(Tensor {
            shape: t.shape.clone(),
            data: vec![0.5; t.data.len()],
        }),
        Value::Int(t) => Value::Int(t.clone()),
        Value::Bool(t) => Value::Bool(t.clone()),
        Value::Tuple(vs) => Value::Tuple(vs.iter().map(to_f64).collect()),
    }
}

/// A real array of `shape` with integer elements `data`.
pub fn reals(shape: &[usize], data: &[i64]) -> Value<Rat> {
    Value::Real(Tensor {
        shape: shape.to_vec(),
        data: data
            .iter()
            .map(|&k| Rat::from_integer(BigInt::from(k)))
            .collect(),
    })
}

/// An integer array of `shape`.
pub fn ints(shape: &[usize], data: &[i64]) -> Value<Rat> {
    Value::Int(Tensor {
        shape: shape.to_vec(),
        data: data.to_vec(),
    })
}

/// The structural invariants every measurement must satisfy.
pub fn invariants(c: &Costs) {
    assert!(c.work >= c.ops, "work {} < ops {}", c.work, c.ops);
    assert!(c.span <= c.work, "span {} > work {}", c.span, c.work);
}
