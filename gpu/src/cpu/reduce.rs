//! `reduce` kernels (docs/backend.md, "CPU executor"): lanes over the outputs walking the
//! reduced space in order, or, for few outputs over a large space, lanes over the reduced
//! space with partial results per chunk combined in chunk order (the `min`/`max` NaN
//! rule of docs/backend.md, "Numbers"). Each combination runs its own loop per operator
//! (`+`, `*`, `min`, `max`), with the operands in the same order as [`ops::bin`]'s left
//! fold, so the bits are those of the fold.

use super::kernels::{chunk_len, unflatten, Ctx};
use super::lanes::L;
use crate::plan::sx::{ops, Bin, Sx};
use crate::plan::RedOp;
use rayon::prelude::*;

/// `acc[l] = f(acc[l], x[l])` on every lane.
#[inline(always)]
fn combine_with(acc: &mut [f64], x: &L<'_>, f: impl Fn(f64, f64) -> f64) {
    match x {
        L::U(c) => acc.iter_mut().for_each(|a| *a = f(*a, *c)),
        L::R(s) => acc
            .iter_mut()
            .enumerate()
            .for_each(|(l, a)| *a = f(*a, (s + l) as f64)),
        L::S(v) => acc
            .iter_mut()
            .zip(v.iter())
            .for_each(|(a, &y)| *a = f(*a, y)),
        L::V(v) => acc
            .iter_mut()
            .zip(v.iter())
            .for_each(|(a, &y)| *a = f(*a, y)),
    }
}

/// `acc[l] = acc[l] op x[l]`.
fn combine(op: RedOp, acc: &mut [f64], x: &L<'_>) {
    match op {
        RedOp::Add => combine_with(acc, x, |a, b| a + b),
        RedOp::Mul => combine_with(acc, x, |a, b| a * b),
        RedOp::Min => combine_with(acc, x, |a, b| ops::bin(Bin::Min, a, b)),
        RedOp::Max => combine_with(acc, x, |a, b| ops::bin(Bin::Max, a, b)),
    }
}

/// The left fold `x[0] op x[1] op …` of `n ≥ 1` lanes, and whether a lane is NaN.
#[inline(always)]
fn fold_with(x: &L<'_>, n: usize, f: impl Fn(f64, f64) -> f64) -> (f64, bool) {
    match x {
        L::S(v) => fold_slice(v, f),
        L::V(v) => fold_slice(v, f),
        x => {
            let mut a = x.at(0);
            let mut nan = a.is_nan();
            for l in 1..n {
                nan |= x.at(l).is_nan();
                a = f(a, x.at(l));
            }
            (a, nan)
        }
    }
}

#[inline(always)]
fn fold_slice(v: &[f64], f: impl Fn(f64, f64) -> f64) -> (f64, bool) {
    let Some((&first, rest)) = v.split_first() else {
        return (f64::NAN, true);
    };
    let a = rest.iter().fold(first, |a, &y| f(a, y));
    (a, v.iter().any(|y| y.is_nan()))
}

/// The fold of the lanes with `op`.
fn fold(op: RedOp, x: &L<'_>, n: usize) -> (f64, bool) {
    match op {
        RedOp::Add => fold_with(x, n, |a, b| a + b),
        RedOp::Mul => fold_with(x, n, |a, b| a * b),
        RedOp::Min => fold_with(x, n, |a, b| ops::bin(Bin::Min, a, b)),
        RedOp::Max => fold_with(x, n, |a, b| ops::bin(Bin::Max, a, b)),
    }
}

impl Ctx<'_> {
    /// A `reduce` kernel of output shape `shape` into `out`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn reduce(
        &self,
        vars: &[u32],
        red_vars: &[u32],
        red: &[usize],
        op: RedOp,
        init: &Sx,
        body: &Sx,
        shape: &[usize],
        out: &mut [f64],
    ) {
        let f = op.bin();
        let m: usize = red.iter().product();
        let threads = rayon::current_num_threads().max(1);
        if out.len() >= 4 * threads || m < 4096 {
            // Lanes over the outputs; the reduced space is walked in order.
            let c = chunk_len(out.len());
            out.par_chunks_mut(c).enumerate().for_each(|(i, chunk)| {
                let mut ev = self.ev(chunk.len());
                ev.index(vars, shape, i * c);
                let a = ev.eval(init);
                super::kernels::write(&a, chunk);
                ev.recycle(a);
                let mut ix = vec![0usize; red.len()];
                for r in 0..m {
                    unflatten(r, red, &mut ix);
                    for (v, &x) in red_vars.iter().zip(&ix) {
                        ev.set(*v, L::U(x as f64));
                    }
                    let x = ev.eval(body);
                    combine(op, chunk, &x);
                    ev.recycle(x);
                }
            });
            return;
        }
        // Few outputs over a large space: lanes over the reduced space, partial results
        // per chunk combined in order. `min`/`max` are not associative once a NaN occurs
        // (an unordered pair keeps its right operand, so a left fold restarts after each
        // NaN): a chunk holding a NaN replaces what the chunks before it gave.
        let restarts = matches!(op, RedOp::Min | RedOp::Max);
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
                    ev.index(red_vars, red, s);
                    let x = ev.eval(body);
                    let (a, nan) = fold(op, &x, n);
                    ev.recycle(x);
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
