//! The CPU executor (docs/backend.md, "CPU executor"): runs a plan's steps in order on
//! every core (rayon). Each kernel's index space is cut into chunks; a chunk evaluates
//! the kernel body over all its lanes at once ([`lanes`]). Matrix products go to
//! `matrixmultiply`'s `dgemm`, one block of rows per task. Scatters compute their
//! (index, value) pairs in parallel and add them in source order, so results do not
//! depend on the thread schedule.

pub mod lanes;
pub mod stream;
mod values;

pub use values::{load_output, store_inputs};

use crate::plan::{Kernel, KernelKind, Plan, Step};
use adora_core::diag::Result;
use adora_semantics::value::Value;
use lanes::{offset, Ev, L};
use rayon::prelude::*;
use std::rc::Rc;

/// Lanes per chunk for a space of `n` points.
fn chunk_len(n: usize) -> usize {
    let threads = rayon::current_num_threads().max(1);
    (n / (threads * 4)).clamp(64, 2048)
}

/// The machine state of one run: the memory slots and the loop counters.
struct Run<'p> {
    plan: &'p Plan,
    slots: Vec<Vec<f64>>,
    counters: std::collections::HashMap<u32, f64>,
}

/// Runs `plan` on `inputs` (one value per parameter, of its type) and returns the result.
pub fn run(plan: &Plan, inputs: &[Value<f64>]) -> Result<Value<f64>> {
    let mut r = Run {
        plan,
        slots: plan.slots.iter().map(|&n| vec![0.0; n]).collect(),
        counters: Default::default(),
    };
    values::store_inputs(plan, inputs, &mut r.slots)?;
    r.steps(&plan.steps);
    Ok(values::load_output(plan, &plan.output, &plan.ret, &r.slots))
}

/// Multi-index of a flat offset in `shape`, per dimension.
fn unflatten(mut flat: usize, shape: &[usize], out: &mut [usize]) {
    for k in (0..shape.len()).rev() {
        out[k] = flat % shape[k].max(1);
        flat /= shape[k].max(1);
    }
}

/// Lanes of the index variables `vars` (of `shape`) for flat points `start..start+n`.
fn index_lanes(ev: &mut Ev<'_>, vars: &[u32], shape: &[usize], start: usize, n: usize) {
    if let ([v], [_]) = (vars, shape) {
        // One dimension: the lanes are `start + lane`, no division per point.
        ev.set(*v, L::R(start));
        return;
    }
    let mut cols: Vec<Vec<f64>> = vec![Vec::with_capacity(n); vars.len()];
    let mut ix = vec![0usize; shape.len()];
    for p in start..start + n {
        unflatten(p, shape, &mut ix);
        for (c, &i) in cols.iter_mut().zip(&ix) {
            c.push(i as f64);
        }
    }
    for (v, c) in vars.iter().zip(cols) {
        ev.set(*v, L::V(Rc::new(c)));
    }
}

impl Run<'_> {
    fn steps(&mut self, steps: &[Step]) {
        for s in steps {
            match s {
                Step::Kernel(k) => self.kernel(k),
                Step::Loop {
                    counter,
                    count,
                    body,
                    carry,
                } => {
                    for c in 0..*count {
                        self.counters.insert(*counter, c as f64);
                        self.steps(body);
                        let vals: Vec<Vec<f64>> =
                            carry.iter().map(|(f, _)| self.buf(*f).to_vec()).collect();
                        for ((_, t), v) in carry.iter().zip(vals) {
                            let s = self.plan.buffers[*t].slot;
                            self.slots[s][..v.len()].copy_from_slice(&v);
                        }
                    }
                }
            }
        }
    }

    fn buf(&self, b: usize) -> &[f64] {
        let bb = &self.plan.buffers[b];
        &self.slots[bb.slot][..bb.len()]
    }

    fn kernel(&mut self, k: &Kernel) {
        let plan = self.plan;
        let out_buf = &plan.buffers[k.out];
        let mut out = std::mem::take(&mut self.slots[out_buf.slot]);
        let bufs: Vec<&[f64]> = plan
            .buffers
            .iter()
            .map(|b| {
                if b.slot == out_buf.slot {
                    &[][..]
                } else {
                    &self.slots[b.slot][..b.len()]
                }
            })
            .collect();
        let counters: Vec<(u32, f64)> = k
            .counters
            .iter()
            .map(|(v, c)| (*v, self.counters.get(c).copied().unwrap_or(0.0)))
            .collect();
        let ctx = Ctx {
            bufs: &bufs,
            nvars: k.nvars as usize,
            counters: &counters,
        };
        let len = out_buf.len();
        ctx.kernel(&k.kind, &out_buf.shape, &mut out[..len]);
        self.slots[out_buf.slot] = out;
    }
}

/// What every chunk of a kernel needs.
struct Ctx<'a> {
    bufs: &'a [&'a [f64]],
    nvars: usize,
    counters: &'a [(u32, f64)],
}

impl Ctx<'_> {
    fn ev(&self, n: usize) -> Ev<'_> {
        let mut ev = Ev {
            bufs: self.bufs,
            env: vec![None; self.nvars],
            n,
        };
        for (v, c) in self.counters {
            ev.set(*v, L::U(*c));
        }
        ev
    }

    fn kernel(&self, kind: &KernelKind, shape: &[usize], out: &mut [f64]) {
        match kind {
            KernelKind::Map { vars, body } => {
                let c = chunk_len(out.len());
                out.par_chunks_mut(c).enumerate().for_each(|(i, chunk)| {
                    let mut ev = self.ev(chunk.len());
                    index_lanes(&mut ev, vars, shape, i * c, chunk.len());
                    let r = ev.eval(body);
                    for (l, o) in chunk.iter_mut().enumerate() {
                        *o = r.at(l);
                    }
                });
            }
            KernelKind::Reduce {
                vars,
                red_vars,
                red,
                op,
                init,
                body,
            } => self.reduce(vars, red_vars, red, *op, init, body, shape, out),
            KernelKind::Scan {
                vars,
                k,
                acc,
                init,
                step,
            } => {
                let m = shape.first().copied().unwrap_or(0);
                let rest = &shape[1..];
                let r: usize = rest.iter().product();
                let c = chunk_len(r);
                let starts: Vec<usize> = (0..r).step_by(c.max(1)).collect();
                let parts: Vec<Vec<f64>> = starts
                    .par_iter()
                    .map(|&s| {
                        let n = c.min(r - s);
                        let mut ev = self.ev(n);
                        index_lanes(&mut ev, vars, rest, s, n);
                        let mut a = ev.eval(init);
                        let mut col = Vec::with_capacity(m * n);
                        for kk in 0..m {
                            ev.set(*k, L::U(kk as f64));
                            ev.set(*acc, a);
                            a = ev.eval(step);
                            col.extend((0..n).map(|l| a.at(l)));
                        }
                        col
                    })
                    .collect();
                for (&s, part) in starts.iter().zip(parts) {
                    let n = c.min(r - s);
                    for kk in 0..m {
                        out[kk * r + s..kk * r + s + n]
                            .copy_from_slice(&part[kk * n..(kk + 1) * n]);
                    }
                }
            }
            KernelKind::Scatter {
                vars,
                src,
                index,
                value,
            } => {
                let total: usize = src.iter().product();
                let c = chunk_len(total);
                let starts: Vec<usize> = (0..total).step_by(c.max(1)).collect();
                let parts: Vec<Vec<(Option<usize>, f64)>> = starts
                    .par_iter()
                    .map(|&s| {
                        let n = c.min(total - s);
                        let mut ev = self.ev(n);
                        index_lanes(&mut ev, vars, src, s, n);
                        let ix: Vec<L> = index.iter().map(|i| ev.eval(i)).collect();
                        let v = ev.eval(value);
                        (0..n)
                            .map(|l| (offset(shape, ix.iter().map(|x| x.at(l))), v.at(l)))
                            .collect()
                    })
                    .collect();
                for part in parts {
                    for (o, v) in part {
                        if let Some(o) = o {
                            out[o] += v;
                        }
                    }
                }
            }
            KernelKind::MatMul {
                a,
                ta,
                b,
                tb,
                m,
                n,
                k,
            } => matmul(self.bufs[*a], *ta, self.bufs[*b], *tb, *m, *n, *k, out),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn reduce(
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

/// Every zero of a product's result recomputed as the left fold of its products from the
/// first, as the evaluator sums: `dgemm` starts from `+0.0`, so a sum of `-0.0` products
/// (which the evaluator gives as `-0.0`) would come out `+0.0` and `1 / c` would differ.
/// Zeros are rare in real data; each costs `k` products.
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
    for (o, c) in out.iter_mut().enumerate() {
        if *c == 0.0 {
            let (i, j) = (o / n, o % n);
            *c = (1..k).fold(at(i, 0) * bt(0, j), |s, l| s + at(i, l) * bt(l, j));
        }
    }
}

/// `out = op(a) · op(b)` by `matrixmultiply::dgemm`, blocks of rows in parallel.
#[allow(clippy::too_many_arguments)]
fn matmul(a: &[f64], ta: bool, b: &[f64], tb: bool, m: usize, n: usize, k: usize, out: &mut [f64]) {
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
    signed_zeros(a, ta, b, tb, m, n, k, out);
}
