//! The integration tests of `adora-gpu`, one binary (docs/architecture.md, "Tests").

mod contractions;
mod corpus;
mod limits;
mod nvrtc;
mod sharing;
mod shim;
mod traffic;
