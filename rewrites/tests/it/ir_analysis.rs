//! The e-class analysis: the type of every node kind, free index variables, constant
//! folding that agrees with the evaluator, interval bounds that contain the values, and
//! conflicts recorded (never panics) on unsound unions and ill-typed nodes.

use crate::ir_support;

use adora_core::parser::parse_type;
use adora_core::types::Type;
use adora_rewrites::ir::analysis::{IrAnalysis, IrGraph, Ty};
use adora_rewrites::ir::lang::{Const, Ir};
use adora_rewrites::ir::translate::translate;
use adora_semantics::value::Value;
use egg::{Id, RecExpr};
use num_bigint::BigInt;
use num_rational::BigRational;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// An e-graph with variables `v0: R[3,4]`, `v1: Z[5]`, `v2: B[3,4]`, `v3: (R, Z[2])`,
/// `v4: R`, `v5: R[4]`, and index variables `i0 ∈ 0..3`, `i1 ∈ 0..4`, `i2 ∈ 0..5`.
fn graph() -> IrGraph {
    let mut a = IrAnalysis::default();
    for (n, t) in [
        ("a", "R[3,4]"),
        ("b", "Z[5]"),
        ("c", "B[3,4]"),
        ("d", "(R, Z[2])"),
        ("e", "R"),
        ("f", "R[4]"),
    ] {
        a.add_var(n.into(), parse_type(t).unwrap());
    }
    for (n, k) in [("i", 3), ("j", 4), ("k", 5)] {
        a.add_ivar(n.into(), k);
    }
    IrGraph::new(a)
}

fn add(eg: &mut IrGraph, s: &str) -> Id {
    let e: RecExpr<Ir> = s.parse().unwrap_or_else(|_| panic!("parse {s}"));
    let id = eg.add_expr(&e);
    eg.rebuild();
    id
}

fn ty_of(s: &str) -> Ty {
    let mut eg = graph();
    let id = add(&mut eg, s);
    assert_eq!(eg.analysis.conflict, None, "{s}");
    eg[id].data.ty.clone()
}

fn value(t: &str) -> Ty {
    Ty::Value(parse_type(t).unwrap())
}

#[test]
fn every_node_kind_has_its_type() {
    let cases = [
        ("v0", "R[3,4]"),
        ("r1/2", "R"),
        ("z3", "Z"),
        ("true", "B"),
        ("i0", "Z"),
        ("(array v4 r1 r2)", "R[3]"),
        ("(array v0 v0)", "R[2,3,4]"),
        ("(stack v5 v5 v5)", "R[3,4]"),
        ("(tuple v4 v1)", "(R, Z[5])"),
        ("(proj n1 v3)", "Z[2]"),
        ("(neg v0)", "R[3,4]"),
        ("(neg v1)", "Z[5]"),
        ("(not v2)", "B[3,4]"),
        ("(exp v0)", "R[3,4]"),
        ("(log v4)", "R"),
        ("(sin v5)", "R[4]"),
        ("(cos v5)", "R[4]"),
        ("(tanh v5)", "R[4]"),
        ("(sqrt v5)", "R[4]"),
        ("(abs v1)", "Z[5]"),
        ("(floor v0)", "Z[3,4]"),
        ("(real v1)", "R[5]"),
        ("(pow v5 z-2)", "R[4]"),
        ("(pow v1 z3)", "Z[5]"),
        ("(+ v0 v0)", "R[3,4]"),
        ("(- v1 v1)", "Z[5]"),
        ("(* v4 v4)", "R"),
        ("(/ v1 v1)", "Z[5]"),
        ("(% v1 v1)", "Z[5]"),
        ("(== v2 v2)", "B[3,4]"),
        ("(!= v1 v1)", "B[5]"),
        ("(< v0 v0)", "B[3,4]"),
        ("(<= v4 v4)", "B"),
        ("(> v1 v1)", "B[5]"),
        ("(>= v5 v5)", "B[4]"),
        ("(&& v2 v2)", "B[3,4]"),
        ("(|| v2 v2)", "B[3,4]"),
        ("(min v0 v0)", "R[3,4]"),
        ("(max v1 v1)", "Z[5]"),
        ("(select v2 v0 v0)", "R[3,4]"),
        ("(select true v0 v0)", "R[3,4]"),
        ("(sum v0)", "R"),
        ("(sum v1)", "Z"),
        ("(sum_outer v0)", "R[4]"),
        ("(replicate n2 v0)", "R[2,3,4]"),
        ("(replicate n7 v4)", "R[7]"),
        ("(transpose [1,0] v0)", "R[4,3]"),
        ("(reshape [2,6] v0)", "R[2,6]"),
        ("(reshape [] v4)", "R"),
        ("(iota n6)", "Z[6]"),
        ("(append v1 v1)", "Z[10]"),
        ("(append v0 v0)", "R[6,4]"),
        ("(index v0 z1)", "R[4]"),
        ("(index v0 z1 i1)", "R"),
        ("(build n3 i0 (index v0 i0))", "R[3,4]"),
        ("(build n4 i1 (real i1))", "R[4]"),
        ("(gather [4,3] v0 (binders i1 i0) (ixs i0 i1))", "R[4,3]"),
        ("(gather [5] v0 (binders i2) (ixs (% i2 z3)))", "R[5,4]"),
        ("(gather [] v0 (binders) (ixs z1))", "R[4]"),
        ("(scatter [2,4] v0 (binders i0) (ixs (% i0 z2)))", "R[2,4]"),
        ("(scatter [7] v0 (binders i0 i1) (ixs (+ i0 i1)))", "R[7]"),
    ];
    for (s, t) in cases {
        assert_eq!(ty_of(s), value(t), "{s}");
    }
    assert_eq!(ty_of("n3"), Ty::Static);
    assert_eq!(ty_of("[2,3]"), Ty::Static);
    assert_eq!(ty_of("(binders i0 i1)"), Ty::Binders);
    assert_eq!(ty_of("(ixs i0 z2)"), Ty::Ixs);
}

#[test]
fn ill_typed_nodes_record_a_conflict() {
    for s in [
        "(+ v0 v1)",
        "(+ v0 v5)",
        "(index v4 z0)",
        "(index v0 r1)",
        "(sum_outer v4)",
        "(transpose [0,0] v0)",
        "(reshape [5] v0)",
        "(build n4 i0 v4)",
        "(gather [3] v0 (binders i1) (ixs i1))",
        "(scatter [3] v0 (binders i0) (ixs i0))",
        "(pow v1 z-1)",
        "(&& v0 v0)",
        "(proj n2 v3)",
        "(select v2 v5 v5)",
        "v9",
    ] {
        let mut eg = graph();
        add(&mut eg, s);
        let c = eg.analysis.conflict.clone().unwrap_or_default();
        assert!(c.contains("ill-typed"), "{s}: {c}");
    }
}

#[test]
fn free_index_variables_respect_binders() {
    let mut eg = graph();
    let free = |eg: &mut IrGraph, s: &str| {
        let id = add(eg, s);
        let vs: Vec<String> = eg[id].data.free.iter().map(|v| v.to_string()).collect();
        vs.join(" ")
    };
    assert_eq!(free(&mut eg, "(+ (real i0) (real i1))"), "i0 i1");
    assert_eq!(free(&mut eg, "(build n3 i0 (+ (real i0) (real i1)))"), "i1");
    assert_eq!(
        free(
            &mut eg,
            "(gather [4] (build n3 i0 (real i2)) (binders i1) (ixs i1 ))"
        ),
        "i2"
    );
    assert_eq!(
        free(&mut eg, "(gather [4] v0 (binders i1) (ixs (+ i1 i0)))"),
        "i0"
    );
    assert_eq!(free(&mut eg, "(binders i1 i0)"), "i0 i1");
    // Merging `i0 - i0` with `0` leaves a class independent of `i0`.
    let a = add(&mut eg, "(- i0 i0)");
    let z = add(&mut eg, "z0");
    eg.union(a, z);
    eg.rebuild();
    assert!(eg[a].data.free.is_empty());
    assert_eq!(eg.analysis.conflict, None);
}

#[test]
fn an_unsound_union_records_a_conflict_and_keeps_running() {
    let mut eg = graph();
    let a = add(&mut eg, "v5");
    let b = add(&mut eg, "(index v0 z0)");
    assert_eq!(eg[a].data.ty, eg[b].data.ty);
    eg.union(a, b);
    eg.rebuild();
    assert_eq!(eg.analysis.conflict, None, "R[4] with R[4] is fine");
    // R[3] (the column sums of a) with R[4] (f): an unsound union.
    let c = add(&mut eg, "(sum_outer (transpose [1,0] v0))");
    let d = add(&mut eg, "v5");
    eg.union(c, d);
    eg.rebuild();
    let msg = eg.analysis.conflict.clone().expect("a conflict");
    assert!(
        msg.contains("types") && msg.contains("R[3]") && msg.contains("R[4]"),
        "{msg}"
    );
    // The merge kept the first side's data; the e-graph is still usable.
    assert_eq!(eg[c].data.ty, value("R[3]"));
    let e = add(&mut eg, "(* v4 v4)");
    assert_eq!(eg[e].data.ty, value("R"));
    let mut eg = graph();
    let one = add(&mut eg, "z1");
    let two = add(&mut eg, "z2");
    eg.union(one, two);
    eg.rebuild();
    assert!(eg.analysis.conflict.unwrap().contains("constants"));
}

#[test]
fn constants_fold_and_get_their_literal() {
    let mut eg = graph();
    let id = add(&mut eg, "(+ (* z3 z4) (neg z1))");
    assert_eq!(eg[id].data.constant, Some(Const::Int(11.into())));
    assert!(eg[id]
        .nodes
        .iter()
        .any(|n| *n == Ir::Lit(Const::Int(11.into()))));
    let r = add(&mut eg, "(/ r1 r0)");
    assert_eq!(
        eg[r].data.constant,
        Some(Const::Real(BigRational::from_integer(0.into())))
    );
    let over = add(&mut eg, "(+ z9223372036854775807 z1)");
    assert_eq!(eg[over].data.constant, None, "overflow is not folded");
    let x = add(&mut eg, "(+ v4 r1)");
    assert_eq!(eg[x].data.constant, None);
}

/// A random constant scalar expression in core syntax of base `b` ("Z", "R", "B").
fn gen(rng: &mut ChaCha8Rng, b: &str, depth: u32) -> String {
    if depth == 0 || rng.gen_bool(0.25) {
        return match b {
            "Z" => {
                let big = ["9223372036854775807", "4611686018427387904", "3037000500"];
                if rng.gen_bool(0.1) {
                    big[rng.gen_range(0..big.len())].to_string()
                } else {
                    format!("({})", rng.gen_range(-6i64..7))
                }
            }
            "R" => format!("({} / {}.0)", rng.gen_range(-6i64..7), rng.gen_range(1..5)),
            _ => (if rng.gen_bool(0.5) { "true" } else { "false" }).to_string(),
        };
    }
    let d = depth - 1;
    match b {
        "B" => match rng.gen_range(0..6) {
            0 => format!("({} && {})", gen(rng, "B", d), gen(rng, "B", d)),
            1 => format!("({} || {})", gen(rng, "B", d), gen(rng, "B", d)),
            2 => format!("!({})", gen(rng, "B", d)),
            3 => format!("({} == {})", gen(rng, "B", d), gen(rng, "B", d)),
            _ => {
                let t = if rng.gen_bool(0.5) { "Z" } else { "R" };
                let ops = ["==", "!=", "<", "<=", ">", ">="];
                let op = ops[rng.gen_range(0..ops.len())];
                format!("({} {op} {})", gen(rng, t, d), gen(rng, t, d))
            }
        },
        _ => match rng.gen_range(0..10) {
            0..=3 => {
                let ops: &[&str] = if b == "Z" {
                    &["+", "-", "*", "/", "%"]
                } else {
                    &["+", "-", "*", "/"]
                };
                let op = ops[rng.gen_range(0..ops.len())];
                format!("({} {op} {})", gen(rng, b, d), gen(rng, b, d))
            }
            4 => format!("-({})", gen(rng, b, d)),
            5 => format!("abs({})", gen(rng, b, d)),
            6 => {
                let f = if rng.gen_bool(0.5) { "min" } else { "max" };
                format!("{f}({}, {})", gen(rng, b, d), gen(rng, b, d))
            }
            7 => {
                let k = if b == "Z" {
                    rng.gen_range(0..4)
                } else {
                    rng.gen_range(-3..4)
                };
                format!("pow({}, {k})", gen(rng, b, d))
            }
            8 => format!(
                "select({}, {}, {})",
                gen(rng, "B", d),
                gen(rng, b, d),
                gen(rng, b, d)
            ),
            _ => {
                if b == "Z" {
                    format!("floor({})", gen(rng, "R", d))
                } else {
                    format!("real({})", gen(rng, "Z", d))
                }
            }
        },
    }
}

fn as_const(v: &Value<adora_semantics::Rat>) -> Const {
    match v {
        Value::Real(t) => Const::Real(t.data[0].clone()),
        Value::Int(t) => Const::Int(BigInt::from(t.data[0])),
        Value::Bool(t) => Const::Bool(t.data[0]),
        Value::Tuple(_) => panic!("scalar expected"),
    }
}

#[test]
fn constant_folding_agrees_with_the_evaluator() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut folded, mut total) = (0, 0);
    for case in 0..600 {
        let b = ["Z", "R", "B"][case % 3];
        let src = format!("def main() -> {b} = {}", gen(&mut rng, b, 4));
        let f = adora_core::load(&src, "main").unwrap_or_else(|d| panic!("{src}: {d}"));
        let tr = translate(&f).unwrap();
        let c = tr.egraph[tr.root].data.constant.clone();
        let v = ir_support::run(&f, &[]);
        total += 1;
        match (c, v) {
            (Some(c), Ok(v)) => {
                folded += 1;
                assert_eq!(c, as_const(&v), "{src}");
            }
            (Some(c), Err(d)) => {
                // Only a strict `select` whose discarded operand fails may fold.
                assert!(src.contains("select"), "{src} folded to {c} but fails: {d}");
            }
            (None, Ok(v)) => {
                // Unfolded values are overflowing intermediates or huge rationals only.
                let big = src.contains("922") || src.contains("461") || src.contains("303");
                assert!(big || src.contains("pow"), "{src} = {v:?} did not fold");
            }
            (None, Err(_)) => {}
        }
    }
    assert!(folded * 10 >= total * 6, "only {folded} of {total} folded");
}

/// A random `Z` expression over the index variables `i`, `j` and small constants.
fn gen_index(rng: &mut ChaCha8Rng, depth: u32) -> String {
    if depth == 0 || rng.gen_bool(0.3) {
        return match rng.gen_range(0..4) {
            0 => "i".into(),
            1 => "j".into(),
            2 => format!("({})", rng.gen_range(-4i64..5)),
            _ => format!("iota(4)[{}]", gen_index(rng, 0)),
        };
    }
    let d = depth - 1;
    match rng.gen_range(0..9) {
        0 => format!("({} + {})", gen_index(rng, d), gen_index(rng, d)),
        1 => format!("({} - {})", gen_index(rng, d), gen_index(rng, d)),
        2 => format!("({} * {})", gen_index(rng, d), gen_index(rng, d)),
        3 => format!("({} / {})", gen_index(rng, d), rng.gen_range(0..4)),
        4 => format!("({} % {})", gen_index(rng, d), rng.gen_range(0..4)),
        5 => format!("-({})", gen_index(rng, d)),
        6 => format!("min({}, {})", gen_index(rng, d), gen_index(rng, d)),
        7 => format!("max({}, {})", gen_index(rng, d), gen_index(rng, d)),
        _ => format!("abs({})", gen_index(rng, d)),
    }
}

#[test]
fn interval_bounds_contain_every_value() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut known = 0;
    for _ in 0..300 {
        let e = gen_index(&mut rng, 4);
        let src = format!("def main() -> Z[3,4] = build [3, 4] ((i, j) => {e})");
        let f = adora_core::load(&src, "main").unwrap();
        let tr = translate(&f).unwrap();
        let outer = &tr.egraph[tr.root].data;
        let Ok(Value::Int(t)) = ir_support::run(&f, &[]) else {
            continue;
        };
        if let Some(b) = outer.bounds {
            known += 1;
            for v in &t.data {
                assert!(b.contains(*v), "{e}: {v} outside [{}, {}]", b.lo, b.hi);
            }
        }
    }
    assert!(known >= 200, "bounds known for only {known} of 300");
}

#[test]
fn index_variables_have_their_extent_as_bounds() {
    let mut eg = graph();
    let i = add(&mut eg, "i2");
    let b = eg[i].data.bounds.unwrap();
    assert_eq!((b.lo, b.hi), (0, 4));
    let g = add(&mut eg, "(index (iota n5) i2)");
    let b = eg[g].data.bounds.unwrap();
    assert_eq!((b.lo, b.hi), (0, 4));
    let g = add(&mut eg, "(index (iota n5) (+ i2 z1))");
    let b = eg[g].data.bounds.unwrap();
    assert_eq!((b.lo, b.hi), (0, 4), "out of bounds reads 0");
    let m = add(&mut eg, "(% (* z3 i2) z4)");
    let b = eg[m].data.bounds.unwrap();
    assert_eq!((b.lo, b.hi), (0, 3));
    let _ = Type::int();
}
