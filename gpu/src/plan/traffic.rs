//! Counted memory traffic of a plan (docs/backend.md, "Memory traffic"): the compulsory
//! bytes each kernel moves — every distinct buffer it reads, once, plus its output — and
//! their sum per call, host loops multiplying their bodies by the trip count. This is the
//! bandwidth-bound limit of a call: no implementation can move fewer bytes than each
//! kernel's inputs and output once.

use super::memory::kernel_reads;
use super::{Kernel, KernelKind, Plan, Step};

/// Bytes of one stored element (every buffer holds `f64`s, docs/backend.md, "Numbers").
pub const ELEMENT_BYTES: u64 = 8;

/// The traffic of one kernel of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelTraffic {
    /// The kernel's name.
    pub name: String,
    /// Compulsory bytes of one launch.
    pub bytes: u64,
    /// Launches per call (the product of the trip counts of the loops around it).
    pub launches: u64,
}

/// The traffic of a plan per call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Traffic {
    /// Every kernel, loop bodies included, in step order.
    pub kernels: Vec<KernelTraffic>,
    /// Bytes of the host loops' accumulator copies per call (each copy reads and writes
    /// its buffer once).
    pub carry_bytes: u64,
    /// All bytes per call: kernels times their launches, plus the copies.
    pub total: u64,
}

fn buffer_bytes(p: &Plan, b: usize) -> u64 {
    p.buffers[b].len() as u64 * ELEMENT_BYTES
}

/// Compulsory bytes of one launch of `k`: the distinct buffers it reads (a matrix product
/// reads `a` and `b`, a batched one those and its masks, not the buffers of the reduction
/// it replaces),
/// each once, and its output once (a scatter's read-modify-write of
/// its output counts once too).
pub fn kernel_bytes(p: &Plan, k: &Kernel) -> u64 {
    let mut bufs = match &k.kind {
        KernelKind::Batched { a, b, zeros, .. } => {
            let mut v = vec![*a, *b];
            if let super::Zeros::Masks(ms) = zeros {
                v.extend(ms.iter().flatten());
            }
            v
        }
        kind => kernel_reads(kind),
    };
    bufs.push(k.out);
    bufs.sort_unstable();
    bufs.dedup();
    bufs.iter().map(|&b| buffer_bytes(p, b)).sum()
}

fn walk(p: &Plan, steps: &[Step], times: u64, t: &mut Traffic) {
    for s in steps {
        match s {
            Step::Kernel(k) => t.kernels.push(KernelTraffic {
                name: k.name.clone(),
                bytes: kernel_bytes(p, k),
                launches: times,
            }),
            Step::Loop {
                count, body, carry, ..
            } => {
                let n = times * *count as u64;
                walk(p, body, n, t);
                t.carry_bytes += carry
                    .iter()
                    .map(|&(from, to)| buffer_bytes(p, from) + buffer_bytes(p, to))
                    .sum::<u64>()
                    * n;
            }
        }
    }
}

/// The counted traffic of one call of `p`.
pub fn traffic(p: &Plan) -> Traffic {
    let mut t = Traffic {
        kernels: Vec::new(),
        carry_bytes: 0,
        total: 0,
    };
    walk(p, &p.steps, 1, &mut t);
    t.total = t.kernels.iter().map(|k| k.bytes * k.launches).sum::<u64>() + t.carry_bytes;
    t
}
