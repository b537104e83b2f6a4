//! Return-sweep rules of the flat statements (seed 004 *AD for an Array Language with
//! Nested Parallelism* §4.1–§4.2): scalar operations and primitives by the partial
//! derivatives of the one table (`crate::prims`, docs/rules/primitives.md) —
//! `ā += ȳ · ∂a` elementwise —, choices (`min`, `max`, `select`) by selecting the
//! adjoint, the structural primitives by their adjoints (the table's transpose rules),
//! tuples and projections componentwise, and indexing `y = xs[i]` by the one-element
//! accumulation `xs̄ = reduce_by_index(xs̄, +, 0, [i], [ȳ])` of §4.2 (work proportional
//! to the access; an out-of-bounds index drops the write, a zero adjoint).

use super::build::{bin, fill, int, prim, real, zeros, Adj, Block, Rev};
use super::ir::{internal, mk, var, St};
use super::sweep::Adjoints;
use crate::prims::partials::T;
use crate::prims::{deriv_at, Cond, Deriv, PrimId};
use adora_core::ast::{BinOp, Expr, ExprKind, Op, Prim, UnOp};
use adora_core::diag::Result;
use adora_core::types::{Base, Type};

/// The shape of an array type.
pub fn shape(ty: &Type) -> Result<Vec<usize>> {
    ty.as_array()
        .map(|(_, s)| s.clone())
        .ok_or_else(|| internal("the shape of a tuple"))
}

impl Rev {
    /// The return sweep of `st: y = e` (a flat statement) for the adjoint `ybar`.
    pub fn reverse_flat(
        &mut self,
        st: &St,
        e: &Expr,
        ybar: Adj,
        adj: &mut Adjoints,
        out: &mut Block,
    ) -> Result<()> {
        use ExprKind as K;
        match &e.kind {
            K::Var(_) => return self.accumulate(adj, e, ybar, out),
            K::Tuple(es) => {
                let cs = self.components(&ybar, &st.ty, out)?;
                for (x, c) in es.iter().zip(cs) {
                    self.accumulate(adj, x, c, out)?;
                }
                return Ok(());
            }
            K::Proj(t, k) => {
                let Type::Tuple(ts) = self.atom_ty(t)? else {
                    return Err(internal("a projection of a non-tuple"));
                };
                let mut cs = vec![Adj::Zero; ts.len()];
                cs[*k] = ybar;
                return self.accumulate(adj, t, Adj::Tuple(cs), out);
            }
            _ => {}
        }
        let g = self.materialize(&ybar, &st.ty, out)?;
        let y = match &st.pat {
            adora_core::ast::Pat::Var(x) => self.sub(&var(x)),
            _ => return Err(internal("a flat operation bound to a tuple pattern")),
        };
        match &e.kind {
            K::Unary(UnOp::Neg, a) => self.by_table(PrimId::Neg, 0, &[a], &y, g, &st.ty, adj, out),
            K::Binary(op, a, b) => {
                let id = match op {
                    BinOp::Add => PrimId::Add,
                    BinOp::Sub => PrimId::Sub,
                    BinOp::Mul => PrimId::Mul,
                    BinOp::Div => PrimId::Div,
                    _ => return Ok(()),
                };
                self.by_table(id, 0, &[a, b], &y, g, &st.ty, adj, out)
            }
            K::Prim(Prim::Stack, xs) | K::Array(xs) => {
                for (k, x) in xs.iter().enumerate() {
                    let c = mk(K::Index(Box::new(g.clone()), vec![int(k as i64)]));
                    self.contribute(adj, x, c, out)?;
                }
                Ok(())
            }
            K::Prim(Prim::Transpose(perm), xs) => {
                // transpose/transpose: the inverse permutation.
                let mut inv = vec![0; perm.len()];
                for (k, &p) in perm.iter().enumerate() {
                    inv[p] = k;
                }
                self.contribute(adj, &xs[0], prim(Prim::Transpose(inv), vec![g]), out)
            }
            K::Prim(p, xs) => match PrimId::of_prim(p) {
                Some((id, k)) => {
                    let xs: Vec<&Expr> = xs.iter().collect();
                    self.by_table(id, k, &xs, &y, g, &st.ty, adj, out)
                }
                None => Ok(()),
            },
            K::Index(x, is) => {
                let deps: std::collections::BTreeSet<_> =
                    is.iter().flat_map(adora_core::visit::free_vars).collect();
                let is: Vec<Expr> = is.iter().map(|i| self.sub(i)).collect();
                if let ExprKind::Var(f) = &x.kind {
                    if self.accs.contains_key(f) {
                        // An access of an accumulator (§5.4, `super::map_acc`).
                        return self.push_site(f, &is, g, deps, out);
                    }
                }
                self.fire("rev/index");
                self.add_at(adj, x, &is, g, out)
            }
            K::Lit(_) => Ok(()),
            _ => Err(internal(format!(
                "no flat rule for `{}`",
                adora_core::pretty::expr(e)
            ))),
        }
    }

    /// `ops` of the primitive `id` (exponent `k`) by the table's derivative.
    #[allow(clippy::too_many_arguments)]
    fn by_table(
        &mut self,
        id: PrimId,
        k: i64,
        ops: &[&Expr],
        y: &Expr,
        g: Expr,
        ty: &Type,
        adj: &mut Adjoints,
        out: &mut Block,
    ) -> Result<()> {
        let opd: Vec<Expr> = ops.iter().map(|o| self.sub(o)).collect();
        match deriv_at(id, k) {
            Deriv::Constant => Ok(()),
            Deriv::Partials(ps) => {
                let sh = shape(ty)?;
                for (i, p) in ps.iter().enumerate() {
                    let Some(x) = ops.get(i) else { break };
                    if !self.atom_ty(x)?.has_reals() {
                        continue;
                    }
                    let c = match p.bare() {
                        T::Int(1) => g.clone(),
                        T::Int(-1) => mk(ExprKind::Unary(UnOp::Neg, Box::new(g.clone()))),
                        t => {
                            let d = self.template(t, &opd, y, k, &sh, out)?;
                            let d = self.bind("d", ty, d, out);
                            bin(BinOp::Mul, g.clone(), d)
                        }
                    };
                    self.contribute(adj, x, c, out)?;
                }
                Ok(())
            }
            Deriv::Choose {
                cond,
                then_arg,
                else_arg,
            } => {
                let c = match cond {
                    Cond::Le => bin(BinOp::Le, opd[0].clone(), opd[1].clone()),
                    Cond::Ge => bin(BinOp::Ge, opd[0].clone(), opd[1].clone()),
                    Cond::Operand(i) => opd[*i].clone(),
                };
                let cty = Type::Array(Base::B, shape(ty)?);
                let c = self.bind("c", &cty, c, out);
                let z = self.bind("zero", ty, zeros(ty), out);
                let sel =
                    |a: &Expr, b: &Expr| prim(Prim::Select, vec![c.clone(), a.clone(), b.clone()]);
                self.contribute(adj, ops[*then_arg], sel(&g, &z), out)?;
                self.contribute(adj, ops[*else_arg], sel(&z, &g), out)
            }
            Deriv::Linear { .. } => self.structural(id, ops, g, adj, out),
        }
    }

    /// Template `t` as an expression over the operands, the result and `k`, constants
    /// filled to `sh`.
    fn template(
        &mut self,
        t: &T,
        opd: &[Expr],
        y: &Expr,
        k: i64,
        sh: &[usize],
        out: &mut Block,
    ) -> Result<Expr> {
        let ty = Type::Array(Base::R, sh.to_vec());
        let leaf = |i: usize| {
            opd.get(i)
                .cloned()
                .ok_or_else(|| internal("a template reads a missing operand"))
        };
        Ok(match t {
            T::A => leaf(0)?,
            T::B => leaf(1)?,
            T::Y => y.clone(),
            T::K => fill(sh, real(k)),
            T::Int(n) => fill(sh, real(*n)),
            T::Neg(u) => {
                let u = self.template(u, opd, y, k, sh, out)?;
                mk(ExprKind::Unary(UnOp::Neg, Box::new(u)))
            }
            T::Add(u, v) | T::Sub(u, v) | T::Mul(u, v) | T::Div(u, v) => {
                let op = match t {
                    T::Add(..) => BinOp::Add,
                    T::Sub(..) => BinOp::Sub,
                    T::Mul(..) => BinOp::Mul,
                    _ => BinOp::Div,
                };
                let u = self.template(u, opd, y, k, sh, out)?;
                let v = self.template(v, opd, y, k, sh, out)?;
                bin(op, u, v)
            }
            T::PowKm1(u) => {
                let u = self.template(u, opd, y, k, sh, out)?;
                match k - 1 {
                    1 => u,
                    m => prim(Prim::Pow(m), vec![u]),
                }
            }
            T::Sin(u) => prim(Prim::Sin, vec![self.template(u, opd, y, k, sh, out)?]),
            T::Cos(u) => prim(Prim::Cos, vec![self.template(u, opd, y, k, sh, out)?]),
            T::Sign(u) => {
                // select(x < 0, -1, select(x == 0, 0, 1)): abs'(0) = 0 (docs/language.md),
                // 1 for an unordered (NaN) x, as the reference has it.
                let u = self.template(u, opd, y, k, sh, out)?;
                let x = self.bind("x", &ty, u, out);
                let zero = fill(sh, real(0));
                let lt = bin(BinOp::Lt, x.clone(), zero.clone());
                let eq = bin(BinOp::Eq, x, zero.clone());
                let inner = prim(Prim::Select, vec![eq, zero, fill(sh, real(1))]);
                prim(Prim::Select, vec![lt, fill(sh, real(-1)), inner])
            }
            T::Named(_, u) => self.template(u, opd, y, k, sh, out)?,
        })
    }

    /// The adjoints of the structural primitives (the table's `transpose/…` rules).
    fn structural(
        &mut self,
        id: PrimId,
        ops: &[&Expr],
        g: Expr,
        adj: &mut Adjoints,
        out: &mut Block,
    ) -> Result<()> {
        let a = ops[0];
        let aty = self.atom_ty(a)?;
        let c = match id {
            // transpose/sum: the scalar adjoint replicated to the operand's shape.
            PrimId::Sum => fill(&shape(&aty)?, g),
            // transpose/sum-outer.
            PrimId::SumOuter => prim(Prim::Replicate(shape(&aty)?[0]), vec![g]),
            // transpose/replicate.
            PrimId::Replicate => prim(Prim::SumOuter, vec![g]),
            // transpose/reshape.
            PrimId::Reshape => prim(Prim::Reshape(shape(&aty)?), vec![g]),
            // transpose/append: the two parts of the adjoint.
            PrimId::Append => {
                let na = shape(&aty)?[0];
                let nb = shape(&self.atom_ty(ops[1])?)?[0];
                let i = self.fresh("i");
                let ga = mk(ExprKind::Gather(
                    vec![na],
                    Box::new(g.clone()),
                    vec![i.clone()],
                    vec![var(&i)],
                ));
                self.contribute(adj, a, ga, out)?;
                let j = self.fresh("i");
                let ix = bin(BinOp::Add, var(&j), int(na as i64));
                let gb = mk(ExprKind::Gather(vec![nb], Box::new(g), vec![j], vec![ix]));
                return self.contribute(adj, ops[1], gb, out);
            }
            _ => return Err(internal(format!("no adjoint for the primitive {id:?}"))),
        };
        self.contribute(adj, a, c, out)
    }

    /// `xs̄[i1, …, ik] += g` (§4.2): `reduce_by_index(xs̄, +, 0, [i], [g])` for one
    /// index; a row read, updated and written back by `scatter_into` for more.
    fn add_at(
        &mut self,
        adj: &mut Adjoints,
        x: &Expr,
        is: &[Expr],
        g: Expr,
        out: &mut Block,
    ) -> Result<()> {
        let ExprKind::Var(n) = &x.kind else {
            return Ok(());
        };
        let ty = self.ty(n)?;
        if !ty.has_reals() {
            return Ok(());
        }
        let old = adj.remove(n).unwrap_or(Adj::Zero);
        let d = self.materialize(&old, &ty, out)?;
        let new = self.add_at_expr(d, is, g, &ty, out)?;
        adj.insert(n.clone(), Adj::Atom(new));
        Ok(())
    }

    fn add_at_expr(
        &mut self,
        d: Expr,
        is: &[Expr],
        g: Expr,
        ty: &Type,
        out: &mut Block,
    ) -> Result<Expr> {
        let sh = shape(ty)?;
        let rest = Type::Array(Base::R, sh[1..].to_vec());
        let one = |e: Expr| mk(ExprKind::Array(vec![e]));
        let v = if is.len() == 1 {
            mk(ExprKind::ReduceByIndex {
                dest: Box::new(d),
                op: Op::Add,
                ne: Box::new(zeros(&rest)),
                is: Box::new(one(is[0].clone())),
                vs: Box::new(one(g)),
            })
        } else {
            let row = mk(ExprKind::Index(Box::new(d.clone()), vec![is[0].clone()]));
            let row = self.bind("row", &rest, row, out);
            let row = self.add_at_expr(row, &is[1..], g, &rest, out)?;
            mk(ExprKind::ScatterInto {
                dest: Box::new(d),
                is: Box::new(one(is[0].clone())),
                vs: Box::new(one(row)),
            })
        };
        Ok(self.bind("acc", ty, v, out))
    }
}
