//! The custom appliers and the one custom searcher of the rule systems: the rules whose
//! right-hand side is not a pattern because it needs a substitution (5.6, 5.7, 5.18,
//! 5.19, 5.21), a fresh binder (5.6, 5.7, 5.18, 5.19, 5.24a) or new leaf data (5.21's
//! bounds guard, 5.24's conjunction). Substitution is "extraction-based" (the egg paper,
//! Willsey et al., POPL 2021, §5): the applier extracts a representative of the class it
//! substitutes into ([`super::extract`], aiming at the pass's normal form), substitutes
//! on that term ([`super::vars`]), adds the result and unions it with the match. The
//! result is equal to the class because the representative is.
//!
//! Fresh names are derived from the match, never from a counter (so the e-graph can
//! saturate): the binder `x` lifted out of `gen i` becomes `x_i`, the halves of a split
//! `x` are `x_0` and `x_1`, and the η binder is the first `η<k>` not free in the class.
//! The run renames every binder canonically after extraction.

use super::analysis::{TlAnalysis, TlGraph};
use super::extract::{extract, Extraction, Mode};
use super::lang::{to_recexpr, BindLeaf, IdxLeaf, NameLeaf, PredLeaf, Tl};
use super::types::{arr, proj};
use super::vars::{aff_var, subst_ivar, subst_var, VarRepl};
use adora_core::tl::{Aff, CmpOp, IVar, Index, Pred, Term, Ty, Var};
use egg::{Applier, Id, PatternAst, Subst, Symbol};
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

/// Pattern variable by name.
pub fn pv(s: &str) -> egg::Var {
    s.parse().expect("pattern variable")
}

/// What every applier needs: the pass (its normal form guides the representatives), the
/// input variables and the representatives of the current iteration.
#[derive(Clone, Debug)]
pub struct Ctx {
    /// The pass.
    pub mode: Mode,
    /// The free input variables.
    pub inputs: BTreeSet<Var>,
    /// One extraction over the whole e-graph, shared by the applications of an iteration.
    pub reps: RepCache,
}

impl Ctx {
    /// A context with an empty representative cache.
    pub fn new(mode: Mode, inputs: BTreeSet<Var>) -> Ctx {
        Ctx {
            mode,
            inputs,
            reps: RepCache::default(),
        }
    }
}

/// The representatives of an iteration: one extraction over every class, computed at the
/// first substitution of the iteration and cleared by the runner's hook before the next.
/// Extracting per application instead costs a fixpoint over the reachable classes each
/// time, which dominated let-lifting on large terms (`adora check --size 4`). A class
/// the cached extraction does not cover (added or merged since) is extracted afresh.
#[derive(Clone, Default)]
pub struct RepCache(Arc<Mutex<Option<Extraction>>>);

impl RepCache {
    /// Forgets the cached extraction (the e-graph changed).
    pub fn clear(&self) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

impl std::fmt::Debug for RepCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RepCache")
    }
}

fn leaf(eg: &TlGraph, c: Id) -> Option<Tl> {
    eg[c].nodes.first().cloned()
}

fn name_of(eg: &TlGraph, c: Id) -> Option<Var> {
    match leaf(eg, c)? {
        Tl::Name(x) => Some(x.0),
        _ => None,
    }
}

fn bind_of(eg: &TlGraph, c: Id) -> Option<(IVar, u64)> {
    match leaf(eg, c)? {
        Tl::Bind(b) => Some(b.0),
        _ => None,
    }
}

fn representative(eg: &TlGraph, c: Id, ctx: &Ctx) -> Option<Term> {
    let mut cached = ctx.reps.0.lock().unwrap_or_else(|e| e.into_inner());
    let ex = cached.get_or_insert_with(|| {
        let all: Vec<Id> = eg.classes().map(|k| k.id).collect();
        extract(eg, &all, ctx.mode, &ctx.inputs)
    });
    if let Some(t) = ex.any_term(eg, c) {
        return Some(t);
    }
    drop(cached);
    extract(eg, &[c], ctx.mode, &ctx.inputs).any_term(eg, c)
}

fn add_term(eg: &mut TlGraph, t: &Term) -> Option<Id> {
    let r = to_recexpr(t).ok()?;
    Some(eg.add_expr(&r))
}

fn finish(eg: &mut TlGraph, matched: Id, new: Id) -> Vec<Id> {
    if eg.union(matched, new) {
        vec![matched]
    } else {
        Vec::new()
    }
}

/// Rules 5.6 and 5.7: `gen|sum i:n. (let x = e1 in e2) ⟶ let x_i = gen i:n. e1 in
/// gen|sum i:n. e2{x := x_i[i]}`.
#[derive(Clone, Debug)]
pub struct LiftLet {
    /// `true` for `sum` (5.7), `false` for `gen` (5.6).
    pub sum: bool,
    /// The context.
    pub ctx: Ctx,
}

impl Applier<Tl, TlAnalysis> for LiftLet {
    fn apply_one(
        &self,
        eg: &mut TlGraph,
        matched: Id,
        s: &Subst,
        _: Option<&PatternAst<Tl>>,
        _: Symbol,
    ) -> Vec<Id> {
        let mut go = || -> Option<Vec<Id>> {
            let (b, x, e1, e2) = (s[pv("?b")], s[pv("?x")], s[pv("?e1")], s[pv("?e2")]);
            let (i, n) = bind_of(eg, b)?;
            let x = name_of(eg, x)?;
            let x2 = format!("{x}_{i}");
            // Without input types the binding may be untyped; let-lifting needs no types.
            if let Some(tx) = eg[e1].data.ty.clone() {
                eg.analysis.types.insert(x2.clone(), arr(n, tx));
            }
            let body = representative(eg, e2, &self.ctx)?;
            let body = subst_var(&body, &x, &VarRepl::Access(x2.clone(), i))?;
            let body = add_term(eg, &body)?;
            let gen1 = eg.add(Tl::Gen([b, e1]));
            let outer = if self.sum {
                eg.add(Tl::Sum([b, body]))
            } else {
                eg.add(Tl::Gen([b, body]))
            };
            let name = eg.add(Tl::Name(NameLeaf(x2)));
            let new = eg.add(Tl::Let([name, gen1, outer]));
            Some(finish(eg, matched, new))
        };
        go().unwrap_or_default()
    }
}

/// Rules 5.18 and 5.19: `let x = e1 in e2 ⟶ let x_0 = e1.0 in let x_1 = e1.1 in
/// e2{x := (x_0, x_1)}` when `e1` has a pair type (up to ≅); with `pair` set, the
/// binding is a pair construction `(a, b)` and the halves are bound to `a` and `b`.
#[derive(Clone, Debug)]
pub struct SplitLet {
    /// Whether the binding is matched as `(pair ?a ?b)` (5.19).
    pub pair: bool,
    /// The context.
    pub ctx: Ctx,
}

impl Applier<Tl, TlAnalysis> for SplitLet {
    fn apply_one(
        &self,
        eg: &mut TlGraph,
        matched: Id,
        s: &Subst,
        _: Option<&PatternAst<Tl>>,
        _: Symbol,
    ) -> Vec<Id> {
        let mut go = || -> Option<Vec<Id>> {
            let (x, e2) = (s[pv("?x")], s[pv("?e2")]);
            let x = name_of(eg, x)?;
            let (h0, h1, t) = if self.pair {
                let (a, b) = (s[pv("?a")], s[pv("?b")]);
                let t = Ty::Pair(
                    Box::new(eg[a].data.ty.clone()?),
                    Box::new(eg[b].data.ty.clone()?),
                );
                (a, b, t)
            } else {
                let e1 = s[pv("?e1")];
                let t = eg[e1].data.ty.clone()?;
                proj(&t, 0)?;
                (eg.add(Tl::Proj0(e1)), eg.add(Tl::Proj1(e1)), t)
            };
            let (x0, x1) = (format!("{x}_0"), format!("{x}_1"));
            eg.analysis.types.insert(x0.clone(), proj(&t, 0)?);
            eg.analysis.types.insert(x1.clone(), proj(&t, 1)?);
            let body = representative(eg, e2, &self.ctx)?;
            let body = subst_var(&body, &x, &VarRepl::Split(x0.clone(), x1.clone()))?;
            let body = add_term(eg, &body)?;
            let n1 = eg.add(Tl::Name(NameLeaf(x1)));
            let inner = eg.add(Tl::Let([n1, h1, body]));
            let n0 = eg.add(Tl::Name(NameLeaf(x0)));
            let new = eg.add(Tl::Let([n0, h0, inner]));
            Some(finish(eg, matched, new))
        };
        go().unwrap_or_default()
    }
}

/// `0 <= a && a < n`, or `None` when `a` is a constant in range (no guard needed).
pub fn bounds_guard(a: &Index, n: u64) -> Option<Pred> {
    if let Index::Aff(f) = a {
        if f.terms.is_empty() && f.constant >= 0 && (f.constant as u64) < n {
            return None;
        }
    }
    let zero = Index::Aff(Aff::default());
    let size = Index::Aff(Aff {
        terms: Default::default(),
        constant: n as i64,
    });
    Some(Pred::And(
        Box::new(Pred::Cmp(CmpOp::Le, zero, a.clone())),
        Box::new(Pred::Cmp(CmpOp::Lt, a.clone(), size)),
    ))
}

/// Rule 5.21: `(gen i:n. e)[a] ⟶ [0 <= a && a < n] e{i := a}` (the guard is dropped
/// when `a` is a constant in range).
#[derive(Clone, Debug)]
pub struct Beta {
    /// The context.
    pub ctx: Ctx,
}

impl Applier<Tl, TlAnalysis> for Beta {
    fn apply_one(
        &self,
        eg: &mut TlGraph,
        matched: Id,
        s: &Subst,
        _: Option<&PatternAst<Tl>>,
        _: Symbol,
    ) -> Vec<Id> {
        let mut go = || -> Option<Vec<Id>> {
            let (b, e, a) = (s[pv("?b")], s[pv("?e")], s[pv("?a")]);
            let (i, n) = bind_of(eg, b)?;
            let Tl::Idx(a) = leaf(eg, a)? else {
                return None;
            };
            let body = representative(eg, e, &self.ctx)?;
            let body = subst_ivar(&body, &i, &a.0)?;
            let t = match bounds_guard(&a.0, n) {
                Some(g) => Term::Bracket(g, Box::new(body)),
                None => body,
            };
            let new = add_term(eg, &t)?;
            Some(finish(eg, matched, new))
        };
        go().unwrap_or_default()
    }
}

/// The conjuncts of a predicate (nested `&&` flattened).
fn conjuncts(p: &Pred, out: &mut BTreeSet<Pred>) {
    match p {
        Pred::And(a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        Pred::True => {}
        p => {
            out.insert(p.clone());
        }
    }
}

/// `p && q` with the conjuncts flattened, deduplicated and sorted (so repeated
/// conjunction of the same predicates reaches a fixpoint).
pub fn conj(p: &Pred, q: &Pred) -> Pred {
    let mut cs = BTreeSet::new();
    conjuncts(p, &mut cs);
    conjuncts(q, &mut cs);
    let mut it = cs.into_iter().rev();
    let Some(last) = it.next() else {
        return Pred::True;
    };
    it.fold(last, |acc, c| Pred::And(Box::new(c), Box::new(acc)))
}

/// Rule 5.24: `[p]([q] e) ⟶ [p && q] e`.
#[derive(Clone, Debug)]
pub struct Conj;

impl Applier<Tl, TlAnalysis> for Conj {
    fn apply_one(
        &self,
        eg: &mut TlGraph,
        matched: Id,
        s: &Subst,
        _: Option<&PatternAst<Tl>>,
        _: Symbol,
    ) -> Vec<Id> {
        let mut go = || -> Option<Vec<Id>> {
            let (p, q, e) = (s[pv("?p")], s[pv("?q")], s[pv("?e")]);
            let (Tl::Pred(p), Tl::Pred(q)) = (leaf(eg, p)?, leaf(eg, q)?) else {
                return None;
            };
            let pq = eg.add(Tl::Pred(PredLeaf(conj(&p.0, &q.0))));
            let new = eg.add(Tl::Br([pq, e]));
            Some(finish(eg, matched, new))
        };
        go().unwrap_or_default()
    }
}

/// Where rule 5.24a (η) expands an array-typed data path `p : [n]T` to `gen j:n. p[j]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EtaAt {
    /// `let x = p in e ⟶ let x = (gen j:n. p[j]) in e`.
    Let,
    /// `[q] p ⟶ gen j:n. [q] p[j]` (η followed by 5.23).
    Bracket,
    /// `gen i:m. p ⟶ gen i:m. gen j:n. p[j]`.
    Gen,
}

/// Rule 5.24a (η) in the three positions where GP-NF needs it ([`EtaAt`]). The new
/// `gen` is unioned with the *context* (the `let`, bracket or `gen`), never with the
/// class of `p`: that class also feeds accesses, where an η-expanded member would make
/// every access a 5.21 redex. `j` is the first `η<k>` free in neither `p` nor the
/// context.
#[derive(Clone, Debug)]
pub struct Eta {
    /// The position.
    pub at: EtaAt,
}

impl Applier<Tl, TlAnalysis> for Eta {
    fn apply_one(
        &self,
        eg: &mut TlGraph,
        matched: Id,
        s: &Subst,
        _: Option<&PatternAst<Tl>>,
        _: Symbol,
    ) -> Vec<Id> {
        let mut go = || -> Option<Vec<Id>> {
            let p = s[pv("?p")];
            let d = &eg[p].data;
            if !d.path {
                return None;
            }
            let Some(Ty::Arr(n, _)) = d.ty.clone() else {
                return None;
            };
            let mut avoid = d.free.ivars.clone();
            avoid.extend(eg[matched].data.free.ivars.iter().cloned());
            if self.at == EtaAt::Gen {
                avoid.insert(bind_of(eg, s[pv("?b")])?.0);
            }
            let j = (0..)
                .map(|k| format!("η{k}"))
                .find(|j| !avoid.contains(j))?;
            let b = eg.add(Tl::Bind(BindLeaf((j.clone(), n))));
            let a = eg.add(Tl::Idx(IdxLeaf(aff_var(&j))));
            let acc = eg.add(Tl::At([p, a]));
            let new = match self.at {
                EtaAt::Let => {
                    let g = eg.add(Tl::Gen([b, acc]));
                    eg.add(Tl::Let([s[pv("?x")], g, s[pv("?e")]]))
                }
                EtaAt::Bracket => {
                    let br = eg.add(Tl::Br([s[pv("?q")], acc]));
                    eg.add(Tl::Gen([b, br]))
                }
                EtaAt::Gen => {
                    let g = eg.add(Tl::Gen([b, acc]));
                    eg.add(Tl::Gen([s[pv("?b")], g]))
                }
            };
            Some(finish(eg, matched, new))
        };
        go().unwrap_or_default()
    }
}
