//! Productions of the bulk fragment (seed 000): `build` (1-D and 2-D), indexing by a
//! prefix, `gather`, `scatter`, `sum`, `sum_outer`, `replicate`, `transpose`, `reshape`,
//! `append`, `stack`, array literals, `iota`, elementwise `select`.

use super::ctx::{Gen, Var, VarKind};
use super::expr::Prod;
use super::mk;
use adora_core::ast::{Expr, ExprKind, Prim};
use adora_core::types::{Base, Type};

/// A bulk production.
#[derive(Clone, Debug)]
pub enum BulkProd {
    /// `x[i, ...]` (any result rank).
    Index,
    /// `sum(x)` to a real scalar.
    Sum,
    /// `build n (i => e)`.
    Build1,
    /// `build [n, m] ((i, j) => e)`.
    Build2,
    /// `gather(sh, x, is => ix)`.
    Gather,
    /// `scatter(sh, x, is => ix)`.
    Scatter,
    /// `sum_outer(x)`.
    SumOuter,
    /// `replicate(n, x)`.
    Replicate,
    /// `transpose(perm, x)`.
    Transpose,
    /// `reshape(sh, x)`.
    Reshape,
    /// `append(a, b)`.
    Append,
    /// `stack([a, b, ...])`.
    Stack,
    /// `[a, b, ...]`.
    ArrayLit,
    /// `iota(n)`.
    Iota,
    /// `select(c, a, b)` with an array condition.
    SelectElem,
}

impl Gen {
    /// Adds the applicable bulk productions for type `b[s]`.
    pub fn bulk_prods(&mut self, b: Base, s: &[usize], budget: usize, out: &mut Vec<(u32, Prod)>) {
        let r = s.len();
        let mut add = |w: u32, p: BulkProd| out.push((w, Prod::Bulk(p)));
        if budget >= 3 {
            add(if r == 0 { 4 } else { 2 }, BulkProd::Index);
        }
        if r == 0 {
            if b == Base::R {
                add(5, BulkProd::Sum);
            }
            return;
        }
        let real = b == Base::R;
        add(6, BulkProd::Build1);
        if r >= 2 {
            add(3, BulkProd::Build2);
        }
        if real && budget >= 4 {
            add(2, BulkProd::Gather);
            add(2, BulkProd::Scatter);
        }
        if real {
            add(2, BulkProd::SumOuter);
        }
        add(2, BulkProd::Replicate);
        if r >= 2 {
            add(2, BulkProd::Transpose);
        }
        add(1, BulkProd::Reshape);
        if s[0] >= 2 {
            add(1, BulkProd::Append);
        }
        if s[0] <= 3 {
            add(1, BulkProd::Stack);
            add(1, BulkProd::ArrayLit);
        }
        if b == Base::Z && r == 1 {
            add(4, BulkProd::Iota);
        }
        add(1, BulkProd::SelectElem);
    }

    /// Index variables for the extents `sh`: fresh names, or (10%) the name of a visible
    /// index variable, which the new one shadows.
    pub fn index_binders(&mut self, sh: &[usize]) -> (Vec<String>, Vec<Var>) {
        let outer = self.index_vars();
        let mut names: Vec<String> = Vec::new();
        for _ in sh {
            let reuse = outer
                .iter()
                .map(|(n, _)| n.clone())
                .filter(|n| !names.contains(n))
                .collect::<Vec<_>>();
            let name = if !reuse.is_empty() && self.chance(0.1) {
                self.pick(&reuse)
            } else {
                self.fresh("i")
            };
            names.push(name);
        }
        let vars = names
            .iter()
            .zip(sh)
            .map(|(n, &d)| Var {
                name: n.clone(),
                ty: Type::int(),
                kind: VarKind::Index(d),
            })
            .collect();
        (names, vars)
    }

    /// Runs a bulk production for `ty` with children budget `b`.
    pub fn run_bulk(&mut self, p: BulkProd, ty: &Type, b: usize) -> Expr {
        let Type::Array(base, s) = ty else {
            unreachable!("bulk productions are for arrays")
        };
        let (base, s) = (*base, s.clone());
        let arr = |sh: Vec<usize>| Type::Array(base, sh);
        match p {
            BulkProd::Index => self.index_production(base, &s, b),
            BulkProd::Sum => {
                let rank = self.weighted(&[(4, 1), (2, 2), (1, 3)]);
                let t = self.shape(rank);
                mk::prim(Prim::Sum, vec![self.expr(&Type::Array(Base::R, t), b)])
            }
            BulkProd::Build1 | BulkProd::Build2 => {
                let k = if matches!(p, BulkProd::Build2) { 2 } else { 1 };
                let (names, vars) = self.index_binders(&s[..k]);
                let body = self.with_vars(vars, |g| g.expr(&arr(s[k..].to_vec()), b));
                mk::node(ExprKind::Build(s[..k].to_vec(), names, Box::new(body)))
            }
            BulkProd::Gather => {
                let p = self.urange(1, s.len().min(2));
                let rest = s[p..].to_vec();
                let k = self.weighted(&[(3, 1), (1, 2)]);
                let Some(d) = self.prefix_shape(k, &rest) else {
                    return self.leaf(ty);
                };
                let src = self.expr(
                    &arr([d.clone(), rest].concat()),
                    b.saturating_sub(2 * k).max(1),
                );
                let (names, vars) = self.index_binders(&s[..p]);
                let ix = self.with_vars(vars, |g| d.iter().map(|&e| g.index_expr(e, 3)).collect());
                mk::node(ExprKind::Gather(s[..p].to_vec(), Box::new(src), names, ix))
            }
            BulkProd::Scatter => {
                let j = self.urange(1, s.len().min(2));
                let rest = s[j..].to_vec();
                let k = self.weighted(&[(3, 1), (1, 2)]);
                let Some(a) = self.prefix_shape(k, &rest) else {
                    return self.leaf(ty);
                };
                let src = self.expr(
                    &arr([a.clone(), rest].concat()),
                    b.saturating_sub(2 * j).max(1),
                );
                let (names, vars) = self.index_binders(&a);
                let ix = self.with_vars(vars, |g| {
                    s[..j].iter().map(|&e| g.index_expr(e, 3)).collect()
                });
                mk::node(ExprKind::Scatter(s.clone(), Box::new(src), names, ix))
            }
            BulkProd::SumOuter => {
                let Some(n) = self.outer_dim(&s) else {
                    return self.leaf(ty);
                };
                mk::prim(
                    Prim::SumOuter,
                    vec![self.expr(&arr([vec![n], s.clone()].concat()), b)],
                )
            }
            BulkProd::Replicate => mk::prim(
                Prim::Replicate(s[0]),
                vec![self.expr(&arr(s[1..].to_vec()), b)],
            ),
            BulkProd::Transpose => {
                let perm = self.permutation(s.len());
                // result dim k is input dim perm[k]: input[perm[k]] = s[k]
                let mut t = vec![0; s.len()];
                for (k, &q) in perm.iter().enumerate() {
                    t[q] = s[k];
                }
                mk::prim(Prim::Transpose(perm), vec![self.expr(&arr(t), b)])
            }
            BulkProd::Reshape => {
                let t = self.factorization(s.iter().product(), &s);
                mk::prim(Prim::Reshape(s.clone()), vec![self.expr(&arr(t), b)])
            }
            BulkProd::Append => {
                let n1 = self.urange(1, s[0] - 1);
                let parts = self.split(b, 2);
                let x = self.expr(&arr([vec![n1], s[1..].to_vec()].concat()), parts[0]);
                let y = self.expr(&arr([vec![s[0] - n1], s[1..].to_vec()].concat()), parts[1]);
                mk::prim(Prim::Append, vec![x, y])
            }
            BulkProd::Stack | BulkProd::ArrayLit => {
                let parts = self.split(b, s[0]);
                let elem = arr(s[1..].to_vec());
                let es = parts.into_iter().map(|pb| self.expr(&elem, pb)).collect();
                if matches!(p, BulkProd::Stack) {
                    mk::prim(Prim::Stack, es)
                } else {
                    mk::node(ExprKind::Array(es))
                }
            }
            BulkProd::Iota => mk::prim(Prim::Iota(s[0]), vec![]),
            BulkProd::SelectElem => {
                let parts = self.split(b, 3);
                let c = self.expr(&Type::Array(Base::B, s.clone()), parts[0]);
                mk::prim(
                    Prim::Select,
                    vec![c, self.expr(ty, parts[1]), self.expr(ty, parts[2])],
                )
            }
        }
    }

    /// A random permutation of `0..n` (not the identity when `n >= 2`).
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let id: Vec<usize> = (0..n).collect();
        loop {
            let mut p = id.clone();
            for k in (1..n).rev() {
                let j = self.urange(0, k);
                p.swap(k, j);
            }
            if p != id || n < 2 {
                return p;
            }
        }
    }

    /// A shape with `total` elements other than `avoid` when possible (flattened, two
    /// factors, or split into three), dimensions at most 16.
    pub fn factorization(&mut self, total: usize, avoid: &[usize]) -> Vec<usize> {
        let mut cands: Vec<Vec<usize>> = vec![vec![total]];
        for a in 1..=total {
            if (total / a) * a == total && a <= 16 && total / a <= 16 {
                cands.push(vec![a, total / a]);
            }
        }
        for a in 2..=4 {
            for c in 2..=4 {
                if (total / (a * c)) * (a * c) == total && total >= a * c {
                    cands.push(vec![a, c, total / (a * c)]);
                }
            }
        }
        let others: Vec<Vec<usize>> = cands
            .iter()
            .filter(|c| c.as_slice() != avoid)
            .cloned()
            .collect();
        if others.is_empty() {
            avoid.to_vec()
        } else {
            self.pick(&others)
        }
    }
}
