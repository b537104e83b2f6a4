//! Runs every golden program under `specs/programs/` through the evaluator and every
//! registered engine (`adora_rewrites::engine::registry`), and reports ALL disagreements
//! with the headers at once. Engines may decline programs outside their fragment (recorded
//! as skips); the reference may not.

use adora_rewrites::engine::registry;
use adora_specs::{run_golden_corpus, specs_dir, Engine};

/// Whether the skip record `s` (`FILE: ENGINE: WHAT: MESSAGE`) is engine `engine`'s.
fn by(s: &str, engine: &str) -> bool {
    s.split(": ").nth(1) == Some(engine)
}

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
        .filter(|s| by(s, "reference"))
        .collect();
    assert!(
        reference_skips.is_empty(),
        "the reference declined:\n{reference_skips:?}"
    );
    // engine `soac` covers the whole core language (docs/engines/soac.md): it declines
    // nothing either
    let soac_skips: Vec<&String> = report.skipped.iter().filter(|s| by(s, "soac")).collect();
    assert!(
        soac_skips.is_empty(),
        "engine soac declined:\n{soac_skips:#?}"
    );
    // (the records are read right: engine `dual` declines the seed-004 programs)
    assert!(report.skipped.iter().any(|s| by(s, "dual")));
    eprintln!(
        "{} golden programs, {} checks, {} engine skips (outside an engine's fragment)",
        report.cases,
        report.checked,
        report.skipped.len()
    );
}
