//! Helpers shared by the properties: loading a generated case through the real
//! pipeline, exact and `f64` evaluation, derived random data, and readable messages.

use crate::catalogue::Outcome;
use crate::gen::Case;
use crate::values::{from_reals, literal, rat, real_size, reals, with_reals, Rat};
use adora_core::ast::{Function, Program};
use adora_core::diag::{Diagnostic, ErrorKind};
use adora_core::{check, pretty};
use adora_semantics::eval::{eval, EvalOptions, EvalStats};
use adora_semantics::value::Value;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A diagnostic rendered against the printed program (`case.adl:line:col: ...`).
pub fn diag(d: &Diagnostic, src: &str) -> String {
    d.render("case.adl", src)
}

/// Type-checks a program and elaborates its `main` (the printed source is used for
/// error messages).
pub fn load_program(p: &Program, entry: &str) -> Result<Function, String> {
    let src = pretty::program(p);
    check::check_program(p)
        .map_err(|d| format!("the checker rejects the program: {}", diag(&d, &src)))?;
    check::elaborate(p, entry).map_err(|d| format!("elaboration fails: {}", diag(&d, &src)))
}

/// Loads a generated case's `main`. A case given with size parameters
/// ([`Case::sized_source`]) is loaded from that text, instantiated at its inputs' shapes,
/// and must give exactly the function of the generated program.
pub fn load(case: &Case) -> Result<Function, String> {
    let f = load_program(&case.program, "main")?;
    let Some(src) = case.sized_source() else {
        return Ok(f);
    };
    let inputs: Vec<(String, adora_core::Expr)> = case
        .main()
        .params
        .iter()
        .zip(&case.inputs)
        .map(|(p, v)| {
            let text = literal(v);
            let e = adora_core::parser::parse_literal(&text)
                .map_err(|d| format!("the input literal `{text}` does not parse: {d}"))?;
            Ok((p.name.clone(), e))
        })
        .collect::<Result<_, String>>()?;
    let g = adora_core::sizes::load_for_literals(&src, "main", &inputs).map_err(|d| {
        format!(
            "the program with size parameters does not load at its inputs' sizes: {}",
            diag(&d, &src)
        )
    })?;
    if g != f {
        return Err(format!(
            "instantiating the program with size parameters at its inputs' sizes gives\n{}\ninstead of\n{}",
            pretty::function(&g),
            pretty::function(&f)
        ));
    }
    Ok(g)
}

/// Parses, checks and elaborates program text.
pub fn load_text(src: &str, entry: &str) -> Result<Function, String> {
    let p = adora_core::parse(src).map_err(|d| format!("does not parse: {}", diag(&d, src)))?;
    check::check_program(&p).map_err(|d| format!("the checker rejects it: {}", diag(&d, src)))?;
    check::elaborate(&p, entry).map_err(|d| format!("elaboration fails: {}", diag(&d, src)))
}

/// Evaluation options of the properties (non-strict, default limits).
pub fn opts() -> EvalOptions {
    EvalOptions::default()
}

/// What an evaluation gave: a value, a resource limit (documented, so the case is
/// vacuous), or another error (a message).
pub enum Eval<S> {
    /// The value and statistics.
    Value(Value<S>, EvalStats),
    /// A resource limit was hit.
    Resource(String),
}

/// Evaluates exactly; errors other than resource limits become `Err`.
pub fn exact(f: &Function, inputs: &[Value<Rat>]) -> Result<Eval<Rat>, String> {
    classify(eval(f, inputs, &opts()), "exact evaluation")
}

/// Evaluates in `f64`; errors other than resource limits become `Err`.
pub fn float(f: &Function, inputs: &[Value<Rat>]) -> Result<Eval<f64>, String> {
    let xs: Vec<Value<f64>> = inputs.iter().map(crate::values::to_f64).collect();
    classify(eval(f, &xs, &opts()), "f64 evaluation")
}

/// Sorts an evaluation result into value / resource limit / error.
pub fn classify<S>(
    r: adora_core::Result<(Value<S>, EvalStats)>,
    what: &str,
) -> Result<Eval<S>, String> {
    match r {
        Ok((v, st)) => Ok(Eval::Value(v, st)),
        Err(d) if d.kind == ErrorKind::Resource => Ok(Eval::Resource(d.to_string())),
        Err(d) => Err(format!("{what} fails: {d}")),
    }
}

/// Whether an error is a resource limit (documented, so the case is vacuous).
pub fn is_resource(d: &Diagnostic) -> bool {
    d.kind == ErrorKind::Resource
}

/// A failure outcome.
pub fn fail(msg: impl Into<String>) -> Outcome {
    Err(msg.into())
}

/// The case's auxiliary random source (fixed while the case shrinks).
pub fn aux_rng(case: &Case, salt: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(case.aux ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A random small rational (numerator -5..5, denominator 1..4).
pub fn random_rat(rng: &mut ChaCha8Rng) -> Rat {
    rat(rng.gen_range(-5..=5), rng.gen_range(1..=4))
}

/// A random tangent for each input: `Some` (reals random, other parts copied from the
/// input) for inputs with reals, `None` otherwise.
pub fn random_tangents(inputs: &[Value<Rat>], rng: &mut ChaCha8Rng) -> Vec<Option<Value<Rat>>> {
    inputs
        .iter()
        .map(|x| {
            let n = reals(x).len();
            (n > 0).then(|| with_reals(x, &(0..n).map(|_| random_rat(rng)).collect::<Vec<_>>()))
        })
        .collect()
}

/// A random value of type `ty` (reals random; integers 0, booleans false).
pub fn random_value(ty: &adora_core::Type, rng: &mut ChaCha8Rng) -> Value<Rat> {
    let xs: Vec<Rat> = (0..real_size(ty)).map(|_| random_rat(rng)).collect();
    from_reals(ty, &xs)
}

/// Tangents rendered for messages.
pub fn show_tangents(ts: &[Option<Value<Rat>>]) -> String {
    ts.iter()
        .map(|t| t.as_ref().map(literal).unwrap_or_else(|| "0".into()))
        .collect::<Vec<_>>()
        .join(", ")
}
