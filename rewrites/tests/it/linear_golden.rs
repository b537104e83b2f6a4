//! The printed Linear A programs of specs/programs/linear/ (`.ala`) are exactly what the
//! engine prints today: the linearization and the reverse program of the Fig. 6 example,
//! and the transpose of the Fig. 10 example. Each expected file is a valid Linear A
//! program that prints back to itself. Set `LINEAR_BLESS=1` to rewrite the expected files
//! (keeping their leading comment block) after an intended change.

use adora_core::linear::{check_program, parse_program, print};
use adora_rewrites::linear::{engine, transpose_source, Checkpoint};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../specs/programs/linear")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The leading comment block and the rest of a file.
fn split_comments(text: &str) -> (String, String) {
    let mut head = String::new();
    let mut rest = String::new();
    let mut in_head = true;
    for line in text.lines() {
        if in_head && line.starts_with("--") {
            head.push_str(line);
            head.push('\n');
        } else {
            in_head = false;
            rest.push_str(line);
            rest.push('\n');
        }
    }
    (head, rest)
}

fn expect(name: &str, got: &str) {
    let path = dir().join(name);
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let (head, body) = split_comments(&old);
    if std::env::var("LINEAR_BLESS").is_ok() {
        std::fs::write(&path, format!("{head}{got}")).unwrap();
        return;
    }
    assert_eq!(body, got, "{name} differs; the engine now prints:\n{got}");
}

fn core(name: &str) -> adora_core::ast::Function {
    adora_core::load(&read(name), "main").unwrap()
}

#[test]
fn fig6_linearized_and_reverse_programs() {
    let f = core("fig6_jvp.adl");
    expect(
        "fig6_jvp.ala",
        &print::program(&engine::linearize(&f).unwrap()),
    );
    let r = engine::reverse_program(&f, &Checkpoint::StoreAll).unwrap();
    expect("fig6_reverse.ala", &print::program(&r));
}

#[test]
fn fig10_transposed_program() {
    let out = transpose_source(&read("fig10_transpose.ala"), "f").unwrap();
    expect("fig10_transpose_t.ala", &out);
}

#[test]
fn expected_programs_are_valid_and_print_back() {
    for name in [
        "fig6_jvp.ala",
        "fig6_reverse.ala",
        "fig10_transpose.ala",
        "fig10_transpose_t.ala",
    ] {
        let text = read(name);
        let p = parse_program(&text).unwrap_or_else(|d| panic!("{}", d.render(name, &text)));
        check_program(&p).unwrap_or_else(|d| panic!("{}", d.render(name, &text)));
        let (_, body) = split_comments(&text);
        assert_eq!(
            print::program(&p),
            body,
            "{name} does not print back to itself"
        );
    }
}
