//! Evaluation of a kernel body over a chunk of lanes at once (one lane per point of the
//! kernel's index space), so that the interpretation cost of each node is shared by the
//! whole chunk (docs/backend.md, "CPU executor").

use crate::plan::sx::{ops, Sx};
use std::rc::Rc;

/// A value over the lanes: the same for every lane, or one per lane.
#[derive(Clone, Debug)]
pub enum L {
    /// Uniform.
    U(f64),
    /// Per lane.
    V(Rc<Vec<f64>>),
}

impl L {
    /// The value at lane `i`.
    #[inline]
    pub fn at(&self, i: usize) -> f64 {
        match self {
            L::U(x) => *x,
            L::V(v) => v[i],
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

fn map1(a: &L, f: impl Fn(f64) -> f64) -> L {
    match a {
        L::U(x) => L::U(f(*x)),
        L::V(v) => L::V(Rc::new(v.iter().map(|&x| f(x)).collect())),
    }
}

fn map2(a: &L, b: &L, f: impl Fn(f64, f64) -> f64) -> L {
    match (a, b) {
        (L::U(x), L::U(y)) => L::U(f(*x, *y)),
        (L::V(x), L::U(y)) => L::V(Rc::new(x.iter().map(|&x| f(x, *y)).collect())),
        (L::U(x), L::V(y)) => L::V(Rc::new(y.iter().map(|&y| f(*x, y)).collect())),
        (L::V(x), L::V(y)) => L::V(Rc::new(
            x.iter().zip(y.iter()).map(|(&x, &y)| f(x, y)).collect(),
        )),
    }
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
                map1(&a, |x| ops::un(*op, x))
            }
            Sx::Bin(op, a, b) => {
                let a = self.eval(a);
                let b = self.eval(b);
                map2(&a, &b, |x, y| ops::bin(*op, x, y))
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
                    L::V(cv) => {
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
