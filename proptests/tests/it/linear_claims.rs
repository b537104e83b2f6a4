//! Seed 002's remaining claims (specs/theorems.md, rows S002-X1b, X4.2, X4.3, D6.1, X6a,
//! X6b, X6c, X7.1.4, X7.2 and X10): one test per property, a fixed seed, failing with the
//! shrunk counterexample (as `properties.rs`).

const SEED: u64 = 0x00AD_0A5E_ED02;

fn check(name: &str, cases: u32) {
    crate::properties::check_seeded(name, cases, SEED);
}

#[test]
fn cheap_gradient_lin() {
    check("linear/cheap-gradient-lin", 100);
}

#[test]
fn linearity_typecheck() {
    check("linear/linearity-typecheck", 100);
}

#[test]
fn lin_model() {
    check("cost/lin-model", 100);
}

#[test]
fn unzip_produces_linear_b() {
    check("linear/unzip-produces-linear-b", 100);
}

#[test]
fn unzip_preserves_semantics() {
    check("linear/unzip-preserves-semantics", 100);
}

#[test]
fn unzip_preserves_work() {
    check("linear/unzip-preserves-work", 100);
}

#[test]
fn unzip_checkpoint_sound() {
    check("linear/unzip-checkpoint-sound", 100);
}

#[test]
fn transpose_adds_only_at_dup() {
    check("linear/transpose-adds-only-at-dup", 100);
}

#[test]
fn transpose_over_rings() {
    check("linear/transpose-over-rings", 100);
}

#[test]
fn linear_transpose_api_adjoint() {
    check("linear/linear-transpose-api-adjoint", 100);
}
