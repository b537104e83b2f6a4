//! The reverse pass: transposition of a Delta term, generic over what a cotangent is
//! (seed 000 §2.6 Fig. 5, §6.4 Fig. 17; §7.3 Fig. 19 for the symbolic instance; horde-ad
//! `DeltaEval.hs` `evalRev` + `evalRevFromnMap`, notes §2.1).
//!
//! The state is the paper's `ES`: a sparse gradient (`grad`, one accumulator per input
//! leaf), and for every `Share` id met but not yet processed its Delta fragment (`dfrag`)
//! and its accumulated cotangent (`accum`). [`Reverse::run`] evaluates the roots'
//! fragments, then repeatedly takes the **largest** pending id and evaluates its fragment
//! with the summed cotangent: by invariant 1 (children have smaller ids) every
//! contribution to a node has arrived before the node is processed, so every node is
//! visited once ("sharing in the primal becomes addition in the dual").
//!
//! One transposition rule per constructor (`eval(c, d)`; see [`super::delta`]):
//!
//! | `d` | `eval(c, d)` | paper |
//! |---|---|---|
//! | `Zero` | nothing | Fig. 5 |
//! | `Input(i)` | `grad[i] += c` | Fig. 5 |
//! | `Share(n, d)` | `accum[n] += c`; `dfrag[n] = d` | Fig. 5 |
//! | `Add(d, e)` | `c' = dup c`; `eval(c', d)`; `eval(c', e)` | Fig. 5 / Fig. 19 (share) |
//! | `Neg d` | `eval(-c, d)` | Fig. 5 (Scale by -1) |
//! | `Scale(k, d)` | `eval(k ⊙ c, d)` | Fig. 17 |
//! | `DivBy(k, d)` | `eval(c ⊘ k, d)` | Fig. 17 (Scale by 1/k) |
//! | `Select(b, d, e)` | `c' = dup c`; `eval(select(b, c', 0), d)`; `eval(select(b, 0, c'), e)` | §6.3 (cond) |
//! | `Index(d, ix)` | `eval(oneHot(shape d, ix, c), d)` | Fig. 17 |
//! | `Gather(d, f)` | `eval(scatter(shape d, c, f), d)` | Fig. 17 |
//! | `Scatter(d, f)` | `eval(gather(shape d, c, f), d)` | Fig. 17 |
//! | `Sum d` | `eval(replicate(shape d, c), d)` | Fig. 17 |
//! | `SumOuter d` | `eval(replicate(n, c), d)` | Fig. 17 |
//! | `Replicate(n, d)` | `eval(sum_outer c, d)` | Fig. 17 |
//! | `Transpose(p, d)` | `eval(transpose(p⁻¹, c), d)` | Fig. 17 |
//! | `Reshape d` | `eval(reshape(shape d, c), d)` | Fig. 17 |
//! | `Append(d, e)` | `c' = dup c`; `eval(c'[0..n], d)`; `eval(c'[n..], e)` | Fig. 17 |
//! | `Stack(ds)` | `c' = dup c`; `eval(c'[k], d_k)` for each `k` | Fig. 17 (LitArray) |
//!
//! `dup` is where a cotangent is used twice: the identity on concrete arrays, a `share`
//! node in the symbolic pass (the optimistic approach (2) of §7.3).

use super::delta::{inverse_perm, Delta, Kind, Rep};
use std::collections::BTreeMap;

/// What the reverse pass needs of cotangents: the core-language operations of the
/// transposed Delta constructors (Fig. 17; in the symbolic instance, AST builders).
pub trait Target<R: Rep> {
    /// A cotangent (a concrete array, or a term).
    type Ct: Clone;
    /// A cotangent about to be used twice (`share` in the symbolic pass).
    fn dup(&mut self, c: Self::Ct) -> Self::Ct;
    /// `a + b`.
    fn add(&mut self, a: Self::Ct, b: Self::Ct) -> Self::Ct;
    /// `-c`.
    fn neg(&mut self, c: Self::Ct) -> Self::Ct;
    /// `k ⊙ c`.
    fn scale(&mut self, k: &R::Factor, c: Self::Ct) -> Self::Ct;
    /// `c ⊘ k` (total division).
    fn div_by(&mut self, k: &R::Factor, c: Self::Ct) -> Self::Ct;
    /// `select(b, c, 0)` (`then_branch`) or `select(b, 0, c)`, `c` of `shape`.
    fn select(&mut self, b: &R::Cond, c: Self::Ct, then_branch: bool, shape: &[usize]) -> Self::Ct;
    /// `oneHot(shape, ix, c)`.
    fn one_hot(&mut self, shape: &[usize], ix: &R::Ix, c: Self::Ct) -> Self::Ct;
    /// The transpose of `gather`: `scatter(src_shape, c, f)`.
    fn scatter(&mut self, src_shape: &[usize], map: &R::Map, c: Self::Ct) -> Self::Ct;
    /// The transpose of `scatter` into `out_shape` from `src_shape`: `gather(c, f)` of
    /// shape `src_shape`.
    fn gather(
        &mut self,
        src_shape: &[usize],
        out_shape: &[usize],
        map: &R::Map,
        c: Self::Ct,
    ) -> Self::Ct;
    /// `replicate(n, c)`.
    fn replicate(&mut self, n: usize, c: Self::Ct) -> Self::Ct;
    /// A scalar `c` replicated to `shape`.
    fn replicate_all(&mut self, shape: &[usize], c: Self::Ct) -> Self::Ct;
    /// `sum_outer(c)` (`c` of `shape`).
    fn sum_outer(&mut self, c: Self::Ct, shape: &[usize]) -> Self::Ct;
    /// `transpose(perm, c)`.
    fn transpose(&mut self, perm: &[usize], c: Self::Ct) -> Self::Ct;
    /// `reshape(shape, c)`.
    fn reshape(&mut self, shape: &[usize], c: Self::Ct) -> Self::Ct;
    /// The `len` outer slices of `c` (of `shape`) from `start`.
    fn slice(&mut self, c: Self::Ct, start: usize, len: usize, shape: &[usize]) -> Self::Ct;
    /// `c[k]` (`c` of `shape`).
    fn index_outer(&mut self, c: Self::Ct, k: usize, shape: &[usize]) -> Self::Ct;
}

/// `dup c` when `c` is about to be used more than once.
fn dup_if<R: Rep, T: Target<R>>(target: &mut T, c: T::Ct, uses: usize) -> T::Ct {
    if uses > 1 {
        target.dup(c)
    } else {
        c
    }
}

/// The reverse pass's state (`ES` of Fig. 5): gradient accumulators per input leaf,
/// pending `Share` fragments with their accumulated cotangents, and counters.
pub struct Reverse<R: Rep, T: Target<R>> {
    grads: Vec<Option<T::Ct>>,
    pending: BTreeMap<u64, (T::Ct, Delta<R>)>,
    /// One-hot arrays created (one per `Index` node transposed).
    pub one_hots: usize,
    /// `Share` fragments processed.
    pub shares_processed: usize,
    /// Read-only figures for the properties of seed 000 §2.5–§2.6 (docs/engines/dual.md,
    /// §8): they record what the pass did and never change what it computes.
    pub trace: Trace,
}

/// What one reverse pass did, recorded for the properties `dual/eval-visits-node-once`,
/// `dual/eval-decreasing-ids` and `dual/one-hot-quadratic-without-bot` (seed 000 §2.5,
/// §2.6, §4.4). Recording is a few counters and one id per `Share` fragment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// Evaluations of a node other than `Zero`, `Input` and a `Share` reference (each
    /// such node of the DAG should be evaluated once, §2.6).
    pub node_visits: usize,
    /// The `Share` ids in the order their fragments were processed (strictly
    /// decreasing by §2.6).
    pub processed: Vec<u64>,
    /// Contributions to a `Share` id not smaller than the id whose fragment is being
    /// processed: a contribution to an id processed already, or one that will be
    /// processed out of order (0 by invariant 1: a node's cotangent is complete before
    /// it is processed).
    pub late_contributions: usize,
    /// Scalars of the one-hot arrays created (the volume of each transposed `Index`
    /// node's operand; §4.4's one-hot cost).
    pub one_hot_scalars: usize,
}

impl<R: Rep, T: Target<R>> Reverse<R, T> {
    /// An empty state for `inputs` input leaves.
    pub fn new(inputs: usize) -> Reverse<R, T> {
        Reverse {
            grads: (0..inputs).map(|_| None).collect(),
            pending: BTreeMap::new(),
            one_hots: 0,
            shares_processed: 0,
            trace: Trace::default(),
        }
    }

    /// Backpropagates each root's cotangent (Fig. 5's `evalRev` followed by
    /// `evalRevFromnMap`) and returns the gradient accumulators (`None`: no contribution,
    /// a zero gradient).
    pub fn run(
        mut self,
        target: &mut T,
        roots: Vec<(Delta<R>, T::Ct)>,
    ) -> (Vec<Option<T::Ct>>, Reverse<R, T>) {
        for (d, c) in roots {
            self.eval(target, c, &d);
        }
        while let Some((id, (c, d))) = self.pending.pop_last() {
            self.shares_processed += 1;
            self.trace.processed.push(id);
            self.eval(target, c, &d);
        }
        let grads = std::mem::take(&mut self.grads);
        (grads, self)
    }

    fn accumulate(target: &mut T, slot: &mut Option<T::Ct>, c: T::Ct) {
        *slot = Some(match slot.take() {
            Some(old) => target.add(old, c),
            None => c,
        });
    }

    /// `evalRev c d` (stops at `Share` nodes, deferring them).
    fn eval(&mut self, target: &mut T, c: T::Ct, d: &Delta<R>) {
        if !matches!(d.kind(), Kind::Zero | Kind::Input(_) | Kind::Share(..)) {
            self.trace.node_visits += 1;
        }
        match d.kind() {
            Kind::Zero => {}
            Kind::Input(i) => {
                if let Some(slot) = self.grads.get_mut(*i) {
                    Self::accumulate(target, slot, c);
                }
            }
            Kind::Share(id, body) => match self.pending.remove(id) {
                None if self.trace.processed.last().is_some_and(|&last| *id >= last) => {
                    self.trace.late_contributions += 1;
                    self.pending.insert(*id, (c, body.clone()));
                }
                Some((old, frag)) => {
                    let sum = target.add(old, c);
                    self.pending.insert(*id, (sum, frag));
                }
                None => {
                    self.pending.insert(*id, (c, body.clone()));
                }
            },
            Kind::Add(a, b) => {
                let c = target.dup(c);
                self.eval(target, c.clone(), a);
                self.eval(target, c, b);
            }
            Kind::Neg(a) => {
                let c = target.neg(c);
                self.eval(target, c, a);
            }
            Kind::Scale(k, a) => {
                let c = target.scale(k, c);
                self.eval(target, c, a);
            }
            Kind::DivBy(k, a) => {
                let c = target.div_by(k, c);
                self.eval(target, c, a);
            }
            Kind::Select(b, x, y) => {
                let c = dup_if(target, c, [x, y].iter().filter(|a| !a.is_zero()).count());
                if !x.is_zero() {
                    let cx = target.select(b, c.clone(), true, d.shape());
                    self.eval(target, cx, x);
                }
                if !y.is_zero() {
                    let cy = target.select(b, c, false, d.shape());
                    self.eval(target, cy, y);
                }
            }
            Kind::Index(a, ix) => {
                self.one_hots += 1;
                self.trace.one_hot_scalars += a.shape().iter().product::<usize>();
                let c = target.one_hot(a.shape(), ix, c);
                self.eval(target, c, a);
            }
            Kind::Gather(a, f) => {
                let c = target.scatter(a.shape(), f, c);
                self.eval(target, c, a);
            }
            Kind::Scatter(a, f) => {
                let c = target.gather(a.shape(), d.shape(), f, c);
                self.eval(target, c, a);
            }
            Kind::Sum(a) => {
                let c = target.replicate_all(a.shape(), c);
                self.eval(target, c, a);
            }
            Kind::SumOuter(a) => {
                let n = a.shape().first().copied().unwrap_or(0);
                let c = target.replicate(n, c);
                self.eval(target, c, a);
            }
            Kind::Replicate(_, a) => {
                let c = target.sum_outer(c, d.shape());
                self.eval(target, c, a);
            }
            Kind::Transpose(p, a) => {
                let c = target.transpose(&inverse_perm(p), c);
                self.eval(target, c, a);
            }
            Kind::Reshape(a) => {
                let c = target.reshape(a.shape(), c);
                self.eval(target, c, a);
            }
            Kind::Append(a, b) => {
                let n = a.shape().first().copied().unwrap_or(0);
                let m = b.shape().first().copied().unwrap_or(0);
                let c = dup_if(target, c, [a, b].iter().filter(|a| !a.is_zero()).count());
                if !a.is_zero() {
                    let ca = target.slice(c.clone(), 0, n, d.shape());
                    self.eval(target, ca, a);
                }
                if !b.is_zero() {
                    let cb = target.slice(c, n, m, d.shape());
                    self.eval(target, cb, b);
                }
            }
            Kind::Stack(ds) => {
                let c = dup_if(target, c, ds.iter().filter(|a| !a.is_zero()).count());
                for (k, a) in ds.iter().enumerate() {
                    if !a.is_zero() {
                        let ck = target.index_outer(c.clone(), k, d.shape());
                        self.eval(target, ck, a);
                    }
                }
            }
        }
    }
}
