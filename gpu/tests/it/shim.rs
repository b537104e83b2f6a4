//! The same generated CUDA C, compiled by the system C++ compiler against
//! `gpu/shim/cuda_shim.h` (every thread of a block a fiber, so `__syncthreads` is a real
//! barrier) and run on the CPU with blocks and threads in forward, reverse and shuffled
//! orders, equals the CPU executor on every program of the corpus (within
//! `1e-9 · max(1, |r|)`: the reduction tree adds in another order). Without `g++` the
//! test prints "skipped: g++ not found" and passes.

use super::corpus::{corpus, Scope};
use adora_gpu::cuda::shim;
use adora_semantics::value::Value;
use std::process::Command;

/// Every scalar of a value, in order, as `f64` (shared with `contractions.rs`).
pub fn flatten(v: &Value<f64>, out: &mut Vec<f64>) {
    match v {
        Value::Real(t) => out.extend(&t.data),
        Value::Int(t) => out.extend(t.data.iter().map(|&x| x as f64)),
        Value::Bool(t) => out.extend(t.data.iter().map(|&x| f64::from(x))),
        Value::Tuple(vs) => vs.iter().for_each(|v| flatten(v, out)),
    }
}

fn agree(a: f64, r: f64) -> bool {
    (a.is_nan() && r.is_nan())
        || a == r
        || (a.is_finite() && r.is_finite() && (a - r).abs() <= 1e-9 * r.abs().max(1.0))
}

/// The quick corpus (every primal, one engine's derivatives per program).
#[test]
fn shim_runs_equal_the_cpu_executor_in_every_thread_order() {
    run_all(Scope::Quick);
}

/// The full corpus (every engine's derivatives): `cargo test -p adora-gpu -- --ignored`.
#[test]
#[ignore = "long: every engine's derivative programs (cargo test -- --ignored)"]
fn shim_runs_of_the_full_corpus_equal_the_cpu_executor() {
    run_all(Scope::Full);
}

fn run_all(scope: Scope) {
    if Command::new("g++").arg("--version").output().is_err() {
        println!("skipped: g++ not found");
        return;
    }
    let entries = corpus(scope);
    let dir = std::env::temp_dir().join(format!("adora-shim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    let (mut runs, mut kernels) = (0usize, 0usize);
    for (b, batch) in entries.chunks(80).enumerate() {
        let mut plans = Vec::new();
        let mut expected = Vec::new();
        for (i, e) in batch.iter().enumerate() {
            let mut slots: Vec<Vec<f64>> = e.plan.slots.iter().map(|&n| vec![0.0; n]).collect();
            adora_gpu::cpu::store_inputs(&e.plan, &e.inputs, &mut slots).unwrap();
            plans.push((format!("e{i}"), &e.plan, slots));
            let v = adora_gpu::cpu::run(&e.plan, &e.inputs).unwrap();
            let mut flat = Vec::new();
            flatten(&v, &mut flat);
            expected.push(flat);
            kernels += e.plan.kernels().len();
        }
        let src = shim::program(&plans);
        let cpp = dir.join(format!("batch{b}.cpp"));
        let exe = dir.join(format!("batch{b}"));
        std::fs::write(&cpp, &src).unwrap();
        let c = Command::new("g++")
            .args(["-std=c++17", "-O1", "-w", "-I"])
            .arg(shim::header())
            .arg(&cpp)
            .arg("-o")
            .arg(&exe)
            .output()
            .unwrap();
        assert!(
            c.status.success(),
            "g++ fails on batch {b}:\n{}",
            String::from_utf8_lossy(&c.stderr)
        );
        let r = Command::new(&exe).output().unwrap();
        assert!(
            r.status.success(),
            "batch {b} fails: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        let text = String::from_utf8_lossy(&r.stdout);
        for line in text.lines() {
            let mut parts = line.split_whitespace();
            let (Some(order), Some(name)) = (parts.next(), parts.next()) else {
                continue;
            };
            let i: usize = name[1..].parse().unwrap();
            let got: Vec<f64> = parts.map(|x| x.parse().unwrap()).collect();
            let want = &expected[i];
            runs += 1;
            if got.len() != want.len() || !got.iter().zip(want).all(|(a, r)| agree(*a, *r)) {
                failures.push(format!(
                    "{} ({order} order): shim {got:?}, CPU executor {want:?}",
                    batch[i].name
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "shim ({scope:?} corpus): {runs} runs ({} programs, {kernels} kernels, forward, reverse and shuffled orders) equal the CPU executor",
        entries.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(runs, 3 * entries.len());
}
