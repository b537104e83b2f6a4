//! `matmul` kernels (docs/backend.md, "Matrix products"): `matrixmultiply::dgemm`, one
//! block per thread. `dgemm` packs the panels of both operands it multiplies, so the
//! blocks split the dimension that makes the least packing: a block of rows packs all of
//! `op(b)`, a block of columns all of `op(a)`. Each element of the result is the same
//! product over `k` whichever block computes it.

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
