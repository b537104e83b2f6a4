//! Type-directed expression generation: the dispatcher and the productions every
//! fragment shares (variables, `let`, tuples and projections, whole-array `select`, calls
//! of the helper `def`, and — in the SOAC fragment — `if` and `loop`).
//!
//! `expr(ty, budget)` returns an expression of type `ty` in the current environment with
//! at most about `budget` nodes; every production gives each child a strictly smaller
//! budget, so generation terminates, and at budget 1 only leaves are produced.

use super::bulk::BulkProd;
use super::ctx::{Gen, Var, VarKind};
use super::mk;
use super::scalar::ScalarProd;
use super::soac::SoacProd;
use super::Fragment;
use adora_core::ast::{BinOp, Expr, ExprKind, Pat, Prim};
use adora_core::types::{Base, Type};

/// One way of producing an expression of a requested type.
#[derive(Clone, Debug)]
pub enum Prod {
    /// A variable or constant.
    Leaf,
    /// `let x = e1 in e2`.
    Let,
    /// `let (a, b) = e1 in e2`.
    LetTuple,
    /// `e.k` of a tuple.
    Proj,
    /// `select(c, a, b)` with a scalar condition.
    Select,
    /// A call of the helper `def`.
    Call,
    /// `if c then a else b` (SOAC fragment).
    If,
    /// `loop (acc = init) for i < n do body` (SOAC fragment).
    Loop,
    /// A tuple expression `(e1, e2)`.
    Tuple,
    /// Scalar and elementwise productions.
    Scalar(ScalarProd),
    /// Seed-000 bulk productions.
    Bulk(BulkProd),
    /// Seed-004 SOAC productions.
    Soac(SoacProd),
}

/// Whether every scalar of `ty` is real (loop accumulators must be).
pub fn all_real(ty: &Type) -> bool {
    match ty {
        Type::Array(b, _) => *b == Base::R,
        Type::Tuple(ts) => ts.iter().all(all_real),
    }
}

impl Gen {
    /// An expression of type `ty` with about `budget` nodes at most.
    pub fn expr(&mut self, ty: &Type, budget: usize) -> Expr {
        if budget <= 1 {
            return self.leaf(ty);
        }
        let mut prods: Vec<(u32, Prod)> = Vec::new();
        let leaf_weight = (24 / budget).max(1) as u32;
        prods.push((leaf_weight, Prod::Leaf));
        self.common_prods(ty, budget, &mut prods);
        match ty {
            Type::Tuple(_) => prods.push((8, Prod::Tuple)),
            Type::Array(b, s) => {
                self.scalar_prods(*b, s, budget, &mut prods);
                match self.frag() {
                    Fragment::Scalar => {}
                    Fragment::Bulk => self.bulk_prods(*b, s, budget, &mut prods),
                    Fragment::Soac => self.soac_prods(*b, s, budget, &mut prods),
                }
            }
        }
        let p = self.weighted(&prods);
        self.run(p, ty, budget)
    }

    fn common_prods(&mut self, ty: &Type, budget: usize, out: &mut Vec<(u32, Prod)>) {
        if budget >= 3 {
            out.push((3, Prod::Let));
            out.push((1, Prod::LetTuple));
            out.push((if self.has_tuple_var_with(ty) { 3 } else { 1 }, Prod::Proj));
        }
        if budget >= 4 && matches!(ty, Type::Array(..)) {
            out.push((1, Prod::Select));
        }
        if self.in_main && self.helper.as_ref().is_some_and(|h| &h.ret == ty) && budget >= 2 {
            out.push((4, Prod::Call));
        }
        if self.frag() == Fragment::Soac && budget >= 4 {
            out.push((2, Prod::If));
            if all_real(ty) {
                out.push((2, Prod::Loop));
            }
        }
    }

    fn has_tuple_var_with(&self, ty: &Type) -> bool {
        !self
            .visible(|v| matches!(&v.ty, Type::Tuple(ts) if ts.contains(ty)))
            .is_empty()
    }

    fn run(&mut self, p: Prod, ty: &Type, budget: usize) -> Expr {
        let b = budget - 1;
        match p {
            Prod::Leaf => self.leaf(ty),
            Prod::Let => {
                let t1 = if self.chance(0.3) {
                    ty.clone()
                } else {
                    self.value_type()
                };
                let parts = self.split(b, 2);
                let e1 = self.expr(&t1, parts[0]);
                let name = self.binder_name();
                let var = Var {
                    name: name.clone(),
                    ty: t1,
                    kind: VarKind::Local,
                };
                let body = self.with_vars(vec![var], |g| g.expr(ty, parts[1]));
                mk::let_(Pat::Var(name), e1, body)
            }
            Prod::LetTuple => {
                let max_rank = if self.frag() == Fragment::Scalar {
                    0
                } else {
                    1
                };
                let n = self.urange(2, 3);
                let ts: Vec<Type> = (0..n).map(|_| self.tuple_component(max_rank)).collect();
                let parts = self.split(b, 2);
                let e1 = self.expr(&Type::Tuple(ts.clone()), parts[0]);
                let names: Vec<_> = (0..n).map(|_| self.fresh("t")).collect();
                let vars = names
                    .iter()
                    .zip(&ts)
                    .map(|(n, t)| Var {
                        name: n.clone(),
                        ty: t.clone(),
                        kind: VarKind::Local,
                    })
                    .collect();
                let body = self.with_vars(vars, |g| g.expr(ty, parts[1]));
                mk::let_(Pat::Tuple(names), e1, body)
            }
            Prod::Proj => {
                let vars = self.visible(|v| matches!(&v.ty, Type::Tuple(ts) if ts.contains(ty)));
                if !vars.is_empty() && self.chance(0.8) {
                    let v = self.pick(&vars);
                    let Type::Tuple(ts) = &v.ty else {
                        unreachable!("filtered to tuples")
                    };
                    let ks: Vec<usize> = (0..ts.len()).filter(|&k| &ts[k] == ty).collect();
                    let k = self.pick(&ks);
                    return mk::proj(mk::var(&v.name), k);
                }
                let max_rank = if self.frag() == Fragment::Scalar {
                    0
                } else {
                    1
                };
                let mut ts = vec![self.tuple_component(max_rank)];
                let k = self.urange(0, 1);
                ts.insert(k, ty.clone());
                mk::proj(self.expr(&Type::Tuple(ts), b), k)
            }
            Prod::Select => {
                let parts = self.split(b, 3);
                let c = self.expr(&Type::bool(), parts[0].min(5));
                mk::prim(
                    Prim::Select,
                    vec![c, self.expr(ty, parts[1]), self.expr(ty, parts[2])],
                )
            }
            Prod::Call => {
                let h = self.helper.clone().expect("a helper exists");
                let parts = self.split(b, h.params.len());
                let args = h
                    .params
                    .iter()
                    .zip(parts)
                    .map(|(t, pb)| self.expr(t, pb))
                    .collect();
                mk::node(ExprKind::Call(h.name, args))
            }
            Prod::If => {
                let parts = self.split(b, 3);
                let c = self.expr(&Type::bool(), parts[0].min(5));
                mk::if_(c, self.expr(ty, parts[1]), self.expr(ty, parts[2]))
            }
            Prod::Loop => self.loop_expr(ty, b),
            Prod::Tuple => {
                let Type::Tuple(ts) = ty else {
                    unreachable!("tuple production on a tuple type")
                };
                let parts = self.split(b, ts.len());
                mk::tuple(
                    ts.iter()
                        .zip(parts)
                        .map(|(t, pb)| self.expr(t, pb))
                        .collect(),
                )
            }
            Prod::Scalar(p) => self.run_scalar(p, ty, b),
            Prod::Bulk(p) => self.run_bulk(p, ty, b),
            Prod::Soac(p) => self.run_soac(p, ty, b),
        }
    }

    /// A fresh `let` binder name; sometimes (8%) it shadows a visible variable of any
    /// type and kind (parameters and index variables included).
    fn binder_name(&mut self) -> String {
        let all = self.visible(|_| true);
        if !all.is_empty() && self.chance(0.08) {
            return self.pick(&all).name;
        }
        self.fresh("t")
    }

    fn loop_expr(&mut self, ty: &Type, b: usize) -> Expr {
        let count = self.urange(1, 4);
        let parts = self.split(b, 2);
        let init = self.expr(ty, parts[0]);
        let var = self.fresh("k");
        let (acc, vars) = match ty {
            Type::Tuple(ts) => {
                let names: Vec<_> = ts.iter().map(|_| self.fresh("acc")).collect();
                let vars = names
                    .iter()
                    .zip(ts)
                    .map(|(n, t)| Var {
                        name: n.clone(),
                        ty: t.clone(),
                        kind: VarKind::Local,
                    })
                    .collect();
                (Pat::Tuple(names), vars)
            }
            _ => {
                let n = self.fresh("acc");
                (
                    Pat::Var(n.clone()),
                    vec![Var {
                        name: n,
                        ty: ty.clone(),
                        kind: VarKind::Local,
                    }],
                )
            }
        };
        let mut vars: Vec<Var> = vars;
        vars.push(Var {
            name: var.clone(),
            ty: Type::int(),
            kind: VarKind::Index(count),
        });
        let body = self.with_vars(vars, |g| g.expr(ty, parts[1]));
        mk::node(ExprKind::Loop {
            acc,
            init: Box::new(init),
            var,
            count,
            body: Box::new(body),
        })
    }

    /// A leaf of type `ty`: mostly a visible variable of that type (or an element of an
    /// array variable, or a component of a tuple variable, or an array filled from
    /// those), otherwise a constant.
    pub fn leaf(&mut self, ty: &Type) -> Expr {
        let vars = self.vars_of(ty);
        if !vars.is_empty() && self.chance(0.85) {
            let v = self.pick(&vars);
            return mk::var(&v.name);
        }
        if self.chance(0.6) {
            let tuples = self.visible(|v| matches!(&v.ty, Type::Tuple(ts) if ts.contains(ty)));
            if !tuples.is_empty() {
                let v = self.pick(&tuples);
                let Type::Tuple(ts) = &v.ty else {
                    unreachable!("filtered to tuples")
                };
                let ks: Vec<usize> = (0..ts.len()).filter(|&k| &ts[k] == ty).collect();
                let k = self.pick(&ks);
                return mk::proj(mk::var(&v.name), k);
            }
        }
        if let Type::Tuple(ts) = ty {
            if self.chance(0.8) {
                return mk::tuple(ts.iter().map(|t| self.leaf(t)).collect());
            }
        }
        if *ty == Type::bool() && self.chance(0.6) {
            // A comparison of real leaves, so that conditions depend on the inputs.
            let op = self.pick(&[BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge]);
            let (a, c) = (self.leaf(&Type::real()), self.leaf(&Type::real()));
            return mk::bin(op, a, c);
        }
        if let Type::Array(b, s) = ty {
            if self.frag() != Fragment::Scalar && self.chance(0.9) {
                if let Some(e) = self.index_of_var(*b, s) {
                    return e;
                }
            }
            if !s.is_empty() && self.chance(0.9) {
                // An array filled from leaves of its element type.
                let elem = Type::Array(*b, s[1..].to_vec());
                return match self.frag() {
                    Fragment::Bulk if self.chance(0.7) => {
                        let (names, vars) = self.index_binders(&s[..1]);
                        let body = self.with_vars(vars, |g| g.leaf(&elem));
                        mk::node(ExprKind::Build(s[..1].to_vec(), names, Box::new(body)))
                    }
                    Fragment::Soac if self.chance(0.5) => {
                        let a = self.fresh("a");
                        let var = Var {
                            name: a.clone(),
                            ty: Type::int(),
                            kind: VarKind::Index(s[0]),
                        };
                        let body = self.with_vars(vec![var], |g| g.leaf(&elem));
                        mk::node(ExprKind::Map(
                            mk::lambda(vec![a], body),
                            vec![mk::prim(Prim::Iota(s[0]), vec![])],
                        ))
                    }
                    _ => {
                        let inner = self.leaf(&elem);
                        mk::prim(Prim::Replicate(s[0]), vec![inner])
                    }
                };
            }
        }
        self.constant(ty)
    }

    /// `x[i, ...]` for a visible array variable `x` whose shape ends with `s` (base `b`),
    /// with mostly in-bounds index expressions; `None` when there is no such variable.
    pub fn index_of_var(&mut self, b: Base, s: &[usize]) -> Option<Expr> {
        let vars = self.visible(|v| match &v.ty {
            Type::Array(vb, vs) => *vb == b && vs.len() > s.len() && vs.ends_with(s),
            _ => false,
        });
        if vars.is_empty() {
            return None;
        }
        let v = self.pick(&vars);
        let Type::Array(_, vs) = &v.ty else {
            return None;
        };
        let prefix = vs[..vs.len() - s.len()].to_vec();
        let ix = prefix.iter().map(|&d| self.index_expr(d, 2)).collect();
        Some(mk::index(mk::var(&v.name), ix))
    }

    /// The index production shared by the bulk and SOAC fragments: usually `x[i, ...]` of a
    /// visible variable, otherwise the index of a generated array one dimension larger
    /// (a leaf when `s` leaves no room for an outer dimension). `b` is the children budget.
    pub fn index_production(&mut self, base: Base, s: &[usize], b: usize) -> Expr {
        if self.chance(0.7) {
            if let Some(e) = self.index_of_var(base, s) {
                return e;
            }
        }
        let Some(d) = self.outer_dim(s) else {
            return self.leaf(&Type::Array(base, s.to_vec()));
        };
        let x = self.expr(&Type::Array(base, [vec![d], s.to_vec()].concat()), b - 1);
        mk::index(x, vec![self.index_expr(d, 2)])
    }
}
