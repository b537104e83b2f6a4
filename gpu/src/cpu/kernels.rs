//! Kernels over chunks of lanes (docs/backend.md, "CPU executor"): a kernel's index space
//! is cut into chunks, and each chunk evaluates the kernel body over all its lanes at once
//! (`lanes.rs`). `map` writes its chunk; `scan` keeps one accumulator per inner element;
//! `scatter` computes its (index, value) pairs in parallel and adds them in source order;
//! `reduce` is in `reduce.rs`, `matmul` and batched products in `matmul.rs`.

use super::lanes::{index as index_of, offset, Ev, L};
use super::matmul::{batched_kernel, matmul};
use crate::plan::{KernelKind, Sx};
use rayon::prelude::*;

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

/// Writes the lanes of `r` into `out`.
pub(super) fn write(r: &L<'_>, out: &mut [f64]) {
    match r {
        L::U(x) => out.fill(*x),
        L::R(s) => out
            .iter_mut()
            .enumerate()
            .for_each(|(l, o)| *o = (s + l) as f64),
        L::S(v) => out.copy_from_slice(v),
        L::V(v) => out.copy_from_slice(v),
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
        let mut ev = Ev::new(self.bufs, self.nvars, n);
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
                    ev.index(vars, shape, i * c);
                    let r = ev.eval(body);
                    write(&r, chunk);
                    ev.recycle(r);
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
                        ev.index(vars, rest, s);
                        let mut a = ev.eval(init);
                        let mut col = Vec::with_capacity(m * n);
                        for kk in 0..m {
                            ev.set(*k, L::U(kk as f64));
                            ev.set(*acc, a);
                            a = ev.eval(step);
                            let at = col.len();
                            col.resize(at + n, 0.0);
                            write(&a, &mut col[at..]);
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
            } => self.scatter(vars, src, index, value, shape, out),
            KernelKind::MatMul {
                a,
                ta,
                b,
                tb,
                m,
                n,
                k,
            } => matmul(self.bufs[*a], *ta, self.bufs[*b], *tb, *m, *n, *k, out),
            KernelKind::Batched { exact, .. } => batched_kernel(
                kind,
                self.bufs,
                out,
                &mut |out| self.kernel(exact, shape, out),
                &mut |out| self.exact_zeros(exact, shape, out),
            ),
        }
    }

    /// `out[index] += value` over the source space `src`: waves of chunks compute their
    /// (offset, value) pairs in parallel into buffers reused from wave to wave, then the
    /// pairs are added in source order (out-of-bounds writes dropped), so the sums do not
    /// depend on the thread schedule.
    fn scatter(
        &self,
        vars: &[u32],
        src: &[usize],
        index: &[Sx],
        value: &Sx,
        shape: &[usize],
        out: &mut [f64],
    ) {
        let total: usize = src.iter().product();
        let c = chunk_len(total);
        let chunks = total.div_ceil(c);
        let wave = (rayon::current_num_threads().max(1) * 4).min(chunks);
        let mut parts: Vec<(Vec<usize>, Vec<f64>)> = vec![Default::default(); wave];
        let mut first = 0;
        while first < chunks {
            let w = wave.min(chunks - first);
            parts[..w]
                .par_iter_mut()
                .enumerate()
                .for_each(|(j, (offs, vals))| {
                    let s = (first + j) * c;
                    let n = c.min(total - s);
                    let mut ev = self.ev(n);
                    ev.index(vars, src, s);
                    let ix: Vec<L> = index.iter().map(|i| ev.eval(i)).collect();
                    let v = ev.eval(value);
                    offs.clear();
                    match (&ix[..], shape) {
                        // One index of per-lane values: a tight loop over them.
                        ([L::S(xs)], [dim]) => {
                            offs.extend(xs.iter().map(|&i| index_of(i, *dim).unwrap_or(usize::MAX)))
                        }
                        ([L::V(xs)], [dim]) => {
                            offs.extend(xs.iter().map(|&i| index_of(i, *dim).unwrap_or(usize::MAX)))
                        }
                        _ => offs.extend((0..n).map(|l| {
                            offset(shape, ix.iter().map(|x| x.at(l))).unwrap_or(usize::MAX)
                        })),
                    }
                    vals.clear();
                    vals.resize(n, 0.0);
                    write(&v, vals);
                    ev.recycle(v);
                    for x in ix {
                        ev.recycle(x);
                    }
                });
            for (offs, vals) in &parts[..w] {
                for (&o, &v) in offs.iter().zip(vals) {
                    if let Some(x) = out.get_mut(o) {
                        *x += v;
                    }
                }
            }
            first += w;
        }
    }
}
