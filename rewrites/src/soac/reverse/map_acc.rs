//! The accumulators of a `map`'s free arrays (seed 004 *AD for an Array Language with
//! Nested Parallelism* §5.4): a free array `xs` that the lambda only reads by indexing,
//! `y = xs[i…]` at the lambda's top level, gets its adjoint as one (index, value) pair per
//! access and element — the index, and `ȳ` at that access — added after the `map` by
//! `reduce_by_index(xs̄, +, 0, is, vs)`: adjoint work proportional to the accesses, not to
//! the array. An access whose adjoint is zero contributes the out-of-bounds index `-1`
//! (dropped). Multi-dimensional accesses `xs[i, j]` are linearised (`i · m + j`, `-1`
//! when a component is out of bounds) over `xs̄` reshaped to one outer dimension.
//! Any other use of the array (in a nested body, as a whole) falls back to the whole
//! array adjoint per element, summed by `reduce(+)` (`super::map`).

use super::build::{bin, int, prim, zeros, Block, Rev};
use super::flat::shape;
use super::ir::{mk, rhs_free, Body, Rhs};
use adora_core::ast::{BinOp, Expr, ExprKind, Name, Op, Pat, Prim};
use adora_core::diag::Result;
use adora_core::types::{Base, Type};
use adora_core::visit::free_vars;

/// One access `y = xs[i…]` of an accumulated array: the statement's name and the number
/// of indices.
#[derive(Clone, Debug)]
pub struct Site {
    /// The array.
    pub array: Name,
    /// The statement's name.
    pub stmt: Name,
    /// The number of indices.
    pub rank: usize,
}

/// The accesses of `f` in `body` when it is read only by indexing at the top level of
/// `body`; `None` otherwise.
pub fn sites_of(body: &Body, f: &Name, ty: &Type) -> Option<Vec<Site>> {
    let Type::Array(Base::R, s) = ty else {
        return None;
    };
    let mut sites = Vec::new();
    for st in &body.stmts {
        if let (Pat::Var(y), Rhs::Flat(e)) = (&st.pat, &st.rhs) {
            if let ExprKind::Index(x, is) = &e.kind {
                if matches!(&x.kind, ExprKind::Var(v) if v == f)
                    && is.len() <= s.len()
                    && !is.iter().any(|i| free_vars(i).contains(f))
                {
                    sites.push(Site {
                        array: f.clone(),
                        stmt: y.clone(),
                        rank: is.len(),
                    });
                    continue;
                }
            }
        }
        if rhs_free(&st.rhs).contains(f) {
            return None;
        }
    }
    if free_vars(&body.result).contains(f) || sites.is_empty() {
        return None;
    }
    Some(sites)
}

impl Rev {
    /// In the reversed lambda's block: the access's pair as reals, `(real(index), ȳ)`
    /// (`(-1, 0)` when its adjoint was zero).
    pub fn site_outputs(
        &mut self,
        site: &Site,
        rec: Option<(Vec<Expr>, Expr)>,
        blk: &mut Block,
    ) -> Result<(Expr, Expr, Type)> {
        let aty = self.ty(&site.array)?;
        let s = shape(&aty)?;
        let rest = Type::Array(Base::R, s[site.rank..].to_vec());
        let Some((is, g)) = rec else {
            return Ok((int_real(-1), zeros(&rest), rest));
        };
        let idx = if site.rank == 1 {
            is[0].clone()
        } else {
            let mut ok: Option<Expr> = None;
            let mut lin: Option<Expr> = None;
            for (i, m) in is.iter().zip(&s) {
                let c = bin(
                    BinOp::And,
                    bin(BinOp::Le, int(0), i.clone()),
                    bin(BinOp::Lt, i.clone(), int(*m as i64)),
                );
                ok = Some(match ok {
                    None => c,
                    Some(o) => bin(BinOp::And, o, c),
                });
                lin = Some(match lin {
                    None => i.clone(),
                    Some(l) => bin(BinOp::Add, bin(BinOp::Mul, l, int(*m as i64)), i.clone()),
                });
            }
            let ok = self.bind("ok", &Type::bool(), ok.expect("a site has indices"), blk);
            let lin = self.bind("lin", &Type::int(), lin.expect("a site has indices"), blk);
            let sel = prim(Prim::Select, vec![ok, lin, int(-1)]);
            self.bind("at", &Type::int(), sel, blk)
        };
        let r = prim(Prim::Real, vec![idx]);
        Ok((self.bind("at", &Type::real(), r, blk), g, rest))
    }

    /// `xs̄ = reduce_by_index(xs̄, +, 0, floor(is), vs)` after the `map`, through a
    /// reshape to one outer dimension for multi-index accesses.
    pub fn site_accumulate(
        &mut self,
        site: &Site,
        old: Expr,
        is_real: Expr,
        vs: Expr,
        out: &mut Block,
    ) -> Result<Expr> {
        let aty = self.ty(&site.array)?;
        let s = shape(&aty)?;
        let n = shape(&self.atom_ty(&is_real)?)?[0];
        let is = prim(Prim::Floor, vec![is_real]);
        let is = self.bind("is", &Type::Array(Base::Z, vec![n]), is, out);
        let rest: Vec<usize> = s[site.rank..].to_vec();
        let outer: usize = s[..site.rank].iter().product();
        let flat_sh: Vec<usize> = std::iter::once(outer).chain(rest.iter().copied()).collect();
        let dest = if site.rank == 1 {
            old
        } else {
            let r = prim(Prim::Reshape(flat_sh.clone()), vec![old]);
            self.bind("flat", &Type::Array(Base::R, flat_sh.clone()), r, out)
        };
        let h = mk(ExprKind::ReduceByIndex {
            dest: Box::new(dest),
            op: Op::Add,
            ne: Box::new(zeros(&Type::Array(Base::R, rest))),
            is: Box::new(is),
            vs: Box::new(vs),
        });
        let h = self.bind("acc", &Type::Array(Base::R, flat_sh), h, out);
        Ok(if site.rank == 1 {
            h
        } else {
            let r = prim(Prim::Reshape(s), vec![h]);
            self.bind("acc", &aty, r, out)
        })
    }
}

fn int_real(n: i64) -> Expr {
    super::build::real(n)
}
