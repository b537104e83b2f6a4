//! Runs every golden program under `specs/programs/` through the evaluator and every
//! engine, and reports ALL disagreements with the headers at once.

use adora_specs::{run_golden_corpus, specs_dir, Engine, Reference};

#[test]
fn golden_programs_agree_with_their_headers() {
    let engines: [&dyn Engine; 1] = [&Reference];
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
    assert!(
        report.skipped.is_empty(),
        "the reference declined:\n{}",
        report.skipped.join("\n")
    );
}
