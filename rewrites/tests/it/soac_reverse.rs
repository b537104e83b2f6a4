//! Engine `soac`'s reverse mode (`adora_rewrites::soac::reverse`, seed 004 *AD for an
//! Array Language with Nested Parallelism* §4–§6) through the engine harness: hand-written
//! programs for every construct it differentiates (scalar operations, primitives,
//! tuples, indexing with out-of-bounds reads, `if`, `map` with free scalars and arrays,
//! nested maps, loops over tuples and arrays, `if` in maps and loops), compared with the
//! reference derivative exactly (`==` on rationals); the golden programs it accepts; the
//! call site of the SOAC rules exercised with a `reduce(+)` rule written here; and the
//! re-execution counts.

use crate::linear_support::{direction, goldens};
use adora_core::ast::{Expr, ExprKind, Function, Op, Pat};
use adora_core::diag::{ErrorKind, Result, Span};
use adora_core::types::Type;
use adora_rewrites::engine::harness::{ask, Answer, Query};
use adora_rewrites::engine::{DerivativeProgram, Engine, Question};
use adora_rewrites::soac::reverse::{self, Rules};
use adora_rewrites::soac::rules::{RevEnv, RuleOutput, Stmt};
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference;
use adora_semantics::value::Value;
use adora_semantics::Rat;

/// The reverse mode as an engine (it is not registered yet): with the rules `RULES`.
struct SoacReverse(Rules);

impl Engine for SoacReverse {
    fn name(&self) -> &str {
        "soac-reverse"
    }
    fn programs(&self) -> &'static [Question] {
        &[Question::Grad, Question::Vjp]
    }
    fn program(&self, f: &Function, q: Question) -> Result<DerivativeProgram> {
        reverse::counted(f, q, self.0).map(|(dp, _)| dp)
    }
}

fn load(src: &str) -> Function {
    adora_core::load(src, "main").unwrap_or_else(|d| panic!("{src}: {d}"))
}

fn inputs(f: &Function, lits: &[&str]) -> Vec<Value<Rat>> {
    f.params
        .iter()
        .zip(lits)
        .map(|(p, l)| {
            let e = adora_core::parser::parse_expr(l).unwrap();
            adora_semantics::io::value_from_expr(&e, &p.ty).unwrap()
        })
        .collect()
}

/// `vjp` (and `grad` for a scalar result) of `src` at `lits` by `e` equal the
/// reference's exactly; the program re-checks.
fn agrees_with(e: &SoacReverse, src: &str, lits: &[&str]) {
    let f = load(src);
    let xs = inputs(&f, lits);
    let opts = EvalOptions::default();
    let dp = e
        .program(&f, Question::Vjp)
        .unwrap_or_else(|d| panic!("{src}: {d}"));
    dp.check(&f).unwrap_or_else(|d| panic!("{src}: {d}"));
    let ct = direction(&Value::<Rat>::zeros(&f.ret), 3);
    let got = ask(e, &f, &xs, &Query::Vjp(ct.clone()), &opts)
        .unwrap_or_else(|d| panic!("{src}: {d}\n{}", adora_core::pretty::function(&dp.function)));
    let want = reference::vjp(&f, &xs, &ct, &opts).unwrap();
    assert_eq!(
        got,
        Answer::Gradient(want),
        "{src}\n{}",
        adora_core::pretty::function(&dp.function)
    );
    if f.ret == Type::real() {
        let got = ask(e, &f, &xs, &Query::Grad, &opts).unwrap();
        let want = reference::gradient(&f, &xs, &opts).unwrap();
        assert_eq!(got, Answer::Gradient(want), "{src}: grad");
    }
}

fn agrees(src: &str, lits: &[&str]) {
    agrees_with(&SoacReverse(Rules::default()), src, lits)
}

#[test]
fn scalar_operations_and_partials_of_the_table() {
    let src = "def main(x: R, y: R) -> R =
        let a = x * y in let b = a / (x - 2.0) in
        min(a, b) + max(x, y) + abs(x) + abs(y - y) + pow(y, 3) + pow(x, -2) - (-a) * b";
    for (x, y) in [("3", "-1/2"), ("2", "5"), ("0", "0"), ("1/3", "1/3")] {
        agrees(src, &[x, y]);
    }
    agrees(
        "def main(x: R, k: Z) -> R = x * real(k) + real(floor(x)) * x",
        &["5/2", "3"],
    );
}

#[test]
fn ties_of_min_and_max_follow_the_first_operand() {
    agrees(
        "def main(x: R, y: R) -> R = min(x, y) * 2.0 + max(y, x) * 3.0",
        &["1", "1"],
    );
}

#[test]
fn tuples_and_projections() {
    agrees(
        "def main(x: R, y: R) -> (R, R) =
           let (a, b) = (x * x, y + x) in let t = (a, b) in (t.0 * t.1, t.1)",
        &["2", "-3"],
    );
    agrees(
        "def main(p: (R, R), k: Z) -> R = p.0 * p.1 + real(k) * p.0",
        &["(2, 3)", "4"],
    );
}

#[test]
fn structural_primitives() {
    let src = "def main(x: R[2, 3], v: R[3]) -> R =
        let t = transpose([1, 0], x) in let r = reshape([3, 2], x) in
        let a = append(v, v * 2.0) in
        sum(t * r) + sum(a * a) + sum(sum_outer(x) * v) + sum(replicate(2, v) * x)
          + sum(stack([v, v * v])) + sum(select(v > 0.0, v, v * v))
          + sum([v[0], v[1] * v[2]]) + real(iota(3)[2]) * v[2] + sum(select(true, v, v * 3.0))";
    agrees(src, &["[[1, 2, -3], [1/2, 0, 4]]", "[2, -1, 1/3]"]);
}

#[test]
fn indexing_accumulates_and_out_of_bounds_reads_get_no_adjoint() {
    let src = "def main(x: R[3], i: Z) -> R = x[i] * x[i + 1] + x[5] * 2.0 + x[-1] + x[0] * x[0]";
    for i in ["0", "1", "2", "3", "-1"] {
        agrees(src, &["[1, 2, 3]", i]);
    }
    agrees(
        "def main(m: R[2, 3], j: Z) -> R = m[1, 2] * m[0, 0] + sum(m[1]) + m[2, 0] + m[1, j] * m[j, 1]",
        &["[[1, 2, 3], [4, 5, 6]]", "1"],
    );
    agrees(
        "def main(m: R[2, 3], j: Z) -> R[3] = m[j] * m[0]",
        &["[[1, 2, 3], [4, 5, 6]]", "7"],
    );
}

#[test]
fn if_differentiates_both_branches_and_runs_the_taken_one() {
    let src = "def main(x: R, y: R, v: R[2]) -> R =
        let z = x * y in
        if x > y then z * v[0] + y else (let w = x / y in w * z + v[1])";
    for (x, y) in [("3", "2"), ("2", "3"), ("1", "1")] {
        agrees(src, &[x, y, "[5, 7]"]);
    }
    agrees(
        "def main(x: R, y: R) -> (R, R) = if x < y then (x, y * y) else (y, x + 1.0)",
        &["1", "2"],
    );
}

#[test]
fn map_with_free_scalars_and_arrays() {
    agrees(
        "def main(xs: R[4], w: R, a: R[3]) -> R[4] =
           map(x => x * w + a[1] * x * x + sum(a) + a[3], xs)",
        &["[1, -2, 3, 1/2]", "3", "[1, 2, 3]"],
    );
    agrees(
        "def main(xs: R[3], ys: R[3], w: R) -> R = sum(map((x, y) => x * y + w * w, xs, ys))",
        &["[1, 2, 3]", "[4, 5, 6]", "1/2"],
    );
    agrees(
        "def main(xs: R[4], w: R) -> R[4] = map((x, k) => x * real(k) * w, xs, iota(4))",
        &["[1, 2, 3, 4]", "2"],
    );
    agrees(
        "def main(xs: R[3], p: (R, Z)) -> R[3] = map(x => x * p.0 + real(p.1), xs)",
        &["[1, 2, 3]", "(2, 5)"],
    );
}

#[test]
fn free_arrays_read_by_indexing_accumulate_index_value_pairs() {
    // One-dimensional accesses, in and out of bounds, two sites.
    agrees(
        "def main(xs: R[4], a: R[3], is: Z[4]) -> R[4] = map((x, i) => x * a[i] + a[i + 1] * a[0], xs, is)",
        &["[1, -2, 3, 1/2]", "[1, 2, 3]", "[0, 2, 3, -1]"],
    );
    // A multi-index access into a matrix (out of bounds in either component), and a
    // partial index (a row).
    agrees(
        "def main(xs: R[3], m: R[2, 3], is: Z[3]) -> R[3] =
           map((x, i) => x * m[i, 2 - i] + sum(m[1 - i]) * x, xs, is)",
        &["[1, 2, 3]", "[[1, 2, 3], [4, 5, 6]]", "[0, 1, 3]"],
    );
    // Read by indexing and as a whole: the whole-array fallback.
    agrees(
        "def main(xs: R[3], a: R[3]) -> R[3] = map(x => x * a[1] + sum(a), xs)",
        &["[1, 2, 3]", "[4, 5, 6]"],
    );
    // Read in a nested map: accumulated there, summed at the outer map.
    agrees(
        "def main(m: R[2, 3], a: R[3]) -> R[2, 3] = map(r => map((x, i) => x * a[i], r, iota(3)), m)",
        &["[[1, 2, 3], [4, 5, 6]]", "[1, -1, 2]"],
    );
    // An access whose adjoint is zero (its value unused by the result).
    agrees(
        "def main(xs: R[2], a: R[3]) -> R[2] = map(x => let u = a[2] in x * a[0], xs)",
        &["[1, 2]", "[4, 5, 6]"],
    );
}

/// Whether the VJP program of `src` adds pairs of a map's accesses by
/// `reduce_by_index` (its indices come out of the map as reals, back through `floor`).
fn accumulates(src: &str) -> bool {
    let f = load(src);
    let dp = reverse::program(&f, Question::Vjp).unwrap();
    let text = adora_core::pretty::function(&dp.function);
    text.contains("floor(") && text.contains("reduce_by_index(")
}

#[test]
fn only_arrays_read_by_indexing_alone_get_accumulators() {
    assert!(accumulates(
        "def main(xs: R[4], a: R[100], is: Z[4]) -> R[4] = map((x, i) => x * a[i], xs, is)"
    ));
    assert!(!accumulates(
        "def main(xs: R[3], a: R[3]) -> R[3] = map(x => x * a[1] + sum(a), xs)"
    ));
}

#[test]
fn nested_maps_and_maps_with_array_results() {
    agrees(
        "def main(m: R[2, 3], w: R, v: R[3]) -> R[2] =
           map(r => sum(map((x, y) => x * w * y, r, v)), m)",
        &["[[1, 2, 3], [4, 5, 6]]", "-1", "[1, 0, 2]"],
    );
    agrees(
        "def main(m: R[2, 3], v: R[3]) -> R[2, 3] = map(r => r * v + replicate(3, sum(r)), m)",
        &["[[1, 2, 3], [4, 5, 6]]", "[1, 0, 2]"],
    );
}

#[test]
fn if_inside_map() {
    agrees(
        "def main(xs: R[4], w: R) -> R[4] = map(x => if x > 0.0 then x * w else x * x, xs)",
        &["[1, -2, 0, 3]", "5"],
    );
}

#[test]
fn loops_over_scalars_tuples_and_arrays() {
    agrees(
        "def main(x: R, w: R) -> R = loop (acc = x) for i < 3 do acc * w + real(i)",
        &["2", "3"],
    );
    agrees(
        "def main(x: R, y: R, w: R) -> (R, R) = loop ((a, b) = (x, y)) for i < 4 do (a * b, a + w)",
        &["1/2", "2", "3"],
    );
    agrees(
        "def main(xs: R[4], w: R) -> R[4] = loop (v = xs) for i < 3 do v * v + w",
        &["[1, -1, 1/2, 0]", "2"],
    );
    agrees(
        "def main(xs: R[4]) -> R = loop (s = 0.0) for i < 4 do s * xs[i] + xs[i] + xs[i + 2]",
        &["[1, 2, 3, 4]"],
    );
    agrees(
        "def main(x: R) -> R = (loop ((s, k) = (x, 0)) for i < 3 do (s * x + real(k), k + 2)).0",
        &["3"],
    );
    agrees(
        "def main(x: R, y: R) -> R = let p = loop (p = (x, y)) for i < 2 do (p.0 * p.1, p.1 + 1.0) in p.0",
        &["2", "3"],
    );
    agrees(
        "def main(x: R) -> R = loop (a = x) for i < 0 do a * a",
        &["3"],
    );
}

#[test]
fn if_inside_loops_and_loops_inside_maps_and_maps_inside_loops() {
    agrees(
        "def main(x: R, w: R) -> R = loop (a = x) for i < 4 do if a > 1.0 then a * w else a + w",
        &["1/2", "3/2"],
    );
    agrees(
        "def main(xs: R[3], w: R) -> R[3] = map(x => loop (a = x) for i < 3 do a * x + w, xs)",
        &["[1, 2, -1]", "2"],
    );
    agrees(
        "def main(xs: R[3], w: R) -> R[3] = loop (v = xs) for i < 2 do map(x => x * w + v[i], v)",
        &["[1, 2, -1]", "2"],
    );
}

#[test]
fn the_derivative_program_has_the_full_layout_and_unique_binders() {
    let f = load("def main(x: R[2], k: Z, y: R) -> R = x[k] * y");
    let dp = reverse::program(&f, Question::Vjp).unwrap();
    use adora_rewrites::engine::{Input, Layout, Output};
    assert_eq!(dp.signature.layout, Layout::Full);
    assert_eq!(
        dp.signature.inputs,
        vec![
            Input::Primal(0),
            Input::Primal(1),
            Input::Primal(2),
            Input::Cotangent
        ]
    );
    assert_eq!(
        dp.signature.outputs,
        vec![Output::Value, Output::Cotangent(0), Output::Cotangent(2)]
    );
    let mut seen = std::collections::BTreeSet::new();
    for (n, _) in adora_core::visit::all_binders(&dp.function.body) {
        assert!(seen.insert(n.clone()), "`{n}` bound twice");
    }
    assert!(reverse::program(&f, Question::Jvp).is_err());
}

#[test]
fn bulk_forms_and_soacs_without_rules_are_unsupported() {
    for src in [
        "def main(x: R[3]) -> R = sum(build 3 (i => x[i] * x[i]))",
        "def main(x: R[3]) -> R[2] = gather([2], x, i => [i + 1])",
        "def main(x: R[3]) -> R = reduce(+, 0.0, x)",
        "def main(x: R[3]) -> R[3] = scan(*, 1.0, x)",
        "def main(x: R[3]) -> R[2] = reduce_by_index([0.0, 0.0], max, 0.0, [0, 1, 1], x)",
        "def main(x: R[3]) -> R[3] = scatter_into(x, [0], [x[2]])",
    ] {
        let f = load(src);
        let err = reverse::program(&f, Question::Vjp).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Unsupported, "{src}: {err}");
    }
}

fn mk(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

fn var(n: &str) -> Expr {
    mk(ExprKind::Var(n.into()))
}

/// A `reduce(+)` rule written here: `ne̅ = ȳ`, `xs̄ = replicate(n, ȳ)` (seed 004 §5.1).
fn reduce_add(env: &mut dyn RevEnv, op: &Op, s: &Stmt) -> Result<RuleOutput> {
    let Op::Add = op else {
        return Err(adora_core::diag::Diagnostic::new(
            ErrorKind::Unsupported,
            Span::DUMMY,
            "this test's rule is reduce(+) only",
        ));
    };
    let n = s.types[1].as_array().unwrap().1[0];
    let r = env.fresh("rep");
    let rep = mk(ExprKind::Prim(
        adora_core::ast::Prim::Replicate(n),
        vec![s.adjoint.clone()],
    ));
    Ok(RuleOutput {
        lets: vec![(Pat::Var(r.clone()), rep)],
        operands: vec![Some(s.adjoint.clone()), Some(var(&r))],
        free: vec![],
    })
}

/// A `reduce` rule for one-element arrays with any operator: `op(ne, xs[0])` reversed by
/// the framework's `lambda_vjp`, whose free variables get their contributions.
fn reduce_one(env: &mut dyn RevEnv, op: &Op, s: &Stmt) -> Result<RuleOutput> {
    let Op::Lambda(lam) = op else {
        return reduce_add(env, op, s);
    };
    let slice = s.types[0].clone();
    let v = env.lambda_vjp(lam, &[slice.clone(), slice.clone()], &s.result_ty)?;
    let p = &v.lambda.params;
    let x0 = mk(ExprKind::Index(
        Box::new(s.operands[1].clone()),
        vec![mk(ExprKind::Lit(adora_core::ast::Lit::Int(0.into())))],
    ));
    let outs: Vec<String> = (0..2 + v.free.len()).map(|_| env.fresh("o")).collect();
    let lets = vec![
        (Pat::Var(p[0].clone()), s.operands[0].clone()),
        (Pat::Var(p[1].clone()), x0),
        (Pat::Var(p[2].clone()), s.adjoint.clone()),
        (Pat::Tuple(outs.clone()), (*v.lambda.body).clone()),
    ];
    Ok(RuleOutput {
        lets,
        operands: vec![
            Some(var(&outs[0])),
            Some(mk(ExprKind::Array(vec![var(&outs[1])]))),
        ],
        free: v
            .free
            .iter()
            .zip(&outs[2..])
            .map(|((n, _), o)| (n.clone(), var(o)))
            .collect(),
    })
}

#[test]
fn the_soac_call_site_applies_a_rule_written_here() {
    let rules = Rules {
        reduce: reduce_add,
        ..Rules::default()
    };
    let e = SoacReverse(rules);
    agrees_with(
        &e,
        "def main(xs: R[4], w: R) -> R = reduce(+, w, map(x => x * x, xs)) * w",
        &["[1, 2, -3, 1/2]", "3"],
    );
    agrees_with(
        &e,
        "def main(m: R[3, 2], w: R) -> R[2] = reduce(+, replicate(2, w), m) * m[0]",
        &["[[1, 2], [-3, 1/2], [0, 5]]", "3"],
    );
    agrees_with(
        &e,
        "def main(xs: R[3], w: R) -> R[3] = map(x => reduce(+, x, xs) * w, xs)",
        &["[1, 2, 3]", "2"],
    );
}

#[test]
fn lambda_vjp_reverses_an_operator_with_free_variables() {
    let rules = Rules {
        reduce: reduce_one,
        ..Rules::default()
    };
    let e = SoacReverse(rules);
    agrees_with(
        &e,
        "def main(xs: R[1], w: R, v: R[2]) -> R =
           reduce((a, b) => a * b * w + v[1] * a, w * w, xs) * v[0]",
        &["[3]", "2", "[5, 7]"],
    );
}

fn counts(src: &str) -> reverse::Counts {
    let f = load(src);
    let (dp, counts) = reverse::counted(&f, Question::Grad, Rules::default()).unwrap();
    dp.check(&f).unwrap();
    counts
}

#[test]
fn loops_run_twice_and_other_scopes_once_per_return_sweep_that_reads_them() {
    let c = counts(
        "def main(xs: R[3], w: R) -> R =
           let y = loop (v = xs) for i < 2 do map(x => x * w + v[i], v) in
           sum(map(z => if z > 0.0 then z * z else z, y))",
    );
    assert_eq!(c["main"], 1, "{c:?}");
    // The loop: its checkpointing forward sweep and its re-execution.
    assert_eq!(c["loop i"], 2, "{c:?}");
    // The map inside the loop: in both copies of the loop body; its reversed lambda
    // needs none of the lambda's primal values (dead code, removed).
    assert_eq!(c["map x"], 2, "{c:?}");
    // The map at the top: the map itself, and its reversed lambda (which needs `z > 0`).
    assert_eq!(c["map z"], 2, "{c:?}");
    // `z * z` is needed by no adjoint: only the primal runs it. `else` has no statement.
    assert_eq!(c["then #1"], 1, "{c:?}");
    assert_eq!(c["else #1"], 0, "{c:?}");
}

#[test]
fn perfect_nests_are_not_re_executed_unless_a_partial_reads_a_result() {
    let c = counts("def main(m: R[2, 3], w: R) -> R = sum(map(r => map(x => x * x + w, r), m))");
    assert_eq!((c["map r"], c["map x"]), (1, 1), "{c:?}");
    // `1 / x`: the partial with respect to `x` reads the result, so the innermost
    // statements run again in the reversed lambda (once: bounded by the depth).
    let c = counts("def main(m: R[2, 3], w: R) -> R = sum(map(r => map(x => w / x, r), m))");
    assert_eq!((c["map r"], c["map x"]), (1, 2), "{c:?}");
}

#[test]
fn golden_programs_it_accepts_agree_with_the_reference() {
    let opts = EvalOptions::default();
    let e = SoacReverse(Rules::default());
    let (mut checked, mut skipped) = (0, 0);
    for g in goldens() {
        let name = g.path.display().to_string();
        if g.f64 || !g.f.params.iter().any(|p| p.ty.has_reals()) {
            continue;
        }
        let dp = match e.program(&g.f, Question::Vjp) {
            Err(d) if d.kind == ErrorKind::Unsupported => {
                skipped += 1;
                continue;
            }
            r => r.unwrap_or_else(|d| panic!("{name}: {d}")),
        };
        dp.check(&g.f).unwrap_or_else(|d| panic!("{name}: {d}"));
        let ct = direction(&Value::<Rat>::zeros(&g.f.ret), 5);
        let want = reference::vjp(&g.f, &g.inputs, &ct, &opts);
        let got = ask(&e, &g.f, &g.inputs, &Query::Vjp(ct.clone()), &opts);
        match (got, want) {
            (Ok(a), Ok(b)) => assert_eq!(a, Answer::Gradient(b), "{name}"),
            (Err(a), Err(b)) => assert_eq!(a.kind, b.kind, "{name}: {a} / {b}"),
            (a, b) => panic!("{name}: {a:?} vs {b:?}"),
        }
        checked += 1;
    }
    eprintln!("soac reverse: {checked} golden programs checked, {skipped} unsupported");
    assert!(checked >= 20, "only {checked} golden programs checked");
}

/// `vjp` of `src` at `lits` in f64 mode agrees with the reference by the harness's f64
/// rule (docs/architecture.md §10: equal infinities, NaN with NaN, finite values within
/// the relative tolerance 1e-9).
fn agrees_f64(src: &str, lits: &[&str]) {
    let f = load(src);
    let xs: Vec<Value<f64>> = inputs(&f, lits).iter().map(|v| v.to_f64()).collect();
    let ct = direction(&Value::<Rat>::zeros(&f.ret), 3).to_f64();
    let opts = EvalOptions::default();
    let e = SoacReverse(Rules::default());
    let got = ask(&e, &f, &xs, &Query::Vjp(ct.clone()), &opts).unwrap();
    let want = Answer::Gradient(reference::vjp(&f, &xs, &ct, &opts).unwrap());
    let diffs = adora_rewrites::engine::harness::compare(&f, &got, &want);
    assert!(diffs.is_empty(), "{src}: {diffs:?}");
}

#[test]
fn f64_singularities_are_the_ieee_answers() {
    agrees_f64("def main(x: R) -> R = pow(x, -2) + 1.0", &["0"]);
    agrees_f64("def main(x: R) -> R = x / 0.0 * 0.0", &["1"]);
    agrees_f64("def main(x: R) -> R = x / 0.0", &["1"]);
    agrees_f64("def main(x: R) -> R = x * sqrt(x)", &["0"]);
    agrees_f64("def main(x: R) -> R = abs(log(x))", &["-1"]);
}

#[test]
fn f64_programs_with_transcendental_functions() {
    agrees_f64(
        "def main(xs: R[3], w: R) -> R[3] = map(x => exp(x * w) + sin(x) * tanh(w), xs)",
        &["[0.5, -1, 2]", "0.25"],
    );
    agrees_f64(
        "def main(x: R, w: R) -> R = loop (a = x) for i < 4 do sqrt(a * a + w) * cos(a)",
        &["0.75", "2"],
    );
    agrees_f64(
        "def main(xs: R[3], a: R[4]) -> R[3] = map(x => log(x * x + 1.0) * a[1] + a[3], xs)",
        &["[0.5, -1, 2]", "[1, 2, 3, 4]"],
    );
}

#[test]
fn strip_mined_loops_agree_and_run_once_more_per_level() {
    use reverse::Checkpoint;
    let src = "def main(x: R, w: R, v: R[8]) -> R = loop (a = x) for i < 8 do a * w + v[i] * a";
    let f = load(src);
    let xs = inputs(&f, &["1/2", "3/2", "[1, -1, 2, 0, 1/3, 1, 2, -2]"]);
    let opts = EvalOptions::default();
    let want = Answer::Gradient(reference::gradient(&f, &xs, &opts).unwrap());
    for (k, inner, strips) in [(1, 2, None), (2, 3, Some(2)), (3, 4, Some(3))] {
        let (dp, c) = reverse::counted_with(
            &f,
            Question::Grad,
            Rules::default(),
            Checkpoint::StripMine(k),
        )
        .unwrap();
        dp.check(&f).unwrap();
        let args = dp
            .arguments(
                &f,
                &xs,
                adora_rewrites::engine::Seed::Cotangent(&Value::real(Rat::from_integer(1.into()))),
            )
            .unwrap();
        let (out, _) = adora_semantics::eval::eval(&dp.function, &args, &opts).unwrap();
        let got = Answer::Gradient(dp.unpack(&f, &xs, out).unwrap().gradient());
        assert_eq!(
            got,
            want,
            "k = {k}\n{}",
            adora_core::pretty::function(&dp.function)
        );
        assert_eq!(c["loop i"], inner, "k = {k}: {c:?}");
        assert_eq!(c.get("loop i strips").copied(), strips, "k = {k}: {c:?}");
    }
    // A prime trip count is not split.
    let f = load("def main(x: R) -> R = loop (a = x) for i < 7 do a * x");
    let (_, c) = reverse::counted_with(
        &f,
        Question::Grad,
        Rules::default(),
        Checkpoint::StripMine(2),
    )
    .unwrap();
    assert_eq!(c["loop i"], 2, "{c:?}");
    // Tuples, and a strip-mined loop inside a map.
    agrees_stripmined(
        "def main(xs: R[3], w: R) -> R[3] = map(x => (loop ((a, b) = (x, w)) for i < 6 do (a * b, b + a * real(i))).0, xs)",
        &["[1, 1/2, -1]", "1/3"],
    );
}

fn agrees_stripmined(src: &str, lits: &[&str]) {
    let f = load(src);
    let xs = inputs(&f, lits);
    let opts = EvalOptions::default();
    let ct = direction(&Value::<Rat>::zeros(&f.ret), 3);
    let want = Answer::Gradient(reference::vjp(&f, &xs, &ct, &opts).unwrap());
    let (dp, _) = reverse::counted_with(
        &f,
        Question::Vjp,
        Rules::default(),
        reverse::Checkpoint::StripMine(2),
    )
    .unwrap();
    dp.check(&f).unwrap();
    let args = dp
        .arguments(&f, &xs, adora_rewrites::engine::Seed::Cotangent(&ct))
        .unwrap();
    let (out, _) = adora_semantics::eval::eval(&dp.function, &args, &opts).unwrap();
    let got = Answer::Gradient(dp.unpack(&f, &xs, out).unwrap().gradient());
    assert_eq!(got, want, "{src}");
}
