//! Engine `soac`'s reverse mode (`adora_rewrites::soac::reverse`, seed 004 *AD for an
//! Array Language with Nested Parallelism* §4–§6) through the engine harness: hand-written
//! programs for every construct it differentiates (scalar operations, primitives,
//! tuples, indexing with out-of-bounds reads, `if`, `map` with free scalars and arrays,
//! nested maps, loops over tuples and arrays, `if` in maps and loops), compared with the
//! reference derivative exactly (`==` on rationals). The rule call site, re-execution
//! counts, strip-mining, f64 mode and the golden programs are `soac_reverse_plan`.

use crate::linear_support::direction;
use adora_core::ast::Function;
use adora_core::diag::Result;
use adora_core::types::Type;
use adora_rewrites::engine::harness::{ask, Answer, Query};
use adora_rewrites::engine::{DerivativeProgram, Engine, Question};
use adora_rewrites::soac::reverse::{self, Rules};
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference;
use adora_semantics::value::Value;
use adora_semantics::Rat;

/// The reverse mode as an engine (it is not registered yet), with the given rules.
pub struct SoacReverse(pub Rules);

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

/// The elaborated `main` of `src`.
pub fn load(src: &str) -> Function {
    adora_core::load(src, "main").unwrap_or_else(|d| panic!("{src}: {d}"))
}

/// The inputs of `f` written as literals.
pub fn inputs(f: &Function, lits: &[&str]) -> Vec<Value<Rat>> {
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
pub fn agrees_with(e: &SoacReverse, src: &str, lits: &[&str]) {
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

/// [`agrees_with`] the default rules.
pub fn agrees(src: &str, lits: &[&str]) {
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
fn bulk_forms_are_lowered_and_every_soac_has_its_rule() {
    for (src, lits) in [
        (
            "def main(x: R[3]) -> R = sum(build 3 (i => x[i] * x[i]))",
            &["[1, -2, 3]"][..],
        ),
        (
            "def main(x: R[3]) -> R[2] = gather([2], x, i => [i + 1])",
            &["[1, -2, 3]"],
        ),
        (
            "def main(x: R[3]) -> R = reduce(+, 0.0, x)",
            &["[1, -2, 3]"],
        ),
        (
            "def main(x: R[3]) -> R[3] = scan(*, 1.0, x)",
            &["[2, 0, 3]"],
        ),
        (
            "def main(x: R[3]) -> R[2] = reduce_by_index([0.0, 0.0], max, 0.0, [0, 1, 1], x)",
            &["[1, 2, 2]"],
        ),
        (
            "def main(x: R[3]) -> R[3] = scatter_into(x, [0], [x[2]])",
            &["[1, -2, 3]"],
        ),
    ] {
        agrees(src, lits);
    }
}

/// A loop accumulator that nests a tuple in a tuple (`adora check --filter soac/adjoint-law
/// --seed 1 --cases 300`) gets a flat accumulator before the loop rule (`nested_acc`).
#[test]
fn loops_whose_accumulator_nests_tuples() {
    agrees(
        "def main(z: R[4]) -> (R[3], (R[2], R)) =
  loop ((acc3, acc4) = (replicate(3, 0.0), (replicate(2, 0.0), 0.0))) for k2 < 3 do
    (acc3, acc4)",
        &["[1, 2, 3, 4]"],
    );
    agrees(
        "def main(x: R[3], y: R) -> (R, (R[3], (R, R))) =
  loop (a = (y, (x, (y, 1.0)))) for i < 3 do
    let (s, rest) = a in
    (s * rest.1.0 + rest.0[i], (rest.0 * s, (rest.1.1, s - rest.1.0)))",
        &["[1, -2, 1/2]", "3/2"],
    );
}
