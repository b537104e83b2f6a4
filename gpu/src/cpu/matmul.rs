//! `matmul` kernels (docs/backend.md, "Matrix products", "Batched products"):
//! `matrixmultiply::dgemm`, one
//! block per thread. `dgemm` packs the panels of both operands it multiplies, so the
//! blocks split the dimension that makes the least packing: a block of rows packs all of
//! `op(b)`, a block of columns all of `op(a)`. Each element of the result is the same
//! product over `k` whichever block computes it.

use crate::plan::{KernelKind, Zeros};
use rayon::prelude::*;

/// The result matrix, shared by the blocks that write disjoint parts of it.
#[derive(Clone, Copy)]
struct Out(*mut f64);

// SAFETY: the blocks write disjoint rows or columns of the result (see `matmul`).
unsafe impl Send for Out {}
// SAFETY: as above.
unsafe impl Sync for Out {}

impl Out {
    /// The pointer (a method, so that closures capture the whole `Out`).
    fn ptr(self) -> *mut f64 {
        self.0
    }
}

/// Fewest multiply-adds worth a parallel split.
const SPLIT_WORK: usize = 1 << 18;

/// Every zero of a product's result recomputed as the left fold of its products from the
/// first, as the evaluator sums: `dgemm` starts from `+0.0`, so a sum of `-0.0` products
/// (which the evaluator gives as `-0.0`) would come out `+0.0` and `1 / c` would differ
/// (docs/backend.md, "Numbers"). Zeros are rare in real data; each costs `k` products.
#[allow(clippy::too_many_arguments)]
fn signed_zeros(
    a: &[f64],
    ta: bool,
    b: &[f64],
    tb: bool,
    m: usize,
    n: usize,
    k: usize,
    out: &mut [f64],
) {
    let at = |i: usize, l: usize| if ta { a[l * m + i] } else { a[i * k + l] };
    let bt = |l: usize, j: usize| if tb { b[j * k + l] } else { b[l * n + j] };
    for (o, c) in out[..m * n].iter_mut().enumerate() {
        if *c == 0.0 {
            let (i, j) = (o / n, o % n);
            *c = (1..k).fold(at(i, 0) * bt(0, j), |s, l| s + at(i, l) * bt(l, j));
        }
    }
}

/// `out = op(a) · op(b)` by `matrixmultiply::dgemm`, blocks of rows or of columns in
/// parallel.
#[allow(clippy::too_many_arguments)]
pub(super) fn matmul(
    a: &[f64],
    ta: bool,
    b: &[f64],
    tb: bool,
    m: usize,
    n: usize,
    k: usize,
    out: &mut [f64],
) {
    let (rsa, csa) = if ta { (1, m as isize) } else { (k as isize, 1) };
    let (rsb, csb) = if tb { (1, k as isize) } else { (n as isize, 1) };
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        out.iter_mut().for_each(|x| *x = 0.0);
        return;
    }
    assert!(
        a.len() >= m * k && b.len() >= k * n && out.len() >= m * n,
        "matmul operands smaller than their shapes"
    );
    let threads = rayon::current_num_threads().max(1);
    let blocks = if m * n * k < SPLIT_WORK { 1 } else { threads };
    // Rows: every block packs op(b) (k × n); columns: every block packs op(a) (m × k).
    let by_rows = m * k + blocks * k * n <= blocks * m * k + k * n;
    let (len, unit) = if by_rows { (m, 8) } else { (n, 8) };
    let size = len.div_ceil(blocks).div_ceil(unit) * unit;
    let c = Out(out.as_mut_ptr());
    (0..len.div_ceil(size)).into_par_iter().for_each(|blk| {
        let lo = blk * size;
        let hi = (lo + size).min(len);
        // SAFETY: the strides describe `a` ([m, k] or its transpose), `b` ([k, n] or its
        // transpose) and the row-major [m, n] result, all in bounds (asserted above); the
        // block reads rows `lo..hi` of op(a) (or columns of op(b)) and writes only rows
        // (or columns) `lo..hi` of the result, disjoint from every other block's.
        unsafe {
            let (ap, bp, cp, mi, ni) = if by_rows {
                let ap = a.as_ptr().offset(lo as isize * rsa);
                (ap, b.as_ptr(), c.ptr().add(lo * n), hi - lo, n)
            } else {
                let bp = b.as_ptr().offset(lo as isize * csb);
                (a.as_ptr(), bp, c.ptr().add(lo), m, hi - lo)
            };
            matrixmultiply::dgemm(
                mi, k, ni, 1.0, ap, rsa, csa, bp, rsb, csb, 0.0, cp, n as isize, 1,
            );
        }
    });
    signed_zeros(a, ta, b, tb, m, n, k, out);
}

/// One side of a batched product: its buffer, its strides for `(batch, row or column,
/// contracted)` in the order of [`crate::plan::KernelKind::Batched`], and its mask.
struct Side<'a> {
    /// The values.
    pub v: &'a [f64],
    /// The strides.
    pub st: [usize; 3],
    /// 1 where the program's select keeps the term, 0 where it gives `+0`.
    pub mask: Option<&'a [f64]>,
}

/// A batched product (docs/backend.md, "Batched products"): for each batch index `t`,
/// `out[t, i, j] = Σ_r a[t, i, r] · b[t, r, j]` by `dgemm` on strided views (`a`'s
/// strides for `(t, i, r)`, `b`'s for `(t, r, j)`, `so` for `(t, i, j)`; `dims` is
/// `[count, m, n, k]`), the batch indices split among the threads.
fn batched(a: &Side<'_>, b: &Side<'_>, dims: [usize; 4], so: [usize; 3], out: &mut [f64]) {
    let [count, m, n, k] = dims;
    if dims.contains(&0) {
        return;
    }
    // The offset of the last element a view reaches.
    let last =
        |s: [usize; 3], d: [usize; 3]| -> usize { s.iter().zip(d).map(|(s, d)| s * (d - 1)).sum() };
    let fits = |x: &Side<'_>, d: [usize; 3]| {
        let end = last(x.st, d);
        x.v.len() > end && x.mask.is_none_or(|mk| mk.len() > end)
    };
    assert!(
        fits(a, [count, m, k]) && fits(b, [count, k, n]) && out.len() > last(so, [count, m, n]),
        "batched product views beyond their buffers"
    );
    let c = Out(out.as_mut_ptr());
    let threads = rayon::current_num_threads().max(1);
    let per = if count * m * n * k < SPLIT_WORK {
        count
    } else {
        count.div_ceil(threads)
    };
    let (sa, sb) = (a.st, b.st);
    (0..count).into_par_iter().with_min_len(per).for_each(|t| {
        // SAFETY: every view lies in its buffer (asserted above); the output strides
        // come from the output's row-major shape with the batch, row and column at
        // distinct positions, so batch index `t` writes elements no other writes.
        unsafe {
            matrixmultiply::dgemm(
                m,
                k,
                n,
                1.0,
                a.v.as_ptr().add(t * sa[0]),
                sa[1] as isize,
                sa[2] as isize,
                b.v.as_ptr().add(t * sb[0]),
                sb[1] as isize,
                sb[2] as isize,
                0.0,
                c.ptr().add(t * so[0]),
                so[1] as isize,
                so[2] as isize,
            );
        }
    });
}

/// Every zero of a batched product's result re-summed in order from the first term, a
/// term a mask drops `+0`, as the program sums (docs/backend.md, "Numbers").
fn resum_zeros(a: &Side<'_>, b: &Side<'_>, dims: [usize; 4], so: [usize; 3], out: &mut [f64]) {
    let [count, m, n, k] = dims;
    if dims.contains(&0) {
        return;
    }
    let (sa, sb) = (a.st, b.st);
    let keep = |x: &Side<'_>, o: usize| x.mask.is_none_or(|mk| mk[o] != 0.0);
    for t in 0..count {
        for i in 0..m {
            for j in 0..n {
                let o = t * so[0] + i * so[1] + j * so[2];
                if out[o] != 0.0 {
                    continue;
                }
                let term = |r: usize| {
                    let oa = t * sa[0] + i * sa[1] + r * sa[2];
                    let ob = t * sb[0] + r * sb[1] + j * sb[2];
                    if keep(a, oa) && keep(b, ob) {
                        a.v[oa] * b.v[ob]
                    } else {
                        0.0
                    }
                };
                out[o] = (1..k).fold(term(0), |s, r| s + term(r));
            }
        }
    }
}

/// A batched product ([`KernelKind::Batched`]) over the buffers `bufs` into `out`: `dgemm`
/// per batch index, then its zeros re-summed from the sides, or recomputed by
/// `exact_zeros` (a select inside the product); `exact_all` instead of the product when a
/// side was stored under a select and a side holds a non-finite value
/// (docs/backend.md, "Batched products").
pub(super) fn batched_kernel(
    kind: &KernelKind,
    bufs: &[&[f64]],
    out: &mut [f64],
    exact_all: &mut dyn FnMut(&mut [f64]),
    exact_zeros: &mut dyn FnMut(&mut [f64]),
) {
    let KernelKind::Batched {
        a,
        b,
        count,
        m,
        n,
        k,
        sa,
        sb,
        so,
        zeros,
        ..
    } = kind
    else {
        unreachable!("a batched product")
    };
    let ms = match zeros {
        Zeros::Masks(ms) => *ms,
        _ => [None, None],
    };
    let side = |x: &usize, s: &[usize; 3], mask: Option<usize>| Side {
        v: bufs[*x],
        st: *s,
        mask: mask.map(|mk| bufs[mk]),
    };
    let (a, b) = (side(a, sa, ms[0]), side(b, sb, ms[1]));
    let finite = |v: &[f64]| v.iter().all(|x| x.is_finite());
    if *zeros != Zeros::Sides && !(finite(a.v) && finite(b.v)) {
        // A zero stored under a select would meet a non-finite value the program never
        // multiplies by: the reduction itself.
        return exact_all(out);
    }
    let dims = [*count, *m, *n, *k];
    batched(&a, &b, dims, *so, out);
    if *zeros == Zeros::Exact {
        exact_zeros(out);
    } else {
        resum_zeros(&a, &b, dims, *so, out);
    }
}
