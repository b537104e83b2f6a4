//! `adora cost FILE [--engine E]`: cost-model counts of a program and, with `--engine`,
//! of engine `E`'s gradient program (its VJP program with cotangent 1: for scalar results
//! the gradient, otherwise the ones cotangent), the ratios and the cheap-gradient bound.
//! A runtime-only engine derives no program to cost: an `Unsupported` error naming it.

use super::error::CliError;
use super::inputs::{self, render};
use super::schema::with_warnings;
use super::show::program_engine;
use super::{Format, RunArgs, ALL_ENGINES};
use adora_core::diag::ErrorKind;
use adora_core::types::{Base, Type};
use adora_costmodel::Costs;
use adora_rewrites::engine::harness::{Mode, Query};
use adora_rewrites::engine::locate;
use adora_rewrites::engine::program::ones;
use adora_rewrites::engine::{Engine, Question, Seed};
use adora_semantics::value::Value;
use adora_semantics::Rat;
use serde_json::json;

/// The usage error of a command that has no `--numeric ball` mode.
pub fn ball_unsupported(command: &str) -> CliError {
    inputs::plain_error(
        adora_core::diag::ErrorKind::Input,
        format!("`adora {command}` has no --numeric ball mode (eval, grad, jvp and vjp have)"),
    )
}

/// `adora cost`.
pub fn cost(a: &RunArgs) -> Result<(), CliError> {
    let opts = a.engine_options();
    let engine = match a.engine.as_deref() {
        None if !opts.is_empty() => {
            return Err(inputs::plain_error(
                ErrorKind::Input,
                format!(
                    "{} is an engine option: name the engine whose derivative program is costed with --engine",
                    opts.given()[0].flag()
                ),
            ))
        }
        None => None,
        Some(ALL_ENGINES) => {
            return Err(inputs::plain_error(
                ErrorKind::Input,
                "cost measures one engine's derivative program; name the engine with --engine",
            ))
        }
        Some(name) => Some(program_engine(Some(name), Question::Vjp, &opts)?),
    };
    let l = inputs::load_run(a)?;
    let given = !a.inputs.is_empty() || a.inputs_json.is_some();
    // Costs are counted on the evaluation the user asks for: exact by default, IEEE
    // doubles with `--numeric f64` (programs with `exp`, `log`, `tanh`, ...); the counts
    // observe that evaluation (docs/cost-models.md).
    let (primal, gradient) = match a.numeric {
        super::Numeric::Exact => counts::<Rat>(a, &l, engine.as_deref(), given, |v| v)?,
        super::Numeric::F64 => counts::<f64>(a, &l, engine.as_deref(), given, |v| v.to_f64())?,
        super::Numeric::Ball => return Err(ball_unsupported("cost")),
    };
    // The engine's own cheap-gradient constants (docs/cost-models.md); an engine whose
    // paper claims none is reported against the `ops` model's reference constants.
    let (k, c) = engine
        .as_ref()
        .and_then(|e| e.cheap_gradient())
        .unwrap_or(REFERENCE_BOUND);
    // Engine `tssa`: its theorems are in the tensor cost `C` of Tensor SSA (seed 001 §4.3),
    // reported beside `ops` (docs/engines/tssa-derivatives.md, "The bounds").
    let tssa = match (&engine, a.numeric) {
        (Some(e), super::Numeric::Exact) if e.name() == "tssa" => {
            let xs: Vec<Value<Rat>> = if given {
                inputs::inputs::<Rat>(&l, a)?
            } else {
                adora_costmodel::default_inputs(&l.func)
            };
            Some(adora_rewrites::tssa::pipeline::costs(&l.func, &xs).map_err(|d| render(&l, &d))?)
        }
        _ => None,
    };
    match (a.format, &gradient) {
        (Format::Json, None) => {
            println!("{}", with_warnings(&l, json!({"primal": primal.to_json()})))
        }
        (Format::Json, Some((g, io))) => {
            let ratios = adora_costmodel::ratio(g, &primal);
            println!(
                "{}",
                with_warnings(
                    &l,
                    json!({"primal": primal.to_json(), "gradient": g.to_json(), "ratio": ratios.to_json(),
                       "cheap_gradient": cheap_json(&primal, g, *io, (k, c)),
                       "tssa": tssa.map(|t| json!({"c_primal": t.primal, "c_jvp": t.jvp, "c_gradient": t.vjp,
                           "x": t.x, "y": t.y, "thm_6_1": t.jvp <= 4 * t.primal,
                           "thm_6_55": t.vjp <= 4 * (t.primal + t.x + t.y),
                           "strong": t.vjp <= t.jvp + t.x + t.y}))})
                )
            )
        }
        (Format::Text, _) => {
            if !given {
                println!("inputs: deterministic defaults (give --input to choose them)");
            }
            print_costs("primal", &primal);
            if let Some(t) = &tssa {
                print_tssa(t);
            }
            match &gradient {
                Some((g, io)) => {
                    print_costs("gradient", g);
                    let r = adora_costmodel::ratio(g, &primal);
                    let show = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.3}"));
                    println!(
                        "ratio (gradient / primal): ops {}  work {}  span {}  mem {}",
                        show(r.ops),
                        show(r.work),
                        show(r.span),
                        show(r.mem)
                    );
                    let holds = adora_costmodel::cheap_gradient_bound(&primal, g, k, c, *io);
                    println!(
                        "cheap-gradient bound ops(gradient) <= {k} * ops(primal) + {c} * (inputs + outputs = {io}): {}",
                        if holds { "holds" } else { "VIOLATED" }
                    );
                }
                None => println!(
                    "(give --engine to cost a derivative program too: {})",
                    adora_rewrites::engine::with_program(Question::Vjp)
                        .iter()
                        .map(|e| e.name().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        }
    }
    Ok(())
}

/// The primal's costs and, with an engine, its gradient program's costs and the number of
/// input plus output scalars, counted with scalars `S` (`convert` turns the deterministic
/// default inputs into `S`).
fn counts<S: Mode>(
    a: &RunArgs,
    l: &inputs::Loaded,
    engine: Option<&dyn Engine>,
    given: bool,
    convert: impl Fn(Value<Rat>) -> Value<S>,
) -> Result<(Costs, Option<(Costs, u64)>), CliError> {
    let xs = if given {
        inputs::inputs::<S>(l, a)?
    } else {
        adora_costmodel::default_inputs(&l.func)
            .into_iter()
            .map(convert)
            .collect()
    };
    let opts = super::diff::options(a);
    let primal = adora_costmodel::measure_with(&l.func, &xs, &opts).map_err(|d| render(l, &d))?;
    let gradient = match engine {
        Some(e) => Some(gradient_costs(e, l, &xs, &opts)?),
        None => None,
    };
    Ok((primal, gradient))
}

/// Costs of engine `e`'s VJP program at the same inputs with cotangent 1 (ones of the
/// result's shape), and the number of input plus output scalars.
fn gradient_costs<S: Mode>(
    e: &dyn Engine,
    l: &inputs::Loaded,
    xs: &[Value<S>],
    opts: &adora_semantics::eval::EvalOptions,
) -> Result<(Costs, u64), CliError> {
    let dp = e
        .program(&l.func, Question::Vjp)
        .map_err(|d| render(l, &d))?;
    let ct: Value<S> = ones(&l.func.ret);
    let args = dp
        .arguments(&l.func, xs, Seed::Cotangent(&ct))
        .map_err(|d| render(l, &d))?;
    let g = adora_costmodel::measure_with(&dp.function, &args, opts).map_err(|d| {
        // An error met in the generated program has no source position: locate it
        // (docs/architecture.md, "Errors of engines").
        let d = if locate::needs_position(&d) {
            let query = Query::Vjp(ct.clone());
            locate::locate(e.name(), d, &l.func, xs, &query, opts)
        } else {
            d
        };
        render(l, &d)
    })?;
    let io: usize = l
        .func
        .params
        .iter()
        .map(|p| real_scalars(&p.ty))
        .sum::<usize>()
        + real_scalars(&l.func.ret);
    Ok((g, io as u64))
}

fn real_scalars(t: &Type) -> usize {
    match t {
        Type::Array(Base::R, s) => s.iter().product(),
        Type::Array(..) => 0,
        Type::Tuple(ts) => ts.iter().map(real_scalars).sum(),
    }
}

/// The `ops` model's reference constants `(K, C)` of the cheap-gradient bound, for
/// engines that declare none of their own.
const REFERENCE_BOUND: (u64, u64) = (4, 1);

fn cheap_json(primal: &Costs, g: &Costs, io: u64, (k, c): (u64, u64)) -> serde_json::Value {
    json!({"k": k, "c": c, "inputs_and_outputs": io,
           "holds": adora_costmodel::cheap_gradient_bound(primal, g, k, c, io),
           "min_k": adora_costmodel::cheap_gradient_min_k(primal, g, c, io)})
}

fn print_tssa(t: &adora_rewrites::tssa::pipeline::TssaCosts) {
    let ok = |b: bool| if b { "holds" } else { "VIOLATED" };
    println!(
        "tensor cost C (seed 001 §4.3, Tensor SSA): primal {}  jvp C(D) {}  gradient C(R) {}  |X| {}  |Y| {}",
        t.primal, t.jvp, t.vjp, t.x, t.y
    );
    println!(
        "Theorem 6.1 C(D) <= 4 C: {}; Theorem 6.55 C(R) <= 4 (C + |X| + |Y|): {}; strong form C(R) <= C(D) + |X| + |Y|: {}",
        ok(t.jvp <= 4 * t.primal),
        ok(t.vjp <= 4 * (t.primal + t.x + t.y)),
        ok(t.vjp <= t.jvp + t.x + t.y)
    );
}

fn print_costs(title: &str, c: &Costs) {
    println!(
        "{title}: ops {}  work {}  span {}  mem {}",
        c.ops, c.work, c.span, c.mem
    );
}
