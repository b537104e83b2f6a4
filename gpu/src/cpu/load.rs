//! Loads `b[i, j, …]` over the lanes of a chunk (docs/backend.md, "CPU executor"; an
//! index outside its dimension or not integral reads 0, docs/language.md, "Semantic
//! conventions").
//!
//! | indices | result |
//! |---|---|
//! | exactly the kernel's index variables, `b` of the kernel's shape | the slice at the chunk's points, borrowed |
//! | all uniform | one uniform value (0 when out of bounds) |
//! | uniform but one `R(s)` of stride 1, wholly in bounds | the slice, borrowed |
//! | uniform but one `R(s)`, otherwise | the in-bounds lanes gathered, zeros outside |
//! | uniform but one per-lane index | gathered (no bounds check per lane for an index variable whose dimension fits) |
//! | uniform but index variables whose dimensions fit | gathered at their joint offsets, made once per chunk |
//! | any other | per lane: the offset from the non-uniform indices, 0 when out of bounds |

use super::lanes::{index, Ev, L};
use crate::plan::sx::{BufId, Sx, VarId};
use std::rc::Rc;

impl<'a> Ev<'a> {
    /// The load `b[ix]` of a buffer of `shape`.
    pub(super) fn load(&mut self, b: BufId, shape: &[usize], ix: &[Sx]) -> L<'a> {
        let buf: &'a [f64] = self.bufs[b];
        let n = self.n;
        if let Some(f) = self.flat {
            let own = f.shape == shape
                && ix.len() == f.vars.len()
                && ix.iter().zip(f.vars).all(|(i, v)| *i == Sx::Var(*v));
            if own && f.start + n <= buf.len() {
                return L::S(&buf[f.start..f.start + n]);
            }
        }
        let ls: Vec<L<'a>> = ix.iter().map(|i| self.eval(i)).collect();
        // Row-major strides; the uniform indices folded into `base`.
        let mut stride = 1usize;
        let mut base = 0usize;
        let mut lanes: Vec<(usize, usize, usize)> = Vec::new(); // (index, stride, dimension)
        for (k, (l, &dim)) in ls.iter().zip(shape).enumerate().rev() {
            match l {
                L::U(i) => match index(*i, dim) {
                    Some(i) => base += i * stride,
                    None => return self.zero(ls),
                },
                _ => lanes.push((k, stride, dim)),
            }
            stride *= dim;
        }
        let r = match &lanes[..] {
            [] => L::U(buf.get(base).copied().unwrap_or(0.0)),
            &[(k, st, dim)] => match ls[k] {
                L::R(s) => self.range(buf, base, s, st, dim),
                _ => {
                    let mut out = self.fresh();
                    let xs = ls[k].slice().unwrap_or(&[]);
                    if let (true, Sx::Var(v)) = (self.in_bounds(&ix[k], dim), &ix[k]) {
                        // An index variable's lanes: integers below `dim`, their offsets
                        // computed once per chunk.
                        let offs = self.offsets(*v, st, xs);
                        out.extend(
                            offs.iter()
                                .map(|&o| buf.get(base + o).copied().unwrap_or(0.0)),
                        );
                    } else {
                        out.extend(xs.iter().map(|&i| match index(i, dim) {
                            Some(i) => buf.get(base + i * st).copied().unwrap_or(0.0),
                            None => 0.0,
                        }));
                    }
                    L::V(Rc::new(out))
                }
            },
            _ if lanes.iter().all(|&(k, _, dim)| self.in_bounds(&ix[k], dim)) => {
                // Index variables only: their joint offsets, made once per chunk.
                let key: Vec<(VarId, usize, usize)> = lanes
                    .iter()
                    .filter_map(|&(k, st, _)| match ix[k] {
                        Sx::Var(v) => Some((v, st, k)),
                        _ => None,
                    })
                    .collect();
                let offs = self.joint_offsets(&key, &ls);
                let mut out = self.fresh();
                out.extend(
                    offs.iter()
                        .map(|&o| buf.get(base + o).copied().unwrap_or(0.0)),
                );
                L::V(Rc::new(out))
            }
            _ => {
                let mut out = self.fresh();
                out.extend((0..n).map(|l| {
                    let mut o = base;
                    for &(k, st, dim) in &lanes {
                        match index(ls[k].at(l), dim) {
                            Some(i) => o += i * st,
                            None => return 0.0,
                        }
                    }
                    buf.get(o).copied().unwrap_or(0.0)
                }));
                L::V(Rc::new(out))
            }
        };
        for l in ls {
            self.recycle(l);
        }
        r
    }

    /// Whether `i` is one of the chunk's index variables (still bound to its index lanes)
    /// whose dimension is at most `dim`, so that every lane is an integer below `dim`.
    fn in_bounds(&self, i: &Sx, dim: usize) -> bool {
        match (i, self.flat) {
            (Sx::Var(v), Some(f)) => f
                .vars
                .iter()
                .position(|w| w == v)
                .is_some_and(|p| f.shape[p] <= dim),
            _ => false,
        }
    }

    /// The offsets `i * stride` of the lanes `xs` of index variable `v`, made once per
    /// chunk and stride.
    fn offsets(&mut self, v: u32, stride: usize, xs: &[f64]) -> Rc<Vec<usize>> {
        if let Some((_, _, o)) = self.offs.iter().find(|(w, s, _)| *w == v && *s == stride) {
            return o.clone();
        }
        let o = Rc::new(xs.iter().map(|&i| i as usize * stride).collect::<Vec<_>>());
        self.offs.push((v, stride, o.clone()));
        o
    }

    /// The offsets `Σ i_v * stride_v` over the lanes of index variables (`key`: variable,
    /// stride, position of its lanes in `ls`), made once per chunk and key.
    fn joint_offsets(&mut self, key: &[(VarId, usize, usize)], ls: &[L<'a>]) -> Rc<Vec<usize>> {
        let id: Vec<(VarId, usize)> = key.iter().map(|&(v, st, _)| (v, st)).collect();
        if let Some((_, o)) = self.joint.iter().find(|(k, _)| *k == id) {
            return o.clone();
        }
        let mut o = vec![0usize; self.n];
        for &(_, st, k) in key {
            let x = &ls[k];
            match x.slice() {
                Some(xs) => o
                    .iter_mut()
                    .zip(xs)
                    .for_each(|(o, &i)| *o += i as usize * st),
                None => o
                    .iter_mut()
                    .enumerate()
                    .for_each(|(l, o)| *o += x.at(l) as usize * st),
            }
        }
        let o = Rc::new(o);
        self.joint.push((id, o.clone()));
        o
    }

    /// A load whose uniform index is out of bounds: 0 on every lane.
    fn zero(&mut self, ls: Vec<L<'a>>) -> L<'a> {
        for l in ls {
            self.recycle(l);
        }
        L::U(0.0)
    }

    /// `buf[base + (s + lane) * st]` where `s + lane` indexes a dimension of `dim`.
    fn range(&mut self, buf: &'a [f64], base: usize, s: usize, st: usize, dim: usize) -> L<'a> {
        let n = self.n;
        let lo = base + s * st;
        if st == 1 && s + n <= dim && lo + n <= buf.len() {
            return L::S(&buf[lo..lo + n]);
        }
        let mut out = self.fresh();
        let inside = dim.saturating_sub(s).min(n);
        out.extend((0..inside).map(|l| buf.get(lo + l * st).copied().unwrap_or(0.0)));
        out.resize(n, 0.0);
        L::V(Rc::new(out))
    }
}
