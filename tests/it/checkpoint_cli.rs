//! The engine option `--checkpoint every|once|stripmine:K` (docs/engines/soac-reverse.md,
//! "Checkpointing policies"; docs/architecture.md, "Engine options"): engine `soac` takes
//! it on `grad`, `vjp`, `show` and `cost` and agrees with the reference under each
//! policy; an engine without the option, a stage that is not a derivative and a bad
//! policy are usage errors (exit 2) with a message saying why.

use super::support::{adora, stderr, stdout};
use std::path::PathBuf;

/// Writes `contents` to a fresh file in a per-test temporary directory.
fn file(test: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("adora-ckpt-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("p.adl");
    std::fs::write(&p, contents).unwrap();
    p
}

const LOOP: &str = "def main(x: R, w: R[6]) -> R =\n  let y = loop (a = x) for k < 6 do a * w[k] + x in\n  y * y\n";
const INPUTS: [&str; 4] = ["--input", "x=3/2", "--input", "w=[1, 1/2, -1, 2, 1/3, 1]"];

#[test]
fn every_policy_agrees_with_the_reference_under_engine_all() {
    let p = file("all", LOOP);
    let p = p.to_str().unwrap();
    for policy in ["every", "once", "stripmine:1", "stripmine:2", "stripmine:3"] {
        let args = [
            &["grad", p][..],
            &INPUTS,
            &["--engine", "all", "--checkpoint", policy],
        ];
        let o = adora(&args.concat());
        assert_eq!(o.status.code(), Some(0), "{policy}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("engine soac: agrees (exactly)"),
            "{policy}: {}",
            stdout(&o)
        );
        // The engines without the option run as they are.
        assert!(
            stdout(&o).contains("engine dual-scalar: agrees"),
            "{}",
            stdout(&o)
        );
    }
}

#[test]
fn grad_and_vjp_with_a_policy_print_the_reference_answer() {
    let p = file("grad", LOOP);
    let p = p.to_str().unwrap();
    let o = adora(&[&["grad", p][..], &INPUTS].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let reference = stdout(&o);
    for policy in ["every", "stripmine:2"] {
        let args = [
            &["grad", p][..],
            &INPUTS,
            &["--engine", "soac", "--checkpoint", policy],
        ];
        let o = adora(&args.concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o), reference, "{policy}");
    }
    let o = adora(
        &[
            &["vjp", p][..],
            &INPUTS,
            &[
                "--cotangent",
                "-2",
                "--engine",
                "soac",
                "--checkpoint",
                "stripmine:2",
            ],
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // -2 times the gradient: x 25/3 -> -50/3.
    assert!(stdout(&o).contains("x: -50/3"), "{}", stdout(&o));
}

#[test]
fn show_prints_the_strip_mined_program_and_cost_counts_it() {
    let p = file("show", LOOP);
    let p = p.to_str().unwrap();
    let show = |policy: &str| {
        let o = adora(&[
            "show",
            p,
            "--engine",
            "soac",
            "--stage",
            "vjp",
            "--checkpoint",
            policy,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        adora_core::load(&text, "main_vjp").unwrap_or_else(|d| panic!("{d}\n{text}"));
        text
    };
    let every = show("every");
    let strips = show("stripmine:2");
    // 6 = 3 strips of 2: the outer loop of the strips and its checkpoints of 3.
    assert!(!every.contains("for s_"), "{every}");
    assert!(strips.contains("replicate(3, 0.0)"), "{strips}");
    assert_ne!(every, strips);
    let cost = |policy: &str| {
        let o = adora(&["cost", p, "--engine", "soac", "--checkpoint", policy]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    assert_ne!(cost("every"), cost("stripmine:2"));
}

#[test]
fn an_engine_without_the_option_is_a_usage_error() {
    let p = file("noopt", LOOP);
    let p = p.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &["grad", p, "--engine", "dual"],
            "engine `dual` has no option --checkpoint",
        ),
        (
            &["grad", p],
            "engine `reference` has no option --checkpoint",
        ),
        (
            &["cost", p, "--engine", "linear"],
            "engine `linear` has no option --checkpoint",
        ),
        (
            &["cost", p],
            "name the engine whose derivative program is costed",
        ),
        (
            &["show", p, "--stage", "vjp", "--engine", "dual"],
            "engine `dual` has no option",
        ),
    ];
    for (args, want) in cases {
        let all = [args, &INPUTS[..], &["--checkpoint", "once"]].concat();
        let all: Vec<&str> = if args[0] == "show" {
            [args, &["--checkpoint", "once"][..]].concat()
        } else {
            all
        };
        let o = adora(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{all:?}: {}", stderr(&o));
        if want.contains("has no option") {
            assert!(
                stderr(&o).contains("engines that take it: `soac`"),
                "{}",
                stderr(&o)
            );
        }
    }
    let o = adora(&["show", p, "--stage", "inline", "--checkpoint", "every"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("engine option"), "{}", stderr(&o));
}

#[test]
fn bad_policies_are_usage_errors() {
    let p = file("bad", LOOP);
    let p = p.to_str().unwrap();
    for (policy, want) in [
        ("stripmine:0", "at least 1 level"),
        ("stripmine:x", "`x` is not a number of levels"),
        ("stripmine:", "`` is not a number of levels"),
        ("stripmine:-1", "is not a number of levels"),
        ("sometimes", "unknown checkpoint policy `sometimes`"),
        ("ONCE", "unknown checkpoint policy"),
    ] {
        let args = [
            &["grad", p][..],
            &INPUTS,
            &["--engine", "soac", "--checkpoint", policy],
        ];
        let o = adora(&args.concat());
        assert_eq!(o.status.code(), Some(2), "{policy}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{policy}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("expected `every`, `once` or `stripmine:K`"),
            "{policy}: {}",
            stderr(&o)
        );
    }
}
