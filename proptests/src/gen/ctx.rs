//! The generator's state: a seeded random source, the specification being generated,
//! the typed environment of variables in scope, fresh names, and the helper `def`.

use super::{Fragment, GenSpec};
use adora_core::ast::Name;
use adora_core::types::{Base, Type};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// What a variable in scope is, beyond its type: the generator uses it to keep indices
/// mostly in bounds and integer arithmetic small.
#[derive(Clone, Debug, PartialEq)]
pub enum VarKind {
    /// A parameter of `main` (an input: small rationals or small integers).
    Input,
    /// A parameter of the helper `def` (anything the caller passes).
    Param,
    /// An index ranging over `0..extent` (build, gather, scatter binders; loop counters;
    /// `map` parameters over `iota(extent)`).
    Index(usize),
    /// A `let`-, lambda- or loop-bound value.
    Local,
}

/// A variable in scope.
#[derive(Clone, Debug)]
pub struct Var {
    /// Its name.
    pub name: Name,
    /// Its type.
    pub ty: Type,
    /// Its kind.
    pub kind: VarKind,
}

/// The signature of the helper `def` that `main` may call.
#[derive(Clone, Debug)]
pub struct HelperSig {
    /// The helper's name.
    pub name: Name,
    /// Parameter types.
    pub params: Vec<Type>,
    /// Result type.
    pub ret: Type,
}

/// Generator state (one per generated program).
pub struct Gen {
    /// The random source (all choices come from it, so a seed determines the program).
    pub rng: ChaCha8Rng,
    /// What is being generated.
    pub spec: GenSpec,
    /// Variables in scope, innermost last.
    pub env: Vec<Var>,
    /// The helper `def`, once generated (callable from `main` only).
    pub helper: Option<HelperSig>,
    /// Whether the body being generated is `main`'s (and may call the helper).
    pub in_main: bool,
    counter: usize,
}

impl Gen {
    /// A generator for `spec` drawing from `rng`.
    pub fn new(spec: GenSpec, rng: ChaCha8Rng) -> Gen {
        Gen {
            rng,
            spec,
            env: Vec::new(),
            helper: None,
            in_main: false,
            counter: 0,
        }
    }

    /// The fragment being generated.
    pub fn frag(&self) -> Fragment {
        self.spec.fragment
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.rng.gen_bool(p.clamp(0.0, 1.0))
    }

    /// A uniform integer in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        self.rng.gen_range(lo..=hi)
    }

    /// A uniform size in `lo..=hi`.
    pub fn urange(&mut self, lo: usize, hi: usize) -> usize {
        self.rng.gen_range(lo..=hi)
    }

    /// A uniformly chosen element of a non-empty slice.
    pub fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.rng.gen_range(0..xs.len())].clone()
    }

    /// An element chosen with the given (positive total) weights.
    pub fn weighted<T: Clone>(&mut self, xs: &[(u32, T)]) -> T {
        let total: u32 = xs.iter().map(|(w, _)| w).sum();
        let mut r = self.rng.gen_range(0..total.max(1));
        for (w, x) in xs {
            if r < *w {
                return x.clone();
            }
            r -= w;
        }
        xs[xs.len() - 1].1.clone()
    }

    /// Splits `budget` into `parts` budgets of at least 1 each, summing to at most
    /// `budget.max(parts)`, randomly proportioned.
    pub fn split(&mut self, budget: usize, parts: usize) -> Vec<usize> {
        if parts == 0 {
            return Vec::new();
        }
        let spare = budget.saturating_sub(parts);
        let weights: Vec<u32> = (0..parts).map(|_| self.rng.gen_range(1..=4)).collect();
        let total: u32 = weights.iter().sum();
        weights
            .iter()
            .map(|w| 1 + spare * *w as usize / total as usize)
            .collect()
    }

    /// A fresh variable name starting with `stem`.
    pub fn fresh(&mut self, stem: &str) -> Name {
        self.counter += 1;
        format!("{stem}{}", self.counter)
    }

    /// Runs `f` with `vars` added to the environment.
    pub fn with_vars<T>(&mut self, vars: Vec<Var>, f: impl FnOnce(&mut Gen) -> T) -> T {
        let n = vars.len();
        self.env.extend(vars);
        let r = f(self);
        self.env.truncate(self.env.len() - n);
        r
    }

    /// The visible variables (the innermost of each name) satisfying `pred`.
    pub fn visible(&self, pred: impl Fn(&Var) -> bool) -> Vec<Var> {
        let mut out: Vec<Var> = Vec::new();
        for (k, v) in self.env.iter().enumerate().rev() {
            let shadowed = self.env[k + 1..].iter().any(|w| w.name == v.name);
            if !shadowed && pred(v) {
                out.push(v.clone());
            }
        }
        out
    }

    /// Visible variables of exactly type `ty`.
    pub fn vars_of(&self, ty: &Type) -> Vec<Var> {
        self.visible(|v| &v.ty == ty)
    }

    /// Visible index variables (name, extent).
    pub fn index_vars(&self) -> Vec<(Name, usize)> {
        self.visible(|v| matches!(v.kind, VarKind::Index(_)))
            .into_iter()
            .filter_map(|v| match v.kind {
                VarKind::Index(n) => Some((v.name, n)),
                _ => None,
            })
            .collect()
    }

    /// A random dimension size (1–4).
    pub fn dim(&mut self) -> usize {
        self.weighted(&[(2, 1), (4, 2), (4, 3), (3, 4)])
    }

    /// Whether an intermediate array of shape `s` is small enough (rank at most 4, at
    /// most 64 elements).
    pub fn fits(s: &[usize]) -> bool {
        s.len() <= 4 && s.iter().product::<usize>() <= 64
    }

    /// A random dimension `d` such that `[d] ++ s` fits, if any.
    pub fn outer_dim(&mut self, s: &[usize]) -> Option<usize> {
        let ok: Vec<usize> = (1..=4)
            .filter(|&d| Gen::fits(&[vec![d], s.to_vec()].concat()))
            .collect();
        if ok.is_empty() {
            return None;
        }
        let d = self.dim();
        Some(if ok.contains(&d) { d } else { self.pick(&ok) })
    }

    /// A random shape `d` of rank `k` such that `d ++ s` fits, if any (dimensions shrink
    /// until it does).
    pub fn prefix_shape(&mut self, k: usize, s: &[usize]) -> Option<Vec<usize>> {
        let mut d = self.shape(k);
        loop {
            if Gen::fits(&[d.clone(), s.to_vec()].concat()) {
                return Some(d);
            }
            let big = (0..d.len()).max_by_key(|&q| d[q])?;
            if d[big] == 1 {
                return None;
            }
            d[big] -= 1;
        }
    }

    /// A random shape of rank `rank` (dimensions 1–4).
    pub fn shape(&mut self, rank: usize) -> Vec<usize> {
        (0..rank).map(|_| self.dim()).collect()
    }

    /// A random real array type of rank `0..=max_rank`.
    pub fn real_type(&mut self, max_rank: usize) -> Type {
        let rank = self.weighted(&[(5, 0), (4, 1), (2, 2), (1, 3)][..=max_rank.min(3)]);
        Type::Array(Base::R, self.shape(rank))
    }

    /// A random type for a `let`-bound value or helper parameter of this fragment.
    pub fn value_type(&mut self) -> Type {
        let max_rank = match self.frag() {
            Fragment::Scalar => 0,
            Fragment::Bulk => 3,
            Fragment::Soac => 2,
        };
        let k = self.weighted(&[(12, 0), (2, 1), (1, 2), (2, 3)]);
        match k {
            0 => self.real_type(max_rank),
            1 => Type::int(),
            2 => Type::bool(),
            _ => {
                let n = self.urange(2, 3);
                Type::Tuple((0..n).map(|_| self.tuple_component(max_rank)).collect())
            }
        }
    }

    /// A component type of a generated tuple (reals mostly, sometimes an integer).
    pub fn tuple_component(&mut self, max_rank: usize) -> Type {
        if self.chance(0.15) {
            Type::int()
        } else {
            self.real_type(max_rank.min(1))
        }
    }
}
