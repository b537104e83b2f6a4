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
//! The rules are those of [`crate::dual::forward`] with terms for values: `⟦a * b⟧ =
//! (u * v, Add(Scale(v, du), Scale(u, dv)))` where `u`, `v` are first bound to variables
//! (made atoms) when the Delta needs them, and so on for every construct. Sub-terms whose
//! type has no reals (index computations, conditions, integer arithmetic) are copied
//! verbatim: the non-differentiating transformation 𝒩 of §6.2. A `let` binds its value
//! in the primal part and shares its Delta (global sharing, App. D's `tlet`).

use super::{filled, is_atom, mk, SDelta, SymMap};
use crate::dual::delta::{Delta, Ids};
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
    /// The primal let-bindings, in order.
    pub bindings: Vec<(Pat, Expr)>,
    /// The result: primal term and symbolic Deltas.
    pub result: SV,
    /// The shapes of the real input leaves (parameters in order, tuples depth-first);
    /// leaf `k` is `Input(k)`.
    pub leaves: Vec<Vec<usize>>,
    /// The names the program uses and those generated so far (for fresh names later).
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
        bindings: Vec::new(),
        names,
        ids: Ids::new(),
        leaves: Vec::new(),
    };
    for p in &f.params {
        let sv = pass.param(mk(ExprKind::Var(p.name.clone())), &p.ty);
        pass.env.push(&p.name, sv);
    }
    let result = pass.walk(&f.body)?;
    Ok(Separated {
        bindings: pass.bindings,
        result,
        leaves: pass.leaves,
        names: pass.names,
    })
}

struct SymFwd<'t> {
    types: &'t NodeTypes,
    env: ScopedMap<SV>,
    bindings: Vec<(Pat, Expr)>,
    names: NameSupply,
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

    /// `e` as an atom: itself if it is one, otherwise a fresh primal binding.
    fn atom(&mut self, e: Expr) -> Expr {
        if is_atom(&e) {
            return e;
        }
        let t = self.names.fresh("t");
        self.bindings.push((Pat::Var(t.clone()), e));
        mk(ExprKind::Var(t))
    }

    fn ty(&self, e: &Expr) -> Result<Type> {
        self.types.of(e).cloned()
    }

    /// Binds `name` to a dual value: the primal goes to the bindings, the Delta is shared.
    fn bind_var(&mut self, name: &Name, sv: SV) {
        let primal = sv.primal();
        self.bindings.push((Pat::Var(name.clone()), primal));
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
            ExprKind::Lit(Lit::Real(_)) => Ok(SV::R(e.clone(), Delta::zero(Vec::new()))),
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
                let names: Vec<Name> = visit::pat_names(p).into_iter().cloned().collect();
                match (p, sv) {
                    (Pat::Var(n), sv) => self.bind_var(n, sv),
                    (Pat::Tuple(ns), SV::T(parts)) if parts.len() == ns.len() => {
                        for (n, c) in ns.iter().zip(parts) {
                            self.bind_var(n, c);
                        }
                    }
                    (Pat::Tuple(ns), sv) => {
                        self.bindings.push((p.clone(), sv.primal()));
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
                let (p, d) = self.real(x)?;
                Ok(SV::R(
                    mk(ExprKind::Unary(UnOp::Neg, Box::new(p))),
                    Delta::minus(d),
                ))
            }
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b, &ty),
            ExprKind::Prim(p, args) => self.prim(e, p, args, &ty),
            ExprKind::Index(x, ix) => {
                let (p, d) = self.real(x)?;
                let atoms: Vec<Expr> = ix.iter().map(|i| self.atom(i.clone())).collect();
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
                Ok(SV::R(primal, Delta::index(d, atoms, k)))
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
                Ok(SV::R(primal, Delta::gather(d, map, shape_of(&ty))))
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
                Ok(SV::R(primal, Delta::scatter(d, map, sh.clone())))
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
        Ok(match op {
            BinOp::Add => SV::R(bin(op, pa, pb), Delta::plus(da, db)),
            BinOp::Sub => SV::R(bin(op, pa, pb), Delta::plus(da, Delta::minus(db))),
            BinOp::Mul => {
                if !da.is_zero() && da.same(&db) && pa == pb {
                    // x * x: Scale(2 x, dx), one factor instead of two scaled copies.
                    let x = self.atom(pa);
                    let k = self.atom(bin(BinOp::Mul, filled(&shape, 2), x.clone()));
                    return Ok(SV::R(bin(op, x.clone(), x), Delta::scale(k, da)));
                }
                let pa = if db.is_zero() { pa } else { self.atom(pa) };
                let pb = if da.is_zero() { pb } else { self.atom(pb) };
                let d = Delta::plus(Delta::scale(pb.clone(), da), Delta::scale(pa.clone(), db));
                SV::R(bin(op, pa, pb), d)
            }
            BinOp::Div => {
                if da.is_zero() && db.is_zero() {
                    return Ok(SV::R(bin(op, pa, pb), Delta::zero(shape)));
                }
                let pb = self.atom(pb);
                if db.is_zero() {
                    return Ok(SV::R(bin(op, pa, pb.clone()), Delta::div_by(pb, da)));
                }
                let q = self.atom(bin(op, pa, pb.clone()));
                let d = Delta::div_by(
                    pb,
                    Delta::plus(da, Delta::minus(Delta::scale(q.clone(), db))),
                );
                SV::R(q, d)
            }
            _ => {
                return Err(unsupported(
                    e,
                    &format!("`{}` with a real result", op.symbol()),
                ))
            }
        })
    }

    fn prim(&mut self, e: &Expr, p: &Prim, args: &[Expr], ty: &Type) -> Result<SV> {
        let shape = shape_of(ty);
        let arg = |k: usize| {
            args.get(k)
                .ok_or_else(|| unsupported(e, "a primitive with missing arguments"))
        };
        Ok(match p {
            Prim::Exp | Prim::Log | Prim::Sin | Prim::Cos | Prim::Tanh | Prim::Sqrt => {
                let (pa, da) = self.real(arg(0)?)?;
                if da.is_zero() {
                    return Ok(SV::R(prim(p.clone(), vec![pa]), da));
                }
                let x = self.atom(pa);
                let y = self.atom(prim(p.clone(), vec![x.clone()]));
                let d = match p {
                    Prim::Exp => Delta::scale(y.clone(), da),
                    Prim::Log => Delta::div_by(x, da),
                    Prim::Sin => {
                        let k = self.atom(prim(Prim::Cos, vec![x]));
                        Delta::scale(k, da)
                    }
                    Prim::Cos => {
                        let s = prim(Prim::Sin, vec![x]);
                        let k = self.atom(mk(ExprKind::Unary(UnOp::Neg, Box::new(s))));
                        Delta::scale(k, da)
                    }
                    Prim::Tanh => {
                        let tt = bin(BinOp::Mul, y.clone(), y.clone());
                        let k = self.atom(bin(BinOp::Sub, filled(&shape, 1), tt));
                        Delta::scale(k, da)
                    }
                    _ => {
                        let k = self.atom(bin(BinOp::Add, y.clone(), y.clone()));
                        Delta::div_by(k, da)
                    }
                };
                SV::R(y, d)
            }
            Prim::Abs => {
                let (pa, da) = self.real(arg(0)?)?;
                if da.is_zero() {
                    return Ok(SV::R(prim(Prim::Abs, vec![pa]), da));
                }
                let x = self.atom(pa);
                let zero = filled(&shape, 0);
                let gt = bin(BinOp::Gt, x.clone(), zero.clone());
                let lt = bin(BinOp::Lt, x.clone(), zero.clone());
                let inner = prim(Prim::Select, vec![lt, filled(&shape, -1), zero]);
                let k = self.atom(prim(Prim::Select, vec![gt, filled(&shape, 1), inner]));
                SV::R(prim(Prim::Abs, vec![x]), Delta::scale(k, da))
            }
            Prim::Pow(n) => {
                let (pa, da) = self.real(arg(0)?)?;
                let n = *n;
                if da.is_zero() || n == 0 || n == 1 {
                    let d = if n == 0 { Delta::zero(shape) } else { da };
                    return Ok(SV::R(prim(Prim::Pow(n), vec![pa]), d));
                }
                let x = self.atom(pa);
                let power = match n {
                    2 => x.clone(),
                    _ => prim(Prim::Pow(n - 1), vec![x.clone()]),
                };
                let k = self.atom(bin(BinOp::Mul, filled(&shape, n), power));
                SV::R(prim(Prim::Pow(n), vec![x]), Delta::scale(k, da))
            }
            Prim::Real => SV::R(e.clone(), Delta::zero(shape)),
            Prim::Min | Prim::Max => {
                let (pa, da) = self.real(arg(0)?)?;
                let (pb, db) = self.real(arg(1)?)?;
                if da.is_zero() && db.is_zero() {
                    return Ok(SV::R(prim(p.clone(), vec![pa, pb]), da));
                }
                let (a, b) = (self.atom(pa), self.atom(pb));
                let op = if *p == Prim::Max {
                    BinOp::Ge
                } else {
                    BinOp::Le
                };
                let c = self.atom(bin(op, a.clone(), b.clone()));
                SV::R(prim(p.clone(), vec![a, b]), Delta::select(c, da, db))
            }
            Prim::Select => {
                let c = arg(0)?.clone();
                let (pa, da) = self.real(arg(1)?)?;
                let (pb, db) = self.real(arg(2)?)?;
                if da.is_zero() && db.is_zero() {
                    return Ok(SV::R(prim(Prim::Select, vec![c, pa, pb]), da));
                }
                let c = self.atom(c);
                SV::R(
                    prim(Prim::Select, vec![c.clone(), pa, pb]),
                    Delta::select(c, da, db),
                )
            }
            Prim::Sum => {
                let (pa, da) = self.real(arg(0)?)?;
                SV::R(prim(Prim::Sum, vec![pa]), Delta::sum(da))
            }
            Prim::SumOuter => {
                let (pa, da) = self.real(arg(0)?)?;
                SV::R(prim(Prim::SumOuter, vec![pa]), Delta::sum_outer(da))
            }
            Prim::Replicate(n) => {
                let (pa, da) = self.real(arg(0)?)?;
                SV::R(prim(p.clone(), vec![pa]), Delta::replicate(*n, da))
            }
            Prim::Transpose(perm) => {
                let (pa, da) = self.real(arg(0)?)?;
                SV::R(
                    prim(p.clone(), vec![pa]),
                    Delta::transpose(perm.clone(), da),
                )
            }
            Prim::Reshape(sh) => {
                let (pa, da) = self.real(arg(0)?)?;
                SV::R(prim(p.clone(), vec![pa]), Delta::reshape(sh.clone(), da))
            }
            Prim::Append => {
                let (pa, da) = self.real(arg(0)?)?;
                let (pb, db) = self.real(arg(1)?)?;
                SV::R(prim(Prim::Append, vec![pa, pb]), Delta::append(da, db))
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
