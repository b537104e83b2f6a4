//! Batched products (docs/backend.md, "Batched products"): a sum over one index of a
//! product whose sides share a batch index runs as one matrix product per batch index.
//! Each test checks the plan's shape and that the CPU executor's answer equals the f64
//! evaluator's — within 1e-9 relative, and bit for bit where the evaluator's answer is a
//! zero or not finite (a zero's sign is the program's, docs/backend.md, "Numbers").

use super::contractions::{agrees, elaborate, gradient, inputs};
use super::shim::flatten;
use adora_core::ast::Function;
use adora_gpu::plan::{plan, show};
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::value::Value;

/// The executor equals the evaluator: bit for bit at zeros, infinities and NaNs (any NaN),
/// within 1e-9 relative elsewhere.
fn same_zeros(f: &Function, xs: &[Value<f64>]) {
    let p = plan(f).expect("plans");
    let got = adora_gpu::cpu::run(&p, xs).expect("runs");
    let (want, _) = eval(f, xs, &EvalOptions::default()).expect("evaluates");
    let (mut g, mut w) = (Vec::new(), Vec::new());
    flatten(&got, &mut g);
    flatten(&want, &mut w);
    assert_eq!(g.len(), w.len());
    for (k, (a, b)) in g.iter().zip(&w).enumerate() {
        let ok = if b.is_nan() {
            a.is_nan()
        } else if *b == 0.0 || b.is_infinite() {
            a.to_bits() == b.to_bits()
        } else {
            (a - b).abs() <= 1e-9 * b.abs().max(1.0)
        };
        assert!(
            ok,
            "element {k}: executor {a:?}, evaluator {b:?}\n{}",
            show(&p)
        );
    }
}

/// Inputs of `f`'s parameter types drawn from `-1, -0.5, -0, +0, 0.5, 1` (seeded), so
/// that many products and sums are zeros of either sign.
fn zeroish(f: &Function, seed: u64) -> Vec<Value<f64>> {
    const VALUES: [f64; 6] = [-1.0, -0.5, -0.0, 0.0, 0.5, 1.0];
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    f.params
        .iter()
        .map(|p| {
            let adora_core::types::Type::Array(_, shape) = &p.ty else {
                panic!("array parameters only")
            };
            let data = (0..shape.iter().product::<usize>())
                .map(|_| {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    VALUES[((s >> 33) % 6) as usize]
                })
                .collect();
            Value::reals(shape.clone(), data).expect("a shape")
        })
        .collect()
}

/// `f`'s inputs, each real `x` replaced by `fill(parameter, flat offset, x)`.
fn with(f: &Function, fill: impl Fn(usize, usize, f64) -> f64) -> Vec<Value<f64>> {
    inputs(f)
        .into_iter()
        .enumerate()
        .map(|(p, v)| {
            let Value::Real(t) = v else { panic!("reals") };
            let data = t
                .data
                .iter()
                .enumerate()
                .map(|(o, &x)| fill(p, o, x))
                .collect();
            Value::reals(t.shape.clone(), data).expect("a shape")
        })
        .collect()
}

/// The plan's text, checked to hold `needle`.
fn plan_with(f: &Function, needle: &str) -> String {
    let text = show(&plan(f).expect("plans"));
    assert!(text.contains(needle), "no `{needle}` in\n{text}");
    text
}

#[test]
fn a_contraction_with_a_batch_index_is_one_product_per_batch_index() {
    let f = elaborate(
        "def main(a: R[5, 4, 3], b: R[5, 3, 6]) -> R[5, 4, 6] =\n  \
         build [5, 4, 6] ((c, i, j) => sum(build 3 (r => a[c, i, r] * b[c, r, j])))\n",
    );
    // Both sides read in place, no map kernel.
    let text = plan_with(&f, "batched matmul 5 × (b0 · b1) (4 × 3 · 3 × 6)");
    assert!(!text.contains("map"), "{text}");
    agrees(&f, &plan(&f).unwrap(), &inputs(&f));
    for seed in 0..8 {
        same_zeros(&f, &zeroish(&f, seed));
    }
}

#[test]
fn the_batch_index_may_sit_anywhere_and_one_side_may_lack_it() {
    // GMM's shape: a factor per component applied to every point, batch index in the
    // middle of the output.
    let f = elaborate(
        "def main(l: R[5, 4, 3], x: R[7, 5, 3], w: R[3, 4]) -> R[7, 5, 4] =\n  \
         build [7, 5, 4] ((p, c, i) => sum(build 3 (r => l[c, i, r] * x[p, c, r] + w[r, i] * x[p, c, r])))\n",
    );
    // A sum of two products is no product: a reduction.
    let text = show(&plan(&f).unwrap());
    assert!(!text.contains("matmul"), "{text}");
    agrees(&f, &plan(&f).unwrap(), &inputs(&f));
    let f = elaborate(
        "def main(l: R[5, 4, 3], x: R[7, 5, 3]) -> R[7, 5, 4] =\n  \
         build [7, 5, 4] ((p, c, i) => sum(build 3 (r => l[c, i, r] * x[p, c, r])))\n",
    );
    plan_with(&f, "batched matmul 5 ×");
    agrees(&f, &plan(&f).unwrap(), &inputs(&f));
    // No batch index on the right: its batch stride is 0.
    let f = elaborate(
        "def main(a: R[5, 4, 3], w: R[3, 6]) -> R[4, 5, 6] =\n  \
         build [4, 5, 6] ((i, c, j) => sum(build 3 (r => a[c, i, r] * w[r, j])))\n",
    );
    plan_with(&f, "batched matmul");
    agrees(&f, &plan(&f).unwrap(), &inputs(&f));
    for seed in 0..8 {
        same_zeros(&f, &zeroish(&f, seed));
    }
}

#[test]
fn a_batched_matrix_vector_product_reads_its_vector_with_one_column() {
    let f = elaborate(
        "def main(a: R[5, 4, 3], v: R[5, 3]) -> R[5, 4] =\n  \
         build [5, 4] ((c, i) => sum(build 3 (r => a[c, i, r] * v[c, r])))\n",
    );
    plan_with(&f, "(4 × 3 · 3 × 1)");
    agrees(&f, &plan(&f).unwrap(), &inputs(&f));
    for seed in 0..8 {
        same_zeros(&f, &zeroish(&f, seed));
    }
}

#[test]
fn a_matrix_computed_over_the_whole_summed_space_stays_a_reduction() {
    // Storing `exp(a[c, i, r])` costs what the sum costs.
    let f = elaborate(
        "def main(a: R[5, 4, 3], v: R[5, 3]) -> R[5, 4] =\n  \
         build [5, 4] ((c, i) => sum(build 3 (r => exp(a[c, i, r]) * v[c, r])))\n",
    );
    let text = show(&plan(&f).unwrap());
    assert!(!text.contains("matmul"), "{text}");
    agrees(&f, &plan(&f).unwrap(), &inputs(&f));
}

/// `select(r < i, a · b, 0)`: the left side stored under the condition, the condition
/// stored beside it as a mask, and a dropped term is the program's `+0`.
const MASKED: &str = "def main(a: R[5, 5, 4], b: R[5, 4, 6]) -> R[5, 5, 6] =\n  \
    build [5, 5, 6] ((c, i, j) => sum(build 4 (r => select(r < i, a[c, i, r] * b[c, r, j], 0.0))))\n";

#[test]
fn a_select_around_the_product_stores_its_condition_as_a_mask() {
    let f = elaborate(MASKED);
    plan_with(&f, "(mask b");
    agrees(&f, &plan(&f).unwrap(), &inputs(&f));
    for seed in 0..16 {
        same_zeros(&f, &zeroish(&f, seed));
    }
    // All products `-1 · 0 = -0`: the row `i = 4` keeps every term and sums to `-0`, the
    // rows below drop some as `+0` and sum to `+0`.
    let xs = with(&f, |p, _, _| if p == 0 { -1.0 } else { 0.0 });
    same_zeros(&f, &xs);
}

#[test]
fn a_non_finite_value_under_a_dropped_term_runs_the_reduction() {
    // `b[c, 3, j]` is read only by row `i = 4`; the program drops it in rows 0 to 3,
    // where a product with the stored `0` would be NaN.
    let f = elaborate(MASKED);
    let xs = with(&f, |p, o, x| {
        if p == 1 && (o / 6) % 4 == 3 {
            f64::INFINITY
        } else {
            x
        }
    });
    same_zeros(&f, &xs);
}

#[test]
fn a_select_inside_the_product_recomputes_zeros_by_the_reduction() {
    // `a · (r < j ? b : 0)`: a dropped term is `a · +0`, of `a`'s sign.
    let f = elaborate(
        "def main(a: R[5, 6, 4], b: R[5, 4, 4]) -> R[5, 6, 4] =\n  \
         build [5, 6, 4] ((c, i, j) => sum(build 4 (r => a[c, i, r] * select(r < j, b[c, r, j], 0.0))))\n",
    );
    plan_with(&f, "zeros by the reduction");
    agrees(&f, &plan(&f).unwrap(), &inputs(&f));
    for seed in 0..16 {
        same_zeros(&f, &zeroish(&f, seed));
    }
    // Column `j = 0` drops every term: `-1 · +0` summed is `-0`.
    same_zeros(&f, &with(&f, |p, _, _| if p == 0 { -1.0 } else { 0.5 }));
    // An infinity in `a` meets a dropped term: NaN, as the program.
    same_zeros(
        &f,
        &with(
            &f,
            |p, o, x| if p == 0 && o == 0 { f64::INFINITY } else { x },
        ),
    );
}

#[test]
fn a_select_whose_condition_does_not_read_the_summed_index_selects_two_sums() {
    let f = elaborate(
        "def main(a: R[5, 4, 3], b: R[5, 3, 6]) -> R[5, 4, 6] =\n  \
         build [5, 4, 6] ((c, i, j) => sum(build 3 (r => select(i < j, a[c, i, r] * b[c, r, j], 0.0))))\n",
    );
    let text = plan_with(&f, "batched matmul");
    assert!(text.contains("map [v0, v1, v2] = ((v1 < v2) ?"), "{text}");
    agrees(&f, &plan(&f).unwrap(), &inputs(&f));
    for seed in 0..8 {
        same_zeros(&f, &zeroish(&f, seed));
    }
}

/// The GMM objective of `specs/bench/programs/gmm.adl` at d = 3, K = 2, n = 7.
const GMM: &str = "def main(alphas: R[2], means: R[2, 3], icf: R[2, 6], x: R[7, 3]) -> R =\n  \
    let sum_qs = build 2 (c => sum(build 3 (j => icf[c, j]))) in\n  \
    let v = build [7, 2] ((p, c) =>\n      \
      let qx = build 3 (i =>\n        \
        exp(icf[c, i]) * (x[p, i] - means[c, i]) +\n        \
        sum(build 3 (j =>\n          \
          select(j < i, icf[c, 3 + j * (2 * 3 - j - 1) / 2 + i - j - 1] * (x[p, j] - means[c, j]),\n            \
            0.0)))) in\n      \
      alphas[c] + sum_qs[c] - 0.5 * sum(qx * qx)) in\n  \
    let mx = build 7 (p => v[p, 0]) in\n  \
    let per_point = build 7 (p => mx[p] + log(sum(build 2 (c => exp(v[p, c] - mx[p]))))) in\n  \
    let amx = alphas[0] in\n  \
    let lse_alphas = amx + log(sum(exp(alphas - amx))) in\n  \
    let frob = sum(build [2, 3] ((c, j) => exp(icf[c, j]) * exp(icf[c, j]))) +\n    \
      sum(build [2, 3] ((c, j) => icf[c, j + 3] * icf[c, j + 3])) in\n  \
    sum(per_point) - real(7) * lse_alphas + 0.5 * frob\n";

#[test]
fn the_gmm_gradient_applies_its_triangular_factors_as_batched_products() {
    let (g, args) = gradient(GMM);
    let p = plan(&g).expect("plans");
    let text = show(&p);
    assert!(
        text.matches("batched matmul").count() >= 2,
        "the factor applied to every point and its transpose:\n{text}"
    );
    agrees(&g, &p, &args);
}
