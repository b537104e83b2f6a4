//! The size multiplier of `adora check --size K` (docs/check.md): every
//! generator family multiplies its size budget by the factor in force on the current
//! thread — [`super::generate`] the [`super::GenSpec::size`] of the surface programs,
//! [`super::tl::tl_case`] and [`super::tl::tl_term`] the term budget of G2,
//! [`super::tl_ssa::ssa_case`] the statement count of G3 (and the tssa derivative
//! properties' own SSA generator its statement count). The runner sets the factor of
//! [`crate::runner::CheckConfig::size`] around each property; the default 1 leaves every
//! generator's output unchanged, so seeds of earlier runs reproduce.

use std::cell::Cell;

thread_local! {
    static FACTOR: Cell<u32> = const { Cell::new(1) };
}

/// The size multiplier in force on this thread (1 unless set by [`with_factor`]).
pub fn factor() -> u32 {
    FACTOR.with(|f| f.get())
}

/// `n` times the factor in force (saturating).
pub fn scaled(n: usize) -> usize {
    n.saturating_mul(factor() as usize)
}

/// Runs `f` with the size multiplier `k` (at least 1) on this thread, restoring the
/// previous factor afterwards (also when `f` panics).
pub fn with_factor<R>(k: u32, f: impl FnOnce() -> R) -> R {
    struct Restore(u32);
    impl Drop for Restore {
        fn drop(&mut self) {
            FACTOR.with(|f| f.set(self.0));
        }
    }
    let _restore = Restore(FACTOR.with(|f| f.replace(k.max(1))));
    f()
}
