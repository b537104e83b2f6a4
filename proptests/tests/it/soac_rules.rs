//! The `soac/rule-*` properties (docs/engines/soac-rules.md), a modest number of cases each
//! with a fixed seed.

fn check(name: &str) {
    crate::properties::check_seeded(name, 60, 0x5040_C0DE);
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
