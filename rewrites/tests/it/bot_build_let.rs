//! Build-let (seed 000 §5.1; docs/rules/bot.md, "Materialised lets"): a `let` inside a
//! `build` body whose value is read more than once there becomes a `let` of a `build`,
//! kept materialised, so bot no longer computes its value once per read. The
//! counterexample of `specs/theorems.md` (S000-X5.1c, `adora check --filter bot/ops
//! --seed 42 --cases 2000`) went from 12 to 18 `ops`.

use crate::bot_support::{exact, header_inputs, load};
use adora_core::ast::{ExprKind, Function};
use adora_core::visit::subexprs;
use adora_rewrites::bot::{transform, BotConfig};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;

fn ops(f: &Function, inputs: &[Value<adora_semantics::Rat>]) -> u64 {
    adora_costmodel::measure(f, inputs, &EvalOptions::default())
        .unwrap_or_else(|d| panic!("{d}"))
        .ops
}

fn lets(f: &Function) -> usize {
    subexprs(&f.body)
        .iter()
        .filter(|e| matches!(e.kind, ExprKind::Let(..)))
        .count()
}

const COUNTEREXAMPLE: &str = "def main(x: R[4]) -> R[3,1,2] =
  build 3 (i1 =>
    max(replicate(1, replicate(2, 0.0)), let t6 = 0.0 + build 1 (i4 => build 2 (i5 => x[i4 + i1])) in
      build 1 (i7 => t6[0] * t6[i7])))";

#[test]
fn a_let_read_twice_in_a_build_body_is_computed_once() {
    for src in [
        COUNTEREXAMPLE,
        "def main(x: R[4]) -> R[3,1,2] = build 3 (i1 => let t6 = 0.0 + build 1 (i4 => build 2 (i5 => x[i4 + i1])) in build 1 (i7 => t6[0] * t6[i7]))",
    ] {
        let f = load(src);
        let g = transform(&f, &BotConfig::default()).expect("bot").function;
        for x in [[0, 0, 0, 0], [1, -2, 3, 5]] {
            let text = format!("-- input: x = {x:?}");
            let xs = header_inputs(&text, &f).expect("inputs");
            let (before, after) = (ops(&f, &xs), ops(&g, &xs));
            assert!(after <= before, "ops {before} became {after}:\n{}", adora_core::pretty::function(&g));
            assert_eq!(exact(&g, &xs).expect("bot's output"), exact(&f, &xs).expect("input"));
        }
        assert!(lets(&g) >= 1, "the lifted let stays:\n{}", adora_core::pretty::function(&g));
    }
}

#[test]
fn a_read_of_an_array_is_not_lifted() {
    // `v[i]` costs no more to repeat than to read from a lifted array: the program is left
    // as it was (the golden `basics/defs_let.adl` prints unchanged)
    let f = load("def main(v: R[3]) -> R = sum(build 3 (i => let a = v[i] in a * a))");
    let g = transform(&f, &BotConfig::default()).expect("bot").function;
    assert_eq!(lets(&g), 0, "{}", adora_core::pretty::function(&g));
}
