//! The programs the backend tests run: every golden program of `specs/programs/` with
//! its header inputs, and the derivative programs of every registered engine for them
//! (`grad` with cotangent 1 for a real scalar result, else `vjp` with a cotangent of
//! ones), as far as the plan accepts them.
//!
//! [`Scope::Quick`] (the default tests) keeps every primal program and, per program, the
//! derivative programs of one engine (taken in turn over the registry, so every engine's
//! programs are compiled and run); [`Scope::Full`] (the `--ignored` tests) keeps every
//! engine's derivative programs.

use adora_core::ast::Function;
use adora_core::types::Type;
use adora_gpu::plan::{plan, Plan};
use adora_rewrites::engine::{self, program::ones, Question, Seed};
use adora_semantics::value::Value;

/// One program of the corpus.
#[allow(dead_code)] // `func` and `inputs` serve the shim test.
pub struct Entry {
    /// A readable name (`linalg/matmul.adl`, `linalg/matmul.adl [dual grad]`).
    pub name: String,
    /// The function.
    pub func: Function,
    /// Its plan.
    pub plan: Plan,
    /// Its inputs, in f64.
    pub inputs: Vec<Value<f64>>,
}

fn inputs(case: &adora_specs::Case, f: &Function) -> Option<Vec<Value<f64>>> {
    f.params
        .iter()
        .map(|p| {
            let l = case.inputs.iter().find(|i| i.name == p.name)?;
            adora_specs::compare::literal_value::<f64>(&l.lit, &p.ty, &case.name(), &case.source)
                .ok()
        })
        .collect()
}

/// How much of the corpus a test takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scope {
    /// Every primal program and one engine's derivative programs per program.
    Quick,
    /// Every primal program and every engine's derivative programs.
    Full,
}

/// The corpus: primal programs, then the derivative programs `scope` asks for.
pub fn corpus(scope: Scope) -> Vec<Entry> {
    let dir = adora_specs::specs_dir().join("programs");
    let mut out = Vec::new();
    let engines = engine::under_test();
    for (k, path) in adora_specs::discover(&dir).into_iter().enumerate() {
        let Ok(case) = adora_specs::load_case(&path) else {
            continue;
        };
        let Ok(f) = adora_specs::sized::load(&case) else {
            continue;
        };
        let Some(xs) = inputs(&case, &f) else {
            continue;
        };
        let short = path
            .strip_prefix(&dir)
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        if let Ok(p) = plan(&f) {
            out.push(Entry {
                name: short.clone(),
                func: f.clone(),
                plan: p,
                inputs: xs.clone(),
            });
        }
        let scalar = f.ret == Type::real();
        let one = Value::real(1.0);
        let ct = ones::<f64>(&f.ret);
        for (j, e) in engines.iter().enumerate() {
            if scope == Scope::Quick && j != k % engines.len() {
                continue;
            }
            let q = if scalar {
                Question::Grad
            } else {
                Question::Vjp
            };
            if !e.programs().contains(&q) {
                continue;
            }
            let Ok(dp) = e.program(&f, q) else { continue };
            let seed = Seed::Cotangent(if scalar { &one } else { &ct });
            let Ok(args) = dp.arguments(&f, &xs, seed) else {
                continue;
            };
            if let Ok(p) = plan(&dp.function) {
                out.push(Entry {
                    name: format!("{short} [{} {}]", e.name(), q.name()),
                    func: dp.function.clone(),
                    plan: p,
                    inputs: args,
                });
            }
        }
    }
    out
}
