//! The claims of seed 000 §5.1 about the bot rule system
//! (`adora_proptests::props::bot_claims`; specs/theorems.md S000-X5.1d, X5.1f, T5.1-3),
//! a modest number of cases each with a fixed seed.

use adora_proptests::catalogue::find;
use adora_proptests::runner::{run_property, CheckConfig};

fn check(name: &str, cases: u32) {
    let p = find(name).unwrap_or_else(|| panic!("no property {name}"));
    let cfg = CheckConfig {
        cases,
        seed: 0x00B0_7C1A,
        filter: None,
        jobs: 1,
        size: 1,
    };
    let r = run_property(&p, &cfg);
    println!(
        "{name}: {} cases, {:.2}s, {}",
        r.cases_run,
        r.elapsed.as_secs_f64(),
        r.figure.as_deref().unwrap_or("")
    );
    if r.failures > 0 {
        panic!(
            "property {name} failed:\n{}",
            r.counterexample.unwrap_or_default()
        );
    }
    assert_eq!(r.cases_run, cases, "{name}");
}

#[test]
fn bot_mem_bounded_by_parallel_width() {
    check("bot/mem-non-increasing-except-append-scatter", 300);
}

#[test]
fn bot_confluent() {
    check("bot/confluent", 300);
}

#[test]
fn bot_normal_form_irreducible() {
    check("bot/normal-form-irreducible", 300);
}
