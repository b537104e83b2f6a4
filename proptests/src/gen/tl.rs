//! Generator G2: random well-typed tensor-language terms with exact inputs
//! (docs/engines/tssa-language.md, "Generators"). Deterministic in the random source.
//!
//! The terms contain arrays of pairs (let-bound `gen i. (a, b)` and their projections
//! and accesses), lets nested under `gen`, `sum` and `[p]`, nested brackets, affine
//! predicates (`==`, `!=`, `<`, `<=`, `i + j == k`, `i == c`), `exists`, relation inputs
//! (random boolean tensors), data predicates on let-bound and input values (E1),
//! opaque index expressions and integer data (E3), index constants (E2), negation (E4),
//! the rational black boxes `pow(·, 2)`, `recip` and `abs`, and ranges 0–3 including 0.
//! Binders are unique (no shadowing). Inputs and the output are in struct-of-arrays form
//! unless [`TlGenOptions::soa_io`] is off. G3 (Tensor-SSA programs) is [`super::tl_ssa`].

pub use super::tl_ssa::{ssa_case, SsaCase, SsaGenOptions};

use adora_core::tl::{
    rat, Aff, BlackBox, CmpOp, DataRef, IExpr, Index, PathStep, Pred, Rat, Term, Ty, Var,
};
use adora_semantics::tl::{TlEnv, TlValue};
use rand::Rng;

/// A generated term with its typed inputs and exact input values (in input order).
#[derive(Clone, Debug)]
pub struct TlCase {
    /// The free variables and their types.
    pub inputs: Vec<(Var, Ty)>,
    /// The term.
    pub term: Term,
    /// One value per input.
    pub values: Vec<TlValue<Rat>>,
}

impl TlCase {
    /// The environment binding the inputs to their values.
    pub fn env(&self) -> TlEnv<Rat> {
        TlEnv::from_inputs(&self.inputs, &self.values)
    }
}

impl std::fmt::Display for TlCase {
    /// The inputs with their types and values, then the term.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for ((x, t), v) in self.inputs.iter().zip(&self.values) {
            writeln!(f, "input {x}: {t} = {v}")?;
        }
        write!(f, "{}", self.term)
    }
}

/// What G2 may generate.
#[derive(Clone, Debug)]
pub struct TlGenOptions {
    /// The size budget (roughly the number of term nodes), multiplied by the factor of
    /// `adora check --size` ([`super::scale`]).
    pub size: usize,
    /// Rational black boxes (`pow(·, 2)`, `recip`, `abs`).
    pub black_boxes: bool,
    /// Data predicates (E1) and integer data (E3).
    pub data: bool,
    /// Relation inputs (boolean tensors).
    pub relations: bool,
    /// Pairs, also inside arrays.
    pub pairs: bool,
    /// Inputs and output of struct-of-arrays type (the pair-elimination precondition).
    pub soa_io: bool,
}

impl Default for TlGenOptions {
    fn default() -> TlGenOptions {
        TlGenOptions {
            size: 30,
            black_boxes: true,
            data: true,
            relations: true,
            pairs: true,
            soa_io: true,
        }
    }
}

/// A random G2 case.
pub fn tl_case(rng: &mut impl Rng, opts: &TlGenOptions) -> TlCase {
    let mut g = G2 {
        rng,
        opts: opts.clone(),
        vals: Vec::new(),
        idx: Vec::new(),
        fresh: 0,
    };
    let mut inputs = Vec::new();
    let k = g.rng.gen_range(1..=3);
    for n in 0..k {
        let t = g.value_type(opts.soa_io, 2);
        inputs.push((format!("x{n}"), t));
    }
    if opts.relations && g.rng.gen_bool(0.5) {
        let t = Ty::tensor(&[g.range()]);
        let t = retype(&t, Ty::Bool);
        inputs.push(("r".to_string(), t));
    }
    if opts.data && g.rng.gen_bool(0.4) {
        inputs.push(("k".to_string(), Ty::arr(g.range(), Ty::Int)));
    }
    g.vals = inputs.clone();
    let out = g.value_type(opts.soa_io, 2);
    let term = g.term(&out, super::scale::scaled(opts.size));
    let values = inputs.iter().map(|(_, t)| random_value(g.rng, t)).collect();
    TlCase {
        inputs,
        term,
        values,
    }
}

/// A random G2 term of type `out` over the given typed free variables (relation and
/// integer-data inputs are read by predicates only when named `r` and `k`). Binder names
/// restart at every call (`i1`, `y2`, …): combine two such terms through [`freshen`] or
/// under disjoint scopes.
///
/// [`freshen`]: adora_core::tl::freshen
pub fn tl_term(rng: &mut impl Rng, opts: &TlGenOptions, inputs: &[(Var, Ty)], out: &Ty) -> Term {
    let mut g = G2 {
        rng,
        opts: opts.clone(),
        vals: inputs.to_vec(),
        idx: Vec::new(),
        fresh: 0,
    };
    g.term(out, super::scale::scaled(opts.size))
}

/// The same shape with `elem` at the leaves.
fn retype(t: &Ty, elem: Ty) -> Ty {
    match t {
        Ty::Arr(n, e) => Ty::arr(*n, retype(e, elem)),
        _ => elem,
    }
}

/// A small exact rational: numerator -3..=3, denominator 1..=3.
pub fn small_rat(rng: &mut impl Rng) -> Rat {
    rat(rng.gen_range(-3..=3)) / rat(rng.gen_range(1..=3))
}

/// A random value of a type (integers in `-1..=n`, so some reads are out of bounds).
pub fn random_value(rng: &mut impl Rng, t: &Ty) -> TlValue<Rat> {
    match t {
        Ty::Num => TlValue::Num(small_rat(rng)),
        Ty::Bool => TlValue::Bool(rng.gen_bool(0.5)),
        Ty::Int => TlValue::Int(rng.gen_range(-1..=4)),
        Ty::Pair(a, b) => TlValue::pair(random_value(rng, a), random_value(rng, b)),
        Ty::Arr(n, e) => TlValue::Arr((0..*n).map(|_| random_value(rng, e)).collect()),
    }
}

struct G2<'r, R> {
    rng: &'r mut R,
    opts: TlGenOptions,
    /// Value variables in scope (inputs, then lets).
    vals: Vec<(Var, Ty)>,
    /// Index variables in scope with their ranges.
    idx: Vec<(String, u64)>,
    fresh: usize,
}

impl<R: Rng> G2<'_, R> {
    fn name(&mut self, base: &str) -> String {
        self.fresh += 1;
        format!("{base}{}", self.fresh)
    }

    /// A range 0–3, rarely 0.
    fn range(&mut self) -> u64 {
        if self.rng.gen_bool(0.1) {
            0
        } else {
            self.rng.gen_range(1..=3)
        }
    }

    /// A value type of rank ≤ 2; arrays of pairs unless `soa`.
    fn value_type(&mut self, soa: bool, depth: u32) -> Ty {
        let roll = self.rng.gen_range(0..10);
        match roll {
            0..=2 => Ty::Num,
            3..=5 => Ty::arr(self.range(), Ty::Num),
            6 if depth > 0 => {
                let e = self.value_type(soa, depth - 1);
                Ty::arr(self.range(), if soa { strip_pairs(e) } else { e })
            }
            7 if self.opts.pairs && depth > 0 => {
                let a = self.value_type(soa, depth - 1);
                let b = self.value_type(soa, depth - 1);
                Ty::pair(a, b)
            }
            8 if self.opts.pairs && !soa => Ty::arr(self.range(), Ty::pair(Ty::Num, Ty::Num)),
            _ => Ty::tensor(&[self.range(), self.range()]),
        }
    }

    /// A term of type `t` within `budget` nodes.
    fn term(&mut self, t: &Ty, budget: usize) -> Term {
        if budget <= 1 {
            return self.leaf(t);
        }
        let b = budget - 1;
        let roll = self.rng.gen_range(0..100);
        // Forms available at every type.
        if roll < 10 {
            let p = self.pred(2);
            return Term::bracket(p, self.term(t, b));
        }
        if roll < 22 {
            return self.let_in(t, b);
        }
        if roll < 27 {
            // (gen i:n. e)[a] or x-rooted accesses: an access of an array of `t`.
            let n = self.range();
            let arr = self.term(&Ty::arr(n, t.clone()), b / 2);
            let a = self.index_for(n);
            return Term::at(arr, a);
        }
        if roll < 30 && self.opts.pairs {
            let other = self.value_type(false, 0);
            let k = self.rng.gen_range(0..2u8);
            let pt = if k == 0 {
                Ty::pair(t.clone(), other)
            } else {
                Ty::pair(other, t.clone())
            };
            return Term::proj(k, self.term(&pt, b));
        }
        match t {
            Ty::Num => self.num(b),
            Ty::Arr(n, e) => {
                let i = self.name("i");
                self.idx.push((i.clone(), *n));
                let body = self.term(e, b);
                self.idx.pop();
                Term::gen(i, *n, body)
            }
            Ty::Pair(x, y) => {
                let l = self.rng.gen_range(0..=b);
                Term::pair(self.term(x, l), self.term(y, b - l))
            }
            Ty::Bool | Ty::Int => unreachable!("data types are never generated as terms"),
        }
    }

    fn let_in(&mut self, t: &Ty, b: usize) -> Term {
        let bt = if self.opts.pairs && self.rng.gen_bool(0.3) {
            Ty::arr(self.range(), Ty::pair(Ty::Num, Ty::Num))
        } else {
            self.value_type(false, 1)
        };
        let l = self.rng.gen_range(1..=b.max(1));
        let e1 = self.term(&bt, l);
        let x = self.name("y");
        self.vals.push((x.clone(), bt));
        let e2 = self.term(t, b.saturating_sub(l).max(1));
        self.vals.pop();
        Term::let_(x, e1, e2)
    }

    /// A scalar term of `b` nodes.
    fn num(&mut self, b: usize) -> Term {
        let l = self.rng.gen_range(0..=b);
        match self.rng.gen_range(0..10) {
            0..=2 => {
                // `[p] a + [q] b`, the shape rule 4.24 discounts.
                let (x, y) = (self.term(&Ty::Num, l), self.term(&Ty::Num, b - l));
                let x = if self.rng.gen_bool(0.5) {
                    Term::bracket(self.pred(1), x)
                } else {
                    x
                };
                let y = if self.rng.gen_bool(0.5) {
                    Term::bracket(self.pred(1), y)
                } else {
                    y
                };
                Term::add(x, y)
            }
            3..=5 => Term::mul(self.term(&Ty::Num, l), self.term(&Ty::Num, b - l)),
            6 if self.opts.black_boxes => {
                let f =
                    [BlackBox::Pow(2), BlackBox::Recip, BlackBox::Abs][self.rng.gen_range(0..3)];
                Term::call(f, self.term(&Ty::Num, b))
            }
            _ => {
                let i = self.name("j");
                let n = self.range();
                self.idx.push((i.clone(), n));
                let body = self.term(&Ty::Num, b);
                self.idx.pop();
                Term::sum(i, n, body)
            }
        }
    }

    /// A leaf of type `t`: a path into a variable in scope, a constant, or a small gen.
    fn leaf(&mut self, t: &Ty) -> Term {
        let paths: Vec<(Var, Vec<Step>)> = self
            .vals
            .iter()
            .filter(|(_, vt)| !adora_core::tl::types::is_data_type(vt))
            .flat_map(|(x, vt)| paths_to(vt, t, 3).into_iter().map(|p| (x.clone(), p)))
            .collect();
        if !paths.is_empty() && self.rng.gen_bool(0.75) {
            let (x, steps) = paths[self.rng.gen_range(0..paths.len())].clone();
            return steps.iter().fold(Term::var(x), |acc, s| match s {
                Step::Proj(k) => Term::proj(*k, acc),
                Step::At(n) => {
                    let a = self.index_for(*n);
                    Term::at(acc, a)
                }
            });
        }
        match t {
            Ty::Num if !self.idx.is_empty() && self.rng.gen_bool(0.15) => {
                let a = self.index_any();
                Term::index_const(a)
            }
            Ty::Num => Term::num(small_rat(self.rng)),
            Ty::Arr(n, e) => {
                let i = self.name("i");
                self.idx.push((i.clone(), *n));
                let body = self.leaf(e);
                self.idx.pop();
                Term::gen(i, *n, body)
            }
            Ty::Pair(a, b) => Term::pair(self.leaf(a), self.leaf(b)),
            Ty::Bool | Ty::Int => unreachable!("data types are never generated as terms"),
        }
    }

    /// An index into an array of `n`: mostly an index variable of the same range,
    /// sometimes shifted or constant (possibly out of bounds), sometimes opaque.
    fn index_for(&mut self, n: u64) -> Index {
        let same: Vec<String> = self
            .idx
            .iter()
            .filter(|(_, m)| *m == n)
            .map(|(i, _)| i.clone())
            .collect();
        match self.rng.gen_range(0..10) {
            0..=5 if !same.is_empty() => {
                Index::var(same[self.rng.gen_range(0..same.len())].as_str())
            }
            6 if !self.idx.is_empty() => {
                let a = self.aff_var();
                Index::Aff(a.add(&Aff::constant(self.rng.gen_range(-1..=1))))
            }
            7 if !self.idx.is_empty() && self.opts.data => self.opaque(),
            _ => Index::constant(self.rng.gen_range(0..=n as i64)),
        }
    }

    fn aff_var(&mut self) -> Aff {
        let (i, _) = self.idx[self.rng.gen_range(0..self.idx.len())].clone();
        Aff::var(i)
    }

    /// An affine index over the variables in scope (or a constant).
    fn index_any(&mut self) -> Index {
        if self.idx.is_empty() {
            return Index::constant(self.rng.gen_range(0..3));
        }
        let mut a = self.aff_var();
        if self.rng.gen_bool(0.3) {
            a = a.add(&self.aff_var());
        }
        Index::Aff(a.add(&Aff::constant(self.rng.gen_range(-1..=1))))
    }

    /// A non-affine index: `i % 2`, `i * j`, or a read of the integer data `k`.
    fn opaque(&mut self) -> Index {
        let v = |s: String| Box::new(IExpr::Var(s));
        let (i, _) = self.idx[self.rng.gen_range(0..self.idx.len())].clone();
        let has_k = self.vals.iter().any(|(x, _)| x == "k");
        match self.rng.gen_range(0..3) {
            0 => Index::Opaque(IExpr::Mod(v(i), Box::new(IExpr::Const(2)))),
            1 if has_k => Index::Opaque(IExpr::Read("k".into(), vec![Index::var(i.as_str())])),
            _ => {
                let (j, _) = self.idx[self.rng.gen_range(0..self.idx.len())].clone();
                Index::Opaque(IExpr::Mul(v(i), v(j)))
            }
        }
    }

    /// A predicate over the index variables in scope.
    fn pred(&mut self, depth: u32) -> Pred {
        let roll = self.rng.gen_range(0..20);
        match roll {
            0..=2 if depth > 0 => Pred::And(
                Box::new(self.pred(depth - 1)),
                Box::new(self.pred(depth - 1)),
            ),
            3 if depth > 0 => Pred::Or(
                Box::new(self.pred(depth - 1)),
                Box::new(self.pred(depth - 1)),
            ),
            4 if depth > 0 => Pred::Not(Box::new(self.pred(depth - 1))),
            5 if depth > 0 => {
                let j = self.name("e");
                let n = self.range();
                self.idx.push((j.clone(), n));
                let q = self.pred(depth - 1);
                self.idx.pop();
                Pred::Exists(j, n, Box::new(q))
            }
            6 | 7 => match self.vals.iter().find(|(x, _)| x == "r").cloned() {
                Some((r, t)) => {
                    let mut idx = Vec::new();
                    let mut t = t;
                    while let Ty::Arr(n, e) = t {
                        idx.push(self.index_for(n));
                        t = *e;
                    }
                    Pred::Rel(r, idx)
                }
                None => self.cmp(),
            },
            8 | 9 if self.opts.data => self.data_pred(),
            10 => Pred::True,
            11 if self.opts.data && !self.idx.is_empty() => {
                let a = self.opaque();
                Pred::Cmp(CmpOp::Eq, a, Index::constant(0))
            }
            _ => self.cmp(),
        }
    }

    fn cmp(&mut self) -> Pred {
        let op = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le][self.rng.gen_range(0..4)];
        let a = self.index_any();
        let b = if self.rng.gen_bool(0.5) {
            self.index_any()
        } else {
            Index::constant(self.rng.gen_range(0..3))
        };
        Pred::Cmp(op, a, b)
    }

    /// `{u ⋈ c}` or `{u ⋈ v}` on scalars read from variables in scope (E1).
    fn data_pred(&mut self) -> Pred {
        let op = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le][self.rng.gen_range(0..4)];
        let a = self.data_ref();
        let b = if self.rng.gen_bool(0.6) {
            DataRef::Const(small_rat(self.rng))
        } else {
            self.data_ref()
        };
        Pred::Data(op, a, b)
    }

    fn data_ref(&mut self) -> DataRef {
        let paths: Vec<(Var, Vec<Step>)> = self
            .vals
            .iter()
            .filter(|(_, vt)| !adora_core::tl::types::is_data_type(vt))
            .flat_map(|(x, vt)| {
                paths_to(vt, &Ty::Num, 3)
                    .into_iter()
                    .map(|p| (x.clone(), p))
            })
            .collect();
        if paths.is_empty() {
            return DataRef::Const(small_rat(self.rng));
        }
        let (x, steps) = paths[self.rng.gen_range(0..paths.len())].clone();
        let path = steps
            .iter()
            .map(|s| match s {
                Step::Proj(k) => PathStep::Proj(*k),
                Step::At(n) => PathStep::At(self.index_for(*n)),
            })
            .collect();
        DataRef::Read(x, path)
    }
}

/// A step of a path from a variable's type to a target type.
#[derive(Clone, Debug)]
enum Step {
    Proj(u8),
    At(u64),
}

/// The paths (at most `depth` steps) from a value of type `from` to a value of type `to`.
fn paths_to(from: &Ty, to: &Ty, depth: u32) -> Vec<Vec<Step>> {
    let mut out = Vec::new();
    if from == to {
        out.push(Vec::new());
    }
    if depth == 0 {
        return out;
    }
    let mut extend = |inner: &Ty, s: Step| {
        for mut p in paths_to(inner, to, depth - 1) {
            p.insert(0, s.clone());
            out.push(p);
        }
    };
    match from {
        Ty::Pair(a, b) => {
            extend(a, Step::Proj(0));
            extend(b, Step::Proj(1));
        }
        Ty::Arr(n, e) => extend(e, Step::At(*n)),
        _ => {}
    }
    out
}

/// A type without arrays of pairs (pairs inside arrays replaced by their first half).
fn strip_pairs(t: Ty) -> Ty {
    match t {
        Ty::Pair(a, _) => strip_pairs(*a),
        Ty::Arr(n, e) => Ty::arr(n, strip_pairs(*e)),
        t => t,
    }
}
