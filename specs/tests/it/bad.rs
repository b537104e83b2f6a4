//! Runs every bad program under `specs/bad/` and checks its error code, position and
//! message; reports ALL mismatches at once.

use adora_specs::{run_bad_corpus, specs_dir};

#[test]
fn bad_programs_fail_as_stated() {
    let report = run_bad_corpus(&specs_dir().join("bad"));
    assert!(report.cases > 0, "no bad programs found");
    assert!(
        report.failures.is_empty(),
        "{} of {} bad programs misbehaved:\n\n{}",
        report.failures.len(),
        report.cases,
        report.failures.join("\n\n")
    );
}
