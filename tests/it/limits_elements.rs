//! The issue-19 reproducers of large arrays (docs/language.md, "Resource limits"): a
//! `build` of exactly 2^24 elements and a `replicate` of 2^24 in engines `dual`,
//! `linear` and the reference stop with a resource error at the program's position
//! (they used to compute for 20 s in 3.8 GB, or abort on allocation), and `--max-memory`
//! sets the memory budget.
use crate::support::{adora, stderr};
use std::path::PathBuf;

fn file(test: &str, contents: &str) -> String {
    let dir = std::env::temp_dir().join(format!("adora-lim-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p: PathBuf = dir.join("f.adl");
    std::fs::write(&p, contents).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn arrays_of_two_to_the_24_stop_at_a_limit_in_every_engine() {
    for (name, src) in [
        (
            "cube",
            "def main(x: R) -> R = sum(build [256, 256, 256] ((i, j, k) => x * real(i + j - k)))\n",
        ),
        ("rep", "def main(x: R) -> R = sum(replicate(16777216, x))\n"),
    ] {
        let p = file(name, src);
        for engine in ["dual", "linear", "reference"] {
            let runs: [&[&str]; 3] = [
                &["jvp", &p, "--input", "x=1/3", "--tangent", "x=1"],
                &["vjp", &p, "--input", "x=1/3", "--cotangent", "1"],
                &["grad", &p, "--input", "x=1/3"],
            ];
            for args in runs {
                let mut args = args.to_vec();
                args.extend(["--engine", engine]);
                let o = adora(&args);
                let err = stderr(&o);
                assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
                assert!(err.contains(":1:27: error[resource]: "), "{args:?}: {err}");
            }
        }
    }
}

#[test]
fn max_memory_sets_the_memory_budget() {
    let p = file("mem", "def main(x: R) -> R = sum(replicate(1000, x))\n");
    let o = adora(&["eval", &p, "--input", "x=1", "--max-memory", "1000"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(":1:27: error[resource]: memory budget (1000 bytes of arrays) exceeded"),
        "{err}"
    );
    let o = adora(&["eval", &p, "--input", "x=1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
