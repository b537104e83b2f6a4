//! The engine `soac` (seed 004, *AD for an Array Language with Nested Parallelism*):
//! its entry in the registry (`crate::engine::registry`) and the questions it answers by
//! derivative programs (docs/engines/soac-forward.md).

use crate::engine::{DerivativeProgram, Engine, Fragment, Question};
use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};

/// The engine `soac`: forward mode by tangent statements interleaved with the primal
/// (seed 004 §2.0.1, §3; [`super::forward`]) over the whole core language.
#[derive(Clone, Copy, Debug, Default)]
pub struct Soac;

impl Engine for Soac {
    fn name(&self) -> &str {
        "soac"
    }
    fn description(&self) -> &str {
        "seed 004 (AD for an Array Language with Nested Parallelism): JVP programs by tangent statements interleaved with the primal, over every construct"
    }
    fn fragments(&self) -> &'static [Fragment] {
        &[Fragment::Scalar, Fragment::Bulk, Fragment::Soac]
    }
    fn programs(&self) -> &'static [Question] {
        &[Question::Jvp]
    }
    fn program(&self, f: &Function, q: Question) -> Result<DerivativeProgram> {
        match q {
            Question::Jvp => super::forward::program(f),
            // The reverse mode (`soac/reverse/`) is not registered yet: a skip for every
            // caller, never a pass (docs/engines/soac-forward.md, "The engine").
            Question::Grad | Question::Vjp => Err(Diagnostic::new(
                ErrorKind::Unsupported,
                Span::DUMMY,
                format!(
                    "engine `soac` derives no {} program (it derives: jvp)",
                    q.name()
                ),
            )),
        }
    }
}
