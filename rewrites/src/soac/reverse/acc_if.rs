//! The return sweep of an `if` whose branches update accumulators (seed 004 *AD for an
//! Array Language with Nested Parallelism* §5.4, §6.3; rule `acc/if` of
//! `super::map_acc`). As `rev/if` (`super::control`), both branches are differentiated
//! and the taken one runs, returning the adjoints of the free variables of both branches;
//! in addition each branch returns, per accumulator and rank, the updates of a layout
//! common to both (our decision: shapes are static): the `then` branch's updates
//! followed by the `else` branch's, each branch filling the other's places with the
//! dropped index `-1` and zero values. The updates are then one batch of the enclosing
//! scope, depending on the condition.

use super::build::{fill, real, wrap, zeros, Adj, Block, Rev};
use super::ir::{free_of, mk, var, Body, St};
use super::map_acc::Batch;
use super::sweep::Adjoints;
use adora_core::ast::{Expr, ExprKind, Name, Pat, Prim};
use adora_core::diag::Result;
use adora_core::types::{Base, Type};
use adora_core::visit::free_vars;
use std::collections::BTreeMap;

/// Per (accumulator, rank): the updates of one branch.
type Updates = BTreeMap<(Name, usize), Batch>;

impl Rev {
    /// Whether the `if`'s branches read an accumulator of the `map`s being reversed.
    pub fn if_updates_accumulators(&self, a: &Body, b: &Body) -> bool {
        free_of(a)
            .iter()
            .chain(free_of(b).iter())
            .any(|x| self.accs.contains_key(x))
    }

    /// The return sweep of `st: y = if cond then a else b` when its branches update
    /// accumulators (module documentation).
    #[allow(clippy::too_many_arguments)]
    pub fn reverse_if_acc(
        &mut self,
        st: &St,
        cond: &Expr,
        a: &Body,
        b: &Body,
        ybar: Adj,
        adj: &mut Adjoints,
        out: &mut Block,
    ) -> Result<()> {
        let mut free = free_of(a);
        free.extend(free_of(b));
        let accd: Vec<Name> = free
            .iter()
            .filter(|x| self.accs.contains_key(*x))
            .cloned()
            .collect();
        let wanted: Vec<Name> = self
            .with_reals(free)?
            .into_iter()
            .filter(|x| !accd.contains(x))
            .collect();
        let tys = self.types_of(&wanted)?;
        let g = self.materialize(&ybar, &st.ty, out)?;
        let c = self.sub(cond);
        let mut branches = Vec::new();
        for body in [a, b] {
            let saved: Vec<_> = accd
                .iter()
                .map(|f| (f.clone(), self.accs.insert(f.clone(), Vec::new())))
                .collect();
            let mut blk = Vec::new();
            let (_, adjs) = self.vjp_nested(body, Adj::Atom(g.clone()), &wanted, true, &mut blk)?;
            let mut cs = Vec::new();
            for (x, t) in adjs.iter().zip(&tys) {
                cs.push(self.materialize(x, t, &mut blk)?);
            }
            let mut ups = Updates::new();
            for f in &accd {
                let bs = self.accs.remove(f).unwrap_or_default();
                for bt in self.join_batches(f, bs, &mut blk)? {
                    ups.insert((f.clone(), bt.rank), bt);
                }
            }
            for (f, s) in saved {
                if let Some(s) = s {
                    self.accs.insert(f, s);
                }
            }
            branches.push((blk, cs, ups));
        }
        let (eb_blk, eb_cs, eb_ups) = branches.pop().expect("two branches");
        let (ta_blk, ta_cs, ta_ups) = branches.pop().expect("two branches");
        let mut keys: Vec<(Name, usize)> = ta_ups.keys().cloned().collect();
        keys.extend(eb_ups.keys().filter(|k| !ta_ups.contains_key(*k)).cloned());
        keys.sort();
        let mut laid = Vec::new();
        for (blk, mut cs, ups, first) in [
            (ta_blk, ta_cs, &ta_ups, true),
            (eb_blk, eb_cs, &eb_ups, false),
        ] {
            let mut blk = blk;
            for key in &keys {
                let (k1, k2) = (count(&ta_ups, key), count(&eb_ups, key));
                let (is, vs) =
                    self.laid_out(key, ups.get(key), k1 + k2, first, k1, k2, &mut blk)?;
                cs.push(is);
                cs.push(vs);
            }
            laid.push(wrap(blk, tuple_of(cs)));
        }
        let eb = laid.pop().expect("two branches");
        let ea = laid.pop().expect("two branches");
        let mut names = Vec::new();
        for (w, t) in wanted.iter().zip(&tys) {
            let n = self.fresh(&format!("{w}_bar"));
            self.types.insert(n.clone(), t.clone());
            names.push(n);
        }
        let mut upd_names = Vec::new();
        for key in &keys {
            let k = count(&ta_ups, key) + count(&eb_ups, key);
            let rest = self.rest_of(&key.0, key.1)?;
            let i = self.fresh("is");
            self.types.insert(i.clone(), Type::Array(Base::R, vec![k]));
            let v = self.fresh("vs");
            let vty = Type::Array(Base::R, std::iter::once(k).chain(rest).collect());
            self.types.insert(v.clone(), vty);
            upd_names.push((i, v, k));
        }
        if names.is_empty() && upd_names.is_empty() {
            return Ok(());
        }
        let mut all = names.clone();
        for (i, v, _) in &upd_names {
            all.push(i.clone());
            all.push(v.clone());
        }
        let pat = if all.len() == 1 {
            Pat::Var(all[0].clone())
        } else {
            Pat::Tuple(all)
        };
        let e = mk(ExprKind::If(Box::new(c), Box::new(ea), Box::new(eb)));
        out.push((pat, e));
        for (w, n) in wanted.iter().zip(&names) {
            self.accumulate(adj, &var(w), Adj::Atom(var(n)), out)?;
        }
        for (key, (i, v, k)) in keys.iter().zip(upd_names) {
            let mut deps = free_vars(cond);
            for ups in [&ta_ups, &eb_ups] {
                if let Some(bt) = ups.get(key) {
                    deps.extend(bt.deps.iter().cloned());
                }
            }
            self.accs.entry(key.0.clone()).or_default().push(Batch {
                rank: key.1,
                is: var(&i),
                vs: var(&v),
                k,
                deps,
            });
        }
        Ok(())
    }

    /// One branch's updates of `key` in the common layout of `k` places: its own
    /// (`first`: the `then` branch's `k1` first, else the `else` branch's `k2` last),
    /// `-1` and zeros elsewhere.
    #[allow(clippy::too_many_arguments)]
    fn laid_out(
        &mut self,
        key: &(Name, usize),
        own: Option<&Batch>,
        k: usize,
        first: bool,
        k1: usize,
        k2: usize,
        blk: &mut Block,
    ) -> Result<(Expr, Expr)> {
        let rest = self.rest_of(&key.0, key.1)?;
        let vty = |m: usize| {
            Type::Array(
                Base::R,
                std::iter::once(m).chain(rest.iter().copied()).collect(),
            )
        };
        let other = if first { k2 } else { k1 };
        let Some(bt) = own else {
            let is = self.bind(
                "is",
                &Type::Array(Base::R, vec![k]),
                fill(&[k], real(-1)),
                blk,
            );
            let vs = self.bind("vs", &vty(k), zeros(&vty(k)), blk);
            return Ok((is, vs));
        };
        if other == 0 {
            return Ok((bt.is.clone(), bt.vs.clone()));
        }
        let pad_i = self.bind(
            "pad",
            &Type::Array(Base::R, vec![other]),
            fill(&[other], real(-1)),
            blk,
        );
        let pad_v = self.bind("pad", &vty(other), zeros(&vty(other)), blk);
        let (is, vs) = if first {
            (
                super::build::prim(Prim::Append, vec![bt.is.clone(), pad_i]),
                super::build::prim(Prim::Append, vec![bt.vs.clone(), pad_v]),
            )
        } else {
            (
                super::build::prim(Prim::Append, vec![pad_i, bt.is.clone()]),
                super::build::prim(Prim::Append, vec![pad_v, bt.vs.clone()]),
            )
        };
        let is = self.bind("is", &Type::Array(Base::R, vec![k]), is, blk);
        let vs = self.bind("vs", &vty(k), vs, blk);
        Ok((is, vs))
    }
}

fn count(ups: &Updates, key: &(Name, usize)) -> usize {
    ups.get(key).map_or(0, |b| b.k)
}

fn tuple_of(mut es: Vec<Expr>) -> Expr {
    if es.len() == 1 {
        es.remove(0)
    } else {
        mk(ExprKind::Tuple(es))
    }
}
