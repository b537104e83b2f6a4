//! The properties of certified enclosures (docs/oracle.md, "Certified enclosures";
//! specs/theorems.md, rows INV-ball-*): one test per property, small case counts, a fixed
//! seed (as `properties.rs`).

const SEED: u64 = 0x00AD_0A5E_BA11;

fn check(name: &str, cases: u32) {
    crate::properties::check_seeded(name, cases, SEED);
}

#[test]
fn contains_exact() {
    check("ball/contains-exact", 40);
}

#[test]
fn contains_f64() {
    check("ball/contains-f64", 40);
}

#[test]
fn width_shrinks() {
    check("ball/width-shrinks", 40);
}

#[test]
fn engines_overlap_reference() {
    check("ball/engines-overlap-reference", 20);
}
