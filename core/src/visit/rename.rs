//! Binder surgery: a deterministic name supply, scoped maps, generic node rebuilding, and
//! renaming of binders to unique names (the engine of [`rename_unique`] and of inlining).
//! The one capture-avoiding substitution is the lowering kit's (`adora_rewrites::kit::
//! subst`, docs/architecture.md, "Lowering kit"), built on [`rebuild`] and [`ScopedMap`].

use super::{all_names, free_vars};
use crate::ast::{Expr, ExprKind, Lambda, Name, Op, Pat};
use std::collections::{HashMap, HashSet};

/// `base` of a name of the form `base_k` (`k` decimal digits, `base` non-empty);
/// otherwise the name itself. Fresh names are formed from it, so duplicates of `x_1`
/// become `x_2`, not `x_1_1`.
pub fn base_name(name: &str) -> &str {
    if let Some(i) = name.rfind('_') {
        let (b, digits) = (&name[..i], &name[i + 1..]);
        if !b.is_empty() && !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()) {
            return b;
        }
    }
    name
}

/// A deterministic supply of names for binders.
///
/// It tracks two sets: *claimed* names (taken by a parameter, a free variable or a
/// binder already named) and *avoided* names (every claimed name, plus names that
/// [`avoid`](Self::avoid) declares, typically every name occurring in the function).
/// [`claim`](Self::claim) keeps a name that is not claimed yet; otherwise, and in
/// [`fresh`](Self::fresh), it hands out `base_k` with the smallest `k >= 1` whose name is
/// not avoided. So a generated name never clashes with a name the program uses anywhere,
/// and a program's own names survive whenever they are unique.
#[derive(Clone, Debug, Default)]
pub struct NameSupply {
    claimed: HashSet<Name>,
    avoided: HashSet<Name>,
    next: HashMap<Name, usize>,
}

impl NameSupply {
    /// An empty supply.
    pub fn new() -> NameSupply {
        NameSupply::default()
    }
    /// Fresh names will never be `name` (it may still be claimed as itself).
    pub fn avoid(&mut self, name: &str) {
        if !self.avoided.contains(name) {
            self.avoided.insert(name.to_string());
        }
    }
    /// Claims `name` as itself (a parameter, a free variable); returns whether it was
    /// unclaimed.
    pub fn reserve(&mut self, name: &str) -> bool {
        self.avoid(name);
        self.claimed.insert(name.to_string())
    }
    /// Whether `name` is claimed.
    pub fn is_claimed(&self, name: &str) -> bool {
        self.claimed.contains(name)
    }
    /// `name` itself if it is not claimed yet, else a [`fresh`](Self::fresh) name; either
    /// way the result is claimed.
    pub fn claim(&mut self, name: &str) -> Name {
        if self.reserve(name) {
            name.to_string()
        } else {
            self.fresh(name)
        }
    }
    /// `base_k` for the [`base_name`] of `name` and the smallest `k >= 1` such that the
    /// name is not avoided; the result is claimed.
    pub fn fresh(&mut self, name: &str) -> Name {
        let base = base_name(name).to_string();
        let k = self.next.entry(base.clone()).or_insert(1);
        loop {
            let cand = format!("{base}_{k}");
            *k += 1;
            if self.avoided.insert(cand.clone()) {
                self.claimed.insert(cand.clone());
                return cand;
            }
        }
    }
}

/// A map from names to values with shadowing: [`push`](Self::push) hides an earlier
/// entry of the same name until the matching [`pop`](Self::pop). Lookups are O(1).
#[derive(Clone, Debug)]
pub struct ScopedMap<V> {
    map: HashMap<Name, Vec<V>>,
}

impl<V> Default for ScopedMap<V> {
    fn default() -> Self {
        ScopedMap {
            map: HashMap::new(),
        }
    }
}

impl<V> ScopedMap<V> {
    /// An empty map.
    pub fn new() -> Self {
        ScopedMap::default()
    }
    /// Binds `name` to `v`, shadowing any earlier binding.
    pub fn push(&mut self, name: &str, v: V) {
        match self.map.get_mut(name) {
            Some(stack) => stack.push(v),
            None => {
                self.map.insert(name.to_string(), vec![v]);
            }
        }
    }
    /// Removes the innermost binding of `name` and returns it.
    pub fn pop(&mut self, name: &str) -> Option<V> {
        let stack = self.map.get_mut(name)?;
        let v = stack.pop();
        if stack.is_empty() {
            self.map.remove(name);
        }
        v
    }
    /// The innermost binding of `name`.
    pub fn get(&self, name: &str) -> Option<&V> {
        self.map.get(name).and_then(|s| s.last())
    }
}

/// The callbacks of [`rebuild`]: how to rename the binders of one node and how to rebuild
/// each of its children.
pub trait Rebuild {
    /// The new name of binder `name` of the node being rebuilt. Called once per binder,
    /// before [`child`](Self::child) is called for any child in its scope.
    fn binder(&mut self, name: &Name) -> Name;
    /// The rebuilt version of child `e`; `bound` lists the `(old, new)` names that the
    /// node binds over this child (empty outside its binders).
    fn child(&mut self, e: &Expr, bound: &[(Name, Name)]) -> Expr;
}

fn rebuild_lambda<R: Rebuild + ?Sized>(l: &Lambda, r: &mut R) -> Lambda {
    let bound: Vec<(Name, Name)> = l.params.iter().map(|p| (p.clone(), r.binder(p))).collect();
    let body = Box::new(r.child(&l.body, &bound));
    Lambda {
        params: bound.into_iter().map(|(_, n)| n).collect(),
        body,
    }
}

fn rebuild_op<R: Rebuild + ?Sized>(op: &Op, r: &mut R) -> Op {
    match op {
        Op::Lambda(l) => Op::Lambda(rebuild_lambda(l, r)),
        other => other.clone(),
    }
}

fn rebuild_pat<R: Rebuild + ?Sized>(p: &Pat, r: &mut R) -> (Pat, Vec<(Name, Name)>) {
    match p {
        Pat::Var(n) => {
            let m = r.binder(n);
            (Pat::Var(m.clone()), vec![(n.clone(), m)])
        }
        Pat::Tuple(ns) => {
            let bound: Vec<(Name, Name)> = ns.iter().map(|n| (n.clone(), r.binder(n))).collect();
            (
                Pat::Tuple(bound.iter().map(|b| b.1.clone()).collect()),
                bound,
            )
        }
    }
}

/// Rebuilds the node `e` (same kind, same static data, same span) with binders renamed by
/// `r.binder` and every child replaced by `r.child`. Leaves (`Var`, `Lit`) are cloned;
/// callers usually handle `Var` themselves before calling this.
pub fn rebuild<R: Rebuild + ?Sized>(e: &Expr, r: &mut R) -> Expr {
    use ExprKind::*;
    let ch = |r: &mut R, c: &Expr| Box::new(r.child(c, &[]));
    let list =
        |r: &mut R, es: &[Expr]| -> Vec<Expr> { es.iter().map(|c| r.child(c, &[])).collect() };
    let kind = match &e.kind {
        Var(_) | Lit(_) => e.kind.clone(),
        Array(es) => Array(list(r, es)),
        Tuple(es) => Tuple(list(r, es)),
        Call(f, es) => Call(f.clone(), list(r, es)),
        Prim(p, es) => Prim(p.clone(), list(r, es)),
        Proj(x, k) => Proj(ch(r, x), *k),
        Unary(op, x) => Unary(*op, ch(r, x)),
        Let(p, v, b) => {
            let (p2, bound) = rebuild_pat(p, r);
            let v2 = ch(r, v);
            Let(p2, v2, Box::new(r.child(b, &bound)))
        }
        If(c, a, b) => If(ch(r, c), ch(r, a), ch(r, b)),
        Binary(op, a, b) => Binary(*op, ch(r, a), ch(r, b)),
        Index(x, ix) => Index(ch(r, x), list(r, ix)),
        Build(sh, bs, body) => {
            let bound: Vec<(Name, Name)> = bs.iter().map(|b| (b.clone(), r.binder(b))).collect();
            let body2 = Box::new(r.child(body, &bound));
            Build(sh.clone(), bound.into_iter().map(|b| b.1).collect(), body2)
        }
        Gather(sh, x, bs, ix) | Scatter(sh, x, bs, ix) => {
            let bound: Vec<(Name, Name)> = bs.iter().map(|b| (b.clone(), r.binder(b))).collect();
            let x2 = ch(r, x);
            let ix2: Vec<Expr> = ix.iter().map(|c| r.child(c, &bound)).collect();
            let bs2 = bound.into_iter().map(|b| b.1).collect();
            if matches!(e.kind, Gather(..)) {
                Gather(sh.clone(), x2, bs2, ix2)
            } else {
                Scatter(sh.clone(), x2, bs2, ix2)
            }
        }
        Map(l, xs) => {
            let l2 = rebuild_lambda(l, r);
            Map(l2, list(r, xs))
        }
        Reduce(op, ne, xs) => {
            let op2 = rebuild_op(op, r);
            Reduce(op2, ch(r, ne), ch(r, xs))
        }
        Scan(op, ne, xs) => {
            let op2 = rebuild_op(op, r);
            Scan(op2, ch(r, ne), ch(r, xs))
        }
        ReduceByIndex {
            dest,
            op,
            ne,
            is,
            vs,
        } => {
            let dest = ch(r, dest);
            let op = rebuild_op(op, r);
            ReduceByIndex {
                dest,
                op,
                ne: ch(r, ne),
                is: ch(r, is),
                vs: ch(r, vs),
            }
        }
        ScatterInto { dest, is, vs } => ScatterInto {
            dest: ch(r, dest),
            is: ch(r, is),
            vs: ch(r, vs),
        },
        Loop {
            acc,
            init,
            var,
            count,
            body,
        } => {
            let (acc2, mut bound) = rebuild_pat(acc, r);
            let var2 = r.binder(var);
            bound.push((var.clone(), var2.clone()));
            let init2 = ch(r, init);
            let body2 = Box::new(r.child(body, &bound));
            Loop {
                acc: acc2,
                init: init2,
                var: var2,
                count: *count,
                body: body2,
            }
        }
    };
    Expr::new(kind, e.span)
}

/// What [`Uniquifier::rename`] does with a `Call` node (inlining expands it).
pub trait ExpandCall {
    /// Returns the renamed replacement of the `Call` node `call` (renaming its parts
    /// through `u`).
    fn expand_call(&mut self, u: &mut Uniquifier, call: &Expr) -> Expr;
}

/// Keeps calls, renaming their arguments.
#[derive(Clone, Copy, Debug, Default)]
pub struct KeepCalls;

impl ExpandCall for KeepCalls {
    fn expand_call(&mut self, u: &mut Uniquifier, call: &Expr) -> Expr {
        match &call.kind {
            ExprKind::Call(f, args) => {
                let args = args.iter().map(|a| u.rename(a, self)).collect();
                Expr::new(ExprKind::Call(f.clone(), args), call.span)
            }
            _ => u.rename(call, self),
        }
    }
}

/// The renaming engine behind [`rename_unique`] and inlining: walks an expression in
/// pre-order and gives every binder a name that no other binder (and no reserved name)
/// has, keeping the original name when it is still unused. `scope` maps each bound
/// name in scope to its new name; variables not in scope keep their names.
#[derive(Clone, Debug, Default)]
pub struct Uniquifier {
    /// The names used so far.
    pub supply: NameSupply,
    /// Old name → new name of the binders in scope.
    pub scope: ScopedMap<Name>,
}

struct Step<'a> {
    u: &'a mut Uniquifier,
    calls: &'a mut dyn ExpandCall,
}

impl Rebuild for Step<'_> {
    fn binder(&mut self, name: &Name) -> Name {
        self.u.supply.claim(name)
    }
    fn child(&mut self, e: &Expr, bound: &[(Name, Name)]) -> Expr {
        for (o, n) in bound {
            self.u.scope.push(o, n.clone());
        }
        let out = self.u.rename(e, self.calls);
        for (o, _) in bound.iter().rev() {
            self.u.scope.pop(o);
        }
        out
    }
}

impl Uniquifier {
    /// A renamer whose supply has claimed `reserved` (parameters, free variables: binders
    /// never take those names) and avoids `avoided` (fresh names never take those; pass
    /// every name occurring in the function).
    pub fn new<'n>(reserved: &[Name], avoided: impl IntoIterator<Item = &'n Name>) -> Uniquifier {
        let mut u = Uniquifier::default();
        for n in avoided {
            u.supply.avoid(n);
        }
        for n in reserved {
            u.supply.reserve(n);
        }
        u
    }
    /// Renames `e` (see the type's documentation); `Call` nodes go to `calls`.
    pub fn rename(&mut self, e: &Expr, calls: &mut dyn ExpandCall) -> Expr {
        match &e.kind {
            ExprKind::Var(n) => match self.scope.get(n) {
                Some(m) => Expr::new(ExprKind::Var(m.clone()), e.span),
                None => e.clone(),
            },
            ExprKind::Call(..) => calls.expand_call(self, e),
            _ => rebuild(e, &mut Step { u: self, calls }),
        }
    }
}

/// Renames the binders of `body` so that every binder name is unique within it and
/// distinct from `params` and from the free variables of `body`. Binders are visited in
/// pre-order; a binder keeps its name when no earlier binder, parameter or free variable
/// has it, and otherwise becomes `base_k` (see [`base_name`]) with the smallest `k >= 1`
/// such that `base_k` occurs nowhere in `params` or `body` and was not generated before.
/// Deterministic; capture-free; calls are kept.
pub fn rename_unique(params: &[Name], body: &Expr) -> Expr {
    let mut reserved: Vec<Name> = params.to_vec();
    reserved.extend(free_vars(body));
    Uniquifier::new(&reserved, &all_names(body)).rename(body, &mut KeepCalls)
}
