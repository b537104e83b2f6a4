//! Tests of the type and shape checker, elaboration, inlining, per-node types
//! (`node_types`, `surface_node_types`) and the `visit` helpers.
//! Sources are parsed with `adora_core::parse`; deep trees and invariant violations are
//! built by hand.

#[path = "check/annotate.rs"]
mod annotate;
#[path = "check/elab.rs"]
mod elab;
#[path = "check/forms.rs"]
mod forms;
#[path = "check/rules.rs"]
mod rules;
#[path = "check/support.rs"]
mod support;
#[path = "check/surface_types.rs"]
mod surface_types;
#[path = "check/visit.rs"]
mod visit;
