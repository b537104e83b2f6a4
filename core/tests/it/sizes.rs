//! Size parameters (docs/language.md, "Size parameters"): binding from input shapes,
//! instantiation by the parser, size arithmetic, size names as values, and every error
//! with its class and position.

use adora_core::diag::{Diagnostic, ErrorKind};
use adora_core::parser::{parse_literal, parse_program_sized};
use adora_core::sizes::{self, Sizes};

fn sizes(pairs: &[(&str, usize)]) -> Sizes {
    pairs.iter().map(|(n, v)| (n.to_string(), *v)).collect()
}

fn lits(pairs: &[(&str, &str)]) -> Vec<(String, adora_core::Expr)> {
    pairs
        .iter()
        .map(|(n, t)| (n.to_string(), parse_literal(t).expect("a literal")))
        .collect()
}

/// The error of loading `src` for the input literals `inputs`, with its 1-based position.
fn load_err(src: &str, inputs: &[(&str, &str)]) -> (ErrorKind, usize, usize, String) {
    match sizes::load_for_literals(src, "main", &lits(inputs)) {
        Ok(f) => panic!("{src:?} loaded: {}", adora_core::pretty::function(&f)),
        Err(d) => pos(&d, src),
    }
}

fn pos(d: &Diagnostic, src: &str) -> (ErrorKind, usize, usize, String) {
    let (l, c) = d.position(src);
    (d.kind, l, c, d.message.clone())
}

const CONV: &str = "def main(x: R[n], w: R[k]) -> R[n - k + 1] =\n  build (n - k + 1) (i => sum(build k (j => x[i + j] * w[j])))";

#[test]
fn a_sized_program_is_the_literal_program_at_its_sizes() {
    let literal = "def main(x: R[5], w: R[2]) -> R[4] =\n  build 4 (i => sum(build 2 (j => x[i + j] * w[j])))";
    let want = adora_core::load(literal, "main").unwrap();
    let got = sizes::load_for_literals(
        CONV,
        "main",
        &lits(&[("x", "[1, 2, 3, 4, 5]"), ("w", "[1, -1]")]),
    )
    .unwrap();
    assert_eq!(got, want);
    let p = parse_program_sized(CONV, "main", &sizes(&[("n", 5), ("k", 2)])).unwrap();
    assert_eq!(p, adora_core::parse(literal).unwrap());
}

#[test]
fn signatures_list_size_names_in_order_and_programs_without_them_have_none() {
    let sig = sizes::signature("def main(a: R[m, n], b: (R, R[n, p])) -> R = 0.0", "main")
        .unwrap()
        .expect("size parameters");
    let names: Vec<&String> = sig.size_names();
    assert_eq!(names, ["m", "n", "p"]);
    assert!(sizes::signature("def main(x: R[3]) -> R = sum(x)", "main")
        .unwrap()
        .is_none());
}

#[test]
fn tuples_and_empty_arrays_bind_sizes() {
    let src = "def main(p: (R[n], R[n, m])) -> R = sum(p.0) + sum(p.1)";
    let f = sizes::load_for_literals(src, "main", &lits(&[("p", "([1, 2], [[], []])")])).unwrap();
    assert_eq!(f.params[0].ty.to_string(), "(R[2], R[2,0])");
}

#[test]
fn size_arithmetic_floor_division_min_max_and_values() {
    let src = "def main(x: R[n]) -> R[n / 2 + n % 2, 2] =\n  let z = real(n) in\n  build [(n + 1) / 2, max(min(n, 2), 1)] ((i, j) => x[2 * i + j] * z)";
    let f = sizes::load_for_literals(src, "main", &lits(&[("x", "[1, 2, 3]")])).unwrap();
    assert_eq!(f.ret.to_string(), "R[2,2]");
    assert!(adora_core::pretty::function(&f).contains("real(3)"));
}

#[test]
fn a_binder_shadows_a_size_name_used_as_a_value() {
    let src = "def main(x: R[n]) -> Z = let n = 7 in n";
    let f = sizes::load_for_literals(src, "main", &lits(&[("x", "[1, 2]")])).unwrap();
    let text = adora_core::pretty::function(&f);
    assert!(text.contains("let n = 7 in"), "{text}");
}

#[test]
fn inconsistent_sizes_name_both_inputs_at_the_second_occurrence() {
    let src = "def main(x: R[n], y: R[n]) -> R = sum(x * y)";
    let (k, l, c, m) = load_err(src, &[("x", "[1, 2]"), ("y", "[1, 2, 3]")]);
    assert_eq!((k, l, c), (ErrorKind::Input, 1, 24));
    assert_eq!(
        m,
        "inconsistent size `n`: `x` gives n = 2, but `y` gives n = 3"
    );
}

#[test]
fn negative_sizes_are_shape_errors_with_the_values() {
    let (k, l, c, m) = load_err(CONV, &[("x", "[1]"), ("w", "[1, 2, 3]")]);
    assert_eq!((k, l, c), (ErrorKind::Shape, 1, 33));
    assert_eq!(
        m,
        "the size `n - k + 1` (n = 1, k = 3) is -1, which is negative"
    );
}

#[test]
fn division_by_zero_and_overflow_in_sizes_are_shape_errors() {
    let src = "def main(x: R[n]) -> R = sum(replicate(2 / (n - 2), x))";
    let (k, _, c, m) = load_err(src, &[("x", "[1, 2]")]);
    assert_eq!((k, c), (ErrorKind::Shape, 40));
    assert!(m.starts_with("division by zero in the size"), "{m}");
    let src =
        "def main(x: R[n]) -> R = sum(replicate(n * 9999999999 * 9999999999 * 9999999999, x))";
    let (k, _, _, m) = load_err(src, &[("x", "[1, 2]")]);
    assert_eq!(
        (k, m.as_str()),
        (ErrorKind::Shape, "a size expression overflows")
    );
}

#[test]
fn unknown_sizes_are_name_errors() {
    let (k, l, c, m) = load_err("def main(x: R[n]) -> R[m] = x", &[("x", "[1]")]);
    assert_eq!((k, l, c), (ErrorKind::Name, 1, 24));
    assert!(m.starts_with("unknown size `m`"), "{m}");
}

#[test]
fn a_size_name_may_not_also_be_a_parameter() {
    let (k, _, c, m) = load_err("def main(x: R[n], n: Z) -> R = sum(x)", &[("x", "[1]")]);
    assert_eq!((k, c), (ErrorKind::Name, 15));
    assert_eq!(m, "`n` is both a size parameter and a parameter of `main`");
}

#[test]
fn a_size_without_a_value_is_an_input_error_naming_the_flag() {
    let (k, _, c, m) = load_err(CONV, &[("x", "[1, 2]")]);
    assert_eq!((k, c), (ErrorKind::Input, 24));
    assert_eq!(m, "the size `k` of `main` has no value: give the input `w` (its type binds `k`) or `--size k=N`");
    // Without sizes the file parses (the sized `def` is kept as written), and loading it
    // at `main` asks for them.
    assert_eq!(adora_core::parse(CONV).unwrap().templates.len(), 1);
    let d = adora_core::load(CONV, "main").unwrap_err();
    assert_eq!(pos(&d, CONV).0, ErrorKind::Input);
    assert!(
        d.message
            .contains("has the size parameter `n`, which has no value"),
        "{}",
        d.message
    );
}

#[test]
fn explicit_sizes_bind_and_must_agree_with_the_inputs() {
    let sig = sizes::signature(CONV, "main").unwrap().unwrap();
    let explicit = |n: &str, v: usize| vec![(n.to_string(), v, format!("--size {n}={v}"))];
    let s = sig
        .bind(&[explicit("n", 4), explicit("k", 2)].concat(), &[])
        .unwrap();
    assert_eq!(s, sizes(&[("k", 2), ("n", 4)]));
    let d = sig.bind(&explicit("q", 1), &[]).unwrap_err();
    assert_eq!(
        d.message,
        "--size q=1: `main` has no size parameter `q` (its size parameters: `n`, `k`)"
    );
    let given = sizes::Given {
        param: "x".into(),
        shape: sizes::Shaped::Array(vec![3]),
        origin: "--input x=[1, 2, 3]".into(),
    };
    let d = sig
        .bind(&[explicit("n", 4), explicit("k", 1)].concat(), &[given])
        .unwrap_err();
    assert_eq!(
        d.message,
        "inconsistent size `n`: --size n=4 gives n = 4, but `x` (--input x=[1, 2, 3]) gives n = 3"
    );
}

#[test]
fn helpers_may_have_size_parameters_too() {
    // Instantiated at each call (docs/language.md, "Helpers with size parameters"); the
    // tests are in `sized_helpers.rs`.
    let src = "def f(v: R[n]) -> R = sum(v)\ndef main(x: R[m]) -> R = f(x)";
    let f = sizes::load_for_literals(src, "main", &lits(&[("x", "[1]")])).unwrap();
    assert_eq!(
        f.params[0].ty,
        adora_core::Type::Array(adora_core::Base::R, vec![1])
    );
}

#[test]
fn size_arithmetic_is_not_allowed_in_parameter_types() {
    let d = sizes::load_for_literals(
        "def main(x: R[n + 1]) -> R = 0.0",
        "main",
        &lits(&[("x", "[1]")]),
    )
    .unwrap_err();
    assert_eq!(d.kind, ErrorKind::Syntax);
}
