//! Tagged dual numbers of the concrete model (docs/engines/pullback.md, "The model"; the
//! note's concrete semantics of `J`: "tagged forward-mode dual numbers … a fresh tag per
//! `J`/`pb` application", after Siskind and Pearlmutter, and Manzyuk et al. 2019).
//!
//! A number is a truncated multivariate polynomial `Σ c_m · ε^m` over exact rationals in
//! nilpotent tags (`ε² = 0`): a map from monomials (sorted sets of tags) to coefficients.
//! Several tags live side by side, so nested derivatives never share a perturbation.
//!
//! | operation | definition |
//! |---|---|
//! | `+`, `-`, `·` | polynomial arithmetic, monomials sharing a tag vanish |
//! | `inv` | `1/(b0 + n) = (1/b0) Σ_k (-n/b0)^k` (finite: `n` is nilpotent); `0` when `b0 = 0` (total division) |
//! | `perturb(ε)` | multiply by `ε` |
//! | `extract(ε)` | the coefficient of `ε` |
//! | `swap(ε, ε')` | exchange two tags |
//! | non-smooth symbols | decided on the primal part `b0` (the core language's conventions) |

use adora_semantics::Rat;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// A tag: one derivative's perturbation.
pub type Tag = u32;

/// A tagged dual number: monomial (sorted tags) ↦ non-zero coefficient.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Num {
    terms: BTreeMap<Vec<Tag>, Rat>,
}

impl Num {
    /// The constant `c`.
    pub fn constant(c: Rat) -> Num {
        let mut terms = BTreeMap::new();
        if !c.is_zero() {
            terms.insert(Vec::new(), c);
        }
        Num { terms }
    }
    /// The primal part (coefficient of the empty monomial).
    pub fn primal(&self) -> Rat {
        self.terms
            .get(&Vec::new())
            .cloned()
            .unwrap_or_else(Rat::zero)
    }
    /// Whether no tag occurs (a plain rational).
    pub fn is_constant(&self) -> bool {
        self.terms.keys().all(|m| m.is_empty())
    }
    fn insert(&mut self, m: Vec<Tag>, c: Rat) {
        let e = self.terms.entry(m).or_insert_with(Rat::zero);
        *e += c;
        if e.is_zero() {
            self.terms.retain(|_, c| !c.is_zero());
        }
    }
    /// `self + o`.
    pub fn add(&self, o: &Num) -> Num {
        let mut out = self.clone();
        for (m, c) in &o.terms {
            out.insert(m.clone(), c.clone());
        }
        out
    }
    /// `c · self` for a rational `c`.
    pub fn scale(&self, c: &Rat) -> Num {
        let mut out = Num::default();
        for (m, d) in &self.terms {
            out.insert(m.clone(), d * c);
        }
        out
    }
    /// `-self`.
    pub fn neg(&self) -> Num {
        self.scale(&-Rat::one())
    }
    /// `self - o`.
    pub fn sub(&self, o: &Num) -> Num {
        self.add(&o.neg())
    }
    /// `self · o` (`ε² = 0`).
    pub fn mul(&self, o: &Num) -> Num {
        let mut out = Num::default();
        for (m1, c1) in &self.terms {
            for (m2, c2) in &o.terms {
                if m1.iter().any(|t| m2.contains(t)) {
                    continue;
                }
                let mut m: Vec<Tag> = m1.iter().chain(m2).copied().collect();
                m.sort_unstable();
                out.insert(m, c1 * c2);
            }
        }
        out
    }
    /// `1 / self`, total: `0` when the primal part is `0`.
    pub fn inv(&self) -> Num {
        let b0 = self.primal();
        if b0.is_zero() {
            return Num::default();
        }
        let inv0 = Rat::one() / &b0;
        let n = self.sub(&Num::constant(b0));
        let q = n.scale(&-inv0.clone());
        let mut term = Num::constant(Rat::one());
        let mut sum = Num::default();
        while !term.terms.is_empty() {
            sum = sum.add(&term);
            term = term.mul(&q);
        }
        sum.scale(&inv0)
    }
    /// `self · ε`.
    pub fn perturb(&self, e: Tag) -> Num {
        let mut out = Num::default();
        for (m, c) in &self.terms {
            if !m.contains(&e) {
                let mut m = m.clone();
                m.push(e);
                m.sort_unstable();
                out.insert(m, c.clone());
            }
        }
        out
    }
    /// The coefficient of `ε` (a number free of `ε`).
    pub fn extract(&self, e: Tag) -> Num {
        let mut out = Num::default();
        for (m, c) in &self.terms {
            if m.contains(&e) {
                out.insert(m.iter().copied().filter(|t| *t != e).collect(), c.clone());
            }
        }
        out
    }
    /// The number with tags `a` and `b` exchanged.
    pub fn swap(&self, a: Tag, b: Tag) -> Num {
        let mut out = Num::default();
        for (m, c) in &self.terms {
            let mut m: Vec<Tag> = m
                .iter()
                .map(|&t| {
                    if t == a {
                        b
                    } else if t == b {
                        a
                    } else {
                        t
                    }
                })
                .collect();
            m.sort_unstable();
            out.insert(m, c.clone());
        }
        out
    }
}
