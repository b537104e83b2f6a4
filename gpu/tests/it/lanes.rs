//! The lane values of the CPU executor (docs/backend.md, "CPU executor"): borrowed slices
//! for in-bounds loads at `start + lane` (shifted by integral constants) and at a
//! multi-dimensional kernel's own points, gathers with zeros outside for the rest. Each
//! program's kernels run over several chunks (a partial last one included) and equal the
//! `f64` evaluator: bit for bit where both compute the same operations in the same order,
//! within `1e-12` relative where a parallel reduction adds in another order.

use adora_gpu::cpu::run;
use adora_gpu::plan::{plan, show};
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::value::Value;

/// Deterministic inputs in [-1, 1) with some integers among them.
fn data(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed;
    (0..n)
        .map(|i| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
            if i % 7 == 0 {
                (x * 4.0).round()
            } else {
                x
            }
        })
        .collect()
}

fn reals(v: &Value<f64>) -> Vec<f64> {
    match v {
        Value::Real(t) => t.data.clone(),
        v => panic!("a real array, not {v:?}"),
    }
}

/// Runs `src` on `inputs` with the executor and the evaluator; `exact` asks for equal
/// bits, else agreement within 1e-12 relative.
fn agrees(src: &str, inputs: &[Value<f64>], exact: bool) -> String {
    let p = adora_core::parser::parse_program(src).expect("parses");
    let f = adora_core::check::elaborate(&p, "main").expect("checks");
    let pl = plan(&f).expect("plans");
    let text = show(&pl);
    let got = reals(&run(&pl, inputs).expect("runs"));
    let want = reals(
        &eval(&f, inputs, &EvalOptions::default())
            .expect("evaluates")
            .0,
    );
    assert_eq!(got.len(), want.len());
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        let ok = if exact {
            g.to_bits() == w.to_bits()
        } else {
            (g.is_nan() && w.is_nan()) || (g - w).abs() <= 1e-12 * w.abs().max(1.0)
        };
        assert!(ok, "element {k}: executor {g}, evaluator {w}\n{text}");
    }
    text
}

#[test]
fn shifted_one_dimensional_loads_read_slices_and_zeros_outside() {
    // 300 points in chunks of 64: shifts left and right, wholly and partly out of bounds.
    let src = "def main(x: R[300]) -> R[300] =\n  \
               build 300 (i => x[i + 7] * 2.0 + x[i - 3] - x[3 + i] + x[i - 400] + x[i + 299] + x[i - 0])\n";
    let x = Value::reals(vec![300], data(300, 1)).unwrap();
    agrees(src, &[x], true);
}

#[test]
fn two_dimensional_kernels_read_their_own_points_as_slices() {
    // 40 × 30 points in chunks that do not start at row boundaries; own-point loads of
    // two buffers, a row broadcast, a reversed column and a shifted row (out of bounds on
    // the last row).
    let src = "def main(a: R[40, 30], b: R[40, 30], c: R[30]) -> R[40, 30] =\n  \
               build [40, 30] ((i, j) => a[i, j] * b[i, j] + c[j] + a[i, 29 - j] - b[i + 1, j])\n";
    let inputs = [
        Value::reals(vec![40, 30], data(1200, 2)).unwrap(),
        Value::reals(vec![40, 30], data(1200, 3)).unwrap(),
        Value::reals(vec![30], data(30, 4)).unwrap(),
    ];
    let text = agrees(src, &inputs, true);
    assert!(text.contains("map [v0, v1]"), "{text}");
}

#[test]
fn a_transposed_read_and_a_strided_column_agree() {
    let src = "def main(a: R[30, 40], b: R[40, 30]) -> R[40, 30] =\n  \
               build [40, 30] ((i, j) => a[j, i] + b[i, j] * a[3, i])\n";
    let inputs = [
        Value::reals(vec![30, 40], data(1200, 5)).unwrap(),
        Value::reals(vec![40, 30], data(1200, 6)).unwrap(),
    ];
    agrees(src, &inputs, true);
}

#[test]
fn a_convolution_fold_reads_shifted_slices() {
    let src = "def main(x: R[500], w: R[16]) -> R[485] =\n  \
               build 485 (i => sum(build 16 (j => x[i + j] * w[j])))\n";
    let inputs = [
        Value::reals(vec![500], data(500, 7)).unwrap(),
        Value::reals(vec![16], data(16, 8)).unwrap(),
    ];
    let text = agrees(src, &inputs, false);
    assert!(text.contains("fold("), "{text}");
}

#[test]
fn large_min_and_max_reductions_keep_the_nan_rule() {
    // 10,000 elements (lanes over the reduced space, chunks combined in order) with NaNs
    // in two chunks: min and max give the evaluator's bits.
    let mut x = data(10_000, 9);
    x[5_000] = f64::NAN;
    x[7_001] = f64::NAN;
    // Extremes before the NaNs, which the fold forgets at a NaN.
    x[100] = -100.0;
    x[200] = 100.0;
    let x = Value::reals(vec![10_000], x).unwrap();
    for op in ["min", "max"] {
        let src = format!(
            "def main(x: R[10000]) -> R[2] = [reduce({op}, x[0], x), reduce({op}, 0.5, x * x)]\n"
        );
        agrees(&src, std::slice::from_ref(&x), true);
    }
}

#[test]
fn very_large_min_and_max_reductions_fold_chunks_interleaved() {
    // 200,000 elements: a task folds four chunks in one interleaved loop; NaNs in two
    // middle chunks, extremes before them.
    let mut x = data(200_000, 15);
    x[100] = -100.0;
    x[200] = 100.0;
    x[100_001] = f64::NAN;
    x[150_000] = f64::NAN;
    let x = Value::reals(vec![200_000], x).unwrap();
    for op in ["min", "max"] {
        let src = format!("def main(x: R[200000]) -> R[1] = [reduce({op}, x[0], x)]\n");
        agrees(&src, std::slice::from_ref(&x), true);
    }
}

#[test]
fn a_small_one_output_reduction_folds_in_order() {
    // 3,000 points (one chunk): the left fold from `init`, the evaluator's order, so the
    // bits agree for `+` too.
    let src = "def main(x: R[3000], y: R[3000]) -> R[3] =\n  \
               [sum(x * y), reduce(max, -1.0, x), reduce(+, 0.25, exp(x))]\n";
    let inputs = [
        Value::reals(vec![3000], data(3000, 16)).unwrap(),
        Value::reals(vec![3000], data(3000, 17)).unwrap(),
    ];
    agrees(src, &inputs, true);
}

#[test]
fn a_large_sum_agrees_within_rounding() {
    let src = "def main(x: R[20000], y: R[20000]) -> R[1] = [sum(x * y)]\n";
    let inputs = [
        Value::reals(vec![20_000], data(20_000, 10)).unwrap(),
        Value::reals(vec![20_000], data(20_000, 11)).unwrap(),
    ];
    agrees(src, &inputs, false);
}

/// Few outputs over many rows: 16 outputs (one after another, lanes over the rows) and
/// 80 outputs (lanes over rows × outputs), partials per chunk. Sums within rounding; min
/// and max bit for bit, with NaNs in two columns (one in the last row, one in a middle
/// chunk).
#[test]
fn few_outputs_over_many_rows_reduce_per_output_or_over_the_joint_space() {
    for cols in [16usize, 80] {
        let mut a = data(5_000 * cols, 12);
        a[5_000 * cols - 5] = f64::NAN;
        a[1_000 * cols + 2] = f64::NAN;
        // Extremes before the NaN, which the fold forgets at the NaN.
        a[10 * cols + 2] = -100.0;
        a[20 * cols + 2] = 100.0;
        let a = Value::reals(vec![5_000, cols], a).unwrap();
        let src = format!("def main(a: R[5000, {cols}]) -> R[{cols}] = sum_outer(a)\n");
        let text = agrees(&src, std::slice::from_ref(&a), false);
        assert!(text.contains("reduce [v0]"), "{text}");
        for op in ["min", "max"] {
            let src = format!(
                "def main(a: R[5000, {cols}]) -> R[{cols}] = reduce({op}, a[1] * 0.5, a)\n"
            );
            let text = agrees(&src, std::slice::from_ref(&a), true);
            assert!(text.contains("reduce [v0]"), "{text}");
        }
    }
}

/// Matrix products large enough to be split over the threads (2^18 multiply-adds): by rows when the left
/// operand is tall, by columns when it is wide, with either operand transposed.
#[test]
fn split_matrix_products_agree() {
    let cases = [
        ("a[i, r]", "b[r, j]", (16, 64, 256)),
        ("a[i, r]", "b[r, j]", (256, 64, 16)),
        ("a[r, i]", "b[j, r]", (16, 64, 256)),
        ("a[r, i]", "b[j, r]", (256, 64, 16)),
    ];
    for (x, y, (m, l, p)) in cases {
        let (ash, bsh) = (
            if x.starts_with("a[i") { [m, l] } else { [l, m] },
            if y.starts_with("b[r") { [l, p] } else { [p, l] },
        );
        let src = format!(
            "def main(a: R[{}, {}], b: R[{}, {}]) -> R[{m}, {p}] =\n  \
             build [{m}, {p}] ((i, j) => sum(build {l} (r => {x} * {y})))\n",
            ash[0], ash[1], bsh[0], bsh[1]
        );
        let inputs = [
            Value::reals(ash.to_vec(), data(m * l, 13)).unwrap(),
            Value::reals(bsh.to_vec(), data(l * p, 14)).unwrap(),
        ];
        let text = agrees(&src, &inputs, false);
        assert!(text.contains("matmul"), "{text}");
    }
}

#[test]
fn index_comparisons_with_constants_are_uniform_per_chunk_where_they_can_be() {
    // 300 points in chunks of 64: each comparison's boundary falls inside a chunk, at a
    // chunk's edge, or outside the space, with the constant on either side.
    let src = "def main(x: R[300]) -> R[300] =\n  \
               build 300 (i => select(i < 130, x[i], 0.0) + select(i >= 64, 1.0, 2.0) \
               + select(i == 200, 5.0, 0.0) + select(i != 7, 1.0, 0.0) + select(128 > i, 3.0, 0.0) \
               + select(i <= 63, x[i + 1], 0.5) + select(i > 1000, 9.0, 0.0) + select(-1 < i, 0.25, 0.0) \
               + select(i == 1000, 7.0, 0.0))\n";
    let x = Value::reals(vec![300], data(300, 11)).unwrap();
    agrees(src, &[x], true);
}
