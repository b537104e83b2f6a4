//! The default step limit (issue 19): small enough that the limit is reported within
//! seconds (docs/language.md, "Resource limits"); the golden programs and the property
//! suite run under it (`cargo test -p adora-specs`, `adora check`).
use adora_semantics::eval::{EvalOptions, DEFAULT_MAX_STEPS};

#[test]
fn the_default_step_limit_is_ten_million() {
    // it was 2 · 10^8: `loop (a = x) for i < 1000000000 do a + 1` took 61 s to stop
    assert_eq!(DEFAULT_MAX_STEPS, 10_000_000);
    assert_eq!(EvalOptions::default().max_steps, DEFAULT_MAX_STEPS);
}
