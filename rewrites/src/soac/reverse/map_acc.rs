//! The accumulators of a `map`'s free arrays (seed 004 *AD for an Array Language with
//! Nested Parallelism* §5.4): a free array `xs` of real scalars that the lambda reads only
//! by indexing — at the lambda's top level or inside the bodies of `map`s and `if`s nested
//! in it, never as a whole, in a `loop` or in an operator lambda — is an *accumulator*
//! while the `map`'s return sweep runs. Its adjoint is then a list of (index, value)
//! updates (§5.4: "semantically, accumulators are lists of index/value pairs"), kept as
//! [`Batch`]es in `Rev::accs` and added to `xs̄` once, after the outermost such `map`, by
//! `reduce_by_index(xs̄, +, 0, is, vs)`: adjoint work proportional to the accesses, not
//! to the array.
//!
//! | rule | statement | our notation | paper | status |
//! |---|---|---|---|---|
//! | `acc/eligible` | which free arrays are accumulators | `xs` read only by `y = xs[i…]` (indices free of `xs`) in the lambda's body and in its nested `map` and `if` bodies ([`indexed_only`]) | §5.4 | paper (the nested bodies: §5.4 "arrays of accumulators") |
//! | `acc/access` | `y = xs[i…]` with `xs` an accumulator | the batch `([real(ι)], [ȳ])` of one update, `ι = i` for one index, `i · m + j` (or `-1` when a component is out of bounds) for `xs[i, j]` ([`Rev::push_site`]) | §5.4, §4.2 | paper (indices carried as reals: our decision) |
//! | `acc/map` | a `map` whose body updates an accumulator (`super::map`) | the updates of one element, per rank, concatenated by `append` and returned by the reversed lambda; after the `map`, the columns `[n, k]` and `[n, k, …]` reshaped to one batch of `n · k` updates | §5.4 ("we treat xs as an array of accumulators when passed to map") | paper |
//! | `acc/if` | an `if` whose branches update an accumulator (`super::acc_if`) | each branch returns the updates of both branches' layout, `-1` (dropped) and zeros in the other branch's places | §5.4, §6.3 | our decision (static shapes) |
//! | `acc/reduce` | updates with indices invariant to the `map` (`super::acc_reduce`) | the values summed over the `map` by `reduce(+)`, the indices of one element | §6.1 | paper |
//! | `acc/release` | after the outermost `map` reading `xs` | `xs̄ = reduce_by_index(xs̄, +, 0, floor(is), vs)`, through a reshape to one outer dimension for multi-index accesses ([`Rev::release`]) | §5.4 | paper |
//!
//! Any other use of the array falls back to the whole-array adjoint per element, summed
//! by `reduce(+)` (`super::map`).

use super::build::{bin, int, prim, zeros, Block, Rev};
use super::flat::shape;
use super::ir::{mk, rhs_free, Body, Rhs};
use adora_core::ast::{BinOp, Expr, ExprKind, Name, Op, Pat, Prim};
use adora_core::diag::Result;
use adora_core::types::{Base, Type};
use adora_core::visit::free_vars;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// A batch of `k` updates of an accumulator through accesses with `rank` indices.
#[derive(Clone, Debug)]
pub struct Batch {
    /// The number of indices of the accesses.
    pub rank: usize,
    /// The linearised indices as reals, `R[k]` (`-1` for an update that is dropped).
    pub is: Expr,
    /// The values, `R[k] ++ shape[rank..]`.
    pub vs: Expr,
    /// The number of updates.
    pub k: usize,
    /// The statement names the indices depend on (index atoms, `if` conditions).
    pub deps: BTreeSet<Name>,
}

/// Whether the free array `f` is read only by indexing in `body` and in the bodies of
/// the `map`s and `if`s nested in it (`acc/eligible`).
pub fn indexed_only(body: &Body, f: &Name) -> bool {
    for st in &body.stmts {
        match &st.rhs {
            Rhs::Flat(e) => {
                if let (Pat::Var(_), ExprKind::Index(x, is)) = (&st.pat, &e.kind) {
                    if matches!(&x.kind, ExprKind::Var(v) if v == f) {
                        if is.iter().any(|i| free_vars(i).contains(f)) {
                            return false;
                        }
                        continue;
                    }
                }
                if free_vars(e).contains(f) {
                    return false;
                }
            }
            Rhs::Map { body: b, args, .. } => {
                if args.iter().any(|a| free_vars(a).contains(f)) || !indexed_only(b, f) {
                    return false;
                }
            }
            Rhs::If { cond, then_, else_ } => {
                if free_vars(cond).contains(f) || !indexed_only(then_, f) || !indexed_only(else_, f)
                {
                    return false;
                }
            }
            Rhs::Loop { .. } | Rhs::Soac(_) => {
                if rhs_free(&st.rhs).contains(f) {
                    return false;
                }
            }
        }
    }
    !free_vars(&body.result).contains(f)
}

/// Adds to `vary` the names of `body` (nested bodies included) whose values may depend
/// on a name already in `vary` (loop accumulators always, conservatively).
pub fn variant(body: &Body, vary: &mut HashSet<Name>) {
    for st in &body.stmts {
        match &st.rhs {
            Rhs::Map {
                params,
                body: b,
                args,
                ..
            } => {
                for (p, a) in params.iter().zip(args) {
                    if free_vars(a).iter().any(|v| vary.contains(v)) {
                        vary.insert(p.clone());
                    }
                }
                variant(b, vary);
            }
            Rhs::If { then_, else_, .. } => {
                variant(then_, vary);
                variant(else_, vary);
            }
            Rhs::Loop { acc, body: b, .. } => {
                vary.extend(acc.iter().cloned());
                variant(b, vary);
            }
            Rhs::Flat(_) | Rhs::Soac(_) => {}
        }
        if rhs_free(&st.rhs).iter().any(|v| vary.contains(v)) {
            vary.extend(adora_core::visit::pat_names(&st.pat).into_iter().cloned());
        }
    }
}

impl Rev {
    /// `acc/access`: the update of `y = f[is…]` (`is` in this copy's names, `deps` the
    /// statement names of the indices) by the final adjoint `g` of `y`.
    pub fn push_site(
        &mut self,
        f: &Name,
        is: &[Expr],
        g: Expr,
        deps: BTreeSet<Name>,
        out: &mut Block,
    ) -> Result<()> {
        let s = shape(&self.ty(f)?)?;
        let rank = is.len();
        let rest: Vec<usize> = s[rank..].to_vec();
        let idx = if rank == 1 {
            is[0].clone()
        } else {
            let mut ok: Option<Expr> = None;
            let mut lin: Option<Expr> = None;
            for (i, m) in is.iter().zip(&s) {
                let c = bin(
                    BinOp::And,
                    bin(BinOp::Le, int(0), i.clone()),
                    bin(BinOp::Lt, i.clone(), int(*m as i64)),
                );
                ok = Some(match ok {
                    None => c,
                    Some(o) => bin(BinOp::And, o, c),
                });
                lin = Some(match lin {
                    None => i.clone(),
                    Some(l) => bin(BinOp::Add, bin(BinOp::Mul, l, int(*m as i64)), i.clone()),
                });
            }
            let ok = self.bind("ok", &Type::bool(), ok.expect("a site has indices"), out);
            let lin = self.bind("lin", &Type::int(), lin.expect("a site has indices"), out);
            let sel = prim(Prim::Select, vec![ok, lin, int(-1)]);
            self.bind("at", &Type::int(), sel, out)
        };
        let at = self.bind("at", &Type::real(), prim(Prim::Real, vec![idx]), out);
        let is1 = mk(ExprKind::Array(vec![at]));
        let is1 = self.bind("at", &Type::Array(Base::R, vec![1]), is1, out);
        let vty = Type::Array(Base::R, std::iter::once(1).chain(rest).collect());
        let vs1 = self.bind("upd", &vty, mk(ExprKind::Array(vec![g])), out);
        self.accs.entry(f.clone()).or_default().push(Batch {
            rank,
            is: is1,
            vs: vs1,
            k: 1,
            deps,
        });
        Ok(())
    }

    /// The batches `bs` of `f` joined into one per rank (in rank order) by `append`.
    pub fn join_batches(
        &mut self,
        f: &Name,
        bs: Vec<Batch>,
        out: &mut Block,
    ) -> Result<Vec<Batch>> {
        let s = shape(&self.ty(f)?)?;
        let mut by_rank: BTreeMap<usize, Vec<Batch>> = BTreeMap::new();
        for b in bs {
            by_rank.entry(b.rank).or_default().push(b);
        }
        let mut res = Vec::new();
        for (rank, group) in by_rank {
            let mut it = group.into_iter();
            let mut acc = it.next().expect("a group has a batch");
            for b in it {
                let k = acc.k + b.k;
                let ity = Type::Array(Base::R, vec![k]);
                let vty = Type::Array(
                    Base::R,
                    std::iter::once(k)
                        .chain(s[rank..].iter().copied())
                        .collect(),
                );
                let is = prim(Prim::Append, vec![acc.is, b.is]);
                let vs = prim(Prim::Append, vec![acc.vs, b.vs]);
                acc.is = self.bind("is", &ity, is, out);
                acc.vs = self.bind("vs", &vty, vs, out);
                acc.k = k;
                acc.deps.extend(b.deps);
            }
            res.push(acc);
        }
        Ok(res)
    }

    /// `acc/release`: `f̄ = reduce_by_index(old, +, 0, floor(b.is), b.vs)` (the new
    /// adjoint's atom), through a reshape to one outer dimension for multi-index accesses.
    pub fn release(&mut self, f: &Name, old: Expr, b: &Batch, out: &mut Block) -> Result<Expr> {
        let aty = self.ty(f)?;
        let s = shape(&aty)?;
        let is = prim(Prim::Floor, vec![b.is.clone()]);
        let is = self.bind("is", &Type::Array(Base::Z, vec![b.k]), is, out);
        let rest: Vec<usize> = s[b.rank..].to_vec();
        let outer: usize = s[..b.rank].iter().product();
        let flat_sh: Vec<usize> = std::iter::once(outer).chain(rest.iter().copied()).collect();
        let dest = if b.rank == 1 {
            old
        } else {
            let r = prim(Prim::Reshape(flat_sh.clone()), vec![old]);
            self.bind("flat", &Type::Array(Base::R, flat_sh.clone()), r, out)
        };
        let h = mk(ExprKind::ReduceByIndex {
            dest: Box::new(dest),
            op: Op::Add,
            ne: Box::new(zeros(&Type::Array(Base::R, rest))),
            is: Box::new(is),
            vs: Box::new(b.vs.clone()),
        });
        let h = self.bind("acc", &Type::Array(Base::R, flat_sh), h, out);
        Ok(if b.rank == 1 {
            h
        } else {
            let r = prim(Prim::Reshape(s), vec![h]);
            self.bind("acc", &aty, r, out)
        })
    }

    /// The shape of the values of `f`'s updates through `rank` indices.
    pub fn rest_of(&self, f: &Name, rank: usize) -> Result<Vec<usize>> {
        Ok(shape(&self.ty(f)?)?[rank..].to_vec())
    }
}
