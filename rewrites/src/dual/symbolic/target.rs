//! The symbolic reverse pass (seed 000 §7.3, Fig. 19): the generic reverse pass of
//! [`crate::dual::reverse`] instantiated at cotangents that are core terms, so that
//! transposing the symbolic Delta *builds* the gradient program instead of computing a
//! gradient.
//!
//! Sharing of cotangents follows the optimistic approach (2) of §7.3: cotangents are
//! assumed to be used once, and a `share` is introduced exactly where the reverse pass
//! duplicates one (at `Add`, `Select`, `Append` and `Stack`, the paper's "Add and
//! LitArray"). `share n c` is represented with global sharing: the term `c` goes into a
//! table under a fresh id `n` (ids increase, so a shared term only mentions smaller ids)
//! and both uses get the reference [`share_ref`]`(n)`, a variable whose name is not an
//! identifier and so cannot clash with the program's names. Accumulated cotangents (the
//! `accum` and `grad` maps) are never duplicated and need no `share`.
//!
//! The cotangent terms use only: share references, `+`, `-`, `*` and `/` by primal
//! variables, `select`, one-hot (a `scatter` of one replicated slice), `replicate`,
//! `sum_outer`, `scatter` and `gather` (with copies of the primal program's index maps,
//! their binders fresh from the supply: names unique by construction), indexing
//! by a constant, `transpose` and `reshape` — all core constructs, so the gradient is a
//! core program (§7: the language is closed under differentiation).

use super::fuse::{ScatterPart, SymCt};
use super::{filled, int_lit, is_atom, mk, replicate_to, Sym, SymMap};
use crate::dual::delta::Ids;
use crate::dual::reverse::Target;
use adora_core::ast::{BinOp, Expr, ExprKind, Name, Prim};
use adora_core::visit::NameSupply;
use std::collections::BTreeMap;
use std::rc::Rc;

/// The reference to shared cotangent `n`: the lowering kit's reference
/// ([`crate::kit::lets::reference`]), which its `let` pass resolves.
pub fn share_ref(n: u64) -> Expr {
    crate::kit::lets::reference(n)
}

/// The id of a share reference.
pub fn share_id(e: &Expr) -> Option<u64> {
    crate::kit::lets::reference_id(e)
}

/// Builds cotangent terms ([`SymCt`]: terms, or pending sums of scatters fused when
/// used); owns the table of shared terms.
pub struct SymTarget<'n> {
    /// Shared cotangents by id (the global-sharing table).
    pub shares: BTreeMap<u64, Expr>,
    ids: Ids,
    names: &'n mut NameSupply,
}

impl<'n> SymTarget<'n> {
    /// A target drawing fresh binder names from `names` (which avoids the program's).
    pub fn new(names: &'n mut NameSupply) -> SymTarget<'n> {
        SymTarget {
            shares: BTreeMap::new(),
            ids: Ids::new(),
            names,
        }
    }

    /// A copy of `map`'s binders and index terms for the gradient program: the binders
    /// (and any binder inside the index terms) take fresh names from the supply, so each
    /// copy of a primal index map binds names of its own — unique by construction, no
    /// renaming afterwards (docs/architecture.md, "Lowering kit").
    fn copy_map(&mut self, map: &SymMap) -> (Vec<Name>, Vec<Expr>) {
        let binders: Vec<Name> = map.binders.iter().map(|b| self.names.fresh(b)).collect();
        let to: Vec<(Name, Expr)> = map
            .binders
            .iter()
            .zip(&binders)
            .map(|(b, n)| (b.clone(), mk(ExprKind::Var(n.clone()))))
            .collect();
        let ix = map
            .ix
            .iter()
            .map(|e| crate::kit::subst::subst_claiming(e, &to, self.names))
            .collect();
        (binders, ix)
    }

    /// The cotangent as a term (see [`SymCt::into_expr`]).
    pub fn finish(&mut self, c: SymCt) -> Expr {
        c.into_expr(self.names)
    }
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    mk(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}

fn prim(p: Prim, args: Vec<Expr>) -> Expr {
    mk(ExprKind::Prim(p, args))
}

impl Target<Sym> for SymTarget<'_> {
    type Ct = SymCt;
    fn dup(&mut self, c: SymCt) -> SymCt {
        let (neg, c) = c.split(self.names);
        let shared = if is_atom(&c) {
            c
        } else {
            let n = self.ids.fresh();
            self.shares.insert(n, c);
            share_ref(n)
        };
        let out = SymCt::term(shared);
        if neg {
            out.negated()
        } else {
            out
        }
    }
    fn add(&mut self, a: SymCt, b: SymCt) -> SymCt {
        SymCt::add(a, b, self.names)
    }
    fn neg(&mut self, c: SymCt) -> SymCt {
        c.negated()
    }
    fn scale(&mut self, k: &Expr, c: SymCt) -> SymCt {
        c.map(self.names, |c| bin(BinOp::Mul, k.clone(), c))
    }
    fn div_by(&mut self, k: &Expr, c: SymCt) -> SymCt {
        c.map(self.names, |c| bin(BinOp::Div, c, k.clone()))
    }
    fn select(&mut self, b: &Expr, c: SymCt, then_branch: bool, shape: &[usize]) -> SymCt {
        let zero = filled(shape, 0);
        c.map(self.names, |c| {
            let args = if then_branch {
                vec![b.clone(), c, zero]
            } else {
                vec![b.clone(), zero, c]
            };
            prim(Prim::Select, args)
        })
    }
    fn one_hot(&mut self, shape: &[usize], ix: &Vec<Expr>, c: SymCt) -> SymCt {
        // scatter(shape, replicate(1, c), j => ix): one write of the slice `c` at `ix`,
        // dropped when out of bounds.
        let (neg, c) = c.split(self.names);
        let j = self.names.fresh("j");
        let part = ScatterPart {
            src: prim(Prim::Replicate(1), vec![c]),
            space: vec![1],
            binders: vec![j],
            ix: ix.clone(),
            neg,
        };
        SymCt::scatter(shape.to_vec(), part)
    }
    fn scatter(&mut self, src_shape: &[usize], map: &Rc<SymMap>, c: SymCt) -> SymCt {
        let (neg, c) = c.split(self.names);
        let (binders, ix) = self.copy_map(map);
        let part = ScatterPart {
            src: c,
            space: map.space.clone(),
            binders,
            ix,
            neg,
        };
        SymCt::scatter(src_shape.to_vec(), part)
    }
    fn gather(
        &mut self,
        _src_shape: &[usize],
        _out_shape: &[usize],
        map: &Rc<SymMap>,
        c: SymCt,
    ) -> SymCt {
        let (binders, ix) = self.copy_map(map);
        c.map(self.names, |c| {
            mk(ExprKind::Gather(
                map.space.clone(),
                Box::new(c),
                binders,
                ix,
            ))
        })
    }
    fn replicate(&mut self, n: usize, c: SymCt) -> SymCt {
        c.map(self.names, |c| prim(Prim::Replicate(n), vec![c]))
    }
    fn replicate_all(&mut self, shape: &[usize], c: SymCt) -> SymCt {
        c.map(self.names, |c| replicate_to(shape, c))
    }
    fn sum_outer(&mut self, c: SymCt, shape: &[usize]) -> SymCt {
        // sum_outer(replicate(n, x)) = n x: |x| multiplications instead of (n - 1) |x|
        // additions (and x itself for n = 1).
        let rest = shape.get(1..).unwrap_or(&[]).to_vec();
        c.map(self.names, |c| {
            if let ExprKind::Prim(Prim::Replicate(n), args) = &c.kind {
                if let [x] = args.as_slice() {
                    return match *n {
                        1 => x.clone(),
                        n => bin(BinOp::Mul, filled(&rest, n as i64), x.clone()),
                    };
                }
            }
            prim(Prim::SumOuter, vec![c])
        })
    }
    fn transpose(&mut self, perm: &[usize], c: SymCt) -> SymCt {
        c.map(self.names, |c| {
            prim(Prim::Transpose(perm.to_vec()), vec![c])
        })
    }
    fn reshape(&mut self, shape: &[usize], c: SymCt) -> SymCt {
        c.map(self.names, |c| prim(Prim::Reshape(shape.to_vec()), vec![c]))
    }
    fn slice(&mut self, c: SymCt, start: usize, len: usize, shape: &[usize]) -> SymCt {
        if start == 0 && shape.first() == Some(&len) {
            return c;
        }
        // gather([len], c, i => [i + start])
        let i = self.names.fresh("i");
        let at = if start == 0 {
            mk(ExprKind::Var(i.clone()))
        } else {
            bin(
                BinOp::Add,
                mk(ExprKind::Var(i.clone())),
                int_lit(start as i64),
            )
        };
        c.map(self.names, |c| {
            mk(ExprKind::Gather(vec![len], Box::new(c), vec![i], vec![at]))
        })
    }
    fn index_outer(&mut self, c: SymCt, k: usize, _shape: &[usize]) -> SymCt {
        c.map(self.names, |c| {
            mk(ExprKind::Index(Box::new(c), vec![int_lit(k as i64)]))
        })
    }
}
