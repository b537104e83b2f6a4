//! Helpers shared by the `dual_*` integration tests: loading programs, literal and random
//! inputs, and the cross-pipeline agreement check (reference, runtime reverse pass,
//! symbolic gradient program, dual-scalar), exact.

#![allow(dead_code)]

use adora_core::ast::Function;
use adora_core::types::{Base, Type};
use adora_rewrites::dual::symbolic::wrapper;
use adora_rewrites::dual::{self, eval_gradient_program, runtime_jvp_normal, runtime_vjp_normal};
use adora_semantics::eval::EvalOptions;
use adora_semantics::io::value_from_expr;
use adora_semantics::reference;
use adora_semantics::value::{Tensor, Value};
use adora_semantics::Rat;
use num_bigint::BigInt;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Parses, checks and elaborates `main`.
pub fn load(src: &str) -> Function {
    adora_core::load(src, "main").unwrap_or_else(|d| panic!("{}", d.render("test.adl", src)))
}

/// The literal `text` as a value of the type of parameter `k`.
pub fn lit(f: &Function, k: usize, text: &str) -> Value<Rat> {
    let e = adora_core::parser::parse_expr(text).expect("literal parses");
    value_from_expr(&e, &f.params[k].ty).expect("literal fits the type")
}

/// The literal `text` as a value of type `ty`.
pub fn lit_ty(ty: &Type, text: &str) -> Value<Rat> {
    let e = adora_core::parser::parse_expr(text).expect("literal parses");
    value_from_expr(&e, ty).expect("literal fits the type")
}

/// An exact rational `n / d`.
pub fn rat(n: i64, d: i64) -> Rat {
    Rat::new(BigInt::from(n), BigInt::from(d))
}

/// A random value of `ty`: reals in -5/4..5/4 (some zero), integers in -1..4.
pub fn random_value(ty: &Type, rng: &mut ChaCha8Rng) -> Value<Rat> {
    match ty {
        Type::Array(b, s) => {
            let n: usize = s.iter().product();
            match b {
                Base::R => Value::Real(Tensor {
                    shape: s.clone(),
                    data: (0..n)
                        .map(|_| rat(rng.gen_range(-5..=5), rng.gen_range(1..=4)))
                        .collect(),
                }),
                Base::Z => Value::Int(Tensor {
                    shape: s.clone(),
                    data: (0..n).map(|_| rng.gen_range(-1..4)).collect(),
                }),
                Base::B => Value::Bool(Tensor {
                    shape: s.clone(),
                    data: (0..n).map(|_| rng.gen_bool(0.5)).collect(),
                }),
            }
        }
        Type::Tuple(ts) => Value::Tuple(ts.iter().map(|t| random_value(t, rng)).collect()),
    }
}

/// Random inputs for `f`.
pub fn random_inputs(f: &Function, seed: u64) -> Vec<Value<Rat>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    f.params
        .iter()
        .map(|p| random_value(&p.ty, &mut rng))
        .collect()
}

/// A random cotangent for `f`'s result.
pub fn random_cotangent(f: &Function, seed: u64) -> Value<Rat> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    random_value(&f.ret, &mut rng)
}

/// Checks, exactly, that the reference VJP equals the runtime reverse pass, the symbolic
/// gradient program and dual-scalar on a build-free `f` (no bot), for the cotangent `ct`;
/// and that the runtime JVP equals the reference JVP for a random tangent.
pub fn agree(f: &Function, inputs: &[Value<Rat>], ct: &Value<Rat>) {
    let opts = EvalOptions::default();
    let want = reference::vjp(f, inputs, ct, &opts).expect("reference vjp");
    let (rt, _) = runtime_vjp_normal(f, inputs, ct, &opts).expect("runtime vjp");
    assert_eq!(rt, want, "runtime reverse pass vs reference");
    let gp = wrapper::gradient_program(f).expect("gradient program");
    let sym = eval_gradient_program(&gp, inputs, ct, &opts).expect("gradient program evaluates");
    assert_eq!(
        sym,
        want,
        "symbolic gradient program vs reference:\n{}",
        adora_core::pretty::function(&gp.function)
    );
    let sc = dual::scalar::vjp(f, inputs, ct, &opts).expect("dual-scalar vjp");
    assert_eq!(sc, want, "dual-scalar vs reference");
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let tangents: Vec<Option<Value<Rat>>> = f
        .params
        .iter()
        .map(|p| p.ty.has_reals().then(|| random_value(&p.ty, &mut rng)))
        .collect();
    let want = reference::jvp(f, inputs, &tangents, &opts).expect("reference jvp");
    let got = runtime_jvp_normal(f, inputs, &tangents, &opts).expect("runtime jvp");
    assert_eq!(got, want, "runtime jvp vs reference");
    let got = dual::scalar::jvp(f, inputs, &tangents, &opts).expect("dual-scalar jvp");
    assert_eq!(got, want, "dual-scalar jvp vs reference");
}

/// [`agree`] on several random inputs and cotangents.
pub fn agree_random(src: &str, cases: u64) {
    let f = load(src);
    for seed in 0..cases {
        let inputs = random_inputs(&f, seed);
        let ct = random_cotangent(&f, seed);
        agree(&f, &inputs, &ct);
    }
}

/// A golden program of `specs/programs`: its source, entry, numeric mode and the inputs
/// of its `-- input:` headers (as literal texts by name).
pub struct Golden {
    /// The file.
    pub path: std::path::PathBuf,
    /// The whole text.
    pub source: String,
    /// `-- entry:` (default `main`).
    pub entry: String,
    /// Whether `-- numeric: f64 ...` is set.
    pub f64: bool,
    /// `-- input: name = literal`.
    pub inputs: Vec<(String, String)>,
}

/// Every golden program under `specs/programs` (sorted by path).
pub fn goldens() -> Vec<Golden> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../specs/programs");
    let mut files = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "adl") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let source = std::fs::read_to_string(&path).expect("readable");
            let mut g = Golden {
                path,
                source: source.clone(),
                entry: "main".into(),
                f64: false,
                inputs: Vec::new(),
            };
            for line in source.lines() {
                let t = line.trim();
                if !t.starts_with("--") {
                    if t.is_empty() {
                        continue;
                    }
                    break;
                }
                let body = t.trim_start_matches("--").trim();
                if let Some(rest) = body.strip_prefix("input:") {
                    if let Some((n, l)) = rest.split_once('=') {
                        g.inputs.push((n.trim().to_string(), l.trim().to_string()));
                    }
                } else if let Some(rest) = body.strip_prefix("entry:") {
                    g.entry = rest.trim().to_string();
                } else if body.starts_with("numeric: f64") {
                    g.f64 = true;
                }
            }
            g
        })
        .collect()
}

impl Golden {
    /// The elaborated entry point and its inputs in parameter order (`None` when the
    /// program does not load or an input is missing).
    pub fn load(&self) -> Option<(Function, Vec<Value<Rat>>)> {
        let f = adora_core::load(&self.source, &self.entry).ok()?;
        let mut inputs = Vec::new();
        for p in &f.params {
            let (_, text) = self.inputs.iter().find(|(n, _)| *n == p.name)?;
            inputs.push(lit_ty(&p.ty, text));
        }
        Some((f, inputs))
    }
}
