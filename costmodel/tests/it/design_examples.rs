//! The examples of docs/cost-models.md and closed forms of dot and matrix products.
use crate::common;
use common::{costs, invariants};

#[test]
fn design_sum_of_product_costs_19() {
    let c = costs("def main(x: R[10], y: R[10]) -> R = sum(x * y)");
    assert_eq!(c.ops, 19);
    invariants(&c);
}

#[test]
fn design_rational_function_costs_11() {
    let c = costs("def main(x: R[3]) -> R = sum(x / (1 + x * x))");
    assert_eq!(c.ops, 11);
    invariants(&c);
    // the broadcast `1` is a replicate: 3 scalars of data movement, one step
    assert_eq!((c.work, c.span), (14, 6));
    // inputs 3; while `1 + x * x` runs: the replicated 1s and the products (6) and the sum (3)
    assert_eq!(c.mem, 12);
}

#[test]
fn dot_products_cost_2n_minus_1_in_every_formulation() {
    for n in [1usize, 2, 3, 7, 16] {
        let want = 2 * n as u64 - 1;
        let forms = [
            format!("def main(x: R[{n}], y: R[{n}]) -> R = sum(x * y)"),
            format!("def main(x: R[{n}], y: R[{n}]) -> R = reduce(+, 0, x * y)"),
            format!("def main(x: R[{n}], y: R[{n}]) -> R = sum(build {n} (i => x[i] * y[i]))"),
            format!("def main(x: R[{n}], y: R[{n}]) -> R = sum(map((a, b) => a * b, x, y))"),
        ];
        for src in &forms {
            let c = costs(src);
            assert_eq!(c.ops, want, "{src}");
            invariants(&c);
        }
    }
}

#[test]
fn dot_product_work_span_mem() {
    // x * y: n products, one step; sum: n - 1 additions, ⌈log2 n⌉ steps.
    // mem: inputs 2n, the product n, the result 1.
    for (n, log) in [(1u64, 0u64), (2, 1), (10, 4), (16, 4), (17, 5)] {
        let c = costs(&format!("def main(x: R[{n}], y: R[{n}]) -> R = sum(x * y)"));
        assert_eq!(c.work, 2 * n - 1, "n = {n}");
        assert_eq!(c.span, 1 + log, "n = {n}");
        assert_eq!(c.mem, 3 * n + 1, "n = {n}");
    }
}

fn matmul_build(n: usize, k: usize, m: usize) -> String {
    format!(
        "def main(a: R[{n},{k}], b: R[{k},{m}]) -> R[{n},{m}] =
           build [{n}, {m}] ((i, j) => sum(build {k} (l => a[i, l] * b[l, j])))"
    )
}

fn matmul_map(n: usize, k: usize, m: usize) -> String {
    format!(
        "def main(a: R[{n},{k}], b: R[{k},{m}]) -> R[{n},{m}] =
           let bt = transpose([1, 0], b) in
           map(row => map(col => sum(row * col), bt), a)"
    )
}

fn matmul_sum_outer(n: usize, k: usize, m: usize) -> String {
    format!(
        "def main(a: R[{n},{k}], b: R[{k},{m}]) -> R[{n},{m}] =
           build {n} (i => sum_outer(build {k} (l => replicate({m}, a[i, l]) * b[l])))"
    )
}

#[test]
fn matrix_products_cost_nm_2k_minus_1() {
    for (n, k, m) in [
        (1usize, 1usize, 1usize),
        (2, 3, 4),
        (3, 1, 2),
        (4, 5, 3),
        (1, 8, 1),
    ] {
        let want = (n * m * (2 * k - 1)) as u64;
        for src in [
            matmul_build(n, k, m),
            matmul_map(n, k, m),
            matmul_sum_outer(n, k, m),
        ] {
            let c = costs(&src);
            assert_eq!(c.ops, want, "[{n},{k}]·[{k},{m}]: {src}");
            invariants(&c);
        }
    }
}

#[test]
fn matrix_product_by_build_work_and_span() {
    // Per result element: k × (two index reads + one product) + (k - 1) additions.
    // Depth: index, product (sequential: 3 steps counting the second read), then the sum tree.
    for (n, k, m) in [(2u64, 3u64, 4u64), (3, 8, 2)] {
        let c = costs(&matmul_build(n as usize, k as usize, m as usize));
        assert_eq!(c.work, n * m * (4 * k - 1));
        let log = 64 - u64::from((k - 1).leading_zeros());
        assert_eq!(c.span, 3 + log);
    }
}

#[test]
fn deep_programs_do_not_overflow_the_stack() {
    use adora_core::ast::{BinOp, Expr, ExprKind, Function, Param};
    use adora_core::{Span, Type};
    // a left-nested chain of 20000 additions (the elaborated-depth limit), built directly
    let n = 20_000;
    adora_core::with_stack(move || {
        let x = || Expr::new(ExprKind::Var("x".into()), Span::DUMMY);
        let mut body = x();
        for _ in 0..n {
            body = Expr::new(
                ExprKind::Binary(BinOp::Add, Box::new(body), Box::new(x())),
                Span::DUMMY,
            );
        }
        let f = Function {
            name: "main".into(),
            params: vec![Param {
                name: "x".into(),
                ty: Type::real(),
                span: Span::DUMMY,
            }],
            ret: Type::real(),
            body,
        };
        let xs = adora_costmodel::default_inputs(&f);
        let c = adora_costmodel::measure(&f, &xs, &Default::default()).expect("measures");
        assert_eq!((c.ops, c.work, c.span), (n, n, n));
        // the input, the running sum, and the result of the next addition
        assert_eq!(c.mem, 3);
    });
}
