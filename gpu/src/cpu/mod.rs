//! The CPU executor (docs/backend.md, "CPU executor"): runs a plan's steps in order on
//! every core (rayon). Each kernel's index space is cut into chunks; a chunk evaluates
//! the kernel body over all its lanes at once ([`lanes`]). Matrix products go to
//! `matrixmultiply`'s `dgemm`, one block of rows per task. Scatters compute their
//! (index, value) pairs in parallel and add them in source order, so results do not
//! depend on the thread schedule.
//!
//! | part | file |
//! |---|---|
//! | prepared runs: slots made once, inputs loaded once, calls | `machine.rs` ([`Machine`]) |
//! | `map`, `scan`, `scatter` kernels over chunks of lanes | `kernels.rs` |
//! | `reduce` kernels | `reduce.rs` |
//! | `matmul` kernels, batched products | `matmul.rs` |
//! | compiled kernels: C source, the C compiler, runs | `native/` ([`native::Native`]) |
//! | a kernel body over the lanes of a chunk | `lanes.rs`, `arith.rs`, `load.rs` |
//! | values in and out of buffers | `values.rs` |
//! | the machine's copy bandwidth | `stream.rs` |

mod arith;
mod kernels;
pub mod lanes;
mod load;
mod machine;
mod matmul;
pub mod native;
mod reduce;
pub mod stream;
mod values;

pub use machine::Machine;
pub use native::Kernels;
pub use values::{load_output, store_inputs};

use crate::plan::Plan;
use adora_core::diag::Result;
use adora_semantics::value::Value;

/// Runs `plan` on `inputs` (one value per parameter, of its type) and returns the result:
/// a fresh [`Machine`], its inputs loaded, called once.
pub fn run(plan: &Plan, inputs: &[Value<f64>]) -> Result<Value<f64>> {
    run_with(plan, inputs, Kernels::Lanes)
}

/// [`run`] with the kernels `kernels` asks for ([`Machine::with_kernels`]).
pub fn run_with(plan: &Plan, inputs: &[Value<f64>], kernels: Kernels) -> Result<Value<f64>> {
    let mut m = Machine::with_kernels(plan, kernels)?;
    m.load(inputs)?;
    m.call()
}
