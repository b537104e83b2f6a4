//! Per-engine options (docs/architecture.md, "Engine options"): one small value,
//! [`EngineOptions`], that the command line, the harness's callers and the property
//! catalogue pass through the engine interface. An engine declares the options it takes
//! ([`super::Engine::options`]) and returns itself configured by them
//! ([`super::Engine::configured`]); [`configure`] is the one place that checks that
//! every option given is one the engine takes. The default value sets no option and
//! leaves every engine as it is.

use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use std::fmt;

/// How a reverse mode checkpoints sequential loops (seed 004 *AD for an Array Language
/// with Nested Parallelism* §4.3, §6.2; docs/engines/soac-reverse.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Checkpoint {
    /// The accumulator at every iteration's entry: the body runs twice (§4.3).
    #[default]
    Every,
    /// One checkpoint for the loop where the loop-variant arrays have no false (WAR,
    /// WAW) dependencies (§6.2); per-iteration checkpoints elsewhere.
    Once,
    /// Strip-mined into `k ≥ 1` levels of nested loops, each checkpointed at every
    /// iteration: about `k · n^(1/k)` checkpoints, the body run `k + 1` times (§1
    /// footnote 1, §4.3).
    StripMine(usize),
}

impl Checkpoint {
    /// Parses `every`, `once` or `stripmine:K` (`K ≥ 1`, a decimal integer); the error
    /// says what is accepted.
    pub fn parse(text: &str) -> std::result::Result<Checkpoint, String> {
        const ACCEPTED: &str =
            "expected `every`, `once` or `stripmine:K` with K a whole number of levels, at least 1";
        match text {
            "every" => Ok(Checkpoint::Every),
            "once" => Ok(Checkpoint::Once),
            _ => {
                let Some(k) = text.strip_prefix("stripmine:") else {
                    return Err(format!("unknown checkpoint policy `{text}`: {ACCEPTED}"));
                };
                match k.parse::<usize>() {
                    Ok(0) => Err(format!(
                        "checkpoint policy `{text}`: strip-mining needs at least 1 level ({ACCEPTED})"
                    )),
                    Ok(k) => Ok(Checkpoint::StripMine(k)),
                    Err(_) => Err(format!(
                        "checkpoint policy `{text}`: `{k}` is not a number of levels ({ACCEPTED})"
                    )),
                }
            }
        }
    }
}

impl fmt::Display for Checkpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Checkpoint::Every => write!(f, "every"),
            Checkpoint::Once => write!(f, "once"),
            Checkpoint::StripMine(k) => write!(f, "stripmine:{k}"),
        }
    }
}

/// One per-engine option, as engines declare the options they take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineOption {
    /// [`EngineOptions::checkpoint`]: the loop checkpointing policy.
    Checkpoint,
}

impl EngineOption {
    /// The command-line flag that sets it (`--checkpoint`).
    pub fn flag(self) -> &'static str {
        match self {
            EngineOption::Checkpoint => "--checkpoint",
        }
    }
}

/// Options for one engine (builder style; `EngineOptions::default()` sets none and
/// leaves every engine as it is).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineOptions {
    /// The loop checkpointing policy of a reverse mode (`None`: the engine's default).
    pub checkpoint: Option<Checkpoint>,
}

impl EngineOptions {
    /// No option set.
    pub fn new() -> Self {
        Self::default()
    }

    /// With the loop checkpointing policy `c`.
    pub fn checkpoint(mut self, c: Checkpoint) -> Self {
        self.checkpoint = Some(c);
        self
    }

    /// The options set, in a fixed order.
    pub fn given(&self) -> Vec<EngineOption> {
        let mut out = Vec::new();
        if self.checkpoint.is_some() {
            out.push(EngineOption::Checkpoint);
        }
        out
    }

    /// Whether no option is set.
    pub fn is_empty(&self) -> bool {
        self.given().is_empty()
    }

    /// These options without those that `takes` does not list.
    pub fn restricted_to(&self, takes: &[EngineOption]) -> Self {
        let mut out = self.clone();
        if !takes.contains(&EngineOption::Checkpoint) {
            out.checkpoint = None;
        }
        out
    }
}

/// `e` configured by `opts`: `e` itself when no option is set, else
/// [`super::Engine::configured`]; an `Input` error naming the flag when `e` does not
/// take an option that is set, with the engines that do.
pub fn configure(
    e: Box<dyn super::Engine>,
    opts: &EngineOptions,
) -> Result<Box<dyn super::Engine>> {
    if opts.is_empty() {
        return Ok(e);
    }
    for o in opts.given() {
        if !e.options().contains(&o) {
            let with: Vec<String> = super::registry()
                .iter()
                .filter(|x| x.options().contains(&o))
                .map(|x| format!("`{}`", x.name()))
                .collect();
            let with = if with.is_empty() {
                "none".to_string()
            } else {
                with.join(", ")
            };
            return Err(Diagnostic::new(
                ErrorKind::Input,
                Span::DUMMY,
                format!(
                    "engine `{}` has no option {}; engines that take it: {with}",
                    e.name(),
                    o.flag()
                ),
            ));
        }
    }
    e.configured(opts)
}

/// Each of `engines` configured by the options of `opts` it takes (the others run as
/// they are): `--engine all`. An `Input` error when no engine takes an option set.
pub fn configure_each(
    engines: Vec<Box<dyn super::Engine>>,
    opts: &EngineOptions,
) -> Result<Vec<Box<dyn super::Engine>>> {
    for o in opts.given() {
        if !engines.iter().any(|e| e.options().contains(&o)) {
            return Err(Diagnostic::new(
                ErrorKind::Input,
                Span::DUMMY,
                format!("no engine selected takes the option {}", o.flag()),
            ));
        }
    }
    engines
        .into_iter()
        .map(|e| {
            let mine = opts.restricted_to(e.options());
            configure(e, &mine)
        })
        .collect()
}
