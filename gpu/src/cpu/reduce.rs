//! `reduce` kernels (docs/backend.md, "CPU executor"): lanes over the outputs walking the
//! reduced space in order, or, for few outputs over a large space, lanes over the reduced
//! space with partial results per chunk combined in chunk order (the `min`/`max` NaN
//! rule of docs/backend.md, "Numbers"):
//!
//! | outputs, reduced points `m`                  | lanes                                   |
//! |----------------------------------------------|-----------------------------------------|
//! | `m < 4096` or outputs > `m / 16`             | the outputs; the reduced space walked   |
//! | one output                                   | the reduced space (`reduce_one`)        |
//! | at most 64 over one reduced dimension        | the reduced space, one output at a time |
//! | otherwise                                    | reduced points × outputs (`reduce_joint`) |
//! Each combination runs its own loop per operator
//! (`+`, `*`, `min`, `max`), with the operands in the same order as [`ops::bin`]'s left
//! fold, so the bits are those of the fold.

use super::kernels::{chunk_len, unflatten, Ctx};
use super::lanes::{Ev, L};
use crate::plan::sx::{ops, Bin, Sx};
use crate::plan::{KernelKind, RedOp};
use rayon::prelude::*;
use std::rc::Rc;

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

/// The left folds `x[0] op x[1] op …` of consecutive runs of `c` lanes of `x` (the last
/// may be shorter), each with whether it holds a NaN (looked for when `nans`). Four
/// full runs of a vector are folded in one interleaved loop: four independent chains of
/// operations, each in its own order, so the bits are those of four separate folds.
#[inline(always)]
fn folds_with(
    x: &L<'_>,
    n: usize,
    c: usize,
    nans: bool,
    f: impl Fn(f64, f64) -> f64 + Copy,
) -> Vec<(f64, bool)> {
    let nan_in = |v: &[f64]| nans && v.iter().any(|y| y.is_nan());
    if let Some(v) = x.slice() {
        if n == 4 * c && c > 0 {
            let (p, q) = v.split_at(2 * c);
            let (s0, s1) = p.split_at(c);
            let (s2, s3) = q.split_at(c);
            let mut a = [s0[0], s1[0], s2[0], s3[0]];
            for i in 1..c {
                a[0] = f(a[0], s0[i]);
                a[1] = f(a[1], s1[i]);
                a[2] = f(a[2], s2[i]);
                a[3] = f(a[3], s3[i]);
            }
            return vec![
                (a[0], nan_in(s0)),
                (a[1], nan_in(s1)),
                (a[2], nan_in(s2)),
                (a[3], nan_in(s3)),
            ];
        }
        return v
            .chunks(c.max(1))
            .map(|w| (w[1..].iter().fold(w[0], |a, &y| f(a, y)), nan_in(w)))
            .collect();
    }
    (0..n)
        .step_by(c.max(1))
        .map(|s| {
            let k = c.min(n - s);
            let mut a = x.at(s);
            let mut nan = a.is_nan();
            for l in s + 1..s + k {
                nan |= x.at(l).is_nan();
                a = f(a, x.at(l));
            }
            (a, nans && nan)
        })
        .collect()
}

/// `a op x[0] op x[1] op …` over `n` lanes, in order.
fn fold_from(op: RedOp, a: f64, x: &L<'_>, n: usize) -> f64 {
    #[inline(always)]
    fn go(a: f64, x: &L<'_>, n: usize, f: impl Fn(f64, f64) -> f64) -> f64 {
        match x.slice() {
            Some(v) => v.iter().fold(a, |a, &y| f(a, y)),
            None => (0..n).fold(a, |a, l| f(a, x.at(l))),
        }
    }
    match op {
        RedOp::Add => go(a, x, n, |a, b| a + b),
        RedOp::Mul => go(a, x, n, |a, b| a * b),
        RedOp::Min => go(a, x, n, |a, b| ops::bin(Bin::Min, a, b)),
        RedOp::Max => go(a, x, n, |a, b| ops::bin(Bin::Max, a, b)),
    }
}

/// The folds of runs of `c` lanes with `op` ([`folds_with`]).
fn folds(op: RedOp, x: &L<'_>, n: usize, c: usize, nans: bool) -> Vec<(f64, bool)> {
    match op {
        RedOp::Add => folds_with(x, n, c, nans, |a, b| a + b),
        RedOp::Mul => folds_with(x, n, c, nans, |a, b| a * b),
        RedOp::Min => folds_with(x, n, c, nans, |a, b| ops::bin(Bin::Min, a, b)),
        RedOp::Max => folds_with(x, n, c, nans, |a, b| ops::bin(Bin::Max, a, b)),
    }
}

/// `acc op body` at every point of the reduced space, in order, one lane per output.
fn walk(ev: &mut Ev<'_>, red_vars: &[u32], red: &[usize], op: RedOp, body: &Sx, acc: &mut [f64]) {
    let mut ix = vec![0usize; red.len()];
    for r in 0..red.iter().product() {
        unflatten(r, red, &mut ix);
        for (v, &x) in red_vars.iter().zip(&ix) {
            ev.set(*v, L::U(x as f64));
        }
        let x = ev.eval(body);
        combine(op, acc, &x);
        ev.recycle(x);
    }
}

/// The most outputs reduced one after another, each over lanes of the reduced space,
/// when that space has one dimension and is large.
const PER_OUTPUT: usize = 64;

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
        if out.len() == 1 && m > 1 {
            // One output over a small space: its points are the lanes of one chunk, folded
            // in order from `init` (the walk below, with one evaluation per node).
            let jvars: Vec<u32> = red_vars.iter().chain(vars).copied().collect();
            let jshape: Vec<usize> = red.iter().chain(shape).copied().collect();
            let mut ev = self.ev(m);
            ev.index(&jvars, &jshape, 0);
            let x = ev.eval(body);
            let mut e1 = self.ev(1);
            e1.index(vars, shape, 0);
            let a = e1.eval(init).at(0);
            out[0] = fold_from(op, a, &x, m);
            ev.recycle(x);
            return;
        }
        // Lanes over the outputs; the reduced space is walked in order.
        // A walk of many reduced points interprets the body once per point and chunk:
        // over a long walk, chunks of one share per thread (at least 64 lanes) spread
        // that cost over more lanes.
        let c = if m >= 256 {
            let threads = rayon::current_num_threads().max(1);
            out.len().div_ceil(threads).clamp(64, 2048)
        } else {
            chunk_len(out.len())
        };
        out.par_chunks_mut(c).enumerate().for_each(|(i, chunk)| {
            let mut ev = self.ev(chunk.len());
            ev.index(vars, shape, i * c);
            let a = ev.eval(init);
            super::kernels::write(&a, chunk);
            ev.recycle(a);
            walk(&mut ev, red_vars, red, op, body, chunk);
        });
    }

    /// Every zero of `out` recomputed by the reduction `exact` (a batched product's whose
    /// dropped terms' signs its sides do not keep: docs/backend.md, "Numbers"): lanes
    /// over those outputs, each walking the reduced space in order.
    pub(super) fn exact_zeros(&self, exact: &KernelKind, shape: &[usize], out: &mut [f64]) {
        let KernelKind::Reduce {
            vars,
            red_vars,
            red,
            op,
            init,
            body,
        } = exact
        else {
            return self.kernel(exact, shape, out);
        };
        let at: Vec<usize> = (0..out.len()).filter(|&o| out[o] == 0.0).collect();
        if at.is_empty() {
            return;
        }
        let parts: Vec<Vec<f64>> = at
            .par_chunks(chunk_len(at.len()))
            .map(|chunk| {
                let mut ev = self.ev(chunk.len());
                let mut cols = vec![Vec::with_capacity(chunk.len()); vars.len()];
                let mut ix = vec![0usize; shape.len()];
                for &o in chunk {
                    unflatten(o, shape, &mut ix);
                    for (col, &x) in cols.iter_mut().zip(&ix) {
                        col.push(x as f64);
                    }
                }
                for (v, col) in vars.iter().zip(cols) {
                    ev.set(*v, L::V(Rc::new(col)));
                }
                let a = ev.eval(init);
                let mut acc = vec![0.0; chunk.len()];
                super::kernels::write(&a, &mut acc);
                ev.recycle(a);
                walk(&mut ev, red_vars, red, *op, body, &mut acc);
                acc
            })
            .collect();
        for (&o, v) in at.iter().zip(parts.into_iter().flatten()) {
            out[o] = v;
        }
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
        if outs == 1 || (red.len() == 1 && outs <= PER_OUTPUT) {
            // One output, or a few over one reduced dimension: per output, lanes over the
            // reduced space only (a load `x[r + o]` at the output's `o` reads a slice).
            let mut ix = vec![0usize; shape.len()];
            for (o, slot) in out.iter_mut().enumerate() {
                unflatten(o, shape, &mut ix);
                let at: Vec<(u32, f64)> =
                    vars.iter().zip(&ix).map(|(v, &i)| (*v, i as f64)).collect();
                *slot = self.reduce_one(&at, red_vars, red, op, init, body);
            }
            return;
        }
        let starts: Vec<usize> = (0..m).step_by(rows).collect();
        let parts: Vec<(Vec<f64>, Vec<bool>)> = starts
            .par_iter()
            .map(|&s| {
                let k = rows.min(m - s);
                let mut ev = self.ev(k * outs);
                ev.index(&jvars, &jshape, s * outs);
                let x = ev.eval(body);
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

    /// One output's reduction, its index variables at `at`: lanes over the reduced space,
    /// a task taking four chunks when there are plenty and folding them interleaved (the
    /// same partials as four tasks), the partials combined in order after `init` (with
    /// the NaN rule of `min`/`max`).
    fn reduce_one(
        &self,
        at: &[(u32, f64)],
        red_vars: &[u32],
        red: &[usize],
        op: RedOp,
        init: &Sx,
        body: &Sx,
    ) -> f64 {
        let f = op.bin();
        let m: usize = red.iter().product();
        let restarts = matches!(op, RedOp::Min | RedOp::Max);
        let rows = chunk_len(m).max(1);
        let threads = rayon::current_num_threads().max(1);
        let group = if m.div_ceil(rows) >= 16 * threads {
            4
        } else {
            1
        };
        let starts: Vec<usize> = (0..m).step_by(rows * group).collect();
        let parts: Vec<Vec<(f64, bool)>> = starts
            .par_iter()
            .map(|&s| {
                let k = (rows * group).min(m - s);
                let mut ev = self.ev(k);
                for (v, x) in at {
                    ev.set(*v, L::U(*x));
                }
                ev.index(red_vars, red, s);
                let x = ev.eval(body);
                let r = folds(op, &x, k, rows, restarts);
                ev.recycle(x);
                r
            })
            .collect();
        let mut ev = self.ev(1);
        for (v, x) in at {
            ev.set(*v, L::U(*x));
        }
        let mut a = ev.eval(init).at(0);
        for (p, nan) in parts.into_iter().flatten() {
            a = if nan { p } else { ops::bin(f, a, p) };
        }
        a
    }
}
