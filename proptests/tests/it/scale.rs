//! The generators' size multiplier (`adora check --size`, docs/check.md): factor 1 is the
//! generators' own output, a larger factor gives larger programs in every family, and the
//! factor is restored after its scope.

use adora_proptests::gen::scale::{factor, with_factor};
use adora_proptests::gen::tl::{ssa_case, tl_case, SsaGenOptions, TlGenOptions};
use adora_proptests::gen::{generate, Fragment, GenSpec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Mean surface-program size (nodes) over 40 seeds, for every fragment.
fn mean_nodes(spec: &GenSpec) -> f64 {
    (0..40)
        .map(|s| generate(spec, s).node_count())
        .sum::<usize>() as f64
        / 40.0
}

#[test]
fn factor_one_is_the_default_output() {
    assert_eq!(factor(), 1);
    for f in Fragment::ALL {
        for seed in 0..20 {
            let spec = GenSpec::new(f).size(24);
            let plain = generate(&spec, seed);
            assert_eq!(with_factor(1, || generate(&spec, seed)), plain);
        }
    }
}

#[test]
fn a_larger_factor_gives_larger_surface_programs() {
    for f in Fragment::ALL {
        let spec = GenSpec::new(f).size(24);
        let one = mean_nodes(&spec);
        let four = with_factor(4, || mean_nodes(&spec));
        assert!(
            four > 2.0 * one,
            "{f}: mean nodes {one} at 1×, {four} at 4×"
        );
        // The factor multiplies the budget: 4× of size 24 is size 96.
        assert_eq!(with_factor(4, || mean_nodes(&spec)), {
            let big = GenSpec::new(f).size(96);
            mean_nodes(&big)
        });
    }
    assert_eq!(factor(), 1, "the factor is restored");
}

/// The sum of `measure` over the cases of 40 seeds, generated with size factor `k`.
fn total(k: u32, measure: impl Fn(&mut ChaCha8Rng) -> usize) -> usize {
    with_factor(k, || {
        (0..40u64)
            .map(|s| measure(&mut ChaCha8Rng::seed_from_u64(s)))
            .sum()
    })
}

#[test]
fn a_larger_factor_gives_larger_tensor_language_cases() {
    let g2 = |r: &mut ChaCha8Rng| {
        let c = tl_case(r, &TlGenOptions::default());
        c.term.to_string().len()
    };
    assert!(total(4, g2) > 2 * total(1, g2), "G2 terms");
    let g3 = |r: &mut ChaCha8Rng| ssa_case(r, &SsaGenOptions::default()).program.stmts.len();
    assert!(total(4, g3) > 2 * total(1, g3), "G3 statements");
}

#[test]
fn the_factor_is_restored_after_a_panic() {
    let r = std::panic::catch_unwind(|| with_factor(3, || panic!("inside")));
    assert!(r.is_err());
    assert_eq!(factor(), 1);
    assert_eq!(with_factor(0, factor), 1, "a factor below 1 counts as 1");
}
