//! Evaluation of a kernel body over a chunk of lanes at once (one lane per point of the
//! kernel's index space), so that the interpretation cost of each node is shared by the
//! whole chunk (docs/backend.md, "CPU executor").

use crate::plan::sx::{ops, Bin, Sx};
use std::rc::Rc;

/// A value over the lanes: the same for every lane, `start + lane` (the index lanes of a
/// one-dimensional space, so that a load `x[i]` copies a slice), or one per lane.
#[derive(Clone, Debug)]
pub enum L {
    /// Uniform.
    U(f64),
    /// `start + lane`.
    R(usize),
    /// Per lane.
    V(Rc<Vec<f64>>),
}

impl L {
    /// The value at lane `i`.
    #[inline]
    pub fn at(&self, i: usize) -> f64 {
        match self {
            L::U(x) => *x,
            L::R(s) => (s + i) as f64,
            L::V(v) => v[i],
        }
    }

    /// One value per lane, for `n` lanes (a uniform value repeated).
    fn lanes(&self, n: usize) -> Rc<Vec<f64>> {
        match self {
            L::U(x) => Rc::new(vec![*x; n]),
            L::R(s) => Rc::new((0..n).map(|i| (s + i) as f64).collect()),
            L::V(v) => v.clone(),
        }
    }
}

/// The evaluator of one chunk.
pub struct Ev<'a> {
    /// The buffers, by id (empty for those the kernel does not read).
    pub bufs: &'a [&'a [f64]],
    /// The kernel's variables.
    pub env: Vec<Option<L>>,
    /// Number of lanes.
    pub n: usize,
}

fn map1(a: &L, n: usize, f: impl Fn(f64) -> f64) -> L {
    match a {
        L::U(x) => L::U(f(*x)),
        a => L::V(Rc::new(a.lanes(n).iter().map(|&x| f(x)).collect())),
    }
}

#[inline(always)]
fn map2(a: &L, b: &L, n: usize, f: impl Fn(f64, f64) -> f64) -> L {
    match (a, b) {
        (L::U(x), L::U(y)) => L::U(f(*x, *y)),
        (a, L::U(y)) => L::V(Rc::new(a.lanes(n).iter().map(|&x| f(x, *y)).collect())),
        (L::U(x), b) => L::V(Rc::new(b.lanes(n).iter().map(|&y| f(*x, y)).collect())),
        (a, b) => {
            let (x, y) = (a.lanes(n), b.lanes(n));
            L::V(Rc::new(
                x.iter().zip(y.iter()).map(|(&x, &y)| f(x, y)).collect(),
            ))
        }
    }
}

/// `a op b` over the lanes, the common operators with their own loops (no dispatch per
/// lane, so the loops vectorise) and the others through [`ops::bin`].
fn bin_lanes(op: Bin, a: &L, b: &L, n: usize) -> L {
    match op {
        Bin::Add => map2(a, b, n, |x, y| x + y),
        Bin::Sub => map2(a, b, n, |x, y| x - y),
        Bin::Mul => map2(a, b, n, |x, y| x * y),
        op => map2(a, b, n, |x, y| ops::bin(op, x, y)),
    }
}

/// A load `buf[i]` of a one-dimensional buffer of `len` elements at the lanes `start + l`:
/// the in-bounds part copied as a slice, zeros outside.
fn load_range(buf: &[f64], len: usize, start: usize, n: usize) -> L {
    let mut out = vec![0.0; n];
    let end = (start + n).min(len).min(buf.len());
    if start < end {
        out[..end - start].copy_from_slice(&buf[start..end]);
    }
    L::V(Rc::new(out))
}

/// The flat offset of a multi-index in `shape`, or `None` when an index is outside its
/// dimension or not integral (the read gives 0).
#[inline]
pub fn offset(shape: &[usize], ix: impl Iterator<Item = f64>) -> Option<usize> {
    let mut flat = 0usize;
    for (i, &n) in ix.zip(shape) {
        if !(i >= 0.0 && i < n as f64) || i.fract() != 0.0 {
            return None;
        }
        flat = flat * n + i as usize;
    }
    Some(flat)
}

impl Ev<'_> {
    /// Binds a variable.
    pub fn set(&mut self, v: u32, x: L) {
        self.env[v as usize] = Some(x);
    }

    /// Evaluates `s` on every lane.
    pub fn eval(&mut self, s: &Sx) -> L {
        let n = self.n;
        match s {
            Sx::Const(c) => L::U(*c),
            Sx::Var(v) => self.env[*v as usize].clone().unwrap_or(L::U(f64::NAN)),
            Sx::Load(b, shape, ix) => {
                let ls: Vec<L> = ix.iter().map(|i| self.eval(i)).collect();
                let buf = self.bufs[*b];
                if let ([L::R(start)], [len]) = (&ls[..], &shape[..]) {
                    return load_range(buf, *len, *start, n);
                }
                let read = |lane: usize| {
                    offset(shape, ls.iter().map(|l| l.at(lane)))
                        .and_then(|o| buf.get(o).copied())
                        .unwrap_or(0.0)
                };
                if ls.iter().all(|l| matches!(l, L::U(_))) {
                    L::U(read(0))
                } else {
                    L::V(Rc::new((0..n).map(read).collect()))
                }
            }
            Sx::Un(op, a) => {
                let a = self.eval(a);
                map1(&a, n, |x| ops::un(*op, x))
            }
            Sx::Bin(op, a, b) => {
                let a = self.eval(a);
                let b = self.eval(b);
                bin_lanes(*op, &a, &b, n)
            }
            Sx::Select(c, a, b) => {
                let c = self.eval(c);
                match c {
                    L::U(c) => {
                        if c != 0.0 {
                            self.eval(a)
                        } else {
                            self.eval(b)
                        }
                    }
                    cv => {
                        let cv = cv.lanes(n);
                        let a = self.eval(a);
                        let b = self.eval(b);
                        L::V(Rc::new(
                            (0..n)
                                .map(|i| if cv[i] != 0.0 { a.at(i) } else { b.at(i) })
                                .collect(),
                        ))
                    }
                }
            }
            Sx::Let(v, a, b) => {
                let x = self.eval(a);
                let old = self.env[*v as usize].replace(x);
                let r = self.eval(b);
                self.env[*v as usize] = old;
                r
            }
            Sx::Fold {
                var,
                count,
                acc,
                init,
                body,
            } => {
                let mut a = self.eval(init);
                let old_v = self.env[*var as usize].take();
                let old_a = self.env[*acc as usize].take();
                for c in 0..*count {
                    self.env[*var as usize] = Some(L::U(c as f64));
                    self.env[*acc as usize] = Some(a);
                    a = self.eval(body);
                }
                self.env[*var as usize] = old_v;
                self.env[*acc as usize] = old_a;
                a
            }
        }
    }
}
