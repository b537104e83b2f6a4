//! Lowering an elaborated function to a kernel plan (docs/backend.md, "Lowering").
//!
//! Array expressions become delayed arrays ([`super::arr`]); elementwise operations,
//! gathers, transposes, replicates, reshapes and `build` bodies compose into one kernel
//! body (fusion). Kernels are emitted where a value must exist in memory: a `let` used
//! more than once or under a binder, reductions, scans, scatters, loop accumulators and
//! the result.

use super::arr::{Arr, HVal, Ids, Src};
use super::sx::{Bin, Sx, Un, VarId};
use super::{Buffer, Kernel, KernelKind, Output, Plan, RedOp, Step};
use adora_core::ast::{BinOp, Expr, ExprKind, Function, Lit, Pat, Prim, UnOp};
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::types::{Base, Type};
use num_traits::ToPrimitive;
use std::collections::HashMap;
use std::rc::Rc;

/// Where an expression is lowered: at the host (may emit kernels) or inside a kernel's
/// body (may not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ctx {
    /// Host level.
    Host,
    /// Inside a kernel body.
    Kernel,
}

/// The lowering state.
pub(crate) struct Lower {
    pub ids: Ids,
    pub buffers: Vec<Buffer>,
    /// The step lists being filled (a loop pushes its body's).
    pub steps: Vec<Vec<Step>>,
    pub env: HashMap<String, HVal>,
    /// Uses of each name, and whether one is under a binder that repeats.
    uses: HashMap<String, (usize, bool)>,
    kernels: usize,
}

/// The error for a construct the plan cannot express.
pub(crate) fn unsupported(e: &Expr, what: &str) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Unsupported,
        e.span,
        format!(
            "the kernel plan does not support {what} (docs/backend.md, \"What the plan refuses\")"
        ),
    )
}

fn count_uses(e: &Expr, under: bool, out: &mut HashMap<String, (usize, bool)>) {
    if let ExprKind::Var(n) = &e.kind {
        let u = out.entry(n.clone()).or_insert((0, false));
        u.0 += 1;
        u.1 |= under;
    }
    // A `let` body and a loop body are host-level code, not repeated per element.
    let host_body = matches!(e.kind, ExprKind::Let(..) | ExprKind::Loop { .. });
    for (c, bound) in adora_core::visit::scoped_children(e) {
        count_uses(c, under || (!bound.is_empty() && !host_body), out);
    }
}

/// Lowers `f` (before the memory plan).
pub(crate) fn lower(f: &Function) -> Result<Plan> {
    let mut l = Lower {
        ids: Ids::default(),
        buffers: Vec::new(),
        steps: vec![Vec::new()],
        env: HashMap::new(),
        uses: HashMap::new(),
        kernels: 0,
    };
    count_uses(&f.body, false, &mut l.uses);
    let mut inputs = Vec::new();
    for p in &f.params {
        let (v, o) = l.input(&p.ty);
        l.env.insert(p.name.clone(), v);
        inputs.push(o);
    }
    let body = l.expr(&f.body, Ctx::Host)?;
    let output = l.materialize_all(body);
    Ok(Plan {
        name: f.name.clone(),
        buffers: l.buffers,
        inputs,
        steps: l.steps.pop().unwrap_or_default(),
        output,
        ret: f.ret.clone(),
        slots: Vec::new(),
    })
}

/// The first operand of a `sum` of `n` elements. The evaluator's sum is a left fold from
/// the first element (0 when there is none), so a sum of `-0.0`s is `-0.0`; `-0.0` is the
/// neutral element of IEEE addition that keeps it (`-0.0 + x` is `x` for every `x`, and
/// `+0.0 + -0.0` is `+0.0`), and `+0.0` is the empty sum.
pub(crate) fn sum_start(n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        -0.0
    }
}

/// The base of a literal.
fn lit(l: &Lit) -> (Base, f64) {
    match l {
        Lit::Int(n) => (Base::Z, n.to_f64().unwrap_or(f64::NAN)),
        Lit::Real(r) => (
            Base::R,
            <f64 as adora_semantics::scalar::Scalar>::from_rational(r),
        ),
        Lit::Bool(b) => (Base::B, f64::from(*b)),
        Lit::NonFinite(x) => (Base::R, x.to_f64()),
    }
}

impl Lower {
    fn input(&mut self, ty: &Type) -> (HVal, Output) {
        match ty {
            Type::Array(b, s) => {
                let id = self.buffer(*b, s.clone());
                (HVal::Arr(self.buf_arr(id)), Output::Buf(id))
            }
            Type::Tuple(ts) => {
                let (vs, os) = ts.iter().map(|t| self.input(t)).unzip();
                (HVal::Tup(vs), Output::Tuple(os))
            }
        }
    }

    /// A new buffer.
    pub fn buffer(&mut self, base: Base, shape: Vec<usize>) -> usize {
        self.buffers.push(Buffer {
            shape,
            base,
            slot: 0,
        });
        self.buffers.len() - 1
    }

    /// The delayed array of a whole buffer.
    pub fn buf_arr(&self, id: usize) -> Arr {
        let b = &self.buffers[id];
        Arr {
            base: b.base,
            shape: b.shape.clone(),
            src: Src::Buf(id),
        }
    }

    /// Appends a kernel computing `kind` into `out`, with its variables renumbered.
    pub fn emit(&mut self, out: usize, tag: &str, mut kind: KernelKind) {
        self.tabulate(out, &mut kind);
        {
            let ids = &mut self.ids;
            let mut fresh = || ids.fresh();
            for e in kind.exprs_mut() {
                e.share_equal_operands(&mut fresh);
            }
        }
        let mut map: HashMap<VarId, VarId> = HashMap::new();
        let mut counters = Vec::new();
        let ids = &self.ids;
        let mut f = |v: VarId| -> VarId {
            let n = map.len() as VarId;
            let k = *map.entry(v).or_insert(n);
            if ids.counters.contains(&v) && !counters.iter().any(|&(a, _)| a == k) {
                counters.push((k, v));
            }
            k
        };
        // Binders first, so a kernel's own index variables are numbered from 0 in order.
        for v in kind.binders_mut() {
            *v = f(*v);
        }
        for e in kind.exprs_mut() {
            e.rename(&mut f);
        }
        let nvars = map.len() as u32;
        self.kernels += 1;
        let k = Kernel {
            name: format!("k{}_{tag}", self.kernels),
            out,
            kind,
            nvars,
            counters,
        };
        self.steps
            .last_mut()
            .expect("a step list")
            .push(Step::Kernel(k));
    }

    /// Emits the tables of a `map` or `reduce` kernel's body ([`super::tabulate`]) and
    /// makes the body read them.
    fn tabulate(&mut self, out: usize, kind: &mut KernelKind) {
        let points = self.buffers[out].len();
        let (space, points, body) = match kind {
            KernelKind::Map { vars, body } => (vars.clone(), points, body),
            KernelKind::Reduce {
                vars,
                red_vars,
                red,
                body,
                ..
            } => (
                vars.iter().chain(red_vars.iter()).copied().collect(),
                points.saturating_mul(red.iter().product()),
                body,
            ),
            _ => return,
        };
        let tables = super::tabulate::tabulate(&self.ids, &space, points, body);
        if tables.is_empty() {
            return;
        }
        let mut bufs = Vec::new();
        for t in tables {
            let b = self.buffer(Base::R, t.shape);
            self.emit(
                b,
                "table",
                KernelKind::Map {
                    vars: t.vars,
                    body: t.body,
                },
            );
            bufs.push(b);
        }
        let n = bufs.len();
        body.rebuffer(&|b| {
            let k = usize::MAX - b;
            if k < n {
                bufs[k]
            } else {
                b
            }
        });
    }

    /// The buffer holding `a` (a new one computed by a kernel unless `a` is one).
    pub fn materialize(&mut self, a: &Arr) -> usize {
        match &a.src {
            Src::Buf(b) => *b,
            Src::Fn { params, body } => {
                let out = self.buffer(a.base, a.shape.clone());
                let kind = super::matmul::recognise(self, params, body).unwrap_or_else(|| {
                    KernelKind::Map {
                        vars: params.clone(),
                        body: (**body).clone(),
                    }
                });
                let tag = kind.tag("map");
                self.emit(out, tag, kind);
                out
            }
        }
    }

    /// A new buffer of element type `base` computed by `out[vars] = init op body(r_0) op
    /// …` over the reduced variables (their ranges give the shapes), one kernel: a matrix
    /// product where [`super::matmul`] or [`super::batched`] recognises one.
    pub fn reduce_kernel(
        &mut self,
        base: Base,
        vars: Vec<VarId>,
        red_vars: Vec<VarId>,
        op: RedOp,
        init: Sx,
        body: Sx,
    ) -> usize {
        let shape: Vec<usize> = vars.iter().map(|v| self.ids.range[v]).collect();
        let red: Vec<usize> = red_vars.iter().map(|v| self.ids.range[v]).collect();
        let buf = self.buffer(base, shape);
        let kind = super::matmul::recognise_reduce(self, op, &vars, &red_vars, &init, &body)
            .unwrap_or(KernelKind::Reduce {
                vars,
                red_vars,
                red,
                op,
                init,
                body,
            });
        let tag = kind.tag("reduce");
        self.emit(buf, tag, kind);
        buf
    }

    /// Materialises every array of a value.
    pub fn materialize_all(&mut self, v: HVal) -> Output {
        match v {
            HVal::Arr(a) => Output::Buf(self.materialize(&a)),
            HVal::Tup(vs) => {
                Output::Tuple(vs.into_iter().map(|v| self.materialize_all(v)).collect())
            }
        }
    }

    /// A value with every array in a buffer, as delayed arrays of those buffers.
    pub fn buffered(&mut self, v: HVal) -> HVal {
        match v {
            HVal::Arr(a) => {
                let b = self.materialize(&a);
                HVal::Arr(self.buf_arr(b))
            }
            HVal::Tup(vs) => HVal::Tup(vs.into_iter().map(|v| self.buffered(v)).collect()),
        }
    }

    /// Lowers a scalar expression.
    pub fn scalar(&mut self, e: &Expr, ctx: Ctx) -> Result<Sx> {
        let a = self.expr(e, ctx)?.arr();
        Ok(a.get(&self.ids))
    }

    fn bind(&mut self, p: &Pat, v: HVal) {
        match (p, v) {
            (Pat::Var(n), v) => {
                self.env.insert(n.clone(), v);
            }
            (Pat::Tuple(ns), HVal::Tup(vs)) => {
                for (n, v) in ns.iter().zip(vs) {
                    self.env.insert(n.clone(), v);
                }
            }
            (Pat::Tuple(_), HVal::Arr(_)) => panic!("a checked tuple pattern binds a tuple"),
        }
    }

    /// Binds a lambda's or a loop's pattern.
    pub fn bind_pat(&mut self, p: &Pat, v: HVal) {
        self.bind(p, v)
    }

    /// Binds a name.
    pub fn bind_name(&mut self, n: &str, v: HVal) {
        self.env.insert(n.to_string(), v);
    }

    /// A host `let`'s value: materialised unless it is used once, outside repeating
    /// binders, and has no fold, or is cheap to recompute at every use
    /// ([`Arr::is_cheap`]); then it fuses into its uses.
    fn host_let(&mut self, name: &str, v: HVal) -> HVal {
        let (n, under) = self.uses.get(name).copied().unwrap_or((0, false));
        match v {
            HVal::Arr(a) if n == 1 && !under && !a.is_costly() => HVal::Arr(a),
            HVal::Arr(a) if n >= 1 && a.is_cheap() => HVal::Arr(a),
            HVal::Arr(_) if n == 0 => HVal::Tup(Vec::new()),
            HVal::Arr(a) => match self.compact(&a) {
                Some(c) => HVal::Arr(c),
                None => {
                    let b = self.materialize(&a);
                    HVal::Arr(self.buf_arr(b))
                }
            },
            HVal::Tup(vs) => HVal::Tup(vs.into_iter().map(|v| self.host_let(name, v)).collect()),
        }
    }

    /// A template constant along some of its dimensions (a broadcast) stored without
    /// them: a kernel over the dimensions its element reads, and the array as a load of
    /// that buffer (cheap, so it fuses into every use). `None` when it reads them all.
    fn compact(&mut self, a: &Arr) -> Option<Arr> {
        let Src::Fn { params, body } = &a.src else {
            return None;
        };
        let (read, shape): (Vec<VarId>, Vec<usize>) = params
            .iter()
            .zip(&a.shape)
            .filter(|(p, _)| body.mentions(**p))
            .map(|(p, n)| (*p, *n))
            .unzip();
        if read.len() == params.len() {
            return None;
        }
        let core = Arr {
            base: a.base,
            shape: shape.clone(),
            src: Src::Fn {
                params: read.clone(),
                body: body.clone(),
            },
        };
        let b = self.materialize(&core);
        let load = Sx::Load(b, shape, read.iter().map(|&v| Sx::Var(v)).collect());
        Some(Arr {
            base: a.base,
            shape: a.shape.clone(),
            src: Src::Fn {
                params: params.clone(),
                body: Rc::new(load),
            },
        })
    }

    /// A kernel `let`'s scalar value gets a variable; arrays stay delayed.
    fn kernel_let(&mut self, v: HVal, lets: &mut Vec<(VarId, Sx)>) -> HVal {
        match v {
            HVal::Arr(a) if a.shape.is_empty() => {
                let sx = a.get(&self.ids);
                if matches!(sx, Sx::Var(_) | Sx::Const(_)) {
                    return HVal::Arr(Arr::scalar(a.base, sx));
                }
                let var = self.ids.fresh();
                lets.push((var, sx));
                HVal::Arr(Arr::scalar(a.base, Sx::Var(var)))
            }
            HVal::Arr(a) => HVal::Arr(a),
            HVal::Tup(vs) => HVal::Tup(vs.into_iter().map(|v| self.kernel_let(v, lets)).collect()),
        }
    }

    /// Wraps every array of `v` in the `let`s.
    fn wrap_lets(&mut self, v: HVal, lets: &[(VarId, Sx)]) -> HVal {
        if lets.is_empty() {
            return v;
        }
        match v {
            HVal::Arr(a) => {
                let shape = a.shape.clone();
                HVal::Arr(Arr::from_fn(&mut self.ids, a.base, shape, |ids, vars| {
                    let mut s = a.at(ids, vars);
                    for (var, val) in lets.iter().rev() {
                        s = Sx::Let(*var, Box::new(val.clone()), Box::new(s));
                    }
                    s
                }))
            }
            HVal::Tup(vs) => HVal::Tup(vs.into_iter().map(|v| self.wrap_lets(v, lets)).collect()),
        }
    }

    /// `select(c, a, b)` of two values of one type, `c` a scalar.
    pub fn select_val(&mut self, c: &Sx, a: HVal, b: HVal) -> HVal {
        match (a, b) {
            (HVal::Arr(a), HVal::Arr(b)) => {
                let shape = a.shape.clone();
                HVal::Arr(Arr::from_fn(&mut self.ids, a.base, shape, |ids, v| {
                    Sx::select(c.clone(), a.at(ids, v), b.at(ids, v))
                }))
            }
            (HVal::Tup(x), HVal::Tup(y)) => HVal::Tup(
                x.into_iter()
                    .zip(y)
                    .map(|(a, b)| self.select_val(c, a, b))
                    .collect(),
            ),
            _ => panic!("select of values of different types in a checked program"),
        }
    }

    /// Elementwise combination of equally shaped arrays.
    pub fn zip(&mut self, base: Base, xs: &[Arr], f: impl Fn(Vec<Sx>) -> Sx) -> Arr {
        let shape = xs[0].shape.clone();
        Arr::from_fn(&mut self.ids, base, shape, |ids, v| {
            f(xs.iter().map(|x| x.at(ids, v)).collect())
        })
    }

    /// Lowers an expression.
    pub fn expr(&mut self, e: &Expr, ctx: Ctx) -> Result<HVal> {
        use ExprKind as K;
        Ok(match &e.kind {
            K::Var(n) => match self.env.get(n) {
                Some(v) => v.clone(),
                None => {
                    return Err(Diagnostic::new(
                        ErrorKind::Internal,
                        e.span,
                        format!("the kernel plan met the unbound name `{n}`"),
                    ))
                }
            },
            K::Lit(l) => {
                let (b, x) = lit(l);
                HVal::Arr(Arr::scalar(b, Sx::Const(x)))
            }
            K::Tuple(es) => HVal::Tup(
                es.iter()
                    .map(|x| self.expr(x, ctx))
                    .collect::<Result<Vec<_>>>()?,
            ),
            K::Proj(x, k) => match self.expr(x, ctx)? {
                HVal::Tup(mut vs) if *k < vs.len() => vs.swap_remove(*k),
                _ => return Err(unsupported(e, "a projection of a non-tuple")),
            },
            K::Let(p, v, b) => {
                let val = self.expr(v, ctx)?;
                match ctx {
                    Ctx::Host => {
                        let val = match p {
                            Pat::Var(n) => self.host_let(n, val),
                            Pat::Tuple(ns) => match val {
                                HVal::Tup(vs) => HVal::Tup(
                                    ns.iter()
                                        .zip(vs)
                                        .map(|(n, v)| self.host_let(n, v))
                                        .collect(),
                                ),
                                other => other,
                            },
                        };
                        self.bind(p, val);
                        self.expr(b, ctx)?
                    }
                    Ctx::Kernel => {
                        let mut lets = Vec::new();
                        let val = self.kernel_let(val, &mut lets);
                        self.bind(p, val);
                        let r = self.expr(b, ctx)?;
                        self.wrap_lets(r, &lets)
                    }
                }
            }
            K::If(c, a, b) => {
                let c = self.scalar(c, ctx)?;
                let a = self.expr(a, ctx)?;
                let b = self.expr(b, ctx)?;
                self.select_val(&c, a, b)
            }
            K::Unary(op, x) => {
                let x = self.expr(x, ctx)?.arr();
                let (base, u) = match op {
                    UnOp::Neg => (x.base, Un::Neg),
                    UnOp::Not => (Base::B, Un::Not),
                };
                HVal::Arr(self.zip(base, &[x], |v| Sx::un(u, v[0].clone())))
            }
            K::Binary(op, a, b) => {
                let a = self.expr(a, ctx)?.arr();
                let b = self.expr(b, ctx)?.arr();
                let z = a.base == Base::Z;
                let (base, bin) = match op {
                    BinOp::Add => (a.base, Bin::Add),
                    BinOp::Sub => (a.base, Bin::Sub),
                    BinOp::Mul => (a.base, Bin::Mul),
                    BinOp::Div if z => (a.base, Bin::DivZ),
                    BinOp::Div => (a.base, Bin::DivR),
                    BinOp::Mod => (a.base, Bin::ModZ),
                    BinOp::Eq => (Base::B, Bin::Eq),
                    BinOp::Ne => (Base::B, Bin::Ne),
                    BinOp::Lt => (Base::B, Bin::Lt),
                    BinOp::Le => (Base::B, Bin::Le),
                    BinOp::Gt => (Base::B, Bin::Gt),
                    BinOp::Ge => (Base::B, Bin::Ge),
                    BinOp::And => (Base::B, Bin::And),
                    BinOp::Or => (Base::B, Bin::Or),
                };
                HVal::Arr(self.zip(base, &[a, b], |v| Sx::bin(bin, v[0].clone(), v[1].clone())))
            }
            K::Call(..) => {
                return Err(unsupported(
                    e,
                    "a call (the plan takes elaborated functions)",
                ))
            }
            K::Prim(p, args) => self.prim(e, p, args, ctx)?,
            K::Index(x, ix) => {
                let x = self.expr(x, ctx)?.arr();
                let ix = ix
                    .iter()
                    .map(|i| self.scalar(i, ctx))
                    .collect::<Result<Vec<_>>>()?;
                HVal::Arr(x.index(&mut self.ids, &ix))
            }
            K::Array(es) => {
                let xs = es
                    .iter()
                    .map(|x| self.expr(x, ctx).map(HVal::arr))
                    .collect::<Result<Vec<_>>>()?;
                HVal::Arr(self.stack(xs))
            }
            K::Build(shape, names, body) => {
                let vars = self.ids.indices(shape);
                for (n, v) in names.iter().zip(&vars) {
                    self.env
                        .insert(n.clone(), HVal::Arr(Arr::scalar(Base::Z, Sx::Var(*v))));
                }
                let r = self.expr(body, Ctx::Kernel)?.arr();
                HVal::Arr(self.over(vars, r))
            }
            K::Gather(sh, x, names, ix) => {
                let x = self.expr(x, ctx)?.arr();
                let vars = self.ids.indices(sh);
                for (n, v) in names.iter().zip(&vars) {
                    self.env
                        .insert(n.clone(), HVal::Arr(Arr::scalar(Base::Z, Sx::Var(*v))));
                }
                let ix = ix
                    .iter()
                    .map(|i| self.scalar(i, Ctx::Kernel))
                    .collect::<Result<Vec<_>>>()?;
                let r = x.index(&mut self.ids, &ix);
                HVal::Arr(self.over(vars, r))
            }
            K::Scatter(sh, x, names, ix) => self.scatter(sh, x, names, ix, ctx)?,
            K::Map(lam, xs) => {
                let xs = xs
                    .iter()
                    .map(|x| self.expr(x, ctx).map(HVal::arr))
                    .collect::<Result<Vec<_>>>()?;
                let n = xs[0].shape[0];
                let v = self.ids.index(n);
                for (p, x) in lam.params.iter().zip(&xs) {
                    let row = x.index(&mut self.ids, &[Sx::Var(v)]);
                    self.env.insert(p.clone(), HVal::Arr(row));
                }
                let r = self.expr(&lam.body, Ctx::Kernel)?;
                match r {
                    HVal::Arr(r) => HVal::Arr(self.over(vec![v], r)),
                    HVal::Tup(_) => return Err(unsupported(e, "a map with a tuple-valued body")),
                }
            }
            K::Reduce(op, ne, xs) => self.reduce(e, op, ne, xs, ctx)?,
            K::Scan(op, ne, xs) => self.scan(e, op, ne, xs, ctx)?,
            K::ReduceByIndex {
                dest,
                op,
                ne,
                is,
                vs,
            } => self.reduce_by_index(e, dest, op, ne, is, vs, ctx)?,
            K::ScatterInto { dest, is, vs } => self.scatter_into(dest, is, vs, ctx)?,
            K::Loop {
                acc,
                init,
                var,
                count,
                body,
            } => self.lower_loop(e, acc, init, var, *count, body, ctx)?,
        })
    }

    /// The array over `vars` (outer dimensions) whose element there is the array `r`.
    pub fn over(&mut self, vars: Vec<VarId>, r: Arr) -> Arr {
        let rest = self.ids.indices(&r.shape);
        let idx: Vec<Sx> = rest.iter().map(|&v| Sx::Var(v)).collect();
        let body = r.at(&self.ids, &idx);
        let shape: Vec<usize> = vars
            .iter()
            .map(|v| self.ids.range[v])
            .chain(r.shape.iter().copied())
            .collect();
        Arr {
            base: r.base,
            shape,
            src: Src::Fn {
                params: vars.into_iter().chain(rest).collect(),
                body: Rc::new(body),
            },
        }
    }

    /// `[x0, …, xn-1]`: a new outer dimension.
    pub fn stack(&mut self, xs: Vec<Arr>) -> Arr {
        let mut shape = vec![xs.len()];
        shape.extend(xs[0].shape.iter().copied());
        let base = xs[0].base;
        Arr::from_fn(&mut self.ids, base, shape, |ids, v| {
            let mut out = Sx::Const(0.0);
            for (k, x) in xs.iter().enumerate().rev() {
                let here = x.at(ids, &v[1..]);
                out = if k + 1 == xs.len() {
                    here
                } else {
                    Sx::select(
                        Sx::bin(Bin::Eq, v[0].clone(), Sx::Const(k as f64)),
                        here,
                        out,
                    )
                };
            }
            out
        })
    }

    fn prim(&mut self, e: &Expr, p: &Prim, args: &[Expr], ctx: Ctx) -> Result<HVal> {
        let xs = args
            .iter()
            .map(|x| self.expr(x, ctx).map(HVal::arr))
            .collect::<Result<Vec<_>>>()?;
        let un = |this: &mut Self, base: Base, u: Un, x: Arr| {
            HVal::Arr(this.zip(base, &[x], |v| Sx::un(u, v[0].clone())))
        };
        let x0 = xs.first().cloned();
        Ok(match p {
            Prim::Exp => un(self, Base::R, Un::Exp, xs[0].clone()),
            Prim::Log => un(self, Base::R, Un::Log, xs[0].clone()),
            Prim::Sin => un(self, Base::R, Un::Sin, xs[0].clone()),
            Prim::Cos => un(self, Base::R, Un::Cos, xs[0].clone()),
            Prim::Tanh => un(self, Base::R, Un::Tanh, xs[0].clone()),
            Prim::Sqrt => un(self, Base::R, Un::Sqrt, xs[0].clone()),
            Prim::Abs => un(self, xs[0].base, Un::Abs, xs[0].clone()),
            Prim::Floor => un(self, Base::Z, Un::Floor, xs[0].clone()),
            // An integer is an integral double; `-0` (from `-(0)`, `-1 * 0`, `floor(-0.0)`)
            // is the integer 0, so its real is `+0` (`x + 0` turns `-0` into `+0`, and
            // `pow(real(-(0)), -1)` is `inf`, as the evaluator gives).
            Prim::Real => HVal::Arr(self.zip(Base::R, &xs[..1], |v| {
                Sx::bin(Bin::Add, v[0].clone(), Sx::Const(0.0))
            })),
            Prim::Pow(k) => {
                let u = if xs[0].base == Base::Z {
                    Un::PowZ(*k)
                } else {
                    Un::PowR(*k)
                };
                un(self, xs[0].base, u, xs[0].clone())
            }
            Prim::Min | Prim::Max => {
                let b = if *p == Prim::Min { Bin::Min } else { Bin::Max };
                HVal::Arr(self.zip(xs[0].base, &xs, |v| Sx::bin(b, v[0].clone(), v[1].clone())))
            }
            Prim::Select => {
                let (c, a, b) = (&xs[0], &xs[1], &xs[2]);
                if c.shape.is_empty() && !a.shape.is_empty() {
                    let c = c.get(&self.ids);
                    self.select_val(&c, HVal::Arr(a.clone()), HVal::Arr(b.clone()))
                } else {
                    HVal::Arr(self.zip(a.base, &xs, |v| {
                        Sx::select(v[0].clone(), v[1].clone(), v[2].clone())
                    }))
                }
            }
            Prim::Sum => {
                let x = xs[0].clone();
                let red = x.shape.clone();
                let zero = sum_start(red.iter().product());
                self.reduction(
                    x.base,
                    &[],
                    red,
                    super::RedOp::Add,
                    Arr::scalar(x.base, Sx::Const(zero)),
                    ctx,
                    |ids, _o, r| x.at(ids, r),
                )
            }
            Prim::SumOuter => {
                let x = xs[0].clone();
                let out = x.shape[1..].to_vec();
                let zero = sum_start(x.shape[0]);
                let ne = Arr::from_fn(&mut self.ids, x.base, out.clone(), |_, _| Sx::Const(zero));
                self.reduction(
                    x.base,
                    &out,
                    vec![x.shape[0]],
                    super::RedOp::Add,
                    ne,
                    ctx,
                    |ids, o, r| {
                        let full: Vec<Sx> = r.iter().chain(o).cloned().collect();
                        x.at(ids, &full)
                    },
                )
            }
            Prim::Replicate(n) => {
                let x = xs[0].clone();
                let mut shape = vec![*n];
                shape.extend(x.shape.iter().copied());
                HVal::Arr(Arr::from_fn(&mut self.ids, x.base, shape, |ids, v| {
                    x.at(ids, &v[1..])
                }))
            }
            Prim::Transpose(perm) => {
                let x = xs[0].clone();
                let shape: Vec<usize> = perm.iter().map(|&k| x.shape[k]).collect();
                HVal::Arr(Arr::from_fn(&mut self.ids, x.base, shape, |ids, v| {
                    let mut w = vec![Sx::Const(0.0); v.len()];
                    for (k, &pk) in perm.iter().enumerate() {
                        w[pk] = v[k].clone();
                    }
                    x.at(ids, &w)
                }))
            }
            Prim::Reshape(sh) => {
                let x = xs[0].clone();
                if *sh == x.shape {
                    return Ok(HVal::Arr(x));
                }
                HVal::Arr(Arr::from_fn(&mut self.ids, x.base, sh.clone(), |_, v| {
                    // The flat offset of an index inside `sh` lies inside `x`'s shape.
                    let flat = flatten(v, sh);
                    let old = unflatten(flat, &x.shape);
                    x.at_inside(&old)
                }))
            }
            Prim::Iota(n) => HVal::Arr(Arr::from_fn(&mut self.ids, Base::Z, vec![*n], |_, v| {
                v[0].clone()
            })),
            Prim::Append => {
                let (a, b) = (xs[0].clone(), xs[1].clone());
                let na = a.shape[0];
                let mut shape = a.shape.clone();
                shape[0] += b.shape[0];
                HVal::Arr(Arr::from_fn(&mut self.ids, a.base, shape, |ids, v| {
                    let mut ib = v.to_vec();
                    ib[0] = Sx::bin(Bin::Sub, v[0].clone(), Sx::Const(na as f64));
                    Sx::select(
                        Sx::bin(Bin::Lt, v[0].clone(), Sx::Const(na as f64)),
                        a.at(ids, v),
                        b.at(ids, &ib),
                    )
                }))
            }
            Prim::Stack => match x0 {
                Some(_) => HVal::Arr(self.stack(xs)),
                None => return Err(unsupported(e, "an empty stack")),
            },
        })
    }
}

/// The row-major flat index of `v` in `shape`.
pub(crate) fn flatten(v: &[Sx], shape: &[usize]) -> Sx {
    let mut flat = Sx::Const(0.0);
    for (i, (x, &n)) in v.iter().zip(shape).enumerate() {
        flat = if i == 0 {
            x.clone()
        } else {
            Sx::bin(
                Bin::Add,
                Sx::bin(Bin::Mul, flat, Sx::Const(n as f64)),
                x.clone(),
            )
        };
    }
    flat
}

/// The multi-index in `shape` of a row-major flat index.
pub(crate) fn unflatten(flat: Sx, shape: &[usize]) -> Vec<Sx> {
    let mut out = vec![Sx::Const(0.0); shape.len()];
    let mut rest = flat;
    for (k, &n) in shape.iter().enumerate().rev() {
        if k == 0 {
            out[0] = rest.clone();
            break;
        }
        out[k] = Sx::bin(Bin::ModZ, rest.clone(), Sx::Const(n as f64));
        rest = Sx::bin(Bin::DivZ, rest, Sx::Const(n as f64));
    }
    out
}
