//! The engine interface and the engine registry, shared by the spec runner, the property
//! catalogue and the command line (docs/architecture.md, "The engine interface").
//!
//! An [`Engine`] answers the three derivative [`Question`]s (`grad`, `vjp`, `jvp`) for an
//! elaborated [`Function`] in one of two ways:
//!
//! * by a [`DerivativeProgram`] ([`Engine::program`], for the questions of
//!   [`Engine::programs`]): a core program plus a [`Signature`], evaluated by the one
//!   evaluator, printable (`adora show --engine E --stage grad`) and costable
//!   (`adora cost --engine E`);
//! * at run time ([`Engine::runtime`]): the engine's own computation on concrete values,
//!   one [`Derivatives<S>`] per numeric mode (the reference, `dual-scalar`, and `dual`'s
//!   runtime reverse pass).
//!
//! Callers never choose between the two themselves: [`harness`] validates a question,
//! takes `grad` as a VJP with cotangent 1, runs the engine's program (or its runtime
//! answers when it has no program for the question), unpacks the outputs into the
//! reference's result types and compares them with the reference. An engine that does
//! not accept a program (outside its fragment, or a question it lacks) returns an error
//! of kind [`ErrorKind::Unsupported`]; callers skip it and record the skip.
//!
//! Per-engine options ([`EngineOptions`], e.g. engine `soac`'s loop checkpointing
//! policy) reach an engine through [`configure`], which returns the engine configured by
//! them ([`Engine::options`], [`Engine::configured`]).
//!
//! Adding an engine is one module plus one line in [`registry`].

pub mod harness;
pub mod locate;
pub mod options;
pub mod program;

pub use options::{configure, Checkpoint, EngineOption, EngineOptions};
pub use program::{DerivativeProgram, Input, Layout, Output, Question, Seed, Signature};

use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference::{self, Gradient};
use adora_semantics::scalar::{Interval, Scalar};
use adora_semantics::value::Value;
use adora_semantics::Rat;

/// An error of kind `Unsupported` saying that the engine does not answer `what`.
pub fn unsupported(what: &str) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Unsupported,
        Span::DUMMY,
        format!("the engine does not implement {what} in this numeric mode"),
    )
}

/// An error of kind `Unsupported` saying that engine `engine` derives no program for `q`.
pub fn no_program(engine: &str, q: Question) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Unsupported,
        Span::DUMMY,
        format!(
            "engine `{engine}` derives no {} program (it answers at run time only)",
            q.name()
        ),
    )
}

/// One numeric mode's runtime answers of an engine. Every method has a default that
/// declines with [`unsupported`], so an engine implements only what it supports. The
/// harness validates the question (input, tangent and cotangent types; a scalar result
/// for `grad`) before it calls these.
pub trait Derivatives<S: Scalar>: Sync {
    /// Value and gradient of a scalar-real program.
    fn gradient(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        opts: &EvalOptions,
    ) -> Result<Gradient<S>> {
        let _ = (f, inputs, opts);
        Err(unsupported("gradients"))
    }

    /// Value and tangent of the result for the given input tangents (`None`: zero).
    fn jvp(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        tangents: &[Option<Value<S>>],
        opts: &EvalOptions,
    ) -> Result<(Value<S>, Value<S>)> {
        let _ = (f, inputs, tangents, opts);
        Err(unsupported("JVPs"))
    }

    /// Value and input cotangents for an output cotangent.
    fn vjp(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        cotangent: &Value<S>,
        opts: &EvalOptions,
    ) -> Result<Gradient<S>> {
        let _ = (f, inputs, cotangent, opts);
        Err(unsupported("VJPs"))
    }
}

/// Runtime answers in both numeric modes (exact rationals and `f64`).
pub trait Runtime: Derivatives<Rat> + Derivatives<f64> + Derivatives<Interval> {}

impl<T: Derivatives<Rat> + Derivatives<f64> + Derivatives<Interval>> Runtime for T {}

/// A generator fragment of the property suite (docs/language.md): the programs an engine
/// accepts, so that the property catalogue draws its engine properties from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fragment {
    /// Scalars and tuples.
    Scalar,
    /// Seed 000's bulk array operations.
    Bulk,
    /// Seed 004's second-order array combinators and control flow.
    Soac,
}

impl Fragment {
    /// The fragment's name (`scalar`, `bulk`, `soac`), as the generators name it.
    pub fn name(self) -> &'static str {
        match self {
            Fragment::Scalar => "scalar",
            Fragment::Bulk => "bulk",
            Fragment::Soac => "soac",
        }
    }
}

/// A differentiation engine (module documentation).
pub trait Engine: Sync {
    /// A short name for reports, `--engine` and property names (`reference`, `dual`, ...).
    fn name(&self) -> &str;
    /// One line saying what the engine is (paper and pipeline), for `--engine` help.
    fn description(&self) -> &str {
        ""
    }
    /// The generator fragments whose programs the engine accepts (the property catalogue
    /// checks the engine on them).
    fn fragments(&self) -> &'static [Fragment] {
        &[]
    }
    /// The questions the engine answers by a derivative program.
    fn programs(&self) -> &'static [Question] {
        &[]
    }
    /// The derivative program answering `q` for `f` (`Unsupported`: outside the engine's
    /// fragment, or a question not in [`Engine::programs`]).
    fn program(&self, f: &Function, q: Question) -> Result<DerivativeProgram> {
        let _ = f;
        Err(no_program(self.name(), q))
    }
    /// The engine's runtime answers, if it has any.
    fn runtime(&self) -> Option<&dyn Runtime> {
        None
    }
    /// The constants `(K, C)` of the cheap-gradient bound `ops(gradient program) <= K
    /// ops(primal) + C (inputs + outputs)` (docs/cost-models.md) that the engine's paper
    /// claims for its `grad` program; `None`: no such claim (the property catalogue then
    /// checks no bound for it).
    fn cheap_gradient(&self) -> Option<(u64, u64)> {
        None
    }
    /// Whether the engine accepts only programs whose results are all real (engine
    /// `tssa`: the tensor language has no integer or boolean values, docs/engines/tssa.md);
    /// the engine properties count a case with an integer or boolean result as vacuous.
    fn real_results_only(&self) -> bool {
        false
    }
    /// Whether the engine implements the derivative conventions of `EvalOptions::conventions`
    /// itself (the reference). For every other engine the harness answers under a profile
    /// other than `futhark` from the program lowered by [`crate::conventions::lower`].
    fn implements_conventions(&self) -> bool {
        false
    }
    /// The per-engine options the engine takes ([`EngineOptions`]; docs/architecture.md,
    /// "Engine options"); none by default.
    fn options(&self) -> &'static [EngineOption] {
        &[]
    }
    /// The engine configured by `opts`, which sets only options of [`Engine::options`]
    /// ([`configure`] checks that before calling it). The default, for engines that take
    /// no option, declines with an `Input` error.
    fn configured(&self, opts: &EngineOptions) -> Result<Box<dyn Engine>> {
        let _ = opts;
        Err(Diagnostic::new(
            ErrorKind::Input,
            Span::DUMMY,
            format!("engine `{}` takes no options", self.name()),
        ))
    }
}

/// Every engine, in a fixed order: the reference first, then the other engines in the
/// order of the seeds. Adding an engine is adding its line here.
pub fn registry() -> Vec<Box<dyn Engine>> {
    vec![
        Box::new(Reference),
        Box::new(crate::dual::Dual),
        Box::new(crate::dual::DualScalar),
        Box::new(crate::linear::Linear),
        Box::new(crate::soac::Soac::default()),
        Box::new(crate::tssa::Tssa),
        Box::new(crate::pullback::Pullback),
    ]
}

/// The engine called `name`.
pub fn find(name: &str) -> Option<Box<dyn Engine>> {
    registry().into_iter().find(|e| e.name() == name)
}

/// The reference engine: the registry's first entry, the ground truth every other engine
/// is compared with.
pub fn reference() -> Box<dyn Engine> {
    Box::new(Reference)
}

/// The engines under test: every registered engine but the reference.
pub fn under_test() -> Vec<Box<dyn Engine>> {
    registry().into_iter().skip(1).collect()
}

/// The registered engines that derive a program for `q`, in registry order.
pub fn with_program(q: Question) -> Vec<Box<dyn Engine>> {
    registry()
        .into_iter()
        .filter(|e| e.programs().contains(&q))
        .collect()
}

/// The reference derivative of `adora_semantics::reference` (forward mode by dual numbers,
/// docs/architecture.md): accepts every program, in both modes; runtime only.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl<S: Scalar> Derivatives<S> for Reference {
    fn gradient(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        opts: &EvalOptions,
    ) -> Result<Gradient<S>> {
        reference::gradient(f, inputs, opts)
    }
    fn jvp(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        tangents: &[Option<Value<S>>],
        opts: &EvalOptions,
    ) -> Result<(Value<S>, Value<S>)> {
        reference::jvp(f, inputs, tangents, opts)
    }
    fn vjp(
        &self,
        f: &Function,
        inputs: &[Value<S>],
        cotangent: &Value<S>,
        opts: &EvalOptions,
    ) -> Result<Gradient<S>> {
        reference::vjp(f, inputs, cotangent, opts)
    }
}

impl Engine for Reference {
    fn implements_conventions(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "reference"
    }
    fn description(&self) -> &str {
        "exact forward mode by dual numbers, the ground truth (docs/architecture.md); runtime only, no derivative program"
    }
    fn fragments(&self) -> &'static [Fragment] {
        &[Fragment::Scalar, Fragment::Bulk, Fragment::Soac]
    }
    fn runtime(&self) -> Option<&dyn Runtime> {
        Some(self)
    }
}
