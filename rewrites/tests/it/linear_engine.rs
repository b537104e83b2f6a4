//! The `linear` engine equals the reference derivative exactly (f64 programs: within
//! 1e-9) on every golden program it accepts, for JVPs, VJPs and gradients, with both
//! checkpointing policies.

use crate::linear_support;

use adora_core::diag::ErrorKind;
use adora_rewrites::linear::{engine, Checkpoint};
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use linear_support::{close, direction, goldens};

fn accepts(r: &adora_core::Result<impl Sized>) -> bool {
    !matches!(r, Err(d) if d.kind == ErrorKind::Unsupported)
}

#[test]
fn golden_programs_agree_with_the_reference() {
    let opts = EvalOptions::default();
    let mut checked = 0;
    let mut skipped = Vec::new();
    for g in goldens() {
        let name = g.path.display().to_string();
        let lin = engine::linearize(&g.f);
        if !accepts(&lin) {
            skipped.push(name);
            continue;
        }
        lin.unwrap_or_else(|d| panic!("{name}: linearize fails: {d}"));
        let tangents: Vec<Option<Value<Rat>>> = g
            .inputs
            .iter()
            .enumerate()
            .map(|(k, x)| Some(direction(x, k as i64)))
            .collect();
        let ct = direction(&Value::<Rat>::zeros(&g.f.ret), 5);
        if g.f64 {
            let xs: Vec<Value<f64>> = g.inputs.iter().map(|v| v.to_f64()).collect();
            let ts: Vec<Option<Value<f64>>> = tangents
                .iter()
                .map(|t| t.as_ref().map(|v| v.to_f64()))
                .collect();
            let a = engine::jvp(&g.f, &xs, &ts, &opts).unwrap_or_else(|d| panic!("{name}: {d}"));
            let b = reference::jvp(&g.f, &xs, &ts, &opts).unwrap();
            assert!(
                close(&a.0, &b.0, 1e-9) && close(&a.1, &b.1, 1e-9),
                "{name}: jvp {a:?} vs {b:?}"
            );
            let a = engine::vjp_with(&g.f, &xs, &ct.to_f64(), &opts, &Checkpoint::StoreAll)
                .unwrap_or_else(|d| panic!("{name}: {d}"));
            let b = reference::vjp(&g.f, &xs, &ct.to_f64(), &opts).unwrap();
            for (p, q) in a.grads.iter().zip(&b.grads) {
                match (p, q) {
                    (Some(p), Some(q)) => assert!(close(p, q, 1e-9), "{name}: vjp {p:?} vs {q:?}"),
                    _ => assert_eq!(p, q, "{name}"),
                }
            }
        } else {
            let a = engine::jvp(&g.f, &g.inputs, &tangents, &opts)
                .unwrap_or_else(|d| panic!("{name}: {d}"));
            assert_eq!(
                a,
                reference::jvp(&g.f, &g.inputs, &tangents, &opts).unwrap(),
                "{name}: jvp"
            );
            let want = reference::vjp(&g.f, &g.inputs, &ct, &opts).unwrap();
            for policy in [Checkpoint::StoreAll, Checkpoint::RecomputeAll] {
                let a = engine::vjp_with(&g.f, &g.inputs, &ct, &opts, &policy)
                    .unwrap_or_else(|d| panic!("{name}: vjp ({policy:?}): {d}"));
                assert_eq!(a, want, "{name}: vjp ({policy:?})");
            }
            if g.f.ret == adora_core::Type::real() {
                let a = engine::gradient(&g.f, &g.inputs, &opts).unwrap();
                assert_eq!(
                    a,
                    reference::gradient(&g.f, &g.inputs, &opts).unwrap(),
                    "{name}: grad"
                );
            }
        }
        checked += 1;
    }
    eprintln!("checked {checked} golden programs; skipped (unsupported): {skipped:?}");
    assert!(
        checked >= 40,
        "only {checked} golden programs accepted; skipped {skipped:?}"
    );
}
