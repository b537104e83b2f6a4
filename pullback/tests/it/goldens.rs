//! The golden files `specs/programs/pullback/*.adp` (docs/engines/pullback.md, "Files"):
//! every file parses and type-checks and its header fits its type, and every bad file
//! under `bad/` fails with the stated error code, position and message.

use adora_pullback::file;
use adora_pullback::syntax::Ty;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../specs/programs/pullback")
}

fn files(d: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(d)
        .expect("the pullback goldens directory")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "adp"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_golden_file_parses_and_its_header_fits_its_type() {
    let all = files(&dir());
    assert!(all.len() >= 13, "the f.1 to f.9 goldens are present");
    for path in all {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let f = file::parse(&src).unwrap_or_else(|d| panic!("{}", d.render(&name, &src)));
        let h = &f.header;
        assert!(h.error.is_none(), "{name}: a good file");
        if let Some((_, point)) = &h.input {
            let Ty::Fun(input, out) = &f.ty else {
                panic!("{name}: a file with an input is a function, not {}", f.ty)
            };
            assert_eq!(**input, point.ty, "{name}: the function takes the input");
            if let Some(g) = &h.grad {
                assert_eq!(
                    g.ty, point.ty,
                    "{name}: the gradient is shaped like the input"
                );
            }
            if let Some(v) = &h.value {
                assert_eq!(v.ty, **out, "{name}: the value has the result type");
            }
        } else {
            assert!(
                h.normal_form.is_some() || !h.rules.is_empty() || !h.delta.is_empty(),
                "{name}: a closed term states its normal form or its counters"
            );
        }
    }
}

#[test]
fn every_bad_file_fails_with_its_code_position_and_message() {
    let all = files(&dir().join("bad"));
    assert!(all.len() >= 3);
    for path in all {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let h = file::header(&src).unwrap();
        let d = file::parse(&src).expect_err(&name);
        assert_eq!(
            Some(d.kind.code()),
            h.error.as_deref(),
            "{name}: {}",
            d.message
        );
        assert_eq!(Some(d.position(&src)), h.at, "{name}: {}", d.message);
        let m = h.message.as_deref().expect("a message header");
        assert!(d.message.contains(m), "{name}: `{}` lacks `{m}`", d.message);
    }
}

#[test]
fn headers_reject_unknown_keys_and_bad_literals() {
    let d = file::parse("-- vaule: 3\n1").expect_err("typo");
    assert!(
        d.message.contains("unknown header key `vaule`"),
        "{}",
        d.message
    );
    assert_eq!(d.position("-- vaule: 3\n1"), (1, 4));
    let d = file::parse("-- grad: (1, x)\n1").expect_err("not a literal");
    assert_eq!(d.position("-- grad: (1, x)\n1"), (1, 14));
    let f = file::parse(
        "-- Free text: with a colon after two words.\n-- input: x = (1, 2, 3)\n\\x: (R, R, R). x.0",
    )
    .unwrap();
    assert_eq!(f.header.notes.len(), 1);
    assert_eq!(f.header.input.unwrap().1.ty, Ty::reals(3));
}
