//! `adora show FILE --stage S [--engine E]`: the program after a named stage, as valid
//! source; `--stage grad|vjp|jvp` prints engine `E`'s derivative program. With
//! `--conventions jax|pytorch` the stages start from the program lowered for that profile
//! (adora_rewrites::conventions; docs/conventions.md, "Every engine").

use super::error::CliError;
use super::inputs;
use super::names::all_stages;
use super::sizes::Sizing;
use adora_core::diag::ErrorKind;
use adora_rewrites::conventions::lower;
use adora_rewrites::engine::{self, Engine, EngineOptions, Question};
use adora_semantics::conventions::Conventions;
use std::path::Path;

/// `adora show`.
pub fn show(
    file: &Path,
    stage: &str,
    entry: &str,
    engine: Option<&str>,
    opts: &EngineOptions,
    sizes: &[String],
    conventions: Conventions,
) -> Result<(), CliError> {
    let sizing = Sizing {
        explicit: sizes,
        run: None,
    };
    // The program lowered for `conventions` (itself under `futhark`).
    let load = || -> Result<inputs::Loaded, CliError> {
        let mut l = inputs::load(file, entry, sizing)?;
        l.func = lower(&l.func, conventions)
            .map_err(|d| inputs::render(&l, &d))?
            .function;
        Ok(l)
    };
    if let Some(q) = Question::from_name(stage) {
        let e = program_engine(engine, q, opts)?;
        let l = load()?;
        let dp = e.program(&l.func, q).map_err(|d| inputs::render(&l, &d))?;
        let text = adora_core::pretty::function(&dp.function);
        print!("{text}");
        if !text.ends_with('\n') {
            println!();
        }
        return Ok(());
    }
    if let Some(o) = opts.given().first() {
        return Err(inputs::plain_error(
            ErrorKind::Input,
            format!(
                "{} is an engine option: it applies to the derivative stages (grad, vjp, jvp), not to `{stage}`",
                o.flag()
            ),
        ));
    }
    let tssa = adora_rewrites::tssa::pipeline::STAGES
        .iter()
        .any(|(n, _)| *n == stage);
    if conventions != Conventions::Futhark && (stage == "parse" || tssa) {
        return Err(inputs::plain_error(
            ErrorKind::Input,
            format!("`--conventions` applies to the stages of elaborated programs (inline, bot, delta, plan, grad, vjp, jvp), not to `{stage}`"),
        ));
    }
    if let Some(text) = tssa_stage(file, stage, entry, engine, sizing)? {
        print!("{text}");
        if !text.ends_with('\n') {
            println!();
        }
        return Ok(());
    }
    match stage {
        "parse" => {
            let src = inputs::read_source(file)?;
            let name = file.display().to_string();
            let p = match super::sizes::bind(&src, &name, entry, sizing)? {
                None => adora_core::parse(&src),
                Some(s) => adora_core::parser::parse_program_sized(&src, entry, &s),
            }
            .map_err(|d| inputs::rendered(&d, &name, &src))?;
            print!("{}", adora_core::pretty::program(&p));
        }
        "inline" => {
            let l = load()?;
            print!("{}", adora_core::pretty::function(&l.func));
        }
        "bot" | "delta" => {
            let l = load()?;
            let text = match stage {
                "bot" => adora_rewrites::bot::show(&l.func),
                _ => adora_rewrites::dual::delta_text(&l.func),
            }
            .map_err(|d| inputs::render(&l, &d))?;
            print!("{text}");
            if !text.ends_with('\n') {
                println!();
            }
        }
        "plan" => {
            let l = load()?;
            let p = adora_gpu::plan::plan(&l.func).map_err(|d| inputs::render(&l, &d))?;
            print!("{}", adora_gpu::plan::show(&p));
        }
        "c" => {
            let l = load()?;
            let p = adora_gpu::plan::plan(&l.func).map_err(|d| inputs::render(&l, &d))?;
            print!("{}", adora_gpu::cpu::native::module(&p).text);
        }
        other => {
            let list: Vec<String> = all_stages()
                .iter()
                .map(|(n, w)| format!("  {n}: {w}"))
                .collect();
            return Err(inputs::plain_error(
                ErrorKind::Input,
                format!(
                    "unknown stage `{other}`; available stages:\n{}",
                    list.join("\n")
                ),
            ));
        }
    }
    Ok(())
}

/// The stages of engine `tssa`'s pipeline (`tl`, `letlift`, `pairelim`, `genpush`, `ssa`;
/// docs/engines/tssa.md): the program after that stage, in the tensor language's
/// notation. `None`: not one of them. Naming another engine is an input error.
fn tssa_stage(
    file: &Path,
    stage: &str,
    entry: &str,
    engine: Option<&str>,
    sizing: Sizing,
) -> Result<Option<String>, CliError> {
    use adora_rewrites::tssa::pipeline;
    if !pipeline::STAGES.iter().any(|(n, _)| *n == stage) {
        return Ok(None);
    }
    if let Some(e) = engine.filter(|e| *e != "tssa") {
        return Err(inputs::plain_error(
            ErrorKind::Input,
            format!("stage `{stage}` belongs to engine `tssa`, not `{e}`"),
        ));
    }
    let l = inputs::load(file, entry, sizing)?;
    let text = pipeline::text(&l.func, stage)
        .unwrap_or_else(|| Ok(String::new()))
        .map_err(|d| inputs::render(&l, &d))?;
    Ok(Some(text))
}

/// The engine whose derivative program for `q` is wanted, configured by the engine
/// options `opts`: the one named (an `Unsupported` error naming it when it derives no
/// such program), or the first registered engine that derives one; an option it does not
/// take is an `Input` error (exit 2).
pub fn program_engine(
    name: Option<&str>,
    q: Question,
    opts: &EngineOptions,
) -> Result<Box<dyn Engine>, CliError> {
    let e = match name {
        Some(n) => engine::find(n)
            .ok_or_else(|| inputs::plain_error(ErrorKind::Input, super::unknown_engine(n)))?,
        None => engine::with_program(q).into_iter().next().ok_or_else(|| {
            inputs::plain_error(
                ErrorKind::Unsupported,
                format!("no registered engine derives a {} program", q.name()),
            )
        })?,
    };
    if !e.programs().contains(&q) {
        let with: Vec<String> = engine::with_program(q)
            .iter()
            .map(|e| format!("`{}`", e.name()))
            .collect();
        let derives: Vec<&str> = e.programs().iter().map(|q| q.name()).collect();
        let why = if derives.is_empty() {
            "it answers at run time only".to_string()
        } else {
            format!("it derives: {}", derives.join(", "))
        };
        return Err(inputs::plain_error(
            ErrorKind::Unsupported,
            format!(
                "engine `{}` derives no {} program ({why}); engines that do: {}",
                e.name(),
                q.name(),
                with.join(", ")
            ),
        ));
    }
    engine::configure(e, opts).map_err(|d| inputs::plain_error(d.kind, d.message))
}

/// `adora linearize`: the Linear A program of the entry point's JVP.
pub fn linearize(file: &Path, entry: &str, sizes: &[String]) -> Result<(), CliError> {
    let sizing = Sizing {
        explicit: sizes,
        run: None,
    };
    let l = inputs::load(file, entry, sizing)?;
    let lp = adora_rewrites::linear::linearize(&l.func).map_err(|d| inputs::render(&l, &d))?;
    print!("{}", adora_core::linear::print::program(&lp));
    Ok(())
}

/// `adora transpose`: the transpose of a Linear A `def`.
pub fn transpose(file: &Path, entry: &str) -> Result<(), CliError> {
    let src = inputs::read_source(file)?;
    let out = adora_rewrites::linear::transpose_source(&src, entry)
        .map_err(|d| inputs::rendered(&d, &file.display().to_string(), &src))?;
    print!("{out}");
    if !out.ends_with('\n') {
        println!();
    }
    Ok(())
}
