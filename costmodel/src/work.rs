//! The `work` and `span` models (seed 004's work–depth model of bulk operations).
//!
//! * `work`: every scalar any primitive computes or moves, plus every combining operation
//!   of a reduction; the sum over all evaluated nodes, so it bounds sequential time.
//! * `span`: the depth. Sequential composition adds (an operand is evaluated before its
//!   parent, one after another); a parallel construct contributes the largest span of its
//!   iterations plus its own combining depth; a reduction tree over `n` values has depth
//!   `⌈log2 n⌉` times its operator's span; a loop adds its iterations.
//!
//! Because sequential composition adds, the span of a sequential region is the sum of the
//! own depths of the nodes evaluated in it plus the contributions of the parallel
//! constructs nested in it; so a stack of open constructs (from `ParBegin` / `SeqBegin` /
//! `Iter` / `End`) with one running sum per open iteration suffices. See
//! `docs/cost-models.md` for the tables.

use crate::node::{self, clog2, mul};
use adora_core::ast::{Expr, ExprKind, Prim};
use adora_core::check::NodeTypes;
use adora_core::diag::{Diagnostic, Result};
use adora_semantics::eval::{Event, Observer};

/// The own `work` of one evaluation of `e` (sub-expressions are counted separately);
/// `writes` is the `Node` event's count of in-bounds written scalars.
pub fn node_work(types: &NodeTypes, e: &Expr, writes: usize) -> Result<u64> {
    use ExprKind as K;
    if node::writes_its_result(e) {
        return node::result_size(types, e);
    }
    Ok(match &e.kind {
        K::Prim(Prim::Sum, args) => match args.first() {
            Some(x) => node::result_size(types, x)?.saturating_sub(1),
            None => 0,
        },
        K::Prim(Prim::SumOuter, args) => match args.first() {
            Some(x) => {
                let (n, lane) = node::outer_and_lane(types, x)?;
                mul(n.saturating_sub(1), lane)
            }
            None => 0,
        },
        K::Reduce(op, _, xs) | K::Scan(op, _, xs) if !node::is_lambda(op) => {
            let (n, lane) = node::outer_and_lane(types, xs)?;
            mul(n.saturating_sub(1), lane)
        }
        K::Scatter(..) => node::result_size(types, e)?.saturating_add(writes as u64),
        K::ScatterInto { .. } => writes as u64,
        K::ReduceByIndex { op, .. } if !node::is_lambda(op) => writes as u64,
        _ => 0,
    })
}

/// The own depth of one evaluation of `e`: what it adds to the span of the region it is
/// evaluated in, beyond its operands and the iterations of its body.
pub fn node_span(types: &NodeTypes, e: &Expr, writes: usize) -> Result<u64> {
    use ExprKind as K;
    let nonempty = |x: u64| u64::from(x > 0);
    if node::writes_its_result(e) {
        return Ok(nonempty(node::result_size(types, e)?));
    }
    Ok(match &e.kind {
        K::Prim(Prim::Sum, args) => match args.first() {
            Some(x) => clog2(node::result_size(types, x)?),
            None => 0,
        },
        K::Prim(Prim::SumOuter, args) => match args.first() {
            Some(x) => {
                let (n, lane) = node::outer_and_lane(types, x)?;
                clog2(n) * nonempty(lane)
            }
            None => 0,
        },
        K::Reduce(op, _, xs) | K::Scan(op, _, xs) if !node::is_lambda(op) => {
            let (n, lane) = node::outer_and_lane(types, xs)?;
            clog2(n) * nonempty(lane)
        }
        K::Scatter(..) => nonempty(node::result_size(types, e)?),
        K::ScatterInto { .. } => nonempty(writes as u64),
        K::ReduceByIndex { dest, op, .. } if !node::is_lambda(op) => {
            // `writes` counts scalars; the combining tree is over the written slices.
            match node::dest_slice(types, dest)? {
                0 => 0,
                slice => clog2(writes as u64 / slice + 1),
            }
        }
        _ => 0,
    })
}

/// How the spans of a construct's iterations combine into its contribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Combine {
    /// Parallel iterations: the largest.
    Max,
    /// A combining tree of depth `k`: the sum of the `k` largest applications.
    Largest(u64),
    /// A histogram: the sum of the `⌈log2(a + 1)⌉` largest of its `a` applications.
    Histogram,
    /// Sequential iterations: the sum.
    Sum,
}

struct Frame {
    combine: Combine,
    /// Spans of the finished iterations that evaluated anything.
    iters: Vec<u64>,
    /// Span of the iteration in progress.
    cur: u64,
    /// Whether the iteration in progress has evaluated anything.
    active: bool,
}

impl Frame {
    fn new(combine: Combine) -> Frame {
        Frame {
            combine,
            iters: Vec::new(),
            cur: 0,
            active: false,
        }
    }
    fn close_iteration(&mut self) {
        if self.active {
            self.iters.push(self.cur);
        }
        self.cur = 0;
        self.active = false;
    }
    fn add(&mut self, span: u64) {
        self.cur = self.cur.saturating_add(span);
        self.active = true;
    }
    fn contribution(mut self) -> u64 {
        self.close_iteration();
        let largest = |mut v: Vec<u64>, k: u64| {
            v.sort_unstable_by(|a, b| b.cmp(a));
            v.iter()
                .take(usize::try_from(k).unwrap_or(usize::MAX))
                .fold(0u64, |s, &x| s.saturating_add(x))
        };
        match self.combine {
            Combine::Max => self.iters.iter().copied().max().unwrap_or(0),
            Combine::Sum => self.iters.iter().fold(0u64, |s, &x| s.saturating_add(x)),
            Combine::Largest(k) => largest(self.iters, k),
            Combine::Histogram => {
                let k = clog2(self.iters.len() as u64 + 1);
                largest(self.iters, k)
            }
        }
    }
}

/// How the iterations of the parallel construct `e` combine.
fn par_combine(types: &NodeTypes, e: &Expr) -> Result<Combine> {
    Ok(match &e.kind {
        ExprKind::Reduce(op, _, xs) | ExprKind::Scan(op, _, xs) if node::is_lambda(op) => {
            Combine::Largest(clog2(node::outer_and_lane(types, xs)?.0))
        }
        ExprKind::ReduceByIndex { op, .. } if node::is_lambda(op) => Combine::Histogram,
        _ => Combine::Max,
    })
}

/// Observer computing `work` and `span` together.
pub struct WorkSpanModel<'t> {
    types: &'t NodeTypes,
    work: u64,
    /// Open constructs; `frames[0]` is the whole evaluation (never popped).
    frames: Vec<Frame>,
    error: Option<Diagnostic>,
}

impl<'t> WorkSpanModel<'t> {
    /// A fresh model for the function `types` describes.
    pub fn new(types: &'t NodeTypes) -> WorkSpanModel<'t> {
        WorkSpanModel {
            types,
            work: 0,
            frames: vec![Frame::new(Combine::Sum)],
            error: None,
        }
    }

    /// `(work, span)`, or the first error met.
    pub fn finish(mut self) -> Result<(u64, u64)> {
        if let Some(d) = self.error {
            return Err(d);
        }
        while self.frames.len() > 1 {
            self.end();
        }
        let root = self.frames.pop().map(|f| f.cur).unwrap_or(0);
        Ok((self.work, root))
    }

    fn top(&mut self) -> &mut Frame {
        if self.frames.is_empty() {
            self.frames.push(Frame::new(Combine::Sum));
        }
        let k = self.frames.len() - 1;
        &mut self.frames[k]
    }

    fn end(&mut self) {
        if self.frames.len() > 1 {
            if let Some(f) = self.frames.pop() {
                let c = f.contribution();
                self.top().add(c);
            }
        }
    }

    fn node(&mut self, e: &Expr, writes: usize) -> Result<()> {
        let w = node_work(self.types, e, writes)?;
        let s = node_span(self.types, e, writes)?;
        self.work = self.work.saturating_add(w);
        self.top().add(s);
        Ok(())
    }

    fn fail(&mut self, d: Diagnostic) {
        self.error.get_or_insert(d);
    }
}

impl Observer for WorkSpanModel<'_> {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Node { expr, writes, .. } => {
                if let Err(d) = self.node(expr, writes) {
                    self.fail(d);
                }
            }
            Event::ParBegin { expr, .. } => match par_combine(self.types, expr) {
                Ok(c) => self.frames.push(Frame::new(c)),
                Err(d) => {
                    self.fail(d);
                    self.frames.push(Frame::new(Combine::Max));
                }
            },
            Event::SeqBegin { .. } => self.frames.push(Frame::new(Combine::Sum)),
            Event::Iter => {
                if self.frames.len() > 1 {
                    self.top().close_iteration();
                }
            }
            Event::End => self.end(),
            Event::Bind { .. } | Event::Unbind { .. } => {}
        }
    }
}
