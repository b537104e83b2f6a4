//! The vjp of a body (seed 004 *AD for an Array Language with Nested Parallelism* §4,
//! Fig. 3): its forward sweep (the statements as they are, loops checkpointing their
//! accumulator, §4.3), then the return sweep of its statements in reverse order, each
//! statement's rule run once the adjoint of what it binds is final (every use of a name
//! comes after its binding, so in reverse order all contributions to it have been added
//! before its own statement is reached). The result: the body's value and the adjoints
//! of the names asked for (the free variables of the body, or a lambda's parameters).

use super::build::{Adj, Block, Rev};
use super::ir::{Body, Rhs, St};
use adora_core::ast::{Name, Pat};
use adora_core::diag::Result;
use adora_core::types::Type;
use std::collections::HashMap;

/// Adjoints of statement names during a return sweep.
pub type Adjoints = HashMap<Name, Adj>;

impl Rev {
    /// The vjp of `b` for the result adjoint `ybar`, emitted into `out`: the value's atom
    /// and the adjoints of `wanted`.
    pub fn vjp_body(
        &mut self,
        b: &Body,
        ybar: Adj,
        wanted: &[Name],
        out: &mut Block,
    ) -> Result<(adora_core::ast::Expr, Vec<Adj>)> {
        self.vjp_body_from(b, ybar, wanted, Vec::new(), out)
    }

    /// [`vjp_body`](Self::vjp_body) with the adjoints of some free variables of `b`
    /// starting from `seeds` instead of zero: the body's contributions are added to them
    /// (a loop's carried adjoint of a free array, updated in place by `rev/index`).
    pub fn vjp_body_from(
        &mut self,
        b: &Body,
        ybar: Adj,
        wanted: &[Name],
        seeds: Vec<(Name, Adj)>,
        out: &mut Block,
    ) -> Result<(adora_core::ast::Expr, Vec<Adj>)> {
        self.begin_copy(&b.label);
        for st in &b.stmts {
            match &st.rhs {
                Rhs::Loop { .. } => self.emit_checkpointing_loop(st, out)?,
                _ => self.emit_stmt(st, out)?,
            }
        }
        self.end_copy();
        let result = self.sub(&b.result);
        let mut adj: Adjoints = seeds.into_iter().collect();
        self.accumulate(&mut adj, &b.result, ybar, out)?;
        for st in b.stmts.iter().rev() {
            let ybar = self.pat_adj(&mut adj, st);
            if ybar.is_zero() {
                continue;
            }
            self.reverse_stmt(st, ybar, &mut adj, out)?;
        }
        let outs = wanted
            .iter()
            .map(|w| adj.remove(w).unwrap_or(Adj::Zero))
            .collect();
        // `rev/final-before-use`: every name this body binds had its adjoint read by its
        // statement's rule; a contribution left over came after that read.
        for st in &b.stmts {
            for x in adora_core::visit::pat_names(&st.pat) {
                if adj.contains_key(x) {
                    self.late.push(x.clone());
                }
            }
        }
        Ok((result, outs))
    }

    /// The (final) adjoint of what `st` binds, taken out of `adj`.
    fn pat_adj(&mut self, adj: &mut Adjoints, st: &St) -> Adj {
        match &st.pat {
            Pat::Var(x) => adj.remove(x).unwrap_or(Adj::Zero),
            Pat::Tuple(xs) => {
                let cs: Vec<Adj> = xs
                    .iter()
                    .map(|x| adj.remove(x).unwrap_or(Adj::Zero))
                    .collect();
                if cs.iter().all(Adj::is_zero) {
                    Adj::Zero
                } else {
                    Adj::Tuple(cs)
                }
            }
        }
    }

    /// The return sweep of one statement: one dispatch point per construct.
    fn reverse_stmt(
        &mut self,
        st: &St,
        ybar: Adj,
        adj: &mut Adjoints,
        out: &mut Block,
    ) -> Result<()> {
        match &st.rhs {
            Rhs::Flat(e) => self.reverse_flat(st, e, ybar, adj, out),
            Rhs::If { cond, then_, else_ } if self.if_updates_accumulators(then_, else_) => {
                self.reverse_if_acc(st, cond, then_, else_, ybar, adj, out)
            }
            Rhs::If { cond, then_, else_ } => {
                self.reverse_if(st, cond, then_, else_, ybar, adj, out)
            }
            Rhs::Map {
                params,
                tys,
                body,
                args,
            } => self.reverse_map(st, params, tys, body, args, ybar, adj, out),
            Rhs::Loop { .. } => self.reverse_loop(st, ybar, adj, out),
            Rhs::Soac(e) => self.soac_rule(st, e, ybar, adj, out),
        }
    }

    /// [`vjp_body`](Self::vjp_body) of a nested body: its forward sweep is a
    /// re-execution (`droppable`: dead-code elimination may remove its unread
    /// statements; loops keep theirs, §4.3).
    pub fn vjp_nested(
        &mut self,
        b: &Body,
        ybar: Adj,
        wanted: &[Name],
        droppable: bool,
        out: &mut Block,
    ) -> Result<(adora_core::ast::Expr, Vec<Adj>)> {
        self.vjp_nested_from(b, ybar, wanted, Vec::new(), droppable, out)
    }

    /// [`vjp_nested`](Self::vjp_nested) from seeded adjoints
    /// ([`vjp_body_from`](Self::vjp_body_from)).
    pub fn vjp_nested_from(
        &mut self,
        b: &Body,
        ybar: Adj,
        wanted: &[Name],
        seeds: Vec<(Name, Adj)>,
        droppable: bool,
        out: &mut Block,
    ) -> Result<(adora_core::ast::Expr, Vec<Adj>)> {
        let saved = std::mem::replace(&mut self.reexec, droppable);
        let r = self.vjp_body_from(b, ybar, wanted, seeds, out);
        self.reexec = saved;
        r
    }

    /// The names of `names` whose types have reals.
    pub fn with_reals(&self, names: impl IntoIterator<Item = Name>) -> Result<Vec<Name>> {
        let mut out = Vec::new();
        for n in names {
            if self.ty(&n)?.has_reals() {
                out.push(n);
            }
        }
        Ok(out)
    }

    /// The types of `names`.
    pub fn types_of(&self, names: &[Name]) -> Result<Vec<Type>> {
        names.iter().map(|n| self.ty(n)).collect()
    }
}
