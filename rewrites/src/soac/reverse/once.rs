//! Checkpoint-once (seed 004 *AD for an Array Language with Nested Parallelism* §6.2;
//! docs/engines/soac-reverse.md, "Checkpointing policies"): which components of a loop's
//! accumulator need no per-iteration checkpoint.
//!
//! The paper checkpoints a loop-variant array that has no false dependencies (no WAR, no
//! WAW) once, at the loop nest's entry, and re-executes its iterations' overwrites in the
//! return sweep, which is safe because they are idempotent. Our core language has no
//! in-place update: `scatter_into` returns a new array and every value stays available.
//! So the one checkpoint is the loop's result, the array after the last iteration: on
//! every position iteration `i` reads, it equals the array at iteration `i`'s entry when
//! there is no false dependency. Precisely, a component `a : T[m, …]` of
//! `loop (… a …) for i < n do B` is restored from the loop's result when
//!
//! * it is unchanged (`B`'s result component is `a` itself), or
//! * `B` uses `a` only (1) by reads `a[e, …]` (anywhere in `B`, nested bodies included)
//!   and (2) as the destination of one `w = scatter_into(a, [e1, …, ek], vs)` of `B`'s
//!   top level whose `w` is `B`'s result component and is used nowhere else; every first
//!   index `e` and every `ej` is a static function of `i` (built from integer literals and
//!   `i` by `+`, `-`, `*` and negation), so the sets `R(i)` of rows read and `W(i)` of rows
//!   written are known for every `i < n`; and
//! * no WAW: the `k · n` rows written are pairwise distinct; no WAR: no row read at
//!   iteration `i` is written at an iteration `j ≥ i` (the same iteration included: the
//!   read would see the row's old value, the restored array its new one).
//!
//! Then a row read at iteration `i` was written, if ever, at one iteration `j < i` and
//! never again, so the loop's result holds what iteration `i` read; re-executing `B`
//! from it gives the iteration's values, and the return sweep of `scatter_into` needs
//! only the indices. Components that pass get no checkpoint array (memory `O(|a|)`
//! instead of `O(n · |a|)`); the others keep per-iteration checkpoints. Tuple components
//! reach `a` through the accumulator's tuple and projections, which count as `a`.

use super::ir::{Body, Rhs};
use adora_core::ast::{BinOp, Expr, ExprKind, Lit, Name, Pat, UnOp};
use adora_core::types::Type;
use adora_core::visit::free_vars;
use num_traits::ToPrimitive;
use std::collections::{HashMap, HashSet};

/// Most `n · (reads + writes)` index evaluations spent on one loop's check; a larger
/// loop keeps per-iteration checkpoints.
pub const MAX_EVALUATIONS: usize = 1 << 20;

/// One loop's plan under `Checkpoint::Once`: its scope label (`loop i`), trip count, and
/// per accumulator component its name and whether it is restored from the loop's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopPlan {
    /// The loop's scope label (`super::Counts`).
    pub label: String,
    /// The trip count.
    pub count: usize,
    /// Per component: its name and whether it is checkpointed once.
    pub once: Vec<(Name, bool)>,
}

/// The plan of every loop of `b` (nested ones included, in order), by counter name.
pub fn plan(b: &Body) -> Vec<(Name, LoopPlan)> {
    let mut out = Vec::new();
    walk(b, &mut out);
    out
}

fn walk(b: &Body, out: &mut Vec<(Name, LoopPlan)>) {
    for st in &b.stmts {
        match &st.rhs {
            Rhs::If { then_, else_, .. } => {
                walk(then_, out);
                walk(else_, out);
            }
            Rhs::Map { body, .. } => walk(body, out),
            Rhs::Loop {
                acc,
                tys,
                var,
                count,
                body,
                ..
            } => {
                let once = acc
                    .iter()
                    .enumerate()
                    .map(|(j, a)| (a.clone(), eligible(acc, tys, var, *count, body, j)))
                    .collect();
                out.push((
                    var.clone(),
                    LoopPlan {
                        label: body.label.clone(),
                        count: *count,
                        once,
                    },
                ));
                walk(body, out);
            }
            Rhs::Flat(_) | Rhs::Soac(_) => {}
        }
    }
}

/// Every `Flat` statement of `b` binding one name, nested bodies included (names are
/// unique).
fn defs(b: &Body, out: &mut HashMap<Name, Expr>) {
    for st in &b.stmts {
        match (&st.pat, &st.rhs) {
            (Pat::Var(x), Rhs::Flat(e)) => {
                out.insert(x.clone(), e.clone());
            }
            (_, Rhs::If { then_, else_, .. }) => {
                defs(then_, out);
                defs(else_, out);
            }
            (_, Rhs::Map { body, .. } | Rhs::Loop { body, .. }) => defs(body, out),
            _ => {}
        }
    }
}

/// The value of the integer atom `e` at counter value `i`, when it is a static function
/// of the counter `var` (literals, `+`, `-`, `*`, negation; no overflow).
fn value(e: &Expr, var: &str, i: i64, defs: &HashMap<Name, Expr>, depth: usize) -> Option<i64> {
    if depth > 64 {
        return None;
    }
    match &e.kind {
        ExprKind::Lit(Lit::Int(k)) => k.to_i64(),
        ExprKind::Var(x) if x == var => Some(i),
        ExprKind::Var(x) => value(defs.get(x)?, var, i, defs, depth + 1),
        ExprKind::Unary(UnOp::Neg, a) => value(a, var, i, defs, depth + 1)?.checked_neg(),
        ExprKind::Binary(op, a, b) => {
            let a = value(a, var, i, defs, depth + 1)?;
            let b = value(b, var, i, defs, depth + 1)?;
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                _ => None,
            }
        }
        _ => None,
    }
}

fn name_of(e: &Expr) -> Option<&Name> {
    match &e.kind {
        ExprKind::Var(x) => Some(x),
        _ => None,
    }
}

/// What the walk over the uses of a component found.
struct Uses {
    /// Names that are the component (it and projections of tuples holding it).
    alias: HashSet<Name>,
    /// Tuples holding the component (used only by projections).
    tuples: HashSet<Name>,
    /// First indices of the reads.
    reads: Vec<Expr>,
    /// Whether a use other than a read, a projection, a tuple or the one write was met.
    other: bool,
}

impl Uses {
    fn mentions(&self, e: &Expr) -> bool {
        free_vars(e)
            .iter()
            .any(|x| self.alias.contains(x) || self.tuples.contains(x))
    }

    /// Collects the aliases and tuples of the component in `b` (to a fixed point).
    fn close(&mut self, b: &Body) -> bool {
        let mut changed = false;
        for st in &b.stmts {
            match (&st.pat, &st.rhs) {
                (Pat::Var(x), Rhs::Flat(e)) => match &e.kind {
                    ExprKind::Tuple(es)
                        if es
                            .iter()
                            .any(|a| name_of(a).is_some_and(|n| self.alias.contains(n))) =>
                    {
                        changed |= self.tuples.insert(x.clone());
                    }
                    ExprKind::Proj(t, _) if name_of(t).is_some_and(|n| self.tuples.contains(n)) => {
                        if let (ExprKind::Var(tn), ExprKind::Proj(_, k)) = (&t.kind, &e.kind) {
                            if self.tuple_component_is_alias(b, tn, *k) {
                                changed |= self.alias.insert(x.clone());
                            }
                        }
                    }
                    _ => {}
                },
                (_, Rhs::If { then_, else_, .. }) => {
                    changed |= self.close(then_);
                    changed |= self.close(else_);
                }
                (_, Rhs::Map { body, .. } | Rhs::Loop { body, .. }) => changed |= self.close(body),
                _ => {}
            }
        }
        changed
    }

    /// Whether component `k` of the tuple statement `t` (bound somewhere in `b`) is an
    /// alias.
    fn tuple_component_is_alias(&self, b: &Body, t: &Name, k: usize) -> bool {
        let mut found = None;
        find_tuple(b, t, &mut found);
        found
            .and_then(|es| es.get(k).cloned())
            .and_then(|a| name_of(&a).cloned())
            .is_some_and(|n| self.alias.contains(&n))
    }

    /// Walks the uses in `b`; `write`: the statement name of the one write, whose
    /// destination use is allowed.
    fn scan(&mut self, b: &Body, write: Option<&Name>) {
        for st in &b.stmts {
            let own = match &st.pat {
                Pat::Var(x) => Some(x),
                Pat::Tuple(_) => None,
            };
            match &st.rhs {
                Rhs::Flat(e) => match &e.kind {
                    ExprKind::Index(x, is)
                        if name_of(x).is_some_and(|n| self.alias.contains(n)) =>
                    {
                        match is.first() {
                            Some(i) if !is.iter().any(|i| self.mentions(i)) => {
                                self.reads.push(i.clone())
                            }
                            _ => self.other = true,
                        }
                    }
                    ExprKind::Proj(t, _) if name_of(t).is_some_and(|n| self.tuples.contains(n)) => {
                    }
                    ExprKind::Tuple(_) if own.is_some_and(|x| self.tuples.contains(x)) => {}
                    _ => self.other |= self.mentions(e),
                },
                Rhs::Soac(e) => match &e.kind {
                    ExprKind::ScatterInto { dest, is, vs } if write.is_some() && own == write => {
                        self.other |= !name_of(dest).is_some_and(|n| self.alias.contains(n))
                            || self.mentions(is)
                            || self.mentions(vs);
                    }
                    _ => self.other |= self.mentions(e),
                },
                Rhs::If { cond, then_, else_ } => {
                    self.other |= self.mentions(cond)
                        || self.mentions(&then_.result)
                        || self.mentions(&else_.result);
                    self.scan(then_, None);
                    self.scan(else_, None);
                }
                Rhs::Map { body, args, .. } => {
                    self.other |=
                        args.iter().any(|a| self.mentions(a)) || self.mentions(&body.result);
                    self.scan(body, None);
                }
                Rhs::Loop { init, body, .. } => {
                    self.other |= self.mentions(init) || self.mentions(&body.result);
                    self.scan(body, None);
                }
            }
        }
    }
}

fn find_tuple(b: &Body, t: &Name, found: &mut Option<Vec<Expr>>) {
    for st in &b.stmts {
        match (&st.pat, &st.rhs) {
            (Pat::Var(x), Rhs::Flat(e)) if x == t => {
                if let ExprKind::Tuple(es) = &e.kind {
                    *found = Some(es.clone());
                }
            }
            (_, Rhs::If { then_, else_, .. }) => {
                find_tuple(then_, t, found);
                find_tuple(else_, t, found);
            }
            (_, Rhs::Map { body, .. } | Rhs::Loop { body, .. }) => find_tuple(body, t, found),
            _ => {}
        }
    }
}

/// `B`'s result component `j` of `m`: the result atom, or its tuple statement's atom.
fn result_component(b: &Body, j: usize, m: usize) -> Option<Expr> {
    if m == 1 {
        return Some(b.result.clone());
    }
    let r = name_of(&b.result)?;
    b.stmts.iter().find_map(|st| match (&st.pat, &st.rhs) {
        (Pat::Var(x), Rhs::Flat(e)) if x == r => match &e.kind {
            ExprKind::Tuple(es) => es.get(j).cloned(),
            _ => None,
        },
        _ => None,
    })
}

/// Whether component `j` of `loop (acc…) for var < count do b` is restored from the
/// loop's result (module documentation).
fn eligible(acc: &[Name], tys: &[Type], var: &Name, count: usize, b: &Body, j: usize) -> bool {
    let Type::Array(_, shape) = &tys[j] else {
        return false;
    };
    if shape.is_empty() {
        return false;
    }
    let mut uses = Uses {
        alias: std::iter::once(acc[j].clone()).collect(),
        tuples: HashSet::new(),
        reads: Vec::new(),
        other: false,
    };
    while uses.close(b) {}
    let Some(r) = result_component(b, j, acc.len()) else {
        return false;
    };
    let Some(rn) = name_of(&r) else {
        return false;
    };
    if uses.alias.contains(rn) {
        // Unchanged: every iteration sees the initial array.
        return true;
    }
    // The one write: `w = scatter_into(a, is, vs)` at the top level, `w` the result
    // component and used nowhere else.
    let Some(is) = b.stmts.iter().find_map(|st| match (&st.pat, &st.rhs) {
        (Pat::Var(x), Rhs::Soac(e)) if x == rn => match &e.kind {
            ExprKind::ScatterInto { is, .. } => Some((**is).clone()),
            _ => None,
        },
        _ => None,
    }) else {
        return false;
    };
    if uses.tuples.contains(rn) {
        return false;
    }
    if name_of(&b.result).is_some_and(|n| uses.tuples.contains(n)) {
        return false; // the component moves to another one of the result
    }
    uses.scan(b, Some(rn));
    // `w` itself appears only as the result component, once.
    let once_in_result = acc.len() == 1
        || (0..acc.len())
            .filter(|&k| result_component(b, k, acc.len()).as_ref().and_then(name_of) == Some(rn))
            .count()
            == 1;
    if uses.other || count_uses(b, rn) != 1 || !once_in_result {
        return false;
    }
    let mut d = HashMap::new();
    defs(b, &mut d);
    let Some(ExprKind::Array(ws)) = name_of(&is).and_then(|n| d.get(n)).map(|e| e.kind.clone())
    else {
        return false;
    };
    if count.saturating_mul(ws.len() + uses.reads.len()) > MAX_EVALUATIONS {
        return false;
    }
    let mut written: HashMap<i64, usize> = HashMap::new();
    for i in 0..count {
        for w in &ws {
            let Some(p) = value(w, var, i as i64, &d, 0) else {
                return false;
            };
            if written.insert(p, i).is_some() {
                return false; // WAW
            }
        }
    }
    for i in 0..count {
        for e in &uses.reads {
            let Some(p) = value(e, var, i as i64, &d, 0) else {
                return false;
            };
            if written.get(&p).is_some_and(|&at| at >= i) {
                return false; // WAR
            }
        }
    }
    true
}

/// How many statements of `b` (nested bodies included) and result atoms mention `x`.
fn count_uses(b: &Body, x: &Name) -> usize {
    let mut n = 0;
    for st in &b.stmts {
        n += match &st.rhs {
            Rhs::Flat(e) | Rhs::Soac(e) => usize::from(free_vars(e).contains(x)),
            Rhs::If { cond, then_, else_ } => {
                usize::from(free_vars(cond).contains(x))
                    + count_uses(then_, x)
                    + count_uses(else_, x)
            }
            Rhs::Map { body, args, .. } => {
                args.iter().filter(|a| free_vars(a).contains(x)).count() + count_uses(body, x)
            }
            Rhs::Loop { init, body, .. } => {
                usize::from(free_vars(init).contains(x)) + count_uses(body, x)
            }
        };
    }
    n + usize::from(free_vars(&b.result).contains(x))
}
