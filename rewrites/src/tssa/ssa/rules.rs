//! The judgement `T⟦I; p; s⟧ ⇒ (stmts, x)` of the Tensor-SSA conversion (Bernstein et al.
//! 2020, §5.4, Fig. 12; rules 5.27–5.34 reconstructed, docs/engines/tssa-lowering.md): it
//! converts a scalar GP-NF expression `s` under the generated dimensions `I` and the
//! mask `p`, appending statements that end by binding `x : [|I|]num`.

use super::canon::canonical;
use super::rename::Renaming;
use super::{not_gpnf, Conv};
use crate::tssa::lower::mk;
use adora_core::diag::Result;
use adora_core::tl::{Access, CmpOp, ConstVal, Dims, Index, Pred, Rhs, Term, Ty, Var};

/// Rule 5.32: the `gen`s nested at the top of a right-hand side extend `I`.
pub fn rule_5_32_gen(t: &Term) -> (Dims, &Term) {
    let mut dims = Vec::new();
    let mut cur = t;
    while let Term::Gen(i, n, b) = cur {
        dims.push((i.clone(), *n));
        cur = b;
    }
    (dims, cur)
}

fn tensor_ty(dims: &Dims) -> Ty {
    dims.iter()
        .rev()
        .fold(Ty::Num, |t, (_, n)| Ty::Arr(*n, Box::new(t)))
}

fn names(dims: &Dims) -> Vec<String> {
    dims.iter().map(|(v, _)| v.clone()).collect()
}

/// The immediate bracket of an addition's operand (rule 4.24 ⋆ looks at it only): `[q] s`
/// as `(q, s)`, anything else as `(true, s)`.
fn immediate_bracket(s: &Term) -> (Pred, &Term) {
    match s {
        Term::Bracket(q, b) => (q.clone(), b),
        _ => (Pred::True, s),
    }
}

impl Conv {
    /// `T⟦I; p; s⟧`: the statement variable holding `gen I. [p] s`.
    pub fn t(&mut self, dims: &Dims, p: &Pred, s: &Term, want: Option<&str>) -> Result<Var> {
        match s {
            Term::Bracket(q, b) => self.rule_5_31_bracket(dims, p, q, b, want),
            Term::Const(_) | Term::IndexConst(_) => self.rule_5_27_const(dims, p, s, want),
            Term::Add(a, b) => self.rule_5_28_add(dims, p, a, b, want),
            Term::Call(f, a) => self.rule_5_29_map(dims, p, *f, a, want),
            Term::Var(_) | Term::Access(..) | Term::Proj(..) => {
                self.rule_5_30_index_arithmetic(dims, p, s, want)
            }
            Term::Mul(a, b) => self.rule_5_33_product(dims, p, a, b, want),
            Term::Sum(..) => self.rule_5_34_sum(dims, p, s, want),
            Term::Gen(..) => Err(not_gpnf("a `gen` below the top of a right-hand side")),
            Term::Let(..) => Err(not_gpnf("a `let` inside a right-hand side")),
            Term::Pair(..) => Err(not_gpnf("a pair inside a right-hand side")),
        }
    }

    /// Fix-ups F2 and F4: the statement `rhs` is put in canonical order with canonical
    /// index names (F4), its value variables renamed through the aliases (F1), and either
    /// found among the earlier statements (F4's CSE) or appended to the one flat block of
    /// statements (F2: the nested `let`s of the rules, right-associated).
    pub fn fixup_f2_flatten(&mut self, rhs: Rhs, dims: &Dims, want: Option<&str>) -> Var {
        let rhs = self.fixup_f4_cse_order(rhs);
        if let Some(v) = self.memo(&rhs) {
            return v;
        }
        let v = self.name(want);
        self.push(v.clone(), tensor_ty(dims), rhs);
        v
    }

    /// Fix-up F4's order normalisation and the aliases of F1 inside predicates and index
    /// constants (an opaque index may read a value variable).
    pub fn fixup_f4_cse_order(&self, rhs: Rhs) -> Rhs {
        let r = Renaming {
            ivars: Default::default(),
            vars: self.aliases().clone(),
        };
        let rhs = match rhs {
            Rhs::Const { dims, pred, value } => Rhs::Const {
                dims,
                pred: r.pred(&pred),
                value: match value {
                    ConstVal::Index(a) => ConstVal::Index(r.index(&a)),
                    v @ ConstVal::Num(_) => v,
                },
            },
            Rhs::Add { dims, p, y, q, z } => Rhs::Add {
                dims,
                p: r.pred(&p),
                y,
                q: r.pred(&q),
                z,
            },
            Rhs::Map { dims, pred, f, y } => Rhs::Map {
                dims,
                pred: r.pred(&pred),
                f,
                y,
            },
            Rhs::Contract {
                dims,
                sums,
                pred,
                y,
                z,
            } => Rhs::Contract {
                dims,
                sums,
                pred: r.pred(&pred),
                y,
                z,
            },
            rhs @ Rhs::Input { .. } => rhs,
        };
        canonical(&rhs)
    }

    /// Rule 5.27: `T⟦I; p; c⟧ = gen I. [p] c` (also index constants, E2).
    pub fn rule_5_27_const(
        &mut self,
        dims: &Dims,
        p: &Pred,
        c: &Term,
        want: Option<&str>,
    ) -> Result<Var> {
        let value = match c {
            Term::Const(r) => ConstVal::Num(r.clone()),
            Term::IndexConst(a) => ConstVal::Index(a.clone()),
            _ => return Err(not_gpnf("a constant was expected")),
        };
        let rhs = Rhs::Const {
            dims: dims.clone(),
            pred: p.clone(),
            value,
        };
        Ok(self.fixup_f2_flatten(rhs, dims, want))
    }

    /// Rule 5.28: `T⟦I; p; [q1] s1 + [q2] s2⟧`: both terms under `p && qk`, then
    /// `gen I. [p&&q1] x1[I] + [p&&q2] x2[I]`.
    pub fn rule_5_28_add(
        &mut self,
        dims: &Dims,
        p: &Pred,
        a: &Term,
        b: &Term,
        want: Option<&str>,
    ) -> Result<Var> {
        let (q1, s1) = immediate_bracket(a);
        let (q2, s2) = immediate_bracket(b);
        let (p1, p2) = (mk::and(p.clone(), q1), mk::and(p.clone(), q2));
        let y = self.t(dims, &p1, s1, None)?;
        let z = self.t(dims, &p2, s2, None)?;
        let rhs = Rhs::Add {
            dims: dims.clone(),
            p: p1,
            y,
            q: p2,
            z,
        };
        Ok(self.fixup_f2_flatten(rhs, dims, want))
    }

    /// Rule 5.29: `T⟦I; p; f(s)⟧`: the argument under `p` too, then `gen I. [p] f(x1[I])`.
    pub fn rule_5_29_map(
        &mut self,
        dims: &Dims,
        p: &Pred,
        f: adora_core::tl::BlackBox,
        a: &Term,
        want: Option<&str>,
    ) -> Result<Var> {
        let y = self.t(dims, p, a, None)?;
        let rhs = Rhs::Map {
            dims: dims.clone(),
            pred: p.clone(),
            f,
            y,
        };
        Ok(self.fixup_f2_flatten(rhs, dims, want))
    }

    /// Rule 5.30 (indexing arithmetic): `T⟦I; p; X[a1]…[ak]⟧ = gen I. sum K. [p && K == a]
    /// X[K]`, `K` fresh over `X`'s dimensions (at most one `K` per `I`: no addition).
    pub fn rule_5_30_index_arithmetic(
        &mut self,
        dims: &Dims,
        p: &Pred,
        s: &Term,
        want: Option<&str>,
    ) -> Result<Var> {
        let mut idx: Vec<Index> = Vec::new();
        let mut cur = s;
        while let Term::Access(e, a) = cur {
            idx.push(a.clone());
            cur = e;
        }
        idx.reverse();
        let (x, path) =
            super::input_path(cur).ok_or_else(|| not_gpnf("an access of a non-variable"))?;
        let v = if self.is_input(&x) {
            self.input_stmt(&x, &path, None)?
        } else if path.is_empty() {
            self.resolve(&x)
        } else {
            return Err(not_gpnf("a projection of a non-input"));
        };
        let mut ty = self
            .type_of(&v)
            .cloned()
            .ok_or_else(|| not_gpnf(&format!("`{v}` is unbound")))?;
        let mut taken: Vec<String> = names(dims);
        super::rename::exists_binders(p, &mut taken);
        for a in &idx {
            super::rename::exists_binders(&mk::cmp(CmpOp::Eq, a.clone(), a.clone()), &mut taken);
        }
        let mut sums: Dims = Vec::new();
        let mut pred = p.clone();
        for (k, a) in idx.iter().enumerate() {
            let Ty::Arr(n, el) = ty else {
                return Err(not_gpnf(&format!("`{v}` accessed beyond its rank")));
            };
            let mut kv = format!("k{k}");
            let mut m = 0;
            while taken.contains(&kv) {
                m += 1;
                kv = format!("k{k}_{m}");
            }
            pred = mk::and(pred, mk::cmp(CmpOp::Eq, mk::ivar(&kv), a.clone()));
            sums.push((kv, n));
            ty = *el;
        }
        if ty != Ty::Num {
            return Err(not_gpnf(&format!("`{v}` accessed to a non-scalar")));
        }
        let rhs = Rhs::Contract {
            dims: dims.clone(),
            sums: sums.clone(),
            pred,
            y: Access {
                var: v,
                idx: names(&sums),
            },
            z: None,
        };
        Ok(self.fixup_f2_flatten(rhs, dims, want))
    }

    /// Rule 5.33 (products): `x_k = T⟦I; p; s_k⟧`, then `gen I. sum (). [p] x1[I] * x2[I]`.
    pub fn rule_5_33_product(
        &mut self,
        dims: &Dims,
        p: &Pred,
        a: &Term,
        b: &Term,
        want: Option<&str>,
    ) -> Result<Var> {
        let y = self.t(dims, p, a, None)?;
        let z = self.t(dims, p, b, None)?;
        let idx = names(dims);
        let rhs = Rhs::Contract {
            dims: dims.clone(),
            sums: Vec::new(),
            pred: p.clone(),
            y: Access {
                var: y,
                idx: idx.clone(),
            },
            z: Some(Access { var: z, idx }),
        };
        Ok(self.fixup_f2_flatten(rhs, dims, want))
    }

    /// Rule 5.34 (big summations): `T⟦I; p; sum J. [q] s⟧` with the maximal run of nested
    /// sums and brackets `J`, `q` (joint costing, rule 4.30): a product `s1 * s2` becomes
    /// a binary contraction of `T⟦I++J; p&&q; s_k⟧`, anything else a unary one.
    pub fn rule_5_34_sum(
        &mut self,
        dims: &Dims,
        p: &Pred,
        s: &Term,
        want: Option<&str>,
    ) -> Result<Var> {
        let mut sums: Dims = Vec::new();
        let mut q = Pred::True;
        let mut cur = s;
        loop {
            match cur {
                Term::Sum(j, n, b) => {
                    if dims.iter().chain(&sums).any(|(v, _)| v == j) {
                        return Err(not_gpnf(&format!("the index binder `{j}` is reused")));
                    }
                    sums.push((j.clone(), *n));
                    cur = b;
                }
                Term::Bracket(r, b) => {
                    q = mk::and(q, r.clone());
                    cur = b;
                }
                _ => break,
            }
        }
        let mut all = dims.clone();
        all.extend(sums.iter().cloned());
        let pq = mk::and(p.clone(), q);
        let idx = names(&all);
        let (y, z) = match cur {
            Term::Mul(a, b) => {
                let y = self.t(&all, &pq, a, None)?;
                let z = self.t(&all, &pq, b, None)?;
                (y, Some(z))
            }
            _ => (self.t(&all, &pq, cur, None)?, None),
        };
        let rhs = Rhs::Contract {
            dims: dims.clone(),
            sums,
            pred: pq,
            y: Access {
                var: y,
                idx: idx.clone(),
            },
            z: z.map(|var| Access { var, idx }),
        };
        Ok(self.fixup_f2_flatten(rhs, dims, want))
    }

    /// Rule 5.31: `T⟦I; p; [q] s⟧ = T⟦I; p && q; s⟧`.
    pub fn rule_5_31_bracket(
        &mut self,
        dims: &Dims,
        p: &Pred,
        q: &Pred,
        s: &Term,
        want: Option<&str>,
    ) -> Result<Var> {
        self.t(dims, &mk::and(p.clone(), q.clone()), s, want)
    }
}
