//! Regression tests of what `adora fuzz` found (docs/fuzzing.md): a rewrite that needs an
//! array beyond the element limit is a resource error, not an internal one; an exponent
//! whose derivative's exponent overflows is refused by the parser; a closed output pipe
//! ends the process without a panic.

use super::support::adora;
use std::io::Read;
use std::process::{Command, Stdio};

fn file(test: &str, contents: &str) -> String {
    let dir = std::env::temp_dir().join(format!("adora-fuzzfound-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("{test}.adl"));
    std::fs::write(&p, contents).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn a_materialised_array_beyond_the_limit_is_a_resource_error() {
    // bot turns the inner `sum(build …)` into an intermediate R[2, 16777216]: 2^25
    // elements, past the 2^24 limit (before: exit 3, "does not re-check").
    let p = file(
        "matmul",
        "def matmul(a: R[2,3], b: R[3,2]) -> R[2,2] =\n  \
         build [2,2] ((i, j) => sum(build 16777216 (k => a[i,k] * b[k,j])))\n\
         def main(a: R[2,3], b: R[3,2]) -> R = sum(matmul(a, b))\n",
    );
    for stage in ["bot", "delta"] {
        let o = adora(&["show", &p, "--stage", stage]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{stage}: {err}");
        assert!(err.contains("error[resource]"), "{stage}: {err}");
        assert!(err.contains(&format!("{p}:")), "a position: {err}");
    }
}

#[test]
fn the_most_negative_exponent_is_refused_with_its_position() {
    let p = file(
        "pow_min",
        "def main(x: R) -> R = pow(x, -9223372036854775808)\n",
    );
    for engine in ["linear", "dual", "dual-scalar", "reference"] {
        let o = adora(&[
            "jvp",
            &p,
            "--engine",
            engine,
            "--input",
            "x=1",
            "--tangent",
            "x=1",
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{engine}: {err}");
        assert!(err.contains(&format!("{p}:1:30")), "{engine}: {err}");
    }
}

#[test]
fn a_closed_output_pipe_is_not_a_panic() {
    let p = file(
        "pipe",
        "def main(x: R) -> R[4096] = build 4096 (i => x * real(i))\n",
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_adora"))
        .args(["eval", &p, "--input", "x=1/3"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running adora");
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(status.code(), Some(101), "{err}");
}
