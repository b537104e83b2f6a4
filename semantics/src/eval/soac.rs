//! The seed-004 forms: `map`, `reduce`, `scan`, `reduce_by_index`, `scatter_into`, `loop`.

use super::machine::{bad_shape, ill, same_type, Machine};
use super::Event;
use crate::kernels::buckets::Buckets;
use crate::rt::{empty_of, same_shape, Arr, Stacker, RV};
use crate::scalar::Scalar;
use adora_core::ast::{Binding, Expr, Lambda, Name, Op, Pat};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::types::Type;

/// The type of one outer slice of a value of type `ty`.
fn drop_outer(ty: &Type) -> Type {
    match ty {
        Type::Array(b, s) => Type::Array(*b, s.get(1..).unwrap_or(&[]).to_vec()),
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(drop_outer).collect()),
    }
}

impl<'a, S: Scalar> Machine<'a, '_, S> {
    /// Checks the size of every exact rational in `v`.
    fn fit_all(&self, v: &RV<S>, span: Span) -> Result<()> {
        match v {
            RV::R(a) => a.data().iter().try_for_each(|x| self.check_fit(x, span)),
            RV::T(vs) => vs.iter().try_for_each(|c| self.fit_all(c, span)),
            _ => Ok(()),
        }
    }

    /// Applies a lambda of two parameters (with `Bind`/`Unbind` events).
    fn apply_lambda(&mut self, lam: &'a Lambda, a: RV<S>, b: RV<S>, span: Span) -> Result<RV<S>> {
        let [p, q] = lam.params.as_slice() else {
            return Err(ill(
                span,
                format!(
                    "an operator needs two parameters, found {}",
                    lam.params.len()
                ),
            ));
        };
        self.bind(p, a);
        self.bind(q, b);
        let r = self.eval(&lam.body)?;
        self.unbind(q);
        self.unbind(p);
        Ok(r)
    }

    /// `op(a, b)`: built-in operators elementwise on equal shapes (reusing `a`'s storage
    /// where possible), lambdas on whole values. Built-in results are not size-checked
    /// here (the callers check the final result).
    fn apply_op(&mut self, op: &'a Op, a: RV<S>, b: &RV<S>, span: Span) -> Result<RV<S>> {
        let sum = matches!(op, Op::Add);
        match op {
            Op::Lambda(lam) => self.apply_lambda(lam, a, b.clone(), span),
            Op::Min | Op::Max => self.min_max(matches!(op, Op::Max), &a, b, span),
            Op::Add | Op::Mul => match (a, b) {
                (RV::R(x), RV::R(y)) if same_shape(x.shape(), y.shape()) => {
                    Ok(RV::R(x.zip_assign(y, |p, q| {
                        if sum {
                            p.add_assign(q);
                        } else {
                            *p = p.mul(q);
                        }
                        self.check_step(p, span)
                    })?))
                }
                (RV::Z(x), RV::Z(y)) if same_shape(x.shape(), y.shape()) => {
                    Ok(RV::Z(x.zip_assign(y, |p, q| {
                        let r = if sum {
                            p.checked_add(*q)
                        } else {
                            p.checked_mul(*q)
                        };
                        *p = r.ok_or_else(|| super::machine::overflow(span))?;
                        Ok(())
                    })?))
                }
                (a, b) => Err(bad_shape(
                    span,
                    format!(
                        "`{}` needs R or Z arrays of one shape, found {} and {}",
                        if sum { "+" } else { "*" },
                        a.ty(),
                        b.ty()
                    ),
                )),
            },
        }
    }

    /// `map(lam, xs...)`.
    pub(super) fn eval_map(
        &mut self,
        e: &'a Expr,
        lam: &'a Lambda,
        xs: &'a [Expr],
    ) -> Result<RV<S>> {
        let mut vals = Vec::with_capacity(xs.len());
        for x in xs {
            vals.push(self.eval(x)?);
        }
        if lam.params.len() != xs.len() || xs.is_empty() {
            return Err(ill(
                e.span,
                format!("`map` of {} arrays needs as many parameters", xs.len()),
            ));
        }
        let lens: Vec<Option<usize>> = vals.iter().map(RV::outer_len).collect();
        let n = match lens[0] {
            Some(n) if lens.iter().all(|l| *l == Some(n)) => n,
            _ => return Err(bad_shape(e.span, "`map` needs arrays of one outer size")),
        };
        self.emit(Event::ParBegin {
            expr: e,
            iterations: n,
        });
        let mut st = Stacker::with_capacity(n);
        for i in 0..n {
            self.emit(Event::Iter);
            for (p, v) in lam.params.iter().zip(&vals) {
                self.bind(p, v.prefix(&[i]));
            }
            let r = self.eval(&lam.body)?;
            lam.params.iter().rev().for_each(|p| self.unbind(p));
            if i == 0 {
                self.limit(n.checked_mul(r.size()), e.span)?;
            }
            if !st.push(&r) {
                return Err(ill(
                    lam.body.span,
                    "the body of `map` must have one type in every iteration",
                ));
            }
        }
        self.emit(Event::End);
        let r = match st.finish(&[n]) {
            Some(r) => r,
            None => {
                let extra = lam
                    .params
                    .iter()
                    .zip(&vals)
                    .map(|(p, v)| Binding {
                        name: p.clone(),
                        ty: drop_outer(&v.ty()),
                    })
                    .collect();
                let ty = self.type_in_env(extra, &lam.body)?;
                empty_of(&[0], &ty)
            }
        };
        if self.observing() {
            let sizes: Vec<usize> = vals.iter().map(RV::size).collect();
            self.node(e, &r, &sizes, 0, 0);
        }
        Ok(r)
    }

    /// `reduce(op, ne, xs)` and (with `scan`) `scan(op, ne, xs)`.
    pub(super) fn eval_reduce(
        &mut self,
        e: &'a Expr,
        op: &'a Op,
        ne: &'a Expr,
        xs: &'a Expr,
        scan: bool,
    ) -> Result<RV<S>> {
        let span = e.span;
        let nev = self.eval(ne)?;
        let xsv = self.eval(xs)?;
        let Some(n) = xsv.outer_len() else {
            return Err(ill(
                xs.span,
                format!(
                    "`reduce` and `scan` need an array of rank >= 1, found {}",
                    xsv.ty()
                ),
            ));
        };
        if scan {
            self.limit(n.checked_mul(nev.size()), span)?;
        }
        self.emit(Event::ParBegin {
            expr: e,
            iterations: n,
        });
        let mut st = Stacker::with_capacity(if scan { n } else { 0 });
        let result = match op {
            // `reduce-ties` and `scan-ties` under a splitting convention (crate::conventions):
            // the even split over the neutral element and the elements; the fold from `ne`.
            Op::Min | Op::Max if self.opts.conventions.splits_ties() => {
                let is_max = matches!(op, Op::Max);
                if scan {
                    let mut acc = nev.clone();
                    for i in 0..n {
                        self.emit(Event::Iter);
                        acc = self.min_max(is_max, &acc, &xsv.prefix(&[i]), span)?;
                        st.push(&acc);
                    }
                    acc
                } else {
                    let mut items = vec![nev.clone()];
                    for i in 0..n {
                        self.emit(Event::Iter);
                        items.push(xsv.prefix(&[i]));
                    }
                    self.min_max_even(is_max, &items, span)?
                }
            }
            Op::Min | Op::Max => {
                let is_max = matches!(op, Op::Max);
                let mut r: Option<RV<S>> = None;
                for i in 0..n {
                    self.emit(Event::Iter);
                    let x = xsv.prefix(&[i]);
                    let next = match r {
                        None => x,
                        Some(r) => self.min_max(is_max, &r, &x, span)?,
                    };
                    if scan {
                        let out = self.min_max(is_max, &next, &nev, span)?;
                        st.push(&out);
                    }
                    r = Some(next);
                }
                match r {
                    Some(r) if !scan => self.min_max(is_max, &r, &nev, span)?,
                    _ => nev.clone(),
                }
            }
            Op::Add if !scan => match (&nev, &xsv) {
                (RV::R(ne), RV::R(xs)) if xs.shape().get(1..) == Some(ne.shape()) => {
                    (0..n).for_each(|_| self.emit(Event::Iter));
                    self.sum_reals(ne, xs, n, span)?
                }
                _ => self.fold(op, &nev, &xsv, n, false, &mut st, span)?,
            },
            _ => self.fold(op, &nev, &xsv, n, scan, &mut st, span)?,
        };
        self.emit(Event::End);
        let r = if scan {
            match st.finish(&[n]) {
                Some(r) => r,
                None => empty_of(&[0], &nev.ty()),
            }
        } else {
            result
        };
        self.fit_all(&r, span)?;
        self.node(e, &r, &[nev.size(), xsv.size()], 0, 0);
        Ok(r)
    }

    /// `reduce(+, ne, xs)` on reals: per element position, the left fold from `ne` over the
    /// `n` slices of `xs` by [`Scalar::sum_left`] (the same additions in the same order as
    /// [`Machine::fold`], without merging dual numbers' tangents once per element).
    fn sum_reals(&self, ne: &Arr<S>, xs: &Arr<S>, n: usize, span: Span) -> Result<RV<S>> {
        let (ne_data, data) = (ne.data(), xs.data());
        let m = ne_data.len();
        let acc = (0..m)
            .map(|k| {
                let items = std::iter::once(&ne_data[k]).chain((0..n).map(|i| &data[i * m + k]));
                self.sum_left(items, span)
            })
            .collect::<Result<Vec<S>>>()?;
        Ok(RV::R(Arr::from_vec(ne.shape().to_vec(), acc)))
    }

    /// The left fold of `reduce` / `scan` with `+`, `*` or a lambda from `ne` over the `n`
    /// outer slices of `xs` (one `Iter` event each), pushing every partial result to `st`
    /// for a `scan`.
    #[allow(clippy::too_many_arguments)]
    fn fold(
        &mut self,
        op: &'a Op,
        nev: &RV<S>,
        xsv: &RV<S>,
        n: usize,
        scan: bool,
        st: &mut Stacker<S>,
        span: Span,
    ) -> Result<RV<S>> {
        let mut acc = nev.clone();
        for i in 0..n {
            self.emit(Event::Iter);
            acc = self.apply_op(op, acc, &xsv.prefix(&[i]), span)?;
            if scan && !st.push(&acc) {
                return Err(ill(
                    span,
                    "the operator of `scan` must keep the type of the neutral element",
                ));
            }
        }
        Ok(acc)
    }

    /// The bucket indices of `reduce_by_index` / `scatter_into` and the checks they share:
    /// `is: Z[m]`, `dest` of rank >= 1, `vs` with outer size `m`.
    fn targets(
        &self,
        span: Span,
        dest: &RV<S>,
        is: &RV<S>,
        vs: &RV<S>,
    ) -> Result<(Vec<i64>, usize)> {
        let idx = match is.as_z() {
            Some(a) if a.shape().len() == 1 => a.data().to_vec(),
            _ => {
                return Err(ill(
                    span,
                    format!("the indices must be a Z[m], found {}", is.ty()),
                ))
            }
        };
        let Some(b) = dest.outer_len() else {
            return Err(ill(
                span,
                format!(
                    "the destination must be an array of rank >= 1, found {}",
                    dest.ty()
                ),
            ));
        };
        if vs.outer_len() != Some(idx.len()) {
            return Err(bad_shape(
                span,
                format!("{} indices but values of type {}", idx.len(), vs.ty()),
            ));
        }
        Ok((idx, b))
    }

    /// `reduce_by_index(dest, op, ne, is, vs)`.
    pub(super) fn eval_rbi(
        &mut self,
        e: &'a Expr,
        dest: &'a Expr,
        op: &'a Op,
        ne: &'a Expr,
        is: &'a Expr,
        vs: &'a Expr,
    ) -> Result<RV<S>> {
        let span = e.span;
        let dv = self.eval(dest)?;
        let nev = self.eval(ne)?;
        let iv = self.eval(is)?;
        let vv = self.eval(vs)?;
        let (idx, b) = self.targets(span, &dv, &iv, &vv)?;
        if let (Op::Add, RV::R(d), RV::R(v)) = (op, &dv, &vv) {
            if same_shape(&d.shape()[1..], &v.shape()[1..]) {
                return self.rbi_sum(e, d, &idx, v, [dv.size(), nev.size(), iv.size()]);
            }
        }
        let mut slots: Vec<RV<S>> = (0..b).map(|t| dv.prefix(&[t])).collect();
        let mut written = vec![false; b];
        let (mut writes, mut collisions) = (0usize, 0usize);
        self.emit(Event::ParBegin {
            expr: e,
            iterations: idx.len(),
        });
        for (j, &t) in idx.iter().enumerate() {
            self.emit(Event::Iter);
            if t < 0 || t as u64 >= b as u64 {
                self.stats.oob_writes += 1;
                continue;
            }
            let t = t as usize;
            let cur = std::mem::replace(&mut slots[t], RV::Z(Arr::scalar(0)));
            let next = self.apply_op(op, cur, &vv.prefix(&[j]), span)?;
            let size = next.size();
            slots[t] = next;
            writes += size;
            if std::mem::replace(&mut written[t], true) {
                collisions += size;
            }
        }
        self.emit(Event::End);
        let r = if b == 0 {
            dv.clone()
        } else {
            crate::rt::stack(slots).unwrap_or_else(|| RV::Z(Arr::scalar(0)))
        };
        if !same_type(&r, &dv) {
            return Err(ill(
                span,
                "the operator of `reduce_by_index` must keep the destination's element type",
            ));
        }
        self.fit_all(&r, span)?;
        if self.observing() {
            let sizes = [dv.size(), nev.size(), iv.size(), vv.size()];
            self.node(e, &r, &sizes, writes, collisions);
        }
        Ok(r)
    }

    /// `reduce_by_index(dest, +, ne, is, vs)` on reals whose rows have one shape: the
    /// events, counts and result of [`Machine::eval_rbi`]'s loop, with the additions into
    /// each bucket done as one left fold (`dest`'s row, then the rows of `vs` in index
    /// order) by [`Scalar::sum_left`] — the same additions in the same order and the same
    /// size check of each partial sum, linear for dual numbers (`kernels::buckets`).
    fn rbi_sum(
        &mut self,
        e: &'a Expr,
        dest: &Arr<S>,
        idx: &[i64],
        vs: &Arr<S>,
        sizes: [usize; 3],
    ) -> Result<RV<S>> {
        let span = e.span;
        let b = dest.shape()[0];
        let slot: usize = dest.shape()[1..].iter().product();
        self.emit(Event::ParBegin {
            expr: e,
            iterations: idx.len(),
        });
        let mut targets = Vec::with_capacity(idx.len());
        for &t in idx {
            self.emit(Event::Iter);
            let inside = t >= 0 && (t as u64) < b as u64;
            if !inside {
                self.stats.oob_writes += 1;
            }
            targets.push(inside.then_some(t as usize));
        }
        self.emit(Event::End);
        let buckets = Buckets::new(b, &targets);
        let (d, v) = (dest.data(), vs.data());
        let mut out = Vec::with_capacity(d.len());
        for t in 0..b {
            let rows = buckets.rows(t);
            for k in 0..slot {
                let items =
                    std::iter::once(&d[t * slot + k]).chain(rows.iter().map(|&j| &v[j * slot + k]));
                out.push(self.sum_left(items, span)?);
            }
        }
        let r = RV::R(Arr::from_vec(dest.shape().to_vec(), out));
        self.fit_all(&r, span)?;
        if self.observing() {
            let writes = buckets.len() * slot;
            let collisions = (buckets.len() - buckets.slots_reached()) * slot;
            let sizes = [sizes[0], sizes[1], sizes[2], vs.len()];
            self.node(e, &r, &sizes, writes, collisions);
        }
        Ok(r)
    }

    /// `scatter_into(dest, is, vs)`.
    pub(super) fn eval_scatter_into(
        &mut self,
        e: &'a Expr,
        dest: &'a Expr,
        is: &'a Expr,
        vs: &'a Expr,
    ) -> Result<RV<S>> {
        let span = e.span;
        let dv = self.eval(dest)?;
        let iv = self.eval(is)?;
        let vv = self.eval(vs)?;
        let (idx, b) = self.targets(span, &dv, &iv, &vv)?;
        if !idx.is_empty() && b > 0 && !same_type(&dv.prefix(&[0]), &vv.prefix(&[0])) {
            return Err(ill(
                span,
                format!("cannot write values of {} into {}", vv.ty(), dv.ty()),
            ));
        }
        let mut slots: Vec<RV<S>> = (0..b).map(|t| dv.prefix(&[t])).collect();
        let mut written = vec![false; b];
        let (mut writes, mut collisions) = (0usize, 0usize);
        for (j, &t) in idx.iter().enumerate() {
            if t < 0 || t as u64 >= b as u64 {
                self.stats.oob_writes += 1;
                continue;
            }
            let t = t as usize;
            let v = vv.prefix(&[j]);
            let size = v.size();
            if std::mem::replace(&mut written[t], true) {
                self.stats.colliding_writes += 1;
                collisions += size;
                if self.opts.strict {
                    return Err(Diagnostic::new(
                        ErrorKind::Runtime,
                        span,
                        format!("`scatter_into` writes twice to index {t}"),
                    ));
                }
            }
            writes += size;
            slots[t] = v;
        }
        let r = if b == 0 {
            dv.clone()
        } else {
            crate::rt::stack(slots).unwrap_or_else(|| dv.clone())
        };
        if self.observing() {
            let sizes = [dv.size(), iv.size(), vv.size()];
            self.node(e, &r, &sizes, writes, collisions);
        }
        Ok(r)
    }

    /// `loop (acc = init) for var < count do body`.
    pub(super) fn eval_loop(
        &mut self,
        e: &'a Expr,
        acc: &'a Pat,
        init: &'a Expr,
        var: &'a Name,
        count: usize,
        body: &'a Expr,
    ) -> Result<RV<S>> {
        let mut a = self.eval(init)?;
        let witness = a.clone();
        let init_size = a.size();
        self.emit(Event::SeqBegin {
            expr: e,
            iterations: count,
        });
        self.push_index(var, 0);
        for i in 0..count {
            self.set_index(var, i as i64);
            self.emit(Event::Iter);
            self.bind_pat(acc, a, e.span)?;
            let next = self.eval(body)?;
            self.unbind_pat(acc);
            if !same_type(&next, &witness) {
                return Err(ill(
                    body.span,
                    format!(
                        "the loop body has type {}, the accumulator {}",
                        next.ty(),
                        witness.ty()
                    ),
                ));
            }
            a = next;
        }
        self.pop_index(var);
        self.emit(Event::End);
        self.node(e, &a, &[init_size], 0, 0);
        Ok(a)
    }
}
