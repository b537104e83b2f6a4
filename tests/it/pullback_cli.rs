//! `adora reduce` and `adora grad|vjp|jvp` on pullback-calculus files (`.adp`,
//! docs/engines/pullback.md): outputs
//! and exit codes with positions for bad input.

use super::support::{adora, stderr, stdout};

const DIR: &str = "specs/programs/pullback";

fn path(name: &str) -> String {
    format!("{DIR}/{name}")
}

#[test]
fn grad_and_reduce_of_a_linear_function() {
    let o = adora(&["grad", &path("f3_identity.adp")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("value: 4\ngradient:\n  x: 1\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn bad_files_exit_2_with_positions() {
    for (file, at, code) in [
        ("bad/syntax.adp", ":6:1", "error[syntax]"),
        ("bad/type.adp", ":5:39", "error[type]"),
        ("bad/unbound.adp", ":5:13", "error[name]"),
    ] {
        for cmd in ["reduce", "grad"] {
            let o = adora(&[cmd, &path(file)]);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{cmd} {file}: {err}");
            assert!(
                err.contains(&format!("{file}{at}")) && err.contains(code),
                "{err}"
            );
        }
    }
    let o = adora(&[
        "reduce",
        "--step-limit",
        "3",
        &path("f1_running_reduce.adp"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("error[resource]"), "{}", stderr(&o));
    let o = adora(&["grad", &path("f2_tuple_vjp.adp")]);
    assert_eq!(o.status.code(), Some(2), "grad of a tuple-valued function");
    let o = adora(&["grad", &path("f3_identity.adp"), "--input", "x=(1, 2)"]);
    assert_eq!(o.status.code(), Some(2), "an input of the wrong type");
    let o = adora(&["reduce", &path("missing.adp")]);
    assert_eq!(o.status.code(), Some(2));
}
