//! Engine `soac`'s reverse mode (`adora_rewrites::soac::reverse`, seed 004 *AD for an
//! Array Language with Nested Parallelism*): the call site of the SOAC rules exercised
//! with rules written here (`reduce(+)`, and a one-element `reduce` that uses
//! `lambda_vjp`), the re-execution counts after dead-code elimination, strip-mining,
//! f64 mode (IEEE singularities), and the golden programs it accepts, all compared with
//! the reference derivative.

use crate::linear_support::{direction, goldens};
use crate::soac_reverse::{agrees_with, inputs, load, SoacReverse};
use adora_core::ast::{Expr, ExprKind, Op, Pat};
use adora_core::diag::{ErrorKind, Result, Span};
use adora_rewrites::engine::harness::{ask, Answer, Query};
use adora_rewrites::engine::{Engine, Question};
use adora_rewrites::soac::reverse::{self, Rules};
use adora_rewrites::soac::rules::{RevEnv, RuleOutput, Stmt};
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference;
use adora_semantics::value::Value;
use adora_semantics::Rat;

fn mk(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

fn var(n: &str) -> Expr {
    mk(ExprKind::Var(n.into()))
}

/// A `reduce(+)` rule written here: `ne̅ = ȳ`, `xs̄ = replicate(n, ȳ)` (seed 004 §5.1).
fn reduce_add(env: &mut dyn RevEnv, op: &Op, s: &Stmt) -> Result<RuleOutput> {
    let Op::Add = op else {
        return Err(adora_core::diag::Diagnostic::new(
            ErrorKind::Unsupported,
            Span::DUMMY,
            "this test's rule is reduce(+) only",
        ));
    };
    let n = s.types[1].as_array().unwrap().1[0];
    let r = env.fresh("rep");
    let rep = mk(ExprKind::Prim(
        adora_core::ast::Prim::Replicate(n),
        vec![s.adjoint.clone()],
    ));
    Ok(RuleOutput {
        lets: vec![(Pat::Var(r.clone()), rep)],
        operands: vec![Some(s.adjoint.clone()), Some(var(&r))],
        free: vec![],
    })
}

/// A `reduce` rule for one-element arrays with any operator: `op(ne, xs[0])` reversed by
/// the framework's `lambda_vjp`, whose free variables get their contributions.
fn reduce_one(env: &mut dyn RevEnv, op: &Op, s: &Stmt) -> Result<RuleOutput> {
    let Op::Lambda(lam) = op else {
        return reduce_add(env, op, s);
    };
    let slice = s.types[0].clone();
    let v = env.lambda_vjp(lam, &[slice.clone(), slice.clone()], &s.result_ty)?;
    let p = &v.lambda.params;
    let x0 = mk(ExprKind::Index(
        Box::new(s.operands[1].clone()),
        vec![mk(ExprKind::Lit(adora_core::ast::Lit::Int(0.into())))],
    ));
    let outs: Vec<String> = (0..2 + v.free.len()).map(|_| env.fresh("o")).collect();
    let lets = vec![
        (Pat::Var(p[0].clone()), s.operands[0].clone()),
        (Pat::Var(p[1].clone()), x0),
        (Pat::Var(p[2].clone()), s.adjoint.clone()),
        (Pat::Tuple(outs.clone()), (*v.lambda.body).clone()),
    ];
    Ok(RuleOutput {
        lets,
        operands: vec![
            Some(var(&outs[0])),
            Some(mk(ExprKind::Array(vec![var(&outs[1])]))),
        ],
        free: v
            .free
            .iter()
            .zip(&outs[2..])
            .map(|((n, _), o)| (n.clone(), var(o)))
            .collect(),
    })
}

#[test]
fn the_soac_call_site_applies_a_rule_written_here() {
    let rules = Rules {
        reduce: reduce_add,
        ..Rules::default()
    };
    let e = SoacReverse(rules);
    agrees_with(
        &e,
        "def main(xs: R[4], w: R) -> R = reduce(+, w, map(x => x * x, xs)) * w",
        &["[1, 2, -3, 1/2]", "3"],
    );
    agrees_with(
        &e,
        "def main(m: R[3, 2], w: R) -> R[2] = reduce(+, replicate(2, w), m) * m[0]",
        &["[[1, 2], [-3, 1/2], [0, 5]]", "3"],
    );
    agrees_with(
        &e,
        "def main(xs: R[3], w: R) -> R[3] = map(x => reduce(+, x, xs) * w, xs)",
        &["[1, 2, 3]", "2"],
    );
}

#[test]
fn lambda_vjp_reverses_an_operator_with_free_variables() {
    let rules = Rules {
        reduce: reduce_one,
        ..Rules::default()
    };
    let e = SoacReverse(rules);
    agrees_with(
        &e,
        "def main(xs: R[1], w: R, v: R[2]) -> R =
           reduce((a, b) => a * b * w + v[1] * a, w * w, xs) * v[0]",
        &["[3]", "2", "[5, 7]"],
    );
}

fn counts(src: &str) -> reverse::Counts {
    let f = load(src);
    let (dp, counts) = reverse::counted(&f, Question::Grad, Rules::default()).unwrap();
    dp.check(&f).unwrap();
    counts
}

#[test]
fn loops_run_twice_and_other_scopes_once_per_return_sweep_that_reads_them() {
    let c = counts(
        "def main(xs: R[3], w: R) -> R =
           let y = loop (v = xs) for i < 2 do map(x => x * w + v[i], v) in
           sum(map(z => if z > 0.0 then z * z else z, y))",
    );
    assert_eq!(c["main"], 1, "{c:?}");
    // The loop: its checkpointing forward sweep and its re-execution.
    assert_eq!(c["loop i"], 2, "{c:?}");
    // The map inside the loop: in both copies of the loop body; its reversed lambda
    // needs none of the lambda's primal values (dead code, removed).
    assert_eq!(c["map x"], 2, "{c:?}");
    // The map at the top: the map itself, and its reversed lambda (which needs `z > 0`).
    assert_eq!(c["map z"], 2, "{c:?}");
    // `z * z` is needed by no adjoint: only the primal runs it. `else` has no statement.
    assert_eq!(c["then #1"], 1, "{c:?}");
    assert_eq!(c["else #1"], 0, "{c:?}");
}

#[test]
fn perfect_nests_are_not_re_executed_unless_a_partial_reads_a_result() {
    let c = counts("def main(m: R[2, 3], w: R) -> R = sum(map(r => map(x => x * x + w, r), m))");
    assert_eq!((c["map r"], c["map x"]), (1, 1), "{c:?}");
    // `1 / x`: the partial with respect to `x` reads the result, so the innermost
    // statements run again in the reversed lambda (once: bounded by the depth).
    let c = counts("def main(m: R[2, 3], w: R) -> R = sum(map(r => map(x => w / x, r), m))");
    assert_eq!((c["map r"], c["map x"]), (1, 2), "{c:?}");
}

#[test]
fn golden_programs_it_accepts_agree_with_the_reference() {
    let opts = EvalOptions::default();
    let e = SoacReverse(Rules::default());
    let (mut checked, mut skipped) = (0, 0);
    for g in goldens() {
        let name = g.path.display().to_string();
        if g.f64 || !g.f.params.iter().any(|p| p.ty.has_reals()) {
            continue;
        }
        let dp = match e.program(&g.f, Question::Vjp) {
            Err(d) if d.kind == ErrorKind::Unsupported => {
                skipped += 1;
                continue;
            }
            r => r.unwrap_or_else(|d| panic!("{name}: {d}")),
        };
        dp.check(&g.f).unwrap_or_else(|d| panic!("{name}: {d}"));
        let ct = direction(&Value::<Rat>::zeros(&g.f.ret), 5);
        let want = reference::vjp(&g.f, &g.inputs, &ct, &opts);
        let got = ask(&e, &g.f, &g.inputs, &Query::Vjp(ct.clone()), &opts);
        match (got, want) {
            (Ok(a), Ok(b)) => assert_eq!(a, Answer::Gradient(b), "{name}"),
            (Err(a), Err(b)) => assert_eq!(a.kind, b.kind, "{name}: {a} / {b}"),
            (a, b) => panic!("{name}: {a:?} vs {b:?}"),
        }
        checked += 1;
    }
    eprintln!("soac reverse: {checked} golden programs checked, {skipped} unsupported");
    assert!(checked >= 20, "only {checked} golden programs checked");
}

/// `vjp` of `src` at `lits` in f64 mode agrees with the reference by the harness's f64
/// rule (docs/architecture.md §10: equal infinities, NaN with NaN, finite values within
/// the relative tolerance 1e-9).
fn agrees_f64(src: &str, lits: &[&str]) {
    let f = load(src);
    let xs: Vec<Value<f64>> = inputs(&f, lits).iter().map(|v| v.to_f64()).collect();
    let ct = direction(&Value::<Rat>::zeros(&f.ret), 3).to_f64();
    let opts = EvalOptions::default();
    let e = SoacReverse(Rules::default());
    let got = ask(&e, &f, &xs, &Query::Vjp(ct.clone()), &opts).unwrap();
    let want = Answer::Gradient(reference::vjp(&f, &xs, &ct, &opts).unwrap());
    let diffs = adora_rewrites::engine::harness::compare(&f, &got, &want);
    assert!(diffs.is_empty(), "{src}: {diffs:?}");
}

#[test]
fn f64_singularities_are_the_ieee_answers() {
    agrees_f64("def main(x: R) -> R = pow(x, -2) + 1.0", &["0"]);
    agrees_f64("def main(x: R) -> R = x / 0.0 * 0.0", &["1"]);
    agrees_f64("def main(x: R) -> R = x / 0.0", &["1"]);
    agrees_f64("def main(x: R) -> R = x * sqrt(x)", &["0"]);
    agrees_f64("def main(x: R) -> R = abs(log(x))", &["-1"]);
}

#[test]
fn f64_programs_with_transcendental_functions() {
    agrees_f64(
        "def main(xs: R[3], w: R) -> R[3] = map(x => exp(x * w) + sin(x) * tanh(w), xs)",
        &["[0.5, -1, 2]", "0.25"],
    );
    agrees_f64(
        "def main(x: R, w: R) -> R = loop (a = x) for i < 4 do sqrt(a * a + w) * cos(a)",
        &["0.75", "2"],
    );
    agrees_f64(
        "def main(xs: R[3], a: R[4]) -> R[3] = map(x => log(x * x + 1.0) * a[1] + a[3], xs)",
        &["[0.5, -1, 2]", "[1, 2, 3, 4]"],
    );
}

#[test]
fn strip_mined_loops_agree_and_run_once_more_per_level() {
    use reverse::Checkpoint;
    let src = "def main(x: R, w: R, v: R[8]) -> R = loop (a = x) for i < 8 do a * w + v[i] * a";
    let f = load(src);
    let xs = inputs(&f, &["1/2", "3/2", "[1, -1, 2, 0, 1/3, 1, 2, -2]"]);
    let opts = EvalOptions::default();
    let want = Answer::Gradient(reference::gradient(&f, &xs, &opts).unwrap());
    for (k, inner, strips) in [(1, 2, None), (2, 3, Some(2)), (3, 4, Some(3))] {
        let (dp, c) = reverse::counted_with(
            &f,
            Question::Grad,
            Rules::default(),
            Checkpoint::StripMine(k),
        )
        .unwrap();
        dp.check(&f).unwrap();
        let args = dp
            .arguments(
                &f,
                &xs,
                adora_rewrites::engine::Seed::Cotangent(&Value::real(Rat::from_integer(1.into()))),
            )
            .unwrap();
        let (out, _) = adora_semantics::eval::eval(&dp.function, &args, &opts).unwrap();
        let got = Answer::Gradient(dp.unpack(&f, &xs, out).unwrap().gradient());
        assert_eq!(
            got,
            want,
            "k = {k}\n{}",
            adora_core::pretty::function(&dp.function)
        );
        assert_eq!(c["loop i"], inner, "k = {k}: {c:?}");
        assert_eq!(c.get("loop i strips").copied(), strips, "k = {k}: {c:?}");
    }
    // A prime trip count is not split.
    let f = load("def main(x: R) -> R = loop (a = x) for i < 7 do a * x");
    let (_, c) = reverse::counted_with(
        &f,
        Question::Grad,
        Rules::default(),
        Checkpoint::StripMine(2),
    )
    .unwrap();
    assert_eq!(c["loop i"], 2, "{c:?}");
    // Tuples, and a strip-mined loop inside a map.
    agrees_stripmined(
        "def main(xs: R[3], w: R) -> R[3] = map(x => (loop ((a, b) = (x, w)) for i < 6 do (a * b, b + a * real(i))).0, xs)",
        &["[1, 1/2, -1]", "1/3"],
    );
}

fn agrees_stripmined(src: &str, lits: &[&str]) {
    let f = load(src);
    let xs = inputs(&f, lits);
    let opts = EvalOptions::default();
    let ct = direction(&Value::<Rat>::zeros(&f.ret), 3);
    let want = Answer::Gradient(reference::vjp(&f, &xs, &ct, &opts).unwrap());
    let (dp, _) = reverse::counted_with(
        &f,
        Question::Vjp,
        Rules::default(),
        reverse::Checkpoint::StripMine(2),
    )
    .unwrap();
    dp.check(&f).unwrap();
    let args = dp
        .arguments(&f, &xs, adora_rewrites::engine::Seed::Cotangent(&ct))
        .unwrap();
    let (out, _) = adora_semantics::eval::eval(&dp.function, &args, &opts).unwrap();
    let got = Answer::Gradient(dp.unpack(&f, &xs, out).unwrap().gradient());
    assert_eq!(got, want, "{src}");
}
