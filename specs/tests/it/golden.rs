//! Runs every golden program under `specs/programs/` through the evaluator and every
//! registered engine (`adora_rewrites::engine::registry`), and reports ALL disagreements
//! with the headers at once. Engines may decline programs outside their fragment (recorded
//! as skips); the reference may not.

use adora_rewrites::engine::registry;
use adora_specs::{run_golden_corpus, specs_dir, Engine};

#[test]
fn golden_programs_agree_with_their_headers() {
    let boxed = registry();
    let engines: Vec<&dyn Engine> = boxed.iter().map(|e| e.as_ref()).collect();
    assert!(
        engines.len() >= 4,
        "reference, dual, dual-scalar and linear are registered"
    );
    let report = run_golden_corpus(&specs_dir().join("programs"), &engines);
    assert!(report.cases > 0, "no golden programs found");
    assert!(
        report.failures.is_empty(),
        "{} failure(s) in {} golden programs ({} checks):\n\n{}",
        report.failures.len(),
        report.cases,
        report.checked,
        report.failures.join("\n\n")
    );
    // the reference accepts every program in every mode
    let reference_skips: Vec<&String> = report
        .skipped
        .iter()
        .filter(|s| s.starts_with("reference:"))
        .collect();
    assert!(
        reference_skips.is_empty(),
        "the reference declined:\n{reference_skips:?}"
    );
    eprintln!(
        "{} golden programs, {} checks, {} engine skips (outside an engine's fragment)",
        report.cases,
        report.checked,
        report.skipped.len()
    );
}
