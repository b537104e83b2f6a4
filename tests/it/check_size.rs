//! `adora check --size K` (docs/check.md): the generators' programs grow with `K`, the
//! summary reports their sizes, the largest e-graph and the slowest case, and a size that
//! is not a positive number is bad usage (exit 2).

use crate::support::{adora, stderr, stdout};

/// The mean program size (nodes) of one property's cases at generator size `k`, from the
/// JSON summary.
fn mean_nodes(filter: &str, k: &str) -> f64 {
    let o = adora(&[
        "check", "--cases", "12", "--seed", "5", "--jobs", "1", "--filter", filter, "--size", k,
        "--format", "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON summary");
    assert_eq!(v["size"].as_u64(), Some(k.parse().expect("a number")));
    let rows = v["properties"].as_array().expect("properties");
    assert_eq!(rows.len(), 1, "{v}");
    rows[0]["programs"]["mean_nodes"]
        .as_f64()
        .unwrap_or_else(|| panic!("no program sizes in {v}"))
}

#[test]
fn size_scales_the_generated_programs() {
    let p = "lang/print-parse-roundtrip";
    let one = mean_nodes(p, "1");
    let four = mean_nodes(p, "4");
    assert!(
        four > 2.0 * one,
        "mean nodes at --size 1: {one}, at --size 4: {four}"
    );
}

#[test]
fn the_text_summary_reports_sizes_egraphs_and_the_slowest_case() {
    let o = adora(&[
        "check",
        "--cases",
        "3",
        "--seed",
        "2",
        "--filter",
        "bot/preserves-semantics",
        "--size",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("--size 2"),
        "the replay line names the size: {out}"
    );
    let last = out.lines().last().unwrap_or_default();
    for needle in [
        "passed",
        "programs: mean ",
        "largest e-graph ",
        "slowest case ",
    ] {
        assert!(
            last.contains(needle),
            "`{needle}` missing in the last line: {last}"
        );
    }
    assert!(
        !last.contains("largest e-graph 0 e-nodes"),
        "bot's properties run egg: {last}"
    );
}

#[test]
fn a_size_that_is_not_a_positive_number_is_bad_usage() {
    for k in ["0", "-1", "big", "1.5"] {
        let o = adora(&["check", "--cases", "1", "--filter", "lang/", "--size", k]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "--size {k}: {err}");
        assert!(err.contains("--size"), "--size {k}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
