//! Derivative conventions at ties and kinks: the profiles `futhark` (ours, the default),
//! `jax` and `pytorch` of docs/conventions.md, as the reference derivative applies them.
//!
//! | rule | `futhark` | `jax` | `pytorch` |
//! |---|---|---|---|
//! | `tie-max-min`: `max(a, b)`, `min(a, b)` at `a = b` | all to `a` | split ½, ½ | split ½, ½ |
//! | `reduce-ties`: `reduce(max)`/`reduce(min)` with ties | lowest index | split evenly among the tied, `ne` included | split evenly among the tied, `ne` included |
//! | `scan-ties`: `scan(max)`/`scan(min)` with ties | lowest index | the fold `acc = max(acc, x[i])` from `ne`, each step `tie-max-min` | the same |
//! | `hist-ties`: `reduce_by_index` with `max`/`min` | the destination keeps it | `dest[k] = max(dest[k], v)` in order, each step `tie-max-min` | the same |
//! | `abs-at-0`: `abs'(0)` | 0 | 1 | 0 |
//!
//! The `jax` and `pytorch` columns are what the programs `adora export` writes compute
//! (`jnp.maximum`/`torch.maximum`; `jnp.max`/`torch.amax` over the neutral element and the
//! elements; sequential folds of `maximum` for `scan` and `reduce_by_index`), measured
//! against the real systems (docs/conventions.md records the versions). Only the tangents
//! change: every profile computes the same values. A split tie averages the tied
//! operands' tangents ([`crate::scalar::Scalar::tie_mean`]); ties are decided on primal
//! values (exactly on rationals; an interval comparison that cannot be decided keeps the
//! `futhark` choice, as a NaN does in f64 mode).

use std::fmt;

/// A profile of derivative conventions (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Conventions {
    /// Futhark's (and ours): a tie follows the first operand, `abs'(0) = 0`.
    #[default]
    Futhark,
    /// JAX's: ties split evenly, `abs'(0) = 1`.
    Jax,
    /// PyTorch's: ties split evenly, `abs'(0) = 0`.
    Pytorch,
}

impl Conventions {
    /// Every profile.
    pub const ALL: [Conventions; 3] =
        [Conventions::Futhark, Conventions::Jax, Conventions::Pytorch];

    /// The profile's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Conventions::Futhark => "futhark",
            Conventions::Jax => "jax",
            Conventions::Pytorch => "pytorch",
        }
    }

    /// The profile called `name`.
    pub fn from_name(name: &str) -> Option<Conventions> {
        Conventions::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Whether ties of `max`/`min` (binary, reductions, scans, histograms) split the
    /// derivative evenly (rules `tie-max-min`, `reduce-ties`, `scan-ties`, `hist-ties`).
    pub fn splits_ties(self) -> bool {
        self != Conventions::Futhark
    }

    /// Whether `abs'(0) = 1` (rule `abs-at-0`; otherwise 0).
    pub fn abs_slope_one_at_zero(self) -> bool {
        self == Conventions::Jax
    }
}

impl fmt::Display for Conventions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
