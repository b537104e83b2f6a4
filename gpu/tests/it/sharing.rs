//! Shared operands (docs/benchmarks.md, "Shared squares"): a kernel body's `e op e` is
//! `let v = e in v op v`, so `e` is computed once; the CPU executor's answer is unchanged.

use adora_gpu::plan::{plan, Plan};
use adora_semantics::value::Value;

fn plan_of(src: &str) -> (adora_core::ast::Function, Plan) {
    let p = adora_core::parser::parse_program(src).expect("parses");
    let f = adora_core::check::elaborate(&p, "main").expect("checks");
    let pl = plan(&f).expect("plans");
    (f, pl)
}

#[test]
fn a_square_of_a_fused_sum_is_computed_once() {
    let src = "def main(x: R[3, 4]) -> R =\n  \
               let q = build 3 (i => sum(build 4 (j => x[i, j] * 2.0))) in\n  \
               sum(q * q)\n";
    let (f, p) = plan_of(src);
    let text = adora_gpu::plan::show(&p);
    let folds = text.matches("fold(").count();
    assert!(text.contains("let v"), "{text}");
    assert_eq!(folds, 1, "the inner sum appears once:\n{text}");
    let x: Vec<f64> = (0..12).map(|k| k as f64 - 5.5).collect();
    let input = Value::reals(vec![3, 4], x.clone()).unwrap();
    let got = adora_gpu::cpu::run(&p, std::slice::from_ref(&input)).unwrap();
    let want: f64 = (0..3)
        .map(|i| {
            let q: f64 = (0..4).map(|j| x[i * 4 + j] * 2.0).sum();
            q * q
        })
        .sum();
    assert_eq!(
        got,
        Value::real(want),
        "{}",
        adora_core::pretty::function(&f)
    );
}
