//! `surface_node_types`: every node of every `def` body of a surface program gets the
//! type the checker gives it in context; ill-typed programs give the checker's error.

use super::support::*;
use adora_core::ast::{Expr, ExprKind, Lit, Program};
use adora_core::check::{check_program, node_types, surface_node_types, NodeTypes};
use adora_core::visit::{node_count, subexprs};
use adora_core::{ErrorKind, Type};

/// Surface programs with calls, broadcasts and literals in real positions.
const SURFACE_SOURCES: &[&str] = &[
    "def f(a: R[2]) -> R = sum(a * a)\ndef main(x: R[2]) -> R = f(x) + f(x * 2) / 3.5",
    "def g(a: R, n: Z) -> R[3] = replicate(3, a) * real(n) + 1\n\
     def main(x: R[3]) -> R[3] = g(x[0], 2) - g(1, 0) * x",
    "def main(x: R[4,3], y: Z[4]) -> R[4,3] = map((a, b) => a * real(b) + 1, x, y)",
    "def main(x: R[3], c: B) -> (R[3], Z[3]) = let (p, q) = (select(x > 0, x, 0), floor(x)) in \
     if c && !(x[0] == 1) then (min(p, x), q) else (pow(max(x, p), -2), q % 2)",
    "def main(x: R[4,3]) -> R[3] = reduce((a, b) => a * b + 1, 1, x) + sum_outer(x)",
    "def main(d: R[5], is: Z[3], vs: R[3]) -> R[5] = reduce_by_index(d, +, 0, is, vs) + scatter_into(d, is, vs)",
];

/// Types `p`, asserting that every node of every `def` body is typed, each root with its
/// declared result type, and that nothing else is.
fn all_typed(p: &Program) -> NodeTypes {
    let nt = surface_node_types(p).unwrap_or_else(|d| panic!("surface_node_types fails: {d}"));
    let mut total = 0;
    for d in &p.defs {
        assert_eq!(nt.get(&d.body), Some(&d.ret), "the root of `{}`", d.name);
        for e in subexprs(&d.body) {
            assert!(nt.get(e).is_some(), "untyped node {e:?}");
        }
        total += node_count(&d.body);
    }
    assert_eq!(nt.len(), total, "one entry per node");
    nt
}

/// The type given to the first node of `p` satisfying `pick`.
fn type_where(p: &Program, nt: &NodeTypes, pick: impl Fn(&Expr) -> bool) -> Type {
    let e = p
        .defs
        .iter()
        .flat_map(|d| subexprs(&d.body))
        .find(|e| pick(e))
        .expect("a matching node");
    nt.get(e).expect("typed").clone()
}

fn int_lit(e: &Expr, v: i64) -> bool {
    matches!(&e.kind, ExprKind::Lit(Lit::Int(i)) if *i == v.into())
}

#[test]
fn every_node_of_every_def_is_typed() {
    for s in SURFACE_SOURCES.iter().chain(ELABORATED_SOURCES) {
        let p = parse(s);
        all_typed(&p);
        // Typing is a pure function of the program.
        assert_eq!(surface_node_types(&p).expect("typed"), all_typed(&p));
    }
}

#[test]
fn types_are_contextual() {
    // `2` in a real position is R; `2` as a parameter of type Z stays Z; `1` passed as a
    // real argument is R; the broadcast operand `x[0]` keeps its rank-0 type.
    let p = parse(SURFACE_SOURCES[1]);
    let nt = all_typed(&p);
    let main = &p.defs[1];
    let ExprKind::Binary(_, a, b) = &main.body.kind else {
        panic!("a binary body")
    };
    assert_eq!(
        nt.get(a),
        Some(&r(&[3])),
        "a call has its callee's result type"
    );
    let ExprKind::Binary(_, call, _) = &b.kind else {
        panic!("g(1, 0) * x")
    };
    let ExprKind::Call(_, args) = &call.kind else {
        panic!("a call")
    };
    assert_eq!(
        nt.get(&args[0]),
        Some(&Type::real()),
        "`1` as an R argument"
    );
    assert_eq!(nt.get(&args[1]), Some(&Type::int()), "`0` as a Z argument");
    let is_index = |e: &Expr| matches!(e.kind, ExprKind::Index(..));
    assert_eq!(type_where(&p, &nt, is_index), Type::real());
    let one_in_g = subexprs(&p.defs[0].body)
        .into_iter()
        .find(|e| int_lit(e, 1))
        .expect("the literal 1");
    assert_eq!(
        nt.get(one_in_g),
        Some(&Type::real()),
        "broadcast real literal"
    );

    let p = parse("def main(x: R[3]) -> R = sum(x * 2) + 3");
    let nt = all_typed(&p);
    assert_eq!(type_where(&p, &nt, |e| int_lit(e, 2)), Type::real());
    assert_eq!(type_where(&p, &nt, |e| int_lit(e, 3)), Type::real());

    let p = parse("def main(x: Z[3]) -> R = real(x[1] + 2) * 4");
    let nt = all_typed(&p);
    assert_eq!(
        type_where(&p, &nt, |e| int_lit(e, 1)),
        Type::int(),
        "an index"
    );
    assert_eq!(type_where(&p, &nt, |e| int_lit(e, 2)), Type::int());
    assert_eq!(type_where(&p, &nt, |e| int_lit(e, 4)), Type::real());
}

#[test]
fn agrees_with_the_elaborated_types_where_elaboration_keeps_the_tree() {
    let mut compared = 0;
    for s in SURFACE_SOURCES.iter().chain(ELABORATED_SOURCES) {
        let p = parse(s);
        let Some(d) = p.defs.iter().find(|d| d.name == "main") else {
            continue;
        };
        let f = elab(s);
        // Same shape: no broadcast was inserted and no call inlined.
        if node_count(&f.body) != node_count(&d.body) || p.defs.len() != 1 {
            continue;
        }
        let surface = surface_node_types(&p).expect("typed");
        let elaborated = node_types(&f).expect("typed");
        for (a, b) in subexprs(&d.body).into_iter().zip(subexprs(&f.body)) {
            assert_eq!(a.kind.form_name(), b.kind.form_name());
            assert_eq!(surface.get(a), elaborated.get(b), "node {a:?}");
        }
        compared += 1;
    }
    assert!(compared >= 3, "only {compared} programs compared");
}

#[test]
fn nodes_of_other_trees_are_not_typed() {
    let p = parse(SURFACE_SOURCES[0]);
    let nt = surface_node_types(&p).expect("typed");
    let other = p.defs[1].body.clone();
    assert_eq!(nt.get(&other), None);
    assert_eq!(nt.of(&other).unwrap_err().kind, ErrorKind::Unsupported);
    assert_eq!(nt.of(&p.defs[1].body).expect("a node"), &Type::real());
    // A program without defs types nothing.
    let empty = Program::default();
    assert!(surface_node_types(&empty).expect("typed").is_empty());
}

#[test]
fn ill_typed_programs_give_the_checkers_error() {
    let cases = [
        ("def main(x: R[3]) -> R = sum(x) + y", ErrorKind::Name),
        ("def main(x: R[3]) -> R = x", ErrorKind::Shape),
        ("def main(x: R[3]) -> R = sum(x) && true", ErrorKind::Type),
        (
            "def f(a: R) -> R = a\ndef main(x: R[3]) -> R = f(x)",
            ErrorKind::Shape,
        ),
        ("def main(x: R) -> R = main(x)", ErrorKind::Name),
        (
            "def main(x: R) -> R = x\ndef main(y: R) -> R = y",
            ErrorKind::Name,
        ),
        // An ill-typed def that is not the entry point.
        (
            "def f(a: R) -> Z = a\ndef main(x: R) -> R = x",
            ErrorKind::Type,
        ),
    ];
    for (s, kind) in cases {
        let p = parse(s);
        let d = surface_node_types(&p).unwrap_err();
        assert_eq!(d.kind, kind, "{d} for\n{s}");
        assert_eq!(check_program(&p).unwrap_err(), d, "the checker's error");
    }
}
