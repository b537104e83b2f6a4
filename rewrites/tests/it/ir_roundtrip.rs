//! translate → extract round trip on the golden corpus: every program of
//! `specs/programs/**` that translation accepts comes back as a function that re-checks
//! and evaluates exactly as the original (header inputs and two default input sets);
//! every other program is rejected as `Unsupported`, naming the construct.

use crate::ir_support;

use adora_core::ErrorKind;
use adora_rewrites::ir::extract::{check_scoped, extract_function};
use adora_rewrites::ir::translate::{to_recexpr, translate};

#[test]
fn corpus_round_trips_exactly() {
    let mut accepted = Vec::new();
    let mut rejected = Vec::new();
    for path in ir_support::corpus() {
        let name = path.display().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let Ok(f) = adora_core::load(&src, "main") else {
            continue;
        };
        let tr = match translate(&f) {
            Ok(tr) => tr,
            Err(d) => {
                assert_eq!(d.kind, ErrorKind::Unsupported, "{name}: {d}");
                assert!(d.message.contains("outside it"), "{name}: {}", d.message);
                rejected.push(name);
                continue;
            }
        };
        let g = extract_function(&tr.egraph, tr.root, &f)
            .unwrap_or_else(|d| panic!("{name}: {d}\n{}", d.notes.join("\n")));
        adora_core::check::check_function(&g).unwrap();
        // The printed program parses, checks and elaborates to the same function.
        let printed = adora_core::pretty::function(&g);
        let again = adora_core::load(&printed, &g.name)
            .unwrap_or_else(|d| panic!("{name}: printed output does not load: {d}\n{printed}"));
        assert_eq!(again.body, g.body, "{name}: print/load changes the program");
        if let Some(inputs) = ir_support::header_inputs(&src, &f) {
            ir_support::assert_same(&f, &g, &inputs, &name);
        }
        for variant in 0..2 {
            let inputs = ir_support::inputs(&f, variant);
            ir_support::assert_same(&f, &g, &inputs, &name);
        }
        let (e, _) = to_recexpr(&f).unwrap();
        assert_eq!(check_scoped(&e), Ok(()), "{name}");
        accepted.push(name);
    }
    assert!(
        accepted.len() >= 40,
        "only {} programs translated",
        accepted.len()
    );
    assert!(
        rejected.len() >= 10,
        "only {} programs rejected",
        rejected.len()
    );
}

#[test]
fn round_trip_is_deterministic() {
    for path in ir_support::corpus().into_iter().take(30) {
        let src = std::fs::read_to_string(&path).unwrap();
        let Ok(f) = adora_core::load(&src, "main") else {
            continue;
        };
        let Ok(a) = translate(&f) else { continue };
        let b = translate(&f).unwrap();
        let fa = extract_function(&a.egraph, a.root, &f).unwrap();
        let fb = extract_function(&b.egraph, b.root, &f).unwrap();
        assert_eq!(
            adora_core::pretty::function(&fa),
            adora_core::pretty::function(&fb)
        );
    }
}
