//! Running compiled kernels (docs/backend.md, "Compiled kernels"): each kernel's range of
//! work split into tasks on every core, by its estimated work (a kernel of little work
//! runs in one call on the calling thread), then for a chunked reduction the partial
//! folds combined in order after `init`.
//!
//! | kernel | tasks |
//! |---|---|
//! | `map` | ranges of output points |
//! | `reduce`, at least 4,096 reduced points and at most a sixteenth as many outputs, `+` or `*` | (output, 4,096 reduced points) pairs; per output `init` then the partials in order |
//! | `reduce`, otherwise | ranges of outputs |
//! | `scan` | ranges of inner elements |
//! | `scatter` | one call, the source points in order |
//!
//! The split never changes a result: points and outputs are computed independently, and
//! the partial folds cover fixed runs of 4,096 points whatever the number of threads.

use super::{Entry, Native};
use crate::plan::sx::Sx;
use crate::plan::{Kernel, KernelKind, RedOp};
use rayon::prelude::*;

/// Reduced points per partial fold.
pub const PART: usize = 4096;

/// Work (scalar operations) below which a kernel runs in one call.
const SERIAL_WORK: usize = 1 << 15;

/// The buffer pointers (by buffer id) and host loop counters (by counter id) of one
/// launch, made by the machine from its memory slots (crate-internal: the compiled
/// functions trust them). The compiled functions read the buffers within their shapes
/// and write only the output's range they are given.
pub(crate) struct Launch {
    /// `B`: each buffer's memory.
    pub b: Vec<*mut f64>,
    /// `C`: the counters.
    pub c: Vec<f64>,
    /// The output's buffer id.
    pub out: usize,
}

/// A launch shared by the tasks.
#[derive(Clone, Copy)]
struct Shared<'a>(&'a Launch);
// SAFETY: the tasks of one kernel read the buffers (no one writes them meanwhile) and
// write disjoint ranges of the output.
unsafe impl Send for Shared<'_> {}
// SAFETY: as above.
unsafe impl Sync for Shared<'_> {}

impl Shared<'_> {
    fn b(&self) -> *const *mut f64 {
        self.0.b.as_ptr()
    }
    fn c(&self) -> *const f64 {
        self.0.c.as_ptr()
    }
}

/// Scalar operations of one evaluation of `s` (a fold counts its body `count` times).
pub fn work(s: &Sx) -> usize {
    match s {
        Sx::Const(_) | Sx::Var(_) => 1,
        Sx::Load(_, _, ix) => 1 + ix.iter().map(work).sum::<usize>(),
        Sx::Un(_, a) => 1 + work(a),
        Sx::Bin(_, a, b) => 1 + work(a) + work(b),
        Sx::Select(c, a, b) => 1 + work(c) + work(a).max(work(b)),
        Sx::Let(_, a, b) => work(a) + work(b),
        Sx::Fold {
            count, init, body, ..
        } => work(init).saturating_add(count.saturating_mul(work(body))),
    }
}

/// Calls `f(lo, hi)` over `0..n` in tasks of at least enough items to make
/// [`SERIAL_WORK`] / 4 operations, about four tasks per thread; one call when all of it is
/// below [`SERIAL_WORK`].
fn ranges(n: usize, per: usize, f: impl Fn(i64, i64) + Sync) {
    if n == 0 {
        return;
    }
    let per = per.max(1);
    if n.saturating_mul(per) < SERIAL_WORK {
        return f(0, n as i64);
    }
    let threads = rayon::current_num_threads().max(1);
    let len = n
        .div_ceil(threads * 4)
        .max((SERIAL_WORK / 4).div_ceil(per))
        .max(1);
    (0..n.div_ceil(len)).into_par_iter().for_each(|t| {
        let lo = t * len;
        f(lo as i64, (lo + len).min(n) as i64)
    });
}

impl Native {
    /// Runs kernel `k` (output of `shape`, the machine's buffers `bufs`, its output `out`)
    /// on `launch` (its output pointer set here). A batched product runs by `dgemm`, its
    /// fallback and zeros by its compiled reduction (`gpu/src/cpu/matmul.rs`).
    pub(crate) fn kernel(
        &self,
        k: &Kernel,
        shape: &[usize],
        bufs: &[&[f64]],
        out: &mut [f64],
        mut launch: Launch,
    ) {
        if !matches!(k.kind, KernelKind::Batched { .. }) {
            launch.b[k.out] = out.as_mut_ptr();
            self.run(&k.name, &k.kind, shape, &launch);
            return;
        }
        let launch = std::cell::RefCell::new(launch);
        let exact = |out: &mut [f64], at: Option<&[usize]>| {
            let mut l = launch.borrow_mut();
            l.b[k.out] = out.as_mut_ptr();
            self.exact(&k.name, &k.kind, &l, out.len(), at);
        };
        super::super::matmul::batched_kernel(
            &k.kind,
            bufs,
            out,
            &mut |out| exact(out, None),
            &mut |out| {
                let at: Vec<usize> = (0..out.len()).filter(|&o| out[o] == 0.0).collect();
                exact(out, Some(&at));
            },
        );
    }

    /// Runs kernel `name` (of kind `kind`, output of `shape`) on `l`: whether it has
    /// compiled functions (else the lanes run it). A batched product goes through
    /// [`Native::kernel`].
    pub(crate) fn run(&self, name: &str, kind: &KernelKind, shape: &[usize], l: &Launch) -> bool {
        let Some(e) = self.entries.get(name) else {
            return false;
        };
        let s = Shared(l);
        let n: usize = shape.iter().product();
        match (*e, kind) {
            (Entry::Map(f), KernelKind::Map { body, .. }) => {
                // SAFETY: `f` computes the points `lo..hi` of the output (Launch).
                ranges(n, work(body), |lo, hi| unsafe { f(s.b(), s.c(), lo, hi) });
            }
            (Entry::Reduce { per, part }, KernelKind::Reduce { red, op, body, .. }) => {
                let m: usize = red.iter().product();
                match part {
                    Some((p, init)) if m >= PART && n * 16 <= m => chunked(s, n, m, *op, p, init),
                    _ => ranges(n, m.saturating_mul(work(body)), |lo, hi| {
                        // SAFETY: `per` computes the outputs `lo..hi` (Launch).
                        unsafe { per(s.b(), s.c(), lo, hi) }
                    }),
                }
            }
            (Entry::Scan(f), KernelKind::Scan { step, .. }) => {
                let m = shape.first().copied().unwrap_or(0);
                let inner: usize = shape.iter().skip(1).product();
                if m > 0 {
                    ranges(inner, m.saturating_mul(work(step)), |lo, hi| {
                        // SAFETY: `f` computes the inner elements `lo..hi` (Launch).
                        unsafe { f(s.b(), s.c(), lo, hi) }
                    });
                }
            }
            // SAFETY: one call, on this thread.
            (Entry::Scatter(f), KernelKind::Scatter { .. }) => unsafe { f(s.b(), s.c()) },
            _ => return false,
        }
        true
    }

    /// A batched product's reduction (`gpu/src/plan/batched.rs`) at the outputs `at`
    /// (all of them when `None`), into the launch's output.
    pub(crate) fn exact(
        &self,
        name: &str,
        kind: &KernelKind,
        l: &Launch,
        n: usize,
        at: Option<&[usize]>,
    ) -> bool {
        let (Some(Entry::Batched(f)), KernelKind::Batched { exact, .. }) =
            (self.entries.get(name), kind)
        else {
            return false;
        };
        let KernelKind::Reduce { red, body, .. } = &**exact else {
            return false;
        };
        let f = *f;
        let s = Shared(l);
        let per = red.iter().product::<usize>().saturating_mul(work(body));
        match at {
            // SAFETY: `f` computes the outputs `lo..hi` (Launch).
            None => ranges(n, per, |lo, hi| unsafe { f(s.b(), s.c(), lo, hi) }),
            Some(at) => ranges(at.len(), per, |lo, hi| {
                for &o in &at[lo as usize..hi as usize] {
                    // SAFETY: as above, output `o` alone.
                    unsafe { f(s.b(), s.c(), o as i64, o as i64 + 1) }
                }
            }),
        }
        true
    }
}

/// Few outputs over many reduced points: partial folds of [`PART`] points, each output's
/// combined in order after its `init`.
fn chunked(s: Shared<'_>, n: usize, m: usize, op: RedOp, part: super::PartFn, init: super::InitFn) {
    let per = m.div_ceil(PART);
    let parts: Vec<f64> = (0..n * per)
        .into_par_iter()
        .map(|t| {
            let (o, c) = (t / per, t % per);
            let mut r = 0.0;
            let (lo, hi) = (c * PART, ((c + 1) * PART).min(m));
            // SAFETY: `part` reads the buffers and writes `r`.
            unsafe { part(s.b(), s.c(), o as i64, lo as i64, hi as i64, &mut r) };
            r
        })
        .collect();
    let out = s.0.b[s.0.out];
    for (o, ps) in parts.chunks(per).enumerate() {
        // SAFETY: `init` reads the buffers.
        let mut a = unsafe { init(s.b(), s.c(), o as i64) };
        for &p in ps {
            a = match op {
                RedOp::Mul => a * p,
                _ => a + p,
            };
        }
        // SAFETY: the output holds `n` elements and `o < n`; no task writes it now.
        unsafe { *out.add(o) = a };
    }
}
