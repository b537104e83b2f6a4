//! The lowering's state (docs/engines/tssa-lowering.md, "How lowering works"): the types
//! of the core nodes, what each core name stands for, the ranges of the index variables
//! made so far, fresh names, and the frames of pending `let`s.
//!
//! Lowering is *fused*: an array-valued core expression is lowered element by element
//! ("at" a list of in-bounds indices) and materialised with `gen` only where a value is
//! bound by a `let` or returned. Core binders are unique (elaboration), so a `let` may be
//! floated to the innermost enclosing index binder: every `let` the lowering makes (core
//! `let`s, the bound operands of data predicates, extension E1) is pushed onto the
//! current frame, and the frame is wrapped around the body of that binder (or around the
//! whole term).

use super::mk;
use adora_core::ast::{Expr, Function};
use adora_core::check::NodeTypes;
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::tl::{Index, Pred, Term, Var};
use adora_core::types::{Base, Type};
use adora_core::visit::NameSupply;
use std::collections::{BTreeSet, HashMap};

/// What a core name stands for during the lowering.
#[derive(Clone, Debug)]
pub enum Bound<'a> {
    /// A value whose scalars are all real: a TL term (a variable or a projection path).
    Term(Term),
    /// A scalar integer with a known index expression (an index binder, a `Z` `let`).
    Index(Index),
    /// A scalar boolean with a known predicate.
    Pred(Pred),
    /// An integer input (extension E3: integer data).
    IntData(Var),
    /// A boolean input (a relation variable).
    RelData(Var),
    /// An integer or boolean array bound by a `let`: re-lowered at each use (binders are
    /// unique, so its free names mean the same there).
    Deferred(&'a Expr),
    /// A tuple with integer or boolean components, kept apart component by component.
    Tuple(Vec<Bound<'a>>),
}

/// The lowering context of one function.
pub struct Cx<'a> {
    types: NodeTypes,
    env: HashMap<String, Bound<'a>>,
    ranges: HashMap<String, u64>,
    names: NameSupply,
    frames: Vec<Vec<(Var, Term)>>,
    /// The construct-table rows that fired (coverage).
    pub rows: BTreeSet<&'static str>,
}

impl<'a> Cx<'a> {
    /// A context for `f`: its node types, and every name it uses avoided by fresh names.
    pub fn new(f: &'a Function) -> Result<Cx<'a>> {
        let types = adora_core::check::node_types(f)?;
        let mut names = NameSupply::new();
        for n in adora_core::visit::all_names(&f.body) {
            names.avoid(&n);
        }
        for p in &f.params {
            names.reserve(&p.name);
        }
        Ok(Cx {
            types,
            env: HashMap::new(),
            ranges: HashMap::new(),
            names,
            frames: vec![Vec::new()],
            rows: BTreeSet::new(),
        })
    }

    /// The static type of the core node `e`.
    pub fn ty(&self, e: &Expr) -> Result<Type> {
        self.types.get(e).cloned().ok_or_else(|| {
            Diagnostic::new(
                ErrorKind::Internal,
                e.span,
                "tssa lowering: a node of the function has no type",
            )
        })
    }

    /// The shape of the array-typed node `e` (an error for tuples).
    pub fn shape(&self, e: &Expr) -> Result<Vec<u64>> {
        match self.ty(e)? {
            Type::Array(_, s) => Ok(s.iter().map(|&d| d as u64).collect()),
            Type::Tuple(_) => Err(internal(e, "an array was expected, found a tuple")),
        }
    }

    /// The base type of the array-typed node `e`.
    pub fn base(&self, e: &Expr) -> Result<Base> {
        self.ty(e)?
            .base()
            .ok_or_else(|| internal(e, "an array was expected, found a tuple"))
    }

    /// Records that a construct-table row fired.
    pub fn row(&mut self, name: &'static str) {
        self.rows.insert(name);
    }

    /// What `name` stands for.
    pub fn lookup(&self, e: &Expr, name: &str) -> Result<Bound<'a>> {
        self.env
            .get(name)
            .cloned()
            .ok_or_else(|| internal(e, &format!("tssa lowering: `{name}` is unbound")))
    }

    /// Binds `name`, returning what it stood for before (for [`Cx::restore`]).
    pub fn bind(&mut self, name: &str, b: Bound<'a>) -> Option<Bound<'a>> {
        self.env.insert(name.to_string(), b)
    }

    /// Restores `name` to what [`Cx::bind`] returned.
    pub fn restore(&mut self, name: &str, old: Option<Bound<'a>>) {
        match old {
            Some(b) => {
                self.env.insert(name.to_string(), b);
            }
            None => {
                self.env.remove(name);
            }
        }
    }

    /// A TL name for the core binder `name` (itself the first time, fresh afterwards).
    pub fn claim(&mut self, name: &str) -> String {
        self.names.claim(name)
    }

    /// A fresh TL name built on `base`.
    pub fn fresh(&mut self, base: &str) -> String {
        self.names.fresh(base)
    }

    /// A fresh index variable of range `n`.
    pub fn fresh_index(&mut self, base: &str, n: u64) -> String {
        let v = self.names.fresh(base);
        self.ranges.insert(v.clone(), n);
        v
    }

    /// Pushes `let v = t` onto the current frame.
    pub fn push_let(&mut self, v: Var, t: Term) {
        self.frames.last_mut().expect("a frame").push((v, t));
    }

    /// Runs `body` in a new frame and wraps the frame's `let`s around its result.
    pub fn framed(&mut self, body: impl FnOnce(&mut Self) -> Result<Term>) -> Result<Term> {
        self.frames.push(Vec::new());
        let r = body(self);
        let lets = self.frames.pop().expect("the frame pushed above");
        let t = r?;
        Ok(lets
            .into_iter()
            .rev()
            .fold(t, |b, (v, e)| Term::Let(v, Box::new(e), Box::new(b))))
    }

    /// `gen I. body(I)` over `dims` (fresh binders), the body framed.
    pub fn gen(
        &mut self,
        dims: &[u64],
        body: impl FnOnce(&mut Self, &[Index]) -> Result<Term>,
    ) -> Result<Term> {
        self.binders(dims, body, Term::Gen)
    }

    /// `sum K. body(K)` over `dims` (fresh binders), the body framed.
    pub fn sum(
        &mut self,
        dims: &[u64],
        body: impl FnOnce(&mut Self, &[Index]) -> Result<Term>,
    ) -> Result<Term> {
        self.binders(dims, body, Term::Sum)
    }

    fn binders(
        &mut self,
        dims: &[u64],
        body: impl FnOnce(&mut Self, &[Index]) -> Result<Term>,
        node: fn(String, u64, Box<Term>) -> Term,
    ) -> Result<Term> {
        let vars: Vec<String> = dims.iter().map(|&n| self.fresh_index("i", n)).collect();
        let idx: Vec<Index> = vars.iter().map(|v| mk::ivar(v)).collect();
        let t = self.framed(|cx| body(cx, &idx))?;
        Ok(vars
            .into_iter()
            .zip(dims)
            .rev()
            .fold(t, |b, (v, &n)| node(v, n, Box::new(b))))
    }

    /// Whether `a` is certainly within `0..n` (an affine form over index variables of
    /// known ranges); an index variable of range 0 is never evaluated.
    pub fn surely_in(&self, a: &Index, n: u64) -> bool {
        let Index::Aff(a) = a else { return false };
        let (mut lo, mut hi) = (a.constant as i128, a.constant as i128);
        for (v, &c) in &a.terms {
            let Some(&r) = self.ranges.get(v) else {
                return false;
            };
            if r == 0 {
                return true;
            }
            let top = c as i128 * (r as i128 - 1);
            lo += top.min(0);
            hi += top.max(0);
        }
        lo >= 0 && hi < n as i128
    }

    /// The bounds guard of `idx` in `shape`: `true` where every index is surely in range.
    pub fn guard(&self, idx: &[Index], shape: &[u64]) -> Pred {
        idx.iter()
            .zip(shape)
            .filter(|(a, &n)| !self.surely_in(a, n))
            .fold(Pred::True, |p, (a, &n)| mk::and(p, mk::in_range(a, n)))
    }
}

/// An internal error at `e`.
pub fn internal(e: &Expr, msg: &str) -> Diagnostic {
    Diagnostic::new(ErrorKind::Internal, e.span, format!("tssa lowering: {msg}"))
}

/// The error for a construct outside the engine's fragment, naming it, at its span.
pub fn unsupported(e: &Expr, what: &str) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Unsupported,
        e.span,
        format!("engine `tssa` does not support {what} (docs/engines/tssa-lowering.md)"),
    )
}
