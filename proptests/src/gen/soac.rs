//! Productions of the SOAC fragment (seed 004): `map`, `reduce` (with `+`, `*`, `min`,
//! `max` and lambda operators), `scan`, `reduce_by_index`, `scatter_into`, indexing,
//! `replicate`, `iota`, array literals; `if` and `loop` live with the shared productions.
//!
//! Lambda operators of `reduce`, `scan` and `reduce_by_index` are drawn from a family of
//! associative operators with their neutral elements (`a + b`, `a * b`, `min`, `max`,
//! `a + b + a * b`, `select(a >= b, a, b)`), so that engines relying on associativity
//! (seed 004's rules) are tested on programs the paper's rules are meant for.
//! `scatter_into` indices are mostly distinct (seed 004 §5.3 assumes so); sometimes they
//! collide or fall out of bounds, to exercise the conventions.

use super::ctx::{Gen, Var, VarKind};
use super::expr::Prod;
use super::mk;
use adora_core::ast::{BinOp, Expr, ExprKind, Op, Prim};
use adora_core::types::{Base, Type};

/// A SOAC production.
#[derive(Clone, Debug)]
pub enum SoacProd {
    /// `x[i, ...]`.
    Index,
    /// `reduce(op, ne, xs)`.
    Reduce,
    /// `map(lambda, xs, ...)`.
    Map,
    /// `scan(op, ne, xs)`.
    Scan,
    /// `reduce_by_index(dest, op, ne, is, vs)`.
    ReduceByIndex,
    /// `scatter_into(dest, is, vs)`.
    ScatterInto,
    /// `replicate(n, x)`.
    Replicate,
    /// `[a, b, ...]`.
    ArrayLit,
    /// `iota(n)`.
    Iota,
}

impl Gen {
    /// Adds the applicable SOAC productions for type `b[s]`.
    pub fn soac_prods(&mut self, b: Base, s: &[usize], budget: usize, out: &mut Vec<(u32, Prod)>) {
        let r = s.len();
        let real = b == Base::R;
        let mut add = |w: u32, p: SoacProd| out.push((w, Prod::Soac(p)));
        if budget >= 3 {
            add(if r == 0 { 4 } else { 2 }, SoacProd::Index);
        }
        if real && budget >= 3 {
            add(if r == 0 { 6 } else { 1 }, SoacProd::Reduce);
        }
        if r == 0 {
            return;
        }
        add(7, SoacProd::Map);
        if real && budget >= 3 {
            add(2, SoacProd::Scan);
            add(2, SoacProd::ReduceByIndex);
            add(2, SoacProd::ScatterInto);
        }
        add(1, SoacProd::Replicate);
        if s[0] <= 4 {
            add(1, SoacProd::ArrayLit);
        }
        if b == Base::Z && r == 1 {
            add(4, SoacProd::Iota);
        }
    }

    /// Runs a SOAC production for `ty` with children budget `b`.
    pub fn run_soac(&mut self, p: SoacProd, ty: &Type, b: usize) -> Expr {
        let Type::Array(base, s) = ty else {
            unreachable!("soac productions are for arrays")
        };
        let (base, s) = (*base, s.clone());
        let arr = |sh: Vec<usize>| Type::Array(base, sh);
        match p {
            SoacProd::Index => self.index_production(base, &s, b),
            SoacProd::Reduce => {
                let Some(n) = self.outer_dim(&s) else {
                    return self.leaf(ty);
                };
                let (op, ne) = self.reduce_op(&s);
                let xs = self.expr(
                    &arr([vec![n], s.clone()].concat()),
                    b.saturating_sub(1).max(1),
                );
                mk::node(ExprKind::Reduce(op, Box::new(ne), Box::new(xs)))
            }
            SoacProd::Scan => {
                let (op, ne) = self.reduce_op(&s[1..]);
                let xs = self.expr(ty, b.saturating_sub(1).max(1));
                mk::node(ExprKind::Scan(op, Box::new(ne), Box::new(xs)))
            }
            SoacProd::Map => self.map_expr(base, &s, b),
            SoacProd::ReduceByIndex => {
                let m = self.dim();
                let (op, ne) = self.reduce_op(&s[1..]);
                let parts = self.split(b, 2);
                let dest = self.expr(ty, parts[0]);
                let is = self.index_array(m, s[0], false);
                let vs = self.expr(&arr([vec![m], s[1..].to_vec()].concat()), parts[1]);
                mk::node(ExprKind::ReduceByIndex {
                    dest: Box::new(dest),
                    op,
                    ne: Box::new(ne),
                    is: Box::new(is),
                    vs: Box::new(vs),
                })
            }
            SoacProd::ScatterInto => {
                let m = self.urange(1, s[0].max(1));
                let parts = self.split(b, 2);
                let dest = self.expr(ty, parts[0]);
                let is = self.index_array(m, s[0], true);
                let vs = self.expr(&arr([vec![m], s[1..].to_vec()].concat()), parts[1]);
                mk::node(ExprKind::ScatterInto {
                    dest: Box::new(dest),
                    is: Box::new(is),
                    vs: Box::new(vs),
                })
            }
            SoacProd::Replicate => mk::prim(
                Prim::Replicate(s[0]),
                vec![self.expr(&arr(s[1..].to_vec()), b)],
            ),
            SoacProd::ArrayLit => {
                let parts = self.split(b, s[0]);
                let elem = arr(s[1..].to_vec());
                mk::node(ExprKind::Array(
                    parts.into_iter().map(|pb| self.expr(&elem, pb)).collect(),
                ))
            }
            SoacProd::Iota => mk::prim(Prim::Iota(s[0]), vec![]),
        }
    }

    /// `map((p1, ...) => body, xs1, ...)` of type `base[s]`.
    fn map_expr(&mut self, base: Base, s: &[usize], b: usize) -> Expr {
        let n = s[0];
        let k = self.weighted(&[(5, 1usize), (3, 2), (1, 3)]);
        let parts = self.split(b, k + 1);
        let mut xs = Vec::new();
        let mut vars = Vec::new();
        let mut params = Vec::new();
        for (q, &pb) in parts[1..].iter().enumerate() {
            let name = self.fresh("a");
            let outer = self.visible(|v| matches!(&v.ty, Type::Array(Base::R, vs) if vs.first() == Some(&n) && vs.len() <= 2));
            let choice = self.weighted(&[
                (if q == 0 { 4 } else { 2 }, 0),
                (if outer.is_empty() { 0 } else { 5 }, 1),
                (3, 2),
            ]);
            let (x, var) = match choice {
                0 => (
                    mk::prim(Prim::Iota(n), vec![]),
                    Var {
                        name: name.clone(),
                        ty: Type::int(),
                        kind: VarKind::Index(n),
                    },
                ),
                1 => {
                    let v = self.pick(&outer);
                    let Type::Array(vb, vs) = &v.ty else {
                        unreachable!("filtered to arrays")
                    };
                    let t = Type::Array(*vb, vs[1..].to_vec());
                    (
                        mk::var(&v.name),
                        Var {
                            name: name.clone(),
                            ty: t,
                            kind: VarKind::Local,
                        },
                    )
                }
                _ => {
                    let rank = self.weighted(&[(4, 0), (1, 1)]);
                    let t = Type::Array(Base::R, self.prefix_shape(rank, &[]).unwrap_or_default());
                    let full = match &t {
                        Type::Array(_, ts) => Type::Array(Base::R, [vec![n], ts.clone()].concat()),
                        Type::Tuple(_) => unreachable!("real arrays"),
                    };
                    (
                        self.expr(&full, pb),
                        Var {
                            name: name.clone(),
                            ty: t,
                            kind: VarKind::Local,
                        },
                    )
                }
            };
            xs.push(x);
            vars.push(var);
            params.push(name);
        }
        let body_ty = Type::Array(base, s[1..].to_vec());
        let body = self.with_vars(vars, |g| g.expr(&body_ty, parts[0]));
        mk::node(ExprKind::Map(mk::lambda(params, body), xs))
    }

    /// `c` filled to shape `sh` with `replicate`.
    pub fn fill(&mut self, sh: &[usize], c: Expr) -> Expr {
        match sh.split_first() {
            None => c,
            Some((n, rest)) => {
                let inner = self.fill(rest, c);
                mk::prim(Prim::Replicate(*n), vec![inner])
            }
        }
    }

    /// An associative operator on `R[sh]` slices and its neutral element.
    pub fn reduce_op(&mut self, sh: &[usize]) -> (Op, Expr) {
        let zero = mk::real(0, 1);
        let one = mk::real(1, 1);
        let big = mk::real(8, 1);
        let small = mk::real(-8, 1);
        let k = self.weighted(&[(4, 0), (2, 1), (2, 2), (2, 3), (4, 4)]);
        let (op, ne) = match k {
            0 => (Op::Add, zero),
            1 => (Op::Mul, one),
            2 => (Op::Min, big),
            3 => (Op::Max, small),
            _ => {
                let (a, c) = (self.fresh("a"), self.fresh("b"));
                let (va, vc) = (mk::var(&a), mk::var(&c));
                let form = self.urange(0, 5);
                let (body, ne) = match form {
                    0 => (mk::bin(BinOp::Add, va, vc), zero),
                    1 => (mk::bin(BinOp::Mul, va, vc), one),
                    2 => (mk::prim(Prim::Max, vec![va, vc]), small),
                    3 => (mk::prim(Prim::Min, vec![va, vc]), big),
                    4 => (
                        mk::bin(
                            BinOp::Add,
                            mk::bin(BinOp::Add, va.clone(), vc.clone()),
                            mk::bin(BinOp::Mul, va, vc),
                        ),
                        zero,
                    ),
                    _ => (
                        mk::prim(
                            Prim::Select,
                            vec![mk::bin(BinOp::Ge, va.clone(), vc.clone()), va, vc],
                        ),
                        small,
                    ),
                };
                (mk::op_lambda(a, c, body), ne)
            }
        };
        let ne = self.fill(sh, ne);
        (op, ne)
    }

    /// A `Z[m]` array of indices into a dimension of size `bound` (mostly in bounds;
    /// mostly distinct when `distinct`).
    pub fn index_array(&mut self, m: usize, bound: usize, distinct: bool) -> Expr {
        let zvars = self.vars_of(&Type::Array(Base::Z, vec![m]));
        let choice = self.weighted(&[
            (6, 0),
            (if m <= bound { 2 } else { 0 }, 1),
            (2, 2),
            (if zvars.is_empty() { 0 } else { 2 }, 3),
        ]);
        match choice {
            1 => mk::prim(Prim::Iota(m), vec![]),
            2 => {
                let i = self.fresh("a");
                let c = self.range(1, 3);
                let d = self.range(0, 3);
                let body = mk::bin(
                    BinOp::Mod,
                    mk::bin(
                        BinOp::Add,
                        mk::bin(BinOp::Mul, mk::var(&i), mk::int(c)),
                        mk::int(d),
                    ),
                    mk::int(bound as i64),
                );
                mk::node(ExprKind::Map(
                    mk::lambda(vec![i], body),
                    vec![mk::prim(Prim::Iota(m), vec![])],
                ))
            }
            3 => mk::var(&self.pick(&zvars).name),
            _ => {
                let mut pool: Vec<i64> = (0..bound as i64).collect();
                let mut out = Vec::new();
                for _ in 0..m {
                    let v = if distinct && !pool.is_empty() && self.chance(0.9) {
                        let k = self.urange(0, pool.len() - 1);
                        pool.swap_remove(k)
                    } else if self.chance(0.1) {
                        self.pick(&[-1, bound as i64])
                    } else {
                        self.range(0, bound as i64 - 1)
                    };
                    out.push(mk::int(v));
                }
                mk::node(ExprKind::Array(out))
            }
        }
    }
}
