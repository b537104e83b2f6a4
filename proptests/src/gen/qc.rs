//! quickcheck integration: [`QcProgram`] is `Arbitrary` over the same generators (a
//! seeded generator driven from quickcheck's `Gen`) and shrinks with the same steps as
//! the proptest strategy.

use super::shrink::candidates;
use super::{generate, Case, Fragment, GenSpec};
use crate::values::Rat;
use adora_core::ast::Program;
use adora_semantics::value::Value;
use quickcheck::{Arbitrary, Gen};
use std::fmt;

/// A generated program of a fragment with its inputs (one per parameter of `main`).
#[derive(Clone, PartialEq)]
pub struct QcProgram(pub Fragment, pub Program, pub Vec<Value<Rat>>);

impl QcProgram {
    /// The same data as a [`Case`].
    pub fn to_case(&self) -> Case {
        Case {
            fragment: self.0,
            program: self.1.clone(),
            inputs: self.2.clone(),
            aux: 0,
        }
    }

    fn from_case(c: Case) -> QcProgram {
        QcProgram(c.fragment, c.program, c.inputs)
    }
}

impl fmt::Debug for QcProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_case(), f)
    }
}

impl Arbitrary for QcProgram {
    /// A random fragment, a seed from `g`, and a size budget of `g.size()` clamped to
    /// 4..=60.
    fn arbitrary(g: &mut Gen) -> QcProgram {
        let frag = *g.choose(&Fragment::ALL).unwrap_or(&Fragment::Scalar);
        let seed = u64::arbitrary(g);
        let size = (g.size() as u32).clamp(4, 60);
        QcProgram::from_case(generate(&GenSpec::new(frag).size(size), seed))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = QcProgram>> {
        Box::new(
            candidates(&self.to_case())
                .into_iter()
                .map(QcProgram::from_case),
        )
    }
}
