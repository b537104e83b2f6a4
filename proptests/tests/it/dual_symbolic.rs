//! One test per property of engine `dual`'s forward transformation, symbolic reverse pass
//! and gradient program (seed 000 §6, §7, App. C.2, App. D; `adora_proptests::props::
//! dual_symbolic` and `dual_symbolic_rev`), at a fixed seed.

const SEED: u64 = 0x00AD_0A5E_ED00;

/// Runs property `name` on `cases` cases; fails with the shrunk counterexample.
fn check(name: &str, cases: u32) {
    crate::properties::check_seeded(name, cases, SEED);
}

/// Cases per property (the file runs in well under 20 s).
const CASES: u32 = 100;

#[test]
fn nondiff_preserves_type() {
    check("dual/nondiff-preserves-type", CASES);
}

#[test]
fn integer_paths_zero_derivative() {
    check("dual/integer-paths-zero-derivative", CASES);
}

#[test]
fn total_on_bot_output() {
    check("dual/total-on-bot-output", CASES);
}

#[test]
fn transpose_pairs_adjoint() {
    check("dual/transpose-pairs-adjoint", CASES);
}

#[test]
fn delta_shape_consistent() {
    check("dual/delta-shape-consistent", CASES);
}

#[test]
fn simplify_preserves_semantics() {
    check("dual/simplify-preserves-semantics", CASES);
}

#[test]
fn share_is_identity() {
    check("dual/share-is-identity", CASES);
}

#[test]
fn without_bot_agrees() {
    check("dual/without-bot-agrees", CASES);
}

#[test]
fn no_cotangent_duplication() {
    check("dual/no-cotangent-duplication", CASES);
}

#[test]
fn symbolic_share_ids_increase() {
    check("dual/symbolic-share-ids-increase", CASES);
}

#[test]
fn transpose_output_fragment() {
    check("dual/transpose-output-fragment", CASES);
}

#[test]
fn share_to_let_preserves_semantics() {
    check("dual/share-to-let-preserves-semantics", CASES);
}

#[test]
fn no_share_under_let() {
    check("dual/no-share-under-let", CASES);
}

#[test]
fn primal_dual_separated() {
    check("dual/primal-dual-separated", CASES);
}

#[test]
fn gradient_program_well_typed() {
    check("dual/gradient-program-well-typed", CASES);
}
