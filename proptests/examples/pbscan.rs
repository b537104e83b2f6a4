//! Step counts of the seed-003 properties' reductions over a range of generator seeds
//! (issue 14, docs/engines/pullback.md, "Properties"): for each seed, the strategy steps
//! (`Reducer::step`) of `pb(f, omega) s` and the steps of its premises, then the
//! distribution, the maximum per nesting depth of `pb`/`J` in the generated function, and
//! the worst seeds with their rule counts:
//! `cargo run --release -p adora-proptests --example pbscan -- [FROM] [TO] [WORST]`
//! (`PBSCAN_DEPTH=d` shows only the worst seeds of depth `d`). With `PBSCAN_TERM=<term>` it
//! prints the strategy steps of that closed term instead, one `n [rule] redex` line each
//! (`PBSCAN_WHOLE=1`: the whole term after the step).

use adora_proptests::props::pullback::{case_of, grad_term};
use adora_pullback::print;
use adora_pullback::reduce::Reducer;
use adora_pullback::syntax::Fresh;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Strategy steps at which a seed's scan stops.
const CAP: usize = 20_000;

fn main() {
    if let Ok(src) = std::env::var("PBSCAN_TERM") {
        trace(&src);
        return;
    }
    let mut args = std::env::args().skip(1);
    let from: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let to: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(4000);
    let worst: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let r = Reducer::new().step_limit(200_000).size_limit(20_000);
    let mut rows = Vec::new();
    for seed in from..to {
        let t = grad_term(&case_of(&[seed]));
        let mut fresh = Fresh::above(&t);
        let mut cur = t.clone();
        let mut n = 0usize;
        let mut by: BTreeMap<&'static str, usize> = BTreeMap::new();
        let start = Instant::now();
        let mut end = "value";
        loop {
            if n >= CAP || start.elapsed() > Duration::from_secs(10) {
                end = "cap";
                break;
            }
            match r.step(&cur, &mut fresh) {
                Ok(None) => break,
                Ok(Some((rule, next))) => {
                    n += 1;
                    *by.entry(rule.name()).or_insert(0) += 1;
                    cur = next;
                }
                Err(d) => {
                    eprintln!("seed {seed}: {}", d.message);
                    end = "error";
                    break;
                }
            }
        }
        rows.push((n, seed, end, start.elapsed(), by, t));
    }
    let mut ns: Vec<usize> = rows.iter().map(|r| r.0).collect();
    ns.sort_unstable();
    let q = |p: f64| ns[((ns.len() - 1) as f64 * p) as usize];
    println!(
        "seeds {from}..{to}: median {} p90 {} p99 {} p99.9 {} max {}; over 2000: {}; over 500: {}",
        q(0.5),
        q(0.9),
        q(0.99),
        q(0.999),
        q(1.0),
        ns.iter().filter(|&&n| n > 2000).count(),
        ns.iter().filter(|&&n| n > 500).count()
    );
    let mut by_depth: BTreeMap<usize, (usize, usize, usize)> = BTreeMap::new();
    for (n, seed, ..) in &rows {
        let d = depth(&case_of(&[*seed]).f);
        let e = by_depth.entry(d).or_insert((0, 0, 0));
        e.0 += 1;
        e.1 = e.1.max(*n);
        e.2 += usize::from(*n > 2000);
    }
    for (d, (count, max, over)) in by_depth {
        println!("nesting depth {d}: {count} seeds, max {max} steps, {over} over 2000");
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    let only: Option<usize> = std::env::var("PBSCAN_DEPTH")
        .ok()
        .and_then(|s| s.parse().ok());
    let shown = rows
        .iter()
        .filter(|r| only.is_none_or(|d| depth(&case_of(&[r.1]).f) == d));
    for (n, seed, end, time, by, t) in shown.take(worst) {
        println!(
            "seed {seed}: {n} steps ({end}, {time:?}) {by:?}\n  {}",
            print::term(t)
        );
    }
}

/// The strategy steps of the term `src` (`PBSCAN_TERM`), one line each.
fn trace(src: &str) {
    let t = adora_pullback::parse::term_closed(src).expect("a closed term");
    let r = Reducer::new().step_limit(200_000).size_limit(20_000);
    let mut fresh = Fresh::above(&t);
    let mut cur = t;
    let mut n = 0;
    let whole = std::env::var("PBSCAN_WHOLE").is_ok();
    while let Some((rule, next)) = r.step(&cur, &mut fresh).expect("a step") {
        n += 1;
        if whole {
            println!("{n} [{}] {}", rule.name(), print::term(&next));
        } else {
            let (_, redex) = adora_pullback::reduce::decompose(&cur).expect("a redex");
            println!("{n} [{}] {}", rule.name(), print::term(&redex));
        }
        cur = next;
        if n >= CAP {
            break;
        }
    }
}

/// The nesting depth of pullbacks and Jacobians in `t`.
fn depth(t: &adora_pullback::syntax::Term) -> usize {
    use adora_pullback::syntax::TermKind as K;
    match &t.kind {
        K::Pb(a, b) | K::Jac(a, b) => 1 + depth(a).max(depth(b)),
        K::Lam(_, _, b) | K::Proj(b, _) => depth(b),
        K::Let(_, a, b) | K::App(a, b) | K::Pair(a, b) | K::Dual(a, b) => depth(a).max(depth(b)),
        K::Sum(ts) => ts.iter().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}
