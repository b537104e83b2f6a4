//! The reverse rules of engine `soac` (seed 004 §5.1–§5.3), run standalone through
//! `soac::rules::standalone` and compared exactly with the reference VJP on random
//! instances (`soac::rules::instances`) and on hand-picked edge cases.

use adora_rewrites::soac::rules::instances::{instance, Kind};
use adora_rewrites::soac::rules::standalone::{check, vjp_program};
use adora_semantics::value::Value;
use adora_semantics::Rat;

/// The elaborated `main` of `src`.
fn function(src: &str) -> adora_core::ast::Function {
    let p = adora_core::parser::parse_program(src).expect("parses");
    adora_core::check::elaborate(&p, "main").expect("elaborates")
}

fn reals(shape: Vec<usize>, xs: &[i64]) -> Value<Rat> {
    let data = xs.iter().map(|&x| Rat::from_integer(x.into())).collect();
    Value::reals(shape, data).expect("fits")
}

fn vector(xs: &[i64]) -> Value<Rat> {
    reals(vec![xs.len()], xs)
}

fn scalar(x: i64) -> Value<Rat> {
    reals(vec![], &[x])
}

fn ints(xs: &[i64]) -> Value<Rat> {
    Value::ints(vec![xs.len()], xs.to_vec()).expect("fits")
}

/// Checks one hand-picked case against the reference, failing with the reason.
fn case(src: &str, inputs: Vec<Value<Rat>>, cotangent: Value<Rat>) {
    let f = function(src);
    if let Err(why) = check(&f, &inputs, &cotangent) {
        panic!("{src}: {why}");
    }
}

fn many(kind: Kind, cases: u64) {
    for seed in 0..cases {
        let inst =
            instance(kind, seed).unwrap_or_else(|e| panic!("{kind:?} seed {seed}: {}", e.message));
        if let Err(why) = check(&inst.function, &inst.inputs, &inst.cotangent) {
            panic!(
                "{kind:?} seed {seed}: {why}\n{}\ninputs {:?}\ncotangent {:?}",
                adora_core::pretty::function(&inst.function),
                inst.inputs,
                inst.cotangent
            );
        }
    }
}

#[test]
fn reduce_plus_random() {
    many(Kind::ReducePlus, 60);
}

#[test]
fn reduce_mul_random() {
    many(Kind::ReduceMul, 150);
}

#[test]
fn reduce_min_max_random() {
    many(Kind::ReduceMinMax, 150);
}

#[test]
fn reduce_general_random() {
    many(Kind::ReduceGeneral, 120);
}

#[test]
fn scan_plus_random() {
    many(Kind::ScanPlus, 60);
}

#[test]
fn scan_general_random() {
    many(Kind::ScanGeneral, 150);
}

#[test]
fn reduce_by_index_random() {
    many(Kind::ReduceByIndex, 150);
}

#[test]
fn reduce_by_index_general_random() {
    many(Kind::ReduceByIndexGeneral, 100);
}

#[test]
fn scatter_into_random() {
    many(Kind::Scatter, 100);
}

#[test]
fn reduce_min_element_wins_tie_against_ne() {
    let src = "def main(ne: R, xs: R[3]) -> R = reduce(min, ne, xs)";
    case(src, vec![scalar(1), vector(&[2, 1, 1])], scalar(5));
    case(src, vec![scalar(0), vector(&[2, 1, 1])], scalar(5));
    case(src, vec![scalar(1), vector(&[1, 1, 1])], scalar(5));
    let empty = "def main(ne: R, xs: R[0]) -> R = reduce(max, ne, xs)";
    case(empty, vec![scalar(1), vector(&[])], scalar(5));
}

#[test]
fn reduce_mul_zero_counts() {
    let src = "def main(ne: R, xs: R[3]) -> R = reduce(*, ne, xs)";
    for xs in [[2, 5, 3], [2, 0, 3], [0, 2, 0], [0, 0, 0]] {
        case(src, vec![scalar(7), vector(&xs)], scalar(3));
    }
    case(src, vec![scalar(0), vector(&[2, 5, 3])], scalar(3));
    case(src, vec![scalar(0), vector(&[2, 0, 3])], scalar(3));
}

#[test]
fn scan_max_ne_wins_some_positions() {
    let src = "def main(ne: R, xs: R[4]) -> R[4] = scan(max, ne, xs)";
    case(
        src,
        vec![scalar(5), vector(&[1, 7, 7, 2])],
        vector(&[1, 2, 3, 4]),
    );
    case(
        src,
        vec![scalar(7), vector(&[1, 7, 7, 9])],
        vector(&[1, 2, 3, 4]),
    );
}

#[test]
fn scan_vectorised_lambda_with_mixing_jacobian() {
    let src = "def main(ne: R[2], xs: R[3, 2]) -> R[3, 2] = scan((a, b) => a * b[1] + b, ne, xs)";
    case(
        src,
        vec![vector(&[1, 2]), reals(vec![3, 2], &[1, -1, 2, 0, 3, 1])],
        reals(vec![3, 2], &[1, 2, 3, 4, 5, 6]),
    );
}

#[test]
fn reduce_by_index_max_destination_keeps_ties_and_drops_out_of_bounds() {
    let src = "def main(dest: R[2], ne: R, is: Z[5], vs: R[5]) -> R[2] = reduce_by_index(dest, max, ne, is, vs)";
    case(
        src,
        vec![
            vector(&[1, 0]),
            scalar(0),
            ints(&[0, 1, 5, -1, 1]),
            vector(&[1, 2, 9, 9, 2]),
        ],
        vector(&[3, 4]),
    );
}

#[test]
fn scatter_into_last_write_wins() {
    let src = "def main(dest: R[3], is: Z[5], vs: R[5]) -> R[3] = scatter_into(dest, is, vs)";
    case(
        src,
        vec![
            vector(&[1, 2, 3]),
            ints(&[2, 0, 2, 3, -1]),
            vector(&[4, 5, 6, 7, 8]),
        ],
        vector(&[1, 2, 3]),
    );
}

#[test]
fn general_operator_with_free_variable_gets_its_adjoint() {
    let src = "def main(ne: R, xs: R[3], c: R) -> R = reduce((a, b) => a * c + b, ne, xs)";
    let f = function(src);
    let dp = vjp_program(&f).expect("builds");
    assert!(adora_core::pretty::function(&dp.function).contains("free_bar"));
    case(
        src,
        vec![scalar(2), vector(&[1, 0, 3]), scalar(3)],
        scalar(1),
    );
}

#[test]
fn the_rule_table_names_exactly_the_rules() {
    use adora_rewrites::soac::rules::{reduce, reduce_by_index, scan, scatter_into};
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/engines/soac-rules.md"
    ))
    .expect("docs/engines/soac-rules.md");
    let in_doc: std::collections::BTreeSet<&str> = doc
        .lines()
        .filter(|l| l.starts_with("| `") && l.ends_with(" |") && l.matches(" | ").count() == 4)
        .filter_map(|l| l.split('`').nth(1))
        .collect();
    let in_code: std::collections::BTreeSet<&str> = reduce::RULES
        .iter()
        .chain(&scan::RULES)
        .chain(&reduce_by_index::RULES)
        .chain(&scatter_into::RULES)
        .copied()
        .collect();
    assert_eq!(
        in_doc, in_code,
        "docs/engines/soac-rules.md's rule table and the RULES of rewrites/src/soac/rules differ"
    );
}

/// In f64 mode the rules agree with the reference within the harness's tolerance on the
/// finite random instances (docs/engines/soac-rules.md, "Checking the rules").
#[test]
fn f64_agrees_within_tolerance_on_finite_instances() {
    use adora_rewrites::engine::harness::{evaluate, values_agree, Answer, Query, F64_TOLERANCE};
    use adora_semantics::eval::EvalOptions;
    let kinds = [
        Kind::ReduceMul,
        Kind::ReduceMinMax,
        Kind::ReduceGeneral,
        Kind::ScanGeneral,
        Kind::ReduceByIndex,
        Kind::ReduceByIndexGeneral,
        Kind::Scatter,
    ];
    let opts = EvalOptions::default();
    for kind in kinds {
        for seed in 0..60 {
            let inst = instance(kind, seed).expect("instance");
            let f = &inst.function;
            let inputs: Vec<Value<f64>> = inst.inputs.iter().map(Value::from_rationals).collect();
            let cot = Value::<f64>::from_rationals(&inst.cotangent);
            let dp = vjp_program(f).expect("builds");
            let want = adora_semantics::reference::vjp(f, &inputs, &cot, &opts).expect("reference");
            let Answer::Gradient(got) =
                evaluate(&dp, f, &inputs, &Query::Vjp(cot.clone()), &opts).expect("runs")
            else {
                panic!("not a gradient");
            };
            for (g, w) in got.grads.iter().zip(&want.grads) {
                let ok = match (g, w) {
                    (Some(g), Some(w)) => values_agree(g, w, F64_TOLERANCE),
                    (None, None) => true,
                    _ => false,
                };
                assert!(
                    ok,
                    "{kind:?} seed {seed}: {:?} vs {:?}",
                    got.grads, want.grads
                );
            }
        }
    }
}
