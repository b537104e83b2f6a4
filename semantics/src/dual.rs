//! Dual numbers `Dual<F>`: a value and a sparse tangent map (input-scalar id → F).
//!
//! `Dual<F>` is itself a [`Scalar`], so running the one evaluator at `Dual<Rat>` is exact
//! forward-mode differentiation with respect to every seeded id at once (the reference
//! derivative, docs/architecture.md). The tangent map is a vector of `(id, derivative)`
//! pairs sorted by id. An id is absent when the value does not depend on that input (a
//! structural zero, never multiplied).
//!
//! Zero entries (docs/language.md, "Semantic conventions", derivatives in f64 mode):
//!
//! * exact mode (`F = Rat`): an entry that becomes zero is dropped, so equal duals compare
//!   equal with `==` (exact, since `0 · x = 0` for every rational);
//! * f64 mode (`F` with [`Scalar::keeps_explicit_zeros`]): every entry that is seeded or
//!   produced is kept even when it is `0`, and every rule forms all its products in IEEE,
//!   so `0 · inf = NaN` appears exactly as in a dense JVP. For each input id the tangent is
//!   the IEEE evaluation of the chain rule along the operations that depend on that input;
//!   `pow` uses the textbook rule `k · x^(k-1) · x'` ([`Scalar::pow_rule`]), so
//!   `pow(y, -2)` at `y = 0` has derivative `-inf`, `x / 0.0 * 0.0` has `NaN`.
//!
//! Derivative rules: sum, difference, product and quotient rules; total division
//! (`x / 0 = 0` with a zero tangent in exact mode; in f64 mode `(a' - q b') / b` with the
//! IEEE division by zero); `abs'(x) = -1` below zero, `0` at zero, `1` above (in f64 mode
//! the tangent at zero is `0 · x'`, formed); comparisons (hence `min`, `max`, `select`)
//! look at values only and the evaluator returns the selected operand whole, so
//! derivatives follow the selected branch (under the `jax` and `pytorch` conventions a
//! tie averages the tied operands' tangents, [`Scalar::tie_mean`], and under `jax`
//! `abs'(0) = 1`: `crate::conventions`); `pow(x, k)`: `k · x^(k-1) · x'`; `exp' = exp`,
//! `log'(x) = 1/x`, `sin' = cos`, `cos' = -sin`, `tanh' = 1 - tanh²`,
//! `sqrt'(x) = 1/(2 sqrt x)`, where the reciprocals divide by zero as `F` does (IEEE for
//! `f64`: `log'(0) = sqrt'(0) = +inf`); these are only reachable when `F` evaluates
//! transcendentals.

use crate::kernels::arith::pow_total;
use crate::scalar::{NonRational, Scalar, Transcendental};
use crate::Rat;
use std::cmp::Ordering;

mod sum;
#[cfg(test)]
mod tests;

use sum::counter;

/// A dual number: a value and its sparse tangent (derivatives with respect to input-scalar
/// ids), sorted by id; zero entries are dropped in exact mode and kept in f64 mode (see the
/// module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Dual<F> {
    value: F,
    tangent: Vec<(usize, F)>,
}

impl<F: Scalar> Dual<F> {
    /// A constant (zero tangent).
    pub fn constant(value: F) -> Dual<F> {
        Dual {
            value,
            tangent: Vec::new(),
        }
    }

    /// An input variable with id `id`: tangent `1` at `id`.
    pub fn variable(value: F, id: usize) -> Dual<F> {
        Dual {
            value,
            tangent: vec![(id, F::one())],
        }
    }

    /// A dual with an arbitrary tangent map; entries are sorted, duplicate ids added and
    /// zeros dropped (kept when `F` [keeps explicit zeros](Scalar::keeps_explicit_zeros)).
    pub fn new(value: F, mut tangent: Vec<(usize, F)>) -> Dual<F> {
        tangent.sort_by_key(|(id, _)| *id);
        let mut out: Vec<(usize, F)> = Vec::with_capacity(tangent.len());
        for (id, d) in tangent {
            match out.last_mut() {
                Some((last, acc)) if *last == id => acc.add_assign(&d),
                _ => out.push((id, d)),
            }
        }
        out.retain(|(_, d)| keep(d));
        Dual {
            value,
            tangent: out,
        }
    }

    /// The value (primal).
    pub fn value(&self) -> &F {
        &self.value
    }

    /// The derivative with respect to `id` (zero when absent).
    pub fn tangent(&self, id: usize) -> F {
        match self.tangent.binary_search_by_key(&id, |(k, _)| *k) {
            Ok(k) => self.tangent[k].1.clone(),
            Err(_) => F::zero(),
        }
    }

    /// The tangent entries, sorted by id (without zeros in exact mode).
    pub fn tangents(&self) -> &[(usize, F)] {
        &self.tangent
    }

    /// Value and tangent entries.
    pub fn into_parts(self) -> (F, Vec<(usize, F)>) {
        (self.value, self.tangent)
    }

    /// The same tangent scaled by `c` (entries that become zero are dropped in exact mode).
    fn scaled(&self, c: &F) -> Vec<(usize, F)> {
        if !F::keeps_explicit_zeros() && c.is_zero() {
            return Vec::new();
        }
        self.tangent
            .iter()
            .map(|(id, d)| (*id, d.mul(c)))
            .filter(|(_, d)| keep(d))
            .collect()
    }
}

/// Whether a tangent entry stays in the map: always when `F` keeps explicit zeros (f64
/// mode), otherwise only when it is non-zero.
#[inline]
fn keep<F: Scalar>(d: &F) -> bool {
    F::keeps_explicit_zeros() || !d.is_zero()
}

/// `fa(a) + fb(b)` entrywise over the union of ids (missing entries are structural zeros,
/// so an entry present on one side only is just mapped); zero results are dropped in
/// exact mode.
fn combine<F: Scalar>(
    a: &[(usize, F)],
    fa: impl Fn(&F) -> F,
    b: &[(usize, F)],
    fb: impl Fn(&F) -> F,
) -> Vec<(usize, F)> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let (id, d) = if j == b.len() || (i < a.len() && a[i].0 < b[j].0) {
            i += 1;
            (a[i - 1].0, fa(&a[i - 1].1))
        } else if i == a.len() || b[j].0 < a[i].0 {
            j += 1;
            (b[j - 1].0, fb(&b[j - 1].1))
        } else {
            i += 1;
            j += 1;
            (a[i - 1].0, fa(&a[i - 1].1).add(&fb(&b[j - 1].1)))
        };
        if keep(&d) {
            out.push((id, d));
        }
    }
    out
}

/// Reciprocal `1 / x`, with `F`'s division-by-zero result when `x` is zero (zero for
/// exact scalars, IEEE for `f64`).
fn recip<F: Scalar>(x: &F) -> F {
    F::one()
        .checked_div(x)
        .unwrap_or_else(|| F::one().div_by_zero(x))
}

impl<F: Scalar> Scalar for Dual<F> {
    fn zero() -> Self {
        Dual::constant(F::zero())
    }
    fn one() -> Self {
        Dual::constant(F::one())
    }
    fn from_i64(n: i64) -> Self {
        Dual::constant(F::from_i64(n))
    }
    fn from_rational(r: &Rat) -> Self {
        Dual::constant(F::from_rational(r))
    }
    fn non_finite(x: crate::scalar::NonFinite) -> Option<Self> {
        F::non_finite(x).map(Dual::constant)
    }
    fn is_zero(&self) -> bool {
        self.value.is_zero() && self.tangent.is_empty()
    }
    fn add(&self, o: &Self) -> Self {
        let tangent = if o.tangent.is_empty() {
            self.tangent.clone()
        } else if self.tangent.is_empty() {
            o.tangent.clone()
        } else {
            combine(&self.tangent, F::clone, &o.tangent, F::clone)
        };
        Dual {
            value: self.value.add(&o.value),
            tangent,
        }
    }
    fn sub(&self, o: &Self) -> Self {
        let tangent = if o.tangent.is_empty() {
            self.tangent.clone()
        } else {
            combine(&self.tangent, F::clone, &o.tangent, F::neg)
        };
        Dual {
            value: self.value.sub(&o.value),
            tangent,
        }
    }
    fn mul(&self, o: &Self) -> Self {
        let tangent = if o.tangent.is_empty() {
            self.scaled(&o.value)
        } else if self.tangent.is_empty() {
            o.scaled(&self.value)
        } else {
            combine(
                &self.tangent,
                |x| x.mul(&o.value),
                &o.tangent,
                |y| y.mul(&self.value),
            )
        };
        Dual {
            value: self.value.mul(&o.value),
            tangent,
        }
    }
    fn neg(&self) -> Self {
        Dual {
            value: self.value.neg(),
            tangent: self.tangent.iter().map(|(id, d)| (*id, d.neg())).collect(),
        }
    }
    fn checked_div(&self, o: &Self) -> Option<Self> {
        let q = self.value.checked_div(&o.value)?;
        let inv = recip(&o.value);
        // (a / b)' = (a' - q b') / b
        let tangent = if o.tangent.is_empty() {
            self.scaled(&inv)
        } else {
            let nb = q.mul(&inv).neg();
            combine(&self.tangent, |x| x.mul(&inv), &o.tangent, |y| y.mul(&nb))
        };
        Some(Dual { value: q, tangent })
    }
    fn div_by_zero(&self, o: &Self) -> Self {
        // The quotient rule with `F`'s division by zero: (a' - q b') / b with b = 0.
        let q = self.value.div_by_zero(&o.value);
        let nb = q.neg();
        let numerator = combine(&self.tangent, |x| x.clone(), &o.tangent, |y| y.mul(&nb));
        let tangent = numerator
            .into_iter()
            .map(|(id, d)| (id, d.div_by_zero(&o.value)))
            .filter(|(_, d)| keep(d))
            .collect();
        Dual { value: q, tangent }
    }
    fn add_assign(&mut self, o: &Self) {
        self.value.add_assign(&o.value);
        if o.tangent.is_empty() {
            return;
        }
        if self.tangent.is_empty() {
            counter::note(o.tangent.len());
            self.tangent = o.tangent.clone();
        } else if o.tangent[0].0 > self.tangent[self.tangent.len() - 1].0 {
            counter::note(o.tangent.len());
            self.tangent.extend_from_slice(&o.tangent);
        } else {
            counter::note(self.tangent.len() + o.tangent.len());
            let mine = std::mem::take(&mut self.tangent);
            let mut out = Vec::with_capacity(mine.len() + o.tangent.len());
            let mut theirs = o.tangent.iter().peekable();
            for (id, mut d) in mine {
                while let Some((k, e)) = theirs.peek() {
                    if *k < id {
                        out.push((*k, e.clone()));
                        theirs.next();
                    } else {
                        break;
                    }
                }
                if let Some((k, e)) = theirs.peek() {
                    if *k == id {
                        d.add_assign(e);
                        theirs.next();
                    }
                }
                if keep(&d) {
                    out.push((id, d));
                }
            }
            out.extend(theirs.cloned());
            self.tangent = out;
        }
    }
    fn keeps_explicit_zeros() -> bool {
        F::keeps_explicit_zeros()
    }
    fn sum_left<'x, I>(items: I, max_bits: u64) -> Option<Self>
    where
        I: IntoIterator<Item = &'x Self>,
    {
        sum::sum_left(items, max_bits)
    }
    fn tie_mean(items: &[&Self]) -> Self {
        let k = F::from_i64(items.len() as i64);
        let share = F::one().checked_div(&k).unwrap_or_else(F::one);
        let tangent = items
            .iter()
            .flat_map(|d| d.tangent.iter().map(|(id, t)| (*id, t.mul(&share))))
            .collect();
        Dual::new(items[0].value.clone(), tangent)
    }
    fn pow_rule(&self, k: i64, repeated: Self) -> Self {
        if !F::keeps_explicit_zeros() {
            return repeated;
        }
        let tangent = match k {
            0 => Vec::new(),
            1 => self.tangent.clone(),
            _ => self.scaled(&F::from_i64(k).mul(&pow_total(&self.value, k - 1))),
        };
        Dual {
            value: repeated.value,
            tangent,
        }
    }
    fn compare(&self, o: &Self) -> Option<Ordering> {
        self.value.compare(&o.value)
    }
    fn take_undecided() -> Option<crate::scalar::Undecided> {
        F::take_undecided()
    }
    fn floor_i64(&self) -> Option<i64> {
        self.value.floor_i64()
    }
    fn abs(&self) -> Self {
        match self.value.compare(&F::zero()) {
            Some(Ordering::Less) => self.neg(),
            Some(Ordering::Equal) if F::keeps_explicit_zeros() => Dual {
                value: self.value.abs(),
                tangent: self.scaled(&F::zero()),
            },
            Some(Ordering::Equal) => Dual::constant(self.value.abs()),
            _ => self.clone(),
        }
    }
    fn transcendental(&self, f: Transcendental) -> Result<Self, NonRational> {
        let x = &self.value;
        let (value, deriv) = match f {
            Transcendental::Exp => {
                let e = x.transcendental(f)?;
                (e.clone(), e)
            }
            Transcendental::Log => (x.transcendental(f)?, recip(x)),
            Transcendental::Sin => (x.transcendental(f)?, x.transcendental(Transcendental::Cos)?),
            Transcendental::Cos => (
                x.transcendental(f)?,
                x.transcendental(Transcendental::Sin)?.neg(),
            ),
            Transcendental::Tanh => {
                let t = x.transcendental(f)?;
                let d = F::one().sub(&t.mul(&t));
                (t, d)
            }
            Transcendental::Sqrt => {
                let r = x.transcendental(f)?;
                let d = recip(&r.add(&r));
                (r, d)
            }
        };
        Ok(Dual {
            value,
            tangent: self.scaled(&deriv),
        })
    }
    fn approx_f64(&self) -> f64 {
        self.value.approx_f64()
    }
    fn as_rational(&self) -> Option<&Rat> {
        self.value.as_rational()
    }
    fn fits_bits(&self, max_bits: u64) -> bool {
        self.value.fits_bits(max_bits) && self.tangent.iter().all(|(_, d)| d.fits_bits(max_bits))
    }
    fn value_fits_bits(&self, max_bits: u64) -> bool {
        self.value.value_fits_bits(max_bits)
    }
    fn to_literal(&self) -> String {
        self.value.to_literal()
    }
    fn to_json(&self) -> serde_json::Value {
        self.value.to_json()
    }
}
