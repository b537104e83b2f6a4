//! The engine `soac` (seed 004, *AD for an Array Language with Nested Parallelism*):
//! its entry in the registry (`crate::engine::registry`) and the questions it answers by
//! derivative programs (docs/engines/soac.md).

use super::reverse::{self, Checkpoint, Rules};
use crate::engine::{DerivativeProgram, Engine, EngineOption, EngineOptions, Fragment, Question};
use adora_core::ast::Function;
use adora_core::diag::Result;

/// The engine `soac`: forward mode by tangent statements interleaved with the primal
/// (seed 004 §2.0.1, §3; [`super::forward`]) and reverse mode by redundant execution
/// (seed 004 §4–§6; [`super::reverse`]) over the whole core language. Its one option is
/// the reverse mode's loop checkpointing policy (`--checkpoint`, default
/// [`Checkpoint::Every`]); forward mode has no checkpoints and ignores it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Soac {
    /// How the reverse mode checkpoints loops.
    pub checkpoint: Checkpoint,
}

impl Soac {
    /// The engine with the loop checkpointing policy `c`.
    pub fn with_checkpoint(c: Checkpoint) -> Self {
        Soac { checkpoint: c }
    }
}

impl Engine for Soac {
    fn name(&self) -> &str {
        "soac"
    }
    fn description(&self) -> &str {
        "seed 004 (AD for an Array Language with Nested Parallelism): JVP programs by tangent statements interleaved with the primal; VJP and grad programs by redundant execution (forward sweep, return sweep), over every construct"
    }
    fn fragments(&self) -> &'static [Fragment] {
        &[Fragment::Scalar, Fragment::Bulk, Fragment::Soac]
    }
    fn programs(&self) -> &'static [Question] {
        &[Question::Grad, Question::Vjp, Question::Jvp]
    }

    fn program(&self, f: &Function, q: Question) -> Result<DerivativeProgram> {
        match q {
            Question::Jvp => super::forward::program(f),
            Question::Grad | Question::Vjp => {
                reverse::counted_with(f, q, Rules::default(), self.checkpoint).map(|(dp, _)| dp)
            }
        }
    }
    fn options(&self) -> &'static [EngineOption] {
        &[EngineOption::Checkpoint]
    }
    fn configured(&self, opts: &EngineOptions) -> Result<Box<dyn Engine>> {
        Ok(Box::new(Soac {
            checkpoint: opts.checkpoint.unwrap_or(self.checkpoint),
        }))
    }
}
