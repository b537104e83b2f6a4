//! Engine `soac`'s checkpointing policies through the engine interface
//! (`EngineOptions`, docs/engines/soac-reverse.md "Checkpointing policies"):
//! `Checkpoint::Once` (seed 004 §6.2) restores exactly the loop components without false
//! dependencies from the loop's result, gives the reference's answers on every golden
//! program, and turns the O(n²) checkpoint memory of an in-place update loop into O(n)
//! in the `mem` model (S004-X6.2a).

use crate::linear_support::{direction, goldens};
use crate::soac_reverse::{inputs, load};
use adora_core::diag::ErrorKind;
use adora_rewrites::engine::harness::{ask, Answer, Query};
use adora_rewrites::engine::{self, Checkpoint, Engine, EngineOptions, Question, Seed};
use adora_rewrites::soac::reverse;
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference;
use adora_semantics::value::Value;
use adora_semantics::Rat;

fn soac(c: Checkpoint) -> Box<dyn Engine> {
    let e = engine::find("soac").unwrap();
    engine::configure(e, &EngineOptions::new().checkpoint(c)).unwrap()
}

/// Per loop of `src` (program order): which components `once` restores from the result.
fn plan(src: &str) -> Vec<Vec<bool>> {
    plan_of(&load(src))
}

fn plan_of(f: &adora_core::ast::Function) -> Vec<Vec<bool>> {
    reverse::once_plan(f)
        .unwrap()
        .into_iter()
        .map(|l| l.once.into_iter().map(|(_, b)| b).collect())
        .collect()
}

#[test]
fn once_applies_exactly_where_there_is_no_false_dependency() {
    let cases: [(&str, Vec<Vec<bool>>); 12] = [
        // True dependencies only: row i + 1 written after row i is read.
        ("def main(x: R[5], c: R) -> R[5] = loop (y = x) for i < 4 do scatter_into(y, [i + 1], [y[i] * c])", vec![vec![true]]),
        // Reads of rows written earlier or never (2 * i + 1 is never written).
        ("def main(x: R[8]) -> R[8] = loop (y = x) for i < 4 do scatter_into(y, [2 * i], [y[2 * i + 1] + y[0]])", vec![vec![false]]),
        ("def main(x: R[8]) -> R[8] = loop (y = x) for i < 3 do scatter_into(y, [2 * i + 2], [y[2 * i + 1] + y[0]])", vec![vec![true]]),
        // WAR in the same iteration: y[i] read, then written.
        ("def main(x: R[5]) -> R[5] = loop (y = x) for i < 5 do scatter_into(y, [i], [y[i] * y[i]])", vec![vec![false]]),
        // WAR across iterations: row i + 1 read before iteration i + 1 writes it.
        ("def main(x: R[5]) -> R[5] = loop (y = x) for i < 4 do scatter_into(y, [i], [y[i + 1]])", vec![vec![false]]),
        // WAW: row 0 written every iteration.
        ("def main(x: R[5], c: R) -> R[5] = loop (y = x) for i < 3 do scatter_into(y, [0], [c])", vec![vec![false]]),
        // A whole-array use.
        ("def main(x: R[5]) -> R[5] = loop (y = x) for i < 4 do scatter_into(y, [i + 1], [sum(y)])", vec![vec![false]]),
        // An index that is not a static function of the counter.
        ("def main(x: R[5], k: Z) -> R[5] = loop (y = x) for i < 4 do scatter_into(y, [i + 1], [y[k]])", vec![vec![false]]),
        // Unchanged components always; scalars never.
        ("def main(x: R[3], a: R) -> R = (loop ((s, w) = (a, x)) for i < 3 do (s * sum(w), w)).0", vec![vec![false, true]]),
        // A tuple accumulator: the array reached through projections.
        ("def main(x: R[4], a: R) -> R = let r = loop (t = (x, a)) for i < 3 do (scatter_into(t.0, [i + 1], [t.0[i] * t.1]), t.1 + t.0[i]) in r.1 + sum(r.0)", vec![vec![true, false]]),
        // Two write positions per iteration, disjoint over all iterations.
        ("def main(x: R[7]) -> R[7] = loop (y = x) for i < 3 do scatter_into(y, [2 * i + 1, 2 * i + 2], [y[2 * i], y[2 * i] * 2.0])", vec![vec![true]]),
        // A loop nested in a map: its own plan.
        ("def main(x: R[2, 3]) -> R[2, 3] = map(r => loop (y = r) for i < 2 do scatter_into(y, [i + 1], [y[i] * y[0]]), x)", vec![vec![true]]),
    ];
    for (src, want) in cases {
        assert_eq!(plan(src), want, "{src}");
    }
}

/// `vjp` under every policy equals the reference's exactly, for the `once` cases too.
#[test]
fn once_gives_the_reference_answers_on_hand_written_loops() {
    let cases = [
        ("def main(x: R[5], c: R) -> R[5] = loop (y = x) for i < 4 do scatter_into(y, [i + 1], [y[i] * c + x[i]])", vec!["[1, 2, -1, 1/2, 3]", "-2/3"]),
        ("def main(x: R[8]) -> R[8] = loop (y = x) for i < 3 do scatter_into(y, [2 * i + 2], [y[2 * i + 1] * y[0]])", vec!["[1, 2, -1, 1/2, 3, 1, 2, 5]"]),
        ("def main(x: R[4], a: R) -> R = let r = loop (t = (x, a)) for i < 3 do (scatter_into(t.0, [i + 1], [t.0[i] * t.1]), t.1 + t.0[i]) in r.1 * sum(r.0)", vec!["[1, 2, -1, 1/2]", "3/2"]),
        ("def main(x: R[7]) -> R[7] = loop (y = x) for i < 3 do scatter_into(y, [2 * i + 1, 2 * i + 2], [y[2 * i], y[2 * i] * y[0]])", vec!["[1, 2, -1, 1/2, 3, 1, 2]"]),
        ("def main(x: R[2, 3]) -> R[2, 3] = map(r => loop (y = r) for i < 2 do scatter_into(y, [i + 1], [y[i] * y[0]]), x)", vec!["[[1, 2, 3], [-1, 1/2, 2]]"]),
        ("def main(x: R[3, 2], c: R) -> R[3, 2] = loop (y = x) for i < 2 do scatter_into(y, [i + 1], [y[i] * c])", vec!["[[1, 2], [3, -1], [1/2, 2]]", "3"]),
    ];
    let opts = EvalOptions::default();
    for (src, lits) in cases {
        let f = load(src);
        let xs = inputs(&f, &lits);
        let ct = direction(&Value::<Rat>::zeros(&f.ret), 3);
        let want = Answer::Gradient(reference::vjp(&f, &xs, &ct, &opts).unwrap());
        assert!(
            plan(src).iter().any(|l| l.iter().any(|b| *b)),
            "the rule does not fire: {src}"
        );
        for c in [
            Checkpoint::Every,
            Checkpoint::Once,
            Checkpoint::StripMine(2),
        ] {
            let got = ask(soac(c).as_ref(), &f, &xs, &Query::Vjp(ct.clone()), &opts).unwrap();
            assert_eq!(got, want, "{c}: {src}");
        }
    }
}

#[test]
fn once_gives_the_reference_answers_on_the_golden_programs() {
    let opts = EvalOptions::default();
    let e = soac(Checkpoint::Once);
    let (mut checked, mut with_once) = (0, 0);
    for g in goldens() {
        let name = g.path.display().to_string();
        if g.f64 || !g.f.params.iter().any(|p| p.ty.has_reals()) {
            continue;
        }
        let ct = direction(&Value::<Rat>::zeros(&g.f.ret), 5);
        let want = reference::vjp(&g.f, &g.inputs, &ct, &opts);
        let got = ask(e.as_ref(), &g.f, &g.inputs, &Query::Vjp(ct.clone()), &opts);
        match (got, want) {
            (Ok(a), Ok(b)) => assert_eq!(a, Answer::Gradient(b), "{name}"),
            (Err(a), Err(b)) => assert_eq!(a.kind, b.kind, "{name}: {a} / {b}"),
            (Err(a), _) if a.kind == ErrorKind::Resource => continue,
            (a, b) => panic!("{name}: {a:?} vs {b:?}"),
        }
        checked += 1;
        let plans = reverse::once_plan(&g.f).unwrap();
        with_once += usize::from(plans.iter().any(|l| l.once.iter().any(|(_, b)| *b)));
    }
    eprintln!("checkpoint once: {checked} golden programs checked, {with_once} with a loop checkpointed once");
    assert!(checked >= 60, "{checked}");
    // The golden loader skips programs with size parameters; the sized in-place loop
    // (`s6_2_inplace_memory.adl`) is checked at several sizes below.
    assert!(with_once >= 1, "{with_once}");
}

/// The `mem` of the gradient program (cotangent ones) of the golden in-place update loop
/// of seed 004 §6.2 at size `n`, under `c`, and of the primal.
fn mems(n: usize, c: Checkpoint) -> (u64, u64) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../specs/programs/seed004/s6_2_inplace_memory.adl"
    ))
    .unwrap();
    let x: Vec<String> = (1..=n).map(|k| k.to_string()).collect();
    let sizes: adora_core::sizes::Sizes = [("n".to_string(), n)].into_iter().collect();
    let f = adora_core::sizes::load_sized(&text, "main", &sizes).unwrap();
    let xs = inputs(&f, &[&format!("[{}]", x.join(", ")), "1/2"]);
    let opts = EvalOptions::default();
    let primal = adora_costmodel::measure_with(&f, &xs, &opts).unwrap();
    let dp = soac(c).program(&f, Question::Vjp).unwrap();
    let ones: Value<Rat> = adora_rewrites::engine::program::ones(&f.ret);
    let args = dp.arguments(&f, &xs, Seed::Cotangent(&ones)).unwrap();
    let g = adora_costmodel::measure_with(&dp.function, &args, &opts).unwrap();
    let want = Answer::Gradient(reference::vjp(&f, &xs, &ones, &opts).unwrap());
    let got = ask(soac(c).as_ref(), &f, &xs, &Query::Vjp(ones.clone()), &opts).unwrap();
    assert_eq!(got, want, "n = {n}, {c}");
    if c == Checkpoint::Once {
        assert_eq!(plan_of(&f), vec![vec![true]], "n = {n}");
    }
    (primal.mem, g.mem)
}

#[test]
fn once_makes_the_checkpoint_memory_of_an_in_place_loop_linear() {
    for n in [4, 8, 16, 32] {
        let (primal, every) = mems(n, Checkpoint::Every);
        let (_, once) = mems(n, Checkpoint::Once);
        let n = n as u64;
        // Per-iteration checkpoints: n - 1 copies of the n-element array are live.
        assert!(every >= (n - 1) * n, "n = {n}: every {every}");
        // Once: a constant factor of the primal's memory (3n + 3 scalars).
        assert!(primal <= 3 * n + 3, "n = {n}: primal {primal}");
        assert!(once <= 5 * primal, "n = {n}: once {once}, primal {primal}");
    }
}
