//! `matmul` kernels (docs/backend.md, "Matrix products"): `matrixmultiply::dgemm`, one
//! block of rows per task.

use rayon::prelude::*;

/// `out = op(a) · op(b)` by `matrixmultiply::dgemm`, blocks of rows in parallel.
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
    let rows = (m / (rayon::current_num_threads().max(1) * 2)).max(16);
    out.par_chunks_mut(rows * n)
        .enumerate()
        .for_each(|(blk, c)| {
            let i0 = blk * rows;
            let mi = c.len() / n;
            // SAFETY: the strides describe `a` ([m, k] or its transpose), `b` ([k, n] or its
            // transpose) and the row block `c` of the row-major [m, n] result, all in bounds.
            unsafe {
                matrixmultiply::dgemm(
                    mi,
                    k,
                    n,
                    1.0,
                    a.as_ptr().offset(i0 as isize * rsa),
                    rsa,
                    csa,
                    b.as_ptr(),
                    rsb,
                    csb,
                    0.0,
                    c.as_mut_ptr(),
                    n as isize,
                    1,
                );
            }
        });
}
