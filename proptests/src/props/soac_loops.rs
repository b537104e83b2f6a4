//! Properties of engine `soac`'s loop checkpointing policies (seed 004 *AD for an Array
//! Language with Nested Parallelism* §1 footnote 1, §4.3, §6.2; docs/engines/soac-reverse.md,
//! "Checkpointing policies"), on random loops drawn here from the case's dimensions:
//!
//! * in-place update loops `loop ((y, s) = (x, c)) for i < t do (scatter_into(y, [i + d],
//!   [e]), s')` whose reads `y[i + r]` sometimes have false dependencies (`r ≥ d`) and
//!   sometimes not — `soac/loop-checkpoint-once-sound` (S004-X6.2b) and, restricted to
//!   loops without false dependencies, `soac/loop-checkpoint-cost` (S004-X6.2a);
//! * scalar recurrences `loop (a = x) for i < n do B` with `n` up to 48 —
//!   `soac/stripmine-tradeoff` (S004-X1d).
//!
//! Engine `soac` is asked through the engine interface, configured by
//! `EngineOptions::checkpoint` (docs/architecture.md, "Engine options").

use super::util::load_text;
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::values::Rat;
use adora_core::ast::Function;
use adora_costmodel::measure_with;
use adora_rewrites::engine::harness::{ask, Answer, Query};
use adora_rewrites::engine::program::ones;
use adora_rewrites::engine::{self, Checkpoint, Engine, EngineOptions, Question, Seed};
use adora_rewrites::soac::reverse::{self, stripmine, Rules};
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference;
use adora_semantics::value::Value;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The random source of a case drawn from its dimensions.
pub fn rng_of(d: &[usize]) -> ChaCha8Rng {
    let seed = d.iter().fold(0x5EED_u64, |s, &x| {
        s.wrapping_mul(1_000_003).wrapping_add(x as u64)
    });
    ChaCha8Rng::seed_from_u64(seed)
}

/// Engine `soac` with the loop policy `c`.
pub fn soac(c: Checkpoint) -> Result<Box<dyn Engine>, String> {
    let e = engine::find("soac").ok_or("engine soac is not registered")?;
    engine::configure(e, &EngineOptions::new().checkpoint(c)).map_err(|d| d.to_string())
}

/// A random rational as an expression, `(p.0 / q.0)`.
fn expr_lit(rng: &mut ChaCha8Rng) -> String {
    let (p, q): (i64, i64) = (rng.gen_range(-4..=4), rng.gen_range(1..=3));
    format!("({p}.0 / {q}.0)")
}

/// A random rational as a value literal, `p/q`.
fn value_lit(rng: &mut ChaCha8Rng) -> String {
    let (p, q): (i64, i64) = (rng.gen_range(-4..=4), rng.gen_range(1..=3));
    format!("{p}/{q}")
}

fn value_list(rng: &mut ChaCha8Rng, n: usize) -> String {
    let xs: Vec<String> = (0..n).map(|_| value_lit(rng)).collect();
    format!("[{}]", xs.join(", "))
}

/// A random in-place update loop, its inputs (`x`, `c`), its length `n` and trip count
/// `t`: element `i + d`
/// of `y` written at iteration `i` from reads `y[i + r]`; `clean`: every `r < d` (no false
/// dependency), else `r` up to `d + 1`.
pub fn in_place(rng: &mut ChaCha8Rng, clean: bool) -> (String, Vec<String>, usize, usize) {
    let n = rng.gen_range(3..=12);
    in_place_sized(rng, clean, n)
}

/// [`in_place`] over `n` elements: the same draws give the same loop at every `n`.
pub fn in_place_sized(
    rng: &mut ChaCha8Rng,
    clean: bool,
    n: usize,
) -> (String, Vec<String>, usize, usize) {
    let d: i64 = if clean {
        rng.gen_range(1..=2)
    } else {
        rng.gen_range(0..=2)
    };
    let t = n - d as usize;
    let offset = |rng: &mut ChaCha8Rng| -> i64 {
        if clean {
            rng.gen_range(-1..d)
        } else {
            rng.gen_range(-1..=d + 1)
        }
    };
    let read = |rng: &mut ChaCha8Rng| {
        let r = offset(rng);
        match r {
            0 => "y[i]".to_string(),
            r if r < 0 => format!("y[i - {}]", -r),
            r => format!("y[i + {r}]"),
        }
    };
    let mut terms = Vec::new();
    for _ in 0..rng.gen_range(1..=3) {
        let factor = match rng.gen_range(0..3) {
            0 => "c".to_string(),
            1 => "x[i]".to_string(),
            _ => expr_lit(rng),
        };
        terms.push(format!("{} * {factor}", read(rng)));
    }
    let e = terms.join(" + ");
    let s = match rng.gen_range(0..3) {
        0 => "s".to_string(),
        1 => format!("s * c + {}", read(rng)),
        _ => format!("s + {} * {}", read(rng), read(rng)),
    };
    let result = if rng.gen_bool(0.5) {
        "sum(r.0) * r.1"
    } else {
        "sum(r.0 * x) + r.1"
    };
    let src = format!(
        "def main(x: R[{n}], c: R) -> R =\n  let r = loop ((y, s) = (x, c)) for i < {t} do\n    (scatter_into(y, [i + {d}], [{e}]), {s})\n  in {result}\n"
    );
    let c = value_lit(rng);
    (src, vec![value_list(rng, n), c], n, t)
}

/// Parses the inputs of `f` from literals.
pub fn inputs_of(f: &Function, lits: &[String]) -> Result<Vec<Value<Rat>>, String> {
    f.params
        .iter()
        .zip(lits)
        .map(|(p, l)| {
            let e = adora_core::parser::parse_expr(l).map_err(|d| d.to_string())?;
            adora_semantics::io::value_from_expr(&e, &p.ty).map_err(|d| d.to_string())
        })
        .collect()
}

/// Engine `soac`'s gradient under `c` compared with the reference's, exactly.
pub fn grad_agrees(
    f: &Function,
    xs: &[Value<Rat>],
    c: Checkpoint,
    src: &str,
) -> Result<(), String> {
    let opts = EvalOptions::default();
    let want = reference::gradient(f, xs, &opts).map_err(|d| format!("reference: {d}\n{src}"))?;
    let got = ask(soac(c)?.as_ref(), f, xs, &Query::Grad, &opts)
        .map_err(|d| format!("soac ({c}): {d}\n{src}"))?;
    if got != Answer::Gradient(want.clone()) {
        return Err(format!("{c}: soac {got:?}, reference {want:?}\n{src}"));
    }
    Ok(())
}

/// How many loop components `once` restores from the loop's result in `f`.
fn once_components(f: &Function) -> Result<usize, String> {
    let plans = reverse::once_plan(f).map_err(|d| d.to_string())?;
    Ok(plans
        .iter()
        .map(|l| l.once.iter().filter(|(_, b)| *b).count())
        .sum())
}

fn once_sound(d: &[usize]) -> Outcome {
    let mut rng = rng_of(d);
    let clean = rng.gen_bool(0.5);
    let (src, lits, _, _) = in_place(&mut rng, clean);
    let f = load_text(&src, "main")?;
    let xs = inputs_of(&f, &lits)?;
    grad_agrees(&f, &xs, Checkpoint::Once, &src)?;
    let fired = once_components(&f)?;
    if clean && fired == 0 {
        return Err(format!(
            "no false dependency, but `once` did not apply\n{src}"
        ));
    }
    Pass::figure(if fired > 0 { 1.0 } else { 0.0 })
}

/// `mem` of the primal and of engine `soac`'s gradient program under `c`.
pub fn mems(f: &Function, xs: &[Value<Rat>], c: Checkpoint) -> Result<(u64, u64), String> {
    let opts = EvalOptions::default();
    let primal = measure_with(f, xs, &opts).map_err(|d| d.to_string())?;
    let dp = soac(c)?
        .program(f, Question::Vjp)
        .map_err(|d| d.to_string())?;
    let one: Value<Rat> = ones(&f.ret);
    let args = dp
        .arguments(f, xs, Seed::Cotangent(&one))
        .map_err(|d| d.to_string())?;
    let g = measure_with(&dp.function, &args, &opts).map_err(|d| d.to_string())?;
    Ok((primal.mem, g.mem))
}

fn checkpoint_cost(d: &[usize]) -> Outcome {
    let mut rng = rng_of(d);
    let n = rng.gen_range(3..=12);
    // The same loop at n and 2n elements.
    let (src1, lits1, _, _) = in_place_sized(&mut rng.clone(), true, n);
    let (src2, lits2, n2, t2) = in_place_sized(&mut rng, true, 2 * n);
    let f1 = load_text(&src1, "main")?;
    let f2 = load_text(&src2, "main")?;
    let (_, once1) = mems(&f1, &inputs_of(&f1, &lits1)?, Checkpoint::Once)?;
    let xs2 = inputs_of(&f2, &lits2)?;
    let (_, every2) = mems(&f2, &xs2, Checkpoint::Every)?;
    let (_, once2) = mems(&f2, &xs2, Checkpoint::Once)?;
    let (n2, t2) = (n2 as u64, t2 as u64);
    if every2 < t2 * n2 {
        return Err(format!(
            "every: mem {every2} < {t2} checkpoints of {n2} elements\n{src2}"
        ));
    }
    if once2 > 2 * once1 + 16 {
        return Err(format!(
            "once: mem {once2} at {n2} elements > 2 · {once1} + 16 (at {n})\n{src1}\n{src2}"
        ));
    }
    Pass::figure(every2 as f64 / once2 as f64)
}

/// A random scalar recurrence of `n` iterations and its inputs (`x`, `w`).
pub fn recurrence(rng: &mut ChaCha8Rng, n: usize) -> (String, Vec<String>) {
    // Scalars only: the return sweep carries no array adjoint, so the checkpoints are
    // what its memory grows with.
    let body = match rng.gen_range(0..4) {
        0 => "a * c + x",
        1 => "a * x + c * real(i)",
        2 => "(a + c) * x",
        _ => "a * c - a * x + real(i)",
    };
    let src = format!(
        "def main(x: R, c: R) -> R =\n  let y = loop (a = x) for i < {n} do {body} in\n  y * y\n"
    );
    (src, vec![value_lit(rng), value_lit(rng)])
}

fn stripmine_tradeoff(d: &[usize]) -> Outcome {
    let mut rng = rng_of(d);
    let n = rng.gen_range(2..=48);
    let k = rng.gen_range(1..=3);
    let (src, lits) = recurrence(&mut rng, n);
    let f = load_text(&src, "main")?;
    let xs = inputs_of(&f, &lits)?;
    grad_agrees(&f, &xs, Checkpoint::StripMine(k), &src)?;
    let strips = stripmine::strips(n, k);
    if strips.iter().product::<usize>() != n || strips.len() > k {
        return Err(format!("strips {strips:?} of {n} in {k} levels"));
    }
    let (_, counts) = reverse::counted_with(
        &f,
        Question::Grad,
        Rules::default(),
        Checkpoint::StripMine(k),
    )
    .map_err(|d| d.to_string())?;
    let runs = counts.get("loop i").copied().unwrap_or(0);
    if runs != strips.len() + 1 || runs > k + 1 {
        return Err(format!(
            "the body runs {runs} times for strips {strips:?} (k = {k}): {counts:?}\n{src}"
        ));
    }
    let (_, every) = mems(&f, &xs, Checkpoint::Every)?;
    let (_, striped) = mems(&f, &xs, Checkpoint::StripMine(k))?;
    let held: usize = strips.iter().sum();
    let levels = strips.len() as u64;
    // Per iteration: the n checkpoints and their copy when written; strip-mined: the
    // same for each level's loop, plus a constant per level.
    if every < 2 * n as u64 {
        return Err(format!("every: mem {every} < 2 · {n}\n{src}"));
    }
    if striped > 3 * held as u64 + 12 * levels + 16 {
        return Err(format!(
            "mem {striped} (strips {strips:?}) > 3 · {held} + 12 · {levels} + 16 (every: {every})\n{src}"
        ));
    }
    let ideal = k as f64 * (n as f64).powf(1.0 / k as f64);
    Pass::figure(held as f64 / ideal)
}

fn dims(check: fn(&[usize]) -> Outcome) -> Check {
    Check::Dims {
        count: 2,
        max: 1_000_000,
        check,
    }
}

/// The loop-checkpointing properties of engine `soac`.
pub fn properties() -> Vec<Property> {
    vec![
        Property {
            name: "soac/loop-checkpoint-once-sound",
            source: "seed 004 §6.2",
            fragment: "soac",
            description: "on random in-place update loops (element i + d written at iteration i from reads y[i + r], with and without false dependencies), engine soac's gradient under --checkpoint once equals the reference exactly, and `once` applies (restores the array from the loop's result) whenever every r < d (the figure: the fraction of loops where it applied)",
            figure: Some(Figure {
                label: "loops checkpointed once (fraction)",
                agg: Agg::Mean,
            }),
            check: dims(once_sound),
        },
        Property {
            name: "soac/loop-checkpoint-cost",
            source: "seed 004 §6.2",
            fragment: "soac",
            description: "on random in-place update loops without false dependencies, drawn at n and 2n elements (t iterations at 2n): the gradient program's mem is at least t · 2n under per-iteration checkpointing (O(n²): the checkpoint array), and under --checkpoint once it at most doubles, plus 16, when n doubles (O(n)) (the figure: the largest ratio mem(every) / mem(once) at 2n)",
            figure: Some(Figure {
                label: "max mem(every)/mem(once)",
                agg: Agg::Max,
            }),
            check: dims(checkpoint_cost),
        },
        Property {
            name: "soac/stripmine-tradeoff",
            source: "seed 004 §1 footnote 1, §4.3",
            fragment: "soac",
            description: "for random scalar recurrences of n ≤ 48 iterations and k ∈ {1, 2, 3}, the gradient under --checkpoint stripmine:k equals the reference exactly; the loop becomes strips d1 · … · dL = n (L ≤ k levels); the body runs L + 1 ≤ k + 1 times; mem(every) ≥ 2n and mem(stripmine:k) ≤ 3 (d1 + … + dL) + 12 L + 16: the checkpoints of every level instead of n (the figure: the largest (d1 + … + dL) / (k · n^(1/k)), 1 for perfect powers)",
            figure: Some(Figure {
                label: "max checkpoints/(k n^(1/k))",
                agg: Agg::Max,
            }),
            check: dims(stripmine_tradeoff),
        },
    ]
}
