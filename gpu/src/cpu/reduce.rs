//! `reduce` kernels (docs/backend.md, "CPU executor"): lanes over the outputs walking the
//! reduced space in order, or, for few outputs over a large space, lanes over the reduced
//! space with partial results per chunk combined in chunk order (the `min`/`max` NaN
//! rule of docs/backend.md, "Numbers").

use super::kernels::{chunk_len, index_lanes, unflatten, Ctx};
use super::lanes::L;
use rayon::prelude::*;

impl Ctx<'_> {
    #[allow(clippy::too_many_arguments)]
    /// A `reduce` kernel of output shape `shape` into `out`.
    pub(super) fn reduce(
        &self,
        vars: &[u32],
        red_vars: &[u32],
        red: &[usize],
        op: crate::plan::RedOp,
        init: &crate::plan::Sx,
        body: &crate::plan::Sx,
        shape: &[usize],
        out: &mut [f64],
    ) {
        use crate::plan::sx::ops;
        let f = op.bin();
        let m: usize = red.iter().product();
        let threads = rayon::current_num_threads().max(1);
        if out.len() >= 4 * threads || m < 4096 {
            // Lanes over the outputs; the reduced space is walked in order.
            let c = chunk_len(out.len());
            out.par_chunks_mut(c).enumerate().for_each(|(i, chunk)| {
                let mut ev = self.ev(chunk.len());
                index_lanes(&mut ev, vars, shape, i * c, chunk.len());
                let mut acc: Vec<f64> = {
                    let a = ev.eval(init);
                    (0..chunk.len()).map(|l| a.at(l)).collect()
                };
                let mut ix = vec![0usize; red.len()];
                for r in 0..m {
                    unflatten(r, red, &mut ix);
                    for (v, &x) in red_vars.iter().zip(&ix) {
                        ev.set(*v, L::U(x as f64));
                    }
                    let x = ev.eval(body);
                    for (l, a) in acc.iter_mut().enumerate() {
                        *a = ops::bin(f, *a, x.at(l));
                    }
                }
                chunk.copy_from_slice(&acc);
            });
            return;
        }
        // Few outputs over a large space: lanes over the reduced space, partial results
        // per chunk combined in order. `min`/`max` are not associative once a NaN occurs
        // (an unordered pair keeps its right operand, so a left fold restarts after each
        // NaN): a chunk holding a NaN replaces what the chunks before it gave.
        let restarts = matches!(op, crate::plan::RedOp::Min | crate::plan::RedOp::Max);
        for (o, slot) in out.iter_mut().enumerate() {
            let mut oix = vec![0usize; shape.len()];
            unflatten(o, shape, &mut oix);
            let c = chunk_len(m);
            let starts: Vec<usize> = (0..m).step_by(c.max(1)).collect();
            let parts: Vec<(f64, bool)> = starts
                .par_iter()
                .map(|&s| {
                    let n = c.min(m - s);
                    let mut ev = self.ev(n);
                    for (v, &x) in vars.iter().zip(&oix) {
                        ev.set(*v, L::U(x as f64));
                    }
                    index_lanes(&mut ev, red_vars, red, s, n);
                    let x = ev.eval(body);
                    let mut a = x.at(0);
                    let mut nan = a.is_nan();
                    for l in 1..n {
                        nan |= x.at(l).is_nan();
                        a = ops::bin(f, a, x.at(l));
                    }
                    (a, restarts && nan)
                })
                .collect();
            let mut ev = self.ev(1);
            for (v, &x) in vars.iter().zip(&oix) {
                ev.set(*v, L::U(x as f64));
            }
            let mut a = ev.eval(init).at(0);
            for (p, restart) in parts {
                a = if restart { p } else { ops::bin(f, a, p) };
            }
            *slot = a;
        }
    }
}
