//! A STREAM-like copy (docs/backend.md, "Memory traffic"): the memory bandwidth this
//! machine reaches copying one large `f64` array into another on every core, the limit
//! against which `adora run --repeat` reports the executor's achieved bandwidth. The
//! arrays (64 MiB each) are far larger than the caches, so the copy streams from memory.

use rayon::prelude::*;
use std::time::Instant;

/// Elements of each array of the copy (64 MiB of `f64`s).
pub const COPY_ELEMENTS: usize = 8 << 20;

/// Timed repetitions of the copy; the fastest counts (as STREAM reports its best time).
pub const COPY_REPEATS: usize = 5;

/// The measured copy bandwidth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CopyBandwidth {
    /// Bytes moved per copy (each element read once and written once).
    pub bytes: u64,
    /// Seconds of the fastest copy.
    pub seconds: f64,
}

impl CopyBandwidth {
    /// Bytes per second.
    pub fn bytes_per_second(&self) -> f64 {
        self.bytes as f64 / self.seconds.max(f64::MIN_POSITIVE)
    }
}

/// Copies `elements` `f64`s from one array into another `repeats` times, in parallel
/// blocks, after touching both arrays once, and returns the fastest copy.
pub fn measure(elements: usize, repeats: usize) -> CopyBandwidth {
    let src: Vec<f64> = (0..elements).into_par_iter().map(|i| i as f64).collect();
    let mut dst = vec![0.0f64; elements];
    let threads = rayon::current_num_threads().max(1);
    let block = elements.div_ceil(threads * 4).max(1);
    dst.par_chunks_mut(block).for_each(|c| c.fill(1.0));
    let mut best = f64::INFINITY;
    for _ in 0..repeats.max(1) {
        let t = Instant::now();
        dst.par_chunks_mut(block)
            .zip(src.par_chunks(block))
            .for_each(|(d, s)| d.copy_from_slice(s));
        best = best.min(t.elapsed().as_secs_f64());
        std::hint::black_box(&dst);
    }
    CopyBandwidth {
        bytes: 2 * elements as u64 * 8,
        seconds: best,
    }
}

/// The machine's copy bandwidth with the default sizes ([`COPY_ELEMENTS`],
/// [`COPY_REPEATS`]).
pub fn copy_bandwidth() -> CopyBandwidth {
    measure(COPY_ELEMENTS, COPY_REPEATS)
}
