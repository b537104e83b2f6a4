//! Properties of the corpus itself: its size, that every case's headers parse, that every
//! golden program is golden and every bad one bad, and that the golden programs together
//! cover every construct of docs/language.md (so removing coverage fails a test).

use adora_specs::coverage::{features, REQUIRED};
use adora_specs::{discover, load_case, specs_dir};
use std::collections::BTreeSet;

#[test]
fn corpus_has_enough_cases() {
    let golden = discover(&specs_dir().join("programs"));
    let bad = discover(&specs_dir().join("bad"));
    assert!(
        golden.len() >= 35,
        "only {} golden programs (need at least 35)",
        golden.len()
    );
    assert!(
        bad.len() >= 25,
        "only {} bad programs (need at least 25)",
        bad.len()
    );
}

#[test]
fn headers_parse_and_kinds_match_directories() {
    let mut problems = Vec::new();
    for path in discover(&specs_dir().join("programs")) {
        match load_case(&path) {
            Err(e) => problems.push(e),
            Ok(c) if c.error.is_some() => {
                problems.push(format!("{}: golden program with `-- error:`", c.name()))
            }
            Ok(c) if c.value.is_none() => {
                problems.push(format!("{}: golden program without `-- value:`", c.name()))
            }
            Ok(_) => {}
        }
    }
    let mut codes = BTreeSet::new();
    for path in discover(&specs_dir().join("bad")) {
        match load_case(&path) {
            Err(e) => problems.push(e),
            Ok(c) => match &c.error {
                None => problems.push(format!("{}: bad program without `-- error:`", c.name())),
                Some(e) => {
                    codes.insert(e.code.clone());
                }
            },
        }
    }
    for code in [
        "syntax",
        "name",
        "type",
        "shape",
        "non-rational",
        "resource",
        "input",
        "runtime",
    ] {
        if !codes.contains(code) {
            problems.push(format!("no bad program expects error[{code}]"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn golden_programs_cover_every_construct() {
    let mut seen = BTreeSet::new();
    let mut problems = Vec::new();
    for path in discover(&specs_dir().join("programs")) {
        let case = match load_case(&path) {
            Ok(c) => c,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        match adora_core::with_stack(|| features(&case)) {
            Ok(f) => seen.extend(f),
            Err(e) => problems.push(e),
        }
    }
    let missing: Vec<&str> = REQUIRED
        .iter()
        .copied()
        .filter(|r| !seen.contains(*r))
        .collect();
    assert!(
        problems.is_empty() && missing.is_empty(),
        "programs that do not load: {}\nconstructs no golden program covers: {missing:?}",
        problems.join("\n")
    );
}
