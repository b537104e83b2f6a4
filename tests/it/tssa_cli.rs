//! The command line with engine `tssa` (docs/engines/tssa-derivatives.md): the pipeline's
//! stages print with `show --stage tl|letlift|pairelim|genpush|ssa`, the derivative
//! programs agree with the reference and load again, `cost` reports the tensor cost `C`
//! beside `ops`, and the gradients of seed 001's motivating examples (trace, first
//! column times first row, one-hot) cost `C(grad)` linear in `n`.

use super::support::{adora, stderr, stdout};
use std::path::PathBuf;

fn file(test: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("adora-tssa-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("p.adl");
    std::fs::write(&p, contents).unwrap();
    p
}

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/specs/programs/tssa");

#[test]
fn stages_print_and_programs_agree() {
    let p = format!("{GOLDEN}/conv_loss.adl");
    for stage in ["tl", "letlift", "pairelim", "genpush", "ssa"] {
        let o = adora(&["show", &p, "--engine", "tssa", "--stage", stage]);
        assert_eq!(o.status.code(), Some(0), "{stage}: {}", stderr(&o));
        assert!(!stdout(&o).trim().is_empty(), "{stage}");
    }
    let o = adora(&["show", &p, "--engine", "tssa", "--stage", "ssa"]);
    assert!(stdout(&o).contains("input x: [5]num"), "{}", stdout(&o));
    let o = adora(&["show", &p, "--engine", "dual", "--stage", "ssa"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    for stage in ["grad", "vjp", "jvp"] {
        let o = adora(&["show", &p, "--engine", "tssa", "--stage", stage]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        adora_core::load(&text, &format!("main_{stage}")).unwrap_or_else(|d| panic!("{d}\n{text}"));
    }
    let o = adora(&[
        "grad",
        &p,
        "--input",
        "x=[1, 2, 3, 4, 5]",
        "--input",
        "w=[1, 2, -1]",
        "--input",
        "y=[0, 1, 2]",
        "--engine",
        "all",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("engine tssa: agrees (exactly)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn cost_reports_the_tensor_cost() {
    let p = format!("{GOLDEN}/traces.adl");
    let o = adora(&[
        "cost",
        &p,
        "--engine",
        "tssa",
        "--input",
        "a=[[1, 2, 3], [4, 5, 6], [7, 8, 10]]",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    // Seed 001 §1: four traces of a 3 x 3 matrix cost k (n - 1) + (k - 1) = 11 in `ops`;
    // Tensor SSA's CSE (fix-up F4) shares the four equal traces: (n - 1) + (k - 1) = 5.
    assert!(out.contains("primal: ops 11"), "{out}");
    assert!(
        out.contains("tensor cost C (seed 001 §4.3, Tensor SSA): primal 5"),
        "{out}"
    );
    assert!(
        out.contains("Theorem 6.55 C(R) <= 4 (C + |X| + |Y|): holds"),
        "{out}"
    );
}

/// `C(grad)` of engine `tssa` for a program at size `n` (from `adora cost --format json`).
fn c_grad(name: &str, src: &str, n: usize) -> u64 {
    let p = file(&format!("{name}{n}"), src);
    let o = adora(&[
        "cost",
        p.to_str().unwrap(),
        "--engine",
        "tssa",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    v["tssa"]["c_gradient"]
        .as_u64()
        .unwrap_or_else(|| panic!("{v}"))
}

#[test]
fn motivating_gradients_cost_linear_in_n() {
    type Family = (&'static str, fn(usize) -> String);
    let families: [Family; 3] = [
        ("trace", |n| {
            format!("def main(a: R[{n}, {n}]) -> R = sum(build {n} (i => a[i, i])) + sum(build {n} (i => a[i, i]))\n")
        }),
        ("colrow", |n| {
            format!("def main(a: R[{n}, {n}]) -> R = sum(build {n} (i => a[i, 0] * a[0, i]))\n")
        }),
        ("onehot", |n| {
            format!(
                "def main(x: R[{n}]) -> R = sum(build {n} (i => select(i == 1, x[i] * x[i], 0)))\n"
            )
        }),
    ];
    for (name, src) in families {
        let c: Vec<u64> = [3, 5, 9]
            .iter()
            .map(|&n| c_grad(name, &src(n), n))
            .collect();
        // Linear in n: equal slopes between n = 3, 5 and n = 5, 9 (per unit of n).
        assert_eq!(
            2 * (c[1] - c[0]),
            c[2] - c[1],
            "{name}: C(grad) at n = 3, 5, 9: {c:?}"
        );
    }
}

/// Regression: an output that is an input itself (the identity, a swap of the inputs) left
/// the raised VJP's output (`dY`) without a statement, an internal error.
#[test]
fn outputs_that_are_inputs_raise() {
    let p = file("identity", "def main(x: R) -> R = x\n");
    let o = adora(&[
        "grad",
        p.to_str().unwrap(),
        "--engine",
        "tssa",
        "--input",
        "x=1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let p = file("swap", "def main(x: R, y: R[3]) -> (R[3], R) = (y, x)\n");
    let o = adora(&[
        "vjp",
        p.to_str().unwrap(),
        "--engine",
        "all",
        "--input",
        "x=2",
        "--input",
        "y=[1,2,3]",
        "--cotangent",
        "([1,2,3], 5)",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("engine tssa: agrees (exactly)"),
        "{}",
        stdout(&o)
    );
}

/// A value read inside an index constant (`real(floor(q))`) through a let alias of an
/// input: the Tensor-SSA conversion renames it with the alias (the `kit/unique-binders`
/// counterexample).
#[test]
fn aliases_inside_index_constants_are_renamed() {
    let p = file(
        "floor_alias",
        "def f(p: R, q: R) -> R =\n  real(floor(q))\n\ndef main(x: R) -> R =\n  f(x, x)\n",
    );
    let o = adora(&[
        "grad",
        p.to_str().unwrap(),
        "--engine",
        "all",
        "--input",
        "x=2.5",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("engine tssa: agrees (exactly)"),
        "{}",
        stdout(&o)
    );
}
