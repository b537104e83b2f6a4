//! The `f64` evaluator agrees with the exact one on rational programs within a relative
//! tolerance of 1e-12 (each program does at most a few hundred roundings), and the f64
//! reference gradient agrees with the exact one within the same tolerance.
use crate::common;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::reference::gradient;
use adora_semantics::scalar::Scalar;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use common::*;

const TOL: f64 = 1e-12;

const PROGRAMS: &[(&str, &[&str])] = &[
    ("def main(x: R[3], w: R[3]) -> R = sum(x * w) / (1 + sum(x * x))", &["[0.1, -2, 1/3]", "[3, 1/7, 2.5]"]),
    (
        "def main(x: R[8], w: R[3]) -> R = let y = build 6 (i => sum(build 3 (k => x[i + k] * w[k]))) in sum(y * y) / 9",
        &["[0.3, 1/3, 2, -1, 0, 0.5, 7, -0.01]", "[1/9, -1, 2]"],
    ),
    ("def main(x: R[5]) -> R = reduce((a, b) => a * b + 1 / (1 + b * b), 1, scan(+, 0, x))", &["[0.5, -0.25, 1/3, 2, -3]"]),
    ("def main(x: R) -> R = loop (a = x) for i < 6 do a - (a * a - 2) / (2 * a)", &["1"]),
    ("def main(x: R[4]) -> R = reduce(max, 0, x) * reduce(min, 0, x) + sum(abs(x)) + pow(x[1], -3)", &["[0.2, -1.7, 3.1, -0.9]"]),
];

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn values_agree() {
    let opts = EvalOptions::default();
    for (src, inputs) in PROGRAMS {
        let f = prog(src);
        let exact: Vec<Value<Rat>> = lits(&f, inputs);
        let approx: Vec<Value<f64>> = lits(&f, inputs);
        assert_eq!(approx, exact.iter().map(Value::to_f64).collect::<Vec<_>>());
        let (ve, _) = eval(&f, &exact, &opts).unwrap();
        let (va, _) = eval(&f, &approx, &opts).unwrap();
        let (ve, va) = (ve.as_real().unwrap().approx_f64(), *va.as_real().unwrap());
        assert!(close(ve, va), "{src}: {ve} vs {va}");
    }
}

#[test]
fn gradients_agree() {
    let opts = EvalOptions::default();
    for (src, inputs) in PROGRAMS {
        let f = prog(src);
        let ge = gradient(&f, &lits::<Rat>(&f, inputs), &opts).unwrap();
        let ga = gradient(&f, &lits::<f64>(&f, inputs), &opts).unwrap();
        for (e, a) in ge.grads.iter().zip(&ga.grads) {
            let (e, a) = (e.as_ref().unwrap().to_f64(), a.as_ref().unwrap());
            for (x, y) in e.real_scalars().iter().zip(a.real_scalars()) {
                assert!(close(**x, *y), "{src}: {x} vs {y}");
            }
        }
    }
}
