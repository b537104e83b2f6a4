//! The `soac/rule-*` properties (docs/engines/soac-rules.md), a modest number of cases each
//! with a fixed seed.

use adora_proptests::catalogue::find;
use adora_proptests::runner::{run_property, CheckConfig};

fn check(name: &str) {
    let p = find(name).unwrap_or_else(|| panic!("no property {name}"));
    let cfg = CheckConfig {
        cases: 60,
        seed: 0x5040_C0DE,
        filter: None,
        jobs: 1,
        size: 1,
    };
    let r = run_property(&p, &cfg);
    assert_eq!(r.cases_run, 60, "{name}");
    if r.failures > 0 {
        panic!(
            "property {name} failed:\n{}",
            r.counterexample.unwrap_or_default()
        );
    }
}

#[test]
fn every_rule_is_sound() {
    for name in [
        "soac/rule-reduce-sound",
        "soac/rule-reduce-plus-sound",
        "soac/rule-reduce-mul-sound",
        "soac/rule-reduce-minmax-sound",
        "soac/rule-scan-sound",
        "soac/rule-scan-plus-sound",
        "soac/rule-reduce-by-index-sound",
        "soac/rule-reduce-by-index-general-sound",
        "soac/rule-scatter-sound",
    ] {
        check(name);
    }
}
