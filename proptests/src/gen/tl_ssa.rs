//! Generator G3: random Tensor-SSA programs (paper §5.4, Fig. 10) with exact inputs
//! (docs/engines/tssa-language.md, "Generators"). Deterministic in the random source.
//!
//! Programs use all six right-hand-side forms: input projections of a pair input,
//! constants (also index constants `#a`), additions with two predicates, maps of the
//! rational black boxes, and unary and binary contractions whose accesses draw index
//! variables from `I ++ J` with repeats (`y[i, i]`), under predicates that are affine
//! comparisons (`i + j == k` included), `exists`, negations, relation reads and, when
//! enabled, data predicates on earlier statements (E1). Ranges are 0–3, including 0.
//! Index variables are named canonically (`i0, i1, …` in order of `I ++ J`).

use super::tl::{random_value, small_rat};
use adora_core::tl::{
    Access, Aff, BlackBox, CmpOp, ConstVal, DataRef, Index, PathStep, Pred, Rat, Rhs, SsaOut,
    SsaProgram, Stmt, Ty,
};
use adora_semantics::tl::TlValue;
use rand::Rng;

/// A generated Tensor-SSA program with exact input values (in input order).
#[derive(Clone, Debug)]
pub struct SsaCase {
    /// The program.
    pub program: SsaProgram,
    /// One value per input.
    pub values: Vec<TlValue<Rat>>,
}

impl std::fmt::Display for SsaCase {
    /// The input values, then the program.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for ((x, _), v) in self.program.inputs.iter().zip(&self.values) {
            writeln!(f, "-- {x} = {v}")?;
        }
        write!(f, "{}", self.program)
    }
}

/// What G3 may generate.
#[derive(Clone, Debug)]
pub struct SsaGenOptions {
    /// The number of statements (besides input projections): drawn from `1..=stmts`,
    /// `stmts` multiplied by the factor of `adora check --size` ([`super::scale`]).
    pub stmts: usize,
    /// Rational black boxes in maps.
    pub black_boxes: bool,
    /// Data predicates (E1) on earlier statements.
    pub data: bool,
    /// A relation input (a boolean tensor) read by predicates.
    pub relations: bool,
    /// A pair-typed input read through projections (`x = X.0`).
    pub pair_input: bool,
}

impl Default for SsaGenOptions {
    fn default() -> SsaGenOptions {
        SsaGenOptions {
            stmts: 8,
            black_boxes: true,
            data: true,
            relations: true,
            pair_input: true,
        }
    }
}

/// A random G3 case.
pub fn ssa_case(rng: &mut impl Rng, opts: &SsaGenOptions) -> SsaCase {
    let mut g = G3 {
        rng,
        opts: opts.clone(),
        tensors: Vec::new(),
        relation: None,
    };
    let mut inputs = Vec::new();
    let mut stmts = Vec::new();
    let k = g.rng.gen_range(1..=3);
    for n in 0..k {
        let t = g.tensor_type();
        inputs.push((format!("X{n}"), t.clone()));
        g.tensors.push((format!("X{n}"), dims_of(&t)));
    }
    if opts.pair_input && g.rng.gen_bool(0.4) {
        let (a, b) = (g.tensor_type(), g.tensor_type());
        inputs.push(("P".to_string(), Ty::pair(a.clone(), b.clone())));
        for (k, t) in [(0u8, a), (1, b)] {
            let var = format!("p{k}");
            stmts.push(Stmt {
                var: var.clone(),
                ty: t.clone(),
                rhs: Rhs::Input {
                    input: "P".into(),
                    path: vec![k],
                },
            });
            g.tensors.push((var, dims_of(&t)));
        }
    }
    if opts.relations && g.rng.gen_bool(0.4) {
        let d = g.dims(2);
        let t = d.iter().rev().fold(Ty::Bool, |t, &n| Ty::arr(n, t));
        inputs.push(("R".to_string(), t));
        g.relation = Some(d);
    }
    let count = g.rng.gen_range(1..=super::scale::scaled(opts.stmts.max(1)));
    for s in 0..count {
        let var = format!("v{s}");
        let rhs = g.rhs();
        let dims = rhs_dims(&rhs);
        stmts.push(Stmt {
            var: var.clone(),
            ty: Ty::tensor(&dims),
            rhs,
        });
        g.tensors.push((var, dims));
    }
    let last = stmts
        .last()
        .map(|s| s.var.clone())
        .unwrap_or_else(|| "X0".into());
    let output = if stmts.len() >= 2 && g.rng.gen_bool(0.25) {
        let other = stmts[g.rng.gen_range(0..stmts.len() - 1)].var.clone();
        SsaOut::Pair(Box::new(SsaOut::Var(other)), Box::new(SsaOut::Var(last)))
    } else {
        SsaOut::Var(last)
    };
    let values = inputs.iter().map(|(_, t)| random_value(g.rng, t)).collect();
    SsaCase {
        program: SsaProgram {
            inputs,
            stmts,
            output,
        },
        values,
    }
}

fn dims_of(t: &Ty) -> Vec<u64> {
    match t {
        Ty::Arr(n, e) => {
            let mut d = vec![*n];
            d.extend(dims_of(e));
            d
        }
        _ => Vec::new(),
    }
}

fn rhs_dims(r: &Rhs) -> Vec<u64> {
    match r {
        Rhs::Const { dims, .. }
        | Rhs::Add { dims, .. }
        | Rhs::Map { dims, .. }
        | Rhs::Contract { dims, .. } => dims.iter().map(|(_, n)| *n).collect(),
        Rhs::Input { .. } => Vec::new(),
    }
}

struct G3<'r, R> {
    rng: &'r mut R,
    opts: SsaGenOptions,
    /// The tensors usable as operands (inputs and statements) with their dimensions.
    tensors: Vec<(String, Vec<u64>)>,
    relation: Option<Vec<u64>>,
}

impl<R: Rng> G3<'_, R> {
    fn range(&mut self) -> u64 {
        if self.rng.gen_bool(0.1) {
            0
        } else {
            self.rng.gen_range(1..=3)
        }
    }

    fn dims(&mut self, max_rank: usize) -> Vec<u64> {
        let r = self.rng.gen_range(0..=max_rank);
        (0..r).map(|_| self.range()).collect()
    }

    fn tensor_type(&mut self) -> Ty {
        let d = self.dims(2);
        Ty::tensor(&d)
    }

    fn pick(&mut self) -> (String, Vec<u64>) {
        self.tensors[self.rng.gen_range(0..self.tensors.len())].clone()
    }

    /// Operands of the same shape as `dims`, if any.
    fn pick_shape(&mut self, dims: &[u64]) -> Option<String> {
        let same: Vec<String> = self
            .tensors
            .iter()
            .filter(|(_, d)| d == dims)
            .map(|(x, _)| x.clone())
            .collect();
        (!same.is_empty()).then(|| same[self.rng.gen_range(0..same.len())].clone())
    }

    fn rhs(&mut self) -> Rhs {
        match self.rng.gen_range(0..10) {
            0 => {
                let d = self.dims(2);
                let dims = canon(&d, 0);
                let pred = self.pred(&dims, 1);
                let value = if !dims.is_empty() && self.rng.gen_bool(0.3) {
                    ConstVal::Index(Index::var(dims[0].0.as_str()))
                } else {
                    ConstVal::Num(small_rat(self.rng))
                };
                Rhs::Const { dims, pred, value }
            }
            1 | 2 => {
                let (y, d) = self.pick();
                let z = self.pick_shape(&d).unwrap_or_else(|| y.clone());
                let dims = canon(&d, 0);
                let p = self.pred(&dims, 1);
                let q = self.pred(&dims, 1);
                Rhs::Add { dims, p, y, q, z }
            }
            3 if self.opts.black_boxes => {
                let (y, d) = self.pick();
                let dims = canon(&d, 0);
                let pred = self.pred(&dims, 1);
                let f = [
                    BlackBox::Pow(2),
                    BlackBox::Recip,
                    BlackBox::Abs,
                    BlackBox::Pow(3),
                ][self.rng.gen_range(0..4)];
                Rhs::Map { dims, pred, f, y }
            }
            _ => self.contract(),
        }
    }

    /// `gen I. sum J. [p] y[U] (* z[V])`: index variables shared between the accesses
    /// where the ranges agree, each either kept (`I`) or summed (`J`).
    fn contract(&mut self) -> Rhs {
        let (y, dy) = self.pick();
        let z = if self.rng.gen_bool(0.6) {
            Some(self.pick())
        } else {
            None
        };
        // Pool of index variables (range per slot); an access picks a slot per dim.
        let mut pool: Vec<u64> = Vec::new();
        let slot = |rng: &mut R, n: u64, pool: &mut Vec<u64>| -> usize {
            let same: Vec<usize> = (0..pool.len()).filter(|&s| pool[s] == n).collect();
            if !same.is_empty() && rng.gen_bool(0.6) {
                same[rng.gen_range(0..same.len())]
            } else {
                pool.push(n);
                pool.len() - 1
            }
        };
        let uy: Vec<usize> = dy.iter().map(|&n| slot(self.rng, n, &mut pool)).collect();
        let uz: Option<(String, Vec<usize>)> = z.map(|(z, dz)| {
            let u = dz.iter().map(|&n| slot(self.rng, n, &mut pool)).collect();
            (z, u)
        });
        if self.rng.gen_bool(0.15) {
            let n = self.range();
            pool.push(n);
        }
        // Kept slots first (I), then summed ones (J); I has at most 3 variables.
        let keep: Vec<bool> = pool.iter().map(|_| self.rng.gen_bool(0.5)).collect();
        let mut order: Vec<usize> = (0..pool.len()).filter(|&s| keep[s]).take(3).collect();
        let n_i = order.len();
        let summed: Vec<usize> = (0..pool.len()).filter(|s| !order.contains(s)).collect();
        order.extend(summed);
        let names: Vec<(usize, String)> = order
            .iter()
            .enumerate()
            .map(|(k, &s)| (s, format!("i{k}")))
            .collect();
        let name = |s: usize| {
            names
                .iter()
                .find(|(t, _)| *t == s)
                .map(|(_, n)| n.clone())
                .unwrap_or_default()
        };
        let all: Vec<(String, u64)> = order.iter().map(|&s| (name(s), pool[s])).collect();
        let (dims, sums) = (all[..n_i].to_vec(), all[n_i..].to_vec());
        let pred = self.pred(&all, 2);
        let ya = Access {
            var: y,
            idx: uy.iter().map(|&s| name(s)).collect(),
        };
        let za = uz.map(|(z, u)| Access {
            var: z,
            idx: u.iter().map(|&s| name(s)).collect(),
        });
        Rhs::Contract {
            dims,
            sums,
            pred,
            y: ya,
            z: za,
        }
    }

    /// A predicate over the index variables `vars`.
    fn pred(&mut self, vars: &[(String, u64)], depth: u32) -> Pred {
        let var = |g: &mut Self| -> Aff {
            if vars.is_empty() {
                Aff::constant(g.rng.gen_range(0..3))
            } else {
                Aff::var(vars[g.rng.gen_range(0..vars.len())].0.as_str())
            }
        };
        let op = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le][self.rng.gen_range(0..4)];
        match self.rng.gen_range(0..12) {
            0..=3 => Pred::True,
            4 => Pred::Cmp(
                op,
                Index::Aff(var(self)),
                Index::constant(self.rng.gen_range(0..3)),
            ),
            5 => {
                // i + j == k
                let s = var(self).add(&var(self));
                Pred::Cmp(CmpOp::Eq, Index::Aff(s), Index::Aff(var(self)))
            }
            6 if depth > 0 => Pred::and(self.pred(vars, depth - 1), self.pred(vars, depth - 1)),
            7 if depth > 0 => Pred::Not(Box::new(self.pred(vars, depth - 1))),
            8 if depth > 0 => {
                // exists e:n. a + e == b
                let n = self.range();
                let (a, b) = (var(self).add(&Aff::var("e")), var(self));
                let q = Pred::Cmp(CmpOp::Eq, Index::Aff(a), Index::Aff(b));
                Pred::Exists("e".into(), n, Box::new(q))
            }
            9 if self.relation.is_some() => {
                let d = self.relation.clone().unwrap_or_default();
                let idx = d.iter().map(|_| Index::Aff(var(self))).collect();
                Pred::Rel("R".into(), idx)
            }
            10 if self.opts.data => {
                let (x, d) = self.pick();
                let path = d
                    .iter()
                    .map(|_| PathStep::At(Index::Aff(var(self))))
                    .collect();
                Pred::Data(
                    op,
                    DataRef::Read(x, path),
                    DataRef::Const(small_rat(self.rng)),
                )
            }
            _ => Pred::Cmp(op, Index::Aff(var(self)), Index::Aff(var(self))),
        }
    }
}

/// Canonical binders `i{start}, i{start+1}, …` over the given ranges.
fn canon(d: &[u64], start: usize) -> Vec<(String, u64)> {
    d.iter()
        .enumerate()
        .map(|(k, &n)| (format!("i{}", start + k), n))
        .collect()
}
