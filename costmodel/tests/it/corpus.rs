//! Every golden program and example that loads is measured on its default inputs, and the
//! structural invariants of the models hold: `work ≥ ops`, `span ≤ work`, `mem ≥ inputs`,
//! and measuring is deterministic. Exact mode where possible, f64 where the program uses
//! non-rational operations. (Programs other helpers are still editing may fail to load;
//! they are skipped, but at least a handful must be measured.)
use adora_core::ErrorKind;
use adora_costmodel::{default_inputs, measure, measure_with, Costs};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::{Tensor, Value};
use adora_semantics::Rat;
use num_traits::ToPrimitive;
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "adl") {
            out.push(p);
        }
    }
}

fn to_f64(v: &Value<Rat>) -> Value<f64> {
    match v {
        Value::Real(t) => Value::Real(Tensor {
            shape: t.shape.clone(),
            data: t.data.iter().map(|r| r.to_f64().unwrap_or(0.5)).collect(),
        }),
        Value::Int(t) => Value::Int(t.clone()),
        Value::Bool(t) => Value::Bool(t.clone()),
        Value::Tuple(vs) => Value::Tuple(vs.iter().map(to_f64).collect()),
    }
}

#[test]
fn invariants_hold_on_every_golden_program() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut all = Vec::new();
    files(&root.join("specs/programs"), &mut all);
    files(&root.join("examples"), &mut all);
    all.sort();
    let opts = EvalOptions::default();
    let mut measured = 0;
    for path in &all {
        let Ok(src) = std::fs::read_to_string(path) else {
            continue;
        };
        let Ok(f) = adora_core::load(&src, "main") else {
            continue;
        };
        let xs = default_inputs(&f);
        let run = || -> Option<Costs> {
            match measure(&f, &xs, &opts) {
                Ok(c) => Some(c),
                Err(d) if d.kind == ErrorKind::NonRational => {
                    let ys: Vec<Value<f64>> = xs.iter().map(to_f64).collect();
                    measure_with(&f, &ys, &opts).ok()
                }
                Err(_) => None,
            }
        };
        let Some(c) = run() else { continue };
        let name = path.display();
        let inputs: u64 = f.params.iter().map(|p| p.ty.size() as u64).sum();
        assert!(c.work >= c.ops, "{name}: {c}");
        assert!(c.span <= c.work, "{name}: {c}");
        assert!(c.mem >= inputs, "{name}: {c}, inputs {inputs}");
        assert_eq!(run(), Some(c), "{name}: measuring is deterministic");
        measured += 1;
    }
    eprintln!("measured {measured} of {} programs", all.len());
    assert!(
        measured >= 5 || all.len() < 5,
        "only {measured} of {} programs measured",
        all.len()
    );
}
