//! Engine `soac`'s forward mode and lowering (seed 004 §2, §2.0.1, §3;
//! docs/engines/soac-forward.md): the JVP program of every construct equals the reference
//! JVP exactly (ties, zeros, out-of-bounds indices, empty arrays, nested maps with free
//! variables, loops over tuples), and lowering the bulk forms to SOACs keeps every value.

use adora_core::ast::{Expr, ExprKind, Function, Prim};
use adora_rewrites::engine::harness::{self, Answer, Query, Route};
use adora_rewrites::engine::{find, reference, Engine, Question};
use adora_rewrites::soac::lower::lower;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::io::value_from_expr;
use adora_semantics::scalar::Scalar;
use adora_semantics::value::Value;
use adora_semantics::Rat;

fn load(src: &str) -> Function {
    adora_core::load(src, "main").unwrap_or_else(|d| panic!("{d}\n{src}"))
}

fn value<S: Scalar>(f: &Function, k: usize, lit: &str) -> Value<S> {
    let e = adora_core::parser::parse_literal(lit).unwrap_or_else(|d| panic!("{d}: {lit}"));
    value_from_expr(&e, &f.params[k].ty).unwrap_or_else(|d| panic!("{d}: {lit}"))
}

fn soac() -> Box<dyn Engine> {
    find("soac").expect("engine soac is registered")
}

/// The soac JVP program's answer equals the reference's exactly, in exact mode, at the
/// inputs and tangents given (`None`: no tangent for that input); returns the tangent.
fn jvp_agrees(src: &str, inputs: &[&str], tangents: &[Option<&str>]) -> Value<Rat> {
    let f = load(src);
    let xs: Vec<Value<Rat>> = inputs
        .iter()
        .enumerate()
        .map(|(k, l)| value(&f, k, l))
        .collect();
    let ts: Vec<Option<Value<Rat>>> = tangents
        .iter()
        .enumerate()
        .map(|(k, t)| t.map(|l| value(&f, k, l)))
        .collect();
    let q = Query::Jvp(ts);
    let opts = EvalOptions::default();
    let want = harness::ask(reference().as_ref(), &f, &xs, &q, &opts).unwrap();
    let e = soac();
    let dp = e
        .program(&f, Question::Jvp)
        .unwrap_or_else(|d| panic!("{d}\n{src}"));
    dp.check(&f).unwrap();
    let got = harness::ask_by(e.as_ref(), Route::Program, &f, &xs, &q, &opts)
        .unwrap_or_else(|d| panic!("{d}\n{}", adora_core::pretty::function(&dp.function)));
    assert_eq!(
        got,
        want,
        "{src}\n{}",
        adora_core::pretty::function(&dp.function)
    );
    match got {
        Answer::Jvp(_, t) => t,
        Answer::Gradient(_) => unreachable!("a JVP query answers a JVP"),
    }
}

/// The same in f64 mode, within the harness's relative tolerance.
fn jvp_agrees_f64(src: &str, inputs: &[&str], tangents: &[&str]) {
    let f = load(src);
    let xs: Vec<Value<f64>> = inputs
        .iter()
        .enumerate()
        .map(|(k, l)| value(&f, k, l))
        .collect();
    let ts: Vec<Option<Value<f64>>> = tangents
        .iter()
        .enumerate()
        .map(|(k, l)| Some(value(&f, k, l)))
        .collect();
    let q = Query::Jvp(ts);
    let opts = EvalOptions::default();
    let want = harness::ask(reference().as_ref(), &f, &xs, &q, &opts).unwrap();
    let got = harness::ask(soac().as_ref(), &f, &xs, &q, &opts).unwrap();
    let (Answer::Jvp(gv, gt), Answer::Jvp(wv, wt)) = (&got, &want) else {
        panic!("not JVP answers")
    };
    assert!(
        harness::values_agree(gv, wv, harness::F64_TOLERANCE)
            && harness::values_agree(gt, wt, harness::F64_TOLERANCE),
        "{src}: {got:?} vs {want:?}"
    );
}

#[test]
fn soac_is_registered_after_linear_and_answers_every_question() {
    let names: Vec<String> = adora_rewrites::engine::registry()
        .iter()
        .map(|e| e.name().to_string())
        .collect();
    let k = names.iter().position(|n| n == "soac").unwrap();
    assert_eq!(names[k - 1], "linear");
    let e = soac();
    assert_eq!(
        e.programs(),
        &[Question::Grad, Question::Vjp, Question::Jvp]
    );
    assert_eq!(e.fragments().len(), 3);
    assert!(e.description().contains("seed 004"));
    let f = load("def main(x: R) -> R = x * x");
    let xs = [Value::real(Rat::from_integer(2.into()))];
    let got = harness::ask(e.as_ref(), &f, &xs, &Query::Grad, &EvalOptions::default()).unwrap();
    let want = adora_semantics::reference::gradient(&f, &xs, &EvalOptions::default()).unwrap();
    assert_eq!(got, harness::Answer::Gradient(want));
}

#[test]
fn scalar_operators_and_primitives() {
    let src = "def main(x: R, y: R) -> R = x * y - x / y + pow(x, 3) + pow(y, -2) + abs(y) + min(x, y) + max(y, x) - -x";
    let t = jvp_agrees(src, &["3", "1/2"], &[Some("1"), Some("-2")]);
    assert_ne!(t, Value::real(Rat::from_integer(0.into())));
    // ties of min/max, abs'(0) = 0, division by zero (total).
    jvp_agrees(src, &["0", "0"], &[Some("1"), Some("2")]);
    jvp_agrees(src, &["2", "2"], &[Some("1"), Some("5")]);
    jvp_agrees(src, &["2", "2"], &[None, Some("5")]);
    let src = "def main(x: R, k: Z) -> R = select(x > 1.0, x * x, pow(x, 0) + pow(x, 1)) + real(floor(x) + k) * x";
    jvp_agrees(src, &["3/2", "4"], &[Some("3"), None]);
    jvp_agrees(src, &["1/2", "4"], &[Some("3"), None]);
}

#[test]
fn tuples_lets_ifs_and_integer_results() {
    let src = "def main(x: R, y: R[2]) -> (R, Z, R[2], B) =
      let (a, b) = (x * y[0], x + 1.0) in
      let p = if a > b then (a, 3, y) else (b, 4, y * y) in
      (p.0 * p.2[1], p.1, p.2, a > b)";
    jvp_agrees(src, &["2", "[1, 3]"], &[Some("1"), Some("[2, -1]")]);
    jvp_agrees(src, &["-2", "[1, 3]"], &[Some("1"), Some("[2, -1]")]);
    jvp_agrees(src, &["-2", "[1, 3]"], &[None, None]);
    let src = "def main(k: Z) -> Z = k * 2";
    jvp_agrees(src, &["3"], &[None]);
}

#[test]
fn indexing_build_gather_scatter_out_of_bounds() {
    let src = "def main(x: R[4], i: Z) -> R[9] =
      let g = gather([3], x, j => [j * 2 + i]) in
      let s = scatter([3], x, j => [j / 2 + i]) in
      let b = build [2, 3] ((p, q) => x[p + q + i] * g[q]) in
      append(append(g, s), [sum(b), x[i - 5], sum(gather([], x, () => [i]))])";
    for i in ["0", "1", "-1", "3"] {
        jvp_agrees(src, &["[1, -2, 3, 1/2]", i], &[Some("[1, 2, 3, 4]"), None]);
    }
}

#[test]
fn nested_maps_with_free_variables() {
    let src = "def main(x: R[3], y: R[2], z: R) -> R[2, 3] =
      map(r => map((c, d) => c * r + z * d + y[0], x, x * x), y)";
    jvp_agrees(
        src,
        &["[1, 2, 3]", "[4, 5]", "7"],
        &[Some("[1, 0, -1]"), Some("[2, 3]"), Some("1")],
    );
    jvp_agrees(src, &["[1, 2, 3]", "[4, 5]", "7"], &[None, None, Some("1")]);
    let src = "def main(x: R[3], k: Z[3]) -> Z[3] = map((a, j) => floor(a) + j, x, k)";
    jvp_agrees(src, &["[1, 2, 3]", "[4, 5, 6]"], &[Some("[1, 1, 1]"), None]);
}

#[test]
fn reduce_and_scan_with_every_operator() {
    for op in [
        "+",
        "*",
        "min",
        "max",
        "(a, b) => a * b + a",
        "(a, b) => max(a, b * b)",
    ] {
        let src = format!(
            "def main(x: R[5], m: R[3, 2], e: R) -> (R, R[5], R[2], R[3, 2]) =
              (reduce({op}, e, x), scan({op}, e, x), reduce({op}, [e, 1.0], m), scan({op}, [e, e], m))"
        );
        // ties among elements and with the neutral element, zeros.
        for (x, e) in [
            ("[1, 3, 3, -2, 3]", "3"),
            ("[2, 2, 2, 2, 2]", "2"),
            ("[0, 1, 0, 1, 0]", "0"),
            ("[-1, 4, 1/2, 4, -1]", "-5"),
        ] {
            jvp_agrees(
                &src,
                &[x, "[[1, 2], [2, 2], [2, 1]]", e],
                &[
                    Some("[1, 2, 3, 4, 5]"),
                    Some("[[1, -1], [3, 2], [5, 7]]"),
                    Some("10"),
                ],
            );
        }
        jvp_agrees(
            &src,
            &["[1, 2, 3, 4, 5]", "[[1, 2], [2, 2], [2, 1]]", "1"],
            &[None, None, Some("1")],
        );
    }
    // empty arrays: the neutral element.
    for op in ["+", "*", "min", "max", "(a, b) => a * b"] {
        let src = format!(
            "def main(x: R[0], e: R) -> (R, R[0]) = (reduce({op}, e * e, x), scan({op}, e, x))"
        );
        jvp_agrees(&src, &["[]", "3"], &[Some("[]"), Some("1")]);
    }
}

#[test]
fn reduce_by_index_ties_and_out_of_bounds() {
    for op in ["+", "*", "min", "max", "(a, b) => a * b - b"] {
        let src = format!(
            "def main(d: R[3], v: R[6], is: Z[6]) -> (R[3], R[3, 2]) =
              (reduce_by_index(d, {op}, 0.0, is, v),
               reduce_by_index(map(a => [a, a * a], d), {op}, [1.0, 0.0], is, map(b => [b, 1.0 - b], v)))"
        );
        for (d, v, is) in [
            ("[1, 2, 3]", "[1, 3, 2, 3, 0, 5]", "[0, 1, 1, 7, -1, 2]"),
            ("[2, 2, 2]", "[2, 2, 2, 1, 3, 2]", "[0, 0, 1, 1, 2, 2]"),
            ("[0, 0, 0]", "[0, 1, 0, 0, 2, 0]", "[2, 2, 2, 3, 0, 1]"),
        ] {
            jvp_agrees(
                &src,
                &[d, v, is],
                &[Some("[1, 2, 3]"), Some("[1, -1, 2, -2, 3, -3]"), None],
            );
        }
    }
}

#[test]
fn scatter_into_last_write_wins() {
    let src = "def main(d: R[4], v: R[5], is: Z[5]) -> R[4] = scatter_into(d * d, is, v * 2.0)";
    jvp_agrees(
        src,
        &["[1, 2, 3, 4]", "[5, 6, 7, 8, 9]", "[1, 1, 9, -1, 3]"],
        &[Some("[1, 1, 1, 1]"), Some("[1, 2, 3, 4, 5]"), None],
    );
}

#[test]
fn loops_over_tuples() {
    let src = "def main(x: R[3], y: R) -> (R, Z, R[3]) =
      loop ((a, k, v) = (y, 0, x)) for i < 4 do
        (a * v[k % 3] + y, k + 1, map(c => c * a, v))";
    jvp_agrees(src, &["[1, 2, -1]", "1/2"], &[Some("[1, 0, 2]"), Some("3")]);
    let src = "def main(y: R) -> R = loop (s = 0.0) for i < 3 do s * y + real(i)";
    jvp_agrees(src, &["2"], &[Some("1")]);
}

#[test]
fn primitives_on_arrays() {
    let src = "def main(x: R[2, 3], y: R[3]) -> (R[3, 2], R[6], R[3], R[2, 3], R[2, 3], R, R[3]) =
      (transpose([1, 0], x), reshape([6], x), sum_outer(x), stack([y, y * y]),
       select(x > replicate(2, y), x, replicate(2, y)), sum(pow(x, 2)),
       map((a, i) => a * real(i), y, iota(3)))";
    jvp_agrees(
        src,
        &["[[1, 2, 3], [3, 2, 1]]", "[2, 2, 2]"],
        &[Some("[[1, 0, 1], [2, 1, 0]]"), Some("[1, 2, 3]")],
    );
}

#[test]
fn f64_mode_with_transcendentals() {
    let src = "def main(x: R[3], y: R) -> R =
      reduce((a, b) => a * exp(b) + sin(a), y, x) + sum(map(c => sqrt(c * c + 1.0) * tanh(c) + log(c * c + 1.0) * cos(c), x))";
    jvp_agrees_f64(src, &["[0.5, -1, 2]", "0.25"], &["[1, 2, 3]", "1"]);
}

/// Whether `e` contains a form the lowering removes.
fn has_bulk(e: &Expr) -> bool {
    adora_core::visit::subexprs(e).iter().any(|x| {
        matches!(
            x.kind,
            ExprKind::Build(..)
                | ExprKind::Gather(..)
                | ExprKind::Scatter(..)
                | ExprKind::Prim(Prim::Sum | Prim::SumOuter | Prim::Replicate(_), _)
        )
    })
}

/// Lowering `src` removes every bulk form and keeps the value at `inputs`.
fn lowers(src: &str, inputs: &[&str]) {
    let f = load(src);
    assert!(has_bulk(&f.body), "{src}");
    let g = lower(&f).unwrap_or_else(|d| panic!("{d}\n{src}"));
    let text = adora_core::pretty::function(&g);
    assert!(!has_bulk(&g.body), "{text}");
    adora_core::check::check_function(&g).unwrap();
    let xs: Vec<Value<Rat>> = inputs
        .iter()
        .enumerate()
        .map(|(k, l)| value(&f, k, l))
        .collect();
    let opts = EvalOptions::default();
    let (want, _) = eval(&f, &xs, &opts).unwrap();
    let (got, _) = eval(&g, &xs, &opts).unwrap_or_else(|d| panic!("{d}\n{text}"));
    assert_eq!(got, want, "{src}\n{text}");
}

#[test]
fn lowering_build_gather_sum_sum_outer_replicate() {
    let x = "[[1, 2, 3], [4, 5, 6]]";
    lowers(
        "def main(x: R[2, 3]) -> R[3, 2] = build [3, 2] ((i, j) => x[j, i] * real(i + j))",
        &[x],
    );
    lowers(
        "def main(x: R[2, 3], k: Z) -> R[4, 3] = gather([4], x, i => [i + k])",
        &[x, "-1"],
    );
    lowers(
        "def main(x: R[2, 3], k: Z) -> R = gather([], x, () => [k, 2])",
        &[x, "1"],
    );
    lowers(
        "def main(x: R[2, 3]) -> R[2, 2] = gather([2, 2], x, (i, j) => [j, i + 1])",
        &[x],
    );
    lowers(
        "def main(x: R[2, 3]) -> (R, R[3], R[4, 3]) = (sum(x), sum_outer(x), replicate(4, x[0]))",
        &[x],
    );
    lowers(
        "def main(x: R[2, 3]) -> R = sum(x[0]) + sum(sum_outer(x))",
        &[x],
    );
    lowers(
        "def main(k: Z[3]) -> Z = sum(k) + sum(replicate(2, k[0]))",
        &["[1, 2, 3]"],
    );
}

#[test]
fn lowering_scatter_collisions_out_of_bounds_and_prefixes() {
    let x = "[[1, 2, 3], [4, 5, 6]]";
    // one index, collisions and out of bounds
    lowers(
        "def main(x: R[2, 3], k: Z) -> R[3, 3] = scatter([3, 3], x, i => [i * k])",
        &[x, "0"],
    );
    lowers(
        "def main(x: R[2, 3], k: Z) -> R[3, 3] = scatter([3, 3], x, i => [i * k])",
        &[x, "5"],
    );
    // a two-dimensional index prefix, a component out of bounds in its own dimension
    lowers(
        "def main(x: R[2, 3], k: Z) -> R[2, 2] = scatter([2, 2], x, (i, j) => [i, j + k])",
        &[x, "-1"],
    );
    lowers(
        "def main(x: R[2, 3], k: Z) -> R[3, 2, 2] = scatter([3, 2, 2], x, (i, j) => [j, i, k])",
        &[x, "1"],
    );
    // no index: the sum into a scalar; no binder
    lowers(
        "def main(x: R[2, 3]) -> R = scatter([], x, (i, j) => [])",
        &[x],
    );
    lowers(
        "def main(x: R[2, 3]) -> R[3, 2, 3] = scatter([3, 2, 3], x, () => [1])",
        &[x],
    );
}

#[test]
fn lowering_keeps_soac_forms_and_nested_bodies() {
    lowers(
        "def main(x: R[3]) -> R[3] = map(a => sum(build 2 (i => a * real(i))), scan(+, 0.0, x))",
        &["[1, 2, 3]"],
    );
    lowers(
        "def main(x: R[3]) -> R = loop (s = 0.0) for i < 2 do s + sum(replicate(2, x))",
        &["[1, 2, 3]"],
    );
}

/// Every golden program (`specs/programs/**`) at its header inputs: the soac JVP equals
/// the reference JVP along the all-ones tangent, exactly (f64 programs: within the
/// harness's tolerance).
#[test]
fn every_golden_program() {
    let mut checked = 0;
    for (path, src) in crate::bot_support::programs() {
        let f = crate::bot_support::load(&src);
        let Some(xs) = crate::bot_support::header_inputs(&src, &f) else {
            continue;
        };
        let ts: Vec<Option<Value<Rat>>> = xs
            .iter()
            .map(|x| Some(adora_rewrites::engine::program::ones(&x.ty())))
            .collect();
        let q = Query::Jvp(ts.clone());
        let opts = EvalOptions::default();
        let e = soac();
        match harness::ask(reference().as_ref(), &f, &xs, &q, &opts) {
            Ok(want) => {
                let got = harness::ask(e.as_ref(), &f, &xs, &q, &opts)
                    .unwrap_or_else(|d| panic!("{path}: {d}"));
                assert_eq!(got, want, "{path}");
            }
            Err(d) if d.kind == adora_core::diag::ErrorKind::NonRational => {
                let xf: Vec<Value<f64>> = xs.iter().map(crate::bot_support::to_f64).collect();
                let tf: Vec<Option<Value<f64>>> = ts
                    .iter()
                    .map(|t| t.as_ref().map(crate::bot_support::to_f64))
                    .collect();
                let q = Query::Jvp(tf);
                let want = harness::ask(reference().as_ref(), &f, &xf, &q, &opts).unwrap();
                let got = harness::ask(e.as_ref(), &f, &xf, &q, &opts)
                    .unwrap_or_else(|d| panic!("{path}: {d}"));
                let (Answer::Jvp(gv, gt), Answer::Jvp(wv, wt)) = (&got, &want) else {
                    panic!("{path}: not JVP answers")
                };
                assert!(
                    harness::values_agree(gv, wv, harness::F64_TOLERANCE)
                        && harness::values_agree(gt, wt, harness::F64_TOLERANCE),
                    "{path}: {got:?} vs {want:?}"
                );
            }
            Err(_) => continue,
        }
        checked += 1;
    }
    assert!(
        checked >= 50,
        "only {checked} golden programs had header inputs"
    );
}

/// At f64 singularities the JVP program gives the reference's IEEE answers
/// (docs/language.md, "Semantic conventions": `-inf`, NaN, `sign(NaN) = 1`).
#[test]
fn f64_singularities_are_ieee_faithful() {
    for (body, x) in [
        ("pow(x, -2) + 1.0", "0"),
        ("x / 0.0 * 0.0", "1"),
        ("x * sqrt(x)", "0"),
        ("abs(x * 0.0 / 0.0)", "1"),
        ("reduce(max, 0.0, [x / 0.0, x])", "0"),
    ] {
        let src = format!("def main(x: R) -> R = {body}");
        jvp_agrees_f64(&src, &[x], &["1"]);
    }
}
