//! CUDA (docs/backend.md, "CUDA"): the plan's kernels as CUDA C ([`codegen`]), compiled
//! at run time by NVRTC ([`nvrtc`]) and launched through `cudarc` ([`device`]). Without
//! a driver or a device, [`run`] answers [`CudaError::NoDevice`]; nothing here panics
//! for want of a library.

pub mod codegen;
mod device;
pub mod expr;
pub mod nvrtc;
pub mod shim;

pub use device::{run, CudaError};
