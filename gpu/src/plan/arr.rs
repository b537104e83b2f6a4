//! Delayed arrays: what lowering holds for an array-valued expression before it is
//! materialised into a buffer — a buffer, or a template `params ↦ body` that computes any
//! element (docs/backend.md, "Fusion").

use super::sx::{Bin, BufId, Sx, VarId};
use adora_core::types::Base;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// The supply of variables, with the range of index variables (an index variable of a
/// space of extent `n` lies in `0..n`, so indexing with it needs no bounds guard).
#[derive(Default)]
pub(crate) struct Ids {
    next: VarId,
    /// Extents of index variables.
    pub range: HashMap<VarId, usize>,
    /// Host loop counters.
    pub counters: HashSet<VarId>,
}

impl Ids {
    /// A fresh variable.
    pub fn fresh(&mut self) -> VarId {
        self.next += 1;
        self.next
    }
    /// A fresh index variable ranging over `0..n`.
    pub fn index(&mut self, n: usize) -> VarId {
        let v = self.fresh();
        self.range.insert(v, n);
        v
    }
    /// Fresh index variables for `shape`.
    pub fn indices(&mut self, shape: &[usize]) -> Vec<VarId> {
        shape.iter().map(|&n| self.index(n)).collect()
    }
    /// Whether `i` is certainly in `0..n`.
    fn in_range(&self, i: &Sx, n: usize) -> bool {
        match i {
            Sx::Var(v) => self.range.get(v).is_some_and(|&r| r <= n),
            Sx::Const(c) => *c >= 0.0 && *c < n as f64 && c.fract() == 0.0,
            _ => false,
        }
    }
}

/// The most scalar nodes of a delayed array that is recomputed at each of several uses
/// rather than materialised ([`Arr::is_cheap`]). A replicated or transposed load is one
/// node plus its indices; engine `linear`'s gradient programs keep such broadcasts on their
/// tapes, and storing them costs a write and a read per element of a space much larger
/// than the arrays they read.
pub const RECOMPUTE_NODES: usize = 12;

/// Where an array's elements come from.
#[derive(Clone, Debug)]
pub(crate) enum Src {
    /// A whole buffer.
    Buf(BufId),
    /// `params ↦ body`, valid for parameters inside the shape.
    Fn {
        /// One parameter per dimension.
        params: Vec<VarId>,
        /// The element.
        body: Rc<Sx>,
    },
}

/// A delayed array of a base type and shape.
#[derive(Clone, Debug)]
pub(crate) struct Arr {
    /// Element type.
    pub base: Base,
    /// Shape.
    pub shape: Vec<usize>,
    /// Elements.
    pub src: Src,
}

/// A lowered value: an array or a tuple.
#[derive(Clone, Debug)]
pub(crate) enum HVal {
    /// An array (a scalar is rank 0).
    Arr(Arr),
    /// A tuple.
    Tup(Vec<HVal>),
}

impl HVal {
    /// The array, for a value the checker typed as one.
    pub fn arr(self) -> Arr {
        match self {
            HVal::Arr(a) => a,
            HVal::Tup(_) => panic!("a tuple where the checked program has an array"),
        }
    }
}

fn guard(ids: &Ids, idx: &[Sx], shape: &[usize], body: Sx) -> Sx {
    let mut cond: Option<Sx> = None;
    for (i, &n) in idx.iter().zip(shape) {
        if ids.in_range(i, n) {
            continue;
        }
        let c = Sx::bin(
            Bin::And,
            Sx::bin(Bin::Ge, i.clone(), Sx::Const(0.0)),
            Sx::bin(Bin::Lt, i.clone(), Sx::Const(n as f64)),
        );
        cond = Some(match cond {
            None => c,
            Some(d) => Sx::bin(Bin::And, d, c),
        });
    }
    match cond {
        None => body,
        Some(c) => Sx::select(c, body, Sx::Const(0.0)),
    }
}

impl Arr {
    /// A scalar array.
    pub fn scalar(base: Base, sx: Sx) -> Arr {
        Arr {
            base,
            shape: Vec::new(),
            src: Src::Fn {
                params: Vec::new(),
                body: Rc::new(sx),
            },
        }
    }

    /// An array whose element at `vars` is `f(vars)`.
    pub fn from_fn(
        ids: &mut Ids,
        base: Base,
        shape: Vec<usize>,
        f: impl FnOnce(&mut Ids, &[Sx]) -> Sx,
    ) -> Arr {
        let params = ids.indices(&shape);
        let vars: Vec<Sx> = params.iter().map(|&v| Sx::Var(v)).collect();
        let body = f(ids, &vars);
        Arr {
            base,
            shape,
            src: Src::Fn {
                params,
                body: Rc::new(body),
            },
        }
    }

    /// The element at a full multi-index; an index outside its dimension reads 0.
    pub fn at(&self, ids: &Ids, idx: &[Sx]) -> Sx {
        debug_assert_eq!(idx.len(), self.shape.len());
        match &self.src {
            Src::Buf(b) => Sx::Load(*b, self.shape.clone(), idx.to_vec()),
            Src::Fn { .. } => guard(ids, idx, &self.shape, self.at_inside(idx)),
        }
    }

    /// The element at a full multi-index known to lie inside the shape (no guard).
    pub fn at_inside(&self, idx: &[Sx]) -> Sx {
        match &self.src {
            Src::Buf(b) => Sx::Load(*b, self.shape.clone(), idx.to_vec()),
            Src::Fn { params, body } => {
                let mut out = (**body).clone();
                let mut lets = Vec::new();
                for (p, i) in params.iter().zip(idx) {
                    match i {
                        Sx::Var(_) | Sx::Const(_) => out = out.subst(*p, i),
                        // An index the element does not read (a broadcast dimension) is
                        // not computed.
                        _ if !out.mentions(*p) => {}
                        _ => lets.push((*p, i.clone())),
                    }
                }
                for (p, i) in lets.into_iter().rev() {
                    out = Sx::Let(p, Box::new(i), Box::new(out));
                }
                out
            }
        }
    }

    /// The sub-array at an index prefix.
    pub fn index(&self, ids: &mut Ids, idx: &[Sx]) -> Arr {
        let rest = self.shape[idx.len()..].to_vec();
        let this = self.clone();
        let idx = idx.to_vec();
        Arr::from_fn(ids, self.base, rest, move |ids, vars| {
            let full: Vec<Sx> = idx.iter().cloned().chain(vars.iter().cloned()).collect();
            this.at(ids, &full)
        })
    }

    /// The scalar element of a rank-0 array.
    pub fn get(&self, ids: &Ids) -> Sx {
        self.at(ids, &[])
    }

    /// The template's body when it contains a fold (not cheap to recompute).
    pub fn is_costly(&self) -> bool {
        match &self.src {
            Src::Buf(_) => false,
            Src::Fn { body, .. } => body.has_fold(),
        }
    }

    /// Whether recomputing an element at each use costs no more than storing the array
    /// and reading it back: a buffer, or a template of at most [`RECOMPUTE_NODES`] nodes
    /// without a fold or a transcendental operation — a broadcast, transpose, gather or
    /// short elementwise chain of loads (docs/backend.md, "Fusion").
    pub fn is_cheap(&self) -> bool {
        match &self.src {
            Src::Buf(_) => true,
            Src::Fn { body, .. } => {
                !body.has_fold() && !body.has_transcendental() && body.size() <= RECOMPUTE_NODES
            }
        }
    }
}
