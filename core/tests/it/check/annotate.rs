//! `node_types`: every node of an elaborated function gets the type `type_of` gives that
//! subtree in its environment; ill-typed functions are errors, not panics.

use super::support::*;
use adora_core::ast::{BinOp, Binding, Expr, ExprKind, Function, Lambda, Name, Op, Pat, Prim};
use adora_core::check::{check_function, node_types, param_env, type_of, NodeTypes};
use adora_core::visit::{node_count, scoped_children};
use adora_core::{ErrorKind, Type};

/// One outer slice of the array type `t`.
fn element(t: &Type) -> Type {
    let (b, s) = t.as_array().expect("an array");
    Type::Array(b, s[1..].to_vec())
}

/// `(name, type)` for every name a pattern binds to a value of type `t`.
fn pattern(p: &Pat, t: &Type) -> Vec<(Name, Type)> {
    match (p, t) {
        (Pat::Var(n), t) => vec![(n.clone(), t.clone())],
        (Pat::Tuple(ns), Type::Tuple(ts)) => ns.iter().cloned().zip(ts.iter().cloned()).collect(),
        _ => panic!("pattern {p:?} against {t}"),
    }
}

fn lambda(op: &Op, slice: Type) -> Vec<(Name, Type)> {
    match op {
        Op::Lambda(Lambda { params, .. }) => {
            params.iter().map(|p| (p.clone(), slice.clone())).collect()
        }
        _ => Vec::new(),
    }
}

/// The type of every name the node `e` binds, from the (already verified) types of its
/// other children in `nt`.
fn binder_types(nt: &NodeTypes, e: &Expr) -> Vec<(Name, Type)> {
    use ExprKind as K;
    let ty = |x: &Expr| nt.get(x).expect("typed").clone();
    let ints = |bs: &[Name]| bs.iter().map(|b| (b.clone(), Type::int())).collect();
    match &e.kind {
        K::Let(p, v, _) => pattern(p, &ty(v)),
        K::Build(_, bs, _) | K::Gather(_, _, bs, _) | K::Scatter(_, _, bs, _) => ints(bs),
        K::Map(l, xs) => l
            .params
            .iter()
            .zip(xs)
            .map(|(p, x)| (p.clone(), element(&ty(x))))
            .collect(),
        K::Reduce(op, _, xs) | K::Scan(op, _, xs) => lambda(op, element(&ty(xs))),
        K::ReduceByIndex { dest, op, .. } => lambda(op, element(&ty(dest))),
        K::Loop { acc, init, var, .. } => {
            let mut out = pattern(acc, &ty(init));
            out.push((var.clone(), Type::int()));
            out
        }
        _ => Vec::new(),
    }
}

/// Asserts that every node under `e` (in environment `env`) has the type `type_of` gives
/// it; returns the number of nodes visited.
fn agree(nt: &NodeTypes, env: &mut Vec<Binding>, e: &Expr) -> usize {
    let want = type_of(env, e).unwrap_or_else(|d| panic!("type_of fails: {d}"));
    assert_eq!(nt.get(e), Some(&want), "node {e:?}");
    let bound = binder_types(nt, e);
    let mut seen = 1;
    for (c, names) in scoped_children(e) {
        let k = env.len();
        for n in names {
            let (_, t) = bound.iter().find(|(m, _)| m == n).expect("a binder's type");
            env.push(Binding {
                name: n.clone(),
                ty: t.clone(),
            });
        }
        seen += agree(nt, env, c);
        env.truncate(k);
    }
    seen
}

/// `node_types` of `f` types every node, as `type_of` does.
fn all_agree(f: &Function) -> NodeTypes {
    let nt = node_types(f).unwrap_or_else(|d| panic!("node_types fails: {d}"));
    let seen = agree(&nt, &mut param_env(f), &f.body);
    assert_eq!(seen, node_count(&f.body));
    assert_eq!(nt.len(), seen, "one entry per node");
    assert!(!nt.is_empty());
    nt
}

#[test]
fn every_node_gets_its_type_of() {
    let more = [
        "def main(x: R[4,3], y: Z[4]) -> R[4,3] = map((a, b) => a * real(b), x, y)",
        "def main(x: R[4,3]) -> R[3] = reduce((a, b) => a * b + a, replicate(3, 1), x) + sum_outer(x)",
        "def main(x: R[3], c: B) -> (R[3], Z[3]) = let (p, q) = (select(x > 0, x, 0), floor(x)) in \
         if c && !(x[0] == 1) then (min(p, x), q) else (pow(max(x, p), -2), q % 2)",
        "def main(x: R[2], y: R[3]) -> R[2,5] = stack([append(x, y), append(y, x)]) + [[1, 2, 3, 4, 5], [0, 0, 0, 0, -1]]",
        "def main(d: B[5], is: Z[3], vs: B[3]) -> (B[5], Z[4], Z) = (scatter_into(d, is, vs), iota(4), abs(-3))",
        "def f(a: R[2]) -> R = sum(a * a)\ndef main(x: R[2]) -> R = f(x) + f(x * 2) / 3.5",
    ];
    for s in ELABORATED_SOURCES.iter().chain(&more) {
        let f = elab(s);
        let nt = all_agree(&f);
        assert_eq!(
            nt.get(&f.body),
            Some(&f.ret),
            "the root has the declared type"
        );
    }
}

#[test]
fn keys_are_node_addresses() {
    let f = elab("def main(x: R[3]) -> R = sum(x * x)");
    let nt = node_types(&f).expect("typed");
    assert_eq!(NodeTypes::key(&f.body), &f.body as *const Expr as usize);
    // A structurally equal node elsewhere is not a node of `f`.
    let other = f.body.clone();
    assert_eq!(nt.get(&other), None);
    let d = nt.of(&other).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Unsupported);
    assert_eq!(nt.of(&f.body).expect("a node"), &r(&[]));
    // Typing is a pure function of the tree.
    assert_eq!(node_types(&f).expect("typed"), nt);
}

#[test]
fn shadowing_is_typed_innermost_first() {
    // Not elaborated (a binder reused), but well typed: node_types types it, and says
    // nothing about the elaborated invariants, which are check_function's.
    let arr = ex(ExprKind::Array(vec![real(1), real(2)]));
    let body = let_("x", int(1), let_("x", arr, var("x")));
    let f = func(vec![param("x", Type::bool())], r(&[2]), body);
    assert_eq!(check_function(&f).unwrap_err().kind, ErrorKind::Name);
    all_agree(&f);
    let ExprKind::Let(_, _, inner) = &f.body.kind else {
        unreachable!()
    };
    let ExprKind::Let(_, _, x) = &inner.kind else {
        unreachable!()
    };
    assert_eq!(node_types(&f).expect("typed").get(x), Some(&r(&[2])));
}

#[test]
fn ill_typed_functions_are_errors_not_panics() {
    let x3 = || param("x", r(&[3]));
    let tuple_map = ex(ExprKind::Map(
        Lambda {
            params: vec!["a".into()],
            body: Box::new(ex(ExprKind::Tuple(vec![var("a"), var("a")]))),
        },
        vec![var("x")],
    ));
    let cases = [
        (
            ex(ExprKind::Call("g".into(), vec![])),
            ErrorKind::Unsupported,
        ),
        (var("y"), ErrorKind::Name),
        (bin(BinOp::Add, var("x"), real(1)), ErrorKind::Shape),
        (
            bin(BinOp::Add, var("x"), prim(Prim::Replicate(3), vec![int(1)])),
            ErrorKind::Type,
        ),
        (tuple_map, ErrorKind::Unsupported),
        (prim(Prim::Sum, vec![var("x"), var("x")]), ErrorKind::Type),
        (
            ex(ExprKind::Index(Box::new(var("x")), vec![int(0), int(0)])),
            ErrorKind::Shape,
        ),
    ];
    for (body, kind) in cases {
        let f = func(vec![x3()], r(&[3]), body);
        let d = node_types(&f).unwrap_err();
        assert_eq!(d.kind, kind, "{d}");
        // The same error as the checker's.
        assert_eq!(check_function(&f).unwrap_err(), d);
        assert_eq!(type_of(&param_env(&f), &f.body).unwrap_err(), d);
    }
    // A body of the wrong declared type is typed (the declaration is check_function's).
    let f = func(vec![x3()], r(&[]), var("x"));
    assert!(check_function(&f).is_err());
    assert_eq!(node_types(&f).expect("typed").get(&f.body), Some(&r(&[3])));
}

#[test]
fn deep_functions_are_typed_on_a_large_stack() {
    let n = 20_000;
    let nt_len = adora_core::with_stack(move || {
        let mut body = var("x");
        for _ in 0..n {
            body = bin(BinOp::Add, body, var("x"));
        }
        let f = func(vec![param("x", Type::real())], Type::real(), body);
        let nt = node_types(&f).expect("typed");
        assert_eq!(nt.get(&f.body), Some(&Type::real()));
        let len = nt.len();
        // drop the deep tree on this thread's large stack too
        drop(f);
        len
    });
    assert_eq!(nt_len, 2 * n + 1);
}
