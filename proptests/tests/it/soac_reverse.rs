//! Engine `soac`'s reverse mode (`adora_rewrites::soac::reverse`) on random programs of
//! the scalar fragment and of the seed-004 fragment (`Fragment::Soac`): every program it
//! accepts (the SOACs without bodies wait for their rules, `soac::rules`, and are
//! declined as `unsupported`) gets a VJP equal to the reference's exactly, for a random
//! cotangent, and a derivative program that re-checks.

use adora_proptests::gen::{generate, Fragment, GenSpec, RetKind};
use adora_proptests::props::soac_reverse::{vjp_agrees, Verdict};

fn run(frag: Fragment, ret: RetKind, seeds: u64) -> (usize, usize) {
    let (mut accepted, mut declined) = (0, 0);
    for seed in 0..seeds {
        let case = generate(&GenSpec::new(frag).ret(ret), seed);
        match vjp_agrees(&case) {
            Verdict::Agrees => accepted += 1,
            Verdict::Declined => declined += 1,
            Verdict::Vacuous => {}
            Verdict::Differs(msg) => panic!("seed {seed} ({frag}): {msg}\n{}", case.render()),
        }
    }
    eprintln!("soac reverse, {frag} fragment ({ret:?}): {accepted} of {seeds} programs accepted and exactly equal to the reference, {declined} declined");
    (accepted, declined)
}

#[test]
fn scalar_fragment_vjps_equal_the_reference() {
    adora_core::with_stack(|| {
        let (accepted, declined) = run(Fragment::Scalar, RetKind::Any, 200);
        assert_eq!(declined, 0, "the scalar fragment is wholly supported");
        assert!(accepted >= 150, "{accepted}");
    })
}

#[test]
fn soac_fragment_vjps_equal_the_reference_where_accepted() {
    adora_core::with_stack(|| {
        let (accepted, _) = run(Fragment::Soac, RetKind::Any, 300);
        assert!(accepted >= 30, "{accepted}");
        let (accepted, _) = run(Fragment::Soac, RetKind::RealScalar, 300);
        assert!(accepted >= 30, "{accepted}");
    })
}
