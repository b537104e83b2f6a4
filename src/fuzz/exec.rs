//! One execution: the case's target run in-process on its input with the library calls
//! the command line makes (src/cli), under the case's step limit. The caller catches
//! panics; an `ErrorKind::Internal` error is reported as a finding too (exit 3 of the
//! command line is a bug).

use super::case::Case;
use super::Target;
use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind};
use adora_rewrites::engine::harness::{self, Mode, Query};
use adora_rewrites::engine::program::ones;
use adora_rewrites::engine::{self, Question, Seed};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;
use adora_semantics::Rat;

/// How an execution ended (a panic is caught by the caller).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It succeeded.
    Ok,
    /// It rejected the input with an error of this class (not `Internal`).
    Rejected(ErrorKind),
    /// It failed with an internal error: a finding.
    Internal(String),
}

type Res = Result<(), Diagnostic>;

/// Runs `case`.
pub fn execute(case: &Case) -> Outcome {
    let r = match case.target {
        Target::Parse => parse(case),
        Target::Check => load(case).map(|f| drop(adora_core::pretty::function(&f))),
        Target::Show => show(case),
        Target::Eval | Target::Grad | Target::Jvp | Target::Vjp if case.f64 => run::<f64>(case),
        Target::Eval | Target::Grad | Target::Jvp | Target::Vjp => run::<Rat>(case),
        Target::Cost => cost(case),
        Target::SelftestPanic => {
            assert!(
                !case.src.len().is_multiple_of(3),
                "fuzzer self-test: an injected panic"
            );
            Ok(())
        }
        Target::SelftestAbort => {
            if case.src.len().is_multiple_of(5) {
                std::process::abort();
            }
            Ok(())
        }
        Target::SelftestHang => {
            if case.src.len().is_multiple_of(7) {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            }
            Ok(())
        }
    };
    match r {
        Ok(()) => Outcome::Ok,
        Err(d) if d.kind == ErrorKind::Internal => Outcome::Internal(d.message),
        Err(d) => Outcome::Rejected(d.kind),
    }
}

fn opts(case: &Case) -> EvalOptions {
    EvalOptions {
        strict: case.strict,
        max_steps: case.max_steps,
        ..EvalOptions::default()
    }
}

/// Parses, prints and parses the printed program again: `show --stage parse` promises
/// source that parses (docs/language.md); a printed program that does not is internal.
fn parse(case: &Case) -> Res {
    let p = adora_core::parse(&case.src)?;
    let text = adora_core::pretty::program(&p);
    adora_core::parse(&text).map(drop).map_err(|d| {
        Diagnostic::new(
            ErrorKind::Internal,
            d.span,
            format!("the printed program does not parse again: {}", d.message),
        )
    })
}

fn load(case: &Case) -> Result<Function, Diagnostic> {
    adora_core::load(&case.src, &case.entry)
}

fn show(case: &Case) -> Res {
    if case.stage == "parse" {
        return parse(case);
    }
    let f = load(case)?;
    match case.stage.as_str() {
        "bot" => adora_rewrites::bot::show(&f).map(drop),
        "delta" => adora_rewrites::dual::delta_text(&f).map(drop),
        "inline" => {
            adora_core::pretty::function(&f);
            Ok(())
        }
        stage => {
            let q = Question::from_name(stage)
                .expect("stages are parse, inline, bot, delta, or questions");
            let e = engine::find(&case.engine).expect("engines come from the registry");
            let dp = e.program(&f, q)?;
            adora_core::pretty::function(&dp.function);
            Ok(())
        }
    }
}

/// The value of `text` as a literal of type `ty`.
fn literal<S: Mode>(text: &str, ty: &adora_core::types::Type) -> Result<Value<S>, Diagnostic> {
    let e = adora_core::parser::parse_expr(text)?;
    adora_semantics::io::value_from_expr::<S>(&e, ty)
}

/// The inputs of `f`, in parameter order (a missing one is an input error, as on the
/// command line).
fn inputs<S: Mode>(case: &Case, f: &Function) -> Result<Vec<Value<S>>, Diagnostic> {
    f.params
        .iter()
        .map(|p| match case.inputs.iter().find(|(n, _)| *n == p.name) {
            Some((_, text)) => literal(text, &p.ty),
            None => Err(Diagnostic::new(
                ErrorKind::Input,
                adora_core::diag::Span::DUMMY,
                format!("missing input `{}`", p.name),
            )),
        })
        .collect()
}

fn run<S: Mode>(case: &Case) -> Res {
    let f = load(case)?;
    let xs = inputs::<S>(case, &f)?;
    let o = opts(case);
    let e = || engine::find(&case.engine).expect("engines come from the registry");
    match case.target {
        Target::Eval => adora_semantics::eval::eval(&f, &xs, &o).map(drop),
        Target::Grad => harness::gradient(e().as_ref(), &f, &xs, &o).map(drop),
        Target::Jvp => {
            let mut ts = vec![None; f.params.len()];
            for (name, text) in &case.tangents {
                if let Some(k) = f.params.iter().position(|p| p.name == *name) {
                    ts[k] = Some(literal(text, &f.params[k].ty)?);
                }
            }
            harness::ask(e().as_ref(), &f, &xs, &Query::Jvp(ts), &o).map(drop)
        }
        _ => {
            let ct = literal::<S>(&case.cotangent, &f.ret)?;
            harness::vjp(e().as_ref(), &f, &xs, &ct, &o).map(drop)
        }
    }
}

/// `adora cost --engine E`: the primal's costs and those of the engine's VJP program.
fn cost(case: &Case) -> Res {
    let f = load(case)?;
    let xs = if case.inputs.is_empty() {
        adora_costmodel::default_inputs(&f)
    } else {
        inputs::<Rat>(case, &f)?
    };
    let o = opts(case);
    adora_costmodel::measure(&f, &xs, &o)?;
    let e = engine::find(&case.engine).expect("engines come from the registry");
    if !e.programs().contains(&Question::Vjp) {
        return Ok(());
    }
    let dp = e.program(&f, Question::Vjp)?;
    let ct: Value<Rat> = ones(&f.ret);
    let args = dp.arguments(&f, &xs, Seed::Cotangent(&ct))?;
    adora_costmodel::measure(&dp.function, &args, &o).map(drop)
}
