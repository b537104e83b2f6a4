//! Adora's rewrite systems and AD engines.
//!
//! - [`engine`]: the engine registry (what every AD engine answers) and the reference.
//! - [`ir`]: the egg language of the core IR, its analyses, translation in and out.
//! - [`bot`]: the bulk-operation transform of seed 000 §5 as an egg rule system.

#![warn(missing_docs)]

pub mod bot;
pub mod engine;
pub mod ir;
