//! The engines `dual` (through bot) and `dual-scalar` on every golden program of
//! `specs/programs`: each program the engine accepts gets exactly the reference's
//! gradient (or VJP for non-scalar results, with a random cotangent) and JVP; the
//! programs it declines are outside its fragment (an `Unsupported` error).

use crate::dual_support;

use adora_core::diag::ErrorKind;
use adora_core::types::Type;
use adora_rewrites::dual::{runtime_vjp, Dual, DualScalar};
use adora_rewrites::engine::Derivatives;
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use dual_support::{goldens, random_cotangent};

fn close(a: &Value<f64>, b: &Value<f64>) -> bool {
    let (x, y) = (a.real_scalars(), b.real_scalars());
    x.len() == y.len()
        && x.iter()
            .zip(&y)
            .all(|(p, q)| (*p - *q).abs() <= 1e-9 * q.abs().max(1.0) || (p.is_nan() && q.is_nan()))
}

#[test]
fn every_accepted_golden_program_agrees_with_the_reference() {
    let opts = EvalOptions::default();
    let (mut accepted, mut declined, mut scalar_ok) = (0, Vec::new(), 0);
    let mut bot_failed = Vec::new();
    for g in goldens() {
        let Some((f, inputs)) = g.load() else {
            continue;
        };
        let name = g.path.display().to_string();
        if g.f64 {
            let xs: Vec<Value<f64>> = inputs.iter().map(|v| v.to_f64()).collect();
            if f.ret == Type::real() {
                let want = reference::gradient(&f, &xs, &opts).expect("reference");
                match <Dual as Derivatives<f64>>::gradient(&Dual, &f, &xs, &opts) {
                    Ok(got) => {
                        assert!(close(&got.value, &want.value), "{name}: value");
                        for (a, b) in got.grads.iter().zip(&want.grads) {
                            match (a, b) {
                                (Some(a), Some(b)) => {
                                    assert!(close(a, b), "{name}: f64 gradient {a:?} vs {b:?}")
                                }
                                (None, None) => {}
                                _ => panic!("{name}: gradient presence differs"),
                            }
                        }
                        accepted += 1;
                    }
                    Err(d) if d.kind == ErrorKind::Unsupported => {
                        declined.push(format!("{name}: {d}"))
                    }
                    Err(d) => panic!("{name}: dual fails: {d}"),
                }
            }
            continue;
        }
        let ct: Value<Rat> = random_cotangent(&f, 1);
        let want = match reference::vjp(&f, &inputs, &ct, &opts) {
            Ok(w) => w,
            Err(_) => continue,
        };
        match <Dual as Derivatives<Rat>>::vjp(&Dual, &f, &inputs, &ct, &opts) {
            Ok(got) => {
                assert_eq!(got, want, "{name}: dual (symbolic) vjp");
                let (rt, _) = runtime_vjp(&f, &inputs, &ct, &opts).expect("runtime vjp");
                assert_eq!(rt, want, "{name}: dual (runtime) vjp");
                if f.ret == Type::real() {
                    let got = <Dual as Derivatives<Rat>>::gradient(&Dual, &f, &inputs, &opts)
                        .expect("gradient");
                    let want = reference::gradient(&f, &inputs, &opts).expect("reference gradient");
                    assert_eq!(got, want, "{name}: dual gradient");
                }
                let tangents: Vec<Option<Value<Rat>>> = inputs
                    .iter()
                    .map(|x| x.ty().has_reals().then(|| x.clone()))
                    .collect();
                let want = reference::jvp(&f, &inputs, &tangents, &opts).expect("reference jvp");
                let got = <Dual as Derivatives<Rat>>::jvp(&Dual, &f, &inputs, &tangents, &opts)
                    .expect("jvp");
                assert_eq!(got, want, "{name}: dual jvp");
                accepted += 1;
            }
            Err(d) if d.kind == ErrorKind::Unsupported => declined.push(format!("{name}: {d}")),
            Err(d) if d.message.contains("bot") => bot_failed.push(format!("{name}: {d}")),
            Err(d) => panic!("{name}: dual fails: {d}"),
        }
        let got = <DualScalar as Derivatives<Rat>>::vjp(&DualScalar, &f, &inputs, &ct, &opts)
            .unwrap_or_else(|d| panic!("{name}: dual-scalar fails: {d}"));
        assert_eq!(got, want, "{name}: dual-scalar vjp");
        scalar_ok += 1;
    }
    println!("dual accepted {accepted} golden programs; dual-scalar {scalar_ok}; declined:");
    for d in &declined {
        println!("  {d}");
    }
    println!("bot failed on:");
    for d in &bot_failed {
        println!("  {d}");
    }
    assert!(accepted >= 20, "only {accepted} golden programs accepted");
}
