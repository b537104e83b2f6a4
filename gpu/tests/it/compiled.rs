//! Compiled kernels (docs/backend.md, "Compiled kernels"): the plan's kernels as C,
//! compiled by the system C compiler, give what the lanes give — the same bits for
//! `map`, `scan`, `scatter` and reductions folded per output, and within `1e-9 · max(1,
//! |r|)` for the partial folds of a reduction to few outputs, always with the lanes' zeros,
//! infinities and NaNs. Without a C compiler each test prints "skipped: no C compiler"
//! and passes.

use super::corpus::{corpus, Scope};
use super::shim::flatten;
use adora_gpu::cpu::native::{compiler, Native, Optimize};
use adora_gpu::cpu::{run, run_with, Kernels, Machine};
use adora_gpu::plan::{plan, show, Plan};
use adora_semantics::value::Value;

fn have_compiler() -> bool {
    if compiler().is_none() {
        println!("skipped: no C compiler (ADORA_CC, cc, gcc, clang)");
        return false;
    }
    true
}

fn plan_of(src: &str) -> Plan {
    let p = adora_core::parser::parse_program(src).expect("parses");
    let f = adora_core::check::elaborate(&p, "main").expect("checks");
    plan(&f).expect("plans")
}

/// Whether `a` (compiled) agrees with `r` (lanes): zeros and infinities bit for bit, NaN
/// with NaN, `exact` everything bit for bit, else within `1e-9 · max(1, |r|)`.
fn agree(a: f64, r: f64, exact: bool) -> bool {
    if r.is_nan() {
        return a.is_nan();
    }
    if exact || r == 0.0 || r.is_infinite() {
        return a.to_bits() == r.to_bits();
    }
    (a - r).abs() <= 1e-9 * r.abs().max(1.0)
}

/// The compiled kernels of `p` against the lanes on `inputs`.
fn compare(
    name: &str,
    p: &Plan,
    native: Native,
    inputs: &[Value<f64>],
    exact: bool,
) -> Option<String> {
    let want = run(p, inputs).expect("the lanes run it");
    let mut m = Machine::with_native(p, native).expect("its plan");
    m.load(inputs).expect("loads");
    let got = m.call().expect("the compiled kernels run it");
    let (mut g, mut w) = (Vec::new(), Vec::new());
    flatten(&got, &mut g);
    flatten(&want, &mut w);
    let ok = g.len() == w.len() && g.iter().zip(&w).all(|(a, r)| agree(*a, *r, exact));
    (!ok).then(|| format!("{name}: compiled {g:?}, lanes {w:?}\n{}", show(p)))
}

fn run_corpus(scope: Scope) {
    if !have_compiler() {
        return;
    }
    let cc = compiler().unwrap();
    let entries = corpus(scope);
    let mut failures = Vec::new();
    let mut kernels = 0;
    for batch in entries.chunks(64) {
        let plans: Vec<&Plan> = batch.iter().map(|e| &e.plan).collect();
        let natives =
            Native::compile_all(&plans, cc, Optimize::Full).expect("the generated C compiles");
        for (e, n) in batch.iter().zip(natives) {
            kernels += e.plan.kernels().len();
            failures.extend(compare(&e.name, &e.plan, n, &e.inputs, false));
        }
    }
    println!(
        "compiled kernels ({scope:?} corpus): {} programs, {kernels} kernels equal the lanes",
        entries.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The quick corpus: every primal program, one engine's derivatives per program.
#[test]
fn compiled_kernels_equal_the_lanes_on_the_corpus() {
    run_corpus(Scope::Quick);
}

/// The full corpus (every engine's derivatives): `cargo test -p adora-gpu -- --ignored`.
#[test]
#[ignore = "long: every engine's derivative programs (cargo test -- --ignored)"]
fn compiled_kernels_equal_the_lanes_on_the_full_corpus() {
    run_corpus(Scope::Full);
}

fn reals(shape: Vec<usize>, f: impl Fn(usize) -> f64) -> Value<f64> {
    let n = shape.iter().product();
    Value::reals(shape, (0..n).map(f).collect()).expect("a shape")
}

/// Each kernel kind and each index form, compiled, against the lanes: `exact` asks for
/// the same bits.
fn check(src: &str, inputs: &[Value<f64>], exact: bool) {
    let p = plan_of(src);
    let n = Native::compile(&p, compiler().unwrap()).expect("the generated C compiles");
    if let Some(f) = compare(src, &p, n, inputs, exact) {
        panic!("{f}");
    }
}

#[test]
fn maps_scans_scatters_and_folds_per_output_give_the_lanes_bits() {
    if !have_compiler() {
        return;
    }
    let x = reals(vec![40], |i| (i as f64 * 0.37).sin() * 3.0);
    let m = reals(vec![9, 13], |i| (i as f64 * 0.11).cos() - 0.2);
    // Elementwise with every operator family, a guard and a transcendental.
    check(
        "def main(x: R[40]) -> R[40] =\n  \
         build 40 (i => select(i > 3, exp(x[i]) / (x[i - 1] - 0.5), tanh(x[i]) * real(floor(x[i]))) + max(x[i], 0.1) - min(x[i], -0.1) + pow(x[i], 3) + sqrt(abs(x[i])))\n",
        std::slice::from_ref(&x),
        true,
    );
    // Reductions per output over two dimensions, with `*`, `min`, `max`.
    check(
        "def main(m: R[9, 13]) -> (R[9], R[13], R[9], R[13]) =\n  \
         (build 9 (i => sum(build 13 (j => m[i, j] * m[i, j]))),\n   \
          build 13 (j => reduce((a, b) => a * b, 1.0, build 9 (i => m[i, j] + 1.0))),\n   \
          build 9 (i => reduce((a, b) => min(a, b), 5.0, build 13 (j => m[i, j]))),\n   \
          build 13 (j => reduce((a, b) => max(a, b), -5.0, build 9 (i => m[i, j]))))\n",
        std::slice::from_ref(&m),
        true,
    );
    // A scan and a scatter with writes outside the destination (dropped).
    check(
        "def main(x: R[40]) -> (R[40], R[7]) =\n  \
         (scan((a, b) => a + b, 0.0, x), scatter([7], x, i => [i % 9 - 1]))\n",
        std::slice::from_ref(&x),
        true,
    );
    // Loads at computed indices: shifted, out of bounds on both sides, from an integer
    // array (the general index path: not integral values cannot occur, out-of-range ones
    // read 0).
    let idx = Value::ints(vec![6], vec![3, -1, 40, 0, 39, 17]).expect("ints");
    check(
        "def main(x: R[40], idx: Z[6]) -> (R[40], R[6]) =\n  \
         (build 40 (i => x[i + 3] - x[i - 2] + x[2 * i - 30]), build 6 (k => x[idx[k]]))\n",
        &[x, idx],
        true,
    );
}

#[test]
fn lanes_of_every_layout_give_the_lanes_bits() {
    if !have_compiler() {
        return;
    }
    // Signed zeros and ties, so that `min`/`max` tie rules and blends show.
    let vals = [-0.0, 0.0, 1.5, -1.5, 0.0, -0.0, 2.0, 2.0, -3.0];
    let x = reals(vec![40], |i| vals[i % 9]);
    let y = reals(vec![40], |i| vals[(i * 5 + 1) % 9]);
    // Lanes along the innermost dimension: reversed, strided and shifted indices, tie
    // rules, comparisons and blends.
    check(
        "def main(x: R[40], y: R[40]) -> R[40] =\n  \
         build 40 (i => min(x[i], y[i]) - max(y[39 - i], x[i]) + x[(2 * i) % 40] * real(i / 3)\n    \
           + select(x[i] <= y[i] && !(x[i] == 0.0), y[i + 1], x[i - 1]) - x[3 * i - 20])\n",
        &[x.clone(), y.clone()],
        true,
    );
    // Lanes over the flat space (innermost dimension shorter than the lanes), a fold with
    // a lane accumulator and a select of large branches on a uniform condition inside.
    let m = reals(vec![9, 5], |i| vals[i % 9] + i as f64 * 0.125);
    check(
        "def main(m: R[9, 5], x: R[40]) -> R[9, 5] =\n  \
         build [9, 5] ((i, j) => m[i, (j + 1) % 5] * 2.0 - m[8 - i, j]\n    \
           + sum(build 5 (k => select(k < 3, exp(m[i, k]) * m[i, j] + x[i + k] * x[j + k], tanh(m[i, k]) - x[k]))))\n",
        &[m.clone(), x],
        true,
    );
    // Flat lanes over a space whose every load reads a suffix of its variables:
    // consecutive elements, a block wrapping around a broadcast buffer's end read lane by
    // lane.
    let a = reals(vec![4, 3, 12], |i| vals[i % 9] - i as f64 * 0.01);
    let c = reals(vec![3, 12], |i| vals[(i + 4) % 9] + 0.5);
    let e = reals(vec![12], |i| i as f64 - 6.0);
    check(
        "def main(a: R[4, 3, 12], c: R[3, 12], e: R[12]) -> R[4, 3, 12] =\n  \
         build [4, 3, 12] ((i, j, k) => a[i, j, k] * c[j, k] - e[k])\n",
        &[a, c, e],
        true,
    );
    // Reductions per output with lanes over outputs, `min`/`max` folds.
    check(
        "def main(m: R[9, 5], y: R[40]) -> (R[40], R[40], R[9], R[40]) =\n  \
         (build 40 (i => reduce((a, b) => min(a, b), 0.0, build 9 (r => m[r, i % 5] * y[i]))),\n   \
          build 40 (i => reduce((a, b) => max(a, b), -0.0, build 5 (r => y[(i + r) % 40] - m[r, r]))),\n   \
          build 9 (i => sum(build 5 (r => m[i, r] * y[i + r]))),\n   \
          build 40 (i => sum(build 9 (r => y[i - r] * m[r, 2]))))\n",
        &[m, y],
        true,
    );
}

#[test]
fn a_sum_of_many_points_to_few_outputs_folds_in_fixed_partials() {
    if !have_compiler() {
        return;
    }
    let n = 100_003;
    let x = reals(vec![n], |i| ((i * 7919) % 1000) as f64 / 997.0 - 0.5);
    let src = format!(
        "def main(x: R[{n}]) -> (R, R[3]) =\n  \
        (sum(x * x), build 3 (o => sum(build {n} (i => x[i] * real(o + 1)))))\n"
    );
    let p = plan_of(&src);
    check(&src, std::slice::from_ref(&x), false);
    // The same bits whatever the number of threads.
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let a = one.install(|| run_with(&p, std::slice::from_ref(&x), Kernels::Compiled).unwrap());
    let b = two.install(|| run_with(&p, std::slice::from_ref(&x), Kernels::Compiled).unwrap());
    let (mut fa, mut fb) = (Vec::new(), Vec::new());
    flatten(&a, &mut fa);
    flatten(&b, &mut fb);
    assert_eq!(
        fa.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        fb.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
    // A sum of `-0.0`s is `-0.0`, one `+0.0` among them makes it `+0.0`.
    let zeros = reals(vec![n], |_| -0.0);
    check(&src, &[zeros], false);
    let mixed = reals(vec![n], |i| if i == n / 2 { 0.0 } else { -0.0 });
    check(&src, &[mixed], false);
}

#[test]
fn non_finite_values_follow_the_lanes() {
    if !have_compiler() {
        return;
    }
    let specials = [
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        0.0,
        -0.0,
        1.0,
        -1.0,
    ];
    let x = reals(vec![7], |i| specials[i]);
    let y = reals(vec![7], |i| specials[(i * 3 + 1) % 7]);
    check(
        "def main(x: R[7], y: R[7]) -> (R[7], R, R, R, R[7]) =\n  \
         (x / y, reduce((a, b) => max(a, b), -inf, x), reduce((a, b) => min(a, b), inf, y), sum(x * y),\n   \
          build 7 (i => select(x[i] < y[i], x[i], y[i]) * 0.0))\n",
        &[x, y],
        true,
    );
}

#[test]
fn host_loops_read_their_counters() {
    if !have_compiler() {
        return;
    }
    let x = reals(vec![5], |i| i as f64 * 0.25 - 0.5);
    check(
        "def main(x: R[5]) -> R[5] =\n  \
         loop (a = x) for k < 4 do build 5 (i => a[i] * 0.5 + real(k) * x[(i + k) % 5])\n",
        &[x],
        true,
    );
}

#[test]
fn batched_products_recompute_zeros_by_the_compiled_reduction() {
    if !have_compiler() {
        return;
    }
    // A select inside the product: zero outputs recomputed; an infinity under a dropped
    // term of the masked form: the whole reduction instead.
    let a = reals(vec![5, 6, 4], |i| if i % 3 == 0 { -1.0 } else { 0.5 });
    let b = reals(vec![5, 4, 4], |i| if i % 5 == 0 { 0.0 } else { -0.25 });
    check(
        "def main(a: R[5, 6, 4], b: R[5, 4, 4]) -> R[5, 6, 4] =\n  \
         build [5, 6, 4] ((c, i, j) => sum(build 4 (r => a[c, i, r] * select(r < j, b[c, r, j], 0.0))))\n",
        &[a, b.clone()],
        true,
    );
    let a = reals(vec![5, 5, 4], |i| (i as f64 * 0.3).sin());
    let b = reals(vec![5, 4, 6], |i| {
        if (i / 6) % 4 == 3 {
            f64::INFINITY
        } else {
            0.5
        }
    });
    check(
        "def main(a: R[5, 5, 4], b: R[5, 4, 6]) -> R[5, 5, 6] =\n  \
         build [5, 5, 6] ((c, i, j) => sum(build 4 (r => select(r < i, a[c, i, r] * b[c, r, j], 0.0))))\n",
        &[a, b],
        true,
    );
}

#[test]
fn a_compiled_machine_gives_the_same_bits_on_every_call() {
    if !have_compiler() {
        return;
    }
    let p = plan_of("def main(x: R[7]) -> R[3] = scatter([3], x * x, i => [i % 3])\n");
    let x = reals(vec![7], |i| i as f64 - 2.5);
    let mut m = Machine::with_kernels(&p, Kernels::Compiled).expect("compiles");
    assert!(m.native().is_some());
    m.load(std::slice::from_ref(&x)).unwrap();
    let first = m.call().unwrap();
    assert_eq!(first, run(&p, &[x]).unwrap());
    for _ in 0..3 {
        assert_eq!(m.call().unwrap(), first);
    }
}

#[test]
fn compiled_kernels_run_on_their_own_plan_only() {
    if !have_compiler() {
        return;
    }
    let a = plan_of("def main(x: R[7]) -> R[7] = x * x\n");
    let b = plan_of("def main(x: R[3]) -> R[3] = x + x\n");
    let n = Native::compile(&a, compiler().unwrap()).expect("compiles");
    let e = Machine::with_native(&b, n)
        .err()
        .expect("another plan's kernels are refused");
    assert_eq!(e.kind, adora_core::diag::ErrorKind::Internal);
    let n = Native::compile(&a, compiler().unwrap()).expect("compiles");
    assert!(Machine::with_native(&a, n).is_ok());
}
