//! Invariant transcendental subexpressions tabulated (docs/backend.md, "Tables"). A
//! kernel body evaluates each subexpression once per point of its space and per iteration
//! of the folds around it; a subexpression that reads fewer index variables than that —
//! `exp(icf[k, j])` inside a `map` over GMM's `[n, k]` points and a fold over `j` — repeats
//! the same values `n` times. When such a subexpression holds a transcendental operation
//! (`exp log sin cos tanh sqrt`) or a fold, and its table — one element per value of the
//! index variables it reads — is at most a quarter of its evaluations, a `map` kernel
//! computes the table first and the body reads it:
//!
//! | subexpression `e` (maximal)                                  | becomes                       |
//! |--------------------------------------------------------------|-------------------------------|
//! | free variables all index variables `u…` of the kernel or of  | `T[u…]`, `T = map [u…] = e`   |
//! |   enclosing folds (no accumulator, `let`, loop counter),     |   emitted before the kernel   |
//! |   a transcendental or a fold inside, `|T| · 4 <= evaluations` |                               |
//!
//! The table holds the same doubles the body would compute (the same operations on the
//! same operands), so the result is unchanged bit for bit.

use super::arr::Ids;
use super::sx::{Sx, VarId};
use std::collections::BTreeSet;

/// A table to compute: its index variables (in increasing order), their extents and
/// the element.
pub(crate) struct Table {
    /// The index variables of the table, one per dimension.
    pub vars: Vec<VarId>,
    /// The table's shape.
    pub shape: Vec<usize>,
    /// The element.
    pub body: Sx,
}

/// Whether `s` holds a transcendental operation or a fold.
fn costly(s: &Sx) -> bool {
    s.has_fold() || s.has_transcendental()
}

/// The free variables of `s` (variables bound inside `s` excluded).
fn free(s: &Sx, bound: &mut Vec<VarId>, out: &mut BTreeSet<VarId>) {
    match s {
        Sx::Var(v) if !bound.contains(v) => {
            out.insert(*v);
        }
        Sx::Const(_) | Sx::Var(_) => {}
        Sx::Load(_, _, ix) => ix.iter().for_each(|i| free(i, bound, out)),
        Sx::Un(_, a) => free(a, bound, out),
        Sx::Bin(_, a, b) => {
            free(a, bound, out);
            free(b, bound, out);
        }
        Sx::Select(c, a, b) => {
            free(c, bound, out);
            free(a, bound, out);
            free(b, bound, out);
        }
        Sx::Let(v, a, b) => {
            free(a, bound, out);
            bound.push(*v);
            free(b, bound, out);
            bound.pop();
        }
        Sx::Fold {
            var,
            acc,
            init,
            body,
            ..
        } => {
            free(init, bound, out);
            bound.extend([*var, *acc]);
            free(body, bound, out);
            bound.truncate(bound.len() - 2);
        }
    }
}

/// The walk's state: the ranges of the variables a table may be indexed by (the
/// kernel's and the enclosing folds' index variables; `let`-bound and accumulator
/// variables are absent), the evaluations of the current node, and the tables found.
struct Walk<'i> {
    ids: &'i Ids,
    ranged: Vec<(VarId, usize)>,
    tables: Vec<Table>,
}

/// The placeholder buffer id of the `k`-th table, until the caller gives it a buffer.
pub(crate) fn placeholder(k: usize) -> usize {
    usize::MAX - k
}

impl Walk<'_> {
    /// Replaces maximal tabulable subexpressions of `s`, evaluated `evals` times.
    fn walk(&mut self, s: &mut Sx, evals: usize) {
        // Nothing below a node without a transcendental or a fold is tabulated: one test
        // here spares the walk (and `table`'s free variables) the whole subtree.
        if !costly(s) {
            return;
        }
        if let Some(t) = self.table(s, evals) {
            // The same element twice (`e * e` before its operands are shared) is one table.
            let k = match self
                .tables
                .iter()
                .position(|u| u.vars == t.vars && u.body == t.body)
            {
                Some(k) => k,
                None => {
                    self.tables.push(t);
                    self.tables.len() - 1
                }
            };
            let u = &self.tables[k];
            *s = Sx::Load(
                placeholder(k),
                u.shape.clone(),
                u.vars.iter().map(|&v| Sx::Var(v)).collect(),
            );
            return;
        }
        match s {
            Sx::Const(_) | Sx::Var(_) => {}
            Sx::Load(_, _, ix) => ix.iter_mut().for_each(|i| self.walk(i, evals)),
            Sx::Un(_, a) => self.walk(a, evals),
            Sx::Bin(_, a, b) => {
                self.walk(a, evals);
                self.walk(b, evals);
            }
            Sx::Select(c, a, b) => {
                self.walk(c, evals);
                self.walk(a, evals);
                self.walk(b, evals);
            }
            Sx::Let(v, a, b) => {
                self.walk(a, evals);
                // The `let`-bound variable shadows any range it had.
                let saved = self.ranged.clone();
                self.ranged.retain(|(w, _)| w != v);
                self.walk(b, evals);
                self.ranged = saved;
            }
            Sx::Fold {
                var,
                count,
                acc,
                init,
                body,
            } => {
                self.walk(init, evals);
                let saved = self.ranged.clone();
                self.ranged.retain(|(w, _)| w != var && w != acc);
                if self.ids.range.get(var) == Some(count) {
                    self.ranged.push((*var, *count));
                }
                self.walk(body, evals.saturating_mul(*count));
                self.ranged = saved;
            }
        }
    }

    /// The table of `s`, if it should have one.
    fn table(&self, s: &Sx, evals: usize) -> Option<Table> {
        // `walk` calls it only on nodes holding a transcendental or a fold.
        if matches!(s, Sx::Const(_) | Sx::Var(_) | Sx::Load(..)) {
            return None;
        }
        let mut fv = BTreeSet::new();
        free(s, &mut Vec::new(), &mut fv);
        let mut shape = Vec::new();
        for v in &fv {
            let (_, n) = self.ranged.iter().find(|(w, _)| w == v)?;
            shape.push(*n);
        }
        let size: usize = shape.iter().product();
        if size.saturating_mul(4) > evals {
            return None;
        }
        Some(Table {
            vars: fv.into_iter().collect(),
            shape,
            body: s.clone(),
        })
    }
}

/// The tables of a kernel body over the index variables `space` (each ranged in `ids`),
/// evaluated `points` times; the body reads the `k`-th returned table as buffer
/// [`placeholder`]`(k)`, for the caller to replace by the table's buffer.
pub(crate) fn tabulate(ids: &Ids, space: &[VarId], points: usize, body: &mut Sx) -> Vec<Table> {
    let mut w = Walk {
        ids,
        ranged: space
            .iter()
            .filter_map(|v| ids.range.get(v).map(|&n| (*v, n)))
            .collect(),
        tables: Vec::new(),
    };
    w.walk(body, points);
    w.tables
}
