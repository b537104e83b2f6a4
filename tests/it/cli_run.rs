//! `adora run` and `adora show --stage plan` (docs/backend.md): the CPU backend prints
//! the value and the derivative programs' answers, `--repeat` prints the time per call,
//! the CUDA backend says "no CUDA device" and exits 2 where there is none, and a construct
//! the plan refuses is an `unsupported` error with its position.

use super::support::{adora, stderr, stdout};
use std::path::PathBuf;

fn file(test: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("adora-run-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("p.adl");
    std::fs::write(&p, contents).unwrap();
    p
}

const MATMUL: &str = "def main(a: R[2, 3], b: R[3, 2]) -> R =\n  \
    sum(build [2, 2] ((i, j) => sum(build 3 (k => a[i, k] * b[k, j]))))\n";

#[test]
fn run_cpu_prints_the_value_and_the_gradient() {
    let p = file("cpu", MATMUL);
    let p = p.to_str().unwrap();
    let ins = [
        "--input",
        "a=[[1, 2, -1], [1/2, 0, 3]]",
        "--input",
        "b=[[2, 1], [-1, 1/3], [4, 0]]",
    ];
    let o = adora(&[&["run", p, "--backend", "cpu"][..], &ins[..]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // -4 + 5/3 + 13 + 1/2 = 67/6
    let want = format!("value: {}", 67.0f64 / 6.0);
    assert!(stdout(&o).contains(&want), "{}", stdout(&o));
    for engine in ["dual", "linear"] {
        let o = adora(&[&["run", p, "--engine", engine, "--grad"][..], &ins[..]].concat());
        assert_eq!(o.status.code(), Some(0), "{engine}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("gradient:"), "{out}");
        // d/da[0,0] = b[0,0] + b[0,1] = 3
        assert!(out.contains("a: R[2,3] = [[3, "), "{engine}: {out}");
    }
}

#[test]
fn run_repeat_prints_time_per_call() {
    let p = file("repeat", MATMUL);
    let o = adora(&[
        "run",
        p.to_str().unwrap(),
        "--input",
        "a=[[1, 2, -1], [1/2, 0, 3]]",
        "--input",
        "b=[[2, 1], [-1, 1/3], [4, 0]]",
        "--repeat",
        "5",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("time per call (5 calls, cpu backend): min "),
        "{out}"
    );
    assert!(out.contains(" ms, median "), "{out}");
}

#[test]
fn run_profile_prints_every_kernels_time_and_needs_the_cpu_backend() {
    let p = file("profile", MATMUL);
    let p = p.to_str().unwrap();
    let ins = [
        "--input",
        "a=[[1, 2, -1], [1/2, 0, 3]]",
        "--input",
        "b=[[2, 1], [-1, 1/3], [4, 0]]",
    ];
    let o = adora(&[&["run", p, "--repeat", "3", "--profile"][..], &ins[..]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("kernel times (3 calls;"), "{out}");
    // Every kernel of the plan has a line with its 3 launches.
    let plan = stdout(&adora(&["show", p, "--stage", "plan"]));
    let kernels = plan.lines().filter(|l| l.starts_with("  k")).count();
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("  k")).collect();
    assert!(kernels > 0 && lines.len() == kernels, "{plan}\n{out}");
    for l in &lines {
        let cols: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(cols[1], "3", "{l}");
        assert!(cols.last().unwrap().ends_with('%'), "{l}");
    }
    let o = adora(
        &[
            &[
                "run",
                p,
                "--repeat",
                "3",
                "--profile",
                "--backend",
                "interp",
            ][..],
            &ins[..],
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("--profile"), "{}", stderr(&o));
}

#[test]
fn run_cuda_without_a_device_says_so_and_exits_2() {
    let p = file("cuda", MATMUL);
    let o = adora(&[
        "run",
        p.to_str().unwrap(),
        "--backend",
        "cuda",
        "--input",
        "a=[[1, 2, -1], [1/2, 0, 3]]",
        "--input",
        "b=[[2, 1], [-1, 1/3], [4, 0]]",
    ]);
    if o.status.code() == Some(0) {
        // A machine with a CUDA device: the value is the CPU's.
        assert!(stdout(&o).contains("value: "), "{}", stdout(&o));
        return;
    }
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no CUDA device"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

const PRODUCT: &str = "def main(a: R[2, 3], b: R[3, 2]) -> R[2, 2] =\n  \
    build [2, 2] ((i, j) => sum(build 3 (k => a[i, k] * b[k, j])))\n";

#[test]
fn show_stage_plan_prints_kernels_and_memory() {
    let p = file("plan", PRODUCT);
    let o = adora(&["show", p.to_str().unwrap(), "--stage", "plan"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("matmul b0 · b1 (2 × 3 · 3 × 2)"), "{out}");
    assert!(out.contains("memory: "), "{out}");
}

#[test]
fn a_construct_the_plan_refuses_is_unsupported_with_its_position() {
    let p = file(
        "refused",
        "def main(x: R[2, 3]) -> R[3] =\n  reduce((a, b) => a + b, x[0], x)\n",
    );
    let o = adora(&[
        "run",
        p.to_str().unwrap(),
        "--input",
        "x=[[1, 2, 3], [4, 5, 6]]",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("p.adl:2:3: error[unsupported]"), "{err}");
    assert!(err.contains("non-scalar slices"), "{err}");
}

/// Regression (`adora check --seed 424242`, `backend/cpu-equals-exact`): the `dual`
/// gradient of `sum(0.0 * …)` reduces a product with a scalar buffer, which the matrix
/// product recogniser indexed as a vector and panicked on.
#[test]
fn a_reduction_of_a_product_with_a_scalar_buffer_is_not_a_matrix_product() {
    let p = file(
        "scalar-product",
        "def main(z: R) -> R =\n  sum(0.0 * replicate(4, replicate(1, z)))\n",
    );
    let o = adora(&[
        "run",
        p.to_str().unwrap(),
        "--engine",
        "dual",
        "--grad",
        "--input",
        "z=0",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("value: 0") && out.contains("z: 0"), "{out}");
}

/// `adora run FILE --backend B` with the inputs, the value line(s) it prints.
fn run_value(p: &std::path::Path, backend: &str, inputs: &[&str]) -> String {
    let mut args = vec!["run", p.to_str().unwrap(), "--backend", backend];
    for i in inputs {
        args.extend(["--input", i]);
    }
    let o = adora(&args);
    assert_eq!(o.status.code(), Some(0), "{backend}: {}", stderr(&o));
    stdout(&o)
}

/// Regression (`adora check --size 4`, `backend/cpu-equals-exact`): `min`/`max`
/// reductions and scans over a NaN. The evaluator folds the elements first and combines
/// with `ne` last; the executor started its fold from `ne`, which differs once a NaN is
/// among the elements (an unordered pair keeps its right operand).
#[test]
fn min_and_max_reductions_over_a_nan_follow_the_evaluator_order() {
    let scan = file(
        "scan-min-nan",
        "def main(x: R[4], a: R) -> R[4] = scan(min, a, x)\n",
    );
    let red = file(
        "reduce-max-nan",
        "def main(x: R[4], a: R) -> R = reduce(max, a, x)\n",
    );
    for (p, a, want) in [
        (&scan, "a=0", "[0, 0, 0, 0]"),
        (&scan, "a=5", "[1, 5, 3, 2]"),
        (&red, "a=0", "value: 3"),
        (&red, "a=5", "value: 5"),
    ] {
        let inputs = ["x=[1, nan, 3, 2]", a];
        let exact = run_value(p, "interp", &inputs);
        assert!(exact.contains(want), "{exact}");
        assert_eq!(run_value(p, "cpu", &inputs), exact, "{a}");
    }
}

/// The same over a long array, where the executor reduces in parallel chunks: the chunk
/// holding the NaN restarts the fold, so the result is the minimum after the NaN.
#[test]
fn a_chunked_min_reduction_restarts_after_a_nan() {
    let p = file(
        "reduce-min-nan-long",
        "def main(x: R[5000], a: R) -> R = reduce(min, a, x)\n",
    );
    let xs: Vec<String> = (0..5000)
        .map(|i| {
            if i == 2500 {
                "nan".into()
            } else {
                i.to_string()
            }
        })
        .collect();
    let x = format!("x=[{}]", xs.join(", "));
    let inputs = [x.as_str(), "a=10000"];
    let exact = run_value(&p, "interp", &inputs);
    assert!(exact.contains("value: 2501"), "{exact}");
    assert_eq!(run_value(&p, "cpu", &inputs), exact);
}

/// `adora` with the environment variable `ADORA_CC` set to `cc`.
fn adora_cc(cc: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_adora"))
        .env("ADORA_CC", cc)
        .args(args)
        .output()
        .expect("running adora")
}

const TWO_INPUTS: [&str; 4] = [
    "--input",
    "a=[[1, 2, -1], [1/2, 0, 3]]",
    "--input",
    "b=[[2, 1], [-1, 1/3], [4, 0]]",
];

/// The CPU backend's kernels (docs/backend.md, "Compiled kernels"): compiled where a C
/// compiler is found (`--repeat` says which), the lanes with `--kernels lanes` or without
/// a compiler, the same value either way; `--kernels compiled` without a compiler is an
/// error (exit 2), and so is `--kernels` on another backend.
#[test]
fn run_kernels_are_compiled_where_a_compiler_is_found_else_the_lanes() {
    let p = file("kernels", MATMUL);
    let p = p.to_str().unwrap();
    let want = format!("value: {}", 67.0f64 / 6.0);
    let run = |cc: &str, extra: &[&str]| {
        adora_cc(
            cc,
            &[&["run", p, "--repeat", "2"][..], &TWO_INPUTS[..], extra].concat(),
        )
    };
    let o = run("none", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&want) && stdout(&o).contains("kernels: lanes"),
        "{}",
        stdout(&o)
    );
    let o = run("none", &["--kernels", "compiled"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("no C compiler"), "{}", stderr(&o));
    let o = adora(
        &[
            &["run", p, "--backend", "interp", "--kernels", "lanes"][..],
            &TWO_INPUTS[..],
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("--kernels"), "{}", stderr(&o));
    if adora_gpu::cpu::native::compiler().is_none() {
        println!("skipped: no C compiler (the compiled half)");
        return;
    }
    for extra in [
        &[][..],
        &["--kernels", "compiled"][..],
        &["--grad", "--engine", "linear"][..],
    ] {
        let o = adora(&[&["run", p, "--repeat", "2"][..], &TWO_INPUTS[..], extra].concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(
            stdout(&o).contains("kernels: compiled by"),
            "{}",
            stdout(&o)
        );
    }
    let o = adora(
        &[
            &["run", p, "--kernels", "lanes", "--repeat", "2"][..],
            &TWO_INPUTS[..],
        ]
        .concat(),
    );
    assert!(
        stdout(&o).contains(&want) && stdout(&o).contains("kernels: lanes"),
        "{}",
        stdout(&o)
    );
}

/// A fake C compiler in a fresh directory: answers `--version`, exits 0 on the probe
/// (`-fsyntax-only`) when `probe_ok`, fails on everything else.
fn fake_cc(test: &str, probe_ok: bool) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("adora-cc-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cc = dir.join("badcc");
    let probe = if probe_ok { 0 } else { 1 };
    std::fs::write(
        &cc,
        format!(
            "#!/bin/sh\n[ \"$1\" = --version ] && {{ echo 'badcc 1.0'; exit 0; }}\n\
             for a in \"$@\"; do [ \"$a\" = -fsyntax-only ] && exit {probe}; done\n\
             echo 'badcc: no' >&2\nexit 1\n"
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&cc, std::fs::Permissions::from_mode(0o755)).unwrap();
    cc
}

/// A compiler that accepts the kernels' C when probed but fails on the generated kernels
/// is Adora's failure (an internal error, exit 3), never a silent fall back to the lanes;
/// a compiler that rejects the probe (no GNU C vector extensions) counts as none.
#[test]
fn a_compiler_that_fails_on_the_kernels_is_an_internal_error() {
    let p = file("badcc", MATMUL);
    let p = p.to_str().unwrap();
    let cc = fake_cc("fails", true);
    let o = adora_cc(
        cc.to_str().unwrap(),
        &[&["run", p][..], &TWO_INPUTS[..]].concat(),
    );
    assert_eq!(o.status.code(), Some(3), "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("badcc: no"), "{}", stderr(&o));
    let cc = fake_cc("no-vectors", false);
    let o = adora_cc(
        cc.to_str().unwrap(),
        &[&["run", p, "--repeat", "1"][..], &TWO_INPUTS[..]].concat(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("kernels: lanes"), "{}", stdout(&o));
    let o = adora_cc(
        cc.to_str().unwrap(),
        &[&["run", p, "--kernels", "compiled"][..], &TWO_INPUTS[..]].concat(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
}

#[test]
fn show_stage_c_prints_the_compiled_kernels() {
    let p = file("stage-c", MATMUL);
    let o = adora(&["show", p.to_str().unwrap(), "--stage", "c"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("#include <math.h>"), "{out}");
    // One reduction, with its partial folds and its `init`.
    for f in [
        "void k1_reduce(",
        "void k1_reduce_part(",
        "double k1_reduce_init(",
    ] {
        assert!(out.contains(f), "{f}: {out}");
    }
}
