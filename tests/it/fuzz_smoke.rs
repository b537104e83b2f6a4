//! `adora fuzz` (docs/fuzzing.md): a short deterministic run of every target finds
//! nothing and is the same run twice; and the fuzzer's detection itself works, on the
//! hidden self-test targets that panic, abort and hang on some inputs.

use super::support::stdout;
use std::path::PathBuf;
use std::process::{Command, Output};

fn fuzz(test: &str, args: &[&str]) -> (Output, PathBuf) {
    let dir = std::env::temp_dir().join(format!("adora-fuzz-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = Command::new(env!("CARGO_BIN_EXE_adora"))
        .arg("fuzz")
        .args(args)
        .arg("--findings")
        .arg(&dir)
        .output()
        .expect("running adora fuzz");
    (o, dir)
}

/// The finding files written into `dir`, with their contents.
fn findings(dir: &PathBuf) -> Vec<(String, String)> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return vec![];
    };
    let mut v: Vec<(String, String)> = rd
        .map(|e| {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

/// The per-target lines and the count of executions: the part of the report that does
/// not depend on the machine's speed.
fn counts(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.starts_with("  ") || l.starts_with("executions:"))
        .map(|l| l.split("  time:").next().unwrap().to_string())
        .collect()
}

#[test]
fn a_short_run_of_every_target_finds_nothing_and_is_deterministic() {
    let args = ["--runs", "300", "--seed", "2", "--jobs", "1"];
    let (a, dir) = fuzz("smoke-a", &args);
    assert_eq!(
        a.status.code(),
        Some(0),
        "{}{:?}",
        stdout(&a),
        findings(&dir)
    );
    assert!(stdout(&a).contains("findings: 0"), "{}", stdout(&a));
    for t in [
        "parse", "check", "eval", "grad", "jvp", "vjp", "show", "cost",
    ] {
        assert!(
            stdout(&a).contains(&format!("  {t} ")),
            "{t}: {}",
            stdout(&a)
        );
    }
    let (b, _) = fuzz("smoke-b", &args);
    assert_eq!(counts(&stdout(&a)), counts(&stdout(&b)));
    assert!(counts(&stdout(&a)).contains(&"executions: 300".to_string()));
}

#[test]
fn an_injected_panic_is_a_finding_with_a_reproducer() {
    let (o, dir) = fuzz("panic", &["--runs", "40", "--target", "selftest-panic"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let fs = findings(&dir);
    // Deduplicated by location: one file however many executions panicked.
    assert_eq!(fs.len(), 1, "{fs:?}");
    let (name, text) = &fs[0];
    assert!(
        name.starts_with("panic-") && name.ends_with(".adl"),
        "{name}"
    );
    assert!(
        text.contains("fuzzer self-test: an injected panic"),
        "{text}"
    );
    assert!(text.contains("src/fuzz/exec.rs"), "{text}");
    assert!(
        text.contains("-- found by: adora fuzz --seed 0 --target selftest-panic"),
        "{text}"
    );
    assert!(stdout(&o).contains("executions: 40"), "{}", stdout(&o));
}

#[test]
fn an_abort_kills_only_the_worker_and_the_run_goes_on() {
    let (o, dir) = fuzz("abort", &["--runs", "40", "--target", "selftest-abort"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let fs = findings(&dir);
    assert_eq!(fs.len(), 1, "{fs:?}");
    assert!(fs[0].0.starts_with("abort-"), "{fs:?}");
    assert!(fs[0].1.contains("the worker died"), "{fs:?}");
    // Every execution is accounted for: those after an abort ran in a new worker.
    assert!(stdout(&o).contains("executions: 40"), "{}", stdout(&o));
}

#[test]
fn a_hanging_execution_is_killed_and_recorded() {
    // A corpus of its own: which executions hang depends on the lengths of the mutated
    // programs, so the default corpus (specs/programs, which grows) would make the test
    // depend on the golden programs of the day (with seed 0 and the corpus of 154
    // programs, none of the 30 executions hung).
    let corpus =
        std::env::temp_dir().join(format!("adora-fuzz-{}-hang-corpus", std::process::id()));
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::write(
        corpus.join("a.adl"),
        "def main(x: R[3]) -> R = sum(x * x)\n",
    )
    .unwrap();
    std::fs::write(
        corpus.join("b.adl"),
        "def main(x: R, y: R) -> R = x * y + 1\n",
    )
    .unwrap();
    let (o, dir) = fuzz(
        "hang",
        &[
            "--runs",
            "30",
            "--target",
            "selftest-hang",
            "--timeout",
            "1",
            "--corpus",
            corpus.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let fs = findings(&dir);
    assert_eq!(fs.len(), 1, "{fs:?}");
    assert!(fs[0].0.starts_with("slow-"), "{fs:?}");
    assert!(stdout(&o).contains("executions: 30"), "{}", stdout(&o));
}

#[test]
fn an_unknown_target_is_bad_usage() {
    let (o, _) = fuzz("unknown", &["--runs", "1", "--target", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown fuzz target `nope`"));
}
