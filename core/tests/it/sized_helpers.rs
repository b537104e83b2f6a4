//! Size parameters of `def`s other than the entry point (docs/language.md, "Helpers with
//! size parameters"): each call binds the helper's size names from its arguments' shapes
//! and calls the instance at those sizes; the result is the program with one literal
//! helper per size. Errors have their class and position.

use adora_core::diag::{Diagnostic, ErrorKind};
use adora_core::parser::parse_literal;
use adora_core::sizes;
use adora_core::{pretty, Function};

fn lits(pairs: &[(&str, &str)]) -> Vec<(String, adora_core::Expr)> {
    pairs
        .iter()
        .map(|(n, t)| (n.to_string(), parse_literal(t).expect("a literal")))
        .collect()
}

/// Loads `src` at `main` for the input literals (an entry without size parameters loads
/// as `adora_core::load` does).
fn load(src: &str, inputs: &[(&str, &str)]) -> Function {
    sizes::load_for_literals(src, "main", &lits(inputs))
        .unwrap_or_else(|d| panic!("{src}\ndoes not load: {}", d.render("test.adl", src)))
}

/// The error of loading `src`, with its kind, 1-based position, message and labels.
fn load_err(src: &str, inputs: &[(&str, &str)]) -> (ErrorKind, usize, usize, String, Diagnostic) {
    match sizes::load_for_literals(src, "main", &lits(inputs)) {
        Ok(f) => panic!("{src:?} loaded: {}", pretty::function(&f)),
        Err(d) => {
            let (l, c) = d.position(src);
            (d.kind, l, c, d.message.clone(), d)
        }
    }
}

fn literal(src: &str) -> Function {
    adora_core::load(src, "main").unwrap()
}

const DOT: &str = "def dot(x: R[n], y: R[n]) -> R = sum(x * y)\n";

#[test]
fn a_helper_called_at_two_sizes_is_two_literal_helpers() {
    let src = format!("{DOT}def main(a: R[3], b: R[5]) -> R = dot(a, a) + dot(b, b)");
    let want = literal(
        "def dot3(x: R[3], y: R[3]) -> R = sum(x * y)\n\
         def dot5(x: R[5], y: R[5]) -> R = sum(x * y)\n\
         def main(a: R[3], b: R[5]) -> R = dot3(a, a) + dot5(b, b)",
    );
    assert_eq!(load(&src, &[]), want);
    // The same with a sized entry point: the helper's `n` is not the entry's.
    let src = format!("{DOT}def main(a: R[n], b: R[m]) -> R = dot(a, a) + dot(b, b)");
    assert_eq!(
        load(&src, &[("a", "[1, 2, 3]"), ("b", "[1, 2, 3, 4, 5]")]),
        want
    );
}

#[test]
fn one_instance_per_helper_and_sizes() {
    let src = format!("{DOT}def main(a: R[3], b: R[3]) -> R = dot(a, b) + dot(b, a)");
    let p = adora_core::parse(&src).unwrap();
    assert_eq!(p.templates.len(), 1);
    assert_eq!(p.defs.len(), 1);
    let want = literal(
        "def dot(x: R[3], y: R[3]) -> R = sum(x * y)\n\
         def main(a: R[3], b: R[3]) -> R = dot(a, b) + dot(b, a)",
    );
    assert_eq!(load(&src, &[]), want);
}

#[test]
fn size_arithmetic_in_the_result_type_and_body() {
    let src = "def conv(x: R[n], w: R[k]) -> R[n - k + 1] =\n  build (n - k + 1) (i => sum(build k (j => x[i + j] * w[j])))\n\
               def main(x: R[6], w: R[3], v: R[2]) -> R = sum(conv(x, w)) + sum(conv(w, v))";
    let want = literal(
        "def c1(x: R[6], w: R[3]) -> R[4] =\n  build 4 (i => sum(build 3 (j => x[i + j] * w[j])))\n\
         def c2(x: R[3], w: R[2]) -> R[2] =\n  build 2 (i => sum(build 2 (j => x[i + j] * w[j])))\n\
         def main(x: R[6], w: R[3], v: R[2]) -> R = sum(c1(x, w)) + sum(c2(w, v))",
    );
    assert_eq!(load(src, &[]), want);
}

#[test]
fn sizes_flow_into_replicate_iota_loop_and_values() {
    let src = "def f(x: R[n]) -> R[2, n] =\n  let s = loop (a = 0.0) for i < n - 1 do a + x[i] + real(iota(n)[i]) in\n  replicate(2, x * s / real(n))\n\
               def main(a: R[2], b: R[4]) -> R = sum(f(a)) + sum(f(b))";
    let want = literal(
        "def f2(x: R[2]) -> R[2, 2] =\n  let s = loop (a = 0.0) for i < 1 do a + x[i] + real(iota(2)[i]) in\n  replicate(2, x * s / real(2))\n\
         def f4(x: R[4]) -> R[2, 4] =\n  let s = loop (a = 0.0) for i < 3 do a + x[i] + real(iota(4)[i]) in\n  replicate(2, x * s / real(4))\n\
         def main(a: R[2], b: R[4]) -> R = sum(f2(a)) + sum(f4(b))",
    );
    assert_eq!(load(src, &[]), want);
}

#[test]
fn a_sized_helper_calls_another_at_derived_sizes() {
    let src = format!(
        "{DOT}def gram(x: R[n, m]) -> R[n, n] = build [n, n] ((i, j) => dot(x[i], x[j]))\n\
         def pad(v: R[n]) -> R[n + 1] = append(v, [0.0])\n\
         def main(a: R[2, 3]) -> R = sum(gram(a)) + dot(pad(a[0]), pad(a[1]))"
    );
    let want = literal(
        "def dot3(x: R[3], y: R[3]) -> R = sum(x * y)\n\
         def dot4(x: R[4], y: R[4]) -> R = sum(x * y)\n\
         def gram(x: R[2, 3]) -> R[2, 2] = build [2, 2] ((i, j) => dot3(x[i], x[j]))\n\
         def pad(v: R[3]) -> R[4] = append(v, [0.0])\n\
         def main(a: R[2, 3]) -> R = sum(gram(a)) + dot4(pad(a[0]), pad(a[1]))",
    );
    assert_eq!(load(&src, &[]), want);
}

#[test]
fn literal_dimensions_and_tuples_bind_too() {
    let src = "def f(p: (R[n, 2], Z[n])) -> R[n] = build n (i => p.0[i, 1] * real(p.1[i]))\n\
               def main(a: R[3, 2], k: Z[3]) -> R = sum(f((a, k)))";
    let want = literal(
        "def f(p: (R[3, 2], Z[3])) -> R[3] = build 3 (i => p.0[i, 1] * real(p.1[i]))\n\
         def main(a: R[3, 2], k: Z[3]) -> R = sum(f((a, k)))",
    );
    assert_eq!(load(src, &[]), want);
}

#[test]
fn instance_names_avoid_the_programs_names() {
    // `dot_n3` is a def of the program: the instance is named otherwise.
    let src = format!(
        "{DOT}def dot_n3(v: R[3]) -> R = sum(v)\ndef main(a: R[3]) -> R = dot(a, a) + dot_n3(a)"
    );
    let want = literal(
        "def d(x: R[3], y: R[3]) -> R = sum(x * y)\n\
         def dot_n3(v: R[3]) -> R = sum(v)\ndef main(a: R[3]) -> R = d(a, a) + dot_n3(a)",
    );
    assert_eq!(load(&src, &[]), want);
}

#[test]
fn an_inconsistent_binding_is_a_type_error_at_the_call() {
    let src = format!("{DOT}def main(a: R[3], b: R[4]) -> R = dot(a, b)");
    let (k, l, c, m, d) = load_err(&src, &[]);
    assert_eq!((k, l, c), (ErrorKind::Type, 2, 42));
    assert_eq!(
        m,
        "inconsistent size `n` in the call of `dot`: argument `x` gives n = 3, but argument `y` gives n = 4"
    );
    assert_eq!(d.labels.len(), 2, "{:?}", d.labels);
}

#[test]
fn an_argument_of_another_rank_or_base_is_an_error_at_it() {
    let src = format!("{DOT}def main(a: R[3, 2]) -> R = dot(a, a)");
    let (k, l, c, m, _) = load_err(&src, &[]);
    assert_eq!((k, l, c), (ErrorKind::Type, 2, 33));
    assert_eq!(m, "argument `x` of `dot` has type R[3,2], expected R[n]");
    let src = "def f(x: Z[n]) -> R = 0.0\ndef main(a: R[3]) -> R = f(a)";
    let (k, _, _, m, _) = load_err(src, &[]);
    assert_eq!(k, ErrorKind::Type);
    assert!(m.contains("expected Z[n]"), "{m}");
    let src = "def f(x: R[n, 2]) -> R = 0.0\ndef main(a: R[3, 3]) -> R = f(a)";
    let (k, _, _, m, _) = load_err(src, &[]);
    assert_eq!(k, ErrorKind::Shape);
    assert!(m.contains("expected R[n,2]"), "{m}");
}

#[test]
fn a_size_name_no_parameter_binds_is_an_error_at_the_def() {
    let src = "def f(x: R[n]) -> R = sum(build m (i => x[i]))\ndef main(a: R[3]) -> R = f(a)";
    let (k, l, c, m, _) = load_err(src, &[]);
    assert_eq!((k, l, c), (ErrorKind::Name, 1, 33));
    assert!(m.starts_with("unknown size `m`"), "{m}");
    // Also in the result type, and also when the helper is never called.
    let src = "def f(x: R[n]) -> R[m] = x\ndef main(a: R[3]) -> R = sum(a)";
    let (k, l, c, _, _) = load_err(src, &[]);
    assert_eq!((k, l, c), (ErrorKind::Name, 1, 21));
}

#[test]
fn a_result_type_that_disagrees_with_the_instance_is_an_error_with_the_call() {
    let src = "def f(x: R[n]) -> R[n - 1] = x\ndef main(a: R[3]) -> R = sum(f(a))";
    let (k, l, c, m, d) = load_err(src, &[]);
    assert_eq!((k, l, c), (ErrorKind::Shape, 1, 30));
    assert!(m.contains("R[3]") && m.contains("R[2]"), "{m}");
    assert!(
        d.labels
            .iter()
            .any(|(_, t)| t == "`f` at n = 3 instantiated here"),
        "{:?}",
        d.labels
    );
}

#[test]
fn a_negative_size_in_an_instance_is_an_error_with_the_call() {
    let src = "def f(x: R[n]) -> R = sum(build (n - 2) (i => x[i]))\ndef main(a: R[1]) -> R = f(a)";
    let (k, l, c, m, d) = load_err(src, &[]);
    assert_eq!((k, l, c), (ErrorKind::Shape, 1, 34));
    assert_eq!(m, "the size `n - 2` (n = 1) is -1, which is negative");
    let (span, text) = &d.labels[0];
    assert_eq!(adora_core::diag::line_col(src, span.start), (2, 26));
    assert_eq!(text, "`f` at n = 1 instantiated here");
}

#[test]
fn recursion_through_sized_helpers_is_an_error() {
    let src =
        "def f(x: R[n]) -> R = g(x)\ndef g(x: R[n]) -> R = f(x)\ndef main(a: R[1]) -> R = f(a)";
    let (k, l, c, m, _) = load_err(src, &[]);
    assert_eq!(k, ErrorKind::Name);
    assert_eq!((l, c), (2, 23));
    assert_eq!(m, "recursive definitions are not supported");
}

#[test]
fn an_entry_point_with_size_parameters_needs_its_sizes() {
    let d = adora_core::load("def main(x: R[n]) -> R = sum(x)", "main").unwrap_err();
    assert_eq!(d.kind, ErrorKind::Input);
    assert!(
        d.message.contains("`main` has the size parameter `n`"),
        "{}",
        d.message
    );
}

#[test]
fn programs_with_sized_helpers_print_and_parse_back() {
    let src = format!(
        "def first(x: R[n]) -> R = x[0]\n\n{DOT}\n-- a comment\ndef main(a: R[3]) -> R = dot(a, a) + first(a)"
    );
    let p = adora_core::parse(&src).unwrap();
    let printed = pretty::program(&p);
    assert!(printed.starts_with("def first(x: R[n])"), "{printed}");
    let q = adora_core::parse(&printed).unwrap();
    assert_eq!(q, p);
    assert_eq!(pretty::program(&q), printed);
    // Templates differ when their text does.
    let other = adora_core::parse(&src.replace("x[0]", "x[1]")).unwrap();
    assert_ne!(other, p);
}

#[test]
fn literal_arguments_take_the_bases_of_the_helpers_parameters() {
    let src = format!("{DOT}def main(a: R[3]) -> R = dot([1, 2, 3], a) + dot([1], [2])");
    let want = literal(
        "def d3(x: R[3], y: R[3]) -> R = sum(x * y)\n\
         def d1(x: R[1], y: R[1]) -> R = sum(x * y)\n\
         def main(a: R[3]) -> R = d3([1.0, 2.0, 3.0], a) + d1([1.0], [2.0])",
    );
    assert_eq!(load(&src, &[]), want);
}

#[test]
fn a_signature_that_does_not_parse_is_a_syntax_error_where_it_breaks() {
    let src = "def f(x: R[n], y R) -> R = 0.0\ndef main(a: R) -> R = a";
    let d = adora_core::parse(src).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Syntax);
    assert_eq!(d.position(src), (1, 18));
    assert_eq!(d.message, "expected `:`, found `R`");
    let src = "def f(x: R[n]";
    let d = adora_core::parse(src).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Syntax);
    assert_eq!(d.message, "expected `)`, found end of input");
}
