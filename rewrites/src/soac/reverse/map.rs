//! Return-sweep rule of `map` (seed 004 *AD for an Array Language with Nested
//! Parallelism* §5.4): the reversed lambda mapped over the arguments and the result's
//! adjoint, `map((x…, ȳ) => vjp(body), xs…, ȳs)`, each application re-executing the
//! lambda's forward sweep. It returns the adjoints of the parameters (the arguments'
//! contributions, row by row) and of the lambda's free variables with reals: a free
//! variable's per-element contributions are summed by `reduce(+)` — the
//! accumulator-to-`reduce` transformation of §6.1.
//!
//! Our decision: a `map` body has one array result in the core language (tuple-valued
//! bodies are not part of it, docs/language.md), so when the reversed lambda has several
//! adjoints (or a tuple one), each element's adjoints are packed into one vector — each
//! real leaf flattened (`reshape`, or `[a]` for a scalar) and joined by `append` — and
//! unpacked after the `map` by `gather` and `reshape`: work linear in the adjoints' size.

use super::acc_reduce::Columns;
use super::build::{bin, int, prim, wrap, zeros, Adj, Block, Rev};
use super::flat::shape;
use super::ir::{free_of, mk, var, Body, St};
use super::map_acc::{indexed_only, variant, Batch};
use super::sweep::Adjoints;
use adora_core::ast::{BinOp, Expr, ExprKind, Lambda, Name, Op, Prim};
use adora_core::diag::Result;
use adora_core::types::{Base, Type};
use std::collections::HashSet;

/// The real leaves of `ty`: projection path and shape.
fn leaves(ty: &Type, path: &mut Vec<usize>, out: &mut Vec<(Vec<usize>, Vec<usize>)>) {
    match ty {
        Type::Array(Base::R, s) => out.push((path.clone(), s.clone())),
        Type::Array(..) => {}
        Type::Tuple(ts) => {
            for (k, t) in ts.iter().enumerate() {
                path.push(k);
                leaves(t, path, out);
                path.pop();
            }
        }
    }
}

fn at_path(e: &Expr, path: &[usize]) -> Expr {
    path.iter()
        .fold(e.clone(), |acc, &k| mk(ExprKind::Proj(Box::new(acc), k)))
}

/// `(i, j) => [i, j + off]`-style gather of columns `off … off+len` of `m: R[n, S]`.
fn columns(rev: &mut Rev, m: &Expr, n: usize, off: usize, sh: &[usize]) -> Expr {
    let i = rev.fresh("i");
    if sh.is_empty() {
        return mk(ExprKind::Gather(
            vec![n],
            Box::new(m.clone()),
            vec![i.clone()],
            vec![var(&i), int(off as i64)],
        ));
    }
    let j = rev.fresh("j");
    let len: usize = sh.iter().product();
    let g = mk(ExprKind::Gather(
        vec![n, len],
        Box::new(m.clone()),
        vec![i.clone(), j.clone()],
        vec![var(&i), bin(BinOp::Add, var(&j), int(off as i64))],
    ));
    if sh.len() == 1 {
        return g;
    }
    let full: Vec<usize> = std::iter::once(n).chain(sh.iter().copied()).collect();
    prim(Prim::Reshape(full), vec![g])
}

/// `[n] ++ ty`.
fn stacked(n: usize, ty: &Type) -> Type {
    match ty {
        Type::Array(b, s) => Type::Array(*b, std::iter::once(n).chain(s.iter().copied()).collect()),
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| stacked(n, t)).collect()),
    }
}

impl Rev {
    /// The return sweep of `st: y = map((params…) => body, args…)`.
    #[allow(clippy::too_many_arguments)]
    pub fn reverse_map(
        &mut self,
        st: &St,
        params: &[Name],
        tys: &[Type],
        body: &Body,
        args: &[Expr],
        ybar: Adj,
        adj: &mut Adjoints,
        out: &mut Block,
    ) -> Result<()> {
        let n = shape(&st.ty)?[0];
        let mut outs: Vec<Name> = Vec::new();
        let mut param_of = Vec::new();
        for (k, (p, t)) in params.iter().zip(tys).enumerate() {
            let real_arg = matches!(&args[k].kind, ExprKind::Var(_)) && t.has_reals();
            if real_arg {
                outs.push(p.clone());
                param_of.push(Some(k));
            }
        }
        let free: Vec<Name> = free_of(body)
            .into_iter()
            .filter(|x| !params.contains(x))
            .collect();
        // Accumulators (`super::map_acc`): carried when an enclosing `map` made them
        // accumulators already, owned (released after this `map`) otherwise.
        let mut accd: Vec<Name> = Vec::new();
        for f in self.with_reals(free)? {
            let fty = self.ty(&f)?;
            let array = matches!(&fty, Type::Array(Base::R, s) if !s.is_empty());
            if self.accs.contains_key(&f) {
                if !indexed_only(body, &f) {
                    return Err(super::ir::internal(format!(
                        "the accumulator `{f}` is used otherwise than by indexing in a nested map"
                    )));
                }
                accd.push(f);
            } else if array && indexed_only(body, &f) {
                accd.push(f);
            } else {
                outs.push(f);
                param_of.push(None);
            }
        }
        if outs.is_empty() && accd.is_empty() {
            return Ok(());
        }
        let mut out_tys = self.types_of(&outs)?;
        let saved: Vec<(Name, Option<Vec<Batch>>)> = accd
            .iter()
            .map(|f| (f.clone(), self.accs.insert(f.clone(), Vec::new())))
            .collect();
        let g = self.materialize(&ybar, &st.ty, out)?;
        let args2: Vec<Expr> = args.iter().map(|a| self.sub(a)).collect();
        // The reversed lambda.
        let ps: Vec<Name> = params
            .iter()
            .zip(tys)
            .map(|(p, t)| self.claim(p, t))
            .collect();
        let gty = Type::Array(Base::R, shape(&st.ty)?[1..].to_vec());
        let ge = self.fresh("ybar");
        self.types.insert(ge.clone(), gty);
        let mut blk = Vec::new();
        let (_, adjs) = self.vjp_nested(body, Adj::Atom(var(&ge)), &outs, true, &mut blk)?;
        let mut mats = Vec::new();
        for (a, t) in adjs.iter().zip(&out_tys) {
            mats.push(self.materialize(a, t, &mut blk)?);
        }
        let mut groups: Vec<(Name, Batch)> = Vec::new();
        for f in &accd {
            let bs = self.accs.remove(f).unwrap_or_default();
            for b in self.join_batches(f, bs, &mut blk)? {
                groups.push((f.clone(), b));
            }
        }
        let mut owned = Vec::new();
        for (f, s) in saved {
            match s {
                Some(s) => {
                    self.accs.insert(f, s);
                }
                None => owned.push(f),
            }
        }
        for (f, b) in &groups {
            mats.push(b.is.clone());
            out_tys.push(Type::Array(Base::R, vec![b.k]));
            mats.push(b.vs.clone());
            let rest = self.rest_of(f, b.rank)?;
            out_tys.push(Type::Array(
                Base::R,
                std::iter::once(b.k).chain(rest).collect(),
            ));
        }
        if mats.is_empty() {
            return Ok(());
        }
        let single = out_tys.len() == 1 && matches!(out_tys[0], Type::Array(Base::R, _));
        let mut all_leaves = Vec::new();
        let result = if single {
            mats[0].clone()
        } else {
            // Consecutive scalars as one array literal, other leaves as flat vectors.
            let mut parts = Vec::new();
            let mut scalars = Vec::new();
            for (m, t) in mats.iter().zip(&out_tys) {
                let mut ls = Vec::new();
                leaves(t, &mut Vec::new(), &mut ls);
                for (path, sh) in ls {
                    let x = at_path(m, &path);
                    let size: usize = sh.iter().product();
                    if sh.is_empty() {
                        scalars.push(x);
                    } else {
                        if !scalars.is_empty() {
                            let k = scalars.len();
                            parts.push((mk(ExprKind::Array(std::mem::take(&mut scalars))), k));
                        }
                        let flat = match sh.len() {
                            1 => x,
                            _ => prim(Prim::Reshape(vec![size]), vec![x]),
                        };
                        parts.push((flat, size));
                    }
                    all_leaves.push((path, sh));
                }
            }
            if !scalars.is_empty() {
                let k = scalars.len();
                parts.push((mk(ExprKind::Array(scalars)), k));
            }
            self.pack(parts, &mut blk)
        };
        let mut margs = args2;
        margs.push(g);
        let mut lparams = ps;
        lparams.push(ge);
        let lam = Lambda {
            params: lparams,
            body: Box::new(wrap(blk, result)),
        };
        let map_e = mk(ExprKind::Map(lam, margs));
        // Unpack per output: its stacked adjoint, as an Adj of `[n] ++ T`.
        let mut per_out: Vec<Adj> = Vec::new();
        let mut rows = None;
        let mut off = 0;
        if single {
            let t = stacked(n, &out_tys[0]);
            per_out.push(Adj::Atom(self.bind("rows", &t, map_e, out)));
        } else {
            let total: usize = all_leaves
                .iter()
                .map(|(_, s)| s.iter().product::<usize>())
                .sum();
            let mty = Type::Array(Base::R, vec![n, total]);
            let m = self.bind("rows", &mty, map_e, out);
            for t in &out_tys[..outs.len()] {
                let mut ls = Vec::new();
                leaves(t, &mut Vec::new(), &mut ls);
                let mut cols = Vec::new();
                for (path, sh) in ls {
                    let c = columns(self, &m, n, off, &sh);
                    off += sh.iter().product::<usize>();
                    let cty = Type::Array(
                        Base::R,
                        std::iter::once(n).chain(sh.iter().copied()).collect(),
                    );
                    cols.push((path, Adj::Atom(self.bind("col", &cty, c, out))));
                }
                per_out.push(assemble(
                    t,
                    &mut cols.into_iter().peekable(),
                    &mut Vec::new(),
                ));
            }
            rows = Some(m);
        }
        let mut vary: HashSet<Name> = params.iter().cloned().collect();
        variant(body, &mut vary);
        for (f, b) in groups {
            let Some(m) = rows.clone() else {
                return Err(super::ir::internal(
                    "accumulator updates without packed rows",
                ));
            };
            let rl: usize = self.rest_of(&f, b.rank)?.iter().product();
            let invariant = b.deps.iter().all(|d| !vary.contains(d));
            let cols = Columns {
                rank: b.rank,
                k: b.k,
                rows: m,
                off_is: off,
                off_vs: off + b.k,
                deps: b.deps,
            };
            off += b.k * (1 + rl);
            let Some(batch) = self.batch_after_map(&f, n, cols, invariant, out)? else {
                continue;
            };
            if owned.contains(&f) {
                let aty = self.ty(&f)?;
                let old = adj.remove(&f).unwrap_or(Adj::Zero);
                let old = self.materialize(&old, &aty, out)?;
                let new = self.release(&f, old, &batch, out)?;
                adj.insert(f.clone(), Adj::Atom(new));
            } else {
                self.accs.entry(f).or_default().push(batch);
            }
        }
        for ((name, t), (stk, k)) in outs
            .iter()
            .zip(&out_tys)
            .zip(per_out.into_iter().zip(param_of))
        {
            match k {
                Some(k) => self.accumulate(adj, &args[k], stk, out)?,
                None => {
                    let s = self.sum_rows(&stk, t, out)?;
                    self.accumulate(adj, &var(name), s, out)?;
                }
            }
        }
        Ok(())
    }

    /// The parts (flat vectors and their sizes) joined into one vector by a balanced tree
    /// of `append`s (each scalar moved about `log2` of the number of parts times).
    fn pack(&mut self, mut parts: Vec<(Expr, usize)>, blk: &mut Block) -> Expr {
        while parts.len() > 1 {
            let mut next = Vec::new();
            let mut it = parts.into_iter();
            while let Some((a, sa)) = it.next() {
                match it.next() {
                    Some((b, sb)) => {
                        let t = Type::Array(Base::R, vec![sa]);
                        let a = self.bind("pack", &t, a, blk);
                        let t = Type::Array(Base::R, vec![sb]);
                        let b = self.bind("pack", &t, b, blk);
                        next.push((prim(Prim::Append, vec![a, b]), sa + sb));
                    }
                    None => next.push((a, sa)),
                }
            }
            parts = next;
        }
        parts
            .pop()
            .map(|(e, _)| e)
            .expect("an adjoint with reals has a real leaf")
    }

    /// `reduce(+, 0, rows)` per real leaf: the sum of per-element contributions (§6.1).
    fn sum_rows(&mut self, rows: &Adj, ty: &Type, out: &mut Block) -> Result<Adj> {
        Ok(match (rows, ty) {
            (Adj::Zero, _) => Adj::Zero,
            (Adj::Atom(e), Type::Array(Base::R, _)) => {
                let r = mk(ExprKind::Reduce(
                    Op::Add,
                    Box::new(zeros(ty)),
                    Box::new(e.clone()),
                ));
                Adj::Atom(self.bind("sum", ty, r, out))
            }
            (Adj::Tuple(xs), Type::Tuple(ts)) => {
                let mut cs = Vec::new();
                for (x, t) in xs.iter().zip(ts) {
                    cs.push(self.sum_rows(x, t, out)?);
                }
                Adj::Tuple(cs)
            }
            _ => Adj::Zero,
        })
    }
}

/// The adjoint of type `ty` from its real leaves' columns (in leaf order).
fn assemble(
    ty: &Type,
    cols: &mut std::iter::Peekable<std::vec::IntoIter<(Vec<usize>, Adj)>>,
    path: &mut Vec<usize>,
) -> Adj {
    match ty {
        Type::Array(Base::R, _) => match cols.peek() {
            Some((p, _)) if p == path => cols.next().map(|(_, a)| a).unwrap_or(Adj::Zero),
            _ => Adj::Zero,
        },
        Type::Array(..) => Adj::Zero,
        Type::Tuple(ts) => {
            let mut cs = Vec::new();
            for (k, t) in ts.iter().enumerate() {
                path.push(k);
                cs.push(assemble(t, cols, path));
                path.pop();
            }
            Adj::Tuple(cs)
        }
    }
}
