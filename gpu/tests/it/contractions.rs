//! The plan's rewrites for derivative programs (docs/backend.md, "Fusion", "Matrix
//! products", "Scatters as gathers"): cheap broadcasts recomputed at each use, products of
//! factors recognised as matrix products, and scatters of shifted indices computed as
//! gathers. Each test checks the plan's shape (which kernels it has) and that the CPU
//! executor's answer equals the f64 evaluator's within 1e-9 relative.

use super::shim::flatten;
use adora_core::ast::Function;
use adora_gpu::plan::{plan, show, KernelKind, Plan};
use adora_rewrites::engine::{self, Question, Seed};
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::value::Value;

pub(super) fn elaborate(src: &str) -> Function {
    let p = adora_core::parser::parse_program(src).expect("parses");
    adora_core::check::elaborate(&p, "main").expect("checks")
}

/// Deterministic inputs of `f`'s parameter types (reals in `[-1, 1)`, not integral).
pub(super) fn inputs(f: &Function) -> Vec<Value<f64>> {
    let mut k = 0u64;
    f.params
        .iter()
        .map(|p| {
            let adora_core::types::Type::Array(_, shape) = &p.ty else {
                panic!("array parameters only")
            };
            let n: usize = shape.iter().product();
            let data = (0..n)
                .map(|_| {
                    k += 1;
                    ((k * 7919) % 1000) as f64 / 500.0 - 0.999
                })
                .collect();
            Value::reals(shape.clone(), data).expect("a shape")
        })
        .collect()
}

/// The executor's answer equals the f64 evaluator's (1e-9 relative, floor 1e-9).
pub(super) fn agrees(f: &Function, p: &Plan, xs: &[Value<f64>]) {
    let got = adora_gpu::cpu::run(p, xs).expect("runs");
    let (want, _) = eval(f, xs, &EvalOptions::default()).expect("evaluates");
    let (mut g, mut w) = (Vec::new(), Vec::new());
    flatten(&got, &mut g);
    flatten(&want, &mut w);
    assert_eq!(g.len(), w.len());
    for (k, (a, b)) in g.iter().zip(&w).enumerate() {
        assert!(
            (a - b).abs() <= 1e-9 * b.abs().max(1.0),
            "element {k}: executor {a}, evaluator {b}\n{}",
            show(p)
        );
    }
}

/// Engine `linear`'s gradient program of `src` with its arguments.
pub(super) fn gradient(src: &str) -> (Function, Vec<Value<f64>>) {
    let f = elaborate(src);
    let xs = inputs(&f);
    let e = engine::under_test()
        .into_iter()
        .find(|e| e.name() == "linear")
        .expect("engine linear");
    let dp = e.program(&f, Question::Grad).expect("derives");
    let one = Value::real(1.0);
    let args = dp
        .arguments(&f, &xs, Seed::Cotangent(&one))
        .expect("arguments");
    (dp.function, args)
}

pub(super) fn kinds(p: &Plan) -> Vec<String> {
    p.kernels().iter().map(|k| k.name.clone()).collect()
}

const MATMUL: &str = "def main(a: R[9, 10], b: R[10, 11]) -> R =\n  \
    let c = build [9, 11] ((i, j) => sum(build 10 (r => a[i, r] * b[r, j]))) in\n  \
    sum(c * c)\n";

#[test]
fn a_matrix_products_gradient_is_three_matrix_products_without_broadcasts() {
    let (g, args) = gradient(MATMUL);
    let p = plan(&g).expect("plans");
    let text = show(&p);
    let matmuls = p
        .kernels()
        .iter()
        .filter(|k| matches!(k.kind, KernelKind::MatMul { .. }))
        .count();
    assert_eq!(matmuls, 3, "{text}");
    assert!(
        p.buffers.iter().all(|b| b.shape.len() <= 2),
        "no buffer holds a broadcast:\n{text}"
    );
    // The stored sides are laid out as their loads read them: no map reads transposed.
    assert!(
        text.lines()
            .filter(|l| l.contains("_map"))
            .all(|l| !l.contains("[v1, v0]")),
        "{text}"
    );
    agrees(&g, &p, &args);
}

#[test]
fn a_product_of_scaled_factors_is_a_matrix_product() {
    // Each side is a product of factors reading (i, r) or (r, j) only.
    let src = "def main(a: R[4, 5], b: R[5, 6], s: R[4], t: R[6]) -> R[4, 6] =\n  \
        build [4, 6] ((i, j) => sum(build 5 (r => (2.0 * a[i, r]) * (s[i] * (exp(b[r, j]) * t[j])))))\n";
    let f = elaborate(src);
    let p = plan(&f).expect("plans");
    let text = show(&p);
    assert!(text.contains("matmul"), "{text}");
    agrees(&f, &p, &inputs(&f));
}

#[test]
fn a_factor_reading_both_output_indices_is_no_matrix_product() {
    let src = "def main(a: R[4, 5], b: R[5, 6]) -> R[4, 6] =\n  \
        build [4, 6] ((i, j) => sum(build 5 (r => a[i, r] * b[r, j] * real(i + j))))\n";
    let f = elaborate(src);
    let p = plan(&f).expect("plans");
    assert!(!show(&p).contains("matmul"), "{}", show(&p));
    agrees(&f, &p, &inputs(&f));
}

#[test]
fn a_convolutions_gradient_scatters_as_a_gather() {
    let src = "def main(x: R[40], w: R[5]) -> R =\n  \
        let y = build 36 (i => sum(build 5 (j => x[i + j] * w[j]))) in\n  \
        sum(y * y)\n";
    let (g, args) = gradient(src);
    let p = plan(&g).expect("plans");
    let names = kinds(&p);
    assert!(
        names.iter().any(|n| n.ends_with("scatter_reduce"))
            && !names.iter().any(|n| n.ends_with("_scatter")),
        "{}",
        show(&p)
    );
    agrees(&g, &p, &args);
}

/// Scatters whose index is a shifted permutation: each becomes a `map` or a `reduce`
/// (no zeroing kernel, no `scatter`), with the same value, including writes that fall
/// outside the destination (dropped) and destinations larger than the source.
#[test]
fn shifted_scatters_are_gathers_with_the_same_value() {
    let cases = [
        ("x: R[5]", "scatter([7], x, i => [i + 2])", "scatter_map"),
        ("x: R[5]", "scatter([4], x, i => [i - 1])", "scatter_map"),
        ("x: R[5]", "scatter([3], x, i => [i])", "scatter_map"),
        ("x: R[5]", "scatter([8], x, i => [i])", "scatter_map"),
        ("x: R[5]", "scatter([6], x, i => [2 + i])", "scatter_map"),
        (
            "x: R[6, 3]",
            "scatter([3, 6], x, (i, j) => [j, i])",
            "scatter_map",
        ),
        (
            "x: R[6, 3]",
            "scatter([9], x, (i, j) => [i + j])",
            "scatter_reduce",
        ),
        (
            "x: R[6, 3]",
            "scatter([7], x, (i, j) => [i - j])",
            "scatter_reduce",
        ),
        (
            "x: R[4, 3]",
            "scatter([12], x, (i, j) => [j + 2 * i + 1])",
            "scatter_reduce",
        ),
        (
            "x: R[4, 3, 2]",
            "scatter([5, 2], x, (i, j) => [i + j])",
            "scatter_reduce",
        ),
    ];
    for (param, body, tag) in cases {
        let src = format!("def main({param}) -> R[*] =\n  {body}\n");
        let src = src.replace("R[*]", &format!("R[{}]", dest_shape(body)));
        let f = elaborate(&src);
        let p = plan(&f).expect("plans");
        let names = kinds(&p);
        assert!(
            names.iter().any(|n| n.ends_with(tag))
                && !names.iter().any(|n| n.ends_with("_scatter")),
            "{body}:\n{}",
            show(&p)
        );
        agrees(&f, &p, &inputs(&f));
    }
}

/// The destination shape written in a `scatter([…], …)`.
fn dest_shape(body: &str) -> &str {
    let start = body.find('[').expect("a shape") + 1;
    let end = body.find(']').expect("a shape");
    &body[start..end]
}

#[test]
fn a_scatter_of_a_computed_index_stays_a_scatter() {
    let src = "def main(x: R[5]) -> R[5] =\n  scatter([5], x, i => [(i * i) % 5])\n";
    let f = elaborate(src);
    let p = plan(&f).expect("plans");
    assert!(
        kinds(&p).iter().any(|n| n.ends_with("_scatter")),
        "{}",
        show(&p)
    );
    agrees(&f, &p, &inputs(&f));
}

#[test]
fn a_stored_broadcast_is_stored_over_the_dimensions_it_reads() {
    // `t` reads neither `k` nor is cheap to recompute; it is used twice, so it is stored
    // — as a [4, 6] buffer, not [50, 4, 6].
    let src = "def main(x: R[4, 6]) -> R =\n  \
        let t = build [50, 4, 6] ((k, i, j) => x[i, (i * j + 1) % 6] * x[j % 4, i + 1] + 3.0 * exp(x[i, j])) in\n  \
        sum(t * t) + sum(build [50, 4, 6] ((k, i, j) => t[k, i, j] * real(k)))\n";
    let f = elaborate(src);
    let p = plan(&f).expect("plans");
    let text = show(&p);
    assert!(
        p.buffers.iter().all(|b| b.shape.len() < 3) && p.buffers.iter().any(|b| b.shape == [4, 6]),
        "{text}"
    );
    agrees(&f, &p, &inputs(&f));
}

#[test]
fn a_transposed_matrix_product_is_written_transposed_by_the_product() {
    let src = "def main(a: R[3, 4], b: R[4, 5]) -> R[5, 3] =\n  \
        let c = build [3, 5] ((i, j) => sum(build 4 (r => a[i, r] * b[r, j]))) in\n  \
        build [5, 3] ((j, i) => c[i, j])\n";
    let f = elaborate(src);
    let p = plan(&f).expect("plans");
    let ks = p.kernels();
    assert!(
        ks.len() == 1 && matches!(ks[0].kind, KernelKind::MatMul { m: 5, n: 3, .. }),
        "{}",
        show(&p)
    );
    agrees(&f, &p, &inputs(&f));
    // A product read elsewhere too keeps its transpose.
    let src = "def main(a: R[3, 4], b: R[4, 5]) -> (R[5, 3], R[3, 5]) =\n  \
        let c = build [3, 5] ((i, j) => sum(build 4 (r => a[i, r] * b[r, j]))) in\n  \
        (build [5, 3] ((j, i) => c[i, j]), c)\n";
    let f = elaborate(src);
    let p = plan(&f).expect("plans");
    assert_eq!(p.kernels().len(), 2, "{}", show(&p));
    agrees(&f, &p, &inputs(&f));
}

/// Sums of `-0.0` are `-0.0`, as the evaluator's left fold from the first element gives:
/// sums start from `-0.0` and a matrix product's zeros are re-summed in that order, so
/// dividing by them gives the evaluator's infinity.
#[test]
fn sums_of_negative_zeros_keep_their_sign() {
    let src = "def main(y: R) -> R = y / sum(replicate(3, y) * 0.0)\n";
    let f = elaborate(src);
    let p = plan(&f).expect("plans");
    let got = adora_gpu::cpu::run(&p, &[Value::real(-0.5)]).expect("runs");
    assert_eq!(got, Value::real(f64::INFINITY), "{}", show(&p));
    let src = "def main(a: R[2, 3], b: R[3, 2]) -> R[2, 2] =\n  \
        let c = build [2, 2] ((i, j) => sum(build 3 (r => a[i, r] * b[r, j]))) in\n  \
        build [2, 2] ((i, j) => 1.0 / c[i, j])\n";
    let f = elaborate(src);
    let p = plan(&f).expect("plans");
    assert!(show(&p).contains("matmul"), "{}", show(&p));
    let a = Value::reals(vec![2, 3], vec![-1.0; 6]).unwrap();
    let b = Value::reals(vec![3, 2], vec![0.0; 6]).unwrap();
    let got = adora_gpu::cpu::run(&p, &[a.clone(), b.clone()]).expect("runs");
    let (want, _) = eval(&f, &[a, b], &EvalOptions::default()).expect("evaluates");
    assert_eq!(
        want,
        Value::reals(vec![2, 2], vec![f64::NEG_INFINITY; 4]).unwrap()
    );
    assert_eq!(got, want, "{}", show(&p));
    // The integer `-(0)` is 0: its real is `+0.0`.
    let f = elaborate("def main(x: R) -> R = pow(real(-(0)), -1) + x\n");
    let p = plan(&f).expect("plans");
    let got = adora_gpu::cpu::run(&p, &[Value::real(0.0)]).expect("runs");
    assert_eq!(got, Value::real(f64::INFINITY), "{}", show(&p));
}

#[test]
fn an_invariant_exponential_is_tabulated_once() {
    // `exp(w[k, j])` reads neither `i`: a [4, 6] table instead of 50 · 4 · 6 exponentials.
    let src = "def main(w: R[4, 6], x: R[50, 6]) -> R[50, 4] =\n  \
        build [50, 4] ((i, k) => sum(build 6 (j => exp(w[k, j]) * x[i, j] + exp(w[k, j]))))\n";
    let f = elaborate(src);
    let p = plan(&f).expect("plans");
    let tables: Vec<_> = p
        .kernels()
        .into_iter()
        .filter(|k| k.name.ends_with("_table"))
        .collect();
    assert_eq!(tables.len(), 1, "{}", show(&p));
    assert_eq!(p.buffers[tables[0].out].shape, [4, 6], "{}", show(&p));
    agrees(&f, &p, &inputs(&f));
    // Read as often as its table is large: no table.
    let src = "def main(w: R[4, 6]) -> R[4, 6] = build [4, 6] ((k, j) => exp(w[k, j]))\n";
    let p = plan(&elaborate(src)).expect("plans");
    assert!(!show(&p).contains("table"), "{}", show(&p));
}

#[test]
fn a_transcendental_used_twice_is_computed_once() {
    // Small enough to recompute by size, but `tanh` costs tens of additions: stored once.
    let src = "def main(x: R[8, 5], y: R[8, 5]) -> R =\n  \
        let h = build [8, 5] ((i, j) => tanh(x[i, j])) in\n  \
        sum(h * y) + sum(build [8, 5] ((i, j) => h[i, j] * h[i, j]))\n";
    let f = elaborate(src);
    let p = plan(&f).expect("plans");
    assert_eq!(show(&p).matches("tanh(").count(), 1, "{}", show(&p));
    agrees(&f, &p, &inputs(&f));
}
