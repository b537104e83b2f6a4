//! Linear A checker (seed 002 Fig. 4) and the Linear B restriction: each rule accepts a
//! well-typed program and rejects a violation with the right kind, message and position.

use adora_core::diag::ErrorKind;
use adora_core::linear::{check_linear_b, check_program, parse_program};

fn check(src: &str) -> adora_core::Result<()> {
    let p = parse_program(src)?;
    check_program(&p).map(|_| ())
}

/// Asserts that `src` is rejected with `kind`, a message containing `msg`, at the first
/// occurrence of `at` in the source.
fn rejects(src: &str, kind: ErrorKind, msg: &str, at: &str) {
    let d = check(src).expect_err(&format!("accepted:\n{src}"));
    assert_eq!(d.kind, kind, "{d}\n{src}");
    assert!(d.message.contains(msg), "`{}` lacks `{msg}`", d.message);
    let want = src
        .find(at)
        .unwrap_or_else(|| panic!("`{at}` not in the source"));
    assert_eq!(d.span.start, want, "{}", d.render("t.ala", src));
}

#[test]
fn accepts_the_linear_forms() {
    let src = "
def f(x: R[3], c: B[3], i: Z ; dx: R[3], dy: R[3], dt: (R, R[2])) -> (R ; R[3], R, R[2, 3]) =
  let (; a, b) = dup(dx) in
  let s = a + dy in
  let k = sum(x) in
  let t = k * s in
  let u = x * t in
  let (p, q) = dt in
  let w = sum(q) in
  let v = p + w in
  let z = zero(R[3]) in
  let m = select(c, b, z) in
  let e = m[i] in
  let h = one_hot([3], e, i) in
  let r = replicate(2, h) in
  let g = gather([2, 3], r, (j, l) => [1 - j, l]) in
  (k ; u, v, g)
"
    .to_string();
    let p = parse_program(&src).unwrap();
    check_program(&p).unwrap_or_else(|d| panic!("{}", d.render("t", &src)));
}

#[test]
fn linear_variables_are_used_exactly_once() {
    rejects(
        "def f(x: R ; dx: R) -> (R ; R) =\n  let a = dx + dx in\n  (x ; a)\n",
        ErrorKind::Type,
        "used more than once",
        "dx + dx",
    );
    rejects(
        "def f(x: R ; dx: R) -> (R ; R) =\n  let dz = zero(R) in\n  (x ; dz)\n",
        ErrorKind::Type,
        "`dx` is never used",
        "dx: R",
    );
}

#[test]
fn nonlinear_variables_are_used_at_least_once() {
    rejects(
        "def f(x: R, y: R) -> (R ;) =\n  (x ;)\n",
        ErrorKind::Type,
        "non-linear variable `y` is never used",
        "y: R",
    );
    check("def f(x: R, y: R) -> (R ;) =\n  let () = drop(y) in\n  let z = x * x in\n  (z ;)\n")
        .unwrap();
}

#[test]
fn linear_operations_are_limited() {
    rejects(
        "def f( ; dx: R) -> (; R) =\n  let y = sin(dx) in\n  (; y)\n",
        ErrorKind::Type,
        "has no linear form",
        "sin(dx)",
    );
    rejects(
        "def f(x: R ; dx: R) -> (; R) =\n  let () = drop(x) in\n  let y = dx * x in\n  (; y)\n",
        ErrorKind::Type,
        "right-linear",
        "dx * x",
    );
    rejects(
        "def f( ; dx: R, dy: R) -> (; R) =\n  let y = dx * dy in\n  (; y)\n",
        ErrorKind::Type,
        "right-linear",
        "dx * dy",
    );
    rejects(
        "def f(x: R) -> (; R) =\n  let y = 2.0 * x in\n  (; y)\n",
        ErrorKind::Type,
        "non-linear variable `y` is used where a linear value",
        "(; y)",
    );
    rejects(
        "def f(x: R ; dx: R) -> (R ;) =\n  let () = drop(dx) in\n  let d = dup(x) in\n  (d ;)\n",
        ErrorKind::Type,
        "binds one value",
        "d = dup",
    );
}

#[test]
fn shapes_and_types_are_checked() {
    rejects(
        "def f( ; dx: R[3], dy: R[2]) -> (; R[3]) =\n  let z = dx + dy in\n  (; z)\n",
        ErrorKind::Type,
        "linear `+` needs two values of one type",
        "dx + dy",
    );
    rejects(
        "def f( ; dx: R[3]) -> (; R[2]) =\n  let z = reshape([2], dx) in\n  (; z)\n",
        ErrorKind::Shape,
        "",
        "reshape",
    );
    rejects(
        "def f(i: Z ; dx: Z) -> (; Z) =\n  let () = drop(i) in\n  (; dx)\n",
        ErrorKind::Type,
        "contain only reals",
        "dx: Z",
    );
    rejects(
        "def f(x: R) -> (R ;) =\n  let y = x + 1 in\n  (y ;)\n",
        ErrorKind::Type,
        "",
        "x + 1",
    );
}

#[test]
fn names_are_bound_once_and_calls_go_backwards() {
    rejects(
        "def f(x: R) -> (R ;) =\n  let x = x * x in\n  (x ;)\n",
        ErrorKind::Name,
        "bound twice",
        "let x",
    );
    let d = parse_program("def f(x: R) -> (R ;) =\n  g(x)\n").unwrap_err();
    assert_eq!(d.kind, ErrorKind::Name);
    assert!(d.message.contains("unknown function `g`"));
    let d = parse_program("def f(x: R) -> (R ;) =\n  (y ;)\n").unwrap_err();
    assert_eq!(d.kind, ErrorKind::Name);
}

#[test]
fn calls_are_typed() {
    let src = "def g(x: R ; dy: R) -> (R ; R) =\n  let z = x * dy in\n  (x ; z)\n\ndef f(x: R ; dx: R) -> (R ; R) =\n  g(x ; dx)\n";
    check(src).unwrap();
    rejects(
        "def g(x: R ; dy: R) -> (R ; R) =\n  let z = x * dy in\n  (x ; z)\n\ndef f(x: R ; dx: R) -> (R ; R) =\n  g(x ; dx, dx)\n",
        ErrorKind::Type,
        "takes 1 non-linear and 1 linear",
        "g(x ; dx, dx)",
    );
}

#[test]
fn syntax_errors_have_positions() {
    let src = "def f(x: R) -> (R ;) =\n  let y = x + in\n  (y ;)\n";
    let d = parse_program(src).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Syntax);
    assert_eq!(d.span.start, src.find(" in").unwrap() + 1);
    let d = parse_program("def f(x: R) -> (R ;) = (x ; ) @").unwrap_err();
    assert_eq!(d.kind, ErrorKind::Syntax);
    let src = "def f(x: R) -> (R ;) =\n  let (a, b) = x + x in\n  (a ;)\n";
    let d = parse_program(src).unwrap_err();
    assert!(d.message.contains("unpacks a tuple variable"), "{d}");
}

#[test]
fn linear_b_restriction() {
    // Linear A but not Linear B: a def returning both kinds of results.
    let mixed = "def f(x: R ; dx: R) -> (R ; R) =\n  let y = x * dx in\n  (x ; y)\n";
    let p = parse_program(mixed).unwrap();
    check_program(&p).unwrap();
    let d = check_linear_b(&p).unwrap_err();
    assert!(d.message.contains("Linear B"), "{d}");
    // A non-linear expression that reads a linear variable (through a nested let).
    let src = "def f(x: R ; dx: R) -> (; R) =\n  let y = (let () = drop(dx) in (x ;)) in\n  let dz = zero(R) in\n  let w = y * dz in\n  (; w)\n";
    let p = parse_program(src).unwrap();
    check_program(&p).unwrap_or_else(|d| panic!("{}", d.render("t", src)));
    let d = check_linear_b(&p).unwrap_err();
    assert!(d.message.contains("reads the linear variable `dx`"), "{d}");
    assert_eq!(d.span.start, src.find("(let").unwrap());
    // Linear B: non-linear work first, then linear.
    let ok = "def f(x: R ; dx: R) -> (; R) =\n  let c = x * x in\n  let y = c * dx in\n  (; y)\n";
    check_linear_b(&parse_program(ok).unwrap()).unwrap();
}
