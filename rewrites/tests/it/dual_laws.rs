//! The theorems and invariants of seed 000 checked on hand-written programs: the adjoint
//! law, Delta sizes independent of array sizes (and dual-scalar's Delta explosion), the
//! one-hot count, build-free and deterministic gradient programs, and scatter fusion
//! keeping one-hot gradients cheap.

use crate::dual_support;

use adora_core::ast::ExprKind;
use adora_rewrites::dual::symbolic::wrapper::gradient_program;
use adora_rewrites::dual::{
    fragment, runtime_delta_nodes, runtime_jvp_normal, runtime_vjp_normal, scalar,
};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use dual_support::{load, random_cotangent, random_inputs, random_value};
use num_traits::Zero;
use rand::SeedableRng;

fn dot(a: &Value<Rat>, b: &Value<Rat>) -> Rat {
    a.real_scalars()
        .into_iter()
        .zip(b.real_scalars())
        .fold(Rat::zero(), |acc, (x, y)| acc + x * y)
}

#[test]
fn adjoint_law_on_array_and_tuple_results() {
    let opts = EvalOptions::default();
    for src in [
        "def main(x: R[4], y: R[4]) -> R[4] = x * y / (y + x) - max(x, y)",
        "def main(x: R[3, 2]) -> R[2, 3] = transpose([1, 0], x * x)",
        "def main(x: R[5], w: R[3]) -> R[3] = scatter([3], gather([6], x, i => [i - 1]) * gather([6], w, j => [j % 3]), k => [k / 2])",
        "def main(x: R[2], y: R) -> (R[2], R) = let z = x * replicate(2, y) in (z + x, sum(z) * y)",
        "def main(x: R[4]) -> R[2, 2] = reshape([2, 2], x * x)",
        "def main(x: R[2], y: R[3]) -> R[2, 5] = transpose([1, 0], append(stack([x, x * x]), replicate(3, replicate(2, y[0])) * [x, x, x]))",
    ] {
        let f = load(src);
        for seed in 0..4 {
            let inputs = random_inputs(&f, seed);
            let ct = random_cotangent(&f, seed);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed + 100);
            let t: Vec<Option<Value<Rat>>> = f.params.iter().map(|p| Some(random_value(&p.ty, &mut rng))).collect();
            let (_, jt) = runtime_jvp_normal(&f, &inputs, &t, &opts).expect("jvp");
            let (back, _) = runtime_vjp_normal(&f, &inputs, &ct, &opts).expect("vjp");
            let lhs = dot(&ct, &jt);
            let rhs = back
                .grads
                .iter()
                .zip(&t)
                .filter_map(|(g, t)| Some(dot(g.as_ref()?, t.as_ref()?)))
                .fold(Rat::zero(), |a, b| a + b);
            assert_eq!(lhs, rhs, "{src}");
        }
    }
}

fn fig18_normal(n: usize) -> String {
    format!(
        "def main(x: R[{n}]) -> R = sum_outer(gather([{n}], x, i => [i]) * gather([{n}], x, j => [{} - j]))",
        n - 1
    )
}

fn conv_source(n: usize) -> String {
    format!(
        "def main(x: R[{}], w: R[3]) -> R = let y = build {n} (i => sum(build 3 (k => x[i + k] * w[k]))) in sum(y * y)",
        n + 2
    )
}

#[test]
fn delta_size_does_not_grow_with_array_sizes() {
    let opts = EvalOptions::default();
    let counts: Vec<usize> = [3, 10, 50]
        .iter()
        .map(|&n| {
            let f = load(&fig18_normal(n));
            runtime_delta_nodes(&f, &random_inputs(&f, 1), &opts).expect("forward")
        })
        .collect();
    assert!(
        counts.iter().all(|&c| c == counts[0] && c > 0),
        "{counts:?}"
    );
    let counts: Vec<(usize, usize)> = [4, 12, 40]
        .iter()
        .map(|&n| {
            let f = load(&conv_source(n));
            let g = fragment::prepare(&f).expect("bot");
            assert!(!adora_rewrites::bot::has_build(&g));
            let xs = random_inputs(&f, 2);
            let dual = runtime_delta_nodes(&g, &xs, &opts).expect("forward");
            let sc = scalar::delta_nodes(&f, &xs, &opts).expect("dual-scalar");
            (dual, sc)
        })
        .collect();
    assert!(
        counts.iter().all(|c| c.0 == counts[0].0),
        "dual: {counts:?}"
    );
    // dual-scalar: the Delta explosion of §4.1, linear in the size
    assert!(
        counts[0].1 < counts[1].1 && counts[1].1 < counts[2].1,
        "dual-scalar: {counts:?}"
    );
    assert!(counts[2].1 > 20 * counts[2].0, "{counts:?}");
}

#[test]
fn one_hots_are_counted_per_index_node() {
    let opts = EvalOptions::default();
    let f = load("def main(x: R[6]) -> R = x[0] * x[1] + x[5] + sum(gather([2], x, i => [i + 3]))");
    let (_, st) = runtime_vjp_normal(
        &f,
        &random_inputs(&f, 0),
        &Value::real(Rat::from_integer(1.into())),
        &opts,
    )
    .expect("vjp");
    assert_eq!(st.one_hots, 3);
    let gp = gradient_program(&f).expect("gradient program");
    assert_eq!(gp.one_hots, 3);
}

#[test]
fn gradient_programs_are_build_free_checked_and_deterministic() {
    for src in [
        fig18_normal(5),
        conv_source(6),
        "def main(x: R[3]) -> R = let y = x * x in sum(y * y + y)".to_string(),
    ] {
        let f = load(&src);
        let g = fragment::prepare(&f).expect("bot");
        let a = gradient_program(&g).expect("gradient program");
        let b = gradient_program(&g).expect("gradient program");
        assert_eq!(
            adora_core::pretty::function(&a.function),
            adora_core::pretty::function(&b.function)
        );
        adora_core::check::check_function(&a.function).expect("checks");
        assert!(adora_core::visit::subexprs(&a.function.body)
            .iter()
            .all(|e| !matches!(e.kind, ExprKind::Build(..) | ExprKind::Call(..))));
        // the printed program parses back to the same function
        let text = adora_core::pretty::function(&a.function);
        let back = adora_core::load(&text, &a.function.name).expect("the printed program loads");
        assert_eq!(back.params, a.function.params);
        assert_eq!(back.ret, a.function.ret);
    }
}

#[test]
fn one_hot_gradients_are_fused_into_one_scatter() {
    let f = load("def main(x: R[100]) -> R = x[0] * x[1] + x[2] - x[3] + x[99]");
    let gp = gradient_program(&f).expect("gradient program");
    let xs = random_inputs(&f, 3);
    let opts = EvalOptions::default();
    let primal = adora_costmodel::measure(&f, &xs, &opts).expect("costs").ops;
    let mut args = xs.clone();
    args.push(Value::real(Rat::from_integer(1.into())));
    let grad = adora_costmodel::measure(&gp.function, &args, &opts)
        .expect("costs")
        .ops;
    // 5 one-hots of a 100-element array would cost 400 additions; one fused scatter of
    // five slices costs none (distinct slots), plus the primal part and the products.
    assert!(
        grad <= 4 * primal + 101,
        "ops(grad) = {grad}, ops(primal) = {primal}\n{}",
        adora_core::pretty::function(&gp.function)
    );
    let scatters = adora_core::visit::subexprs(&gp.function.body)
        .iter()
        .filter(|e| matches!(e.kind, ExprKind::Scatter(..)))
        .count();
    assert_eq!(
        scatters,
        1,
        "{}",
        adora_core::pretty::function(&gp.function)
    );
    dual_support::agree(&f, &xs, &Value::real(Rat::from_integer(1.into())));
}
