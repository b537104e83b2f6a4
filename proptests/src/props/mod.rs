//! The properties, one module per area: [`lang`] (parser, printer, checker, elaboration),
//! [`semantics`] (evaluators and the reference derivative), [`cost`] (cost models), [`bot`] (the bulk-operation transform), [`dual`] (dual-arrays
//! reverse AD), [`linear`] (linearize, unzip, transpose), [`kit`] (the lowering kit), [`soac`] (engine `soac`'s lowering), [`soac_reverse`] (engine `soac`'s reverse mode), [`engines`] (the properties every registered
//! engine gets, generated from the registry), [`soac_rules`] (the reverse rules of engine `soac`),
//! [`tssa_passes`] (engine `tssa`'s egg passes, with rule instances planted by [`tssa_plant`] and
//! data paths fitted by [`tssa_iso`]); with
//! shared helpers in [`util`] and alpha-equivalence in [`alpha`].

pub mod alpha;
pub mod bot;
pub mod cost;
pub mod dual;
pub mod engines;
pub mod kit;
pub mod lang;
pub mod linear;
pub mod semantics;
pub mod soac;
pub mod soac_reverse;
pub mod soac_rules;
pub mod tssa_iso;
pub mod tssa_passes;
pub mod tssa_plant;
pub mod util;
