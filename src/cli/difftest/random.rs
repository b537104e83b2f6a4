//! `adora difftest --random N --seed S`: N programs from the property generators
//! (docs/check.md, "Generators") exported and compared like golden programs, a table per
//! construct, and every disagreement shrunk to a small program (docs/oracle.md,
//! "Random programs").
//!
//! Case `k` of seed `S` is the generator's program for the seed `splitmix64(S, k)`:
//! fragments `scalar`, `bulk`, `soac` in turn, three of four with a real scalar result (so
//! the gradient is compared too), all restricted to `f64`-exact programs (dyadic literals
//! and inputs, division by 2, 4 or 0.5 only, non-negative `pow` exponents), on which an
//! IEEE double computation is exact unless a value needs more than 53 significant bits —
//! so an error is a bug or a convention, not rounding. A disagreement shrinks (the
//! generators' shrinker, up to `--shrink-rounds` (default 60) rounds of up to [`SHRINK_WIDTH`]
//! candidates each, all of one round run in one Python process) while the same output
//! disagrees, and is saved as a golden-format file with the commands that reproduce
//! both sides.

use super::case::{prepare, Outcome, Prep};
use super::{run_all, Side, Table};
use adora_proptests::gen::coverage::constructs;
use adora_proptests::gen::shrink::candidates;
use adora_proptests::gen::{generate, source, Case, Fragment, GenSpec, RetKind};
use adora_proptests::values::literal;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Programs per Python process.
const CHUNK: usize = 200;
/// Most candidates tried per shrinking round (the shrinker lists the most aggressive first).
pub const SHRINK_WIDTH: usize = 48;

/// The options of `--random`.
#[derive(Clone, Debug)]
pub struct RandomArgs {
    /// How many programs.
    pub count: usize,
    /// The seed.
    pub seed: u64,
    /// Where shrunk disagreements are saved.
    pub save: PathBuf,
    /// Most shrinking rounds per disagreement.
    pub shrink_rounds: usize,
}

/// The generator's seed of case `k`: SplitMix64 of `seed` advanced `k + 1` times.
pub fn case_seed(seed: u64, k: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(k + 1));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What case `k` generates.
pub fn spec(k: usize) -> GenSpec {
    let fragment = Fragment::ALL[k % 3];
    let size = if fragment == Fragment::Scalar { 28 } else { 24 };
    let ret = if (k / 3) % 4 == 3 {
        RetKind::Any
    } else {
        RetKind::RealScalar
    };
    GenSpec::new(fragment).size(size).ret(ret).f64_exact()
}

/// The case as a golden-format file: its inputs as `-- input:` lines, then its source.
pub fn case_text(case: &Case) -> String {
    let mut out = String::new();
    for (p, v) in case.main().params.iter().zip(&case.inputs) {
        out.push_str(&format!("-- input: {} = {}\n", p.name, literal(v)));
    }
    out.push_str(&source(&case.program));
    out
}

/// Runs `args.count` random programs; whether one disagreed.
pub fn run(side: Side, args: &RandomArgs) -> bool {
    let target = side.target;
    let mut by_fragment = Table::default();
    let mut by_construct = Table::default();
    let mut by_output = Table::default();
    let mut found: Vec<String> = Vec::new();
    let mut refusals: BTreeMap<String, usize> = BTreeMap::new();
    let mut start = 0;
    while start < args.count {
        let end = (start + CHUNK).min(args.count);
        let cases: Vec<Case> = (start..end)
            .map(|k| generate(&spec(k), case_seed(args.seed, k as u64)))
            .collect();
        let outcomes = evaluate(side, &cases);
        for (i, (case, outcome)) in cases.iter().zip(outcomes).enumerate() {
            let k = start + i;
            by_fragment.add(case.fragment.name(), &outcome);
            for c in constructs(&case.program) {
                by_construct.add(&c, &outcome);
            }
            for (what, o) in outputs(&outcome) {
                by_output.add(&what, &o);
            }
            if let Outcome::Refused(why) = &outcome {
                *refusals.entry(reason(why)).or_default() += 1;
            }
            if let Some(kind) = outcome.kind() {
                found.push(report(side, args, k, case, &outcome, &kind));
            }
        }
        eprintln!(
            "difftest: {end} of {} programs, {} disagreements",
            args.count,
            by_fragment.disagreements()
        );
        start = end;
    }
    println!(
        "against {}, {} random programs, seed {}:\n",
        target.name(),
        args.count,
        args.seed
    );
    by_fragment.print("fragment", true);
    println!();
    by_construct.print("construct", false);
    println!();
    by_output.print("output", false);
    if !refusals.is_empty() {
        println!("\nrefused, by reason:");
        for (why, n) in &refusals {
            println!("{n:>6}  {why}");
        }
    }
    for f in &found {
        println!("\n{f}");
    }
    by_fragment.disagreements() > 0
}

/// The kinds of output an outcome compared (`value`, `gradient`, `jvp`, `vjp`), each with
/// its own outcome: an agreement with its largest error in ULPs, or the disagreement.
fn outputs(o: &Outcome) -> Vec<(String, Outcome)> {
    let first = |what: &str| what.split([' ', '[', ':']).next().unwrap_or("").to_string();
    match o {
        Outcome::Agree(_, lines) => {
            let mut out: Vec<(String, Outcome)> = Vec::new();
            for seg in lines.split("; ") {
                let ulps = seg
                    .split(" max ")
                    .nth(1)
                    .and_then(|r| r.split(' ').next())
                    .and_then(|u| u.parse::<f64>().ok())
                    .unwrap_or(0.0);
                let kind = first(seg);
                match out.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, Outcome::Agree(u, _))) => *u = u.max(ulps),
                    _ => out.push((kind, Outcome::Agree(ulps, String::new()))),
                }
            }
            out
        }
        Outcome::Disagree(why) => vec![(first(why), o.clone())],
        Outcome::Refused(_) => Vec::new(),
    }
}

/// A refusal's message without its file and position (`case3.adl:2:5: error[…]: …`).
fn reason(why: &str) -> String {
    match why.find("error[") {
        Some(i) => why[i..].to_string(),
        None => why.to_string(),
    }
}

/// The outcomes of `cases`, run in one Python process (refused or skipped cases are
/// refusals).
fn evaluate(side: Side, cases: &[Case]) -> Vec<Outcome> {
    let preps: Vec<Prep> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let f = side.dir.join(format!("case{i}.adl"));
            match std::fs::write(&f, case_text(c)) {
                Ok(()) => prepare(&f, side.target),
                Err(e) => Prep::Decided(Outcome::Disagree(format!("{}: {e}", f.display()))),
            }
        })
        .collect();
    run_all(side, preps.iter())
        .into_iter()
        .map(|o| o.unwrap_or_else(|| Outcome::Refused("not a runnable case".to_string())))
        .collect()
}

/// Shrinks a disagreement of kind `kind`, saves it, and describes it.
fn report(
    side: Side,
    args: &RandomArgs,
    k: usize,
    case: &Case,
    outcome: &Outcome,
    kind: &str,
) -> String {
    let (small, why, rounds) = shrink(side, case, outcome, kind, args.shrink_rounds);
    let text = case_text(&small);
    let file = args
        .save
        .join(format!("{}-s{}-{k}.adl", side.target.name(), args.seed));
    let saved = std::fs::create_dir_all(&args.save)
        .and_then(|()| std::fs::write(&file, &text))
        .map(|()| format!("saved as {}", file.display()))
        .unwrap_or_else(|e| format!("not saved ({}: {e})", file.display()));
    let why = match why {
        Outcome::Disagree(w) => w,
        other => format!("{other:?}"),
    };
    let flags = small.input_flags();
    format!(
        "DISAGREE case {k} ({}, seed {}): {why}\n  shrunk in {rounds} rounds from {} to {} nodes; {saved}:\n{}\n  ours:   adora run {f} {flags} && adora grad {f} {flags}\n  theirs: adora export {f} --to {t} {flags} > m.py && .venv/bin/python m.py",
        small.fragment,
        args.seed,
        case.node_count(),
        small.node_count(),
        text.lines()
            .map(|l| format!("    {l}"))
            .collect::<Vec<_>>()
            .join("\n"),
        f = file.display(),
        t = side.target.name(),
    )
}

/// The smallest case reached by shrinking `case` while the output `kind` disagrees: the
/// case, its outcome, and the rounds taken.
fn shrink(
    side: Side,
    case: &Case,
    outcome: &Outcome,
    kind: &str,
    rounds: usize,
) -> (Case, Outcome, usize) {
    let mut best = (case.clone(), outcome.clone());
    for round in 0..rounds {
        let mut cands = candidates(&best.0);
        cands.truncate(SHRINK_WIDTH);
        if cands.is_empty() {
            return (best.0, best.1, round);
        }
        let outs = evaluate(side, &cands);
        match cands
            .into_iter()
            .zip(outs)
            .find(|(_, o)| o.kind().as_deref() == Some(kind))
        {
            Some(next) => best = next,
            None => return (best.0, best.1, round),
        }
    }
    (best.0, best.1, rounds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_seeds_are_distinct_and_reproducible() {
        let a: Vec<u64> = (0..1000).map(|k| case_seed(7, k)).collect();
        let b: Vec<u64> = (0..1000).map(|k| case_seed(7, k)).collect();
        assert_eq!(a, b);
        let set: std::collections::BTreeSet<u64> = a.iter().copied().collect();
        assert_eq!(set.len(), 1000);
        assert_ne!(case_seed(7, 0), case_seed(8, 0));
    }

    #[test]
    fn a_case_text_is_a_golden_file_with_its_inputs() {
        let c = generate(&spec(1), case_seed(3, 1));
        let text = case_text(&c);
        let parsed = adora_specs::parse_case(std::path::Path::new("c.adl"), &text).unwrap();
        assert_eq!(parsed.inputs.len(), c.inputs.len());
        assert!(parsed.error.is_none());
    }
}
