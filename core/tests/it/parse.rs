//! Parser, lexer and pretty-printer tests (docs/language.md). This file checks the trees the
//! parser builds; the submodules check errors, round trips and resource limits.

mod errors;
mod gen;
mod limits;
mod roundtrip;
#[allow(dead_code)]
mod support;

use adora_core::ast::{BinOp, ExprKind, Op, Pat, Prim};
use adora_core::parser::parse_type;
use adora_core::{pretty, Base, Span, Type};
use support::*;

#[test]
fn design_example_parses_to_the_expected_tree() {
    let src = "-- a comment runs to the end of the line
def conv(x: R[10], w: R[3]) -> R[8] =
  build 8 (i => sum(build 3 (k => x[i + k] * w[k])))

def main(x: R[10], w: R[3]) -> R =
  let y = conv(x, w) in
  sum(y * y)
";
    let p = prog(src);
    assert_eq!(p.defs.len(), 2);
    let conv = &p.defs[0];
    assert_eq!(conv.name, "conv");
    assert_eq!(conv.params[0].name, "x");
    assert_eq!(conv.params[0].ty, Type::Array(Base::R, vec![10]));
    assert_eq!(conv.params[1].ty, Type::Array(Base::R, vec![3]));
    assert_eq!(conv.ret, Type::Array(Base::R, vec![8]));
    let inner = build(
        &[3],
        &["k"],
        bin(
            BinOp::Mul,
            index(var("x"), vec![bin(BinOp::Add, var("i"), var("k"))]),
            index(var("w"), vec![var("k")]),
        ),
    );
    assert_eq!(conv.body, build(&[8], &["i"], prim(Prim::Sum, vec![inner])));
    let main = &p.defs[1];
    let body = let_(
        pvar("y"),
        call("conv", vec![var("x"), var("w")]),
        prim(Prim::Sum, vec![bin(BinOp::Mul, var("y"), var("y"))]),
    );
    assert_eq!(main.body, body);
    // Spans: the def from `def` to the end of the body, the name, a parameter with its type.
    let at = |s: Span| &src[s.start..s.end];
    assert!(at(conv.span).starts_with("def conv(") && at(conv.span).ends_with("w[k])))"));
    assert_eq!(at(conv.name_span), "conv");
    assert_eq!(at(conv.params[0].span), "x: R[10]");
    assert_eq!(at(main.body.span), "let y = conv(x, w) in\n  sum(y * y)");
    // The printer reproduces the source layout exactly (minus the comment).
    assert_eq!(
        pretty::program(&p),
        src.lines().skip(1).collect::<Vec<_>>().join("\n") + "\n"
    );
}

#[test]
fn golden_header_example() {
    let p = prog("-- input: x = [1, 2, 3]\n-- value: 10\ndef main(x: R[3]) -> R = sum(x * build 3 (i => x[2 - i]))\n");
    let b = build(
        &[3],
        &["i"],
        index(var("x"), vec![bin(BinOp::Sub, int(2), var("i"))]),
    );
    assert_eq!(
        p.defs[0].body,
        prim(Prim::Sum, vec![bin(BinOp::Mul, var("x"), b)])
    );
}

#[test]
fn numbers_are_exact() {
    assert_eq!(e("3"), int(3));
    assert_eq!(e("2.5"), real(5, 2));
    assert_eq!(e("0.125"), real(1, 8));
    assert_eq!(e("0.1"), real(1, 10));
    assert_eq!(e("1.5e3"), real(1500, 1));
    assert_eq!(e("2e-2"), real(1, 50));
    assert_eq!(e("2E+2"), real(200, 1));
    assert_eq!(e("3.0"), real(3, 1));
    assert_eq!(e("007"), int(7));
    let big = e("123456789012345678901234567890");
    assert_eq!(pretty::expr(&big), "123456789012345678901234567890");
    assert_eq!(e("true"), boolean(true));
    assert_eq!(e("false"), boolean(false));
}

#[test]
fn negative_literals_fold_only_in_prefix_position() {
    assert_eq!(e("-3"), int(-3));
    assert_eq!(e("-0.125"), real(-1, 8));
    assert_eq!(e("-(3)"), neg(int(3)));
    assert_eq!(e("- 3"), neg(int(3)));
    assert_eq!(e("-x"), neg(var("x")));
    assert_eq!(e("x - 3"), bin(BinOp::Sub, var("x"), int(3)));
    assert_eq!(e("x-3"), bin(BinOp::Sub, var("x"), int(3)));
    assert_eq!(e("x -3"), bin(BinOp::Sub, var("x"), int(3)));
    assert_eq!(e("a - -3"), bin(BinOp::Sub, var("a"), int(-3)));
    assert_eq!(e("a * -2.5"), bin(BinOp::Mul, var("a"), real(-5, 2)));
    assert_eq!(
        e("f(-1, [-2, 3])"),
        call(
            "f",
            vec![int(-1), mk(ExprKind::Array(vec![int(-2), int(3)]))]
        )
    );
    assert_eq!(e("-(-3)"), neg(int(-3)));
    assert_eq!(e("!-3"), not(int(-3)));
    // `--` starts a comment.
    assert_eq!(e("a--3"), var("a"));
    // The folded literal is an atom: postfix operators apply to it.
    assert_eq!(e("-3[0]"), index(int(-3), vec![int(0)]));
    assert_eq!(e("-x[0]"), neg(index(var("x"), vec![int(0)])));
}

#[test]
fn projections_versus_decimals() {
    assert_eq!(e("p.0"), proj(var("p"), 0));
    assert_eq!(e("p.0.1"), proj(proj(var("p"), 0), 1));
    assert_eq!(e("p.1.12"), proj(proj(var("p"), 1), 12));
    assert_eq!(e("p .0"), proj(var("p"), 0));
    assert_eq!(
        e("(a, b).1"),
        proj(mk(ExprKind::Tuple(vec![var("a"), var("b")])), 1)
    );
    assert_eq!(e("xs[0].1"), proj(index(var("xs"), vec![int(0)]), 1));
    assert_eq!(e("f(x).0.1"), proj(proj(call("f", vec![var("x")]), 0), 1));
    assert_eq!(e("(2.5).0"), proj(real(5, 2), 0));
    assert_eq!(e("x + 0.5"), bin(BinOp::Add, var("x"), real(1, 2)));
    assert_eq!(e("[0.5]"), mk(ExprKind::Array(vec![real(1, 2)])));
    assert_eq!(
        e("p.0 * 1.5"),
        bin(BinOp::Mul, proj(var("p"), 0), real(3, 2))
    );
}

#[test]
fn precedence_and_associativity() {
    use BinOp::*;
    let (a, b, c) = (|| var("a"), || var("b"), || var("c"));
    assert_eq!(e("a || b && c"), bin(Or, a(), bin(And, b(), c())));
    assert_eq!(e("a && b || c"), bin(Or, bin(And, a(), b()), c()));
    assert_eq!(e("a || b || c"), bin(Or, bin(Or, a(), b()), c()));
    assert_eq!(e("a && b && c"), bin(And, bin(And, a(), b()), c()));
    assert_eq!(
        e("a == b && b != c"),
        bin(And, bin(Eq, a(), b()), bin(Ne, b(), c()))
    );
    assert_eq!(e("a < b + c"), bin(Lt, a(), bin(Add, b(), c())));
    assert_eq!(
        e("a + b <= c * a"),
        bin(Le, bin(Add, a(), b()), bin(Mul, c(), a()))
    );
    assert_eq!(e("a > b"), bin(Gt, a(), b()));
    assert_eq!(e("a >= b"), bin(Ge, a(), b()));
    assert_eq!(e("a + b * c"), bin(Add, a(), bin(Mul, b(), c())));
    assert_eq!(e("a * b + c"), bin(Add, bin(Mul, a(), b()), c()));
    assert_eq!(e("a - b - c"), bin(Sub, bin(Sub, a(), b()), c()));
    assert_eq!(e("a - (b - c)"), bin(Sub, a(), bin(Sub, b(), c())));
    assert_eq!(e("a / b / c"), bin(Div, bin(Div, a(), b()), c()));
    assert_eq!(e("a % b * c"), bin(Mul, bin(Mod, a(), b()), c()));
    assert_eq!(e("-a * b"), bin(Mul, neg(a()), b()));
    assert_eq!(e("!a && b"), bin(And, not(a()), b()));
    assert_eq!(e("!!a"), not(not(a())));
    assert_eq!(e("- -a"), neg(neg(a())));
    assert_eq!(e("-a[b].0"), neg(proj(index(a(), vec![b()]), 0)));
    assert_eq!(e("x[i, j]"), index(var("x"), vec![var("i"), var("j")]));
    assert_eq!(
        e("x[i][j]"),
        index(index(var("x"), vec![var("i")]), vec![var("j")])
    );
    assert_eq!(e("(a < b) == c"), bin(Eq, bin(Lt, a(), b()), c()));
}

#[test]
fn open_forms_extend_to_the_right() {
    use BinOp::*;
    assert_eq!(
        e("let x = 1 in x + 2"),
        let_(pvar("x"), int(1), bin(Add, var("x"), int(2)))
    );
    assert_eq!(
        e("a * let x = 1 in x + 2"),
        bin(
            Mul,
            var("a"),
            let_(pvar("x"), int(1), bin(Add, var("x"), int(2)))
        )
    );
    assert_eq!(
        e("if c then a else b + 1"),
        if_(var("c"), var("a"), bin(Add, var("b"), int(1)))
    );
    assert_eq!(
        e("(if c then a else b) + 1"),
        bin(Add, if_(var("c"), var("a"), var("b")), int(1))
    );
    assert_eq!(
        e("let x = let y = 1 in y in x"),
        let_(pvar("x"), let_(pvar("y"), int(1), var("y")), var("x"))
    );
    assert_eq!(
        e("let (a, b) = p in a * b"),
        let_(
            Pat::Tuple(names(&["a", "b"])),
            var("p"),
            bin(Mul, var("a"), var("b"))
        )
    );
    // A bare build lambda takes everything to its right; a parenthesised one does not.
    assert_eq!(
        e("build 3 i => x[i] + 1"),
        build(
            &[3],
            &["i"],
            bin(Add, index(var("x"), vec![var("i")]), int(1))
        )
    );
    assert_eq!(
        e("build 3 (i => x[i]) + 1"),
        bin(
            Add,
            build(&[3], &["i"], index(var("x"), vec![var("i")])),
            int(1)
        )
    );
    assert_eq!(
        e("build 3 (i => x[i])[0]"),
        index(
            build(&[3], &["i"], index(var("x"), vec![var("i")])),
            vec![int(0)]
        )
    );
}

#[test]
fn loops() {
    let single = e("loop (acc = x) for i < 10 do acc * 2.0");
    let expected = mk(ExprKind::Loop {
        acc: pvar("acc"),
        init: Box::new(var("x")),
        var: "i".into(),
        count: 10,
        body: Box::new(bin(BinOp::Mul, var("acc"), real(2, 1))),
    });
    assert_eq!(single, expected);
    let tuple = e("loop ((a, b) = (x, y)) for k < 3 do (b, a + b)");
    let ExprKind::Loop {
        acc,
        init,
        var: v,
        count,
        body,
    } = tuple.kind
    else {
        panic!("not a loop")
    };
    assert_eq!(acc, Pat::Tuple(names(&["a", "b"])));
    assert_eq!(*init, mk(ExprKind::Tuple(vec![var("x"), var("y")])));
    assert_eq!((v.as_str(), count), ("k", 3));
    assert_eq!(
        *body,
        mk(ExprKind::Tuple(vec![
            var("b"),
            bin(BinOp::Add, var("a"), var("b"))
        ]))
    );
}

#[test]
fn tuples_arrays_calls() {
    assert_eq!(e("(a)"), var("a"));
    assert_eq!(
        e("(a, b, c)"),
        mk(ExprKind::Tuple(vec![var("a"), var("b"), var("c")]))
    );
    assert_eq!(e("[[1, 2], [3, 4]]").kind, {
        let row = |x, y| mk(ExprKind::Array(vec![int(x), int(y)]));
        ExprKind::Array(vec![row(1, 2), row(3, 4)])
    });
    assert_eq!(e("f()"), call("f", vec![]));
    assert_eq!(
        e("f(a, g(b))"),
        call("f", vec![var("a"), call("g", vec![var("b")])])
    );
    assert_eq!(e("x'"), var("x'"));
    assert_eq!(e("_tmp_1'"), var("_tmp_1'"));
    assert_eq!(e("R"), var("R"));
}

#[test]
fn builtins() {
    for (name, p) in [
        ("exp", Prim::Exp),
        ("log", Prim::Log),
        ("sin", Prim::Sin),
        ("cos", Prim::Cos),
        ("tanh", Prim::Tanh),
        ("sqrt", Prim::Sqrt),
        ("abs", Prim::Abs),
        ("floor", Prim::Floor),
        ("real", Prim::Real),
        ("sum", Prim::Sum),
        ("sum_outer", Prim::SumOuter),
    ] {
        assert_eq!(e(&format!("{name}(x)")), prim(p, vec![var("x")]), "{name}");
    }
    assert_eq!(e("min(a, b)"), prim(Prim::Min, vec![var("a"), var("b")]));
    assert_eq!(e("max(a, b)"), prim(Prim::Max, vec![var("a"), var("b")]));
    assert_eq!(
        e("append(a, b)"),
        prim(Prim::Append, vec![var("a"), var("b")])
    );
    assert_eq!(
        e("select(c, a, b)"),
        prim(Prim::Select, vec![var("c"), var("a"), var("b")])
    );
    assert_eq!(e("pow(x, 3)"), prim(Prim::Pow(3), vec![var("x")]));
    assert_eq!(e("pow(x, -2)"), prim(Prim::Pow(-2), vec![var("x")]));
    assert_eq!(
        e("replicate(4, x)"),
        prim(Prim::Replicate(4), vec![var("x")])
    );
    assert_eq!(
        e("transpose([1, 0], x)"),
        prim(Prim::Transpose(vec![1, 0]), vec![var("x")])
    );
    assert_eq!(
        e("reshape([2, 3], x)"),
        prim(Prim::Reshape(vec![2, 3]), vec![var("x")])
    );
    assert_eq!(
        e("reshape([], x)"),
        prim(Prim::Reshape(vec![]), vec![var("x")])
    );
    assert_eq!(e("iota(5)"), prim(Prim::Iota(5), vec![]));
    assert_eq!(
        e("stack([a, b, c])"),
        prim(Prim::Stack, vec![var("a"), var("b"), var("c")])
    );
}

#[test]
fn binding_forms() {
    use BinOp::*;
    let (i, j) = (|| var("i"), || var("j"));
    assert_eq!(e("build 3 (i => i)"), build(&[3], &["i"], i()));
    assert_eq!(e("build 3 i => i"), build(&[3], &["i"], i()));
    assert_eq!(
        e("build [2, 3] ((i, j) => i * j)"),
        build(&[2, 3], &["i", "j"], bin(Mul, i(), j()))
    );
    assert_eq!(
        e("build [2, 3] (i, j) => i * j"),
        build(&[2, 3], &["i", "j"], bin(Mul, i(), j()))
    );
    assert_eq!(e("build [4] (i => i)"), build(&[4], &["i"], i()));
    let ix = vec![bin(Mul, int(2), bin(Add, i(), j())), i()];
    assert_eq!(
        e("gather([2, 3], x, (i, j) => [2 * (i + j), i])"),
        mk(ExprKind::Gather(
            vec![2, 3],
            Box::new(var("x")),
            names(&["i", "j"]),
            ix.clone()
        ))
    );
    assert_eq!(
        e("gather([2, 3], x, ((i, j) => [2 * (i + j), i]))"),
        mk(ExprKind::Gather(
            vec![2, 3],
            Box::new(var("x")),
            names(&["i", "j"]),
            ix
        ))
    );
    assert_eq!(
        e("scatter([7, 2], x, (i, j) => [i % 7, j])"),
        mk(ExprKind::Scatter(
            vec![7, 2],
            Box::new(var("x")),
            names(&["i", "j"]),
            vec![bin(Mod, i(), int(7)), j()]
        ))
    );
    assert_eq!(
        e("gather([3], x, i => [])"),
        mk(ExprKind::Gather(
            vec![3],
            Box::new(var("x")),
            names(&["i"]),
            vec![]
        ))
    );
    assert_eq!(
        e("map((a, b) => a * b, xs, ys)"),
        mk(ExprKind::Map(
            lam(&["a", "b"], bin(Mul, var("a"), var("b"))),
            vec![var("xs"), var("ys")]
        ))
    );
    assert_eq!(
        e("map(a => -a, xs)"),
        mk(ExprKind::Map(lam(&["a"], neg(var("a"))), vec![var("xs")]))
    );
    assert_eq!(
        e("map((a => -a), xs)"),
        mk(ExprKind::Map(lam(&["a"], neg(var("a"))), vec![var("xs")]))
    );
    let red = |op: Op, ne| mk(ExprKind::Reduce(op, Box::new(ne), Box::new(var("xs"))));
    assert_eq!(e("reduce(+, 0, xs)"), red(Op::Add, int(0)));
    assert_eq!(e("reduce(*, 1, xs)"), red(Op::Mul, int(1)));
    assert_eq!(e("reduce(min, ne, xs)"), red(Op::Min, var("ne")));
    assert_eq!(e("reduce(max, ne, xs)"), red(Op::Max, var("ne")));
    assert_eq!(
        e("reduce((a, b) => a + b, 0, xs)"),
        red(lambda_op(&["a", "b"], bin(Add, var("a"), var("b"))), int(0))
    );
    assert_eq!(
        e("reduce(*, replicate(4, 1), xs)"),
        red(Op::Mul, prim(Prim::Replicate(4), vec![int(1)]))
    );
    assert_eq!(
        e("scan(+, 0.0, xs)"),
        mk(ExprKind::Scan(
            Op::Add,
            Box::new(real(0, 1)),
            Box::new(var("xs"))
        ))
    );
    assert_eq!(
        e("reduce_by_index(dest, max, ne, is, vs)"),
        mk(ExprKind::ReduceByIndex {
            dest: Box::new(var("dest")),
            op: Op::Max,
            ne: Box::new(var("ne")),
            is: Box::new(var("is")),
            vs: Box::new(var("vs")),
        })
    );
    assert_eq!(
        e("scatter_into(dest, is, vs)"),
        mk(ExprKind::ScatterInto {
            dest: Box::new(var("dest")),
            is: Box::new(var("is")),
            vs: Box::new(var("vs"))
        })
    );
}

#[test]
fn types() {
    assert_eq!(parse_type("R").unwrap(), Type::real());
    assert_eq!(parse_type("Z").unwrap(), Type::int());
    assert_eq!(parse_type("B").unwrap(), Type::bool());
    assert_eq!(
        parse_type("R[2,3]").unwrap(),
        Type::Array(Base::R, vec![2, 3])
    );
    assert_eq!(parse_type("Z[4]").unwrap(), Type::Array(Base::Z, vec![4]));
    assert_eq!(parse_type("R[0]").unwrap(), Type::Array(Base::R, vec![0]));
    assert_eq!(
        parse_type("(R, R[3])").unwrap(),
        Type::Tuple(vec![Type::real(), Type::Array(Base::R, vec![3])])
    );
    let nested = Type::Tuple(vec![
        Type::Tuple(vec![Type::real(), Type::int()]),
        Type::Array(Base::B, vec![1]),
    ]);
    assert_eq!(parse_type(" ( (R, Z), B[1] ) -- c").unwrap(), nested);
    for t in [Type::real(), Type::Array(Base::Z, vec![2, 3]), nested] {
        assert_eq!(parse_type(&t.to_string()).unwrap(), t);
    }
    for bad in ["R[]", "(R)", "Q", "R[2,]", "R[-1]", "R[1.5]", "R[2] x", ""] {
        assert!(parse_type(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn defs_with_no_parameters_and_several_defs() {
    let p = prog("def c() -> R = 1.5\ndef main(x: R) -> (R, Z) = (x * c(), 2)");
    assert_eq!(p.defs[0].params.len(), 0);
    assert_eq!(p.defs[0].body, real(3, 2));
    assert_eq!(p.defs[1].ret, Type::Tuple(vec![Type::real(), Type::int()]));
}

#[test]
fn spans_cover_the_source_text() {
    let src = "(a + b) * c.0";
    let x = e(src);
    assert_eq!(x.span, Span::new(0, src.len()));
    let ExprKind::Binary(_, l, r) = &x.kind else {
        panic!()
    };
    assert_eq!(&src[l.span.start..l.span.end], "(a + b)");
    assert_eq!(&src[r.span.start..r.span.end], "c.0");
    let src = "f(-3, build 2 (i => i))";
    let ExprKind::Call(_, args) = e(src).kind else {
        panic!()
    };
    assert_eq!(&src[args[0].span.start..args[0].span.end], "-3");
    assert_eq!(
        &src[args[1].span.start..args[1].span.end],
        "build 2 (i => i)"
    );
}

/// Derivative programs scatter to and gather from rank-0 shapes (`scatter([], x, i => [])`
/// sums `x`); such a program prints as source that must parse again (found by
/// `adora check --seed 1001`: `dual/program-rechecks`, `linear/program-rechecks`).
#[test]
fn gather_and_scatter_accept_an_empty_result_shape() {
    let src = "def main(x: R[2], y: R[3]) -> (R, R) =\n  \
               (scatter([], x, i => []), gather([], y, () => [1]))\n";
    let f = adora_core::load(src, "main").expect("rank-0 gather and scatter load");
    let printed = adora_core::pretty::function(&f);
    let again = adora_core::load(&printed, "main").expect("the printed program loads again");
    assert_eq!(adora_core::pretty::function(&again), printed);
}
