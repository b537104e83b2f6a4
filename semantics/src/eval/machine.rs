//! The evaluator's state (environment, counters, observer) and the dispatch over
//! expression forms. The forms themselves live in `ops` (scalar and elementwise
//! operations, primitives), `bulk` (indexing, build, gather, scatter) and `soac` (map,
//! reduce, scan, reduce_by_index, scatter_into, loop).

use super::{EvalOptions, EvalStats, Event, Observer};
use crate::kernels::limits;
use crate::rt::{same_shape, Arr, RV};
use crate::scalar::Scalar;
use crate::value::Value;
use adora_core::ast::{Binding, Expr, ExprKind, Function, Lit, Pat};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::types::Type;
use num_traits::ToPrimitive;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

/// A small, fast hasher for variable names (FNV-1a).
#[derive(Default)]
pub(super) struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x100_0000_01b3);
        }
        self.0 = h;
    }
}

/// The evaluator's state for one evaluation of a function.
pub(super) struct Machine<'a, 'o, S> {
    pub opts: &'a EvalOptions,
    pub stats: EvalStats,
    env: HashMap<&'a str, Vec<RV<S>>, BuildHasherDefault<Fnv>>,
    obs: Option<&'o mut dyn Observer>,
    /// Spans of the open repeating constructs (builds, maps, loops, ...), outermost first:
    /// a step-limit error points at the outermost one, where the work multiplies.
    repeating: Vec<Span>,
    /// Steps and bytes of arrays so far (`stats.steps` mirrors the steps).
    usage: limits::Usage,
}

/// An `ErrorKind::Input` error unless there is one input per parameter, of its type (the
/// one check of a program's inputs: the evaluator, the reference and the engine harness
/// use it).
pub fn check_inputs<S>(f: &Function, inputs: &[Value<S>]) -> Result<()> {
    if inputs.len() != f.params.len() {
        let span = f.params.first().map_or(f.body.span, |p| p.span);
        return Err(Diagnostic::new(
            ErrorKind::Input,
            span,
            format!(
                "`{}` takes {} inputs, {} given",
                f.name,
                f.params.len(),
                inputs.len()
            ),
        ));
    }
    for (p, v) in f.params.iter().zip(inputs) {
        let ty = v.ty();
        if ty != p.ty {
            return Err(Diagnostic::new(
                ErrorKind::Input,
                p.span,
                format!("input `{}`: expected {}, found {}", p.name, p.ty, ty),
            ));
        }
    }
    Ok(())
}

/// Evaluates `f` on `inputs` (the implementation of `eval` / `eval_observed`).
pub(super) fn run<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    opts: &EvalOptions,
    obs: Option<&mut dyn Observer>,
) -> Result<(Value<S>, EvalStats)> {
    check_inputs(f, inputs)?;
    let mut m = Machine {
        opts,
        stats: EvalStats::default(),
        env: HashMap::default(),
        obs,
        repeating: Vec::new(),
        usage: limits::Usage::default(),
    };
    for (p, v) in f.params.iter().zip(inputs) {
        m.bind(&p.name, RV::from_value(v));
    }
    // An event left over from an earlier computation on this thread is not this run's.
    let _ = S::take_undecided();
    let r = m.eval(&f.body)?;
    for p in f.params.iter().rev() {
        m.unbind(&p.name);
    }
    let ty = r.ty();
    if ty != f.ret {
        return Err(Diagnostic::new(
            ErrorKind::Type,
            f.body.span,
            format!(
                "the result of `{}` has type {}, but {} was declared",
                f.name, ty, f.ret
            ),
        ));
    }
    Ok((r.to_value(), m.stats))
}

/// An error about an ill-typed program (one the checker would have rejected).
pub(super) fn ill(span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(ErrorKind::Type, span, msg)
}

/// An error about mismatched shapes in an ill-typed program.
pub(super) fn bad_shape(span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(ErrorKind::Shape, span, msg)
}

pub(super) use crate::kernels::limits::overflow;
pub(super) use crate::kernels::tensor::checked_volume as volume;

impl<'a, S: Scalar> Machine<'a, '_, S> {
    /// Counts one step.
    pub fn step(&mut self, span: Span) -> Result<()> {
        self.charge(1, span)
    }

    /// Counts `n` steps.
    pub fn charge(&mut self, n: u64, span: Span) -> Result<()> {
        let r = self.usage.charge(n, self.opts);
        self.stats.steps = self.usage.steps;
        r.map_err(|x| self.exceeded(x, span))
    }

    /// The `ErrorKind::Resource` error of a limit run past at `span`: a step-limit error
    /// points at the outermost open repeating construct, labelling `span`.
    fn exceeded(&self, x: limits::Exceeded, span: Span) -> Diagnostic {
        let message = x.message(self.opts);
        match (x, self.repeating.first()) {
            (limits::Exceeded::Steps, Some(&outer)) => {
                Diagnostic::new(ErrorKind::Resource, outer, message)
                    .with_label(span, "the limit was reached while evaluating this")
            }
            _ => Diagnostic::new(ErrorKind::Resource, span, message),
        }
    }

    /// Counts the array `v` that node `e` produced, when its form produces one
    /// ([`limits::produces`]): one step and [`limits::array_bytes`] per scalar.
    pub fn produced(&mut self, e: &Expr, v: &RV<S>) -> Result<()> {
        fn array_scalars<S: Scalar>(v: &RV<S>) -> usize {
            let count = |shape: &[usize], n: usize| if shape.is_empty() { 0 } else { n };
            match v {
                RV::R(a) => count(a.shape(), a.len()),
                RV::Z(a) => count(a.shape(), a.len()),
                RV::B(a) => count(a.shape(), a.len()),
                RV::T(vs) => vs.iter().map(array_scalars).sum(),
            }
        }
        if !limits::produces(&e.kind) {
            return Ok(());
        }
        let scalars = array_scalars(v);
        if scalars == 0 {
            return Ok(());
        }
        let r = self.usage.produce::<S>(scalars, self.opts);
        self.stats.steps = self.usage.steps;
        r.map_err(|x| self.exceeded(x, e.span))
    }

    /// Checks, before allocating an array of `n` scalars, the element limit
    /// ([`limits::check_elements`]), and that producing it stays within the step limit and
    /// the memory budget ([`limits::Usage::reserve`]).
    pub fn limit(&self, n: Option<usize>, span: Span) -> Result<usize> {
        let n = limits::check_elements(n, span)?;
        self.usage
            .reserve::<S>(n, self.opts)
            .map_err(|x| self.exceeded(x, span))?;
        Ok(n)
    }

    /// Checks the size of an exact rational produced by arithmetic.
    pub fn fit(&self, x: S, span: Span) -> Result<S> {
        self.check_fit(&x, span)?;
        Ok(x)
    }

    /// Checks the size of an exact rational (see [`Machine::fit`]).
    pub fn check_fit(&self, x: &S, span: Span) -> Result<()> {
        if x.fits_bits(self.opts.max_rational_bits) {
            Ok(())
        } else {
            Err(self.too_large(span))
        }
    }

    /// The `ErrorKind::Resource` error of an exact rational over the size limit.
    fn too_large(&self, span: Span) -> Diagnostic {
        limits::too_large(self.opts.max_rational_bits, span)
    }

    /// The cheap per-step size check of accumulations (primal value only; see
    /// [`Scalar::value_fits_bits`]).
    pub fn check_step(&self, x: &S, span: Span) -> Result<()> {
        if x.value_fits_bits(self.opts.max_rational_bits) {
            Ok(())
        } else {
            self.check_fit(x, span)
        }
    }

    /// The left fold of `items` ([`Scalar::sum_left`]) with the size check of every
    /// partial sum's primal value (the `ErrorKind::Resource` error of [`Machine::fit`]).
    pub fn sum_left<'x>(&self, items: impl IntoIterator<Item = &'x S>, span: Span) -> Result<S> {
        match S::sum_left(items, self.opts.max_rational_bits) {
            Some(v) => Ok(v),
            None => Err(self.too_large(span)),
        }
    }

    /// Records a division by zero (an error under `strict`).
    pub fn div_zero(&mut self, span: Span) -> Result<()> {
        self.stats.div_by_zero += 1;
        if self.opts.strict {
            return Err(limits::division_by_zero(span));
        }
        Ok(())
    }

    /// Whether an observer listens.
    pub fn observing(&self) -> bool {
        self.obs.is_some()
    }

    /// Sends an event to the observer, if any.
    pub fn emit(&mut self, ev: Event<'_>) {
        match ev {
            Event::ParBegin { expr, .. } | Event::SeqBegin { expr, .. } => {
                self.repeating.push(expr.span)
            }
            Event::End => {
                self.repeating.pop();
            }
            _ => {}
        }
        if let Some(o) = self.obs.as_deref_mut() {
            o.event(ev);
        }
    }

    /// Reports the evaluation of `e` (no-op without an observer).
    pub fn node(&mut self, e: &Expr, r: &RV<S>, args: &[usize], writes: usize, collisions: usize) {
        if let Some(o) = self.obs.as_deref_mut() {
            o.event(Event::Node {
                expr: e,
                result: r.size(),
                args,
                collisions,
                writes,
            });
        }
    }

    /// Binds a value (with a `Bind` event).
    pub fn bind(&mut self, name: &'a str, v: RV<S>) {
        if self.obs.is_some() {
            let scalars = v.size();
            self.emit(Event::Bind { scalars });
        }
        self.env.entry(name).or_default().push(v);
    }

    /// Releases the innermost binding of `name` (with an `Unbind` event).
    pub fn unbind(&mut self, name: &'a str) {
        let v = self.env.get_mut(name).and_then(Vec::pop);
        if let (Some(v), true) = (v, self.obs.is_some()) {
            let scalars = v.size();
            self.emit(Event::Unbind { scalars });
        }
    }

    /// Binds an index variable (no events).
    pub fn push_index(&mut self, name: &'a str, i: i64) {
        self.env
            .entry(name)
            .or_default()
            .push(RV::Z(Arr::scalar(i)));
    }

    /// Rebinds the innermost binding of an index variable.
    pub fn set_index(&mut self, name: &'a str, i: i64) {
        if let Some(top) = self.env.get_mut(name).and_then(|s| s.last_mut()) {
            *top = RV::Z(Arr::scalar(i));
        }
    }

    /// Releases an index variable (no events).
    pub fn pop_index(&mut self, name: &'a str) {
        if let Some(s) = self.env.get_mut(name) {
            s.pop();
        }
    }

    /// Binds a pattern (with `Bind` events in pattern order).
    pub fn bind_pat(&mut self, p: &'a Pat, v: RV<S>, span: Span) -> Result<()> {
        match p {
            Pat::Var(x) => self.bind(x, v),
            Pat::Tuple(xs) => match v {
                RV::T(vs) if vs.len() == xs.len() => {
                    for (x, c) in xs.iter().zip(vs.iter()) {
                        self.bind(x, c.clone());
                    }
                }
                other => {
                    return Err(ill(
                        span,
                        format!(
                            "a pattern of {} names cannot bind a value of type {}",
                            xs.len(),
                            other.ty()
                        ),
                    ))
                }
            },
        }
        Ok(())
    }

    /// Releases a pattern's bindings (`Unbind` events in reverse order).
    pub fn unbind_pat(&mut self, p: &'a Pat) {
        match p {
            Pat::Var(x) => self.unbind(x),
            Pat::Tuple(xs) => xs.iter().rev().for_each(|x| self.unbind(x)),
        }
    }

    /// The type of an expression in the current environment extended with `extra`
    /// (used to shape the result of a build or map with no iterations).
    pub fn type_in_env(&self, extra: Vec<Binding>, e: &Expr) -> Result<Type> {
        let mut env: Vec<Binding> = self
            .env
            .iter()
            .filter_map(|(n, s)| {
                s.last().map(|v| Binding {
                    name: n.to_string(),
                    ty: v.ty(),
                })
            })
            .collect();
        env.extend(extra);
        adora_core::check::type_of(&env, e)
    }

    /// Evaluates an expression. An [`Undecided`](crate::scalar::Undecided) event of an
    /// enclosure scalar met while evaluating it (and not by a subexpression, which
    /// reported it already) becomes the error at this expression, replacing whatever the
    /// undecided operation produced (docs/oracle.md, "Certified enclosures").
    pub fn eval(&mut self, e: &'a Expr) -> Result<RV<S>> {
        let r = self.eval_node(e);
        match S::take_undecided() {
            Some(u) => Err(u.diagnostic(e.span)),
            None => r,
        }
    }

    fn eval_node(&mut self, e: &'a Expr) -> Result<RV<S>> {
        if let ExprKind::Let(..) = e.kind {
            return self.eval_lets(e);
        }
        self.step(e.span)?;
        let v = match &e.kind {
            ExprKind::Var(x) => {
                let v = match self.env.get(x.as_str()).and_then(|s| s.last()) {
                    Some(v) => v.clone(),
                    None => {
                        return Err(Diagnostic::new(
                            ErrorKind::Name,
                            e.span,
                            format!("unbound variable `{x}`"),
                        ))
                    }
                };
                self.node(e, &v, &[], 0, 0);
                Ok(v)
            }
            ExprKind::Lit(l) => {
                let v = match l {
                    Lit::Int(n) => RV::Z(Arr::scalar(n.to_i64().ok_or_else(|| overflow(e.span))?)),
                    Lit::Real(r) => RV::R(Arr::scalar(S::from_rational(r))),
                    Lit::Bool(b) => RV::B(Arr::scalar(*b)),
                    Lit::NonFinite(x) => {
                        RV::R(Arr::scalar(S::non_finite(*x).ok_or_else(|| {
                            Diagnostic::new(
                                ErrorKind::NonRational,
                                e.span,
                                crate::scalar::non_finite_message(*x),
                            )
                        })?))
                    }
                };
                self.node(e, &v, &[], 0, 0);
                Ok(v)
            }
            ExprKind::Array(es) => self.eval_stack(e, es),
            ExprKind::Tuple(es) => {
                let mut vs = Vec::with_capacity(es.len());
                for c in es {
                    vs.push(self.eval(c)?);
                }
                let sizes: Vec<usize> = if self.observing() {
                    vs.iter().map(RV::size).collect()
                } else {
                    Vec::new()
                };
                let v = RV::T(Rc::new(vs));
                self.node(e, &v, &sizes, 0, 0);
                Ok(v)
            }
            ExprKind::Proj(t, k) => {
                let tv = self.eval(t)?;
                let v = match &tv {
                    RV::T(vs) if *k < vs.len() => vs[*k].clone(),
                    other => {
                        return Err(ill(
                            e.span,
                            format!(
                                "cannot take component {k} of a value of type {}",
                                other.ty()
                            ),
                        ))
                    }
                };
                self.node(e, &v, &[tv.size()], 0, 0);
                Ok(v)
            }
            ExprKind::If(c, a, b) => {
                let cv = self.eval(c)?;
                let cond = match cv.as_b().and_then(Arr::as_scalar) {
                    Some(c) => *c,
                    None => {
                        return Err(ill(
                            c.span,
                            format!("`if` needs a B condition, found {}", cv.ty()),
                        ))
                    }
                };
                let v = self.eval(if cond { a } else { b })?;
                self.node(e, &v, &[1, v.size()], 0, 0);
                Ok(v)
            }
            ExprKind::Unary(op, a) => {
                let av = self.eval(a)?;
                let v = self.unary(e, *op, &av)?;
                self.node(e, &v, &[av.size()], 0, 0);
                Ok(v)
            }
            ExprKind::Binary(op, a, b) => {
                let av = self.eval(a)?;
                let bv = self.eval(b)?;
                let v = self.binary(e, *op, &av, &bv)?;
                self.node(e, &v, &[av.size(), bv.size()], 0, 0);
                Ok(v)
            }
            ExprKind::Call(name, _) => Err(Diagnostic::new(
                ErrorKind::Unsupported,
                e.span,
                format!("call of `{name}`: calls must be inlined before evaluation"),
            )),
            ExprKind::Prim(p, args) => self.eval_prim(e, p, args),
            ExprKind::Index(a, is) => self.eval_index(e, a, is),
            ExprKind::Build(sh, names, body) => self.eval_build(e, sh, names, body),
            ExprKind::Gather(sh, x, names, ix) => self.eval_gather(e, sh, x, names, ix),
            ExprKind::Scatter(sh, x, names, ix) => self.eval_scatter(e, sh, x, names, ix),
            ExprKind::Map(lam, xs) => self.eval_map(e, lam, xs),
            ExprKind::Reduce(op, ne, xs) => self.eval_reduce(e, op, ne, xs, false),
            ExprKind::Scan(op, ne, xs) => self.eval_reduce(e, op, ne, xs, true),
            ExprKind::ReduceByIndex {
                dest,
                op,
                ne,
                is,
                vs,
            } => self.eval_rbi(e, dest, op, ne, is, vs),
            ExprKind::ScatterInto { dest, is, vs } => self.eval_scatter_into(e, dest, is, vs),
            ExprKind::Loop {
                acc,
                init,
                var,
                count,
                body,
            } => self.eval_loop(e, acc, init, var, *count, body),
            ExprKind::Let(..) => self.eval_lets(e),
        }?;
        self.produced(e, &v)?;
        Ok(v)
    }

    /// Evaluates a chain of `let`s without recursing on the bodies (long let chains, the
    /// usual shape of derivative programs, need no stack).
    fn eval_lets(&mut self, e: &'a Expr) -> Result<RV<S>> {
        let mut pending: Vec<(&'a Expr, &'a Pat, usize)> = Vec::new();
        let mut cur = e;
        while let ExprKind::Let(p, e1, body) = &cur.kind {
            self.step(cur.span)?;
            let v = self.eval(e1)?;
            let size = if self.observing() { v.size() } else { 0 };
            self.bind_pat(p, v, cur.span)?;
            pending.push((cur, p, size));
            cur = body;
        }
        let r = self.eval(cur)?;
        while let Some((le, p, size)) = pending.pop() {
            self.unbind_pat(p);
            self.node(le, &r, &[size, r.size()], 0, 0);
        }
        Ok(r)
    }

    /// `[e1, ..., en]` and `stack([e1, ..., en])`.
    pub fn eval_stack(&mut self, e: &'a Expr, es: &'a [Expr]) -> Result<RV<S>> {
        let mut vs = Vec::with_capacity(es.len());
        for c in es {
            vs.push(self.eval(c)?);
        }
        let sizes: Vec<usize> = if self.observing() {
            vs.iter().map(RV::size).collect()
        } else {
            Vec::new()
        };
        let v = match vs.first() {
            None => return Err(ill(e.span, "an array literal needs at least one element")),
            Some(first) => {
                let ty = first.ty();
                if let Some(k) = vs.iter().position(|v| !same_type(v, first)) {
                    return Err(ill(
                        es[k].span,
                        format!(
                            "array elements must have one type: {} and {}",
                            ty,
                            vs[k].ty()
                        ),
                    ));
                }
                crate::rt::stack(vs)
                    .ok_or_else(|| ill(e.span, "array elements must have one type"))?
            }
        };
        self.node(e, &v, &sizes, 0, 0);
        Ok(v)
    }
}

/// Whether two values have the same type (without building the types).
pub(super) fn same_type<S: Scalar>(a: &RV<S>, b: &RV<S>) -> bool {
    match (a, b) {
        (RV::T(x), RV::T(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| same_type(p, q))
        }
        _ => match (a.array(), b.array()) {
            (Some((ba, sa)), Some((bb, sb))) => ba == bb && same_shape(sa, sb),
            _ => false,
        },
    }
}
