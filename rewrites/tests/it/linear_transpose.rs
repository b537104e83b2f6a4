//! Transposition (seed 002 §7): every linear primitive on a hand-written Linear B program,
//! the dot-product identity <ct, f(dx)> = <f_t(ct), dx> exactly, work preservation with
//! Theorem 7.1's corrections, transposing twice (Corollary 7.2), calls (TApp), the
//! `transpose_source` entry point, and unzipping with both checkpoint policies.

use adora_core::linear::{check_linear_b, parse_program, print, LinearProgram};
use adora_rewrites::linear::{interp, transpose, transpose_source, unzip, Checkpoint};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use num_traits::Zero;

const PRIMS: &str = "
def f(x: R[3], c: B[3], i: Z ; dx: R[3], dm: R[2, 3], dt: (R, R[2])) -> (; R[3], R, R[3], R[3, 2], R[4]) =
  let (; a, b) = dup(dx) in
  let s = sum(x) in
  let t = s * a in
  let u = x * t in
  let um = select(c, u, 0.0) in
  let (p, q) = dt in
  let w = sum(q) in
  let v = p + w in
  let z = zero(R[3]) in
  let m = select(c, b, z) in
  let e = m[i] in
  let h = one_hot([3], e, i) in
  let r = replicate(2, h) in
  let g = gather([2, 3], r, (j, l) => [1 - j, l]) in
  let (; g1, g2) = dup(g) in
  let so = sum_outer(g1) in
  let tr = transpose([1, 0], g2) in
  let rs = reshape([6], dm) in
  let sp = split(2, rs) in
  let (s1, s2) = sp in
  let ap = append(s2, s1) in
  let sc = scatter([4], ap, k => [k % 4 + i - 1]) in
  (; um, v, so, tr, sc)
";

const CALLS: &str = "
def g(y: R ; dy: R, dz: R[2]) -> (; R[2]) =
  let a = y * dy in
  let b = replicate(2, a) in
  let c = b + dz in
  (; c)

def f(x: R ; dx: R, dw: R[2]) -> (; R[2], R) =
  let (; d1, d2) = dup(dx) in
  let e = g(x ; d1, dw) in
  let k = x * x in
  let f2 = k * d2 in
  (; e, f2)
";

fn r(n: i64, d: i64) -> Rat {
    Rat::new(n.into(), d.into())
}

fn fill(v: &Value<Rat>, seed: i64) -> Value<Rat> {
    let mut k = seed;
    v.map_reals(&mut |_| {
        k += 1;
        r((k * 5) % 13 - 6, 1 + k % 3)
    })
}

fn dot(a: &[Value<Rat>], b: &[Value<Rat>]) -> Rat {
    let mut s = Rat::zero();
    for (x, y) in a.iter().zip(b) {
        for (p, q) in x.real_scalars().into_iter().zip(y.real_scalars()) {
            s += p * q;
        }
    }
    s
}

/// Checks the dot-product identity and the work equation of def `f` against `f_t`.
fn check_transpose(p: &LinearProgram, f: &str, args: &[Value<Rat>]) -> (Rat, LinearProgram) {
    let opts = EvalOptions::default();
    let t = transpose::transpose_program(p, f).unwrap_or_else(|d| panic!("{d}"));
    check_linear_b(&t).unwrap_or_else(|d| panic!("{d}\n{}", print::program(&t)));
    let d = p.def(f).unwrap();
    let dxs: Vec<Value<Rat>> = d
        .lparams
        .iter()
        .enumerate()
        .map(|(k, q)| fill(&Value::zeros(&q.ty), 3 * k as i64))
        .collect();
    let cts: Vec<Value<Rat>> = d
        .lret
        .iter()
        .enumerate()
        .map(|(k, ty)| fill(&Value::zeros(ty), 7 + k as i64))
        .collect();
    let fwd = interp::run(p, f, args, &dxs, &opts).unwrap();
    let tn = transpose::transpose_name(f);
    let bwd = interp::run(&t, &tn, args, &cts, &opts).unwrap();
    let lhs = dot(&cts, &fwd.lin);
    assert_eq!(
        lhs,
        dot(&bwd.lin, &dxs),
        "dot-product identity\n{}",
        print::program(&t)
    );
    // Theorem 7.1, claim 2: W(e) + |outputs| = W(T e) + |inputs| (no drop of a compound
    // expression occurs in Linear A as we write it, so the equality is exact).
    let size = |vs: &[Value<Rat>]| {
        vs.iter()
            .map(|v| v.real_scalars().len() as u64)
            .sum::<u64>()
    };
    assert_eq!(
        fwd.work + size(&fwd.lin),
        bwd.work + size(&bwd.lin),
        "work\n{}",
        print::program(&t)
    );
    // The evaluation through erasure and lowering agrees with the interpreter.
    let mut all = args.to_vec();
    all.extend(dxs.iter().cloned());
    let via_core = adora_rewrites::linear::values::eval_def(p, f, &all, &opts).unwrap();
    assert_eq!(via_core, fwd.lin);
    (lhs, t)
}

fn prims_args() -> Vec<Value<Rat>> {
    vec![
        Value::real_vector(vec![r(1, 2), r(-1, 1), r(2, 1)]),
        Value::bools(vec![3], vec![true, false, true]).unwrap(),
        Value::int(1),
    ]
}

#[test]
fn every_linear_primitive_transposes() {
    let p = parse_program(PRIMS).unwrap();
    check_linear_b(&p).unwrap();
    let (lhs, t) = check_transpose(&p, "f", &prims_args());
    assert!(!lhs.is_zero(), "a vacuous identity");
    // Corollary 7.2: transposing twice gives an equivalent program (same linear results on
    // the same inputs) doing the same work.
    let (_, tt) = check_transpose(&t, "f_t", &prims_args());
    let opts = EvalOptions::default();
    let dxs: Vec<Value<Rat>> = p
        .def("f")
        .unwrap()
        .lparams
        .iter()
        .map(|q| fill(&Value::zeros(&q.ty), 1))
        .collect();
    let a = interp::run(&p, "f", &prims_args(), &dxs, &opts).unwrap();
    let b = interp::run(&tt, "f_t_t", &prims_args(), &dxs, &opts).unwrap();
    assert_eq!(a.lin, b.lin);
    assert!(b.work <= a.work);
}

#[test]
fn calls_transpose_through_their_callees() {
    let p = parse_program(CALLS).unwrap();
    let (_, t) = check_transpose(&p, "f", &[Value::real(r(3, 2))]);
    assert!(t.def("g_t").is_some(), "{}", print::program(&t));
}

#[test]
fn transpose_source_prints_a_valid_program() {
    let out = transpose_source(PRIMS, "f").unwrap();
    let p = parse_program(&out).unwrap_or_else(|d| panic!("{}\n{out}", d.render("t", &out)));
    check_linear_b(&p).unwrap();
    assert!(p.def("f_t").is_some());
    // A Linear A def that is not Linear B is unzipped first.
    let mixed = "def f(x: R ; dx: R) -> (; R) =\n  let y = (let c = x * x in let d = c * dx in (c ; d)) in\n  let (u ; dv) = y in\n  (; dv)\n";
    let mixed = mixed.replace(
        "let y = (let c = x * x in let d = c * dx in (c ; d)) in\n  let (u ; dv) = y in",
        "let (u ; dv) = (let c = x * x in let d = c * dx in (c ; d)) in\n  let () = drop(u) in",
    );
    let out = transpose_source(&mixed, "f").unwrap_or_else(|d| panic!("{}", d.render("t", &mixed)));
    assert!(
        parse_program(&out).unwrap().def("f_lin_t").is_some(),
        "{out}"
    );
    // Errors: a def with non-linear results, an unknown def.
    let nl = "def f(x: R) -> (R ;) =\n  (x ;)\n";
    assert_eq!(
        transpose_source(nl, "f").unwrap_err().kind,
        adora_core::diag::ErrorKind::Type
    );
    assert_eq!(
        transpose_source(nl, "g").unwrap_err().kind,
        adora_core::diag::ErrorKind::Name
    );
}

#[test]
fn unzipping_with_either_policy_gives_equal_results() {
    let src = "
def f(x: R, y: R[2] ; dx: R, dy: R[2]) -> (R ; R[2]) =
  let a = x * x in
  let ar = replicate(2, a) in
  let b = ar * y in
  let c = sum(b) in
  let d = a * dy in
  let e = c * d in
  let f1 = b * e in
  let g = x * dx in
  let h = replicate(2, g) in
  let k = f1 + h in
  (c ; k)
";
    let p = parse_program(src).unwrap();
    let opts = EvalOptions::default();
    let args = vec![
        Value::real(r(3, 2)),
        Value::real_vector(vec![r(-1, 3), r(2, 1)]),
    ];
    let largs = vec![
        Value::real(r(1, 5)),
        Value::real_vector(vec![r(4, 1), r(-2, 7)]),
    ];
    let want = interp::run(&p, "f", &args, &largs, &opts).unwrap();
    let mut tapes = Vec::new();
    for policy in [
        Checkpoint::StoreAll,
        Checkpoint::RecomputeAll,
        Checkpoint::Recompute(["a".to_string()].into_iter().collect()),
    ] {
        let u = unzip::unzip_program(&p, &policy).unwrap();
        check_linear_b(&u).unwrap_or_else(|d| panic!("{d}\n{}", print::program(&u)));
        let prim = interp::run(&u, "f_primal", &args, &[], &opts).unwrap();
        assert_eq!(prim.nl[0], want.nl[0], "{policy:?}");
        let lin = interp::run(&u, "f_lin", &prim.nl[1..], &largs, &opts).unwrap();
        assert_eq!(lin.lin, want.lin, "{policy:?}\n{}", print::program(&u));
        tapes.push(prim.nl.len() - 1);
    }
    // Storing keeps more on the tape than recomputing from the inputs.
    assert!(tapes[0] > tapes[1], "{tapes:?}");
}

#[test]
fn transpose_source_never_panics_on_damaged_programs() {
    let chars: Vec<(usize, char)> = PRIMS.char_indices().collect();
    let mut ok = 0;
    for (i, c) in chars.iter().step_by(3) {
        let mut s = PRIMS.to_string();
        s.replace_range(*i..*i + c.len_utf8(), "");
        if transpose_source(&s, "f").is_ok() {
            ok += 1;
        }
        let _ = transpose_source(&PRIMS[..*i], "f");
    }
    assert!(ok > 0);
}
