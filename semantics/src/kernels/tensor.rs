//! Index spaces and data movement on row-major arrays, generic over the element type:
//! the in-bounds rule of prefix indices, `gather` (out-of-bounds reads give zeros) and
//! `scatter` (out-of-bounds writes are dropped, colliding writes added), and the layout
//! operations on [`Tensor`]s (docs/language.md, "Semantic conventions").

use crate::value::Tensor;

/// Product of a shape.
pub fn volume(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// Product of a shape, `None` on overflow.
pub fn checked_volume(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))
}

/// The flat position of the prefix slot `idx` in `shape` (row-major over the first
/// `idx.len()` dimensions), `None` when some component is out of bounds.
pub fn flat_prefix(shape: &[usize], idx: &[i64]) -> Option<usize> {
    if idx.len() > shape.len() {
        return None;
    }
    let mut flat = 0usize;
    for (&i, &d) in idx.iter().zip(shape) {
        if i < 0 || (i as u64) >= d as u64 {
            return None;
        }
        flat = flat * d + i as usize;
    }
    Some(flat)
}

/// The multi-index of flat position `t` in `shape` (row-major).
pub fn unflatten(mut t: usize, shape: &[usize], out: &mut [usize]) {
    for k in (0..shape.len()).rev() {
        out[k] = t % shape[k];
        t /= shape[k];
    }
}

/// A tensor of `shape` filled with `x`.
pub fn filled<T: Clone>(shape: &[usize], x: T) -> Tensor<T> {
    Tensor {
        shape: shape.to_vec(),
        data: vec![x; volume(shape)],
    }
}

/// `t[idx]` for a prefix index: the sub-array, or zeros of its shape when out of bounds.
pub fn read_prefix<T: Clone>(t: &Tensor<T>, idx: &[i64], zero: &T) -> Tensor<T> {
    let tail = t.shape.get(idx.len()..).unwrap_or(&[]).to_vec();
    let slot = volume(&tail);
    match flat_prefix(&t.shape, idx) {
        Some(s) => Tensor {
            shape: tail,
            data: t.data[s * slot..(s + 1) * slot].to_vec(),
        },
        None => filled(&tail, zero.clone()),
    }
}

/// `gather`: the result has shape `outer ++ src.shape[prefix..]`; row `t` (over `outer`)
/// is source slot `table[t]` (zeros for `None`).
pub fn gather_rows<T: Clone>(
    src: &Tensor<T>,
    prefix: usize,
    outer: &[usize],
    table: &[Option<usize>],
    zero: &T,
) -> Tensor<T> {
    let tail = src.shape.get(prefix..).unwrap_or(&[]);
    let slot = volume(tail);
    let mut shape = outer.to_vec();
    shape.extend_from_slice(tail);
    let mut data = Vec::with_capacity(volume(&shape));
    for target in table {
        match target {
            Some(s) => data.extend_from_slice(&src.data[s * slot..(s + 1) * slot]),
            None => data.resize(data.len() + slot, zero.clone()),
        }
    }
    Tensor { shape, data }
}

/// The result of [`scatter_slots`]: the data and the counts the evaluator reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Scattered<T> {
    /// `slots * slot` elements, row-major.
    pub data: Vec<T>,
    /// In-bounds writes, in elements.
    pub writes: usize,
    /// In-bounds writes to a slot already written, in elements.
    pub collisions: usize,
}

/// `scatter` on flat data: `slots` result slots of `slot` elements each, all `zero`; source
/// row `t` (the `t`-th run of `slot` elements of `src`) goes to slot `targets[t]` (dropped
/// for `None`, an out-of-bounds write). The first write to a slot stores the row, later
/// ones call `add` elementwise (colliding writes add up, in row order).
pub fn scatter_slots<T: Clone, E>(
    src: &[T],
    slots: usize,
    slot: usize,
    targets: &[Option<usize>],
    zero: &T,
    mut add: impl FnMut(&mut T, &T) -> Result<(), E>,
) -> Result<Scattered<T>, E> {
    let mut data = vec![zero.clone(); slots * slot];
    let mut written = vec![false; slots];
    let (mut writes, mut collisions) = (0, 0);
    for (t, target) in targets.iter().enumerate() {
        let Some(s) = *target else { continue };
        let from = &src[t * slot..(t + 1) * slot];
        let dst = &mut data[s * slot..(s + 1) * slot];
        if written[s] {
            for (d, v) in dst.iter_mut().zip(from) {
                add(d, v)?;
            }
            collisions += slot;
        } else {
            dst.clone_from_slice(from);
            written[s] = true;
        }
        writes += slot;
    }
    Ok(Scattered {
        data,
        writes,
        collisions,
    })
}

/// `scatter`: the result has shape `shape`; source row `t` (over the first `rows`
/// dimensions of `src`) is added into result slot `table[t]` (dropped for `None`), by
/// [`scatter_slots`].
pub fn scatter_rows<T: Clone, E>(
    src: &Tensor<T>,
    shape: &[usize],
    prefix: usize,
    table: &[Option<usize>],
    zero: &T,
    add: impl FnMut(&mut T, &T) -> Result<(), E>,
) -> Result<Tensor<T>, E> {
    let slot = volume(shape.get(prefix..).unwrap_or(&[]));
    let slots = volume(shape.get(..prefix).unwrap_or(&[]));
    let s = scatter_slots(&src.data, slots, slot, table, zero, add)?;
    Ok(Tensor {
        shape: shape.to_vec(),
        data: s.data,
    })
}

/// `transpose(perm, t)`: result dimension `k` is dimension `perm[k]` of `t`.
pub fn transpose<T: Clone>(t: &Tensor<T>, perm: &[usize]) -> Tensor<T> {
    let (shape, data) = transpose_data(&t.shape, &t.data, perm);
    Tensor { shape, data }
}

/// The row-major data and shape of `transpose(perm, x)` for `x` of `shape` with row-major
/// `data` (`perm` a permutation of the dimensions; the caller checks it).
pub fn transpose_data<T: Clone>(
    shape: &[usize],
    data: &[T],
    perm: &[usize],
) -> (Vec<usize>, Vec<T>) {
    let rank = shape.len();
    let mut strides = vec![1usize; rank];
    for k in (0..rank.saturating_sub(1)).rev() {
        strides[k] = strides[k + 1] * shape[k + 1];
    }
    let out_shape: Vec<usize> = perm.iter().map(|&p| shape[p]).collect();
    let out_strides: Vec<usize> = perm.iter().map(|&p| strides[p]).collect();
    let mut out = Vec::with_capacity(data.len());
    let mut idx = vec![0usize; rank];
    let mut flat = 0usize;
    for _ in 0..data.len() {
        out.push(data[flat].clone());
        for k in (0..rank).rev() {
            idx[k] += 1;
            flat += out_strides[k];
            if idx[k] < out_shape[k] {
                break;
            }
            flat -= out_strides[k] * idx[k];
            idx[k] = 0;
        }
    }
    (out_shape, out)
}

/// `append(a, b)` along the outermost dimension.
pub fn append<T: Clone>(a: &Tensor<T>, b: &Tensor<T>) -> Tensor<T> {
    let mut shape = a.shape.clone();
    if let (Some(x), Some(y)) = (shape.first_mut(), b.shape.first()) {
        *x += *y;
    }
    let mut data = Vec::with_capacity(a.data.len() + b.data.len());
    data.extend_from_slice(&a.data);
    data.extend_from_slice(&b.data);
    Tensor { shape, data }
}

/// Stacks tensors of one shape along a new outermost dimension.
pub fn stack<T: Clone>(items: &[&Tensor<T>]) -> Tensor<T> {
    let mut shape = vec![items.len()];
    if let Some(first) = items.first() {
        shape.extend_from_slice(&first.shape);
    }
    let mut data = Vec::with_capacity(volume(&shape));
    for it in items {
        data.extend_from_slice(&it.data);
    }
    Tensor { shape, data }
}

/// `replicate(n, t)`.
pub fn replicate<T: Clone>(n: usize, t: &Tensor<T>) -> Tensor<T> {
    let mut shape = vec![n];
    shape.extend_from_slice(&t.shape);
    let mut data = Vec::with_capacity(n * t.data.len());
    for _ in 0..n {
        data.extend_from_slice(&t.data);
    }
    Tensor { shape, data }
}

/// `len` outer slices of `t` starting at `start`.
pub fn slice_outer<T: Clone>(t: &Tensor<T>, start: usize, len: usize) -> Tensor<T> {
    let inner = t.shape.get(1..).unwrap_or(&[]);
    let slot = volume(inner);
    let mut shape = vec![len];
    shape.extend_from_slice(inner);
    Tensor {
        shape,
        data: t.data[start * slot..(start + len) * slot].to_vec(),
    }
}

/// The same elements with a new shape (of the same volume).
pub fn reshape<T: Clone>(t: &Tensor<T>, shape: &[usize]) -> Tensor<T> {
    Tensor {
        shape: shape.to_vec(),
        data: t.data.clone(),
    }
}

/// An array of `shape` that is `c` at the prefix slot `idx` and zero elsewhere (all zeros
/// when `idx` is out of bounds): the transpose of indexing.
pub fn one_hot<T: Clone>(shape: &[usize], idx: &[i64], c: &Tensor<T>, zero: &T) -> Tensor<T> {
    let mut out = filled(shape, zero.clone());
    if let Some(s) = flat_prefix(shape, idx) {
        let slot = c.data.len();
        out.data[s * slot..(s + 1) * slot].clone_from_slice(&c.data);
    }
    out
}

/// Elementwise map of two tensors of one shape.
pub fn zip_with<A, B, C, E>(
    a: &Tensor<A>,
    b: &Tensor<B>,
    mut f: impl FnMut(&A, &B) -> Result<C, E>,
) -> Result<Tensor<C>, E> {
    let data = a
        .data
        .iter()
        .zip(&b.data)
        .map(|(x, y)| f(x, y))
        .collect::<Result<Vec<C>, E>>()?;
    Ok(Tensor {
        shape: a.shape.clone(),
        data,
    })
}

/// Elementwise map.
pub fn map_with<A, C, E>(a: &Tensor<A>, f: impl FnMut(&A) -> Result<C, E>) -> Result<Tensor<C>, E> {
    let data = a.data.iter().map(f).collect::<Result<Vec<C>, E>>()?;
    Ok(Tensor {
        shape: a.shape.clone(),
        data,
    })
}

/// `select(c, a, b)`: whole-array for a rank-0 `c`, elementwise otherwise.
pub fn select<T: Clone>(c: &Tensor<bool>, a: &Tensor<T>, b: &Tensor<T>) -> Tensor<T> {
    if c.shape.is_empty() {
        return if c.data.first().copied().unwrap_or(false) {
            a.clone()
        } else {
            b.clone()
        };
    }
    let data = c
        .data
        .iter()
        .zip(a.data.iter().zip(&b.data))
        .map(|(c, (x, y))| if *c { x.clone() } else { y.clone() })
        .collect();
    Tensor {
        shape: a.shape.clone(),
        data,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(shape: &[usize], data: &[i64]) -> Tensor<i64> {
        Tensor {
            shape: shape.to_vec(),
            data: data.to_vec(),
        }
    }

    #[test]
    fn data_movement_follows_the_conventions() {
        let x = t(&[2, 3], &[1, 2, 3, 4, 5, 6]);
        assert_eq!(transpose(&x, &[1, 0]), t(&[3, 2], &[1, 4, 2, 5, 3, 6]));
        assert_eq!(read_prefix(&x, &[1], &0), t(&[3], &[4, 5, 6]));
        assert_eq!(read_prefix(&x, &[2], &0), t(&[3], &[0, 0, 0]));
        assert_eq!(read_prefix(&x, &[-1, 0], &0), t(&[], &[0]));
        assert_eq!(
            one_hot(&[2, 3], &[1], &t(&[3], &[7, 8, 9]), &0),
            t(&[2, 3], &[0, 0, 0, 7, 8, 9])
        );
        assert_eq!(
            one_hot(&[2, 3], &[5], &t(&[3], &[7, 8, 9]), &0),
            t(&[2, 3], &[0; 6])
        );
        let g = gather_rows(&x, 1, &[3], &[Some(1), None, Some(0)], &0);
        assert_eq!(g, t(&[3, 3], &[4, 5, 6, 0, 0, 0, 1, 2, 3]));
        let s: Result<_, ()> =
            scatter_rows(&g, &[2, 3], 1, &[Some(1), None, Some(1)], &0, |a, b| {
                *a += b;
                Ok(())
            });
        assert_eq!(s, Ok(t(&[2, 3], &[0, 0, 0, 5, 7, 9])));
        assert_eq!(slice_outer(&x, 1, 1), t(&[1, 3], &[4, 5, 6]));
        assert_eq!(append(&x, &x).shape, vec![4, 3]);
        assert_eq!(replicate(2, &t(&[], &[5])), t(&[2], &[5, 5]));
        assert_eq!(flat_prefix(&[2, 3], &[1, 2]), Some(5));
    }
}
