//! Regressions of unzipping (seed 002 §6) found by the properties of
//! `proptests/src/props/linear_unzip.rs` and `linear_claims.rs`.

use adora_core::linear::{check_linear_b, parse_program, print};
use adora_rewrites::linear::{interp, transpose_source, unzip, Checkpoint};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;
use adora_semantics::Rat;

fn r(n: i64, d: i64) -> Rat {
    Rat::new(n.into(), d.into())
}

/// Recomputing one variable of an unpacking (which binds several) used to put the
/// other one on the tape as well, so the linear half bound it twice.
#[test]
fn recomputing_one_component_of_an_unpacking() {
    let src = "
def f(x: (R, R) ; dx: (R, R)) -> (R ; R) =
  let (a, b) = x in
  let m = a * b in
  let (da, db) = dx in
  let d1 = b * da in
  let d2 = a * db in
  let d3 = d1 + d2 in
  (m ; d3)
";
    let p = parse_program(src).unwrap();
    let opts = EvalOptions::default();
    let args = vec![Value::Tuple(vec![
        Value::real(r(3, 2)),
        Value::real(r(-2, 5)),
    ])];
    let largs = vec![Value::Tuple(vec![
        Value::real(r(1, 3)),
        Value::real(r(4, 1)),
    ])];
    let want = interp::run(&p, "f", &args, &largs, &opts).unwrap();
    for v in ["a", "b"] {
        let policy = Checkpoint::Recompute([v.to_string()].into_iter().collect());
        let u = unzip::unzip_program(&p, &policy).unwrap();
        check_linear_b(&u).unwrap_or_else(|d| panic!("{v}: {d}\n{}", print::program(&u)));
        let prim = interp::run(&u, "f_primal", &args, &[], &opts).unwrap();
        let lin = interp::run(&u, "f_lin", &prim.nl[1..], &largs, &opts).unwrap();
        assert_eq!(lin.lin, want.lin, "{v}\n{}", print::program(&u));
    }
}

/// A call's tape variables (fresh names) used to get the wrong type in the caller's
/// primal half and linear half (UApp).
#[test]
fn the_tape_of_a_call_keeps_its_types() {
    let src = "
def g(z: R[3] ; dz: R[3]) -> (R ; R[3]) =
  let s = sum(z) in
  let d = z * dz in
  (s ; d)

def user(z: R[3] ; dz: R[3]) -> (; R[3]) =
  let (y ; d) = g(z ; dz) in
  let () = drop(y) in
  (; d)
";
    let out = transpose_source(src, "user").unwrap_or_else(|d| panic!("{d}"));
    let q = parse_program(&out).unwrap();
    check_linear_b(&q).unwrap_or_else(|d| panic!("{d}\n{out}"));
    let opts = EvalOptions::default();
    let z = Value::real_vector(vec![r(1, 2), r(-3, 1), r(2, 3)]);
    let tape = interp::run(&q, "user_primal", &[z], &[], &opts).unwrap();
    let ct = Value::real_vector(vec![r(1, 1), r(2, 1), r(5, 1)]);
    let back = interp::run(&q, "user_lin_t", &tape.nl, &[ct], &opts).unwrap();
    // The transpose of `dz -> z * dz` is `ct -> z * ct`.
    let want = Value::real_vector(vec![r(1, 2), r(-6, 1), r(10, 3)]);
    assert_eq!(back.lin, vec![want], "{out}");
}
