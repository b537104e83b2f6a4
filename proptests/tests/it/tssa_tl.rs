//! The properties of the tensor language's foundation (`proptests/src/props/tssa_tl.rs`),
//! a few hundred cases each with a fixed seed.

fn check(name: &str, cases: u32) {
    crate::properties::check_seeded(name, cases, 0x001_7E45);
}

#[test]
fn print_parse_roundtrip() {
    check("tl/print-parse-roundtrip", 300);
}

#[test]
fn eval_total() {
    check("tl/eval-total", 300);
}

#[test]
fn let_substitution() {
    check("sem/tl-let-substitution", 300);
}

#[test]
fn iverson_discount() {
    check("cost/iverson-discount", 300);
}

#[test]
fn let_sharing() {
    check("cost/tl-let-sharing", 300);
}

#[test]
fn brute_force() {
    check("cost/tl-brute-force", 300);
}
