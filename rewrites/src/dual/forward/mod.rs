//! The dual-arrays forward transformation, runtime version (seed 000 §6.3, Figs. 14–15):
//! an interpreter of build-free core programs whose real values are dual arrays — a
//! concrete primal tensor and a Delta term for its forward derivative.
//!
//! One rule per construct (`⟦e⟧ = (v, dv)`; the elementwise and primitive rules are in
//! `prims.rs`). Indexing, `gather` and `scatter` are linear in the table of primitives
//! (docs/rules/primitives.md): their Delta is the primitive applied to the operand's
//! Delta; an out-of-bounds read is the constant zero (docs/language.md), Delta `Zero`.
//!
//! | construct | rule | paper |
//! |---|---|---|
//! | `x` | the environment's dual array | Fig. 14 (var) |
//! | literal | `(c, Zero)` | Fig. 14 (const) |
//! | `let x = e1 in e2` | `⟦e2⟧` with `x ↦ (v1, Share(n, dv1))`, `n` fresh | §6.3, §2.5, App. D (`tlet` → global sharing) |
//! | `(e1, …)`, `e.k` | componentwise | Fig. 2 (pairs) |
//! | `[e1, …]`, `stack` | `(stack vs, Stack(dvs))` | Fig. 15 (fromVector) |
//! | `e[ix]` | `(v[ix], Index(dv, ix))`, `ix` by 𝒩 | Fig. 14 (index), §6.2 |
//! | `gather(sh, e, f)` | `(gather v f, Gather(dv, f))`, `f` by 𝒩 | Fig. 14 (gather), §6.2 |
//! | `scatter(sh, e, f)` | `(scatter v f, Scatter(dv, f))`, `f` by 𝒩 | Fig. 14 (scatter), §6.2 |
//!
//! **The non-differentiating transformation 𝒩 (§6.2, Fig. 13)**: index terms and the
//! index maps of `gather`/`scatter` are evaluated on primal values only — their results
//! are integers, which cannot continuously influence the result — so no Delta is built
//! for anything inside them (the interpreter runs them with `diff` off, where every real
//! gets `Zero`). A `gather`'s index map is evaluated once per point of its index space
//! and materialised as a [`Table`].
//!
//! Derivatives are taken with respect to real inputs only (docs/language.md): integer and
//! boolean values carry no Delta. `build` is rejected (the engine runs bot first), as are
//! the seed-004 constructs; the wildcard arm makes any future construct an
//! `Unsupported` error.

mod prims;

use super::delta::{Delta, Ids};
use super::value::{seed_input, Table, DV};
use crate::prims::PrimId;
use adora_core::ast::{Expr, ExprKind, Function, Lit, Name, Pat};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::visit::ScopedMap;
use adora_semantics::eval::EvalOptions;
use adora_semantics::kernels::limits::{ill, Checks};
use adora_semantics::kernels::tensor::{self, checked_volume, flat_prefix, unflatten};
use adora_semantics::scalar::Scalar;
use adora_semantics::value::{Tensor, Value};
use std::rc::Rc;

/// The runtime forward pass: an environment of dual arrays, the `Share` id supply, the
/// evaluator's checks, and whether Deltas are being built (off inside 𝒩).
pub struct Forward<'o, S: Scalar> {
    env: ScopedMap<DV<S>>,
    /// The `Share` id supply (ids increase in evaluation order: invariant 1 of §2.5).
    pub ids: Ids,
    ck: Checks<'o, S>,
    diff: bool,
    /// Whether `build` is evaluated (the pipeline without bot, [`run_with_builds`]).
    builds: bool,
}

/// The result of the forward pass over a whole function.
pub struct ForwardResult<S: Scalar> {
    /// The result as a dual array (primal values and Deltas).
    pub result: DV<S>,
    /// Number of real input leaves (the `Input` ids are `0..inputs`).
    pub inputs: usize,
}

/// An `Unsupported` error naming the construct and its position.
pub fn unsupported(e: &Expr, what: &str) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Unsupported,
        e.span,
        format!("the dual-arrays transformation does not support {what}"),
    )
}

/// Checks that the inputs match the parameters' types: the reference's validation
/// (`adora_semantics::reference::check_inputs`).
pub use adora_semantics::reference::check_inputs;

/// Runs the forward pass of `f` (build-free) on `inputs`.
pub fn run<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    opts: &EvalOptions,
) -> Result<ForwardResult<S>> {
    run_with(f, inputs, opts, false)
}

/// Runs the forward pass of `f` on `inputs` **without bot** (seed 000 §4.4, App. D.2: AD
/// is decoupled from bot): a `build` is evaluated point by point, its body's dual arrays
/// stacked (`Stack` of the per-point Deltas), so every executed `index` inside it gives
/// its own `Index` node, the one-hot problem of §4.4. Correct, only less efficient; a
/// `build` with an empty extent is `Unsupported` (its element type is not at hand).
pub fn run_with_builds<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    opts: &EvalOptions,
) -> Result<ForwardResult<S>> {
    run_with(f, inputs, opts, true)
}

fn run_with<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    opts: &EvalOptions,
    builds: bool,
) -> Result<ForwardResult<S>> {
    check_inputs(f, inputs)?;
    let mut fw = Forward::new(opts);
    fw.builds = builds;
    let mut next = 0usize;
    for (p, v) in f.params.iter().zip(inputs) {
        let dv = seed_input(v, &mut next);
        fw.env.push(&p.name, dv);
    }
    let result = fw.eval(&f.body)?;
    Ok(ForwardResult {
        result,
        inputs: next,
    })
}

impl<'o, S: Scalar> Forward<'o, S> {
    /// A pass with an empty environment.
    pub fn new(opts: &'o EvalOptions) -> Forward<'o, S> {
        Forward {
            env: ScopedMap::new(),
            ids: Ids::new(),
            ck: Checks::new(opts),
            diff: true,
            builds: false,
        }
    }

    /// Binds `name` (for callers that evaluate open terms).
    pub fn bind(&mut self, name: &str, v: DV<S>) {
        self.env.push(name, v);
    }

    /// Evaluates `e` on primal values only (𝒩): the result's Deltas are all `Zero`.
    pub fn eval_primal(&mut self, e: &Expr) -> Result<DV<S>> {
        let saved = std::mem::replace(&mut self.diff, false);
        let r = self.eval(e);
        self.diff = saved;
        r
    }

    /// A real result: `delta()` is only called while Deltas are being built.
    fn real(
        &self,
        t: Tensor<S>,
        delta: impl FnOnce(&Rc<Tensor<S>>) -> super::value::RDelta<S>,
    ) -> DV<S> {
        let t = Rc::new(t);
        let d = if self.diff {
            delta(&t)
        } else {
            Delta::zero(t.shape.clone())
        };
        DV::R(t, d)
    }

    /// Evaluates an expression to a dual array.
    pub fn eval(&mut self, e: &Expr) -> Result<DV<S>> {
        self.ck.charge(1, e.span)?;
        let v = match &e.kind {
            ExprKind::Var(n) => self.env.get(n).cloned().ok_or_else(|| {
                Diagnostic::new(ErrorKind::Name, e.span, format!("unbound variable `{n}`"))
            }),
            ExprKind::Lit(l) => Ok(match l {
                Lit::Int(n) => {
                    let v = i64::try_from(n)
                        .map_err(|_| adora_semantics::kernels::limits::overflow(e.span))?;
                    DV::Z(Rc::new(Tensor::scalar(v)))
                }
                Lit::Real(r) => DV::constant(Tensor::scalar(S::from_rational(r))),
                Lit::Bool(b) => DV::B(Rc::new(Tensor::scalar(*b))),
                Lit::NonFinite(x) => {
                    let v = S::non_finite(*x).ok_or_else(|| {
                        Diagnostic::new(
                            ErrorKind::NonRational,
                            e.span,
                            adora_semantics::scalar::non_finite_message(*x),
                        )
                    })?;
                    DV::constant(Tensor::scalar(v))
                }
            }),
            ExprKind::Array(es) => {
                let mut vs = Vec::with_capacity(es.len());
                for c in es {
                    vs.push(self.eval(c)?);
                }
                self.stack(e, vs)
            }
            ExprKind::Tuple(es) => {
                let mut vs = Vec::with_capacity(es.len());
                for c in es {
                    vs.push(self.eval(c)?);
                }
                Ok(DV::T(vs))
            }
            ExprKind::Proj(x, k) => match self.eval(x)? {
                DV::T(mut vs) if *k < vs.len() => Ok(vs.swap_remove(*k)),
                other => Err(ill(
                    e.span,
                    format!("cannot project .{k} of {}", other.describe()),
                )),
            },
            ExprKind::Let(p, v, b) => {
                let val = self.eval(v)?;
                let names = self.bind_pat(p, val, e.span)?;
                let r = self.eval(b);
                for n in names.iter().rev() {
                    self.env.pop(n);
                }
                r
            }
            ExprKind::Unary(op, x) => {
                let a = self.eval(x)?;
                self.unary(e, *op, a)
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                self.binary(e, *op, x, y)
            }
            ExprKind::Prim(adora_core::ast::Prim::Stack, es) => {
                let mut vs = Vec::with_capacity(es.len());
                for c in es {
                    vs.push(self.eval(c)?);
                }
                self.stack(e, vs)
            }
            ExprKind::Prim(p, args) => {
                let mut vs = Vec::with_capacity(args.len());
                for c in args {
                    vs.push(self.eval(c)?);
                }
                self.prim(e, p, vs)
            }
            ExprKind::Index(x, ix) => self.index(e, x, ix),
            ExprKind::Gather(sh, x, bs, ix) => self.gather(e, sh, x, bs, ix),
            ExprKind::Scatter(sh, x, bs, ix) => self.scatter(e, sh, x, bs, ix),
            ExprKind::Build(sh, bs, body) if self.builds => self.build(e, sh, bs, body, 0),
            ExprKind::Build(..) => Err(unsupported(e, "`build` (run bot first)")),
            other => Err(unsupported(e, &format!("`{}`", other.form_name()))),
        }?;
        self.produced(e, &v)?;
        Ok(v)
    }

    /// Counts the array `v` that node `e` produced, as the evaluator does
    /// (`adora_semantics::kernels::limits::produces`: one step and its bytes per scalar;
    /// docs/language.md, "Resource limits"). Deltas are not counted: each is one node per
    /// operation, and evaluating them is the same work again (seed 000 §6.4).
    fn produced(&mut self, e: &Expr, v: &DV<S>) -> Result<()> {
        if !adora_semantics::kernels::limits::produces(&e.kind) {
            return Ok(());
        }
        let scalars = v.array_scalars();
        if scalars > 0 {
            self.ck.produce(scalars, e.span)?;
        }
        Ok(())
    }

    /// Binds a `let` pattern; the bound Deltas are shared (global sharing: the only
    /// place a Delta can be duplicated is a variable used more than once).
    fn bind_pat(&mut self, p: &Pat, v: DV<S>, span: Span) -> Result<Vec<Name>> {
        match p {
            Pat::Var(n) => {
                let v = self.share_all(v);
                self.env.push(n, v);
                Ok(vec![n.clone()])
            }
            Pat::Tuple(ns) => match v {
                DV::T(vs) if vs.len() == ns.len() => {
                    for (n, c) in ns.iter().zip(vs) {
                        let c = self.share_all(c);
                        self.env.push(n, c);
                    }
                    Ok(ns.clone())
                }
                other => Err(ill(
                    span,
                    format!(
                        "cannot bind a pattern of {} names to {}",
                        ns.len(),
                        other.describe()
                    ),
                )),
            },
        }
    }

    fn share_all(&mut self, v: DV<S>) -> DV<S> {
        match v {
            DV::R(t, d) => DV::R(t, d.share(&mut self.ids)),
            DV::T(vs) => DV::T(vs.into_iter().map(|c| self.share_all(c)).collect()),
            other => other,
        }
    }

    /// `[e1, …]` / `stack([…])`: `(stack vs, Stack(dvs))`.
    fn stack(&mut self, e: &Expr, vs: Vec<DV<S>>) -> Result<DV<S>> {
        let same_shape = |a: &[usize], b: &[usize]| a == b;
        match vs.first() {
            Some(DV::R(first, _)) => {
                let shape = first.shape.clone();
                let mut ts = Vec::with_capacity(vs.len());
                let mut ds = Vec::with_capacity(vs.len());
                for v in &vs {
                    match v {
                        DV::R(t, d) if same_shape(&t.shape, &shape) => {
                            ts.push(&**t);
                            ds.push(d.clone());
                        }
                        _ => return Err(ill(e.span, "array elements must have one type")),
                    }
                }
                let t = tensor::stack(&ts);
                Ok(self.real(t, |_| Delta::stack(ds)))
            }
            Some(DV::Z(first)) => {
                let mut ts = Vec::with_capacity(vs.len());
                for v in &vs {
                    match v {
                        DV::Z(t) if same_shape(&t.shape, &first.shape) => ts.push(&**t),
                        _ => return Err(ill(e.span, "array elements must have one type")),
                    }
                }
                Ok(DV::Z(Rc::new(tensor::stack(&ts))))
            }
            Some(DV::B(first)) => {
                let mut ts = Vec::with_capacity(vs.len());
                for v in &vs {
                    match v {
                        DV::B(t) if same_shape(&t.shape, &first.shape) => ts.push(&**t),
                        _ => return Err(ill(e.span, "array elements must have one type")),
                    }
                }
                Ok(DV::B(Rc::new(tensor::stack(&ts))))
            }
            _ => Err(ill(e.span, "an array literal needs array elements")),
        }
    }

    /// `build sh (bs => body)` point by point from dimension `k` on (only without bot,
    /// [`run_with_builds`]): the stack of the body's dual arrays.
    fn build(
        &mut self,
        e: &Expr,
        sh: &[usize],
        bs: &[Name],
        body: &Expr,
        k: usize,
    ) -> Result<DV<S>> {
        let (Some(&n), Some(b)) = (sh.get(k), bs.get(k)) else {
            return self.eval(body);
        };
        if n == 0 {
            return Err(unsupported(e, "a `build` with an empty extent without bot"));
        }
        let mut vs = Vec::with_capacity(n);
        for i in 0..n {
            self.env.push(b, DV::Z(Rc::new(Tensor::scalar(i as i64))));
            let v = self.build(e, sh, bs, body, k + 1);
            self.env.pop(b);
            vs.push(v?);
        }
        self.stack(e, vs)
    }

    /// Evaluates index terms by 𝒩 (integers; no Deltas).
    fn indices(&mut self, ix: &[Expr], out: &mut Vec<i64>) -> Result<()> {
        out.clear();
        for i in ix {
            match self.eval_primal(i)? {
                DV::Z(t) if t.shape.is_empty() => out.push(t.data[0]),
                other => {
                    return Err(ill(
                        i.span,
                        format!("an index must be a Z scalar, found {}", other.describe()),
                    ))
                }
            }
        }
        Ok(())
    }

    /// `x[ix]`: `(v[ix], Index(dv, ix))`; out of bounds reads zeros.
    fn index(&mut self, e: &Expr, x: &Expr, ix: &[Expr]) -> Result<DV<S>> {
        let xv = self.eval(x)?;
        let mut idx = Vec::with_capacity(ix.len());
        self.indices(ix, &mut idx)?;
        let rank_ok = |shape: &[usize]| idx.len() <= shape.len();
        match xv {
            DV::R(t, d) if rank_ok(&t.shape) => {
                let v = tensor::read_prefix(&t, &idx, &S::zero());
                let k = idx.len();
                // An out-of-bounds read is the constant zero: its Delta is `Zero`.
                let inside = flat_prefix(&t.shape, &idx).is_some();
                self.by_linear(
                    PrimId::Index,
                    vec![Some(d), None],
                    v,
                    e.span,
                    |ds, v| match inside {
                        true => prims::lin1(ds, |d| Delta::index(d, idx.clone(), k)),
                        false => Some(Delta::zero(v.shape.clone())),
                    },
                )
            }
            DV::Z(t) if rank_ok(&t.shape) => Ok(DV::Z(Rc::new(tensor::read_prefix(&t, &idx, &0)))),
            DV::B(t) if rank_ok(&t.shape) => {
                Ok(DV::B(Rc::new(tensor::read_prefix(&t, &idx, &false))))
            }
            other => Err(ill(
                e.span,
                format!("cannot index {} by {} indices", other.describe(), idx.len()),
            )),
        }
    }

    /// The table of an index map over `space` (evaluated by 𝒩): for each point (binders bound to its
    /// coordinates), the flat slot of `ix` in the leading dimensions of `target`.
    pub fn table(
        &mut self,
        span: Span,
        space: &[usize],
        bs: &[Name],
        ix: &[Expr],
        target: &[usize],
    ) -> Result<Table> {
        if bs.len() != space.len() || ix.len() > target.len() {
            return Err(ill(span, "ill-formed index map"));
        }
        let total = self.ck.limit(checked_volume(space), span)?;
        for b in bs {
            self.env.push(b, DV::Z(Rc::new(Tensor::scalar(0))));
        }
        let mut point = vec![0usize; space.len()];
        let mut at = Vec::with_capacity(ix.len());
        let mut targets = Vec::with_capacity(total);
        let mut result = Ok(());
        for t in 0..total {
            unflatten(t, space, &mut point);
            for (b, &i) in bs.iter().zip(&point) {
                self.env.pop(b);
                self.env.push(b, DV::Z(Rc::new(Tensor::scalar(i as i64))));
            }
            if let Err(d) = self.indices(ix, &mut at) {
                result = Err(d);
                break;
            }
            targets.push(flat_prefix(target, &at));
        }
        for b in bs.iter().rev() {
            self.env.pop(b);
        }
        result?;
        Ok(Table {
            space: space.to_vec(),
            prefix: ix.len(),
            targets,
        })
    }

    /// `gather(sh, x, is => ix)`: `(gather v f, Gather(dv, f))`.
    fn gather(
        &mut self,
        e: &Expr,
        sh: &[usize],
        x: &Expr,
        bs: &[Name],
        ix: &[Expr],
    ) -> Result<DV<S>> {
        let xv = self.eval(x)?;
        let src_shape = match &xv {
            DV::R(t, _) => t.shape.clone(),
            DV::Z(t) => t.shape.clone(),
            DV::B(t) => t.shape.clone(),
            DV::T(_) => return Err(ill(e.span, "`gather` needs an array")),
        };
        let table = self.table(e.span, sh, bs, ix, &src_shape)?;
        let tail = src_shape.get(ix.len()..).unwrap_or(&[]);
        self.ck.limit(
            checked_volume(tail).and_then(|m| m.checked_mul(table.targets.len())),
            e.span,
        )?;
        let k = table.prefix;
        Ok(match xv {
            DV::R(t, d) => {
                let v = tensor::gather_rows(&t, k, sh, &table.targets, &S::zero());
                let shape = v.shape.clone();
                self.by_linear(PrimId::Gather, vec![Some(d)], v, e.span, |ds, _| {
                    prims::lin1(ds, |d| Delta::gather(d, Rc::new(table), shape))
                })?
            }
            DV::Z(t) => DV::Z(Rc::new(tensor::gather_rows(&t, k, sh, &table.targets, &0))),
            DV::B(t) => DV::B(Rc::new(tensor::gather_rows(
                &t,
                k,
                sh,
                &table.targets,
                &false,
            ))),
            DV::T(_) => return Err(ill(e.span, "`gather` needs an array")),
        })
    }

    /// `scatter(sh, x, is => ix)`: `(scatter v f, Scatter(dv, f))`; out-of-bounds writes
    /// are dropped, colliding writes add.
    fn scatter(
        &mut self,
        e: &Expr,
        sh: &[usize],
        x: &Expr,
        bs: &[Name],
        ix: &[Expr],
    ) -> Result<DV<S>> {
        let xv = self.eval(x)?;
        let src_shape = match &xv {
            DV::R(t, _) => t.shape.clone(),
            DV::Z(t) => t.shape.clone(),
            _ => return Err(ill(e.span, "`scatter` needs an R or Z array")),
        };
        let (k, j) = (bs.len(), ix.len());
        let well_formed = k <= src_shape.len() && j <= sh.len() && sh[j..] == src_shape[k..];
        if !well_formed {
            return Err(Diagnostic::new(
                ErrorKind::Shape,
                e.span,
                "ill-formed `scatter`",
            ));
        }
        self.ck.limit(checked_volume(sh), e.span)?;
        let table = self.table(e.span, &src_shape[..k], bs, ix, sh)?;
        let span = e.span;
        Ok(match xv {
            DV::R(t, d) => {
                let fit_bits = self.ck.opts.max_rational_bits;
                let v = tensor::scatter_rows(&t, sh, j, &table.targets, &S::zero(), |a, b| {
                    a.add_assign(b);
                    if a.value_fits_bits(fit_bits) {
                        Ok(())
                    } else {
                        self.ck.fit(a.clone(), span).map(|_| ())
                    }
                })?;
                self.by_linear(PrimId::Scatter, vec![Some(d)], v, span, |ds, _| {
                    prims::lin1(ds, |d| Delta::scatter(d, Rc::new(table), sh.to_vec()))
                })?
            }
            DV::Z(t) => DV::Z(Rc::new(tensor::scatter_rows(
                &t,
                sh,
                j,
                &table.targets,
                &0i64,
                |a, b| {
                    *a = a
                        .checked_add(*b)
                        .ok_or_else(|| adora_semantics::kernels::limits::overflow(span))?;
                    Ok::<(), Diagnostic>(())
                },
            )?)),
            _ => return Err(ill(e.span, "`scatter` needs an R or Z array")),
        })
    }
}
