//! The engine registry: what every AD engine answers, shared by the spec runner, the
//! property catalogue and the command line.
//!
//! Every engine answers the three derivative questions of the headers (`grad`, `jvp`,
//! `vjp`) for an elaborated [`Function`], once per numeric mode: [`Derivatives<S>`] is one
//! mode's answers, and an [`Engine`] is a named pair of them (exact rationals and `f64`).
//! An engine that does not accept a program (outside its fragment, or a mode it lacks)
//! returns an error of kind [`ErrorKind::Unsupported`] — the default of every method — and
//! a caller (the spec runner, `--engine all`) then skips that engine for that question and records the skip. Any other
//! error is a failure, and so is any answer that differs from the headers. The reference
//! derivative [`Reference`] (forward mode by exact dual numbers) is the ground truth every
//! other engine is compared with.

use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference::{self, Gradient};
use adora_semantics::scalar::Scalar;
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

/// One numeric mode's answers of an engine. Every method has a default that declines
/// with [`unsupported`], so an engine implements only what it supports.
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

/// A differentiation engine: a name and its answers in exact and in `f64` mode (the
/// runner upcasts `&dyn Engine` to the `&dyn Derivatives<S>` of the case's mode).
pub trait Engine: Derivatives<Rat> + Derivatives<f64> {
    /// A short name for reports and `--engine` (`reference`, `dual`, ...).
    fn name(&self) -> &str;
    /// One line saying what the engine is (paper and pipeline), for `--engine` help.
    fn description(&self) -> &str {
        ""
    }
}

/// A scalar type engines answer in: picks an engine's answers for this numeric mode (exact
/// rationals or `f64`), so generic callers can dispatch on the mode.
pub trait EngineScalar: Scalar {
    /// The engine's answers in this mode.
    fn answers(e: &dyn Engine) -> &dyn Derivatives<Self>;
}

impl EngineScalar for Rat {
    fn answers(e: &dyn Engine) -> &dyn Derivatives<Rat> {
        e
    }
}

impl EngineScalar for f64 {
    fn answers(e: &dyn Engine) -> &dyn Derivatives<f64> {
        e
    }
}

/// Every engine, in a fixed order: the reference first, then the program-transforming
/// engines in the order of the seeds.
pub fn registry() -> Vec<Box<dyn Engine>> {
    vec![
        Box::new(Reference),
        Box::new(crate::dual::Dual),
        Box::new(crate::dual::DualScalar),
        Box::new(crate::linear::Linear),
    ]
}

/// The engine called `name`.
pub fn find(name: &str) -> Option<Box<dyn Engine>> {
    registry().into_iter().find(|e| e.name() == name)
}

/// The reference derivative of `adora_semantics::reference` (forward mode by dual numbers,
/// docs/architecture.md): accepts every program, in both modes.
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
    fn name(&self) -> &str {
        "reference"
    }
    fn description(&self) -> &str {
        "exact forward mode by dual numbers, the ground truth (docs/architecture.md)"
    }
}
