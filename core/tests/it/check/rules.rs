//! The rules of variables, literals, tuples, `if`, operators, calls and built-ins: each
//! accepts good programs and rejects bad ones with the right error kind and position.

use super::support::*;
use adora_core::ErrorKind::{Name, Shape, Type as TypeErr};
use adora_core::Type;

#[test]
fn variables() {
    assert_eq!(ret_type("def main(x: R[3]) -> R[3] = x"), r(&[3]));
    fails_at("def main(x: R) -> R = y", Name, "y", "unbound variable `y`");
    let src = "def f(x: R) -> R = x\ndef main(x: R) -> R = f";
    fails_at(src, Name, "~f", "functions are not values");
    // A local binding shadows a def name.
    assert_eq!(
        ret_type("def f(x: R) -> R = x\ndef main(f: R) -> R = f"),
        r(&[])
    );
}

#[test]
fn literals() {
    assert_eq!(ret_type("def main() -> Z = 3"), z(&[]));
    assert_eq!(ret_type("def main() -> R = 3"), r(&[]));
    assert_eq!(ret_type("def main() -> R = 2.5"), r(&[]));
    assert_eq!(ret_type("def main() -> B = true"), Type::bool());
    fails_at(
        "def main() -> Z = 2.5",
        TypeErr,
        "2.5",
        "has type R, but its declared result type is Z",
    );
    fails_at(
        "def main(x: R[3]) -> R = x[1.5]",
        TypeErr,
        "1.5",
        "must be Z",
    );
    // A let-bound literal takes its base from its uses (docs/language.md, "Literal
    // typing"); a Z variable does not adopt R.
    assert_eq!(ret_type("def main(x: R) -> R = let y = 2 in x * y"), r(&[]));
    fails_at(
        "def main(x: R, n: Z) -> R = let y = n in x * y",
        TypeErr,
        "x * y",
        "R and Z",
    );
}

#[test]
fn arrays_and_tuples() {
    assert_eq!(
        ret_type("def main() -> Z[2,2] = [[1, 2], [3, 4]]"),
        z(&[2, 2])
    );
    fails_at(
        "def main() -> Z[2,2] = [[1, 2], [3]]",
        Shape,
        "[3]",
        "different types: Z[2] and Z[1]",
    );
    fails_at(
        "def main() -> Z[2] = [1, true]",
        TypeErr,
        "true",
        "different types",
    );
    fails_at(
        "def main(x: R) -> R[2] = [(x, x), (x, x)]",
        TypeErr,
        "(x, x)",
        "must be an array",
    );
    assert_eq!(
        ret_type("def main(x: R, y: Z) -> (R, Z) = (x, y)"),
        Type::Tuple(vec![r(&[]), z(&[])])
    );
    assert_eq!(ret_type("def main(x: R, y: Z) -> Z = (x, y).1"), z(&[]));
    fails_at(
        "def main(x: R, y: Z) -> Z = (x, y).2",
        TypeErr,
        "(x, y).2",
        "out of range",
    );
    fails_at("def main(x: R) -> R = x.0", TypeErr, "x.0", "non-tuple");
    assert_eq!(
        ret_type("def main(x: R, y: Z) -> R = let (a, b) = (x, y) in a"),
        r(&[])
    );
    fails_at(
        "def main(x: R, y: Z) -> R = let (a, b, c) = (x, y) in a",
        TypeErr,
        "let",
        "3 names",
    );
    fails_at(
        "def main(x: R) -> R = let (a, a) = (x, x) in a",
        Name,
        "let",
        "bound twice",
    );
}

#[test]
fn conditionals() {
    assert_eq!(
        ret_type("def main(x: R) -> (R, R) = if x < 0 then (x, 1) else (0, x)"),
        Type::Tuple(vec![r(&[]), r(&[])])
    );
    fails_at(
        "def main(x: R) -> R = if x then x else x",
        TypeErr,
        "x then",
        "condition of `if`",
    );
    fails_at(
        "def main(x: R[2]) -> R[2] = if x < x then x else x",
        Shape,
        "x < x",
        "B scalar",
    );
    fails_at(
        "def main(x: R, y: R[2]) -> R = if true then x else y",
        Shape,
        "if",
        "R and R[2]",
    );
    fails_at(
        "def main(x: R, y: Z) -> R = if true then x else y",
        TypeErr,
        "if",
        "R and Z",
    );
}

#[test]
fn operators() {
    assert_eq!(ret_type("def main(x: R[3]) -> R[3] = -x / x"), r(&[3]));
    assert_eq!(
        ret_type("def main(x: Z[3]) -> Z[3] = x / 2 + x % 2"),
        z(&[3])
    );
    assert_eq!(
        ret_type("def main(x: R[3]) -> B[3] = x < x && !(x == x)"),
        Type::Array(adora_core::Base::B, vec![3])
    );
    fails_at(
        "def main(x: R) -> R = x % x",
        TypeErr,
        "x % x",
        "`%` needs operands of type Z",
    );
    fails_at("def main(x: R) -> B = x && x", TypeErr, "x && x", "type B");
    fails_at("def main(x: B) -> B = -x", TypeErr, "~x", "R or Z");
    fails_at("def main(x: R) -> R = !x", TypeErr, "~x", "must be B");
    fails_at(
        "def main(x: R, y: Z) -> R = x + y",
        TypeErr,
        "x + y",
        "R and Z",
    );
    fails_at(
        "def main(x: R[3], y: R[4]) -> R[3] = x + y",
        Shape,
        "x + y",
        "R[3] and R[4]",
    );
    fails_at(
        "def main(x: B, y: B) -> B = x < y",
        TypeErr,
        "x < y",
        "R or Z",
    );
    assert_eq!(ret_type("def main(x: B, y: B) -> B = x == y"), Type::bool());
}

#[test]
fn calls_and_definitions() {
    let ok = "def sq(x: R) -> R = x * x\ndef main(y: R) -> R = sq(y) + sq(2)";
    assert_eq!(ret_type(ok), r(&[]));
    fails_at(
        "def main(x: R) -> R = g(x)",
        Name,
        "g(x)",
        "unknown function `g`",
    );
    fails_at(
        "def f(x: R) -> R = x\ndef main(x: R) -> R = f(x, x)",
        TypeErr,
        "f(x, x)",
        "takes 1 argument",
    );
    let src = "def f(a: R[3]) -> R = sum(a)\ndef main(x: R[2]) -> R = f(x)";
    fails_at(
        src,
        Shape,
        "x)",
        "argument `a` of `f` has type R[2], expected R[3]",
    );
    let d = fail(src);
    assert_eq!(d.labels.len(), 1, "the parameter is labelled");
    fails_at(
        "def f(x: R) -> R = f(x)\ndef main(x: R) -> R = x",
        Name,
        "f(x)",
        "recursive definitions",
    );
    let mutual = "def f(x: R) -> R = g(x)\ndef g(x: R) -> R = h(x)\ndef h(x: R) -> R = f(x)\ndef main(x: R) -> R = x";
    let d = fail(mutual);
    assert_eq!(d.kind, Name);
    assert!(d.notes[0].contains("f -> g -> h -> f"), "{:?}", d.notes);
    fails_at(
        "def f(x: R) -> R = x\ndef f(y: R) -> R = y\ndef main(x: R) -> R = x",
        Name,
        "f(y",
        "duplicate definition",
    );
    fails_at(
        "def main(x: R, x: Z) -> R = 1",
        Name,
        "x: Z",
        "duplicate parameter",
    );
    fails_at(
        "def main(x: R) -> Z = x",
        TypeErr,
        "~x",
        "declared result type is Z",
    );
    let v = "def main(v: R) -> R = v";
    let d = adora_core::check::elaborate(&parse(v), "nope").expect_err("unknown entry");
    assert_eq!(d.kind, Name);
    assert!(
        d.message.contains("`nope`") && d.message.contains("main"),
        "{}",
        d.message
    );
    fails_at(
        "def main(x: R) -> R = let f = x in f(x)",
        Name,
        "f(x)",
        "not a function",
    );
}

#[test]
fn elementwise_builtins() {
    assert_eq!(
        ret_type("def main(x: R[2]) -> R[2] = exp(log(sin(cos(tanh(sqrt(x))))))"),
        r(&[2])
    );
    fails_at(
        "def main(x: Z[2]) -> R[2] = exp(x)",
        TypeErr,
        "x)",
        "argument of `exp` must be R",
    );
    assert_eq!(ret_type("def main(x: Z[2]) -> Z[2] = abs(x)"), z(&[2]));
    assert_eq!(ret_type("def main(x: R[2]) -> Z[2] = floor(x)"), z(&[2]));
    assert_eq!(ret_type("def main(x: Z[2]) -> R[2] = real(x)"), r(&[2]));
    fails_at(
        "def main(x: R[2]) -> R[2] = real(x)",
        TypeErr,
        "x)",
        "must be Z",
    );
    assert_eq!(ret_type("def main(x: Z[2]) -> Z[2] = pow(x, 3)"), z(&[2]));
    assert_eq!(ret_type("def main(x: R[2]) -> R[2] = pow(x, -2)"), r(&[2]));
    fails_at(
        "def main(x: Z[2]) -> Z[2] = pow(x, -1)",
        TypeErr,
        "x,",
        "must be R",
    );
    assert_eq!(
        ret_type("def main(x: R[2], y: R) -> R[2] = max(min(x, y), 0)"),
        r(&[2])
    );
    fails_at(
        "def main(x: B, y: B) -> B = min(x, y)",
        TypeErr,
        "min",
        "R or Z",
    );
    fails_at(
        "def main(x: R[2], y: R[3]) -> R[2] = max(x, y)",
        Shape,
        "max",
        "R[2] and R[3]",
    );
}

#[test]
fn select_rule() {
    assert_eq!(
        ret_type("def main(x: R[3]) -> R[3] = select(x > 0, x, 0)"),
        r(&[3])
    );
    assert_eq!(
        ret_type("def main(c: B, x: R[3], y: R[3]) -> R[3] = select(c, x, y)"),
        r(&[3])
    );
    fails_at(
        "def main(c: B[2], x: R[3]) -> R[3] = select(c, x, x)",
        Shape,
        "c,",
        "condition of `select`",
    );
    fails_at(
        "def main(c: Z, x: R[3]) -> R[3] = select(c, x, x)",
        TypeErr,
        "c,",
        "must be B",
    );
    fails_at(
        "def main(c: B, x: R[3], y: Z[3]) -> R[3] = select(c, x, y)",
        TypeErr,
        "select",
        "R[3] and Z[3]",
    );
}

#[test]
fn structural_builtins() {
    assert_eq!(ret_type("def main(x: Z[2,3]) -> Z = sum(x)"), z(&[]));
    assert_eq!(
        ret_type("def main(x: R[2,3]) -> R[3] = sum_outer(x)"),
        r(&[3])
    );
    fails_at(
        "def main(x: R) -> R = sum_outer(x)",
        Shape,
        "x)",
        "rank at least 1",
    );
    fails_at("def main(x: B[2]) -> B = sum(x)", TypeErr, "x)", "R or Z");
    assert_eq!(
        ret_type("def main(x: R[3]) -> R[4,3] = replicate(4, x)"),
        r(&[4, 3])
    );
    assert_eq!(
        ret_type("def main(x: R[2,3,4]) -> R[4,2,3] = transpose([2, 0, 1], x)"),
        r(&[4, 2, 3])
    );
    fails_at(
        "def main(x: R[2,3]) -> R[3,2] = transpose([0, 0], x)",
        Shape,
        "transpose",
        "not a permutation",
    );
    fails_at(
        "def main(x: R[2,3]) -> R[3,2] = transpose([1, 0, 2], x)",
        Shape,
        "transpose",
        "not a permutation",
    );
    assert_eq!(
        ret_type("def main(x: R[2,3]) -> R[6] = reshape([6], x)"),
        r(&[6])
    );
    fails_at(
        "def main(x: R[2,3]) -> R[5] = reshape([5], x)",
        Shape,
        "reshape",
        "cannot reshape R[2,3]",
    );
    assert_eq!(ret_type("def main() -> Z[4] = iota(4)"), z(&[4]));
    assert_eq!(
        ret_type("def main(a: R[2,3], b: R[4,3]) -> R[6,3] = append(a, b)"),
        r(&[6, 3])
    );
    fails_at(
        "def main(a: R[2,3], b: R[2,2]) -> R[4,3] = append(a, b)",
        Shape,
        "append",
        "inner dimensions",
    );
    fails_at(
        "def main(a: R[2], b: Z[2]) -> R[4] = append(a, b)",
        TypeErr,
        "append",
        "R[2] and Z[2]",
    );
    assert_eq!(
        ret_type("def main(a: R[3], b: R[3]) -> R[2,3] = stack([a, b])"),
        r(&[2, 3])
    );
    fails_at(
        "def main(a: R[3], b: R[2]) -> R[2,3] = stack([a, b])",
        Shape,
        "b]",
        "different types",
    );
}
