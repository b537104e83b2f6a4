//! Size parameters on the command line (docs/language.md, "Size parameters"): one
//! program run at several sizes by `--input` alone (the README's example), `--size` for
//! commands without inputs, JSON inputs, and the errors (exit 2, with file:line:col).

use super::support::{adora, stderr, stdout};

fn repo(path: &str) -> String {
    format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))
}

fn grad(inputs: &[&str]) -> std::process::Output {
    let conv = repo("examples/conv.adl");
    let mut args = vec!["grad", conv.as_str(), "--engine", "all"];
    for i in inputs {
        args.extend(["--input", i]);
    }
    adora(&args)
}

#[test]
fn the_readme_program_runs_at_three_sizes_by_input_alone() {
    for (inputs, value, x, w) in [
        (
            ["x=[1, 2, 3]", "w=[1, -1]"],
            "1",
            "R[3] = [-1, 0, 1]",
            "R[2] = [-3, -5]",
        ),
        (
            ["x=[1, 2, 3, 4, 5]", "w=[1, -1]"],
            "1",
            "R[5] = [-1/2, 0, 0, 0, 1/2]",
            "R[2] = [-5, -7]",
        ),
        (
            ["x=[1, 2, 3, 4, 5]", "w=[1/2, 0, -1/2]"],
            "1",
            "R[5] = [-1/3, -1/3, 0, 1/3, 1/3]",
            "R[3] = [-4, -6, -8]",
        ),
    ] {
        let o = grad(&inputs);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
        assert!(out.contains(&format!("value: {value}\n")), "{out}");
        assert!(out.contains(&format!("x: {x}")), "{out}");
        assert!(out.contains(&format!("w: {w}")), "{out}");
        for e in ["dual", "dual-scalar", "linear"] {
            assert!(
                out.contains(&format!("engine {e}: agrees (exactly)")),
                "{out}"
            );
        }
    }
}

#[test]
fn inconsistent_inputs_are_an_input_error_naming_both() {
    let f = repo("specs/programs/sizes/matmul.adl");
    let o = adora(&[
        "eval",
        &f,
        "--input",
        "a=[[1, 2]]",
        "--input",
        "b=[[1], [2], [3]]",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("matmul.adl:9:27: error[input]: inconsistent size `n`: `a` (--input a=[[1, 2]]) gives n = 2, but `b` (--input b=[[1], [2], [3]]) gives n = 3"),
        "{err}"
    );
}

#[test]
fn a_negative_size_is_a_shape_error_with_its_position() {
    let o = grad(&["x=[1]", "w=[1, 2, 3]"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("conv.adl:2:18: error[shape]: the size `n - k + 1` (n = 1, k = 3) is -1, which is negative"),
        "{err}"
    );
}

#[test]
fn show_needs_sizes_and_takes_them_from_size_flags() {
    let conv = repo("examples/conv.adl");
    let o = adora(&["show", &conv, "--stage", "parse"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("conv.adl:1:15: error[input]: the size `n` of `main` has no value: give the input `x` (its type binds `n`) or `--size n=N`"),
        "{}",
        stderr(&o)
    );
    let o = adora(&[
        "show", &conv, "--stage", "parse", "--size", "n=4", "--size", "k=2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("def main(x: R[4], w: R[2]) -> R =\n  let y = build 3 "));
    let o = adora(&["show", &conv, "--size", "q=4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o)
        .contains("--size q=4: `main` has no size parameter `q` (its size parameters: `n`, `k`)"));
    let dot = repo("examples/dot.adl");
    let o = adora(&["show", &dot, "--size", "n=4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--size n=4: `main` has no size parameters"));
}

#[test]
fn size_flags_must_agree_with_the_inputs() {
    let conv = repo("examples/conv.adl");
    let o = adora(&[
        "eval", &conv, "--input", "x=[1, 2]", "--input", "w=[1]", "--size", "n=3",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            "inconsistent size `n`: --size n=3 gives n = 3, but `x` (--input x=[1, 2]) gives n = 2"
        ),
        "{}",
        stderr(&o)
    );
    let o = adora(&[
        "eval", &conv, "--input", "x=[1, 2]", "--input", "w=[1]", "--size", "n=2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn json_inputs_bind_sizes() {
    let dir = std::env::temp_dir().join(format!("adora-sizes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let inputs = dir.join("in.json");
    std::fs::write(&inputs, r#"{"a": [[1, 2, 3]], "b": [[1], ["1/2"], [0]]}"#).unwrap();
    let f = repo("specs/programs/sizes/matmul.adl");
    let o = adora(&["eval", &f, "--inputs", inputs.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("value: 4"), "{}", stdout(&o));
}
