//! `soac/while-to-for-preserves-semantics` (seed 004 *AD for an Array Language with Nested
//! Parallelism* §6.2, row S004-X6.2c). The core language has no `while`
//! (docs/language.md), so the property takes a random while loop apart: its condition
//! `c(y)` and step `s(y, a)` become programs of their own, run one after the other by the
//! one evaluator (`y := s(y, a)` while `c(y)` holds, at most `B` times) — the while loop's
//! meaning — and the bounded form the paper transforms it into, `loop (y = x) for i < B
//! do if c(y) then s(y, a) else y`, must give exactly the same value, for the bound `B`
//! and for a larger one when the while loop stopped before `B` (the perfectly nested `if`
//! makes the extra iterations do nothing). Its gradient by engine `soac` (the loop and
//! `if` rules, any checkpointing policy) equals the reference exactly.

use super::soac_loops::{grad_agrees, inputs_of, rng_of};
use super::util::load_text;
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::values::Rat;
use adora_rewrites::engine::Checkpoint;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::value::Value;
use rand::Rng;

/// `f`'s value at `args`, exactly.
fn run(src: &str, args: &[Value<Rat>]) -> Result<Value<Rat>, String> {
    let f = load_text(src, "main")?;
    eval(&f, args, &EvalOptions::default())
        .map(|(v, _)| v)
        .map_err(|d| format!("{d}\n{src}"))
}

fn while_to_for(d: &[usize]) -> Outcome {
    let mut rng = rng_of(d);
    let step = [
        "y * a",
        "y + a",
        "y * a + 1.0",
        "(y + 1.0) * a",
        "y - a * y",
    ][rng.gen_range(0..5)];
    let t: i64 = rng.gen_range(-3..=12);
    let cond = match rng.gen_range(0..3) {
        0 => format!("y < {t}.0"),
        1 => format!("y * y < {t}.0"),
        _ => format!("{t}.0 < y"),
    };
    let bound = rng.gen_range(1..=8);
    let lit = |rng: &mut rand_chacha::ChaCha8Rng| {
        format!("{}/{}", rng.gen_range(-3..=3), rng.gen_range(1..=2))
    };
    let lits = vec![lit(&mut rng), lit(&mut rng)];
    let cond_src = format!("def main(y: R) -> R = if {cond} then 1.0 else 0.0\n");
    let step_src = format!("def main(y: R, a: R) -> R = {step}\n");
    let bounded = |b: usize| {
        format!("def main(x: R, a: R) -> R = loop (y = x) for i < {b} do if {cond} then {step} else y\n")
    };
    let for_src = bounded(bound);
    let f = load_text(&for_src, "main")?;
    let xs = inputs_of(&f, &lits)?;
    let a = xs[1].clone();
    // The while loop, bounded by `bound`.
    let (mut y, mut k) = (xs[0].clone(), 0);
    while k < bound {
        let c = run(&cond_src, std::slice::from_ref(&y))?;
        if c.as_real()
            .is_some_and(|c| *c == Rat::from_integer(0.into()))
        {
            break;
        }
        y = run(&step_src, &[y, a.clone()])?;
        k += 1;
    }
    let stopped = k < bound;
    let got = run(&for_src, &xs)?;
    if got != y {
        return Err(format!(
            "while loop ({k} iterations) gives {y:?}, the bounded for loop {got:?}\n{for_src}"
        ));
    }
    if stopped {
        let more = bounded(bound + 3);
        let longer = run(&more, &xs)?;
        if longer != y {
            return Err(format!(
                "the while loop stopped after {k} < {bound} iterations, but {} iterations give {longer:?}, not {y:?}\n{more}",
                bound + 3
            ));
        }
    }
    for c in [
        Checkpoint::Every,
        Checkpoint::Once,
        Checkpoint::StripMine(2),
    ] {
        grad_agrees(&f, &xs, c, &for_src)?;
    }
    Pass::figure(if stopped { 1.0 } else { 0.0 })
}

/// The property of row S004-X6.2c.
pub fn properties() -> Vec<Property> {
    vec![Property {
        name: "soac/while-to-for-preserves-semantics",
        source: "seed 004 §6.2",
        fragment: "soac",
        description: "a random while loop (condition c(y), step s(y, a), bound B), run as such by evaluating c and s one iteration at a time, has exactly the value of its bounded form loop (y = x) for i < B do if c(y) then s(y, a) else y, and of B + 3 iterations when it stopped before B; engine soac's gradient of the bounded form equals the reference exactly under every, once and stripmine:2 (the figure: the fraction of loops that stopped before their bound)",
        figure: Some(Figure {
            label: "stopped before the bound (fraction)",
            agg: Agg::Mean,
        }),
        check: Check::Dims {
            count: 2,
            max: 1_000_000,
            check: while_to_for,
        },
    }]
}
