//! One test per property of the catalogue: a modest number of cases with a fixed seed,
//! failing with the shrunk counterexample (program, inputs, replay command).

use adora_proptests::catalogue::{catalogue, find};
use adora_proptests::runner::{run_catalogue, run_property, CheckConfig, PropertyReport};

const SEED: u64 = 0x00AD_0A5E_ED00;

/// Runs property `name` for `cases` cases from `seed` and prints its report line (cases,
/// vacuous cases, time, figure), without judging the result (the helper of test files
/// that collect several failures).
pub fn report_seeded(name: &str, cases: u32, seed: u64) -> PropertyReport {
    let p = find(name).unwrap_or_else(|| panic!("no property {name}"));
    let r = run_property(
        &p,
        &CheckConfig {
            cases,
            seed,
            filter: None,
            jobs: 1,
            size: 1,
        },
    );
    println!(
        "{name}: {} cases ({} vacuous), {:.2}s, {}",
        r.cases_run,
        r.vacuous,
        r.elapsed.as_secs_f64(),
        r.figure.as_deref().unwrap_or("")
    );
    r
}

/// Runs property `name` for `cases` cases from `seed`, printing its report line and
/// panicking with the shrunk counterexample; returns the report (for tests that also
/// look at its vacuous cases or figure). The helper every test file of properties uses.
pub fn check_seeded(name: &str, cases: u32, seed: u64) -> PropertyReport {
    let r = report_seeded(name, cases, seed);
    if r.failures > 0 {
        panic!(
            "property {name} failed:\n{}",
            r.counterexample.unwrap_or_default()
        );
    }
    assert_eq!(r.cases_run, cases, "{name}");
    r
}

fn check(name: &str, cases: u32) {
    check_seeded(name, cases, SEED);
}

#[test]
fn lang_print_parse_roundtrip() {
    check("lang/print-parse-roundtrip", 200);
}

#[test]
fn lang_generated_well_typed() {
    check("lang/generated-well-typed", 200);
}

#[test]
fn lang_elaborate_idempotent() {
    check("lang/elaborate-idempotent", 200);
}

#[test]
fn sem_exact_f64_agree() {
    check("sem/exact-f64-agree", 200);
}

#[test]
fn sem_jvp_linear() {
    check("sem/jvp-linear", 200);
}

#[test]
fn sem_grad_equals_basis_jvps() {
    check("sem/grad-equals-basis-jvps", 200);
}

#[test]
fn sem_adjoint_law() {
    check("sem/adjoint-law", 200);
}

#[test]
fn sem_total_no_panic() {
    check("sem/total-no-panic", 200);
}

#[test]
fn sem_deterministic() {
    check("sem/deterministic", 200);
}

#[test]
fn cost_let_sharing() {
    check("cost/let-sharing", 200);
}

#[test]
fn cost_dot_closed_form() {
    check("cost/dot-closed-form", 200);
}

#[test]
fn cost_work_span_laws() {
    check("cost/work-span-laws", 200);
}

#[test]
fn cost_scatter_work_independent_of_dest() {
    check("cost/scatter-work-independent-of-dest", 60);
}

/// The names other documents cite are all present, unique and well formed.
#[test]
fn catalogue_names() {
    let names: Vec<&str> = catalogue().iter().map(|p| p.name).collect();
    for fixed in [
        "lang/print-parse-roundtrip",
        "lang/generated-well-typed",
        "lang/elaborate-idempotent",
        "sem/exact-f64-agree",
        "sem/jvp-linear",
        "sem/grad-equals-basis-jvps",
        "sem/adjoint-law",
        "sem/total-no-panic",
        "cost/let-sharing",
        "cost/dot-closed-form",
        "cost/work-span-laws",
        "sem/deterministic",
    ] {
        assert!(names.contains(&fixed), "{fixed} missing");
    }
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "duplicate names");
    for p in catalogue() {
        let (area, rest) = p.name.split_once('/').expect("area/name");
        assert!(!area.is_empty() && !rest.is_empty());
        assert!(
            rest.chars()
                // `.` for theorem numbers (`linear/thm-4.1-...`)
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.'),
            "{}",
            p.name
        );
        assert!(!p.source.is_empty() && !p.description.is_empty());
    }
}

/// Results do not depend on the number of worker threads.
#[test]
fn catalogue_runs_deterministically_in_parallel() {
    let cfg = CheckConfig {
        cases: 6,
        seed: 7,
        filter: Some("lang/".into()),
        jobs: 1,
        size: 1,
    };
    let progress = std::sync::atomic::AtomicU32::new(0);
    let count = |_: &str, k: u32| {
        progress.fetch_add(k, std::sync::atomic::Ordering::SeqCst);
    };
    let one = run_catalogue(&cfg, &count);
    let two = run_catalogue(
        &CheckConfig {
            jobs: 2,
            ..cfg.clone()
        },
        &count,
    );
    assert_eq!(one.len(), 3);
    assert_eq!(
        progress.load(std::sync::atomic::Ordering::SeqCst),
        2 * 3 * 6
    );
    for (a, b) in one.iter().zip(&two) {
        assert_eq!(
            (a.name, a.cases_run, a.failures, &a.figure),
            (b.name, b.cases_run, b.failures, &b.figure)
        );
    }
}

#[test]
fn dual_grad_equals_reference() {
    check("dual/grad-equals-reference", 200);
}

#[test]
fn dual_program_rechecks() {
    // The gradient program's agreement with the reference (formerly
    // `dual/symbolic-equals-reference`) is part of `dual/grad-equals-reference`, which
    // checks every route of the engine; this checks the derivative programs themselves.
    check("dual/program-rechecks", 200);
}

#[test]
fn dual_scalar_grad_equals_reference() {
    check("dual-scalar/grad-equals-reference", 200);
}

#[test]
fn dual_adjoint_law() {
    check("dual/adjoint-law", 200);
}

#[test]
fn dual_separated_form() {
    check("dual/separated-form", 200);
}

#[test]
fn dual_one_hot_bound() {
    check("dual/one-hot-bound", 200);
}

#[test]
fn dual_delta_size_constant() {
    check("dual/delta-size-constant", 30);
}

#[test]
fn dual_grad_program_build_free() {
    check("dual/grad-program-build-free", 200);
}

#[test]
fn kit_unique_binders() {
    check("kit/unique-binders", 120);
}

#[test]
fn dual_cheap_gradient() {
    check("dual/cheap-gradient", 200);
}
