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
        let m: usize = red.iter().product();
        if m >= 4096 && out.len() * 16 <= m {
            return self.reduce_joint(vars, red_vars, red, op, init, body, shape, out);
        }
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
    }

    /// Few outputs over a large reduced space: lanes over the joint space `red × shape`
    /// (the reduced indices outer, so a chunk holds whole rows of outputs and a body
    /// reading `b[r, o]` of that shape reads a slice), one partial result per output and
    /// chunk, folded over the chunk's rows in order, the partials combined in chunk order
    /// after `init`. `min`/`max` are not associative once a NaN occurs (an unordered pair
    /// keeps its right operand, so a left fold restarts after each NaN): a partial whose
    /// rows hold a NaN replaces what the chunks before it gave.
    #[allow(clippy::too_many_arguments)]
    fn reduce_joint(
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
        let outs = out.len();
        if outs == 0 {
            return;
        }
        let restarts = matches!(op, RedOp::Min | RedOp::Max);
        let jvars: Vec<u32> = red_vars.iter().chain(vars).copied().collect();
        let jshape: Vec<usize> = red.iter().chain(shape).copied().collect();
        let rows = (chunk_len(m * outs) / outs).max(1);
        let starts: Vec<usize> = (0..m).step_by(rows).collect();
        let parts: Vec<(Vec<f64>, Vec<bool>)> = starts
            .par_iter()
            .map(|&s| {
                let k = rows.min(m - s);
                let mut ev = self.ev(k * outs);
                ev.index(&jvars, &jshape, s * outs);
                let x = ev.eval(body);
                if outs == 1 {
                    let (a, nan) = fold(op, &x, k);
                    ev.recycle(x);
                    return (vec![a], vec![nan]);
                }
                let mut acc = vec![0.0; outs];
                super::kernels::write(&x.part(0, outs), &mut acc);
                let mut nan: Vec<bool> = acc.iter().map(|a| a.is_nan()).collect();
                for row in 1..k {
                    let xr = x.part(row * outs, outs);
                    combine(op, &mut acc, &xr);
                    if restarts {
                        for (o, b) in nan.iter_mut().enumerate() {
                            *b |= xr.at(o).is_nan();
                        }
                    }
                }
                ev.recycle(x);
                (acc, nan)
            })
            .collect();
        let mut ev = self.ev(outs);
        ev.index(vars, shape, 0);
        let a = ev.eval(init);
        super::kernels::write(&a, out);
        for (p, nan) in parts {
            for ((a, p), nan) in out.iter_mut().zip(p).zip(nan) {
                *a = if restarts && nan {
                    p
                } else {
                    ops::bin(f, *a, p)
                };
            }
        }
    }
}
