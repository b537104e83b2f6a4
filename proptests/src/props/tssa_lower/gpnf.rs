//! Random terms in gen-push-out normal form (GP-NF; docs/engines/tssa-lowering.md,
//! "Checking"), generated directly for the Tensor-SSA properties: a chain of `let`s whose
//! right-hand sides are `gen I. s` or input projections, `s` built from constants, index
//! constants, additions with bracketed operands, products, rational black boxes, nested
//! sums with predicates, brackets and accesses of variables to scalars (affine,
//! out-of-bounds and opaque indices); predicates with comparisons, relation inputs, data
//! predicates on earlier values, `exists`, connectives; ranges 0–3; outputs a variable,
//! a pair, an input or a primitive expression (fix-up F3).

use adora_core::tl::{BlackBox, CmpOp, DataRef, IExpr, Index, PathStep, Pred, Rat, Term, Ty, Var};
use adora_rewrites::tssa::lower::mk;
use adora_semantics::tl::TlValue;
use num_bigint::BigInt;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A generated GP-NF term with its inputs and their values.
pub struct GpnfCase {
    /// The free variables and their types.
    pub inputs: Vec<(Var, Ty)>,
    /// The term.
    pub term: Term,
    /// One value per input.
    pub values: Vec<TlValue<Rat>>,
}

struct G {
    rng: ChaCha8Rng,
    next: usize,
    /// Variables of number or number-tensor type that may be accessed.
    vars: Vec<(Var, Vec<u64>)>,
    rels: Vec<(Var, u64)>,
    ints: Vec<(Var, u64)>,
}

fn rat(n: i64, d: i64) -> Rat {
    Rat::new(BigInt::from(n), BigInt::from(d))
}

fn tensor(dims: &[u64], el: Ty) -> Ty {
    dims.iter().rev().fold(el, |t, &n| Ty::Arr(n, Box::new(t)))
}

impl G {
    fn chance(&mut self, p: f64) -> bool {
        self.rng.gen_bool(p)
    }

    fn fresh(&mut self, base: &str) -> String {
        self.next += 1;
        format!("{base}{}", self.next)
    }

    fn dims(&mut self, max_rank: usize) -> Vec<u64> {
        let r = self.rng.gen_range(0..=max_rank);
        (0..r).map(|_| self.rng.gen_range(0..=3)).collect()
    }

    fn value(&mut self, t: &Ty) -> TlValue<Rat> {
        match t {
            Ty::Num => TlValue::Num(rat(self.rng.gen_range(-4..=4), self.rng.gen_range(1..=3))),
            Ty::Bool => TlValue::Bool(self.chance(0.5)),
            Ty::Int => TlValue::Int(self.rng.gen_range(-1..=4)),
            Ty::Pair(a, b) => TlValue::Pair(Box::new(self.value(a)), Box::new(self.value(b))),
            Ty::Arr(n, el) => TlValue::Arr((0..*n).map(|_| self.value(el)).collect()),
        }
    }

    fn aff(&mut self, scope: &[(String, u64)]) -> Index {
        let mut a = mk::aff_const(self.rng.gen_range(-1..=3));
        if !scope.is_empty() && self.chance(0.8) {
            let (v, _) = scope[self.rng.gen_range(0..scope.len())].clone();
            a = mk::aff_add_scaled(&a, 1, &mk::aff_var(&v)).expect("small");
            if self.chance(0.25) {
                a.constant = 0;
            }
        }
        if scope.len() >= 2 && self.chance(0.2) {
            let (v, _) = scope[self.rng.gen_range(0..scope.len())].clone();
            let k = if self.chance(0.5) { 1 } else { -1 };
            a = mk::aff_add_scaled(&a, k, &mk::aff_var(&v)).expect("small");
        }
        Index::Aff(a)
    }

    /// An index into a dimension of size `n`: mostly a scope variable or in range, at
    /// times out of bounds, at times opaque.
    fn index(&mut self, scope: &[(String, u64)], n: u64) -> Index {
        if !scope.is_empty() && self.chance(0.15) {
            let (v, _) = scope[self.rng.gen_range(0..scope.len())].clone();
            let e = if self.chance(0.5) {
                IExpr::Mod(Box::new(IExpr::Var(v)), Box::new(IExpr::Const(2)))
            } else {
                IExpr::Mul(Box::new(IExpr::Var(v.clone())), Box::new(IExpr::Var(v)))
            };
            return Index::Opaque(e);
        }
        if !self.ints.is_empty() && self.chance(0.1) {
            let (d, m) = self.ints[self.rng.gen_range(0..self.ints.len())].clone();
            let at = self.index(scope, m);
            return Index::Opaque(IExpr::Read(d, vec![at]));
        }
        let fitting: Vec<String> = scope
            .iter()
            .filter(|(_, m)| *m == n)
            .map(|(v, _)| v.clone())
            .collect();
        if !fitting.is_empty() && self.chance(0.6) {
            return mk::ivar(&fitting[self.rng.gen_range(0..fitting.len())]);
        }
        if self.chance(0.5) {
            return self.aff(scope);
        }
        mk::iconst(self.rng.gen_range(0..=n as i64))
    }

    fn read(&mut self, scope: &[(String, u64)]) -> Option<(Var, Vec<Index>)> {
        if self.vars.is_empty() {
            return None;
        }
        let (v, dims) = self.vars[self.rng.gen_range(0..self.vars.len())].clone();
        let idx = dims.iter().map(|&n| self.index(scope, n)).collect();
        Some((v, idx))
    }

    fn pred(&mut self, scope: &[(String, u64)], depth: usize) -> Pred {
        let ops = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le];
        let op = ops[self.rng.gen_range(0..4)];
        match self.rng.gen_range(0..10) {
            0 | 1 if depth > 0 => {
                let a = self.pred(scope, depth - 1);
                let b = self.pred(scope, depth - 1);
                match self.rng.gen_range(0..3) {
                    0 => Pred::And(Box::new(a), Box::new(b)),
                    1 => Pred::Or(Box::new(a), Box::new(b)),
                    _ => Pred::Not(Box::new(a)),
                }
            }
            2 if !self.rels.is_empty() => {
                let (r, n) = self.rels[self.rng.gen_range(0..self.rels.len())].clone();
                let at = self.index(scope, n);
                Pred::Rel(r, vec![at])
            }
            3 => match self.read(scope) {
                Some((v, idx)) => {
                    let path = idx.into_iter().map(PathStep::At).collect();
                    let c = DataRef::Const(rat(self.rng.gen_range(-2..=2), 1));
                    Pred::Data(op, DataRef::Read(v, path), c)
                }
                None => Pred::True,
            },
            4 => {
                let k = self.fresh("e");
                let n = self.rng.gen_range(0..=3);
                let mut inner = scope.to_vec();
                inner.push((k.clone(), n));
                let a = self.aff(&inner);
                let body = mk::cmp(op, mk::ivar(&k), a);
                Pred::Exists(k, n, Box::new(body))
            }
            _ => {
                let (a, b) = (self.aff(scope), self.aff(scope));
                mk::cmp(op, a, b)
            }
        }
    }

    fn maybe_bracket(&mut self, scope: &[(String, u64)], s: Term) -> Term {
        if self.chance(0.4) {
            let p = self.pred(scope, 1);
            Term::Bracket(p, Box::new(s))
        } else {
            s
        }
    }

    fn leaf(&mut self, scope: &[(String, u64)]) -> Term {
        match self.rng.gen_range(0..6) {
            0 => Term::Const(rat(self.rng.gen_range(-3..=3), self.rng.gen_range(1..=2))),
            1 if !scope.is_empty() => Term::IndexConst(self.aff(scope)),
            _ => match self.read(scope) {
                Some((v, idx)) => mk::access(Term::Var(v), &idx),
                None => mk::num(self.rng.gen_range(-2..=2)),
            },
        }
    }

    fn expr(&mut self, scope: &[(String, u64)], depth: usize) -> Term {
        if depth == 0 || self.chance(0.25) {
            return self.leaf(scope);
        }
        match self.rng.gen_range(0..8) {
            0 | 1 => {
                let a = self.expr(scope, depth - 1);
                let a = self.maybe_bracket(scope, a);
                let b = self.expr(scope, depth - 1);
                let b = self.maybe_bracket(scope, b);
                mk::add(a, b)
            }
            2 | 3 => mk::mul(self.expr(scope, depth - 1), self.expr(scope, depth - 1)),
            4 => {
                let fs = [
                    BlackBox::Abs,
                    BlackBox::Recip,
                    BlackBox::Pow(2),
                    BlackBox::Pow(-1),
                    BlackBox::Sign,
                    BlackBox::DPow(3),
                ];
                let f = fs[self.rng.gen_range(0..fs.len())];
                mk::call(f, self.expr(scope, depth - 1))
            }
            5 | 6 => {
                let mut inner = scope.to_vec();
                let mut binders = Vec::new();
                for _ in 0..self.rng.gen_range(1..=2) {
                    let j = self.fresh("j");
                    let n = self.rng.gen_range(0..=3);
                    inner.push((j.clone(), n));
                    binders.push((j, n));
                }
                let body = self.expr(&inner, depth - 1);
                let body = self.maybe_bracket(&inner, body);
                binders
                    .into_iter()
                    .rev()
                    .fold(body, |b, (j, n)| Term::Sum(j, n, Box::new(b)))
            }
            _ => {
                let p = self.pred(scope, 1);
                Term::Bracket(p, Box::new(self.expr(scope, depth - 1)))
            }
        }
    }

    fn gen_rhs(&mut self) -> (Term, Vec<u64>) {
        let dims = self.dims(2);
        let scope: Vec<(String, u64)> = dims.iter().map(|&n| (self.fresh("i"), n)).collect();
        let s = self.expr(&scope, 3);
        let t = scope
            .iter()
            .rev()
            .fold(s, |b, (i, n)| Term::Gen(i.clone(), *n, Box::new(b)));
        (t, dims)
    }
}

/// The GP-NF case of `seed`.
pub fn gpnf_case(seed: u64) -> GpnfCase {
    let mut g = G {
        rng: ChaCha8Rng::seed_from_u64(seed),
        next: 0,
        vars: Vec::new(),
        rels: Vec::new(),
        ints: Vec::new(),
    };
    let mut inputs: Vec<(Var, Ty)> = Vec::new();
    let x_dims = g.dims(2);
    inputs.push(("x".into(), tensor(&x_dims, Ty::Num)));
    g.vars.push(("x".into(), x_dims));
    if g.chance(0.5) {
        let d = g.dims(1);
        inputs.push(("y".into(), tensor(&d, Ty::Num)));
        g.vars.push(("y".into(), d));
    }
    let pair_dims = g.dims(1);
    let with_pair = g.chance(0.4);
    if with_pair {
        let t = Ty::Pair(Box::new(tensor(&pair_dims, Ty::Num)), Box::new(Ty::Num));
        inputs.push(("p".into(), t));
    }
    if g.chance(0.4) {
        let n = g.rng.gen_range(1..=3);
        inputs.push(("r".into(), Ty::Arr(n, Box::new(Ty::Bool))));
        g.rels.push(("r".into(), n));
    }
    if g.chance(0.3) {
        let n = g.rng.gen_range(1..=3);
        inputs.push(("d".into(), Ty::Arr(n, Box::new(Ty::Int))));
        g.ints.push(("d".into(), n));
    }
    let values = inputs.iter().map(|(_, t)| g.value(t)).collect();
    let mut lets: Vec<(Var, Term)> = Vec::new();
    for _ in 0..g.rng.gen_range(1..=4) {
        let v = g.fresh("v");
        if with_pair && g.chance(0.25) {
            let k = g.rng.gen_range(0..2u8);
            let dims = if k == 0 { pair_dims.clone() } else { vec![] };
            lets.push((v.clone(), mk::proj(k, Term::Var("p".into()))));
            g.vars.push((v, dims));
        } else {
            let (t, dims) = g.gen_rhs();
            lets.push((v.clone(), t));
            g.vars.push((v, dims));
        }
    }
    let names: Vec<Var> = lets.iter().map(|(v, _)| v.clone()).collect();
    let pick = |g: &mut G| names[g.rng.gen_range(0..names.len())].clone();
    let output = match g.rng.gen_range(0..6) {
        0 => Term::Pair(
            Box::new(Term::Var(pick(&mut g))),
            Box::new(Term::Var(pick(&mut g))),
        ),
        1 => g.gen_rhs().0,
        2 => Term::Var("x".into()),
        _ => Term::Var(names.last().expect("one let or more").clone()),
    };
    let term = lets
        .into_iter()
        .rev()
        .fold(output, |b, (v, e)| Term::Let(v, Box::new(e), Box::new(b)));
    GpnfCase {
        inputs,
        term,
        values,
    }
}
