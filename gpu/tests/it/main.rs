//! The integration tests of `adora-gpu`, one binary (docs/architecture.md, "Tests").

mod corpus;
mod limits;
mod nvrtc;
mod shim;
mod traffic;
