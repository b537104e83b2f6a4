//! The `tssa` lowering, Tensor-SSA and raising properties (docs/engines/tssa-lowering.md),
//! a few hundred cases each with a fixed seed, and the coverage of the lowering's
//! construct table on generated programs.

use adora_proptests::gen::{generate, Fragment, GenSpec, RetKind};
use adora_rewrites::tssa::lower::lower_with_rows;
use std::collections::BTreeMap;

fn check(name: &str, cases: u32) {
    crate::properties::check_seeded(name, cases, 0x7554_A001);
}

#[test]
fn lowering_preserves_semantics() {
    check("tssa/lowering-preserves-semantics", 300);
}

#[test]
fn raise_preserves_semantics() {
    check("tssa/raise-preserves-semantics", 300);
}

#[test]
fn ssa_normal_form() {
    check("tssa/ssa-normal-form", 300);
}

#[test]
fn ssa_preserves_semantics() {
    check("tssa/ssa-preserves-semantics", 300);
}

#[test]
fn ssa_ops_neutral() {
    check("tssa/ssa-ops-neutral", 300);
}

/// Which construct-table rows the generated scalar and bulk programs exercise, and how
/// many programs the lowering accepts (printed; the main rows must fire).
#[test]
fn lowering_row_coverage() {
    let mut fired: BTreeMap<&'static str, usize> = BTreeMap::new();
    let (mut accepted, mut total) = (0, 0);
    for seed in 0..400u64 {
        let frag = if seed % 2 == 0 {
            Fragment::Scalar
        } else {
            Fragment::Bulk
        };
        let case = generate(&GenSpec::new(frag).size(30).ret(RetKind::Real), seed);
        let Ok(f) = adora_core::check::elaborate(&case.program, "main") else {
            continue;
        };
        total += 1;
        if let Ok((_, rows)) = lower_with_rows(&f) {
            accepted += 1;
            for r in rows {
                *fired.entry(r).or_insert(0) += 1;
            }
        }
    }
    println!("accepted {accepted} of {total}; rows fired: {fired:?}");
    assert!(
        accepted * 10 >= total * 9,
        "only {accepted} of {total} accepted"
    );
    for row in [
        "let",
        "tuple",
        "add",
        "sub",
        "mul",
        "div",
        "neg",
        "black-box",
        "min-max",
        "select",
        "build",
        "index-affine",
        "sum",
        "sum-outer",
        "replicate",
        "transpose",
        "reshape",
        "gather",
        "scatter",
        "append",
        "array",
        "real",
        "compare-real",
        "compare-index",
        "index-arith",
        "int-data",
    ] {
        assert!(fired.contains_key(row), "row {row} never fired: {fired:?}");
    }
}
