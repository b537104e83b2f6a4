//! `adora-gpu`: the backend (docs/backend.md). [`plan`] lowers an elaborated core
//! function to kernels over flat `f64` buffers; [`cpu`] runs a plan on every core;
//! [`cuda`] generates each kernel as CUDA C, compiles it with NVRTC and launches it
//! through `cudarc` where a device exists.

#![warn(missing_docs)]

pub mod cpu;
pub mod cuda;
pub mod plan;
