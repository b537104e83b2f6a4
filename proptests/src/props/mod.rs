//! The properties, one module per area: [`lang`] (parser, printer, checker, elaboration),
//! [`semantics`] (evaluators and the reference derivative), [`cost`] (cost models); with
//! shared helpers in [`util`] and alpha-equivalence in [`alpha`].

pub mod alpha;
pub mod cost;
pub mod lang;
pub mod semantics;
pub mod util;
