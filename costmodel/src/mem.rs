//! The `mem` model: peak live scalars.
//!
//! Live scalars at a moment of the evaluation are
//!
//! * the program's inputs (live throughout);
//! * every value that has been computed and is still needed: operands waiting for their
//!   parent node, and bound values (a `let`'s right-hand side until the `let` ends, a
//!   loop's accumulator) — a binding holds the storage of the value it names, so the
//!   values on the evaluator's operand stack already account for all bindings;
//! * the result arrays of the open bulk constructs (`build`, `map`, `gather`, `scatter`,
//!   `reduce`, `scan`), allocated when the construct starts and filled by its iterations.
//!
//! A variable reference and a prefix index `x[i]` allocate nothing (they alias their
//! binding / array, as the evaluator's shared storage and Futhark's slices do); `let`,
//! loops and projections move values without copying; `scatter_into` and `reduce_by_index` update a
//! freshly computed destination in place (seed 004 §5.3) and copy a destination that is
//! still bound. A node's result and its operands coexist at the moment the node runs.
//! `mem` is the largest live count reached. See `docs/cost-models.md`.

use crate::node::size;
use adora_core::ast::{Expr, ExprKind, Function};
use adora_core::check::NodeTypes;
use adora_core::diag::{Diagnostic, Result};
use adora_core::types::Type;
use adora_semantics::eval::{Event, Observer};

/// Storage held by one computed value: scalars it owns (0 for an alias of a binding), per
/// tuple component.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Held {
    Leaf(u64),
    Tuple(Vec<Held>),
}

impl Held {
    /// A value of type `t` owning all its scalars.
    fn own(t: &Type) -> Held {
        match t {
            Type::Tuple(ts) => Held::Tuple(ts.iter().map(Held::own).collect()),
            t => Held::Leaf(size(t)),
        }
    }
    fn total(&self) -> u64 {
        match self {
            Held::Leaf(n) => *n,
            Held::Tuple(hs) => hs.iter().map(Held::total).sum(),
        }
    }
    /// Component `k` (of type `t`); the other components are released.
    fn proj(self, k: usize, t: &Type) -> Held {
        match self {
            Held::Tuple(mut hs) if k < hs.len() => hs.swap_remove(k),
            Held::Tuple(_) => Held::Leaf(0),
            Held::Leaf(n) => Held::Leaf(n.min(size(t))),
        }
    }
}

struct Frame {
    /// Operand-stack height when the construct started.
    base: usize,
    /// Scalars of the construct's result array, allocated while it runs.
    output: u64,
    /// For a loop: the accumulator's type (the body's result replaces the accumulator,
    /// which sits just below `base`).
    acc: Option<Type>,
    /// The construct (node address).
    expr: usize,
}

/// Observer computing the peak number of live scalars.
pub struct MemModel<'t> {
    types: &'t NodeTypes,
    stack: Vec<Held>,
    frames: Vec<Frame>,
    live: u64,
    peak: u64,
    error: Option<Diagnostic>,
}

impl<'t> MemModel<'t> {
    /// A fresh model for `f` (whose node types are `types`); the inputs are live from the
    /// start.
    pub fn new(types: &'t NodeTypes, f: &Function) -> MemModel<'t> {
        let inputs = f.params.iter().map(|p| size(&p.ty)).sum();
        MemModel {
            types,
            stack: Vec::new(),
            frames: Vec::new(),
            live: inputs,
            peak: inputs,
            error: None,
        }
    }

    /// The peak, or the first error met.
    pub fn finish(self) -> Result<u64> {
        match self.error {
            Some(d) => Err(d),
            None => Ok(self.peak),
        }
    }

    fn base(&self) -> usize {
        self.frames.last().map(|f| f.base).unwrap_or(0)
    }

    fn touch(&mut self, transient: u64) {
        self.peak = self.peak.max(self.live.saturating_add(transient));
    }

    fn push(&mut self, h: Held) {
        self.live = self.live.saturating_add(h.total());
        self.stack.push(h);
        self.touch(0);
    }

    /// Pops the `k` operands of the current node (never below the open construct's base),
    /// in evaluation order.
    fn pop(&mut self, k: usize) -> Vec<Held> {
        let keep = self
            .stack
            .len()
            .saturating_sub(k)
            .max(self.base())
            .min(self.stack.len());
        let popped = self.stack.split_off(keep);
        let freed: u64 = popped.iter().map(Held::total).sum();
        self.live = self.live.saturating_sub(freed);
        popped
    }

    fn node(&mut self, e: &Expr) -> Result<()> {
        use ExprKind as K;
        let t = self.types.of(e)?.clone();
        let full = size(&t);
        match &e.kind {
            K::Var(_) => self.push(Held::Leaf(0)),
            K::Index(_, is) => {
                // a prefix index is a view of its array: it allocates nothing
                self.pop(1 + is.len());
                self.push(Held::Leaf(0));
            }
            K::Tuple(es) => {
                let parts = self.pop(es.len());
                self.push(Held::Tuple(parts));
            }
            K::Proj(_, k) => {
                let h = self.pop(1).pop().unwrap_or(Held::Leaf(0));
                self.push(h.proj(*k, &t));
            }
            K::If(..) => {
                let branch = self.pop(2).pop().unwrap_or(Held::Leaf(0));
                self.push(branch);
            }
            K::Let(..) | K::Loop { .. } => {
                let k = if matches!(e.kind, K::Let(..)) { 2 } else { 1 };
                self.pop(k);
                self.push(Held::own(&t));
            }
            K::ScatterInto { .. } | K::ReduceByIndex { .. } => {
                let k = if matches!(e.kind, K::ScatterInto { .. }) {
                    3
                } else {
                    4
                };
                let start = self.stack.len().saturating_sub(k).max(self.base());
                let in_place = self.stack.get(start).is_some_and(|d| d.total() >= full);
                if !in_place {
                    self.touch(full);
                }
                self.pop(k);
                self.push(Held::own(&t));
            }
            _ => {
                self.touch(full);
                self.pop(operands(e));
                self.push(Held::own(&t));
            }
        }
        Ok(())
    }

    fn begin(&mut self, e: &Expr, seq: bool) -> Result<()> {
        let nested = self.frames.iter().any(|f| f.expr == NodeTypes::key(e));
        let output = match &e.kind {
            ExprKind::Build(..)
            | ExprKind::Map(..)
            | ExprKind::Gather(..)
            | ExprKind::Scatter(..)
            | ExprKind::Reduce(..)
            | ExprKind::Scan(..)
                if !nested =>
            {
                size(self.types.of(e)?)
            }
            _ => 0,
        };
        let acc = if seq {
            Some(self.types.of(e)?.clone())
        } else {
            None
        };
        self.frames.push(Frame {
            base: self.stack.len(),
            output,
            acc,
            expr: NodeTypes::key(e),
        });
        self.live = self.live.saturating_add(output);
        self.touch(0);
        Ok(())
    }

    /// Ends the iteration in progress of the innermost construct: its temporaries die; a
    /// loop body's result becomes the new accumulator.
    fn end_iteration(&mut self) {
        let Some(f) = self.frames.last() else { return };
        let base = f.base;
        let acc = f.acc.clone();
        if self.stack.len() <= base {
            return;
        }
        self.pop(self.stack.len() - base);
        if let (Some(t), true) = (acc, base > 0) {
            let old = std::mem::replace(&mut self.stack[base - 1], Held::own(&t));
            self.live = self
                .live
                .saturating_sub(old.total())
                .saturating_add(size(&t));
            self.touch(0);
        }
    }

    fn end(&mut self) {
        self.end_iteration();
        if let Some(f) = self.frames.pop() {
            self.live = self.live.saturating_sub(f.output);
        }
    }

    fn fail(&mut self, d: Diagnostic) {
        self.error.get_or_insert(d);
    }
}

/// Number of operands of `e` the evaluator evaluates, in the current scope, before `e`'s
/// own `Node` event (lambda bodies, binders' bodies and index maps run inside iterations).
fn operands(e: &Expr) -> usize {
    use ExprKind as K;
    match &e.kind {
        K::Var(_) | K::Lit(_) | K::Build(..) => 0,
        K::Array(es) | K::Tuple(es) | K::Call(_, es) | K::Prim(_, es) => es.len(),
        K::Proj(..) | K::Unary(..) | K::Gather(..) | K::Scatter(..) | K::Loop { .. } => 1,
        K::Let(..) | K::If(..) | K::Binary(..) | K::Reduce(..) | K::Scan(..) => 2,
        K::Index(_, is) => 1 + is.len(),
        K::Map(_, xs) => xs.len(),
        K::ScatterInto { .. } => 3,
        K::ReduceByIndex { .. } => 4,
    }
}

impl Observer for MemModel<'_> {
    fn event(&mut self, event: Event<'_>) {
        let r = match event {
            Event::Node { expr, .. } => self.node(expr),
            Event::ParBegin { expr, .. } => self.begin(expr, false),
            Event::SeqBegin { expr, .. } => self.begin(expr, true),
            Event::Iter => {
                self.end_iteration();
                Ok(())
            }
            Event::End => {
                self.end();
                Ok(())
            }
            Event::Bind { .. } | Event::Unbind { .. } => Ok(()),
        };
        if let Err(d) = r {
            self.fail(d);
        }
    }
}
