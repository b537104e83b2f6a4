//! Differentiation engines as seen by the spec runner.
//!
//! Every engine answers the three derivative questions of the headers (`grad`, `jvp`,
//! `vjp`) for an elaborated [`Function`], in exact mode and (optionally) in `f64` mode. An
//! engine that does not accept a program (outside its fragment, or a mode it lacks)
//! returns an error of kind [`ErrorKind::Unsupported`]: the runner then skips that engine
//! for that question and records the skip. Any other error is a failure, and so is any
//! answer that differs from the headers. Today the only engine is [`Reference`] (forward
//! mode by exact dual numbers); later engines implement this trait and are passed to
//! [`crate::run_case`] next to it.

use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference::{self, Gradient};
use adora_semantics::value::Value;
use adora_semantics::Rat;

/// An error of kind `Unsupported` saying that `engine` does not implement `what`.
pub fn unsupported(engine: &str, what: &str) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Unsupported,
        Span::DUMMY,
        format!("engine `{engine}` does not implement {what}"),
    )
}

/// A differentiation engine (see the module documentation). Every method has a default
/// that declines with [`unsupported`], so an engine implements only what it supports.
pub trait Engine: Sync {
    /// A short name for reports.
    fn name(&self) -> &str;

    /// Value and gradient of a scalar-real program, exactly.
    fn gradient(
        &self,
        f: &Function,
        inputs: &[Value<Rat>],
        opts: &EvalOptions,
    ) -> Result<Gradient<Rat>> {
        let _ = (f, inputs, opts);
        Err(unsupported(self.name(), "exact gradients"))
    }

    /// Value and tangent of the result for the given input tangents (`None`: zero), exactly.
    fn jvp(
        &self,
        f: &Function,
        inputs: &[Value<Rat>],
        tangents: &[Option<Value<Rat>>],
        opts: &EvalOptions,
    ) -> Result<(Value<Rat>, Value<Rat>)> {
        let _ = (f, inputs, tangents, opts);
        Err(unsupported(self.name(), "exact JVPs"))
    }

    /// Value and input cotangents for an output cotangent, exactly.
    fn vjp(
        &self,
        f: &Function,
        inputs: &[Value<Rat>],
        cotangent: &Value<Rat>,
        opts: &EvalOptions,
    ) -> Result<Gradient<Rat>> {
        let _ = (f, inputs, cotangent, opts);
        Err(unsupported(self.name(), "exact VJPs"))
    }

    /// [`Engine::gradient`] in `f64` mode.
    fn gradient_f64(
        &self,
        f: &Function,
        inputs: &[Value<f64>],
        opts: &EvalOptions,
    ) -> Result<Gradient<f64>> {
        let _ = (f, inputs, opts);
        Err(unsupported(self.name(), "f64 gradients"))
    }

    /// [`Engine::jvp`] in `f64` mode.
    fn jvp_f64(
        &self,
        f: &Function,
        inputs: &[Value<f64>],
        tangents: &[Option<Value<f64>>],
        opts: &EvalOptions,
    ) -> Result<(Value<f64>, Value<f64>)> {
        let _ = (f, inputs, tangents, opts);
        Err(unsupported(self.name(), "f64 JVPs"))
    }

    /// [`Engine::vjp`] in `f64` mode.
    fn vjp_f64(
        &self,
        f: &Function,
        inputs: &[Value<f64>],
        cotangent: &Value<f64>,
        opts: &EvalOptions,
    ) -> Result<Gradient<f64>> {
        let _ = (f, inputs, cotangent, opts);
        Err(unsupported(self.name(), "f64 VJPs"))
    }
}

/// The reference derivative of `adora_semantics::reference` (forward mode by dual numbers,
/// DESIGN §3): accepts every program, in both modes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl Engine for Reference {
    fn name(&self) -> &str {
        "reference"
    }
    fn gradient(
        &self,
        f: &Function,
        inputs: &[Value<Rat>],
        opts: &EvalOptions,
    ) -> Result<Gradient<Rat>> {
        reference::gradient(f, inputs, opts)
    }
    fn jvp(
        &self,
        f: &Function,
        inputs: &[Value<Rat>],
        tangents: &[Option<Value<Rat>>],
        opts: &EvalOptions,
    ) -> Result<(Value<Rat>, Value<Rat>)> {
        reference::jvp(f, inputs, tangents, opts)
    }
    fn vjp(
        &self,
        f: &Function,
        inputs: &[Value<Rat>],
        cotangent: &Value<Rat>,
        opts: &EvalOptions,
    ) -> Result<Gradient<Rat>> {
        reference::vjp(f, inputs, cotangent, opts)
    }
    fn gradient_f64(
        &self,
        f: &Function,
        inputs: &[Value<f64>],
        opts: &EvalOptions,
    ) -> Result<Gradient<f64>> {
        reference::gradient(f, inputs, opts)
    }
    fn jvp_f64(
        &self,
        f: &Function,
        inputs: &[Value<f64>],
        tangents: &[Option<Value<f64>>],
        opts: &EvalOptions,
    ) -> Result<(Value<f64>, Value<f64>)> {
        reference::jvp(f, inputs, tangents, opts)
    }
    fn vjp_f64(
        &self,
        f: &Function,
        inputs: &[Value<f64>],
        cotangent: &Value<f64>,
        opts: &EvalOptions,
    ) -> Result<Gradient<f64>> {
        reference::vjp(f, inputs, cotangent, opts)
    }
}
