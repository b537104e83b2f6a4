//! Literal types inferred from their uses (docs/language.md, "Literal typing"): through
//! `let`, tuples, arrays, lambdas, loops and calls; a `let`-bound constant used as both Z
//! and R is an error naming both uses; truncating divisions of integer constants warn;
//! `help:` lines of the type and syntax errors newcomers meet.

use adora_core::ast::{Expr, ExprKind, Lit};
use adora_core::check::{check_program, check_program_warnings, elaborate};
use adora_core::diag::Severity;
use adora_core::{Diagnostic, ErrorKind};

/// The elaborated `main` of `src` (which must check).
fn body(src: &str) -> Expr {
    let p = adora_core::parse(src).unwrap_or_else(|d| panic!("{d} in\n{src}"));
    check_program(&p).unwrap_or_else(|d| panic!("unexpected {d} in\n{src}"));
    let f = elaborate(&p, "main").unwrap_or_else(|d| panic!("unexpected {d} in\n{src}"));
    adora_core::check::check_function(&f).unwrap_or_else(|d| panic!("{d}"));
    f.body
}

/// How many integer (`Z`) and real literals the expression has.
fn literal_counts(e: &Expr) -> (usize, usize) {
    adora_core::visit::subexprs(e)
        .into_iter()
        .fold((0, 0), |(z, r), x| match &x.kind {
            ExprKind::Lit(Lit::Int(_)) => (z + 1, r),
            ExprKind::Lit(Lit::Real(_)) => (z, r + 1),
            _ => (z, r),
        })
}

/// The checker's error for `src`.
fn error(src: &str) -> Diagnostic {
    let p = adora_core::parse(src).unwrap_or_else(|d| panic!("{d} in\n{src}"));
    check_program(&p).expect_err(&format!("expected an error for\n{src}"))
}

/// The syntax error for `src`.
fn syntax_error(src: &str) -> Diagnostic {
    let d = adora_core::parse(src).expect_err(&format!("expected a syntax error for\n{src}"));
    assert_eq!(d.kind, ErrorKind::Syntax, "{d}");
    d
}

fn warnings(src: &str) -> Vec<Diagnostic> {
    let p = adora_core::parse(src).unwrap_or_else(|d| panic!("{d} in\n{src}"));
    check_program_warnings(&p).unwrap_or_else(|d| panic!("unexpected {d} in\n{src}"))
}

#[test]
fn a_let_bound_literal_array_is_real_when_used_with_reals() {
    // The example: rejected before ("R[3] and Z[3]").
    let b = body("def main(x: R[3]) -> R = let c = [1, 2, 3] in sum(x * c)");
    assert_eq!(literal_counts(&b), (0, 3));
    let b = body(
        "def main(x: R[2]) -> R[2] = let r = [[1, 2], [3, 4]] in build 2 (i => sum(r[i] * x))",
    );
    assert_eq!(literal_counts(&b), (0, 4));
    // A chain of lets, and a constant used only where a Z is needed, stays Z.
    let b = body("def main(x: R) -> R = let a = 1 in let b = a + 1 in x * b");
    assert_eq!(literal_counts(&b), (0, 2));
    let b = body("def main(x: R[3]) -> R = let n = 2 in x[n]");
    assert_eq!(literal_counts(&b), (1, 0));
    // No use demands a base: the default is Z.
    let b = body("def main(x: R) -> R = let n = 2 in x");
    assert_eq!(literal_counts(&b), (1, 0));
}

#[test]
fn tuples_patterns_calls_lambdas_and_loops_carry_the_base() {
    let b = body("def main(x: R[2]) -> R = let t = (3, [1, 2]) in t.0 * sum(x * t.1)");
    assert_eq!(literal_counts(&b), (0, 3));
    let b = body("def main(x: R) -> R = let (a, b) = (1, 2) in x * a + b");
    assert_eq!(literal_counts(&b), (0, 2));
    let b = body("def main(x: R[2]) -> R = let (a, k) = (3, 1) in x[k] * a");
    assert_eq!(literal_counts(&b), (1, 1));
    // Through a def's parameter type.
    let src = "def f(v: R[2]) -> R = v[0] - v[1]\ndef main(x: R) -> R = let c = [1, 2] in x * f(c)";
    let b = body(src);
    assert_eq!(literal_counts(&b), (2, 2), "the indices 0, 1 of `f` stay Z");
    // Through a lambda's parameter and a loop's accumulator.
    let b = body("def main(x: R[3]) -> R = let c = [1, 2, 3] in sum(map(a => a * 2, c) * x)");
    assert_eq!(literal_counts(&b), (0, 4));
    let b = body("def main(x: R) -> R = loop (s = 0) for i < 3 do s + x");
    assert_eq!(literal_counts(&b), (0, 1));
}

#[test]
fn a_constant_used_as_z_and_as_r_is_an_error_naming_both_uses() {
    let src = "def main(x: R[3]) -> R = let n = 2 in x[n] * n";
    let d = error(src);
    assert_eq!(d.kind, ErrorKind::Type);
    assert!(d.message.contains("`n` is used both as Z and as R"), "{d}");
    let at = |s: &str| src.find(s).unwrap();
    let spans: Vec<usize> = d.labels.iter().map(|(s, _)| s.start).collect();
    assert!(
        spans.contains(&(at("x[n] *") + 2)),
        "the Z use: {:?}",
        d.labels
    );
    assert!(spans.contains(&at("x[n] *")), "the R use: {:?}", d.labels);
    assert!(spans.contains(&at("2 in")), "the binding: {:?}", d.labels);
    assert_eq!(
        d.help,
        vec!["keep `n` an integer and convert it where a real is needed: `real(n)`"]
    );
    // The suggested fix checks.
    body("def main(x: R[3]) -> R = let n = 2 in x[n] * real(n)");
}

#[test]
fn truncating_divisions_of_integer_constants_warn() {
    let src = "def main(x: R) -> R = let h = 1/2 in x * real(h)";
    let ws = warnings(src);
    assert_eq!(ws.len(), 1, "{ws:?}");
    let w = &ws[0];
    assert_eq!(w.severity, Severity::Warning);
    assert_eq!(w.span.start, src.find("1/2").unwrap());
    assert!(w.message.contains("1/2 is 0 on Z"), "{w}");
    assert!(w.help[0].contains("`1.0 / 2`"), "{w:?}");
    // Floor division: -7/2 is -4.
    let ws = warnings("def main() -> Z = -7 / 2");
    assert!(ws[0].message.contains("-7/2 is -4"), "{ws:?}");
    // No warning where the division is exact, is real, or is not of constants.
    for quiet in [
        "def main(x: R) -> R = let h = 1/2 in x * h",
        "def main(x: R) -> R = x * (1/2)",
        "def main() -> Z = 8 / 2",
        "def main(n: Z) -> Z = n / 2",
        "def main() -> Z = 1 / 0",
    ] {
        assert!(warnings(quiet).is_empty(), "{quiet}");
    }
}

#[test]
fn a_z_where_an_r_is_needed_gets_a_real_help() {
    let d = error("def main(x: R[3], i: Z) -> R = x[i] * i");
    assert_eq!(d.help, vec!["convert with `real(i)`"]);
    let d = error("def f(y: R) -> R = y\ndef main(n: Z) -> R = f(n + 1)");
    assert_eq!(d.help, vec!["convert with `real(n + 1)`"]);
    let d = error("def main(n: Z) -> R = n * 2");
    assert_eq!(d.help, vec!["convert with `real(n * 2)`"]);
    // Not for other mismatches.
    let d = error("def main(p: B, x: R) -> R = x + p");
    assert!(d.help.is_empty(), "{d:?}");
}

#[test]
fn syntax_newcomers_write_gets_a_help_line() {
    let d = syntax_error("def main(x: R[3]) -> R = sum(x ** 2)");
    assert!(d.message.contains("`**` is not an operator"), "{d}");
    assert_eq!(d.help, vec!["write `pow(x, 2)`"]);
    let d = syntax_error("def main(x: R[3]) -> R = sum(2 * x ** -1)");
    assert_eq!(d.help, vec!["write `pow(x, -1)`"]);
    let d = syntax_error("def main(x: R[4]) -> R = sum(x[1:3])");
    assert!(d.message.contains("slices"), "{d}");
    assert!(
        d.help[0].starts_with("write `gather([2], x, i => [i + 1])`"),
        "{d:?}"
    );
    let d = syntax_error("def main(x: R[4]) -> R = sum(x[:3])");
    assert!(
        d.help[0].starts_with("write `gather([3], x, i => [i])`"),
        "{d:?}"
    );
    let d = syntax_error("def main(x: R[4]) -> R = max(x)");
    assert!(d.help[0].contains("`reduce(max, x[0], x)`"), "{d:?}");
    let d = syntax_error("def main(x: R[4]) -> R = min(x)");
    assert!(d.help[0].contains("`reduce(min, x[0], x)`"), "{d:?}");
    // The suggestions check.
    body("def main(x: R[4]) -> R = sum(gather([2], x, i => [i + 1])) + reduce(max, x[0], x) + sum(pow(x, 2))");
}

#[test]
fn a_name_whose_base_comes_from_a_variable_gets_the_usual_mismatch() {
    // `y` is Z because `n` is, not because of its uses: the ordinary error and help.
    let d = error("def main(x: R, n: Z) -> R = let y = 2 * n in x * y");
    assert!(
        d.message
            .contains("mismatched operand types for `*`: R and Z"),
        "{d}"
    );
    assert_eq!(d.help, vec!["convert with `real(y)`"]);
}
