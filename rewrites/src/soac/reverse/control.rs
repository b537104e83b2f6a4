//! Return-sweep rules of `if` and `loop` (seed 004 *AD for an Array Language with Nested
//! Parallelism*).
//!
//! **`if`** (§6.3): both branches are differentiated and the taken one runs: the return
//! sweep is `let (v̄1, …) = if c then vjp(then) else vjp(else)`, each branch re-executing
//! its forward sweep and returning the adjoints of the free variables of both branches.
//!
//! **`loop`** (§4.2 loop rule, §4.3 checkpointing): the forward sweep runs the loop with
//! one checkpoint array per accumulator component, written at each iteration's entry
//! (`cp = scatter_into(cp, [i], [acc])`, so the forward sweep's work is the loop's plus
//! one slice write per iteration); the return sweep iterates `k = 0 … n-1` over
//! `i = n-1-k`, restores the accumulator from the checkpoints, re-executes the body's
//! forward sweep and runs its return sweep, carrying the accumulator's adjoint and the
//! adjoints of the body's free variables. Each loop body therefore runs exactly twice
//! (`super::Counts`).

use super::build::{bin, int, wrap, Adj, Block, Rev};
use super::ir::{free_of, internal, mk, unsupported, var, Body, Rhs, St};
use super::sweep::Adjoints;
use adora_core::ast::{BinOp, Expr, ExprKind, Name, Pat};
use adora_core::diag::{Result, Span};
use adora_core::types::Type;

fn pat_of(names: Vec<Name>) -> Pat {
    if names.len() == 1 {
        Pat::Var(names[0].clone())
    } else {
        Pat::Tuple(names)
    }
}

fn tuple_of(mut es: Vec<Expr>) -> Expr {
    if es.len() == 1 {
        es.remove(0)
    } else {
        mk(ExprKind::Tuple(es))
    }
}

fn proj(e: &Expr, k: usize, n: usize) -> Expr {
    if n == 1 {
        e.clone()
    } else {
        mk(ExprKind::Proj(Box::new(e.clone()), k))
    }
}

impl Rev {
    /// The return sweep of `st: y = if cond then a else b` (§6.3).
    #[allow(clippy::too_many_arguments)]
    pub fn reverse_if(
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
        let wanted = self.with_reals(free)?;
        if wanted.is_empty() {
            return Ok(());
        }
        let tys = self.types_of(&wanted)?;
        self.fire("rev/if");
        let g = self.materialize(&ybar, &st.ty, out)?;
        let c = self.sub(cond);
        let branch = |rev: &mut Rev, body: &Body| -> Result<Expr> {
            let mut blk = Vec::new();
            let (_, adjs) = rev.vjp_nested(body, Adj::Atom(g.clone()), &wanted, true, &mut blk)?;
            let mut cs = Vec::new();
            for (x, t) in adjs.iter().zip(&tys) {
                cs.push(rev.materialize(x, t, &mut blk)?);
            }
            Ok(wrap(blk, tuple_of(cs)))
        };
        let ea = branch(self, a)?;
        let eb = branch(self, b)?;
        let names: Vec<Name> = wanted
            .iter()
            .map(|w| self.fresh(&format!("{w}_bar")))
            .collect();
        for (n, t) in names.iter().zip(&tys) {
            self.types.insert(n.clone(), t.clone());
        }
        let e = mk(ExprKind::If(Box::new(c), Box::new(ea), Box::new(eb)));
        out.push((pat_of(names.clone()), e));
        for (w, n) in wanted.iter().zip(&names) {
            self.accumulate(adj, &var(w), Adj::Atom(var(n)), out)?;
        }
        Ok(())
    }

    /// The forward sweep of a loop statement: the loop with a checkpoint of its
    /// accumulator at each iteration's entry (§4.3).
    pub fn emit_checkpointing_loop(&mut self, st: &St, out: &mut Block) -> Result<()> {
        let Rhs::Loop {
            acc,
            tys,
            var: v,
            count,
            init,
            body,
            cps,
        } = &st.rhs
        else {
            return Err(internal("not a loop"));
        };
        let m = acc.len();
        // Components restored from the loop's result (`Checkpoint::Once`, `super::once`)
        // get no checkpoint array.
        let kept: Vec<usize> = (0..m).filter(|&k| !self.restored(v, k)).collect();
        let mut cp_tys = Vec::new();
        for t in kept.iter().map(|&k| &tys[k]) {
            let Type::Array(b, s) = t else {
                return Err(unsupported(
                    Span::DUMMY,
                    "engine soac's reverse mode: a loop accumulator component that is itself a tuple",
                ));
            };
            cp_tys.push(Type::Array(
                *b,
                std::iter::once(*count).chain(s.iter().copied()).collect(),
            ));
        }
        let init = self.sub(init);
        let mut inits: Vec<Expr> = (0..m).map(|k| proj(&init, k, m)).collect();
        inits.extend(cp_tys.iter().map(super::build::zeros));
        let v2 = self.claim(v, &Type::int());
        let names: Vec<Name> = acc.iter().zip(tys).map(|(a, t)| self.claim(a, t)).collect();
        let cpv: Vec<Name> = kept
            .iter()
            .map(|&k| &cps[k])
            .zip(&cp_tys)
            .map(|(c, t)| {
                let x = self.fresh(c);
                self.types.insert(x.clone(), t.clone());
                x
            })
            .collect();
        let mut blk = Vec::new();
        let mut saved = Vec::new();
        for (c, a) in cpv.iter().zip(kept.iter().map(|&k| &names[k])) {
            let one = |e: Expr| mk(ExprKind::Array(vec![e]));
            let w = mk(ExprKind::ScatterInto {
                dest: Box::new(var(c)),
                is: Box::new(one(var(&v2))),
                vs: Box::new(one(var(a))),
            });
            let x = self.fresh(c);
            blk.push((Pat::Var(x.clone()), w));
            saved.push(var(&x));
        }
        let r = self.emit_body(body, &mut blk)?;
        let r = self.bind("res", &st.ty, r, &mut blk);
        let mut res: Vec<Expr> = (0..m).map(|k| proj(&r, k, m)).collect();
        res.extend(saved);
        let mut all = names;
        all.extend(cpv);
        let (acc_pat, init_e, body_tail) = if all.len() == 1 {
            (Pat::Var(all[0].clone()), inits.remove(0), res.remove(0))
        } else {
            (
                Pat::Tuple(all),
                mk(ExprKind::Tuple(inits)),
                mk(ExprKind::Tuple(res)),
            )
        };
        let e = mk(ExprKind::Loop {
            acc: acc_pat,
            init: Box::new(init_e),
            var: v2,
            count: *count,
            body: Box::new(wrap(blk, body_tail)),
        });
        // The statement's names, then the checkpoints'.
        let mut outs = Vec::new();
        let comp_names: Vec<Name> = match (&st.pat, m) {
            (Pat::Tuple(xs), _) => xs.iter().zip(tys).map(|(x, t)| self.claim(x, t)).collect(),
            (Pat::Var(x), 1) => vec![self.claim(x, &st.ty)],
            (Pat::Var(x), _) => tys
                .iter()
                .map(|t| {
                    let n = self.fresh(x);
                    self.types.insert(n.clone(), t.clone());
                    n
                })
                .collect(),
        };
        outs.extend(comp_names.iter().cloned());
        for (c, t) in kept.iter().map(|&k| &cps[k]).zip(&cp_tys) {
            outs.push(self.claim(c, t));
        }
        out.push((pat_of(outs), e));
        if let (Pat::Var(x), true) = (&st.pat, m > 1) {
            let tup = mk(ExprKind::Tuple(comp_names.iter().map(|n| var(n)).collect()));
            let x2 = self.claim(x, &st.ty);
            out.push((Pat::Var(x2), tup));
        }
        Ok(())
    }

    /// Whether component `k` of the loop with counter `v` is restored from the loop's
    /// result rather than checkpointed per iteration (`Checkpoint::Once`, §6.2).
    fn restored(&self, v: &Name, k: usize) -> bool {
        self.once
            .get(v)
            .and_then(|o| o.get(k))
            .copied()
            .unwrap_or(false)
    }

    /// The return sweep of a loop statement (§4.2, §4.3).
    pub fn reverse_loop(
        &mut self,
        st: &St,
        ybar: Adj,
        adj: &mut Adjoints,
        out: &mut Block,
    ) -> Result<()> {
        let Rhs::Loop {
            acc,
            tys,
            var: v,
            count,
            init,
            body,
            cps,
        } = &st.rhs
        else {
            return Err(internal("not a loop"));
        };
        let m = acc.len();
        let ybars = if m == 1 {
            vec![ybar]
        } else {
            self.components(&ybar, &st.ty, out)?
        };
        let real: Vec<usize> = (0..m).filter(|&k| tys[k].has_reals()).collect();
        let free: Vec<Name> = free_of(body)
            .into_iter()
            .filter(|x| !acc.contains(x) && x != v)
            .collect();
        let free = self.with_reals(free)?;
        let free_tys = self.types_of(&free)?;
        if real.is_empty() && free.is_empty() {
            return Ok(());
        }
        self.fire("rev/loop-return");
        // The loop's carried adjoints: the real components', then the free variables'.
        let mut inits = Vec::new();
        for &k in &real {
            inits.push(self.materialize(&ybars[k], &tys[k], out)?);
        }
        for t in &free_tys {
            inits.push(super::build::zeros(t));
        }
        // Per component: its checkpoint array, or (`Checkpoint::Once`) the loop's result,
        // which holds what every iteration read (`super::once`).
        let mut cp_atoms: Vec<Option<Expr>> = Vec::new();
        for (j, c) in cps.iter().enumerate() {
            if !self.restored(v, j) {
                cp_atoms.push(Some(self.sub(&var(c))));
                continue;
            }
            let exit = match &st.pat {
                Pat::Tuple(xs) => self.sub(&var(&xs[j])),
                Pat::Var(x) if m == 1 => self.sub(&var(x)),
                Pat::Var(x) => {
                    let p = proj(&self.sub(&var(x)), j, m);
                    let name = format!("{}_exit", acc[j]);
                    self.bind(&name, &tys[j], p, out)
                }
            };
            self.map.insert(acc[j].clone(), exit);
            self.fire("rev/loop-once");
            cp_atoms.push(None);
        }
        let k = self.fresh("k");
        self.types.insert(k.clone(), Type::int());
        let mut carried = Vec::new();
        for &j in &real {
            let n = self.fresh(&format!("{}_bar", acc[j]));
            self.types.insert(n.clone(), tys[j].clone());
            carried.push(n);
        }
        for (f, t) in free.iter().zip(&free_tys) {
            let n = self.fresh(&format!("{f}_bar"));
            self.types.insert(n.clone(), t.clone());
            carried.push(n);
        }
        let mut blk = Vec::new();
        let i = self.fresh(v);
        self.types.insert(i.clone(), Type::int());
        blk.push((
            Pat::Var(i.clone()),
            bin(BinOp::Sub, int(*count as i64 - 1), var(&k)),
        ));
        self.map.insert(v.clone(), var(&i));
        for (j, (a, t)) in acc.iter().zip(tys).enumerate() {
            let Some(cp) = &cp_atoms[j] else {
                continue;
            };
            let restored = mk(ExprKind::Index(Box::new(cp.clone()), vec![var(&i)]));
            let x = self.fresh(a);
            self.types.insert(x.clone(), t.clone());
            blk.push((Pat::Var(x.clone()), restored));
            self.map.insert(a.clone(), var(&x));
        }
        let mut comps = vec![Adj::Zero; m];
        for (pos, &j) in real.iter().enumerate() {
            comps[j] = Adj::Atom(var(&carried[pos]));
        }
        let body_bar = if m == 1 {
            comps.remove(0)
        } else {
            Adj::Tuple(comps)
        };
        let mut wanted: Vec<Name> = acc.clone();
        wanted.extend(free.iter().cloned());
        // The free variables' adjoints start from the carried ones, so an indexed read
        // (`rev/index`) updates the carried adjoint in place: work proportional to the
        // element read, not to the whole array per iteration.
        let seeds: Vec<(Name, Adj)> = free
            .iter()
            .enumerate()
            .map(|(pos, f)| (f.clone(), Adj::Atom(var(&carried[real.len() + pos]))))
            .collect();
        let (_, adjs) = self.vjp_nested_from(body, body_bar, &wanted, seeds, false, &mut blk)?;
        let mut res = Vec::new();
        for &j in &real {
            res.push(self.materialize(&adjs[j], &tys[j], &mut blk)?);
        }
        for (pos, t) in free_tys.iter().enumerate() {
            res.push(self.materialize(&adjs[m + pos], t, &mut blk)?);
        }
        let results: Vec<Name> = carried.iter().map(|c| self.fresh(c)).collect();
        for (r, c) in results.iter().zip(&carried) {
            let t = self.ty(c)?;
            self.types.insert(r.clone(), t);
        }
        let e = mk(ExprKind::Loop {
            acc: pat_of(carried.clone()),
            init: Box::new(tuple_of(inits)),
            var: k,
            count: *count,
            body: Box::new(wrap(blk, tuple_of(res))),
        });
        out.push((pat_of(results.clone()), e));
        let mut init_comps = vec![Adj::Zero; m];
        for (pos, &j) in real.iter().enumerate() {
            init_comps[j] = Adj::Atom(var(&results[pos]));
        }
        let init_bar = if m == 1 {
            init_comps.remove(0)
        } else {
            Adj::Tuple(init_comps)
        };
        self.accumulate(adj, init, init_bar, out)?;
        for (pos, f) in free.iter().enumerate() {
            let r = var(&results[real.len() + pos]);
            self.accumulate(adj, &var(f), Adj::Atom(r), out)?;
        }
        Ok(())
    }
}
