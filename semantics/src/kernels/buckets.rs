//! Rows grouped by the slot they are added into, so that the additions of `scatter` and
//! `reduce_by_index` with `+` become one left fold per slot ([`Scalar::sum_left`]).
//!
//! Adding rows into their slots one at a time is the definition (docs/language.md:
//! colliding writes add up in index order), and for rationals and `f64` it costs one
//! addition per row. For dual numbers (the reference derivative) one addition merges the
//! slot's whole tangent map with the row's, so `k` rows that reach one slot with tangents
//! that do not arrive in increasing id order cost `O(k²)` entry operations; a left fold
//! of the same rows by `sum_left` gives the identical result in `O(k)`
//! (`semantics/src/dual/sum.rs`). Grouping the rows first is a counting sort: linear.
//!
//! [`Scalar::sum_left`]: crate::scalar::Scalar::sum_left

use super::tensor::Scattered;

/// The rows that reach each of a number of slots, in row order (a stable counting sort
/// of the row numbers by slot; rows without a slot are left out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buckets {
    /// `start[s]..start[s + 1]` is slot `s`'s range of `rows`.
    start: Vec<usize>,
    rows: Vec<usize>,
}

impl Buckets {
    /// Groups rows `0..targets.len()` by their slot `targets[t]` (`None`: dropped; every
    /// slot is below `slots`).
    pub fn new(slots: usize, targets: &[Option<usize>]) -> Buckets {
        let mut start = vec![0usize; slots + 1];
        for &s in targets.iter().flatten() {
            start[s + 1] += 1;
        }
        for s in 0..slots {
            start[s + 1] += start[s];
        }
        let mut next = start.clone();
        let mut rows = vec![0usize; start[slots]];
        for (t, target) in targets.iter().enumerate() {
            if let Some(s) = *target {
                rows[next[s]] = t;
                next[s] += 1;
            }
        }
        Buckets { start, rows }
    }

    /// The rows of slot `s`, in row order.
    pub fn rows(&self, s: usize) -> &[usize] {
        &self.rows[self.start[s]..self.start[s + 1]]
    }

    /// The number of rows that reach some slot.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether no row reaches a slot.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The number of slots that some row reaches.
    pub fn slots_reached(&self) -> usize {
        self.start.windows(2).filter(|w| w[0] < w[1]).count()
    }
}

/// `scatter` on flat data with the result of [`super::tensor::scatter_slots`]: `slots`
/// slots of `slot` elements; source row `t` goes to slot `targets[t]` (dropped for
/// `None`). Each element of a slot that some row reaches is `sum` of that element of its
/// rows in row order (the first row's element, then the others added left to right, as
/// `scatter_slots` adds them); the other slots are `zero`. The counts of writes and
/// collisions are `scatter_slots`' counts.
pub fn scatter_sums<T: Clone, E>(
    src: &[T],
    slots: usize,
    slot: usize,
    targets: &[Option<usize>],
    zero: &T,
    mut sum: impl FnMut(&mut dyn Iterator<Item = &T>) -> Result<T, E>,
) -> Result<Scattered<T>, E> {
    let buckets = Buckets::new(slots, targets);
    let mut data = Vec::with_capacity(slots * slot);
    for s in 0..slots {
        let rows = buckets.rows(s);
        if rows.is_empty() {
            data.extend((0..slot).map(|_| zero.clone()));
            continue;
        }
        for k in 0..slot {
            data.push(sum(&mut rows.iter().map(|&t| &src[t * slot + k]))?);
        }
    }
    Ok(Scattered {
        data,
        writes: buckets.len() * slot,
        collisions: (buckets.len() - buckets.slots_reached()) * slot,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::tensor::scatter_slots;
    use std::convert::Infallible;

    #[test]
    fn buckets_keep_row_order_and_drop_missing_slots() {
        let b = Buckets::new(3, &[Some(2), None, Some(0), Some(2), Some(2)]);
        assert_eq!(b.rows(0), &[2]);
        assert_eq!(b.rows(1), &[] as &[usize]);
        assert_eq!(b.rows(2), &[0, 3, 4]);
        assert_eq!((b.len(), b.slots_reached()), (4, 2));
        assert!(Buckets::new(0, &[None]).is_empty());
    }

    #[test]
    fn scatter_sums_is_scatter_slots() {
        // Rows of two elements; strings record the order of the additions.
        let src: Vec<String> = (0..10).map(|k| k.to_string()).collect();
        let targets = [Some(1), None, Some(1), Some(0), Some(1)];
        let zero = "z".to_string();
        let slow = scatter_slots(&src, 3, 2, &targets, &zero, |d, v| {
            *d = format!("({d}+{v})");
            Ok::<(), Infallible>(())
        })
        .unwrap();
        let fast = scatter_sums(&src, 3, 2, &targets, &zero, |items| {
            let first = items.next().unwrap().clone();
            Ok::<String, Infallible>(items.fold(first, |acc, v| format!("({acc}+{v})")))
        })
        .unwrap();
        assert_eq!(fast, slow);
        assert_eq!(fast.data[2], "((0+4)+8)");
        assert_eq!((fast.writes, fast.collisions), (8, 4));
    }
}
