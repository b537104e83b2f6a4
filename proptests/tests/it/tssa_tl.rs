//! The properties of the tensor language's foundation (`proptests/src/props/tssa_tl.rs`),
//! a few hundred cases each with a fixed seed.

use adora_proptests::catalogue::find;
use adora_proptests::runner::{run_property, CheckConfig};

fn check(name: &str, cases: u32) {
    let p = find(name).unwrap_or_else(|| panic!("no property {name}"));
    let r = run_property(
        &p,
        &CheckConfig {
            cases,
            seed: 0x001_7E45,
            filter: None,
            jobs: 1,
            size: 1,
        },
    );
    if r.failures > 0 {
        panic!(
            "property {name} failed:\n{}",
            r.counterexample.unwrap_or_default()
        );
    }
    assert_eq!(r.cases_run, cases);
}

#[test]
fn print_parse_roundtrip() {
    check("tl/print-parse-roundtrip", 300);
}

#[test]
fn eval_total() {
    check("tl/eval-total", 300);
}

#[test]
fn let_substitution() {
    check("sem/tl-let-substitution", 300);
}

#[test]
fn iverson_discount() {
    check("cost/iverson-discount", 300);
}

#[test]
fn let_sharing() {
    check("cost/tl-let-sharing", 300);
}

#[test]
fn brute_force() {
    check("cost/tl-brute-force", 300);
}
