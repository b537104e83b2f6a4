//! The symbolic forward pass (seed 000 §7.1, §7.6, App. D): the dual-arrays
//! transformation of §6 run on terms instead of arrays, producing the **separated form**
//! of Eq. 6 directly:
//!
//! ```text
//! let x1 = e1 in … let xn = en in (primal result, symbolic Delta)
//! ```
//!
//! The primal part is a list of let-bindings (the original program's `let`s, flattened —
//! binder names are unique in elaborated programs — plus fresh bindings for every primal
//! value the Delta mentions); the symbolic Delta mentions primal values only through
//! variable references (Scale/DivBy factors, Select conditions), atoms (Index positions)
//! and copied index maps (Gather/Scatter). This is the form §7.6 proves every term's
//! derivative simplifies to; building it directly is the monad-law simplification of
//! Fig. 18 done once and for all.
//!
//! The primal part is built with the lowering kit's typed ANF builder
//! ([`crate::kit::anf::Anf`], docs/architecture.md §7a): every binding states its value's
//! type (the checker's node types for the program's own `let`s and index atoms, `R` or
//! `B` arrays of the operation's shape for the temporaries), and the temporaries `t_k`
//! are named from one supply that knows every name of the program
//! ([`crate::kit::names::supply_for`]); the reverse pass and the wrapper continue with it.
//!
//! The rules are those of [`crate::dual::forward`] with terms for values: `⟦a * b⟧ =
//! (u * v, Add(Scale(v, du), Scale(u, dv)))` where `u`, `v` are first bound to variables
//! (made atoms) when the Delta needs them, and so on for every construct. Sub-terms whose
//! type has no reals (index computations, conditions, integer arithmetic) are copied
//! verbatim: the non-differentiating transformation 𝒩 of §6.2. A `let` binds its value
//! in the primal part and shares its Delta (global sharing, App. D's `tlet`).

use super::{filled, is_atom, mk, SDelta, SymMap};
use crate::dual::delta::{Delta, Ids};
use crate::dual::table;
use crate::kit::anf::{Anf, TypedLet};
use crate::prims::partials::T;
use crate::prims::{Cond, PrimId};
use adora_core::ast::{BinOp, Expr, ExprKind, Function, Lit, Name, Pat, Prim, UnOp};
use adora_core::check::NodeTypes;
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::types::{Base, Type};
use adora_core::visit::{self, NameSupply, ScopedMap};
use num_bigint::BigInt;
use std::rc::Rc;

/// A symbolic dual value: a primal term with the symbolic Delta of its derivative, a
/// term without reals (no derivative), or a tuple of those.
#[derive(Clone)]
pub enum SV {
    /// A real array: primal term and symbolic Delta.
    R(Expr, SDelta),
    /// A value without reals.
    N(Expr),
    /// A tuple.
    T(Vec<SV>),
}

impl SV {
    /// The primal term.
    pub fn primal(&self) -> Expr {
        match self {
            SV::R(p, _) | SV::N(p) => p.clone(),
            SV::T(vs) => mk(ExprKind::Tuple(vs.iter().map(SV::primal).collect())),
        }
    }
}

/// The separated form of Eq. 6.
pub struct Separated {
    /// The primal let-bindings, in order: a typed `let` chain of the lowering kit
    /// ([`crate::kit::anf`]), each binding stating its value's type.
    pub bindings: Vec<TypedLet>,
    /// The result: primal term and symbolic Deltas.
    pub result: SV,
    /// The shapes of the real input leaves (parameters in order, tuples depth-first);
    /// leaf `k` is `Input(k)`.
    pub leaves: Vec<Vec<usize>>,
    /// The names the program uses and those generated so far (for fresh names later:
    /// the reverse pass and the wrapper continue with this supply).
    pub names: NameSupply,
}

/// Runs the symbolic forward pass over a well-typed, build-free elaborated function.
pub fn separate(f: &Function) -> Result<Separated> {
    let types = adora_core::check::node_types(f)?;
    let params: Vec<Name> = f.params.iter().map(|p| p.name.clone()).collect();
    let names = crate::kit::names::supply_for(&params, &f.body);
    let mut pass = SymFwd {
        types: &types,
        env: ScopedMap::new(),
        anf: Anf::new(names),
        ids: Ids::new(),
        leaves: Vec::new(),
    };
    for p in &f.params {
        let sv = pass.param(mk(ExprKind::Var(p.name.clone())), &p.ty);
        pass.env.push(&p.name, sv);
    }
    let result = pass.walk(&f.body)?;
    Ok(Separated {
        bindings: pass.anf.lets,
        result,
        leaves: pass.leaves,
        names: pass.anf.supply,
    })
}

/// The operand and result terms a template reads.
struct Leaves {
    a: Option<Expr>,
    b: Option<Expr>,
    y: Expr,
    k: i64,
}

struct SymFwd<'t> {
    types: &'t NodeTypes,
    env: ScopedMap<SV>,
    /// The primal bindings, temporaries named from the kit's supply.
    anf: Anf,
    ids: Ids,
    leaves: Vec<Vec<usize>>,
}

fn unsupported(e: &Expr, what: &str) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Unsupported,
        e.span,
        format!("the symbolic dual-arrays transformation does not support {what}"),
    )
}

fn shape_of(t: &Type) -> Vec<usize> {
    match t {
        Type::Array(_, s) => s.clone(),
        Type::Tuple(_) => Vec::new(),
    }
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    mk(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}

fn prim(p: Prim, args: Vec<Expr>) -> Expr {
    mk(ExprKind::Prim(p, args))
}

impl SymFwd<'_> {
    /// The dual value of a parameter (or a component of one): `Input` leaves for reals.
    fn param(&mut self, primal: Expr, ty: &Type) -> SV {
        match ty {
            Type::Array(Base::R, s) => {
                self.leaves.push(s.clone());
                SV::R(primal, Delta::input(self.leaves.len() - 1, s.clone()))
            }
            Type::Array(..) => SV::N(primal),
            Type::Tuple(ts) => SV::T(
                ts.iter()
                    .enumerate()
                    .map(|(k, t)| self.param(mk(ExprKind::Proj(Box::new(primal.clone()), k)), t))
                    .collect(),
            ),
        }
    }

    /// `e` (of type `ty`) as an atom: itself if it is one, otherwise a fresh typed primal
    /// binding `let t_k: ty = e` (the kit's [`Anf::bind`]).
    fn atom(&mut self, e: Expr, ty: Type) -> Expr {
        if is_atom(&e) {
            return e;
        }
        let t = self.anf.bind("t", ty, e);
        mk(ExprKind::Var(t))
    }

    /// `e` as an atom, `e` a real array of `shape`.
    fn real_atom(&mut self, e: Expr, shape: &[usize]) -> Expr {
        self.atom(e, Type::Array(Base::R, shape.to_vec()))
    }

    fn ty(&self, e: &Expr) -> Result<Type> {
        self.types.of(e).cloned()
    }

    /// Binds `name` to a dual value of type `ty`: the primal goes to the bindings, the
    /// Delta is shared.
    fn bind_var(&mut self, name: &Name, ty: Type, sv: SV) {
        let primal = sv.primal();
        self.anf.push(Pat::Var(name.clone()), ty, primal);
        let v = mk(ExprKind::Var(name.clone()));
        let bound = self.rebind(v, sv);
        self.env.push(name, bound);
    }

    /// The dual value of `sv` now available under the primal term `at` (a variable or a
    /// projection of one), its Deltas shared.
    fn rebind(&mut self, at: Expr, sv: SV) -> SV {
        match sv {
            SV::R(_, d) => SV::R(at, d.share(&mut self.ids)),
            SV::N(_) => SV::N(at),
            SV::T(vs) => SV::T(
                vs.into_iter()
                    .enumerate()
                    .map(|(k, c)| self.rebind(mk(ExprKind::Proj(Box::new(at.clone()), k)), c))
                    .collect(),
            ),
        }
    }

    /// Runs the pass over `e`.
    fn walk(&mut self, e: &Expr) -> Result<SV> {
        let ty = self.ty(e)?;
        if !ty.has_reals() {
            // 𝒩: no derivative, the term is copied as it is.
            return Ok(SV::N(e.clone()));
        }
        match &e.kind {
            ExprKind::Var(n) => self.env.get(n).cloned().ok_or_else(|| {
                Diagnostic::new(ErrorKind::Name, e.span, format!("unbound variable `{n}`"))
            }),
            ExprKind::Lit(Lit::Real(_) | Lit::NonFinite(_)) => {
                Ok(SV::R(e.clone(), Delta::zero(Vec::new())))
            }
            ExprKind::Tuple(es) => {
                let mut vs = Vec::with_capacity(es.len());
                for c in es {
                    vs.push(self.walk(c)?);
                }
                Ok(SV::T(vs))
            }
            ExprKind::Proj(x, k) => match self.walk(x)? {
                SV::T(mut vs) if *k < vs.len() => Ok(vs.swap_remove(*k)),
                SV::N(p) => Ok(SV::N(mk(ExprKind::Proj(Box::new(p), *k)))),
                _ => Err(unsupported(e, "this projection")),
            },
            ExprKind::Let(p, v, b) => {
                let sv = self.walk(v)?;
                let vty = self.ty(v)?;
                let names: Vec<Name> = visit::pat_names(p).into_iter().cloned().collect();
                match (p, sv, vty) {
                    (Pat::Var(n), sv, vty) => self.bind_var(n, vty, sv),
                    (Pat::Tuple(ns), SV::T(parts), Type::Tuple(ts))
                        if parts.len() == ns.len() && ts.len() == ns.len() =>
                    {
                        for ((n, c), t) in ns.iter().zip(parts).zip(ts) {
                            self.bind_var(n, t, c);
                        }
                    }
                    (Pat::Tuple(ns), sv, vty) => {
                        self.anf.push(p.clone(), vty, sv.primal());
                        for n in ns {
                            self.env.push(n, SV::N(mk(ExprKind::Var(n.clone()))));
                        }
                    }
                }
                let r = self.walk(b);
                for n in names.iter().rev() {
                    self.env.pop(n);
                }
                r
            }
            ExprKind::Array(es) | ExprKind::Prim(Prim::Stack, es) => {
                let mut ps = Vec::with_capacity(es.len());
                let mut ds = Vec::with_capacity(es.len());
                for c in es {
                    let (p, d) = self.real(c)?;
                    ps.push(p);
                    ds.push(d);
                }
                let primal = match &e.kind {
                    ExprKind::Array(_) => mk(ExprKind::Array(ps)),
                    _ => prim(Prim::Stack, ps),
                };
                Ok(SV::R(primal, Delta::stack(ds)))
            }
            ExprKind::Unary(UnOp::Neg, x) => {
                let a = self.real(x)?;
                self.by_partials(e, PrimId::Neg, 0, vec![a], &shape_of(&ty), |ps| {
                    let [p]: [Expr; 1] = ps.try_into().ok()?;
                    Some(mk(ExprKind::Unary(UnOp::Neg, Box::new(p))))
                })
            }
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b, &ty),
            ExprKind::Prim(p, args) => self.prim(e, p, args, &ty),
            ExprKind::Index(x, ix) => {
                let (p, d) = self.real(x)?;
                let mut atoms = Vec::with_capacity(ix.len());
                for i in ix {
                    let ity = self.ty(i)?;
                    atoms.push(self.atom(i.clone(), ity));
                }
                let k = atoms.len();
                let primal = mk(ExprKind::Index(Box::new(p), atoms.clone()));
                // A literal index out of bounds reads the constant zero: its Delta is `Zero`.
                let outside = atoms.iter().zip(d.shape()).any(|(a, &n)| match &a.kind {
                    ExprKind::Lit(Lit::Int(i)) => *i < BigInt::from(0) || *i >= BigInt::from(n),
                    _ => false,
                });
                if outside {
                    return Ok(SV::R(primal, Delta::zero(shape_of(&ty))));
                }
                self.linear_delta(e, PrimId::Index, vec![Some(d), None], Some(primal), |ds| {
                    let [d]: [SDelta; 1] = ds.try_into().ok()?;
                    Some(Delta::index(d, atoms, k))
                })
            }
            ExprKind::Gather(sh, x, bs, ix) => {
                let (p, d) = self.real(x)?;
                let map = Rc::new(SymMap {
                    binders: bs.clone(),
                    ix: ix.clone(),
                    space: sh.clone(),
                });
                let primal = mk(ExprKind::Gather(
                    sh.clone(),
                    Box::new(p),
                    bs.clone(),
                    ix.clone(),
                ));
                self.linear_delta(e, PrimId::Gather, vec![Some(d)], Some(primal), |ds| {
                    let [d]: [SDelta; 1] = ds.try_into().ok()?;
                    Some(Delta::gather(d, map, shape_of(&ty)))
                })
            }
            ExprKind::Scatter(sh, x, bs, ix) => {
                let xty = self.ty(x)?;
                let (p, d) = self.real(x)?;
                let space = shape_of(&xty).get(..bs.len()).unwrap_or(&[]).to_vec();
                let map = Rc::new(SymMap {
                    binders: bs.clone(),
                    ix: ix.clone(),
                    space,
                });
                let primal = mk(ExprKind::Scatter(
                    sh.clone(),
                    Box::new(p),
                    bs.clone(),
                    ix.clone(),
                ));
                self.linear_delta(e, PrimId::Scatter, vec![Some(d)], Some(primal), |ds| {
                    let [d]: [SDelta; 1] = ds.try_into().ok()?;
                    Some(Delta::scatter(d, map, sh.clone()))
                })
            }
            ExprKind::Build(..) => Err(unsupported(e, "`build` (run bot first)")),
            other => Err(unsupported(e, &format!("`{}`", other.form_name()))),
        }
    }

    /// Walks a real-array sub-term.
    fn real(&mut self, e: &Expr) -> Result<(Expr, SDelta)> {
        match self.walk(e)? {
            SV::R(p, d) => Ok((p, d)),
            _ => Err(unsupported(e, "a real operand that is not an array")),
        }
    }

    fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr, ty: &Type) -> Result<SV> {
        let (pa, da) = self.real(a)?;
        let (pb, db) = self.real(b)?;
        let shape = shape_of(ty);
        let id = match op {
            BinOp::Add => PrimId::Add,
            BinOp::Sub => PrimId::Sub,
            BinOp::Mul => PrimId::Mul,
            BinOp::Div => PrimId::Div,
            _ => {
                return Err(unsupported(
                    e,
                    &format!("`{}` with a real result", op.symbol()),
                ))
            }
        };
        if id == PrimId::Mul && !da.is_zero() && da.same(&db) && pa == pb {
            // Special case x * x: Scale(2 x, dx), one factor instead of two scaled copies.
            let x = self.real_atom(pa, da.shape());
            let k = self.real_atom(bin(BinOp::Mul, filled(&shape, 2), x.clone()), &shape);
            return Ok(SV::R(bin(op, x.clone(), x), Delta::scale(k, da)));
        }
        self.by_partials(e, id, 0, vec![(pa, da), (pb, db)], &shape, |ps| {
            let [x, y]: [Expr; 2] = ps.try_into().ok()?;
            Some(bin(op, x, y))
        })
    }

    /// `id(operands)` (static exponent `k`) with the table's partials interpreted as
    /// primal terms ([`crate::dual::table::partials`]): the operands a live partial reads
    /// are made atoms (in operand order), then the result if a partial reads it, then
    /// each factor; `build` makes the primal term from the operands' terms.
    fn by_partials(
        &mut self,
        e: &Expr,
        id: PrimId,
        k: i64,
        ops: Vec<(Expr, SDelta)>,
        shape: &[usize],
        build: impl Fn(Vec<Expr>) -> Option<Expr>,
    ) -> Result<SV> {
        let build =
            |ps: Vec<Expr>| build(ps).ok_or_else(|| table::mismatch(id, e.span, "of this arity"));
        let partials = match table::partials_of(id, k, e.span)? {
            Some(ps) if ops.iter().any(|(_, d)| !d.is_zero()) => ps,
            _ => {
                let primal = build(ops.into_iter().map(|(p, _)| p).collect())?;
                return Ok(SV::R(primal, Delta::zero(shape.to_vec())));
            }
        };
        let live: Vec<&T> = partials
            .iter()
            .zip(&ops)
            .filter(|(_, (_, d))| !d.is_zero())
            .map(|(p, _)| p)
            .collect();
        let reads = |x: &T| live.iter().any(|p| p.mentions(x));
        let (reads_a, reads_b, reads_y) = (reads(&T::A), reads(&T::B), reads(&T::Y));
        let mut terms = Vec::with_capacity(ops.len());
        let mut ds = Vec::with_capacity(ops.len());
        for (i, (p, d)) in ops.into_iter().enumerate() {
            let read = if i == 0 { reads_a } else { i == 1 && reads_b };
            terms.push(if read {
                self.real_atom(p, d.shape())
            } else {
                p
            });
            ds.push(d);
        }
        let primal = build(terms.clone())?;
        let y = if reads_y {
            self.real_atom(primal, shape)
        } else {
            primal
        };
        let leaves = Leaves {
            a: terms.first().cloned(),
            b: terms.get(1).cloned(),
            y: y.clone(),
            k,
        };
        let d = table::partials(partials, ds, |t| {
            let term = self.template(t, &leaves, shape, e)?;
            Ok(self.real_atom(term, shape))
        })?;
        Ok(SV::R(y, d))
    }

    /// Template `t` as a primal term over the operand and result terms (elementwise,
    /// constants filled to `shape`).
    fn template(&mut self, t: &T, l: &Leaves, shape: &[usize], e: &Expr) -> Result<Expr> {
        let missing = || {
            Diagnostic::new(
                ErrorKind::Internal,
                e.span,
                format!("the template `{t}` reads an operand the primitive does not have"),
            )
        };
        Ok(match t {
            T::A => l.a.clone().ok_or_else(missing)?,
            T::B => l.b.clone().ok_or_else(missing)?,
            T::Y => l.y.clone(),
            T::K => filled(shape, l.k),
            T::Int(n) => filled(shape, *n),
            T::Neg(u) => {
                let u = self.template(u, l, shape, e)?;
                mk(ExprKind::Unary(UnOp::Neg, Box::new(u)))
            }
            T::Add(u, v) | T::Sub(u, v) | T::Mul(u, v) | T::Div(u, v) => {
                let op = match t {
                    T::Add(..) => BinOp::Add,
                    T::Sub(..) => BinOp::Sub,
                    T::Mul(..) => BinOp::Mul,
                    _ => BinOp::Div,
                };
                let u = self.template(u, l, shape, e)?;
                let v = self.template(v, l, shape, e)?;
                bin(op, u, v)
            }
            T::PowKm1(u) => {
                let u = self.template(u, l, shape, e)?;
                match l.k - 1 {
                    1 => u,
                    m => prim(Prim::Pow(m), vec![u]),
                }
            }
            T::Sin(u) => prim(Prim::Sin, vec![self.template(u, l, shape, e)?]),
            T::Cos(u) => prim(Prim::Cos, vec![self.template(u, l, shape, e)?]),
            T::Sign(u) => {
                // select(x < 0, -1, select(x == 0, 0, 1)): abs'(0) = 0 (docs/language.md),
                // 1 for an unordered (NaN) x, as the reference has it.
                let u = self.template(u, l, shape, e)?;
                let x = self.real_atom(u, shape);
                let zero = filled(shape, 0);
                let lt = bin(BinOp::Lt, x.clone(), zero.clone());
                let eq = bin(BinOp::Eq, x, zero.clone());
                let inner = prim(Prim::Select, vec![eq, zero, filled(shape, 1)]);
                prim(Prim::Select, vec![lt, filled(shape, -1), inner])
            }
            T::Named(_, u) => self.template(u, l, shape, e)?,
        })
    }

    /// `id(a, b)` / `select(c, a, b)` with the table's choice: `Select(c', da, db)`, `c'`
    /// the table's condition bound to an atom (the operands first made atoms).
    fn by_choice(
        &mut self,
        e: &Expr,
        id: PrimId,
        c: Option<(Expr, Type)>,
        (pa, da): (Expr, SDelta),
        (pb, db): (Expr, SDelta),
        build: impl Fn(Option<Expr>, Expr, Expr) -> Expr,
    ) -> Result<SV> {
        if da.is_zero() && db.is_zero() {
            return Ok(SV::R(build(c.map(|(c, _)| c), pa, pb), da));
        }
        let (cond, then_arg, else_arg) = table::choice_of(id, e.span)?;
        let (c, pa, pb) = match (cond, c) {
            (Cond::Operand(_), Some((c, cty))) => (self.atom(c, cty), pa, pb),
            (Cond::Le | Cond::Ge, None) => {
                let a = self.real_atom(pa, da.shape());
                let b = self.real_atom(pb, db.shape());
                let cty = Type::Array(Base::B, da.shape().to_vec());
                let op = if cond == Cond::Le {
                    BinOp::Le
                } else {
                    BinOp::Ge
                };
                (self.atom(bin(op, a.clone(), b.clone()), cty), a, b)
            }
            _ => return Err(table::mismatch(id, e.span, "this choice")),
        };
        let branches = match cond {
            Cond::Operand(_) => (1, 2),
            _ => (0, 1),
        };
        let d = match (then_arg, else_arg) {
            (t, f) if (t, f) == branches => Delta::select(c.clone(), da, db),
            (t, f) if (f, t) == branches => Delta::select(c.clone(), db, da),
            _ => {
                return Err(table::mismatch(
                    id,
                    e.span,
                    "a choice between its real operands",
                ))
            }
        };
        let c = if cond == Cond::Le || cond == Cond::Ge {
            None
        } else {
            Some(c)
        };
        Ok(SV::R(build(c, pa, pb), d))
    }

    /// `id(a)`, linear in `a` (the table's `Linear`): the primitive applied to `a`'s Delta.
    fn by_linear(
        &mut self,
        e: &Expr,
        id: PrimId,
        ops: Vec<(Expr, SDelta)>,
        build: impl FnOnce(Vec<Expr>) -> Option<Expr>,
        apply: impl FnOnce(Vec<SDelta>) -> Option<SDelta>,
    ) -> Result<SV> {
        let (ps, ds): (Vec<Expr>, Vec<Option<SDelta>>) =
            ops.into_iter().map(|(p, d)| (p, Some(d))).unzip();
        self.linear_delta(e, id, ds, build(ps), apply)
    }

    /// The primal term `primal` with the Delta `apply` builds from the Deltas of the
    /// table's linear operands of `id` (`ds`: one per operand, `None` without a Delta).
    fn linear_delta(
        &mut self,
        e: &Expr,
        id: PrimId,
        ds: Vec<Option<SDelta>>,
        primal: Option<Expr>,
        apply: impl FnOnce(Vec<SDelta>) -> Option<SDelta>,
    ) -> Result<SV> {
        let mismatch = || table::mismatch(id, e.span, "linear in these operands");
        let args = table::linear_args(id, ds, e.span)?;
        let d = apply(args).ok_or_else(mismatch)?;
        Ok(SV::R(primal.ok_or_else(mismatch)?, d))
    }

    fn prim(&mut self, e: &Expr, p: &Prim, args: &[Expr], ty: &Type) -> Result<SV> {
        let shape = shape_of(ty);
        let arg = |k: usize| {
            args.get(k)
                .ok_or_else(|| unsupported(e, "a primitive with missing arguments"))
        };
        let unary = |p: &Prim| {
            let p = p.clone();
            move |ps: Vec<Expr>| Some(prim(p.clone(), ps))
        };
        Ok(match p {
            Prim::Exp
            | Prim::Log
            | Prim::Sin
            | Prim::Cos
            | Prim::Tanh
            | Prim::Sqrt
            | Prim::Abs
            | Prim::Pow(_) => {
                let (id, k) = PrimId::of_prim(p).ok_or_else(|| unsupported(e, "this primitive"))?;
                let a = self.real(arg(0)?)?;
                return self.by_partials(e, id, k, vec![a], &shape, unary(p));
            }
            Prim::Real => SV::R(e.clone(), Delta::zero(shape)),
            Prim::Min | Prim::Max => {
                let a = self.real(arg(0)?)?;
                let b = self.real(arg(1)?)?;
                let id = if *p == Prim::Max {
                    PrimId::Max
                } else {
                    PrimId::Min
                };
                let p = p.clone();
                return self.by_choice(e, id, None, a, b, |_, a, b| prim(p.clone(), vec![a, b]));
            }
            Prim::Select => {
                let cty = self.ty(arg(0)?)?;
                let c = arg(0)?.clone();
                let a = self.real(arg(1)?)?;
                let b = self.real(arg(2)?)?;
                let cond = Some((c.clone(), cty));
                return self.by_choice(e, PrimId::Select, cond, a, b, |c2, a, b| {
                    prim(Prim::Select, vec![c2.unwrap_or_else(|| c.clone()), a, b])
                });
            }
            Prim::Sum
            | Prim::SumOuter
            | Prim::Replicate(_)
            | Prim::Transpose(_)
            | Prim::Reshape(_) => {
                let a = self.real(arg(0)?)?;
                let id = match p {
                    Prim::Sum => PrimId::Sum,
                    Prim::SumOuter => PrimId::SumOuter,
                    Prim::Replicate(_) => PrimId::Replicate,
                    Prim::Transpose(_) => PrimId::Transpose,
                    _ => PrimId::Reshape,
                };
                let apply = |ds: Vec<SDelta>| {
                    let [d]: [SDelta; 1] = ds.try_into().ok()?;
                    Some(match p {
                        Prim::Sum => Delta::sum(d),
                        Prim::SumOuter => Delta::sum_outer(d),
                        Prim::Replicate(n) => Delta::replicate(*n, d),
                        Prim::Transpose(perm) => Delta::transpose(perm.clone(), d),
                        Prim::Reshape(sh) => Delta::reshape(sh.clone(), d),
                        _ => return None,
                    })
                };
                return self.by_linear(e, id, vec![a], unary(p), apply);
            }
            Prim::Append => {
                let a = self.real(arg(0)?)?;
                let b = self.real(arg(1)?)?;
                let apply = |ds: Vec<SDelta>| {
                    let [d, f]: [SDelta; 2] = ds.try_into().ok()?;
                    Some(Delta::append(d, f))
                };
                return self.by_linear(e, PrimId::Append, vec![a, b], unary(p), apply);
            }
            other => {
                return Err(unsupported(
                    e,
                    &format!("the primitive `{}` with a real result", other.name()),
                ))
            }
        })
    }
}
