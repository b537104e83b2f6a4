//! The loop-checkpointing and framework-rule properties of engine `soac`
//! (`adora_proptests::props::{soac_loops, soac_framework}`), a few hundred cases each with
//! a fixed seed, and their coverage: the rule of each property fires on enough cases.

use adora_proptests::runner::PropertyReport;

const SEED: u64 = 0x00AD_0A5E_ED04;

fn check(name: &str, cases: u32) -> PropertyReport {
    crate::properties::check_seeded(name, cases, SEED)
}

#[test]
fn loop_checkpoint_once_sound() {
    let r = check("soac/loop-checkpoint-once-sound", 300);
    assert_eq!(r.vacuous, 0);
}

#[test]
fn loop_checkpoint_cost() {
    let r = check("soac/loop-checkpoint-cost", 200);
    assert_eq!(r.vacuous, 0);
}

#[test]
fn stripmine_tradeoff() {
    let r = check("soac/stripmine-tradeoff", 300);
    assert_eq!(r.vacuous, 0);
}

/// The rule properties are vacuous where their rule does not fire: at least a tenth of
/// the generated programs must exercise each.
#[test]
fn rule_properties_and_their_coverage() {
    for name in [
        "soac/rule-loop-sound",
        "soac/rule-index-sound",
        "soac/rule-if-sound",
    ] {
        let r = check(name, 300);
        assert!(
            r.vacuous <= 270,
            "{name}: only {} of 300 cases fire the rule",
            300 - r.vacuous
        );
    }
}

#[test]
fn adjoint_final_before_use() {
    let r = check("soac/adjoint-final-before-use", 300);
    assert!(r.vacuous < 150, "{}", r.vacuous);
}

#[test]
fn while_to_for_preserves_semantics() {
    let r = check("soac/while-to-for-preserves-semantics", 200);
    assert_eq!(r.vacuous, 0);
}
