//! The integration tests of `adora-gpu`, one binary (docs/architecture.md, "Tests").

mod batched;
mod compiled;
mod contractions;
mod corpus;
mod lanes;
mod limits;
mod machine;
mod nvrtc;
mod sharing;
mod shim;
mod traffic;
