//! Resource limits and input validation: the step limit and the rational-size limit stop
//! runaway evaluations quickly, wrong inputs are `ErrorKind::Input`, deep programs run
//! under `adora_core::with_stack`, and bulk forms are linear in their size.
//! "Quickly" is checked deterministically, by counting what the evaluator did before it
//! reported the error (an [`Observer`]); the running times are measured by the criterion
//! benchmarks of `benches/eval.rs`, not here.
use crate::common;
use adora_core::diag::{Diagnostic, ErrorKind};
use adora_core::Function;
use adora_semantics::eval::{eval, eval_observed, EvalOptions, Event, Observer};
use adora_semantics::scalar::Scalar;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use common::*;

/// What an evaluation did: node evaluations, and iterations of the outermost construct.
#[derive(Default)]
struct Work {
    nodes: u64,
    outer_iterations: u64,
    open: usize,
}

impl Observer for Work {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Node { .. } => self.nodes += 1,
            Event::ParBegin { .. } | Event::SeqBegin { .. } => self.open += 1,
            Event::End => self.open -= 1,
            Event::Iter if self.open == 1 => self.outer_iterations += 1,
            _ => {}
        }
    }
}

/// Evaluates `f`, which must fail, and returns the error and the work done before it.
fn fails_after<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    opts: &EvalOptions,
) -> (Diagnostic, Work) {
    let mut work = Work::default();
    let e = eval_observed(f, inputs, opts, &mut work).unwrap_err();
    (e, work)
}

#[test]
fn step_limit() {
    let f = prog("def main(x: R) -> R = loop (a = x) for i < 100000 do a + 1");
    let opts = EvalOptions {
        max_steps: 10_000,
        ..EvalOptions::default()
    };
    let (e, work) = fails_after(&f, &[sr(ri(0))], &opts);
    // it stops at the limit: at most 10000 node evaluations of the 300000-odd a full run takes
    assert!(work.nodes <= 10_000, "{} nodes evaluated", work.nodes);
    assert_eq!(
        (e.kind, e.message.as_str()),
        (
            ErrorKind::Resource,
            "evaluation step limit (10000) exceeded"
        )
    );
    // the limit is inclusive: exactly the steps of a run succeed
    let (_, st) = eval(&f, &[sr(ri(0))], &EvalOptions::default()).unwrap();
    let opts = EvalOptions {
        max_steps: st.steps,
        ..EvalOptions::default()
    };
    assert!(eval(&f, &[sr(ri(0))], &opts).is_ok());
    let opts = EvalOptions {
        max_steps: st.steps - 1,
        ..EvalOptions::default()
    };
    assert!(eval(&f, &[sr(ri(0))], &opts).is_err());
    // a huge power is charged per multiplication of squaring, before multiplying
    let f = prog("def main(x: R) -> R = pow(x, 1000000000)");
    let opts = EvalOptions {
        max_steps: 20,
        ..EvalOptions::default()
    };
    let (e, work) = fails_after(&f, &[Value::real(1.0f64)], &opts);
    assert_eq!(
        (e.kind, e.message.as_str()),
        (ErrorKind::Resource, "evaluation step limit (20) exceeded")
    );
    assert!(work.nodes <= 1, "{} nodes evaluated", work.nodes);
    let steps = |k: u32| {
        let f = prog(&format!("def main(x: R) -> R = pow(x, {k})"));
        eval(&f, &[sr(rat(1, 2))], &EvalOptions::default())
            .unwrap()
            .1
            .steps
    };
    // 1000 = 0b1111101000: 9 squarings, 5 more multiplications
    assert_eq!(steps(1000), steps(0) + 14);
}

#[test]
fn rational_size_limit() {
    let src = "def main() -> R = loop (a = 2.5) for i < 60 do a * a";
    let f = prog(src);
    let (e, work) = fails_after::<Rat>(&f, &[], &EvalOptions::default());
    assert_eq!(e.kind, ErrorKind::Resource);
    assert_eq!(&src[e.span.start..e.span.end], "a * a");
    // iteration k squares 2.5^(2^k); 5^(2^15) is the first numerator past the 2^16-bit
    // limit (2^15 · log2 5 ≈ 76000 bits), so the 15th of the 60 iterations stops it
    assert_eq!(work.outer_iterations, 15);
    // f64 has no such limit
    let (v, _) = eval::<f64>(&f, &[], &EvalOptions::default()).unwrap();
    assert_eq!(v, Value::real(f64::INFINITY));
    // the same in sums and products of reduce
    let f = prog(
        "def main(x: R[64]) -> R = loop (a = 3) for i < 40 do reduce(*, 1, replicate(64, a)) / 7",
    );
    let inputs = [Value::real_vector(vec![ri(1); 64])];
    let (e, work) = fails_after(&f, &inputs, &EvalOptions::default());
    assert_eq!(e.kind, ErrorKind::Resource);
    // a grows as 3^(64^k): 3^64 and 3^4096 fit in 2^16 bits, the third iteration's product
    // does not
    assert_eq!(work.outer_iterations, 3);
    // a small limit applies to tangents too (reference gradient)
    let f = prog("def main(x: R) -> R = x * 12345678901234567890");
    let opts = EvalOptions {
        max_rational_bits: 32,
        ..EvalOptions::default()
    };
    let e = adora_semantics::reference::gradient(&f, &[sr(ri(1))], &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Resource);
}

#[test]
fn inputs_must_match_parameters() {
    let f = prog("def main(x: R[3], n: Z) -> R = x[n]");
    let opts = EvalOptions::default();
    let e = eval(&f, &[vr(&[1, 2]), Value::int(0)], &opts).unwrap_err();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (ErrorKind::Input, "input `x`: expected R[3], found R[2]")
    );
    let e = eval(&f, &[vr(&[1, 2, 3]), sr(ri(0))], &opts).unwrap_err();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (ErrorKind::Input, "input `n`: expected Z, found R")
    );
    let e = eval(&f, &[vr(&[1, 2, 3])], &opts).unwrap_err();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (ErrorKind::Input, "`main` takes 2 inputs, 1 given")
    );
}

#[test]
fn strict_mode() {
    let strict = EvalOptions {
        strict: true,
        ..EvalOptions::default()
    };
    let src = "def main(x: R, n: Z) -> R = x / x + real(n % n)";
    let f = prog(src);
    let e = eval(&f, &[sr(ri(0)), Value::int(1)], &strict).unwrap_err();
    assert_eq!(
        (e.kind, &src[e.span.start..e.span.end]),
        (ErrorKind::Runtime, "x / x")
    );
    let e = eval(&f, &[sr(ri(1)), Value::int(0)], &strict).unwrap_err();
    assert_eq!(
        (e.kind, &src[e.span.start..e.span.end]),
        (ErrorKind::Runtime, "n % n")
    );
    assert!(eval(&f, &[sr(ri(1)), Value::int(1)], &strict).is_ok());
}

#[test]
fn deep_programs_under_a_big_stack() {
    // source programs at the parser's nesting limit: 1900 lets, an expression nested 900 deep
    let mut src = String::from("def main(x: R) -> R =\n");
    for k in 0..1900 {
        let prev = if k == 0 {
            "x".to_string()
        } else {
            format!("x{}", k - 1)
        };
        src.push_str(&format!("  let x{k} = {prev} + 1 in\n"));
    }
    src.push_str("  x1899");
    let mut nested = String::from("def main(x: R) -> R = ");
    nested.push_str(&"(x + ".repeat(900));
    nested.push('1');
    nested.push_str(&")".repeat(900));
    // hand-built: a chain of 200000 lets and a sum nested 20000 deep (the elaborated limit)
    let mut chain = var("v199999");
    for k in (0..200_000).rev() {
        let prev = if k == 0 {
            var("x")
        } else {
            var(&format!("v{}", k - 1))
        };
        chain = let_(&format!("v{k}"), add(prev, rn(1)), chain);
    }
    let chain = func(&[("x", tr())], tr(), chain);
    let mut deep = rn(0);
    for _ in 0..20_000 {
        deep = add(var("x"), deep);
    }
    let deep = func(&[("x", tr())], tr(), deep);
    let got = adora_core::with_stack(move || {
        let f = prog(&src);
        let g = prog(&nested);
        (
            run(&f, &[sr(ri(1))]),
            run(&g, &[sr(rat(1, 2))]),
            run(&chain, &[sr(ri(0))]),
            run(&deep, &[sr(rat(1, 4))]),
        )
    });
    assert_eq!(
        got,
        (sr(ri(1901)), sr(rat(902, 2)), sr(ri(200_000)), sr(ri(5000)))
    );
}

#[test]
fn bulk_forms_are_linear() {
    // 10000- to 30000-element builds, gathers and reduces: exact results, and steps (node
    // evaluations, docs/language.md) exactly linear in the size (equal differences). That
    // no use copies an array is a matter of time, measured by the criterion benchmark
    // `eval-bulk` in benches/eval.rs.
    let steps = |n: usize| {
        let f = prog(&format!(
            "def main(x: R[{n}]) -> R = let y = build {n} (i => x[i] * x[{n} - 1 - i]) in reduce(+, 0, gather([{n}], y, i => [i])) + sum(y)"
        ));
        let x = Value::real_vector((0..n as i64).map(|k| ri(k % 7)).collect());
        let want: i64 = (0..n as i64)
            .map(|i| (i % 7) * ((n as i64 - 1 - i) % 7))
            .sum::<i64>()
            * 2;
        let (v, st) = eval(&f, &[x], &EvalOptions::default()).unwrap();
        assert_eq!(v, sr(ri(want)));
        st.steps
    };
    let (s1, s2, s3) = (steps(10_000), steps(20_000), steps(30_000));
    assert_eq!(s3 - s2, s2 - s1, "steps {s1}, {s2}, {s3}");
    assert!(s1 <= 16 * 10_000, "{s1} steps");
}
