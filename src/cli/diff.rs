//! `adora eval`, `grad`, `jvp`, `vjp`: values and derivatives of a program, exact, f64 or
//! certified enclosures (`--numeric ball`).

use super::compare::{self, Verdict};
use super::error::CliError;
use super::inputs::{self, literal, render, split_assignment, Loaded};
use super::schema::{answer_json, with_warnings, Question, QuestionText};
use super::{Format, Numeric, RunArgs, ALL_ENGINES};
use adora_core::diag::ErrorKind;
use adora_rewrites::engine::harness::{self, Mode, Query};
use adora_rewrites::engine::{self, Engine};
use adora_semantics::eval::{EvalOptions, EvalStats};
use adora_semantics::io::{to_json, to_text};
use adora_semantics::reference::Gradient;
use adora_semantics::scalar::interval::PrecisionScope;
use adora_semantics::scalar::{Interval, Scalar};
use adora_semantics::value::Value;
use adora_semantics::Rat;
use serde_json::json;

/// The engines `--engine` selects, configured by the engine options given
/// (`--checkpoint`): one by name (none given: the registry's reference), or every
/// registered engine for `all` (each configured by the options it takes). An option the
/// engine does not take is a usage error (exit 2) naming the engines that take it.
pub fn select_engines(a: &RunArgs) -> Result<Vec<Box<dyn Engine>>, CliError> {
    let opts = a.engine_options();
    let bad = |d: adora_core::diag::Diagnostic| inputs::plain_error(d.kind, d.message);
    let Some(name) = a.engine.as_deref() else {
        return Ok(vec![
            engine::configure(engine::reference(), &opts).map_err(bad)?
        ]);
    };
    if name == ALL_ENGINES {
        return engine::options::configure_each(engine::registry(), &opts).map_err(bad);
    }
    let e = engine::find(name)
        .ok_or_else(|| inputs::plain_error(ErrorKind::Input, super::unknown_engine(name)))?;
    Ok(vec![engine::configure(e, &opts).map_err(bad)?])
}

/// Evaluation options from the command line.
pub fn options(a: &RunArgs) -> EvalOptions {
    EvalOptions {
        strict: a.strict,
        max_steps: a.max_steps,
        max_memory: a.max_memory,
        conventions: a.conventions.into(),
        ..EvalOptions::default()
    }
}

/// Dispatches on `--numeric` to a function generic over the scalar type.
macro_rules! numeric {
    ($a:expr, $f:ident ( $($arg:expr),* )) => {
        match $a.numeric {
            Numeric::Exact => $f::<Rat>($($arg),*),
            Numeric::F64 => $f::<f64>($($arg),*),
            Numeric::Ball => {
                let _p = PrecisionScope::new($a.precision as usize);
                $f::<Interval>($($arg),*)
            }
        }
    };
}

/// `adora eval`.
pub fn eval(a: &RunArgs) -> Result<(), CliError> {
    let l = inputs::load_run(a)?;
    numeric!(a, eval_with(&l, a))
}

fn eval_with<S: Scalar>(l: &Loaded, a: &RunArgs) -> Result<(), CliError> {
    let xs = inputs::inputs::<S>(l, a)?;
    let (v, stats) =
        adora_semantics::eval::eval(&l.func, &xs, &options(a)).map_err(|d| render(l, &d))?;
    match a.format {
        Format::Json => println!(
            "{}",
            with_warnings(
                l,
                json!({"value": to_json(&v), "stats": stats_json(&stats)})
            )
        ),
        Format::Text => {
            println!("value: {}", to_text(&v));
            print_notes(&stats, a.numeric);
        }
    }
    Ok(())
}

/// `adora grad`.
pub fn grad(a: &RunArgs) -> Result<Verdict, CliError> {
    let engines = select_engines(a)?;
    let l = inputs::load_run(a)?;
    numeric!(a, grad_with(&l, a, &engines))
}

fn grad_with<S: Mode>(
    l: &Loaded,
    a: &RunArgs,
    engines: &[Box<dyn Engine>],
) -> Result<Verdict, CliError> {
    let xs = inputs::inputs::<S>(l, a)?;
    let opts = options(a);
    if let (false, [e]) = (all(a), engines) {
        let g = harness::gradient(e.as_ref(), &l.func, &xs, &opts).map_err(|d| render(l, &d))?;
        print_gradient(l, a.format, &g, Question::Grad);
        return Ok(Verdict::Agree);
    }
    compare::all_engines(l, Question::Grad, a.format, engines, |e| {
        harness::ask(e, &l.func, &xs, &Query::Grad, &opts)
    })
}

/// Whether `--engine all` was given.
fn all(a: &RunArgs) -> bool {
    a.engine.as_deref() == Some(ALL_ENGINES)
}

/// `adora jvp`.
pub fn jvp(a: &RunArgs, tangents: &[String]) -> Result<Verdict, CliError> {
    let engines = select_engines(a)?;
    let l = inputs::load_run(a)?;
    if tangents.is_empty() {
        if let Some(e) = super::tangents::missing(&l.func) {
            return Err(inputs::plain_error(ErrorKind::Input, e));
        }
    }
    numeric!(a, jvp_with(&l, a, tangents, &engines))
}

fn jvp_with<S: Mode>(
    l: &Loaded,
    a: &RunArgs,
    tangents: &[String],
    engines: &[Box<dyn Engine>],
) -> Result<Verdict, CliError> {
    let xs = inputs::inputs::<S>(l, a)?;
    let mut ts: Vec<Option<Value<S>>> = vec![None; l.func.params.len()];
    for t in tangents {
        let (name, text) = split_assignment("--tangent", t)?;
        let k = l
            .func
            .params
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| inputs::unknown_input(l, &format!("--tangent {t}"), &name))?;
        if ts[k].is_some() {
            return Err(inputs::plain_error(
                ErrorKind::Input,
                format!("--tangent {t}: the tangent of `{name}` is given twice"),
            ));
        }
        if !l.func.params[k].ty.has_reals() {
            return Err(inputs::plain_error(
                ErrorKind::Input,
                format!(
                    "--tangent {t}: input `{name}` has no real part (type {}); it is a constant",
                    l.func.params[k].ty
                ),
            ));
        }
        ts[k] = Some(literal(
            &format!("--tangent {name}"),
            &text,
            &l.func.params[k].ty,
        )?);
    }
    let opts = options(a);
    if let (false, [e]) = (all(a), engines) {
        let (v, t) =
            harness::jvp(e.as_ref(), &l.func, &xs, &ts, &opts).map_err(|d| render(l, &d))?;
        match a.format {
            Format::Json => {
                let g = Gradient {
                    value: v,
                    grads: vec![Some(t)],
                };
                println!("{}", with_warnings(l, answer_json(Question::Jvp, l, &g)));
            }
            Format::Text => {
                println!("value:   {}", to_text(&v));
                println!("tangent: {}", to_text(&t));
            }
        }
        return Ok(Verdict::Agree);
    }
    let query = Query::Jvp(ts);
    compare::all_engines(l, Question::Jvp, a.format, engines, |e| {
        harness::ask(e, &l.func, &xs, &query, &opts)
    })
}

/// `adora vjp`.
pub fn vjp(a: &RunArgs, cotangent: &str) -> Result<Verdict, CliError> {
    let engines = select_engines(a)?;
    let l = inputs::load_run(a)?;
    numeric!(a, vjp_with(&l, a, cotangent, &engines))
}

fn vjp_with<S: Mode>(
    l: &Loaded,
    a: &RunArgs,
    cotangent: &str,
    engines: &[Box<dyn Engine>],
) -> Result<Verdict, CliError> {
    let xs = inputs::inputs::<S>(l, a)?;
    let ct = literal::<S>("--cotangent", cotangent, &l.func.ret)?;
    let opts = options(a);
    if let (false, [e]) = (all(a), engines) {
        let g = harness::vjp(e.as_ref(), &l.func, &xs, &ct, &opts).map_err(|d| render(l, &d))?;
        print_gradient(l, a.format, &g, Question::Vjp);
        return Ok(Verdict::Agree);
    }
    let query = Query::Vjp(ct);
    compare::all_engines(l, Question::Vjp, a.format, engines, |e| {
        harness::ask(e, &l.func, &xs, &query, &opts)
    })
}

/// Prints a value and per-input gradients (`q`: grad) or cotangents (`q`: vjp).
pub fn print_gradient<S: Scalar>(l: &Loaded, format: Format, g: &Gradient<S>, q: Question) {
    match format {
        Format::Json => println!("{}", with_warnings(l, answer_json(q, l, g))),
        Format::Text => {
            println!("value: {}", to_text(&g.value));
            println!("{}:", q.title());
            for (p, gv) in l.func.params.iter().zip(&g.grads) {
                match gv {
                    Some(gv) => println!("  {}: {}", p.name, to_text(gv)),
                    None => println!("  {}: {} (not real: a constant)", p.name, p.ty),
                }
            }
        }
    }
}

fn stats_json(s: &EvalStats) -> serde_json::Value {
    json!({
        "div_by_zero": s.div_by_zero,
        "oob_reads": s.oob_reads,
        "oob_writes": s.oob_writes,
        "colliding_writes": s.colliding_writes,
        "steps": s.steps,
    })
}

fn print_notes(s: &EvalStats, numeric: Numeric) {
    let division = match numeric {
        Numeric::Exact => "division by zero returned 0 (--strict makes it an error)",
        Numeric::F64 => "division by zero gave the IEEE result (--strict makes it an error)",
        Numeric::Ball => "division by the point 0 returned 0 (--strict makes it an error)",
    };
    let notes = [
        (s.div_by_zero, division),
        (s.oob_reads, "out-of-bounds read returned 0"),
        (s.oob_writes, "out-of-bounds write was dropped"),
        (
            s.colliding_writes,
            "scatter_into write overwrote an earlier one (--strict makes it an error)",
        ),
    ];
    for (n, what) in notes {
        if n > 0 {
            println!("note: {n} × {what}");
        }
    }
}
