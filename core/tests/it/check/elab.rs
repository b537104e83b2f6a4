//! Elaboration: typed literals, explicit broadcasts, inlining with capture avoidance,
//! unique binders, `check_function`, resource limits and deep trees.

use super::support::*;
use adora_core::ast::{BinOp, Expr, ExprKind, Lit, Pat, Prim};
use adora_core::check::{check_function, check_program, elaborate, type_of};
use adora_core::limits::{MAX_DEPTH, MAX_NODES};
use adora_core::visit;
use adora_core::{with_stack, ErrorKind, Type};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::HashSet;

fn rep(n: usize, e: Expr) -> Expr {
    prim(Prim::Replicate(n), vec![e])
}

fn all_nodes(e: &Expr) -> Vec<Expr> {
    let mut out = vec![e.clone()];
    for c in visit::children(e) {
        out.extend(all_nodes(c));
    }
    out
}

fn is_real_lit(e: &Expr, v: i64) -> bool {
    matches!(&e.kind, ExprKind::Lit(Lit::Real(q)) if *q == BigRational::from_integer(BigInt::from(v)))
}

#[test]
fn integer_literals_adopt_the_other_operand() {
    let f = elab("def main(x: R[3]) -> R[3] = x * 2");
    assert_eq!(f.body, bin(BinOp::Mul, var("x"), rep(3, real(2))));
    let f = elab("def main(x: R[2]) -> R[2] = [1, 2] + x");
    let arr = ex(ExprKind::Array(vec![real(1), real(2)]));
    assert_eq!(f.body, bin(BinOp::Add, arr, var("x")));
    let f = elab("def main(x: R) -> R = x * (1 + 2)");
    assert_eq!(
        f.body,
        bin(BinOp::Mul, var("x"), bin(BinOp::Add, real(1), real(2)))
    );
    // Index arithmetic stays Z inside a real context.
    let f = elab("def main(x: R[3]) -> R = x[1 + 1] * 2");
    let ix = ex(ExprKind::Index(
        Box::new(var("x")),
        vec![bin(BinOp::Add, int(1), int(1))],
    ));
    assert_eq!(f.body, bin(BinOp::Mul, ix, real(2)));
    // Negated literals and the declared result type.
    let f = elab("def main() -> R = -3");
    assert!(
        matches!(&f.body.kind, ExprKind::Unary(_, x) if is_real_lit(x, 3))
            || is_real_lit(&f.body, -3)
    );
    let f = elab("def main() -> Z = 1 + 2");
    assert_eq!(f.body, bin(BinOp::Add, int(1), int(2)));
    // Operands that share a base adopt it without an outer hint.
    let src = "def main(is: Z[3], vs: R[3], x: R) -> R =\n\
               let h = reduce_by_index(replicate(5, 0), +, 0, is, vs) in\n\
               let s = reduce(+, x, [1, 2]) in\n\
               let t = scatter_into(replicate(5, 0), is, vs) in sum(h) + s + sum(t)";
    let f = elab(src);
    let lits: Vec<Expr> = all_nodes(&f.body)
        .into_iter()
        .filter(|e| matches!(e.kind, ExprKind::Lit(_)))
        .collect();
    assert_eq!(lits.len(), 5);
    assert!(
        lits.iter()
            .all(|e| matches!(e.kind, ExprKind::Lit(Lit::Real(_)))),
        "{lits:?}"
    );
    // Parameter types of calls.
    let f = elab("def g(a: R, n: Z) -> R = a\ndef main() -> R = g(1, 1)");
    match &f.body.kind {
        ExprKind::Let(_, v, rest) => {
            assert!(is_real_lit(v, 1), "{v:?}");
            assert!(
                matches!(&rest.kind, ExprKind::Let(_, w, _) if w.kind == ExprKind::Lit(Lit::Int(1.into())))
            );
        }
        other => panic!("expected lets, found {other:?}"),
    }
}

#[test]
fn broadcasting_elaborates_to_replicate() {
    let f = elab("def main(m: R[2,3]) -> R[2,3] = 2 * m");
    assert_eq!(f.body, bin(BinOp::Mul, rep(2, rep(3, real(2))), var("m")));
    let f = elab("def main(m: R[2,3], s: R) -> R[2,3] = m - s");
    assert_eq!(f.body, bin(BinOp::Sub, var("m"), rep(2, rep(3, var("s")))));
    let f = elab("def main(m: R[2,3]) -> B[2,3] = m < 0");
    assert_eq!(f.body, bin(BinOp::Lt, var("m"), rep(2, rep(3, real(0)))));
    let f = elab("def main(x: R[3]) -> R[3] = max(x, 0)");
    assert_eq!(f.body, prim(Prim::Max, vec![var("x"), rep(3, real(0))]));
    let f = elab("def main(x: R[3]) -> R[3] = select(x > 0, x, 0)");
    let c = bin(BinOp::Gt, var("x"), rep(3, real(0)));
    assert_eq!(
        f.body,
        prim(Prim::Select, vec![c, var("x"), rep(3, real(0))])
    );
    let f = elab("def main(c: B[3]) -> Z[3] = select(c, 1, 0)");
    assert_eq!(
        f.body,
        prim(Prim::Select, vec![var("c"), rep(3, int(1)), rep(3, int(0))])
    );
    let f = elab("def main(m: R[4,3]) -> R[3] = reduce(+, 0, m)");
    assert_eq!(
        f.body,
        ex(ExprKind::Reduce(
            adora_core::ast::Op::Add,
            Box::new(rep(3, real(0))),
            Box::new(var("m"))
        ))
    );
}

#[test]
fn inlining_avoids_capture() {
    // The callee's parameter `x` names the caller's variable used in the other argument.
    let src = "def f(x: R, y: R) -> R = x - 2 * y\ndef main(x: R, y: R) -> R = f(y, x)";
    let f = elab(src);
    assert_eq!(
        run(&f, &[5, 2]),
        BigRational::from_integer(BigInt::from(2 - 2 * 5))
    );
    let fv = visit::free_vars(&f.body);
    assert!(fv.iter().all(|n| n == "x" || n == "y"), "{fv:?}");
    assert!(!format!("{:?}", f.body).contains("Call"));
    // Nested calls, a callee binder equal to a caller variable, and arguments that mention
    // names bound later in the callee.
    let src = "def g(a: R, b: R) -> R = let t = a * a in t - b\n\
               def h(t: R, a: R) -> R = g(a, t) + g(t, a)\n\
               def main(t: R, a: R) -> R = let b = h(a, t) in h(b, t + a)";
    let f = elab(src);
    let g = |a: i64, b: i64| a * a - b;
    let h = |t: i64, a: i64| g(a, t) + g(t, a);
    for (t, a) in [(1, 2), (3, -1), (0, 7)] {
        let b = h(a, t);
        assert_eq!(
            run(&f, &[t, a]),
            BigRational::from_integer(BigInt::from(h(b, t + a)))
        );
    }
}

fn binder_names(f: &adora_core::Function) -> Vec<String> {
    visit::all_binders(&f.body)
        .into_iter()
        .map(|(n, _)| n.clone())
        .collect()
}

#[test]
fn binders_are_unique_after_elaboration() {
    let src = "def f(x: R) -> R = let y = x * x in let y = y + 1 in y\n\
               def main(x: R, y: R) -> R = let z = f(x) in let z = f(z) + f(y) in z";
    let f = elab(src);
    let names = binder_names(&f);
    let set: HashSet<&String> = names.iter().collect();
    assert_eq!(set.len(), names.len(), "{names:?}");
    assert!(
        !set.contains(&"x".to_string()) && !set.contains(&"y".to_string()),
        "{names:?}"
    );
    // Deterministic `base_k` names, original names kept where unique.
    assert_eq!(
        names,
        ["z", "x_1", "y_1", "y_2", "z_1", "x_2", "y_3", "y_4", "x_3", "y_5", "y_6"]
    );
    let g = |x: i64| x * x + 1;
    for (x, y) in [(1, 2), (2, 3)] {
        assert_eq!(
            run(&f, &[x, y]),
            BigRational::from_integer(BigInt::from(g(g(x)) + g(y)))
        );
    }
    // A program's own `x_1` keeps its name; generated names avoid it.
    let f = elab("def main(x: R) -> R = let x = 1.0 in let x_1 = 2.0 in x + x_1");
    assert_eq!(binder_names(&f), ["x_2", "x_1"]);
    assert_eq!(run(&f, &[7]), BigRational::from_integer(BigInt::from(3)));
    // Readable programs keep their names.
    let f = elab("def main(x: R[3]) -> R = let s = sum(x) in sum(build 3 (i => x[i] * s))");
    assert_eq!(binder_names(&f), ["s", "i"]);
    // Deterministic.
    assert_eq!(elab(src), elab(src));
}

#[test]
fn check_function_accepts_elaborated_programs() {
    for s in ELABORATED_SOURCES {
        let f = elab(s);
        check_function(&f).expect("accepted");
    }
}

#[test]
fn check_function_rejects_violations() {
    let x3 = || param("x", r(&[3]));
    // A call.
    let call = ex(ExprKind::Call("f".into(), vec![var("x")]));
    assert_eq!(
        check_function(&func(vec![x3()], r(&[3]), call))
            .unwrap_err()
            .kind,
        ErrorKind::Unsupported
    );
    // An implicit broadcast.
    let b = bin(BinOp::Add, var("x"), real(1));
    assert_eq!(
        check_function(&func(vec![x3()], r(&[3]), b))
            .unwrap_err()
            .kind,
        ErrorKind::Shape
    );
    // An integer literal in a real position.
    let lit = bin(BinOp::Add, var("x"), rep(3, int(1)));
    assert_eq!(
        check_function(&func(vec![x3()], r(&[3]), lit))
            .unwrap_err()
            .kind,
        ErrorKind::Type
    );
    // The same, well formed, is accepted.
    let ok = bin(BinOp::Add, var("x"), rep(3, real(1)));
    check_function(&func(vec![x3()], r(&[3]), ok)).expect("well formed");
    // A binder equal to a parameter, and a duplicated binder.
    let shadow = let_("x", real(1), var("x"));
    let d = check_function(&func(vec![x3()], r(&[]), shadow)).unwrap_err();
    assert_eq!((d.kind, d.message.contains("`x`")), (ErrorKind::Name, true));
    let dup = let_(
        "a",
        real(1),
        let_("b", var("a"), let_("a", var("b"), var("a"))),
    );
    assert_eq!(
        check_function(&func(vec![], r(&[]), dup)).unwrap_err().kind,
        ErrorKind::Name
    );
    // Result type.
    assert_eq!(
        check_function(&func(vec![x3()], r(&[4]), var("x")))
            .unwrap_err()
            .kind,
        ErrorKind::Shape
    );
    // An unbound variable.
    assert_eq!(
        check_function(&func(vec![], r(&[]), var("q")))
            .unwrap_err()
            .kind,
        ErrorKind::Name
    );
}

#[test]
fn type_of_elaborated_expressions() {
    let e = env(&[("x", r(&[3])), ("x", z(&[]))]);
    assert_eq!(
        type_of(&e, &var("x")).unwrap(),
        z(&[]),
        "innermost binding wins"
    );
    assert_eq!(
        type_of(&e, &bin(BinOp::Add, var("x"), int(1))).unwrap(),
        z(&[])
    );
    assert_eq!(
        type_of(&e, &bin(BinOp::Add, var("x"), real(1)))
            .unwrap_err()
            .kind,
        ErrorKind::Type
    );
    let m = env(&[("m", r(&[2, 3]))]);
    assert_eq!(
        type_of(&m, &prim(Prim::SumOuter, vec![var("m")])).unwrap(),
        r(&[3])
    );
}

#[test]
fn recursion_is_rejected() {
    let src = "def f(x: R) -> R = g(x) + 1\ndef g(x: R) -> R = f(x)\ndef main(x: R) -> R = f(x)";
    let d = fail(src);
    assert_eq!(d.kind, ErrorKind::Name);
    assert!(d
        .message
        .contains("recursive definitions are not supported"));
}

#[test]
fn exponential_inlining_fails_quickly() {
    let mut src = String::from("def f0(x: R) -> R = x * x\n");
    for k in 1..=60 {
        src.push_str(&format!(
            "def f{k}(x: R) -> R = f{}(x) + f{}(x)\n",
            k - 1,
            k - 1
        ));
    }
    src.push_str("def main(x: R) -> R = f60(x)\n");
    let p = parse(&src);
    check_program(&p).expect("well typed");
    // `adora_core::inline::inline_entry` predicts the inlined size from the definitions
    // before building anything. Inlining `f60` would build about 2^61 nodes, which could
    // never finish, so getting this error at all shows the size was predicted, not built
    // (a deterministic check; no clock is needed).
    let d = elaborate(&p, "main").unwrap_err();
    assert_eq!(d.kind, ErrorKind::Resource);
    assert!(
        d.message.contains("is too large after inlining")
            && d.message.contains(&format!("(the limit is {MAX_NODES})")),
        "{}",
        d.message
    );
    // A smaller chain inlines fine, and exactly as large as predicted.
    let small = "def f0(x: R) -> R = x * x\ndef f1(x: R) -> R = f0(x) + f0(x)\ndef f2(x: R) -> R = f1(x) + f1(x)\ndef main(x: R) -> R = f2(x)";
    let f = elab(small);
    assert_eq!(run(&f, &[3]), BigRational::from_integer(BigInt::from(36)));
    assert!(visit::node_count(&f.body) < MAX_NODES);
}

/// `let x1 = x0 + 1 in let x2 = x1 + 1 in ... xn`.
fn let_chain(n: usize) -> Expr {
    let mut body = var(&format!("x{n}"));
    for k in (1..=n).rev() {
        body = let_(
            &format!("x{k}"),
            bin(BinOp::Add, var(&format!("x{}", k - 1)), real(1)),
            body,
        );
    }
    body
}

#[test]
fn deep_let_chain_from_source() {
    with_stack(|| {
        let mut src = String::from("def main(x0: R) -> R =\n");
        for k in 1..=1500 {
            src.push_str(&format!("  let x{k} = x{} + 1 in\n", k - 1));
        }
        src.push_str("  x1500\n");
        let f = elab(&src);
        assert_eq!(visit::depth(&f.body), 1500 + 2);
        assert_eq!(run(&f, &[1]), BigRational::from_integer(BigInt::from(1501)));
    });
}

#[test]
fn deep_trees_up_to_the_limit() {
    with_stack(|| {
        // A 19,000-let chain (depth 19,002) built by hand, inlined through a call.
        let n = 19_000;
        let p = adora_core::Program {
            defs: vec![
                def("f", vec![param("x0", r(&[]))], r(&[]), let_chain(n)),
                def(
                    "main",
                    vec![param("y", r(&[]))],
                    r(&[]),
                    ex(ExprKind::Call("f".into(), vec![var("y")])),
                ),
            ],
            templates: Vec::new(),
        };
        check_program(&p).expect("checks");
        let f = elaborate(&p, "main").expect("elaborates");
        // One `let` for the parameter, then the chain: n lets, a `+`, its operands.
        assert_eq!(visit::depth(&f.body), n + 3);
        assert_eq!(
            run(&f, &[2]),
            BigRational::from_integer(BigInt::from(2 + n as i64))
        );
        // A deep expression: ((((1 + 1) + 1) + ...) with depth near the limit.
        let mut e = real(1);
        for _ in 0..(MAX_DEPTH - 1) / 2 {
            e = bin(BinOp::Add, e, real(1));
        }
        let p = adora_core::Program {
            defs: vec![def("main", vec![], r(&[]), e)],
            templates: Vec::new(),
        };
        let f = elaborate(&p, "main").expect("elaborates");
        assert!(visit::depth(&f.body) <= MAX_DEPTH);
        // Too deep after inlining: an error, not a crash.
        let p = adora_core::Program {
            defs: vec![
                def(
                    "f",
                    vec![param("x0", r(&[]))],
                    r(&[]),
                    let_chain(MAX_DEPTH - 2),
                ),
                def(
                    "main",
                    vec![param("y", r(&[]))],
                    r(&[]),
                    ex(ExprKind::Call("f".into(), vec![var("y")])),
                ),
            ],
            templates: Vec::new(),
        };
        check_program(&p).expect("each def is within the limit");
        let d = elaborate(&p, "main").unwrap_err();
        assert_eq!(d.kind, ErrorKind::Resource, "{d}");
        assert!(d.message.contains("too deep after inlining"), "{d}");
        // Too deep in the source: an error, not a crash.
        let p = adora_core::Program {
            defs: vec![def(
                "main",
                vec![param("x0", r(&[]))],
                r(&[]),
                let_chain(MAX_DEPTH),
            )],
            templates: Vec::new(),
        };
        assert_eq!(check_program(&p).unwrap_err().kind, ErrorKind::Resource);
        // Type errors deep down are found with their position intact.
        let mut e = var("nope");
        e.span = adora_core::Span::new(7, 11);
        for _ in 0..5_000 {
            e = bin(BinOp::Mul, real(2), e);
        }
        let p = adora_core::Program {
            defs: vec![def("main", vec![], r(&[]), e)],
            templates: Vec::new(),
        };
        let d = check_program(&p).unwrap_err();
        assert_eq!((d.kind, d.span.start), (ErrorKind::Name, 7));
    });
}

#[test]
fn surface_broadcast_in_tuples_and_patterns() {
    // A tuple component bound by a pattern takes its base from its uses: `3` is R here
    // (docs/language.md, "Literal typing"); a Z variable in its place stays Z.
    let f = elab("def main(x: R[2]) -> (R[2], R) = let (a, b) = (x + 1, 3) in (a * b, b)");
    let ty = type_of(&env(&[("x", r(&[2]))]), &f.body).unwrap();
    assert_eq!(ty, Type::Tuple(vec![r(&[2]), r(&[])]));
    fails_at(
        "def main(x: R[2], n: Z) -> (R[2], R) = let (a, b) = (x + 1, n) in (a * b, b)",
        ErrorKind::Type,
        "a * b",
        "R[2] and Z",
    );
    let f = elab("def main(x: R[2]) -> (R[2], R) = let (a, b) = (x + 1, 3.0) in (a * b, b)");
    let ty = type_of(&env(&[("x", r(&[2]))]), &f.body).unwrap();
    assert_eq!(ty, Type::Tuple(vec![r(&[2]), r(&[])]));
    assert!(matches!(&f.body.kind, ExprKind::Let(Pat::Tuple(_), _, _)));
}
