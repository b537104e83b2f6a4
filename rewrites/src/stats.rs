//! Process-wide statistics of the egg runs, for the summary of `adora check`
//! (docs/check.md): the largest e-graph (in e-nodes) that any rewrite phase or tssa pass
//! ended with since the last [`reset`]. Recording is one atomic maximum per run.

use std::sync::atomic::{AtomicUsize, Ordering};

static LARGEST_EGRAPH: AtomicUsize = AtomicUsize::new(0);

/// Records that an egg run ended with an e-graph of `nodes` e-nodes.
pub fn note_egraph(nodes: usize) {
    LARGEST_EGRAPH.fetch_max(nodes, Ordering::Relaxed);
}

/// The largest e-graph (e-nodes) recorded since the last [`reset`] (0 if none).
pub fn largest_egraph() -> usize {
    LARGEST_EGRAPH.load(Ordering::Relaxed)
}

/// Forgets what was recorded.
pub fn reset() {
    LARGEST_EGRAPH.store(0, Ordering::Relaxed);
}
