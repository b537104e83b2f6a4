//! The glue between egg and the bot rules whose left side a plain egg pattern cannot
//! state: variadic nodes (`index`, `array`, `binders`, `ixs`) and right sides computed from
//! the analysis (shapes, guards, substitution, fresh binders).
//!
//! A [`Shape2`] searcher matches an *outer* node kind whose child `at` has an *inner* node
//! kind (or just an outer node); each match binds the outer node's children to the
//! numbered variables `?#0, ?#1, ...` and the inner node's children to
//! `?#INNER, ?#INNER+1, ...`. A [`Custom`] applier hands the bound children (a [`View`])
//! to a plain Rust function that returns the class to union with the matched one, or
//! `None` to decline.

use crate::ir::analysis::{IrAnalysis, IrGraph};
use crate::ir::lang::Ir;
use egg::{
    Applier, Id, Language, PatternAst, Rewrite, SearchMatches, Searcher, Subst, Symbol, Var,
};
use std::collections::HashMap;
use std::mem::Discriminant;
use std::sync::Mutex;

/// First variable number of the inner node's children.
const INNER: u32 = 1 << 20;

/// The discriminant of a node kind (children are placeholders).
pub(crate) fn kind(n: &Ir) -> Discriminant<Ir> {
    n.discriminant()
}

/// Matches an outer node kind, optionally with an inner node kind at child `at`.
pub(crate) struct Shape2 {
    outer: Discriminant<Ir>,
    inner: Option<(usize, Discriminant<Ir>)>,
    unless_replicated: Option<usize>,
}

impl Shape2 {
    /// Matches every node of the kind of `outer`.
    pub(crate) fn node(outer: &Ir) -> Shape2 {
        Shape2 {
            outer: kind(outer),
            inner: None,
            unless_replicated: None,
        }
    }

    /// Matches a node of the kind of `outer` whose child `at` has a node of the kind of
    /// `inner`.
    pub(crate) fn nested(outer: &Ir, at: usize, inner: &Ir) -> Shape2 {
        Shape2 {
            outer: kind(outer),
            inner: Some((at, kind(inner))),
            unless_replicated: None,
        }
    }

    /// The same matcher, skipping outer nodes whose child `at` has a `replicate` member.
    /// Indexes and gathers of replicated arrays are left to the replicate rules: a
    /// `replicate(n, x)` equals every in-range gather of itself along the replicated
    /// dimension, so its class collects gathers with ever new index maps, and the other
    /// index and gather rules would compose them without end.
    pub(crate) fn unless_replicated(mut self, at: usize) -> Shape2 {
        self.unless_replicated = Some(at);
        self
    }
}

fn bind(subst: &mut Subst, base: u32, children: &[Id]) {
    for (k, &c) in children.iter().enumerate() {
        subst.insert(Var::from_u32(base + k as u32), c);
    }
}

impl Searcher<Ir, IrAnalysis> for Shape2 {
    fn search_eclass_with_limit(
        &self,
        eg: &IrGraph,
        eclass: Id,
        limit: usize,
    ) -> Option<SearchMatches<'_, Ir>> {
        let mut substs = Vec::new();
        for n in &eg[eclass].nodes {
            if substs.len() >= limit {
                break;
            }
            if n.discriminant() != self.outer {
                continue;
            }
            let ch = n.children();
            if let Some(at) = self.unless_replicated {
                let replicated = |c: Id| eg[c].nodes.iter().any(|m| matches!(m, Ir::Replicate(_)));
                if ch.get(at).is_some_and(|&c| replicated(c)) {
                    continue;
                }
            }
            match self.inner {
                None => {
                    let mut s = Subst::with_capacity(ch.len());
                    bind(&mut s, 0, ch);
                    substs.push(s);
                }
                Some((at, inner)) => {
                    let Some(&c) = ch.get(at) else { continue };
                    for m in &eg[c].nodes {
                        if substs.len() >= limit {
                            break;
                        }
                        if m.discriminant() != inner {
                            continue;
                        }
                        let mut s = Subst::with_capacity(ch.len() + m.children().len());
                        bind(&mut s, 0, ch);
                        bind(&mut s, INNER, m.children());
                        substs.push(s);
                    }
                }
            }
        }
        (!substs.is_empty()).then_some(SearchMatches {
            eclass,
            substs,
            ast: None,
        })
    }

    fn search_with_limit(&self, eg: &IrGraph, mut limit: usize) -> Vec<SearchMatches<'_, Ir>> {
        let mut out = Vec::new();
        let Some(classes) = eg.classes_for_op(&self.outer) else {
            return out;
        };
        let mut ids: Vec<Id> = classes.collect();
        ids.sort_unstable();
        for id in ids {
            if limit == 0 {
                break;
            }
            if let Some(m) = self.search_eclass_with_limit(eg, id, limit) {
                limit = limit.saturating_sub(m.substs.len());
                out.push(m);
            }
        }
        out
    }

    fn vars(&self) -> Vec<Var> {
        Vec::new()
    }
}

/// The children bound by one match.
pub(crate) struct View<'a> {
    subst: &'a Subst,
}

impl View<'_> {
    /// Child `k` of the outer node.
    pub(crate) fn o(&self, k: usize) -> Option<Id> {
        self.subst.get(Var::from_u32(k as u32)).copied()
    }

    /// Child `k` of the inner node.
    pub(crate) fn i(&self, k: usize) -> Option<Id> {
        self.subst.get(Var::from_u32(INNER + k as u32)).copied()
    }

    /// All children of the outer node.
    pub(crate) fn outer(&self) -> Vec<Id> {
        (0..).map_while(|k| self.o(k)).collect()
    }

    /// All children of the inner node.
    pub(crate) fn inner(&self) -> Vec<Id> {
        (0..).map_while(|k| self.i(k)).collect()
    }

    /// A pattern variable `?name` (for rules whose searcher is an egg pattern).
    pub(crate) fn var(&self, name: &str) -> Option<Id> {
        let v: Var = name.parse().ok()?;
        self.subst.get(v).copied()
    }
}

/// What a custom rule computes from a match: the e-graph, the matched class, the bound
/// children and the rule's name (for fresh binders). `None` declines.
pub(crate) trait RuleFn:
    Fn(&mut IrGraph, Id, &View<'_>, &str) -> Option<Id> + Send + Sync + 'static
{
}
impl<F> RuleFn for F where
    F: Fn(&mut IrGraph, Id, &View<'_>, &str) -> Option<Id> + Send + Sync + 'static
{
}

/// An applier running a [`RuleFn`] and unioning its result with the matched class.
///
/// egg re-applies every match in every iteration; for rules that substitute (copying a
/// representative) that repeats real work. So the applier remembers, per match (the
/// canonical class and bound children), the class it produced, and skips a match whose
/// earlier result is still in the matched class. The memo belongs to this rule instance:
/// it is tagged with the e-graph (its address and its variable table's) and cleared when
/// another e-graph shows up; a stale entry could only skip an application, never add one.
/// [`crate::bot::rules`] makes new instances for every call, and the driver calls it once
/// per transform.
pub(crate) struct Custom<F> {
    name: &'static str,
    f: F,
    memo: Mutex<Memo>,
}

/// The applied matches of one rule instance (see [`Custom`]).
#[derive(Default)]
struct Memo {
    graph: usize,
    done: HashMap<(Id, Vec<Id>), Id>,
}

impl<F> Custom<F> {
    fn new(name: &'static str, f: F) -> Custom<F> {
        Custom {
            name,
            f,
            memo: Mutex::new(Memo::default()),
        }
    }
}

impl<F: RuleFn> Applier<Ir, IrAnalysis> for Custom<F> {
    fn apply_one(
        &self,
        eg: &mut IrGraph,
        eclass: Id,
        subst: &Subst,
        _ast: Option<&PatternAst<Ir>>,
        _rule: Symbol,
    ) -> Vec<Id> {
        let view = View { subst };
        let class = eg.find(eclass);
        let mut kids = view.outer();
        kids.extend(view.inner());
        let key = (class, kids.iter().map(|&k| eg.find(k)).collect::<Vec<_>>());
        let graph =
            (eg as *const IrGraph as usize) ^ (eg.analysis.vars.as_ptr() as usize).rotate_left(17);
        let mut memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
        if memo.graph != graph {
            memo.graph = graph;
            memo.done.clear();
        }
        if let Some(&old) = memo.done.get(&key) {
            if usize::from(old) < eg.nodes().len() && eg.find(old) == class {
                return Vec::new();
            }
        }
        drop(memo);
        let Some(mut new) = (self.f)(eg, class, &view, self.name) else {
            return Vec::new();
        };
        if eg[new].nodes.iter().any(|n| matches!(n, Ir::IVar(_))) {
            // The result is a binder's class (`iota(n)[i]` is `i`): binder classes must
            // stay unions of nothing else (the analysis contract), so union `i + 0`.
            let zero = super::util::add_int(eg, 0);
            new = eg.add(Ir::Add([new, zero]));
        }
        let changed = eg.union(class, new);
        let mut memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
        if !key.1.is_empty() {
            memo.done.insert(key, new);
        }
        if changed {
            vec![eg.find(class)]
        } else {
            Vec::new()
        }
    }
}

/// A rule with a [`Shape2`] searcher and a custom right side.
pub(crate) fn custom(
    name: &'static str,
    searcher: Shape2,
    f: impl RuleFn,
) -> Rewrite<Ir, IrAnalysis> {
    Rewrite::new(name, searcher, Custom::new(name, f)).expect("a custom bot rule is well formed")
}

/// A rule with an egg pattern as left side and a custom right side.
pub(crate) fn custom_pattern(
    name: &'static str,
    lhs: &str,
    f: impl RuleFn,
) -> Rewrite<Ir, IrAnalysis> {
    let searcher: egg::Pattern<Ir> = lhs.parse().expect("a bot rule's pattern parses");
    Rewrite::new(name, searcher, Custom::new(name, f)).expect("a custom bot rule is well formed")
}

/// A pure pattern rule `lhs → rhs`.
pub(crate) fn pattern(name: &'static str, lhs: &str, rhs: &str) -> Rewrite<Ir, IrAnalysis> {
    let l: egg::Pattern<Ir> = lhs.parse().expect("a bot rule's pattern parses");
    let r: egg::Pattern<Ir> = rhs.parse().expect("a bot rule's pattern parses");
    Rewrite::new(name, l, r).expect("a bot pattern rule is well formed")
}

/// A pattern rule `(build ?n ?i body) → rhs` that fires only when one of the operand
/// variables `ops` of the body mentions the binder `?i` (an independent body is
/// `bot/build-const`'s alone: pushing a build into it would only add redundant members,
/// and through e-graph cycles without end).
pub(crate) fn build_pattern(
    name: &'static str,
    lhs: &str,
    rhs: &str,
    ops: &'static [&'static str],
) -> Rewrite<Ir, IrAnalysis> {
    let l: egg::Pattern<Ir> = lhs.parse().expect("a bot rule's pattern parses");
    let r: egg::Pattern<Ir> = rhs.parse().expect("a bot rule's pattern parses");
    let i: Var = "?i".parse().expect("a pattern variable");
    let vars: Vec<Var> = ops
        .iter()
        .map(|v| v.parse().expect("a pattern variable"))
        .collect();
    let cond = move |eg: &mut IrGraph, _class: Id, s: &Subst| {
        let Some(v) = s.get(i).and_then(|&c| super::util::ivar(eg, c)) else {
            return false;
        };
        vars.iter()
            .any(|x| s.get(*x).is_some_and(|&c| super::util::mentions(eg, c, v)))
    };
    let applier = egg::ConditionalApplier {
        condition: cond,
        applier: r,
    };
    Rewrite::new(name, l, applier).expect("a bot pattern rule is well formed")
}
