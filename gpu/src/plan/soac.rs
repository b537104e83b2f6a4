//! Lowering of reductions, scans, scatters, `reduce_by_index`, `scatter_into` and
//! `loop` (docs/backend.md, "Lowering"): parallel kernels at the host, sequential folds
//! inside a kernel body.

use super::arr::{Arr, HVal, Ids};
use super::lower::{unsupported, Ctx, Lower};
use super::sx::{Bin, Sx, VarId};
use super::{KernelKind, RedOp, Step};
use adora_core::ast::{Expr, Lambda, Op, Pat};
use adora_core::diag::Result;
use adora_core::types::Base;

/// A left fold over the space of `vars` (row-major order), threading one accumulator:
/// `acc = init; for r: acc = step(acc)` (the variables hold `r` inside `step`).
pub(crate) fn fold_nest(
    ids: &mut Ids,
    vars: &[VarId],
    init: Sx,
    step: impl FnOnce(&mut Ids, Sx) -> Sx,
) -> Sx {
    if vars.is_empty() {
        return step(ids, init);
    }
    let accs: Vec<VarId> = vars.iter().map(|_| ids.fresh()).collect();
    let mut body = step(ids, Sx::Var(*accs.last().expect("one accumulator")));
    for (k, (&v, &a)) in vars.iter().zip(&accs).enumerate().rev() {
        let init_k = if k == 0 {
            init.clone()
        } else {
            Sx::Var(accs[k - 1])
        };
        body = Sx::Fold {
            var: v,
            count: ids.range[&v],
            acc: a,
            init: Box::new(init_k),
            body: Box::new(body),
        };
    }
    body
}

fn red_op(op: &Op) -> Option<RedOp> {
    match op {
        Op::Add => Some(RedOp::Add),
        Op::Mul => Some(RedOp::Mul),
        Op::Min => Some(RedOp::Min),
        Op::Max => Some(RedOp::Max),
        Op::Lambda(_) => None,
    }
}

/// For `min` and `max`, the start of the fold over the elements: the evaluator folds the
/// elements first and combines the result with `ne` last (docs/language.md, `reduce` and
/// `scan`), and the fold starts from `±inf`, which `min`/`max` treat exactly like their
/// first element (NaN included: an unordered pair keeps the right operand). Starting
/// from `ne` instead differs from the evaluator when a NaN is among the elements.
fn last_ne(op: RedOp) -> Option<Sx> {
    match op {
        RedOp::Min | RedOp::Max => Some(Sx::Const(op.neutral())),
        RedOp::Add | RedOp::Mul => None,
    }
}

/// `folded[o] op ne[o]`, elementwise (lazy: fused into its consumers).
fn finish_with_ne(ids: &mut Ids, op: RedOp, folded: &Arr, ne: &Arr) -> Arr {
    let rank = folded.shape.len();
    let ne_rank = ne.shape.len();
    Arr::from_fn(ids, folded.base, folded.shape.clone(), |ids, o| {
        Sx::bin(
            op.bin(),
            folded.at(ids, o),
            ne.at(ids, &o[rank - ne_rank..]),
        )
    })
}

fn idx(vars: &[VarId]) -> Vec<Sx> {
    vars.iter().map(|&v| Sx::Var(v)).collect()
}

impl Lower {
    /// `out[o] = ne[o] op elem(o, r_0) op …` over the space `red`; for `min`/`max`, in the
    /// evaluator's order `(elem(o, r_0) op elem(o, r_1) op …) op ne[o]` (see [`last_ne`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn reduction(
        &mut self,
        base: Base,
        out: &[usize],
        red: Vec<usize>,
        op: RedOp,
        ne: Arr,
        ctx: Ctx,
        elem: impl Fn(&Ids, &[Sx], &[Sx]) -> Sx,
    ) -> HVal {
        if let Some(neutral) = last_ne(op) {
            let start = Arr::from_fn(&mut self.ids, base, out.to_vec(), |_, _| neutral);
            let folded = self.fold_space(base, out, red, op, start, ctx, elem).arr();
            return HVal::Arr(finish_with_ne(&mut self.ids, op, &folded, &ne));
        }
        self.fold_space(base, out, red, op, ne, ctx, elem)
    }

    /// `out[o] = init[o] op elem(o, r_0) op …` over the space `red`, as one kernel at the
    /// host or as nested folds inside a kernel.
    #[allow(clippy::too_many_arguments)]
    fn fold_space(
        &mut self,
        base: Base,
        out: &[usize],
        red: Vec<usize>,
        op: RedOp,
        ne: Arr,
        ctx: Ctx,
        elem: impl Fn(&Ids, &[Sx], &[Sx]) -> Sx,
    ) -> HVal {
        match ctx {
            Ctx::Host => {
                let vars = self.ids.indices(out);
                let red_vars = self.ids.indices(&red);
                let (o, r) = (idx(&vars), idx(&red_vars));
                let body = elem(&self.ids, &o, &r);
                let init = ne.at(&self.ids, &o);
                let buf = self.reduce_kernel(base, vars, red_vars, op, init, body);
                HVal::Arr(self.buf_arr(buf))
            }
            Ctx::Kernel => HVal::Arr(Arr::from_fn(&mut self.ids, base, out.to_vec(), |ids, o| {
                let red_vars = ids.indices(&red);
                let r = idx(&red_vars);
                let init = ne.at(ids, o);
                fold_nest(ids, &red_vars, init, |ids, acc| {
                    Sx::bin(op.bin(), acc, elem(ids, o, &r))
                })
            })),
        }
    }

    /// A lambda operator's body as a scalar expression of its two operands.
    fn lambda2(&mut self, e: &Expr, lam: &Lambda, base: Base, a: Sx, b: Sx) -> Result<Sx> {
        self.bind_name(&lam.params[0], HVal::Arr(Arr::scalar(base, a)));
        self.bind_name(&lam.params[1], HVal::Arr(Arr::scalar(base, b)));
        match self.expr(&lam.body, Ctx::Kernel)? {
            HVal::Arr(r) if r.shape.is_empty() => Ok(r.get(&self.ids)),
            _ => Err(unsupported(
                e,
                "an operator lambda with a non-scalar result",
            )),
        }
    }

    /// `reduce(op, ne, xs)`.
    pub(crate) fn reduce(
        &mut self,
        e: &Expr,
        op: &Op,
        ne: &Expr,
        xs: &Expr,
        ctx: Ctx,
    ) -> Result<HVal> {
        let ne = self.expr(ne, ctx)?.arr();
        let xs = self.expr(xs, ctx)?.arr();
        let rest = xs.shape[1..].to_vec();
        if let Some(op) = red_op(op) {
            return Ok(self.reduction(
                xs.base,
                &rest,
                vec![xs.shape[0]],
                op,
                ne,
                ctx,
                |ids, o, r| {
                    let full: Vec<Sx> = r.iter().chain(o).cloned().collect();
                    xs.at(ids, &full)
                },
            ));
        }
        let Op::Lambda(lam) = op else { unreachable!() };
        if !rest.is_empty() {
            return Err(unsupported(
                e,
                "a reduce with a lambda operator over non-scalar slices",
            ));
        }
        let (k, acc, x) = (
            self.ids.index(xs.shape[0]),
            self.ids.fresh(),
            self.ids.fresh(),
        );
        let step = self.lambda2(e, lam, xs.base, Sx::Var(acc), Sx::Var(x))?;
        let fold = Sx::Fold {
            var: k,
            count: xs.shape[0],
            acc,
            init: Box::new(ne.get(&self.ids)),
            body: Box::new(Sx::Let(
                x,
                Box::new(xs.at(&self.ids, &[Sx::Var(k)])),
                Box::new(step),
            )),
        };
        Ok(HVal::Arr(self.scalar_result(xs.base, fold, ctx)))
    }

    /// A scalar computed by one kernel thread at the host, or inline in a kernel.
    fn scalar_result(&mut self, base: Base, sx: Sx, ctx: Ctx) -> Arr {
        let a = Arr::scalar(base, sx);
        match ctx {
            Ctx::Kernel => a,
            Ctx::Host => {
                let b = self.materialize(&a);
                self.buf_arr(b)
            }
        }
    }

    /// `scan(op, ne, xs)` (inclusive).
    pub(crate) fn scan(
        &mut self,
        e: &Expr,
        op: &Op,
        ne: &Expr,
        xs: &Expr,
        ctx: Ctx,
    ) -> Result<HVal> {
        let ne = self.expr(ne, ctx)?.arr();
        let xs = self.expr(xs, ctx)?.arr();
        let m = xs.shape[0];
        let rest = xs.shape[1..].to_vec();
        let (acc, x) = (self.ids.fresh(), self.ids.fresh());
        // min/max: fold the elements from ±inf and combine with `ne` last (`last_ne`).
        let last = red_op(op).and_then(|r| last_ne(r).map(|c| (r, c)));
        let step = match red_op(op) {
            Some(op) => Sx::bin(op.bin(), Sx::Var(acc), Sx::Var(x)),
            None => {
                let Op::Lambda(lam) = op else { unreachable!() };
                if !rest.is_empty() {
                    return Err(unsupported(
                        e,
                        "a scan with a lambda operator over non-scalar slices",
                    ));
                }
                self.lambda2(e, lam, xs.base, Sx::Var(acc), Sx::Var(x))?
            }
        };
        let k = self.ids.index(m);
        let folded = match ctx {
            Ctx::Host => {
                let vars = self.ids.indices(&rest);
                let full: Vec<Sx> = std::iter::once(Sx::Var(k)).chain(idx(&vars)).collect();
                let elem = xs.at(&self.ids, &full);
                let init = match &last {
                    Some((_, c)) => c.clone(),
                    None => ne.at(&self.ids, &idx(&vars)),
                };
                let buf = self.buffer(xs.base, xs.shape.clone());
                self.emit(
                    buf,
                    "scan",
                    KernelKind::Scan {
                        vars,
                        k,
                        acc,
                        init,
                        step: Sx::Let(x, Box::new(elem), Box::new(step)),
                    },
                );
                self.buf_arr(buf)
            }
            Ctx::Kernel => Arr::from_fn(&mut self.ids, xs.base, xs.shape.clone(), |ids, v| {
                let full: Vec<Sx> = std::iter::once(Sx::Var(k))
                    .chain(v[1..].iter().cloned())
                    .collect();
                let elem = xs.at(ids, &full);
                let upd = Sx::Let(x, Box::new(elem), Box::new(step));
                Sx::Fold {
                    var: k,
                    count: m,
                    acc,
                    init: Box::new(match &last {
                        Some((_, c)) => c.clone(),
                        None => ne.at(ids, &v[1..]),
                    }),
                    body: Box::new(Sx::select(
                        Sx::bin(Bin::Le, Sx::Var(k), v[0].clone()),
                        upd,
                        Sx::Var(acc),
                    )),
                }
            }),
        };
        Ok(HVal::Arr(match last {
            Some((r, _)) => finish_with_ne(&mut self.ids, r, &folded, &ne),
            None => folded,
        }))
    }

    /// `scatter(sh, x, is => ix)`.
    pub(crate) fn scatter(
        &mut self,
        sh: &[usize],
        x: &Expr,
        names: &[String],
        ix: &[Expr],
        ctx: Ctx,
    ) -> Result<HVal> {
        let x = self.expr(x, ctx)?.arr();
        let k = names.len();
        let vars = self.ids.indices(&x.shape);
        for (n, v) in names.iter().zip(&vars) {
            self.bind_name(n, HVal::Arr(Arr::scalar(Base::Z, Sx::Var(*v))));
        }
        let ix = ix
            .iter()
            .map(|i| self.scalar(i, Ctx::Kernel))
            .collect::<Result<Vec<_>>>()?;
        let p = ix.len();
        match ctx {
            Ctx::Host => {
                let buf = self.buffer(x.base, sh.to_vec());
                let index: Vec<Sx> = ix.iter().cloned().chain(idx(&vars[k..])).collect();
                let value = x.at(&self.ids, &idx(&vars));
                if let Some(kind) =
                    super::gather::as_gather(&mut self.ids, &vars, &index, &value, sh)
                {
                    let tag = if matches!(kind, KernelKind::Map { .. }) {
                        "scatter_map"
                    } else {
                        "scatter_reduce"
                    };
                    self.emit(buf, tag, kind);
                    return Ok(HVal::Arr(self.buf_arr(buf)));
                }
                let zero = self.ids.indices(sh);
                self.emit(
                    buf,
                    "zero",
                    KernelKind::Map {
                        vars: zero,
                        body: Sx::Const(0.0),
                    },
                );
                self.emit(
                    buf,
                    "scatter",
                    KernelKind::Scatter {
                        vars,
                        src: x.shape.clone(),
                        index,
                        value,
                    },
                );
                Ok(HVal::Arr(self.buf_arr(buf)))
            }
            Ctx::Kernel => Ok(HVal::Arr(Arr::from_fn(
                &mut self.ids,
                x.base,
                sh.to_vec(),
                |ids, d| {
                    let src: Vec<Sx> = idx(&vars[..k])
                        .into_iter()
                        .chain(d[p..].iter().cloned())
                        .collect();
                    let val = x.at(ids, &src);
                    let mut cond: Option<Sx> = None;
                    for (i, dj) in ix.iter().zip(d) {
                        let c = Sx::bin(Bin::Eq, i.clone(), dj.clone());
                        cond = Some(match cond {
                            None => c,
                            Some(a) => Sx::bin(Bin::And, a, c),
                        });
                    }
                    let term = match cond {
                        None => val,
                        Some(c) => Sx::select(c, val, Sx::Const(0.0)),
                    };
                    fold_nest(ids, &vars[..k], Sx::Const(0.0), |_, acc| {
                        Sx::bin(Bin::Add, acc, term)
                    })
                },
            ))),
        }
    }

    /// `reduce_by_index(dest, op, ne, is, vs)` (`ne` does not enter the value).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn reduce_by_index(
        &mut self,
        e: &Expr,
        dest: &Expr,
        op: &Op,
        ne: &Expr,
        is: &Expr,
        vs: &Expr,
        ctx: Ctx,
    ) -> Result<HVal> {
        let dest = self.expr(dest, ctx)?.arr();
        let _ = self.expr(ne, ctx)?;
        let is = self.expr(is, ctx)?.arr();
        let vs = self.expr(vs, ctx)?.arr();
        if matches!(op, Op::Add) && ctx == Ctx::Host {
            // Histogram with atomic adds: a copy of `dest`, then a scatter.
            let buf = self.buffer(dest.base, dest.shape.clone());
            let dv = self.ids.indices(&dest.shape);
            let body = dest.at(&self.ids, &idx(&dv));
            self.emit(buf, "copy", KernelKind::Map { vars: dv, body });
            let vars = self.ids.indices(&vs.shape);
            let index: Vec<Sx> = std::iter::once(is.at(&self.ids, &[Sx::Var(vars[0])]))
                .chain(idx(&vars[1..]))
                .collect();
            let value = vs.at(&self.ids, &idx(&vars));
            self.emit(
                buf,
                "histogram",
                KernelKind::Scatter {
                    vars,
                    src: vs.shape.clone(),
                    index,
                    value,
                },
            );
            return Ok(HVal::Arr(self.buf_arr(buf)));
        }
        let (acc, x) = (self.ids.fresh(), self.ids.fresh());
        let step = match red_op(op) {
            Some(op) => Sx::bin(op.bin(), Sx::Var(acc), Sx::Var(x)),
            None => {
                let Op::Lambda(lam) = op else { unreachable!() };
                if dest.shape.len() > 1 {
                    return Err(unsupported(
                        e,
                        "a reduce_by_index with a lambda operator over non-scalar slices",
                    ));
                }
                self.lambda2(e, lam, dest.base, Sx::Var(acc), Sx::Var(x))?
            }
        };
        // Segmented: each destination element folds the values of its bucket in order.
        let m = is.shape[0];
        let j = self.ids.index(m);
        let a = Arr::from_fn(&mut self.ids, dest.base, dest.shape.clone(), |ids, d| {
            let v: Vec<Sx> = std::iter::once(Sx::Var(j))
                .chain(d[1..].iter().cloned())
                .collect();
            let upd = Sx::Let(x, Box::new(vs.at(ids, &v)), Box::new(step));
            Sx::Fold {
                var: j,
                count: m,
                acc,
                init: Box::new(dest.at(ids, d)),
                body: Box::new(Sx::select(
                    Sx::bin(Bin::Eq, is.at(ids, &[Sx::Var(j)]), d[0].clone()),
                    upd,
                    Sx::Var(acc),
                )),
            }
        });
        Ok(HVal::Arr(a))
    }

    /// `scatter_into(dest, is, vs)`: the last write in index order wins.
    pub(crate) fn scatter_into(
        &mut self,
        dest: &Expr,
        is: &Expr,
        vs: &Expr,
        ctx: Ctx,
    ) -> Result<HVal> {
        let dest = self.expr(dest, ctx)?.arr();
        let is = self.expr(is, ctx)?.arr();
        let vs = self.expr(vs, ctx)?.arr();
        let m = is.shape[0];
        let (j, acc) = (self.ids.index(m), self.ids.fresh());
        Ok(HVal::Arr(Arr::from_fn(
            &mut self.ids,
            dest.base,
            dest.shape.clone(),
            |ids, d| {
                let v: Vec<Sx> = std::iter::once(Sx::Var(j))
                    .chain(d[1..].iter().cloned())
                    .collect();
                Sx::Fold {
                    var: j,
                    count: m,
                    acc,
                    init: Box::new(dest.at(ids, d)),
                    body: Box::new(Sx::select(
                        Sx::bin(Bin::Eq, is.at(ids, &[Sx::Var(j)]), d[0].clone()),
                        vs.at(ids, &v),
                        Sx::Var(acc),
                    )),
                }
            },
        )))
    }

    /// A fresh buffer holding a copy of `a`.
    fn fresh_copy(&mut self, a: &Arr) -> usize {
        let buf = self.buffer(a.base, a.shape.clone());
        let vars = self.ids.indices(&a.shape);
        let body = a.at(&self.ids, &idx(&vars));
        self.emit(buf, "copy", KernelKind::Map { vars, body });
        buf
    }

    fn fresh_copies(&mut self, v: HVal) -> HVal {
        match v {
            HVal::Arr(a) => {
                let b = self.fresh_copy(&a);
                HVal::Arr(self.buf_arr(b))
            }
            HVal::Tup(vs) => HVal::Tup(vs.into_iter().map(|v| self.fresh_copies(v)).collect()),
        }
    }

    /// `loop (acc = init) for var < count do body`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn lower_loop(
        &mut self,
        e: &Expr,
        acc: &Pat,
        init: &Expr,
        var: &str,
        count: usize,
        body: &Expr,
        ctx: Ctx,
    ) -> Result<HVal> {
        let init = self.expr(init, ctx)?;
        if ctx == Ctx::Kernel {
            let (Pat::Var(name), HVal::Arr(a)) = (acc, &init) else {
                return Err(unsupported(
                    e,
                    "a loop with a tuple accumulator inside a kernel body",
                ));
            };
            if !a.shape.is_empty() {
                return Err(unsupported(
                    e,
                    "a loop with an array accumulator inside a kernel body",
                ));
            }
            let (k, av) = (self.ids.index(count), self.ids.fresh());
            self.bind_name(var, HVal::Arr(Arr::scalar(Base::Z, Sx::Var(k))));
            self.bind_name(name, HVal::Arr(Arr::scalar(a.base, Sx::Var(av))));
            let step = self.scalar(body, Ctx::Kernel)?;
            let fold = Sx::Fold {
                var: k,
                count,
                acc: av,
                init: Box::new(a.get(&self.ids)),
                body: Box::new(step),
            };
            return Ok(HVal::Arr(Arr::scalar(a.base, fold)));
        }
        let state = self.fresh_copies(init);
        let counter = self.ids.index(count);
        self.ids.counters.insert(counter);
        self.bind_pat(acc, state.clone());
        self.bind_name(var, HVal::Arr(Arr::scalar(Base::Z, Sx::Var(counter))));
        self.steps.push(Vec::new());
        let next = self.expr(body, Ctx::Host)?;
        let next = self.buffered(next);
        let mut carry = Vec::new();
        collect_carry(&next, &state, &mut carry);
        let steps = self.steps.pop().unwrap_or_default();
        self.steps
            .last_mut()
            .expect("a step list")
            .push(Step::Loop {
                counter,
                count,
                body: steps,
                carry,
            });
        Ok(state)
    }
}

fn collect_carry(next: &HVal, state: &HVal, out: &mut Vec<(usize, usize)>) {
    match (next, state) {
        (HVal::Arr(a), HVal::Arr(s)) => {
            if let (super::arr::Src::Buf(from), super::arr::Src::Buf(to)) = (&a.src, &s.src) {
                if from != to {
                    out.push((*from, *to));
                }
            }
        }
        (HVal::Tup(a), HVal::Tup(s)) => a.iter().zip(s).for_each(|(a, s)| collect_carry(a, s, out)),
        _ => {}
    }
}
