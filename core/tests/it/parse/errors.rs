//! Syntax errors: exact positions (`line:col`) and messages.

use super::support::{eerr, perr};

fn check(got: (usize, usize, String), line: usize, col: usize, msg: &str) {
    assert_eq!((got.0, got.1), (line, col), "position of {:?}", got.2);
    assert!(
        got.2.contains(msg),
        "message {:?} does not contain {msg:?}",
        got.2
    );
}

#[test]
fn expected_token_errors_point_at_the_offending_token() {
    check(
        perr("def main(x: R) -> R =\n  let y = (x in y\n"),
        2,
        14,
        "expected `)`, found `in`",
    );
    check(
        perr("def main(x: R) -> R =\n  let y = x\n"),
        2,
        12,
        "expected `in`, found end of input",
    );
    check(
        perr("def main(x R) -> R = x"),
        1,
        12,
        "expected `:`, found `R`",
    );
    check(
        perr("def main(x: R) R = x"),
        1,
        16,
        "expected `->`, found `R`",
    );
    check(
        perr("def main(x: R) -> R x"),
        1,
        21,
        "expected `=`, found `x`",
    );
    check(
        perr("def main(x: R) -> R = x\nx"),
        2,
        1,
        "expected `def`, found `x`",
    );
    check(
        perr("def main(x: R) -> R = if x then 1"),
        1,
        34,
        "expected `else`, found end of input",
    );
    check(
        perr("def f(x: R) -> R = x +"),
        1,
        23,
        "expected an expression, found end of input",
    );
    // End of input after trailing blank lines is reported where the text ends, the
    // position the report's source snippet shows too.
    check(
        perr("def f(x: R) -> R = x +\n\n  \n"),
        1,
        23,
        "expected an expression, found end of input",
    );
    check(
        perr("def f(x: R) -> R = x + * 2"),
        1,
        24,
        "expected an expression, found `*`",
    );
    check(eerr("[1, 2"), 1, 6, "expected `]`, found end of input");
    check(eerr("[]"), 1, 2, "expected an expression, found `]`");
    check(eerr("()"), 1, 2, "expected an expression, found `)`");
    check(eerr("f(a,)"), 1, 5, "expected an expression, found `)`");
    check(eerr("a b"), 1, 3, "expected end of input, found `b`");
    check(eerr("x[]"), 1, 3, "expected an expression, found `]`");
    check(eerr("(i => i)"), 1, 4, "expected `)`, found `=>`");
}

#[test]
fn empty_files_have_no_definitions() {
    check(perr(""), 1, 1, "no definitions");
    check(perr("-- only a comment\n\n"), 1, 18, "no definitions");
}

#[test]
fn comparisons_do_not_chain() {
    check(eerr("a < b < c"), 1, 7, "do not chain");
    check(eerr("a == b != c"), 1, 8, "do not chain");
    check(eerr("a < b + 1 >= c"), 1, 11, "do not chain");
}

#[test]
fn lexical_errors() {
    check(eerr("a $ b"), 1, 3, "unexpected character `$`");
    check(eerr("a & b"), 1, 3, "unexpected character `&`");
    check(eerr("x\u{0}"), 1, 2, "U+0000");
    check(eerr("1 +\n  é"), 2, 3, "U+00E9");
    check(eerr("x\u{7}"), 1, 2, "U+0007");
    check(eerr("3x"), 1, 1, "invalid number literal `3x`");
    check(eerr("1.5e"), 1, 1, "invalid number literal");
    check(eerr(".5"), 1, 1, "unexpected character `.`");
    check(eerr("1 + .5"), 1, 5, "unexpected character `.`");
    check(eerr("p.x"), 1, 2, "expected a tuple index after `.`");
    check(eerr("2.5.0"), 1, 4, "unexpected character `.`");
    check(eerr("1e99999"), 1, 3, "exponent is too large");
    check(
        eerr("p.99999999999999999999999"),
        1,
        3,
        "tuple index `99999999999999999999999` is too large",
    );
    check(eerr("-- a comment with a bell \u{7}\nx"), 1, 26, "U+0007");
    // Non-ASCII inside comments is fine.
    assert!(adora_core::parser::parse_expr("-- café ✓\nx").is_ok());
    assert!(adora_core::parser::parse_expr("x\r\n\t+ 1").is_ok());
}

#[test]
fn reserved_names_are_rejected_by_name() {
    check(
        perr("def sum(x: R) -> R = x"),
        1,
        5,
        "`sum` is a built-in function and cannot be used as a name",
    );
    check(
        perr("def f(log: R) -> R = log"),
        1,
        7,
        "`log` is a built-in function",
    );
    check(
        eerr("let exp = 1 in 2"),
        1,
        5,
        "`exp` is a built-in function",
    );
    check(
        eerr("let (a, max) = p in a"),
        1,
        9,
        "`max` is a built-in function",
    );
    check(
        eerr("build 3 (iota => 1)"),
        1,
        10,
        "`iota` is a built-in function",
    );
    check(
        eerr("map((a, stack) => a, xs)"),
        1,
        9,
        "`stack` is a built-in function",
    );
    check(
        eerr("loop (a = 0) for pow < 3 do a"),
        1,
        18,
        "`pow` is a built-in function",
    );
    check(
        eerr("sum + 1"),
        1,
        1,
        "built-in function `sum` must be applied",
    );
    check(eerr("let in = 1 in 2"), 1, 5, "expected a name, found `in`");
    check(
        perr("def def(x: R) -> R = x"),
        1,
        5,
        "expected a name, found `def`",
    );
    check(eerr("let x = map in x"), 1, 13, "expected `(`, found `in`");
}

#[test]
fn builtin_arity_and_static_arguments() {
    check(eerr("exp(x, y)"), 1, 1, "`exp` takes 1 argument, found 2");
    check(
        eerr("select(c, a)"),
        1,
        1,
        "`select` takes 3 arguments, found 2",
    );
    check(
        eerr("pow(x, 1.5)"),
        1,
        8,
        "expected an integer literal, found `1.5`",
    );
    check(
        eerr("pow(x, 99999999999999999999)"),
        1,
        8,
        "exponent `99999999999999999999` is too large",
    );
    // -2^63 fits an i64 but its derivative's exponent -2^63 - 1 does not (found by
    // `adora fuzz`: an overflow in engine linear's JVP); the range is symmetric.
    check(
        eerr("pow(x, -9223372036854775808)"),
        1,
        8,
        "exponent `-9223372036854775808` is too small (exponents lie in ±9223372036854775807)",
    );
    assert!(adora_core::parser::parse_expr("pow(x, -9223372036854775807)").is_ok());
    check(
        eerr("replicate(-2, x)"),
        1,
        11,
        "a size must be a non-negative integer literal, found `-2`",
    );
    check(
        eerr("replicate(true, x)"),
        1,
        11,
        "expected a size (a non-negative integer literal, a size name or size arithmetic), found `true`",
    );
    check(
        eerr("iota(99999999999999999999999)"),
        1,
        6,
        "size `99999999999999999999999` is too large",
    );
    check(
        eerr("build 2.5 (i => i)"),
        1,
        7,
        "a size must be a non-negative integer literal, found `2.5`",
    );
    check(
        eerr("build [] (i => i)"),
        1,
        7,
        "expected at least one size",
    );
    check(
        eerr("gather([2], x, i => i)"),
        1,
        21,
        "expected `[`, found `i`",
    );
    check(eerr("stack([])"), 1, 8, "expected an expression, found `]`");
    check(eerr("stack(a, b)"), 1, 7, "expected `[`, found `a`");
    check(eerr("reduce(-, 0, xs)"), 1, 8, "expected an operator");
    check(
        eerr("loop (a = 0) for i < 2.5 do a"),
        1,
        22,
        "a size must be a non-negative integer literal, found `2.5`",
    );
    check(
        eerr("let (a) = p in a"),
        1,
        5,
        "a tuple pattern needs at least two names",
    );
    check(eerr("map(xs)"), 1, 7, "expected `=>`, found `)`");
}
