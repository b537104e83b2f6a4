//! JVP into Linear A (seed 002 §5): the linearized program is valid Linear A that prints
//! and parses back; hand-written programs (tuples mixing reals and integers, stacks,
//! appends, min / max ties, abs at 0, division by zero, powers) agree with the reference
//! exactly; calls between defs (JApp); and constructs outside Linear A are declined with
//! a diagnostic naming the construct and its position.

use adora_core::diag::ErrorKind;
use adora_core::linear::{check_program, parse_program, print};
use adora_rewrites::linear::{engine, jvp, Checkpoint};
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference;
use adora_semantics::value::Value;
use adora_semantics::Rat;

fn r(n: i64, d: i64) -> Rat {
    Rat::new(n.into(), d.into())
}

const PROGRAMS: &[(&str, &str)] = &[
    (
        "def main(x: R[3], p: (R, Z)) -> (R, Z) =\n  let (a, k) = p in\n  (sum(x) * a + x[k], k + 1)",
        "x = [1/2, -3, 2]; p = (5/4, 1)",
    ),
    (
        "def main(x: R, y: R) -> R[4] =\n  append(stack([x, y * y]), [x / y, x / (y - y)])",
        "x = -2; y = 3/2",
    ),
    (
        "def main(x: R, y: R) -> R =\n  min(x, y) * max(y, x) + abs(x - y) + abs(y) * pow(x, -2) + pow(y, 0)",
        "x = 1/2; y = 1/2",
    ),
    (
        "def main(x: R[2, 3], c: B[3]) -> R[3, 2] =\n  transpose([1, 0], reshape([2, 3], append(select(c, x[0], x[1]) * x[1] + real(iota(3)), x[0])) * x)",
        "x = [[1, 2, 3], [-1/2, 0, 4]]; c = [true, false, true]",
    ),
    (
        "def main(x: R[4]) -> R[2, 4] =\n  let s = scatter([3], x, i => [i % 3]) in\n  replicate(2, gather([4], s, i => [3 - i])) + replicate(2, x * sum_outer(replicate(2, x)))",
        "x = [1, -2, 1/3, 4]",
    ),
];

fn inputs(f: &adora_core::ast::Function, text: &str) -> Vec<Value<Rat>> {
    let mut out = Vec::new();
    for (p, part) in f.params.iter().zip(text.split(';')) {
        let (_, lit) = part.split_once('=').unwrap();
        let e = adora_core::parser::parse_expr(lit.trim()).unwrap();
        out.push(adora_semantics::io::value_from_expr(&e, &p.ty).unwrap());
    }
    out
}

#[test]
fn hand_written_programs_agree_with_the_reference() {
    let opts = EvalOptions::default();
    for (src, ins) in PROGRAMS {
        let f = adora_core::load(src, "main").unwrap_or_else(|d| panic!("{}", d.render("p", src)));
        let xs = inputs(&f, ins);
        let j = engine::linearize(&f).unwrap_or_else(|d| panic!("{src}: {d}"));
        let text = print::program(&j);
        let back = parse_program(&text).unwrap_or_else(|d| panic!("{}", d.render("j", &text)));
        assert_eq!(back, j, "{text}");
        check_program(&back).unwrap();
        let ts: Vec<Option<Value<Rat>>> = xs
            .iter()
            .map(|x| {
                let mut k = 0;
                Some(x.map_reals(&mut |_| {
                    k += 1;
                    r(k, 3)
                }))
            })
            .collect();
        assert_eq!(
            engine::jvp(&f, &xs, &ts, &opts).unwrap(),
            reference::jvp(&f, &xs, &ts, &opts).unwrap(),
            "{src}"
        );
        let (y, _) = reference::jvp(&f, &xs, &ts, &opts).unwrap();
        let mut k = 0;
        let ct = y.map_reals(&mut |_| {
            k += 1;
            r(2 - k, 2)
        });
        let want = reference::vjp(&f, &xs, &ct, &opts).unwrap();
        for policy in [Checkpoint::StoreAll, Checkpoint::RecomputeAll] {
            assert_eq!(
                engine::vjp_with(&f, &xs, &ct, &opts, &policy).unwrap(),
                want,
                "{src} ({policy:?})"
            );
        }
    }
}

#[test]
fn calls_differentiate_through_their_jvps() {
    let src = "
def sq(a: R) -> (R ;) =
  let b = a * a in
  (b ;)

def main(x: R, y: R) -> (R ;) =
  let s = sq(x) in
  let t = s * y in
  let u = sq(t) in
  (u ;)
";
    let p = parse_program(src).unwrap();
    let j = jvp::jvp_program(&p).unwrap();
    check_program(&j).unwrap_or_else(|d| panic!("{d}\n{}", print::program(&j)));
    assert!(j.def("sq_jvp").is_some() && j.def("main_jvp").is_some());
    let opts = EvalOptions::default();
    let args = vec![Value::real(r(3, 2)), Value::real(r(-2, 1))];
    let out = adora_rewrites::linear::interp::run(
        &j,
        "main_jvp",
        &args,
        &[Value::real(r(1, 1)), Value::real(r(0, 1))],
        &opts,
    )
    .unwrap();
    // u = (x^2 y)^2, du/dx = 4 x^3 y^2
    let x = r(3, 2);
    let y = r(-2, 1);
    assert_eq!(out.nl[0], Value::real(&x * &x * &y * (&x * &x * &y)));
    assert_eq!(out.lin[0], Value::real(r(4, 1) * &x * &x * &x * &y * &y));
}

#[test]
fn unsupported_constructs_are_named_with_their_position() {
    let src = "def main(x: R[3]) -> R =\n  reduce(+, 0.0, x)";
    let f = adora_core::load(src, "main").unwrap();
    let d = engine::linearize(&f).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Unsupported);
    assert!(d.message.contains("`reduce`"), "{d}");
    assert_eq!(d.span.start, src.find("reduce").unwrap());
    let src = "def main(x: R) -> R =\n  if x > 0.0 then x else -x";
    let f = adora_core::load(src, "main").unwrap();
    let d = engine::gradient(&f, &[Value::real(r(1, 1))], &EvalOptions::default()).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Unsupported);
    assert!(d.message.contains("`if`"), "{d}");
    assert_eq!(d.span.start, src.find("if").unwrap());
}

/// Regression (`adora check --seed 2026`, `linear/lemma-4.4`): a gather index-map binder
/// copied into the JVP repeated a name of the lowering's `let`s; lowering must make the
/// binders unique before the core checker sees the function.
#[test]
fn lowering_makes_copied_binders_unique() {
    use adora_rewrites::engine::Derivatives;
    use adora_semantics::eval::EvalOptions;
    use adora_semantics::value::{Tensor, Value};
    use adora_semantics::Rat;
    let src = "def main(x: R[3,1]) -> R[9] =\n  gather([9], transpose([1, 0], build 4 (i1 => build 4 (i2 => x[i1 + i1, i2]))), i3 => [0, i3 / 0])\n";
    let f = adora_core::load(src, "main").unwrap();
    let r = |k: i64| Rat::from_integer(k.into());
    let x = Value::Real(Tensor {
        shape: vec![3, 1],
        data: vec![r(0), r(0), r(0)],
    });
    let t = Value::Real(Tensor {
        shape: vec![3, 1],
        data: vec![r(1), r(2), r(3)],
    });
    let opts = EvalOptions::default();
    let (xs, ts) = (vec![x], vec![Some(t)]);
    let want = adora_semantics::reference::jvp(&f, &xs, &ts, &opts).unwrap();
    let got =
        Derivatives::<Rat>::jvp(&adora_rewrites::linear::Linear, &f, &xs, &ts, &opts).unwrap();
    assert_eq!(got, want);
}
