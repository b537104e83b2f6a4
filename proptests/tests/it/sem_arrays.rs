//! One test per property of `adora_proptests::props::sem_arrays` (seed 000 §3.1, §3.3,
//! §5.2, App. C.1), at a fixed seed, and the paper's scatter example.

const SEED: u64 = 0x00AD_0A5E_ED00;

/// Runs property `name` on `cases` cases; fails with the shrunk counterexample.
fn check(name: &str, cases: u32) {
    crate::properties::check_seeded(name, cases, SEED);
}

/// Cases per property.
const CASES: u32 = 150;

#[test]
fn map_equals_build() {
    check("sem/map-equals-build", CASES);
}

#[test]
fn gather_equals_build() {
    check("sem/gather-equals-build", CASES);
}

#[test]
fn scatter_adds_collisions() {
    check("sem/scatter-adds-collisions", CASES);
}

#[test]
fn inline_preserves_semantics() {
    check("sem/inline-preserves-semantics", CASES);
}

#[test]
fn dual_primal_projection() {
    check("sem/dual-primal-projection", CASES);
}

/// Seed 000 §3.3's example (values reconstructed): colliding writes add, a position that
/// receives nothing is 0.
#[test]
fn paper_scatter_example() {
    let src = "def main(x: R[9]) -> R[6] = scatter([6], x, i => [i / 2])";
    let p = adora_core::parse(src).expect("parses");
    adora_core::check::check_program(&p).expect("checks");
    let f = adora_core::check::elaborate(&p, "main").expect("elaborates");
    let x: Vec<adora_proptests::values::Rat> = (1..=9)
        .map(|k| adora_proptests::values::rat(k, 1))
        .collect();
    let input = adora_semantics::value::Value::Real(adora_semantics::value::Tensor {
        shape: vec![9],
        data: x,
    });
    let (v, _) =
        adora_semantics::eval::eval(&f, &[input], &adora_semantics::eval::EvalOptions::default())
            .expect("evaluates");
    let want: Vec<adora_proptests::values::Rat> = [3, 7, 11, 15, 9, 0]
        .iter()
        .map(|&k| adora_proptests::values::rat(k, 1))
        .collect();
    assert_eq!(adora_proptests::values::reals(&v), want);
}
