//! Sums of many dual numbers in one pass (`Scalar::sum_left` of [`Dual`]).
//!
//! Folding `n` dual numbers left to right merges the accumulated tangent map with each
//! addend's, so a sum whose tangent grows to `n` entries (`sum(x * y)`) costs `O(n²)`
//! entry operations. Here the values are still folded left to right (the primal result
//! and its size checks are those of the fold), while the tangent entries of all addends
//! are concatenated in addend order and combined id by id: in one slot per id when the
//! ids are dense (the usual case, input-scalar ids of one program: `O(M)` for `M`
//! entries), otherwise stably sorted by id and combined run by run (`O(M log M)`); already
//! increasing ids are combined as they are. For every id the entries are added in addend order,
//! starting from the first one, exactly as the fold adds them, so the result is identical
//! (bit for bit in f64 mode, where no entry is dropped; in exact mode the fold drops an
//! entry that cancels to zero and re-inserts the next addend's entry unchanged, which is
//! the same rational as adding it to zero).

use super::{keep, Dual};
use crate::scalar::Scalar;

/// The left fold of `items` (see the module documentation), `None` as soon as a partial
/// sum's primal value does not fit `max_bits`.
pub(super) fn sum_left<'x, F: Scalar>(
    items: impl IntoIterator<Item = &'x Dual<F>>,
    max_bits: u64,
) -> Option<Dual<F>> {
    let mut it = items.into_iter();
    let Some(first) = it.next() else {
        return Some(Dual::constant(F::zero()));
    };
    let mut value = first.value.clone();
    // References to the entries, in addend order: only the first entry of each id is
    // cloned, the others are added to it.
    let mut entries: Vec<(usize, &'x F)> = first.tangent.iter().map(|(k, d)| (*k, d)).collect();
    let mut increasing = true;
    for x in it {
        value.add_assign(&x.value);
        if !value.value_fits_bits(max_bits) {
            return None;
        }
        if let (Some(last), Some(next)) = (entries.last(), x.tangent.first()) {
            increasing &= last.0 < next.0;
        }
        entries.extend(x.tangent.iter().map(|(k, d)| (*k, d)));
    }
    counter::note(entries.len());
    let tangent = if increasing {
        combine_runs(&entries)
    } else {
        match id_span(&entries) {
            Some((lo, span)) if span <= 2 * entries.len() + 64 => {
                accumulate_dense(&entries, lo, span)
            }
            _ => {
                // `sort_by` is stable: equal ids keep their addend order.
                entries.sort_by(|a, b| {
                    counter::note(1);
                    a.0.cmp(&b.0)
                });
                combine_runs(&entries)
            }
        }
    };
    Some(Dual { value, tangent })
}

/// The smallest id of `entries` and the number of ids from it to the largest.
fn id_span<F>(entries: &[(usize, &F)]) -> Option<(usize, usize)> {
    let lo = entries.iter().map(|e| e.0).min()?;
    let hi = entries.iter().map(|e| e.0).max()?;
    Some((lo, hi - lo + 1))
}

/// Entries sorted by id (equal ids in addend order) combined run by run: each run starts
/// from its first entry and adds the others in order; a run that ends at zero is dropped
/// in exact mode.
fn combine_runs<F: Scalar>(entries: &[(usize, &F)]) -> Vec<(usize, F)> {
    let mut tangent: Vec<(usize, F)> = Vec::with_capacity(entries.len());
    for &(id, d) in entries {
        match tangent.last_mut() {
            Some((last, acc)) if *last == id => acc.add_assign(d),
            _ => {
                if tangent.last().is_some_and(|(_, acc)| !keep(acc)) {
                    tangent.pop();
                }
                tangent.push((id, d.clone()));
            }
        }
    }
    if tangent.last().is_some_and(|(_, acc)| !keep(acc)) {
        tangent.pop();
    }
    tangent
}

/// The same result as sorting and [`combine_runs`], in linear time when the ids are
/// dense (`span` ids from `lo`, at most about twice the number of entries): one slot per
/// id, filled in addend order — the first entry of an id is taken as it is, the others
/// are added to it in order — then read in id order.
fn accumulate_dense<F: Scalar>(entries: &[(usize, &F)], lo: usize, span: usize) -> Vec<(usize, F)> {
    counter::note(span);
    let mut slots: Vec<Option<F>> = (0..span).map(|_| None).collect();
    let mut distinct = 0;
    for &(id, d) in entries {
        match &mut slots[id - lo] {
            Some(acc) => acc.add_assign(d),
            slot => {
                *slot = Some(d.clone());
                distinct += 1;
            }
        }
    }
    let mut tangent = Vec::with_capacity(distinct);
    for (k, slot) in slots.into_iter().enumerate() {
        if let Some(d) = slot {
            if keep(&d) {
                tangent.push((lo + k, d));
            }
        }
    }
    tangent
}

/// A count of tangent-entry operations (entries merged, moved or compared) of the sums of
/// dual numbers, in unit tests only: the test `sums_are_not_quadratic` checks that the
/// reference gradient of a dot product makes `O(n log n)` of them.
pub(super) mod counter {
    #[cfg(test)]
    thread_local! {
        static OPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    /// Records `n` entry operations (no-op outside unit tests).
    #[inline(always)]
    pub fn note(n: usize) {
        #[cfg(test)]
        OPS.with(|c| c.set(c.get() + n as u64));
        #[cfg(not(test))]
        let _ = n;
    }

    /// The operations recorded on this thread so far.
    #[cfg(test)]
    pub fn total() -> u64 {
        OPS.with(|c| c.get())
    }
}
