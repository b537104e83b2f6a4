//! Tests of the type and shape checker, elaboration, inlining, per-node types
//! (`node_types`, `surface_node_types`) and the `visit` helpers.
//! Sources are parsed with `adora_core::parse`; deep trees and invariant violations are
//! built by hand.

mod annotate;
mod elab;
mod forms;
mod rules;
mod support;
mod surface_types;
mod visit;
