//! Differentiation engines as seen by the spec runner: the registry's traits, re-exported
//! from `adora_rewrites::engine` (the engines live in `adora-rewrites`).

pub use adora_rewrites::engine::{unsupported, Derivatives, Engine, Reference};
