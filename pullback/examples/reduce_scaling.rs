//! Prints the steps and the wall time of reverse mode by reduction on the expression-swell
//! family `x_{k+1} = x_k · x_k` (Mak and Ong, §2.1; docs/engines/pullback.md, f.9) and on
//! let chains `x_{k+1} = x_k + 1`, so the cost argument of
//! docs/engines/pullback-reduction.md ("Counters and complexity") can be checked by eye:
//! `cargo run -p adora-pullback --example reduce_scaling [MAX_LETS]`.

use adora_pullback::ad;
use adora_pullback::reduce::Reducer;
use adora_pullback::syntax::{FnSym, Fresh, Term, Ty};
use adora_semantics::Rat;
use std::time::Instant;

/// `\x. let x1 = f (x, c) in … in xk` with `c = x_{i-1}` (squaring) or `c = 1` (adding).
fn family(k: usize, square: bool) -> Term {
    let mut fresh = Fresh::starting_at(1);
    let x = fresh.var("x");
    let vars: Vec<_> = (1..=k).map(|i| fresh.var(&format!("x{i}"))).collect();
    let mut body = Term::var(&vars[k - 1]);
    for i in (0..k).rev() {
        let prev = Term::var(if i == 0 { &x } else { &vars[i - 1] });
        let (f, other) = if square {
            (FnSym::Mul, prev.clone())
        } else {
            (FnSym::Add, Term::int(1))
        };
        body = Term::let_(
            &vars[i],
            Term::app(Term::sym(f), Term::pair(prev, other)),
            body,
        );
    }
    Term::lam(&x, body)
}

/// The fastest of five runs (the machine is shared; the minimum is the least noisy).
fn measure(f: &Term) -> (u64, u128) {
    let one = [Rat::from_integer(1.into())];
    let mut best = u128::MAX;
    let mut steps = 0;
    for _ in 0..5 {
        let t0 = Instant::now();
        let r = ad::grad(f, &Ty::Real, &one, &Reducer::new()).expect("reduces");
        best = best.min(t0.elapsed().as_micros());
        steps = r.outcome.stats.steps;
    }
    (steps, best)
}

fn main() {
    let max: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1024);
    println!("family  lets  steps  micros  micros/let");
    // Every k up to 16 (the f.9 family of the brief), then doubling up to `max`.
    let ks = (1..=16.min(max)).chain((5..).map(|e| 1usize << e).take_while(|&k| k <= max));
    for k in ks {
        for (name, square) in [("swell", true), ("chain", false)] {
            let (steps, us) = measure(&family(k, square));
            println!(
                "{name:6} {k:5} {steps:6} {us:7} {:10.1}",
                us as f64 / k as f64
            );
        }
    }
}
