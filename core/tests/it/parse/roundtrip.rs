//! Round trips through the pretty-printer: a corpus of programs covering every construct,
//! hand-built trees that the parser would never produce, and printer output details.

use super::support::*;
use adora_core::ast::{BinOp, ExprKind, Function, Op, Pat, Prim};
use adora_core::{parser::parse_expr, pretty, Type};

const CORPUS: &[&str] = &[
    "def conv(x: R[10], w: R[3]) -> R[8] =
  build 8 (i => sum(build 3 (k => x[i + k] * w[k])))
def main(x: R[10], w: R[3]) -> R =
  let y = conv(x, w) in
  sum(y * y)",
    "def main(x: R[3]) -> R = sum(x * build 3 (i => x[2 - i]))",
    "def f(p: (R, R[3]), b: B, n: Z) -> (R, Z) =
  let (a, v) = p in
  let s = if b && !(n < 0) || false then a else -a in
  (s * v.0 + p.1[2] - -3.5 / 0.125 % 2, n / 2 % 3)",
    "def g(x: R[2,3], i: Z) -> R[3,2] =
  let t = transpose([1, 0], x) in
  let r = reshape([3, 2], reshape([6], x)) in
  select(t > r, t, r) + replicate(3, replicate(2, real(i))) * pow(t, -2)",
    "def h(x: R[4]) -> R =
  exp(x[0]) + log(x[1]) + sin(x[2]) * cos(x[3]) - tanh(sqrt(abs(x[0]))) + real(floor(x[1]))
  + min(x[0], x[1]) * max(x[2], 1)",
    "def s(x: R[2,3], y: R[3]) -> R[4,3] =
  append(stack([y, y * 2.0]), stack([sum_outer(x), [1.0, 2.0, 3.0]]))",
    "def io(n: Z) -> Z[5] = iota(5) + [1, 2, 3, 4, 5] * n",
    "def gs(x: R[6]) -> R[7,2] =
  let g = gather([2, 3], x, (i, j) => [2 * (i + j) % 6]) in
  scatter([7, 2], g, (i, j) => [i % 7, j])",
    "def m(xs: R[5], ys: R[5]) -> R =
  let z = map((a, b) => a * b + 1.0, xs, ys) in
  let w = map(a => if a > 0.0 then a else 0.0, z) in
  reduce(+, 0, w) + reduce(*, 1, w) + reduce(min, 100, w) + reduce(max, -100, w)
  + reduce((a, b) => a * 0.5 + b, 0.0, scan(+, 0, w))[4]",
    "def hist(dest: R[3], is: Z[5], vs: R[5]) -> R[3] =
  let a = reduce_by_index(dest, +, 0.0, is, vs) in
  let b = reduce_by_index(a, (x, y) => max(x, y), -1000, is, vs) in
  scatter_into(b, is, vs)",
    "def lp(x: R, n: Z) -> (R, R) =
  loop ((a, b) = (x, 1.0)) for i < 10 do
    let c = loop (acc = a) for j < 2 do acc * b in
    (c + real(i), b / 2.0)",
    "def nested(x: R[3]) -> R[3] =
  build 3 (i =>
    let y = x[i] in
    if y > 0.0 then
      let z = y * y in
      z
    else if y < -1.0 then -y else 0.0)",
    "def k(x: R) -> R =
  let y =
    let z = x * x in
    z + 1.0
  in
  f(let q = y in q, if x > 0.0 then x else -(x), loop (a = x) for i < 3 do a * a)
def f(a: R, b: R, c: R) -> R = a * b - c",
    "def ops(x: R[3], t: (R, (R, Z))) -> R =
  let p = t.1.0 * -(2) + (-3)[0] in
  let q = -(-x[0]) - - - x[1] in
  p * q - -0.5 + 1e2 - 2.5e-3",
    "def bs(x: R[2,2]) -> R[2,2] = build [2, 2] ((i, j) => x[j, i] + build 2 i => x[i][j] * 2.0)",
    "def deep(b: B) -> B = !(b == (true != false)) && (b || !b) || b != !b",
];

#[test]
fn corpus_round_trips() {
    for src in CORPUS {
        let p = prog(src);
        if std::env::var_os("ADORA_SHOW_CORPUS").is_some() {
            println!("{}", pretty::program(&p));
        }
        roundtrip_program(&p);
    }
}

#[test]
fn printed_layout() {
    let p = prog(CORPUS[11]);
    let expected = "def nested(x: R[3]) -> R[3] =
  build 3 (i =>
    let y = x[i] in
    if y > 0.0 then
      let z = y * y in
      z
    else if y < -1.0 then -y else 0.0)
";
    assert_eq!(pretty::program(&p), expected);
    let p = prog(CORPUS[12]);
    let expected = "def k(x: R) -> R =
  let y =
    let z = x * x in
    z + 1.0
  in
  f(let q = y in
    q, if x > 0.0 then x else -x, loop (a = x) for i < 3 do
      a * a)

def f(a: R, b: R, c: R) -> R =
  a * b - c
";
    assert_eq!(pretty::program(&p), expected);
}

#[test]
fn literals_print_exactly() {
    assert_eq!(pretty::expr(&real(3, 1)), "3.0");
    assert_eq!(pretty::expr(&real(-1, 2)), "-0.5");
    assert_eq!(pretty::expr(&real(1, 8)), "0.125");
    assert_eq!(pretty::expr(&real(-21, 20)), "-1.05");
    assert_eq!(pretty::expr(&real(1, 1024)), "0.0009765625");
    assert_eq!(pretty::expr(&real(0, 1)), "0.0");
    assert_eq!(pretty::expr(&real(1, 3)), "(1.0 / 3.0)");
    assert_eq!(pretty::expr(&real(-2, 3)), "(-2.0 / 3.0)");
    assert_eq!(pretty::expr(&int(-7)), "-7");
    assert_eq!(pretty::expr(&boolean(false)), "false");
    // A decimal with a huge denominator is still printed exactly.
    let tiny = e("1e-300");
    assert_eq!(e(&pretty::expr(&tiny)), tiny);
    // Non-decimal rationals read back as a division with the same value.
    assert_eq!(
        e(&pretty::expr(&real(-2, 3))),
        bin(BinOp::Div, real(-2, 1), real(3, 1))
    );
}

#[test]
fn negation_never_prints_a_comment() {
    let cases = [
        (neg(int(3)), "-(3)"),
        (neg(int(-3)), "-(-3)"),
        (neg(real(1, 2)), "-(0.5)"),
        (neg(neg(var("x"))), "-(-x)"),
        (neg(neg(neg(int(1)))), "-(-(-(1)))"),
        (bin(BinOp::Sub, var("a"), int(-3)), "a - -3"),
        (bin(BinOp::Sub, var("a"), neg(var("b"))), "a - -b"),
        (not(int(-3)), "!-3"),
        (neg(not(var("b"))), "-!b"),
        (index(int(-1), vec![int(0)]), "(-1)[0]"),
        (proj(int(3), 0), "(3).0"),
        (proj(proj(real(5, 2), 1), 0), "(2.5).1.0"),
        (neg(index(int(3), vec![int(0)])), "-(3)[0]"),
        (index(neg(int(3)), vec![int(0)]), "(-(3))[0]"),
    ];
    for (x, text) in cases {
        assert_eq!(pretty::expr(&x), text);
        roundtrip_expr(&x);
    }
}

#[test]
fn hand_built_trees_round_trip() {
    use BinOp::*;
    let l = || let_(pvar("y"), int(1), var("y"));
    let i = || if_(boolean(true), int(1), int(2));
    let lp = || {
        mk(ExprKind::Loop {
            acc: Pat::Tuple(names(&["a", "b"])),
            init: Box::new(mk(ExprKind::Tuple(vec![int(0), int(1)]))),
            var: "k".into(),
            count: 4,
            body: Box::new(mk(ExprKind::Tuple(vec![var("b"), var("a")]))),
        })
    };
    let b = || build(&[2], &["j"], l());
    let cases = vec![
        bin(Mul, l(), l()),
        bin(Add, i(), lp()),
        bin(Lt, bin(Lt, var("a"), var("b")), var("c")),
        bin(Lt, var("a"), bin(Lt, var("b"), var("c"))),
        bin(Sub, var("a"), bin(Sub, var("b"), var("c"))),
        bin(
            Div,
            bin(Mul, var("a"), var("b")),
            bin(Mod, var("c"), var("d")),
        ),
        bin(And, bin(Or, var("a"), var("b")), var("c")),
        neg(l()),
        not(i()),
        index(l(), vec![lp()]),
        proj(proj(lp(), 1), 0),
        proj(i(), 0),
        bin(Add, b(), b()),
        index(b(), vec![l()]),
        let_(pvar("x"), l(), i()),
        let_(pvar("x"), i(), lp()),
        if_(l(), lp(), l()),
        if_(i(), i(), i()),
        mk(ExprKind::Tuple(vec![l(), i(), lp()])),
        mk(ExprKind::Array(vec![neg(int(2)), int(-2), real(-1, 4)])),
        call("f", vec![l(), neg(neg(int(0)))]),
        mk(ExprKind::Map(lam(&["a"], l()), vec![l(), i()])),
        mk(ExprKind::Reduce(
            lambda_op(&["a", "b"], i()),
            Box::new(l()),
            Box::new(lp()),
        )),
        mk(ExprKind::Scan(
            Op::Min,
            Box::new(int(0)),
            Box::new(var("xs")),
        )),
        mk(ExprKind::ReduceByIndex {
            dest: Box::new(l()),
            op: lambda_op(&["p", "q"], bin(Add, l(), var("q"))),
            ne: Box::new(i()),
            is: Box::new(lp()),
            vs: Box::new(var("v")),
        }),
        mk(ExprKind::ScatterInto {
            dest: Box::new(i()),
            is: Box::new(l()),
            vs: Box::new(lp()),
        }),
        mk(ExprKind::Gather(
            vec![3],
            Box::new(l()),
            names(&["i"]),
            vec![i(), l()],
        )),
        mk(ExprKind::Scatter(
            vec![3, 1],
            Box::new(lp()),
            names(&["i", "j"]),
            vec![],
        )),
        prim(Prim::Pow(-3), vec![l()]),
        prim(Prim::Stack, vec![i()]),
        prim(Prim::Iota(0), vec![]),
        build(&[1, 2, 3], &["a", "b", "c"], bin(Add, lp(), i())),
    ];
    for x in &cases {
        roundtrip_expr(x);
    }
}

#[test]
fn functions_print_as_defs() {
    let f = Function {
        name: "main".into(),
        params: prog("def main(x: R[3], p: (R, Z)) -> R = x").defs[0]
            .params
            .clone(),
        ret: Type::real(),
        body: let_(
            pvar("y"),
            bin(BinOp::Mul, var("x"), var("x")),
            prim(Prim::Sum, vec![var("y")]),
        ),
    };
    let text = pretty::function(&f);
    assert_eq!(
        text,
        "def main(x: R[3], p: (R, Z)) -> R =\n  let y = x * x in\n  sum(y)\n"
    );
    let back = prog(&text);
    assert_eq!(back.defs[0].body, f.body);
}

#[test]
fn printed_expressions_parse_as_expressions() {
    for src in [
        "let x = 1 in\nx",
        "if a then b else c",
        "build [2, 3] ((i, j) => i + j)",
    ] {
        let x = e(src);
        assert_eq!(parse_expr(&pretty::expr(&x)).unwrap(), x);
    }
}
