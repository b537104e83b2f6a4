//! Kernels over chunks of lanes (docs/backend.md, "CPU executor"): a kernel's index space
//! is cut into chunks, and each chunk evaluates the kernel body over all its lanes at once
//! (`lanes.rs`). `map` writes its chunk; `scan` keeps one accumulator per inner element;
//! `scatter` computes its (index, value) pairs in parallel and adds them in source order;
//! `reduce` is in `reduce.rs`, `matmul` in `matmul.rs`.

use super::lanes::{offset, Ev, L};
use super::matmul::matmul;
use crate::plan::KernelKind;
use rayon::prelude::*;
use std::rc::Rc;

/// Lanes per chunk for a space of `n` points.
pub(super) fn chunk_len(n: usize) -> usize {
    let threads = rayon::current_num_threads().max(1);
    (n / (threads * 4)).clamp(64, 2048)
}

/// Multi-index of a flat offset in `shape`, per dimension.
pub(super) fn unflatten(mut flat: usize, shape: &[usize], out: &mut [usize]) {
    for k in (0..shape.len()).rev() {
        out[k] = flat % shape[k].max(1);
        flat /= shape[k].max(1);
    }
}

/// Lanes of the index variables `vars` (of `shape`) for flat points `start..start+n`.
pub(super) fn index_lanes(ev: &mut Ev<'_>, vars: &[u32], shape: &[usize], start: usize, n: usize) {
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

/// What every chunk of a kernel needs.
pub(super) struct Ctx<'a> {
    /// The buffers, by id (empty for the kernel's own output).
    pub bufs: &'a [&'a [f64]],
    /// Number of kernel variables.
    pub nvars: usize,
    /// The host loop counters it reads: (kernel variable, value).
    pub counters: &'a [(u32, f64)],
}

impl Ctx<'_> {
    /// An evaluator of `n` lanes with the host loop counters bound.
    pub(super) fn ev(&self, n: usize) -> Ev<'_> {
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

    /// Runs a kernel of output shape `shape` into `out`.
    pub(super) fn kernel(&self, kind: &KernelKind, shape: &[usize], out: &mut [f64]) {
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
}
