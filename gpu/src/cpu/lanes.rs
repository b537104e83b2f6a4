//! Evaluation of a kernel body over a chunk of lanes at once (one lane per point of the
//! kernel's index space), so that the interpretation cost of each node is shared by the
//! whole chunk (docs/backend.md, "CPU executor").
//!
//! | lane value | holds | made by |
//! |---|---|---|
//! | `U(x)` | the same `x` on every lane | constants, fold counters, host loop counters |
//! | `R(s)` | `s + lane` | one-dimensional index lanes, `R(s) ± U(c)` for integral `c` |
//! | `S(slice)` | a slice of a buffer, borrowed | in-bounds loads at `R(s)` or at the chunk's own points (`load.rs`) |
//! | `V(vec)` | one value per lane | everything else |
//!
//! A vector whose only owner is the node being computed is overwritten in place
//! (`arith.rs`), and vectors no longer referenced return to a per-thread pool, so a chunk
//! allocates little.

use crate::plan::sx::{Sx, VarId};
use std::cell::RefCell;
use std::rc::Rc;

/// A value over the lanes of a chunk.
#[derive(Clone, Debug)]
pub enum L<'a> {
    /// Uniform.
    U(f64),
    /// `start + lane`.
    R(usize),
    /// Per lane, borrowed from a buffer.
    S(&'a [f64]),
    /// Per lane.
    V(Rc<Vec<f64>>),
}

impl L<'_> {
    /// The value at lane `i`.
    #[inline]
    pub fn at(&self, i: usize) -> f64 {
        match self {
            L::U(x) => *x,
            L::R(s) => (s + i) as f64,
            L::S(v) => v[i],
            L::V(v) => v[i],
        }
    }

    /// The lanes `start..start + len`.
    pub fn part(&self, start: usize, len: usize) -> L<'_> {
        match self {
            L::U(x) => L::U(*x),
            L::R(s) => L::R(s + start),
            L::S(v) => L::S(&v[start..start + len]),
            L::V(v) => L::S(&v[start..start + len]),
        }
    }

    /// The per-lane values of `S` and `V`.
    #[inline]
    pub fn slice(&self) -> Option<&[f64]> {
        match self {
            L::S(v) => Some(v),
            L::V(v) => Some(v),
            _ => None,
        }
    }
}

/// Where the chunk's lanes lie in the kernel's index space: the points
/// `start..start + n` (row-major) of `shape`, the index variables `vars` (docs/backend.md,
/// "CPU executor": a load at exactly these indices of a buffer of this shape is a slice).
#[derive(Clone, Copy, Debug)]
pub struct Flat<'a> {
    /// The index variables, one per dimension.
    pub vars: &'a [VarId],
    /// The index space.
    pub shape: &'a [usize],
    /// The first point of the chunk.
    pub start: usize,
}

thread_local! {
    /// Lane vectors of finished chunks, reused by the next chunk on this thread.
    static POOL: RefCell<Vec<Vec<f64>>> = const { RefCell::new(Vec::new()) };
}

/// Cached joint offsets of index variables ([`Ev::joint`]).
pub(super) type Joint = Vec<(Vec<(VarId, usize)>, Rc<Vec<usize>>)>;

/// Most vectors a pool keeps.
const POOL_MAX: usize = 32;

/// The evaluator of one chunk.
pub struct Ev<'a> {
    /// The buffers, by id (empty for those the kernel does not read).
    pub bufs: &'a [&'a [f64]],
    /// The kernel's variables.
    pub env: Vec<Option<L<'a>>>,
    /// Number of lanes.
    pub n: usize,
    /// The chunk's points, when its index lanes are not materialised yet or may be read
    /// as slices.
    pub(super) flat: Option<Flat<'a>>,
    /// Whether the index columns of `flat` are in `env`.
    cols: bool,
    /// Offsets `i * stride` of index variables' lanes: (variable, stride, offsets).
    pub(super) offs: Vec<(VarId, usize, Rc<Vec<usize>>)>,
    /// Joint offsets `Σ i_v * stride_v` of several index variables: ((variable,
    /// stride)…, offsets).
    pub(super) joint: Joint,
    pool: Vec<Vec<f64>>,
}

impl Drop for Ev<'_> {
    fn drop(&mut self) {
        let pool = std::mem::take(&mut self.pool);
        POOL.with(|p| {
            let mut p = p.borrow_mut();
            if p.len() < pool.len() {
                *p = pool;
            }
        });
    }
}

/// The flat offset of a multi-index in `shape`, or `None` when an index is outside its
/// dimension or not integral (the read gives 0).
#[inline]
pub fn offset(shape: &[usize], ix: impl Iterator<Item = f64>) -> Option<usize> {
    let mut flat = 0usize;
    for (i, &n) in ix.zip(shape) {
        flat = flat * n + index(i, n)?;
    }
    Some(flat)
}

/// `i` as an index into a dimension of `n`, or `None` when outside it or not integral.
#[inline(always)]
pub fn index(i: f64, n: usize) -> Option<usize> {
    if i >= 0.0 && i < n as f64 {
        let u = i as usize;
        (u as f64 == i).then_some(u)
    } else {
        None
    }
}

/// Whether `s` reads variable `v`.
fn mentions(s: &Sx, v: VarId) -> bool {
    let mut found = false;
    s.visit(&mut |x| found |= *x == Sx::Var(v));
    found
}

impl<'a> Ev<'a> {
    /// An evaluator of `n` lanes over `bufs` with `nvars` unbound variables.
    pub fn new(bufs: &'a [&'a [f64]], nvars: usize, n: usize) -> Self {
        let pool = POOL.with(|p| std::mem::take(&mut *p.borrow_mut()));
        Ev {
            bufs,
            env: vec![None; nvars],
            n,
            flat: None,
            cols: true,
            offs: Vec::new(),
            joint: Vec::new(),
            pool,
        }
    }

    /// Binds a variable.
    pub fn set(&mut self, v: u32, x: L<'a>) {
        self.env[v as usize] = Some(x);
    }

    /// Binds the index variables `vars` (of `shape`) to the flat points
    /// `start..start + n`. One dimension gives `R(start)`; several are materialised as
    /// columns only when a variable is read other than by a load at the chunk's points.
    pub fn index(&mut self, vars: &'a [VarId], shape: &'a [usize], start: usize) {
        self.offs.clear();
        self.joint.clear();
        if let ([v], [_]) = (vars, shape) {
            self.set(*v, L::R(start));
            self.flat = Some(Flat { vars, shape, start });
            return;
        }
        for v in vars {
            self.env[*v as usize] = None;
        }
        self.flat = Some(Flat { vars, shape, start });
        self.cols = vars.is_empty();
    }

    /// Computes the index columns of `flat`, a run of the innermost dimension at a time
    /// (no division per lane).
    fn columns(&mut self) {
        let Some(f) = self.flat else { return };
        self.cols = true;
        let (n, d) = (self.n, f.shape.len());
        if d == 0 {
            return;
        }
        let mut ix = vec![0usize; d];
        let mut flat = f.start;
        for k in (0..d).rev() {
            ix[k] = flat % f.shape[k].max(1);
            flat /= f.shape[k].max(1);
        }
        let mut cols: Vec<Vec<f64>> = (0..d).map(|_| self.fresh()).collect();
        let inner = f.shape[d - 1].max(1);
        let mut done = 0;
        while done < n {
            let run = (inner - ix[d - 1]).min(n - done);
            let j = ix[d - 1];
            cols[d - 1].extend((j..j + run).map(|i| i as f64));
            for k in 0..d - 1 {
                let x = ix[k] as f64;
                cols[k].extend(std::iter::repeat_n(x, run));
            }
            done += run;
            ix[d - 1] += run;
            for k in (1..d).rev() {
                if ix[k] < f.shape[k] {
                    break;
                }
                ix[k] = 0;
                ix[k - 1] += 1;
            }
        }
        for (v, c) in f.vars.iter().zip(cols) {
            self.env[*v as usize] = Some(L::V(Rc::new(c)));
        }
    }

    /// An empty vector for `n` lane values, from the pool when one is there.
    pub(super) fn fresh(&mut self) -> Vec<f64> {
        match self.pool.pop() {
            Some(mut v) => {
                v.clear();
                v
            }
            None => Vec::with_capacity(self.n),
        }
    }

    /// Returns a value's vector to the pool when nothing else refers to it.
    pub(super) fn recycle(&mut self, x: L<'a>) {
        if let L::V(v) = x {
            if let Ok(v) = Rc::try_unwrap(v) {
                if self.pool.len() < POOL_MAX {
                    self.pool.push(v);
                }
            }
        }
    }

    /// Binds `v` for the evaluation of `body` and restores what it was.
    fn with(&mut self, v: VarId, x: L<'a>, body: &Sx) -> L<'a> {
        self.unflat(v);
        let old = self.env[v as usize].replace(x);
        let r = self.eval(body);
        let x = std::mem::replace(&mut self.env[v as usize], old);
        if let Some(x) = x {
            self.recycle(x);
        }
        r
    }

    /// Before a binder of `v`: when `v` is an index variable, its columns are made and
    /// loads no longer read the chunk's points as slices (binders are unique per kernel,
    /// so this does not happen in plans; it keeps the evaluator right regardless).
    fn unflat(&mut self, v: VarId) {
        if self.flat.is_some_and(|f| f.vars.contains(&v)) {
            if !self.cols {
                self.columns();
            }
            self.flat = None;
        }
    }

    /// Evaluates `s` on every lane.
    pub fn eval(&mut self, s: &Sx) -> L<'a> {
        match s {
            Sx::Const(c) => L::U(*c),
            Sx::Var(v) => {
                if !self.cols && self.env[*v as usize].is_none() {
                    self.columns();
                }
                self.env[*v as usize].clone().unwrap_or(L::U(f64::NAN))
            }
            Sx::Load(b, shape, ix) => self.load(*b, shape, ix),
            Sx::Un(op, a) => {
                let a = self.eval(a);
                self.un(*op, a)
            }
            Sx::Bin(op, a, b) => {
                let a = self.eval(a);
                let b = self.eval(b);
                self.bin(*op, a, b)
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
                        let a = self.eval(a);
                        let b = self.eval(b);
                        let mut out = self.fresh();
                        out.extend((0..self.n).map(|i| {
                            if cv.at(i) != 0.0 {
                                a.at(i)
                            } else {
                                b.at(i)
                            }
                        }));
                        self.recycle(cv);
                        self.recycle(a);
                        self.recycle(b);
                        L::V(Rc::new(out))
                    }
                }
            }
            Sx::Let(v, a, b) => {
                let x = self.eval(a);
                self.with(*v, x, b)
            }
            Sx::Fold {
                var,
                count,
                acc,
                init,
                body,
            } => {
                self.unflat(*var);
                self.unflat(*acc);
                let mut a = self.eval(init);
                let old_v = self.env[*var as usize].take();
                if let Sx::Bin(op, l, r) = &**body {
                    if **l == Sx::Var(*acc) && !mentions(r, *acc) {
                        // `acc op e` with `e` free of `acc`: the accumulator is owned by
                        // the loop alone and updated in place.
                        for c in 0..*count {
                            self.env[*var as usize] = Some(L::U(c as f64));
                            let x = self.eval(r);
                            a = self.bin(*op, a, x);
                        }
                        self.env[*var as usize] = old_v;
                        return a;
                    }
                }
                let old_a = self.env[*acc as usize].take();
                for c in 0..*count {
                    self.env[*var as usize] = Some(L::U(c as f64));
                    if let Some(prev) = self.env[*acc as usize].replace(a) {
                        self.recycle(prev);
                    }
                    a = self.eval(body);
                }
                if let Some(prev) = std::mem::replace(&mut self.env[*acc as usize], old_a) {
                    self.recycle(prev);
                }
                self.env[*var as usize] = old_v;
                a
            }
        }
    }
}
