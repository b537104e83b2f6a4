//! Random Tensor-SSA programs for the derivative properties: the G3 shape of
//! docs/engines/tssa-derivatives.md ("Properties") — statements of all six forms with
//! random accesses (repeated index variables, out-of-range reads) and predicates
//! (comparisons, affine equalities, `!=`, relation inputs, data predicates E1), ranges
//! 0–3, pair-typed and boolean inputs — and G4, linear scalar DAGs.

use adora_core::tl::{
    Access, Aff, BlackBox, CmpOp, ConstVal, DataRef, Dims, IVar, Index, PathStep, Pred, Rat, Rhs,
    SsaOut, SsaProgram, Stmt, Ty, Var,
};
use adora_rewrites::tssa::deriv::{shape, tensor_ty};
use adora_semantics::tl::TlValue;
use rand::Rng;
use std::collections::BTreeMap;

/// A program and values for its inputs.
pub struct Case {
    /// The program.
    pub program: SsaProgram,
    /// One value per input.
    pub values: Vec<TlValue<Rat>>,
}

fn rat(n: i64, d: i64) -> Rat {
    Rat::new(n.into(), d.into())
}

/// A small random rational (zeros included).
pub fn small(rng: &mut impl Rng) -> Rat {
    rat(rng.gen_range(-4..=4), rng.gen_range(1..=3))
}

/// A random value of a type.
pub fn value(rng: &mut impl Rng, ty: &Ty) -> TlValue<Rat> {
    match ty {
        Ty::Num => TlValue::Num(small(rng)),
        Ty::Bool => TlValue::Bool(rng.gen_bool(0.6)),
        Ty::Int => TlValue::Int(rng.gen_range(-2..=3)),
        Ty::Pair(a, b) => TlValue::Pair(Box::new(value(rng, a)), Box::new(value(rng, b))),
        Ty::Arr(n, t) => TlValue::Arr((0..*n).map(|_| value(rng, t)).collect()),
    }
}

fn aff(i: &str, c: i64) -> Index {
    let mut terms = BTreeMap::new();
    terms.insert(i.to_string(), 1);
    Index::Aff(Aff { terms, constant: c })
}

fn konst(c: i64) -> Index {
    Index::Aff(Aff {
        terms: BTreeMap::new(),
        constant: c,
    })
}

struct G<'a, R: Rng> {
    rng: &'a mut R,
    /// Statement variables of tensor-of-num type with their shapes.
    vars: Vec<(Var, Vec<u64>)>,
    /// Boolean relation inputs `(name, size)`.
    rels: Vec<(Var, u64)>,
    stmts: Vec<Stmt>,
}

impl<R: Rng> G<'_, R> {
    fn pred(&mut self, binders: &Dims) -> Pred {
        if binders.is_empty() || self.rng.gen_bool(0.35) {
            return Pred::True;
        }
        let pick = |rng: &mut R| binders[rng.gen_range(0..binders.len())].0.clone();
        let i = pick(self.rng);
        let j = pick(self.rng);
        let c = self.rng.gen_range(0..=2);
        let p = match self.rng.gen_range(0..8) {
            0 => Pred::Cmp(CmpOp::Eq, aff(&i, 0), aff(&j, 0)),
            1 => Pred::Cmp(CmpOp::Le, aff(&i, 0), aff(&j, 0)),
            2 => Pred::Cmp(CmpOp::Eq, aff(&i, 1), aff(&j, 0)),
            3 => Pred::Cmp(CmpOp::Ne, aff(&i, 0), konst(c)),
            4 => Pred::Cmp(CmpOp::Lt, aff(&i, 0), konst(c)),
            5 if !self.rels.is_empty() => {
                let (r, _) = self.rels[self.rng.gen_range(0..self.rels.len())].clone();
                Pred::Rel(r, vec![aff(&i, 0)])
            }
            6 => match self.vars.iter().find(|(_, s)| s.len() == 1).cloned() {
                Some((v, _)) => Pred::Data(
                    CmpOp::Lt,
                    DataRef::Const(rat(0, 1)),
                    DataRef::Read(v, vec![PathStep::At(aff(&i, 0))]),
                ),
                None => Pred::True,
            },
            _ => Pred::Cmp(CmpOp::Eq, aff(&i, 0), konst(c)),
        };
        if self.rng.gen_bool(0.15) {
            Pred::Not(Box::new(p))
        } else if self.rng.gen_bool(0.15) {
            Pred::Or(
                Box::new(p),
                Box::new(Pred::Cmp(CmpOp::Eq, aff(&i, 0), konst(0))),
            )
        } else {
            p
        }
    }

    fn dims_of(&mut self, shape: &[u64], prefix: &str) -> Dims {
        shape
            .iter()
            .enumerate()
            .map(|(k, n)| (format!("{prefix}{k}"), *n))
            .collect()
    }

    fn pick_var(&mut self) -> (Var, Vec<u64>) {
        self.vars[self.rng.gen_range(0..self.vars.len())].clone()
    }

    fn push(&mut self, shape: Vec<u64>, rhs: Rhs) {
        let var = format!("v{}", self.stmts.len());
        self.stmts.push(Stmt {
            var: var.clone(),
            ty: tensor_ty(&shape),
            rhs,
        });
        self.vars.push((var, shape));
    }

    /// An access of `y` (of `shape`) by binders: each dimension reuses a binder of the
    /// same range from `pool` or adds a new one (sometimes a binder of another range:
    /// out-of-range reads give 0).
    fn access(&mut self, y: &Var, shape: &[u64], pool: &mut Dims) -> Access {
        let mut idx = Vec::new();
        for &n in shape {
            let same: Vec<IVar> = pool
                .iter()
                .filter(|(_, m)| *m == n || self.rng.gen_bool(0.1))
                .map(|(i, _)| i.clone())
                .collect();
            if !same.is_empty() && self.rng.gen_bool(0.5) {
                idx.push(same[self.rng.gen_range(0..same.len())].clone());
            } else {
                let i = format!("i{}", pool.len());
                pool.push((i.clone(), n));
                idx.push(i);
            }
        }
        Access {
            var: y.clone(),
            idx,
        }
    }

    fn statement(&mut self) {
        match self.rng.gen_range(0..10) {
            0 => {
                let (_, shape) = self.pick_var();
                let dims = self.dims_of(&shape, "i");
                let pred = self.pred(&dims);
                let value = if self.rng.gen_bool(0.2) && !dims.is_empty() {
                    ConstVal::Index(aff(&dims[0].0, 1))
                } else {
                    ConstVal::Num(small(self.rng))
                };
                self.push(shape, Rhs::Const { dims, pred, value });
            }
            1 | 2 => {
                let (y, shape) = self.pick_var();
                let same: Vec<Var> = self
                    .vars
                    .iter()
                    .filter(|(_, s)| *s == shape)
                    .map(|(v, _)| v.clone())
                    .collect();
                let z = same[self.rng.gen_range(0..same.len())].clone();
                let dims = self.dims_of(&shape, "i");
                let p = self.pred(&dims);
                let q = self.pred(&dims);
                self.push(shape, Rhs::Add { dims, p, y, q, z });
            }
            3 => {
                let (y, shape) = self.pick_var();
                let dims = self.dims_of(&shape, "i");
                let pred = self.pred(&dims);
                let f = [
                    BlackBox::Pow(2),
                    BlackBox::Pow(3),
                    BlackBox::Recip,
                    BlackBox::Abs,
                ][self.rng.gen_range(0..4)];
                self.push(shape, Rhs::Map { dims, pred, f, y });
            }
            _ => {
                let (y, ys) = self.pick_var();
                let mut pool = Dims::new();
                let ya = self.access(&y, &ys, &mut pool);
                let za = if self.rng.gen_bool(0.7) {
                    let (z, zs) = self.pick_var();
                    Some(self.access(&z, &zs, &mut pool))
                } else {
                    None
                };
                // Split the binders into I (kept) and J (summed).
                let (mut dims, mut sums) = (Dims::new(), Dims::new());
                for b in pool {
                    if dims.len() < 2 && self.rng.gen_bool(0.5) {
                        dims.push(b);
                    } else {
                        sums.push(b);
                    }
                }
                let all: Dims = dims.iter().chain(&sums).cloned().collect();
                let pred = self.pred(&all);
                let shape = dims.iter().map(|(_, n)| *n).collect();
                self.push(
                    shape,
                    Rhs::Contract {
                        dims,
                        sums,
                        pred,
                        y: ya,
                        z: za,
                    },
                );
            }
        }
    }
}

/// A random Tensor-SSA program (G3) with values for its inputs.
pub fn ssa_case(rng: &mut impl Rng) -> Case {
    let mut inputs: Vec<(Var, Ty)> = Vec::new();
    let mut g = G {
        rng,
        vars: Vec::new(),
        rels: Vec::new(),
        stmts: Vec::new(),
    };
    let n_inputs = g.rng.gen_range(1..=3);
    for k in 0..n_inputs {
        let rank = g.rng.gen_range(0..=2);
        let shape: Vec<u64> = (0..rank).map(|_| g.rng.gen_range(0..=3)).collect();
        let x = format!("x{k}");
        if g.rng.gen_bool(0.2) {
            // A pair-typed input: one statement per component.
            let other = tensor_ty(&[g.rng.gen_range(1..=3)]);
            inputs.push((
                x.clone(),
                Ty::Pair(Box::new(tensor_ty(&shape)), Box::new(other.clone())),
            ));
            for (path, ty) in [(0u8, tensor_ty(&shape)), (1u8, other)] {
                let var = format!("v{}", g.stmts.len());
                g.stmts.push(Stmt {
                    var: var.clone(),
                    ty: ty.clone(),
                    rhs: Rhs::Input {
                        input: x.clone(),
                        path: vec![path],
                    },
                });
                g.vars.push((var, shape_of(&ty)));
            }
        } else {
            inputs.push((x.clone(), tensor_ty(&shape)));
            let var = format!("v{}", g.stmts.len());
            g.stmts.push(Stmt {
                var: var.clone(),
                ty: tensor_ty(&shape),
                rhs: Rhs::Input {
                    input: x,
                    path: vec![],
                },
            });
            g.vars.push((var, shape));
        }
    }
    if g.rng.gen_bool(0.3) {
        let n = g.rng.gen_range(1..=3);
        inputs.push(("rel".into(), Ty::Arr(n, Box::new(Ty::Bool))));
        g.rels.push(("rel".into(), n));
    }
    // `adora check --size K` scales the statement count (docs/check.md).
    // (An `i32` range, as before the option: the draw and so every seed stay the same.)
    let n_stmts: i32 = g
        .rng
        .gen_range(1..=6 * crate::gen::scale::factor().min(1 << 20) as i32);
    for _ in 0..n_stmts {
        g.statement();
    }
    let last = g.stmts.last().map(|s| s.var.clone()).unwrap_or_default();
    let output = if g.rng.gen_bool(0.2) {
        let (other, _) = g.pick_var();
        SsaOut::Pair(Box::new(SsaOut::Var(other)), Box::new(SsaOut::Var(last)))
    } else {
        SsaOut::Var(last)
    };
    let program = SsaProgram {
        inputs: inputs.clone(),
        stmts: g.stmts,
        output,
    };
    let values = inputs.iter().map(|(_, t)| value(&mut *g.rng, t)).collect();
    Case { program, values }
}

fn shape_of(ty: &Ty) -> Vec<u64> {
    shape(ty).unwrap_or_default()
}
