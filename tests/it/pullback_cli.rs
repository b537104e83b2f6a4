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

/// Engine `pullback` on core programs (docs/engines/pullback.md, "Engine `pullback`"): the
/// header's gradient, VJP and JVP of `arith_scalar.adl`, agreement under `--engine all`,
/// and the clear declines (arrays: `Unsupported` at the parameter; `f64`: not this mode).
#[test]
fn engine_pullback_answers_grad_vjp_jvp_of_scalar_programs() {
    let f = "specs/programs/basics/arith_scalar.adl";
    let ins = ["--input", "x=1/2", "--input", "y=3"];
    let run = |extra: &[&str]| {
        let mut args: Vec<&str> = extra.to_vec();
        args.insert(1, f);
        args.extend(["--engine", "pullback"]);
        args.extend(ins);
        let o = adora(&args);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", stderr(&o));
        stdout(&o)
    };
    let g = run(&["grad"]);
    assert!(g.contains("value: 37/50"), "{g}");
    assert!(g.contains("x: 139/125") && g.contains("y: 24/125"), "{g}");
    let v = run(&["vjp", "--cotangent", "2"]);
    assert!(v.contains("x: 278/125") && v.contains("y: 48/125"), "{v}");
    let j = run(&["jvp", "--tangent", "x=1", "--tangent", "y=-2"]);
    assert!(j.contains("tangent: 91/125"), "{j}");

    let mut args = vec!["grad", f, "--engine", "all"];
    args.extend(ins);
    let all = stdout(&adora(&args));
    assert!(all.contains("engine pullback: agrees (exactly)"), "{all}");

    let o = adora(&[
        "grad",
        "specs/programs/basics/broadcast.adl",
        "--engine",
        "pullback",
        "--input",
        "x=[1,2,3]",
        "--input",
        "s=2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("broadcast.adl:9:10") && err.contains("error[unsupported]"),
        "{err}"
    );
    let mut args = vec!["grad", f, "--engine", "pullback", "--numeric", "f64"];
    args.extend(ins);
    let o = adora(&args);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("numeric mode"), "{}", stderr(&o));
}
