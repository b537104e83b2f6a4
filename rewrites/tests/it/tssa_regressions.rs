//! Engine `tssa`: the counterexamples `adora check --seed 424242` (1000 cases) found, as
//! regression tests (docs/engines/tssa-lowering.md, "Raising"; docs/engines/tssa-passes.md,
//! "Pair elimination").

use adora_core::tl::parse::{parse_term, parse_ty};
use adora_core::tl::{Term, Ty};
use adora_rewrites::engine::{self, harness};
use adora_rewrites::tssa::egg::{genpush, is_gp_nf, is_pe_nf, letlift, pairelim};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;
use adora_semantics::Rat;

fn rat(n: i64, d: i64) -> Rat {
    Rat::from_integer(n.into()) / Rat::from_integer(d.into())
}

fn load(src: &str) -> adora_core::Function {
    adora_core::load(src, "main").expect("the test program loads")
}

/// From `tssa/grad-equals-reference`: raising the adjoint of `t1 = gen (i0, i1). t0[i0,
/// i1, 0]` solved the summation variable `i1 := i3` and raised the solution inside the
/// filter `∃i3. i1 == 1` of the adjoint of `t2`, where `i3` was captured: the gradient
/// was 0, the reference's 8.
#[test]
fn a_solved_summation_variable_is_not_captured_by_an_exists_binder() {
    let f = load(
        "def f(p: R[2], q: Z[2]) -> R[3,3] =
  replicate(3, build 3 (i1 => p[0]))

def main(x: R) -> R =
  let t4 = f(build 2 (i3 => x), iota(2)) in
  sum(build 2 (i5 =>
    replicate(4, let t7 = build 1 (i6 => t4[0, 1]) in
      t7)))",
    );
    let inputs = vec![Value::real(rat(0, 1))];
    let opts = EvalOptions::default();
    let tssa = engine::find("tssa").expect("registered");
    let got = harness::gradient::<Rat>(tssa.as_ref(), &f, &inputs, &opts).unwrap();
    let want = harness::gradient::<Rat>(engine::reference().as_ref(), &f, &inputs, &opts).unwrap();
    assert_eq!(want.grads, vec![Some(Value::real(rat(8, 1)))]);
    assert_eq!(got, want);
}

/// From `tssa/adjoint-law`: the adjoint of `append` read `t6[2]` through the solution
/// `i2 := i4 + 1` raised inside the filter `∃i4. i2 == 2`, where `i4` was captured:
/// the input cotangent was 0, the reference's `[0, -13/3, 0]`.
#[test]
fn the_vjp_through_append_and_a_constant_scatter_is_the_references() {
    let f = load(
        "def main(x: R[3]) -> R[3,2] =
  let t6 = append(replicate(1, replicate(2, 0.0)), build 2 (i3 => replicate(2, x[i3]))) in
  scatter([3, 2], let t9 = build 1 (i7 => build 2 (i8 => t6[2])) in
    t9, (i10, i11) => [2])",
    );
    let inputs = vec![Value::reals(vec![3], vec![rat(0, 1); 3]).unwrap()];
    let ct = Value::reals(
        vec![3, 2],
        vec![
            rat(0, 1),
            rat(0, 1),
            rat(4, 3),
            rat(-5, 1),
            rat(-5, 2),
            rat(1, 3),
        ],
    )
    .unwrap();
    let opts = EvalOptions::default();
    let tssa = engine::find("tssa").expect("registered");
    let got = harness::vjp::<Rat>(tssa.as_ref(), &f, &inputs, &ct, &opts).unwrap();
    let want = harness::vjp::<Rat>(engine::reference().as_ref(), &f, &inputs, &ct, &opts).unwrap();
    let nonzero = Value::reals(vec![3], vec![rat(0, 1), rat(-13, 3), rat(0, 1)]).unwrap();
    assert_eq!(want.grads, vec![Some(nonzero)]);
    assert_eq!(got, want);
}

fn passes(src: &str, inputs: &[(String, Ty)]) -> Term {
    let t = parse_term(src).expect("the term parses");
    let l = letlift(&t).expect("let-lifting");
    let p = pairelim(&l, inputs).expect("pair elimination");
    assert!(is_pe_nf(&p, inputs), "{p}");
    let g = genpush(&p, inputs).expect("gen push-out");
    assert!(is_gp_nf(&g, inputs), "{g}");
    g
}

/// From `tssa/gen-pushout-ops-non-increasing`: an output leaf `[p] (gen i:3. x0)[2]`
/// over the pair-typed input `x0` kept its pair type through pair elimination, and gen
/// push-out found no normal form (the bracket of a pair-typed input is no `gen I. s`).
#[test]
fn a_pair_typed_output_leaf_is_split_by_pair_elimination() {
    let inputs = vec![("x0".to_string(), parse_ty("([3]num, num)").unwrap())];
    passes(
        "let t0 = [exists i0:2. i0 - 1 == i0 && i0 + 1 == i0] [2 < 0 && true] gen i1:3. \
         pow(abs(x0.0[i1]), 2) in let t1 = gen i2:1. t0[i2 % 2] in ([1 <= 1] [0 < 1 && 1 == 0 \
         && (0 < 0 && {t1[1] == x0.1})] (gen i3:3. x0)[2], gen i4:1. x0.0)",
        &inputs,
    );
    let g = passes("[0 < 1] (gen i:3. x0)[2]", &inputs);
    assert!(matches!(g, Term::Pair(..) | Term::Let(..)), "{g}");
}
