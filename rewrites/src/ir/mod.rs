//! The shared e-graph IR: the egg language of the core IR ([`lang`]), its analyses,
//! translation of elaborated core functions into an e-graph and back (extraction with
//! lets re-introduced), and the runner configuration every rule system uses.

pub mod analysis;
pub mod lang;
