//! The claims of seed 000 §5.1 about the bot rule system
//! (`adora_proptests::props::bot_claims`; specs/theorems.md S000-X5.1d, X5.1f, T5.1-3),
//! a modest number of cases each with a fixed seed.

fn check(name: &str, cases: u32) {
    crate::properties::check_seeded(name, cases, 0x00B0_7C1A);
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
