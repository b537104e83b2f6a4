//! Differentiation engines as seen by the spec runner: the engine interface, re-exported
//! from `adora_rewrites::engine` (the engines and the harness live in `adora-rewrites`).

pub use adora_rewrites::engine::{
    harness, unsupported, Derivatives, Engine, Question, Reference, Runtime,
};
