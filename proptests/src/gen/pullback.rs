//! Random well-typed terms of the pullback calculus (Mak and Ong §3; docs/engines/pullback.md,
//! "Properties"), the generator H2 of the note's property plan: functions `\x. t : R -> R`
//! (or `\z. t : (R, R) -> R`) whose bodies mix
//!
//! | production | form |
//! |---|---|
//! | arithmetic | `add (a, b)`, `sub`, `mul`, `div`, `neg`, `pow<2>`, `min`, `max`, `abs`, `sel_lt` |
//! | sharing | `let y = a in b` |
//! | closures capturing the differentiated variable | `let g = \y. a in b` (and `g c` in `b`) |
//! | functions passed and returned | `twice`: `(\f. \y. f (f y)) g a`; curried `(\a. \b. t) a b` |
//! | Church-encoded lists | `(\l. l (\a. \acc. add (…, acc)) 0) (\c. \n. c a1 (c a2 n))` |
//! | pairs | `let p = (a, b) in … p.0 … p.1 …` |
//! | nested derivatives | `(pb(\y. a, omega) b) c`, `J(\y. a, c) b`, `a` first order ([`INNER_BUDGET`]) |
//!
//! plus the embedded first-order programs of the core scalar generator (engine `pullback`'s
//! embedding, [`adora_pullback::embed`]). Sizes are small so that reductions are fast;
//! [`shrink`] reduces a failing term to a small one (printed as source by the caller).
//! Every term is rational (no transcendental symbol), so the model and the reducer are
//! exact.

use adora_pullback::syntax::{Cmp, FnSym, Fresh, Term, TermKind, Ty, Var};
use adora_pullback::types;
use adora_semantics::Rat;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A generated function with its input type and a point to differentiate it at.
#[derive(Clone, Debug)]
pub struct PbCase {
    /// The closed term `\x. t` (result `R`).
    pub f: Term,
    /// Its input type (`R` or `(R, R)`).
    pub input: Ty,
    /// The point (one rational per real of `input`).
    pub point: Vec<Rat>,
}

/// The kinds of variables in scope.
#[derive(Clone, Copy, PartialEq)]
enum K {
    Real,
    Fun,
}

/// The generator state: the random source and a fresh-variable supply.
pub struct PbGen {
    rng: ChaCha8Rng,
    fresh: Fresh,
    /// Whether the term being generated is the body of a nested `pb` or `J` (see
    /// [`INNER_BUDGET`]).
    inner: bool,
}

/// The most nodes of the body of a nested `pb(\y. a, omega)` or `J(\y. a, c)`, which is
/// first order (arithmetic, `let`, closures `let g = \y. a in b` and their applications,
/// pairs; it may capture the outer variables) and holds no further `pb` or `J`. The reason
/// is cost, not correctness: the reduction differentiates a nested pullback by unfolding it
/// (rule 17) at every use of its tangent map, so its steps grow about 30-fold per level of
/// nesting and about 2-fold per curried application or `twice` inside the nested body
/// (docs/engines/pullback.md, "Properties": on 4000 seeds, 12 exceeded the properties'
/// 2000 strategy steps, all with a higher-order or nested body of a nested derivative;
/// with this bound, none of 60 000 seeds exceeds 700).
pub const INNER_BUDGET: usize = 6;

fn app(f: FnSym, args: Vec<Term>) -> Term {
    let mut it = args.into_iter().rev();
    let last = it.next().expect("a symbol has arguments");
    Term::app(Term::sym(f), it.fold(last, |acc, t| Term::pair(t, acc)))
}

impl PbGen {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> PbGen {
        use rand::SeedableRng;
        PbGen {
            rng: ChaCha8Rng::seed_from_u64(seed),
            fresh: Fresh::starting_at(1),
            inner: false,
        }
    }

    /// A small rational: numerator -3..=3, denominator 1..=2.
    pub fn rat(&mut self) -> Rat {
        let n: i64 = self.rng.gen_range(-3..=3);
        let d: i64 = self.rng.gen_range(1..=2);
        Rat::new(n.into(), d.into())
    }

    fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.rng.gen_range(0..xs.len())].clone()
    }

    /// A random case of about `budget` nodes (`budget` ≥ 4).
    pub fn case(&mut self, budget: usize) -> PbCase {
        if self.rng.gen_bool(0.7) {
            let x = self.fresh.var("x");
            let body = self.real(&[(x.clone(), K::Real)], budget);
            PbCase {
                f: Term::lam(&x, body),
                input: Ty::Real,
                point: vec![self.rat()],
            }
        } else {
            let z = self.fresh.var("z");
            let (a, b) = (self.fresh.var("a"), self.fresh.var("b"));
            let env = [(a.clone(), K::Real), (b.clone(), K::Real)];
            let body = self.real(&env, budget);
            let body = Term::let_(
                &a,
                Term::proj(Term::var(&z), false),
                Term::let_(&b, Term::proj(Term::var(&z), true), body),
            );
            PbCase {
                f: Term::lam(&z, body),
                input: Ty::pair(Ty::Real, Ty::Real),
                point: vec![self.rat(), self.rat()],
            }
        }
    }

    fn leaf(&mut self, env: &[(Var, K)]) -> Term {
        let reals: Vec<&Var> = env
            .iter()
            .filter(|(_, k)| *k == K::Real)
            .map(|(v, _)| v)
            .collect();
        if !reals.is_empty() && self.rng.gen_bool(0.75) {
            let v = reals[self.rng.gen_range(0..reals.len())].clone();
            Term::var(&v)
        } else {
            Term::num(self.rat())
        }
    }

    /// A function `R -> R`: a variable in scope or an abstraction.
    fn fun(&mut self, env: &[(Var, K)], budget: usize) -> Term {
        let funs: Vec<Var> = env
            .iter()
            .filter(|(_, k)| *k == K::Fun)
            .map(|(v, _)| v.clone())
            .collect();
        if !funs.is_empty() && self.rng.gen_bool(0.5) {
            return Term::var(&self.pick(&funs));
        }
        let y = self.fresh.var("y");
        let mut env2 = env.to_vec();
        env2.push((y.clone(), K::Real));
        Term::lam(&y, self.real(&env2, budget.saturating_sub(1).max(1)))
    }

    /// A term of type `R` of about `budget` nodes.
    fn real(&mut self, env: &[(Var, K)], budget: usize) -> Term {
        if budget <= 2 {
            return self.leaf(env);
        }
        let b = budget - 1;
        let half = |n: usize| (n / 2).max(1);
        let has_fun = env.iter().any(|(_, k)| *k == K::Fun);
        let choice = if self.inner {
            // arithmetic, unary symbols, `let`, closures and their applications, pairs
            // (see `INNER_BUDGET`; an application without a function in scope is arithmetic)
            match self.rng.gen_range(0..69) {
                c @ 56..=63 if !has_fun => c - 56,
                c @ 0..=63 => c,
                c => c + 11,
            }
        } else {
            self.rng.gen_range(0..100)
        };
        match choice {
            0..=24 => {
                let f = self.pick(&[FnSym::Add, FnSym::Sub, FnSym::Mul, FnSym::Mul, FnSym::Add]);
                let (l, r) = (self.real(env, half(b)), self.real(env, b - half(b)));
                app(f, vec![l, r])
            }
            25..=29 => {
                let f = self.pick(&[
                    FnSym::Neg,
                    FnSym::Pow(2),
                    FnSym::Abs,
                    FnSym::Min,
                    FnSym::Max,
                    FnSym::Div,
                    FnSym::Sel(Cmp::Lt),
                ]);
                let args = (0..f.arity()).map(|_| self.real(env, half(b))).collect();
                app(f, args)
            }
            30..=41 => {
                let y = self.fresh.var("y");
                let s = self.real(env, half(b));
                let mut env2 = env.to_vec();
                env2.push((y.clone(), K::Real));
                Term::let_(&y, s, self.real(&env2, b - half(b)))
            }
            42..=55 => {
                let g = self.fresh.var("g");
                let s = self.fun(env, half(b));
                let mut env2 = env.to_vec();
                env2.push((g.clone(), K::Fun));
                Term::let_(&g, s, self.real(&env2, b - half(b)))
            }
            56..=63 if has_fun => {
                let g = self.fun(env, 1);
                Term::app(g, self.real(env, b))
            }
            64..=68 => {
                let (f, y) = (self.fresh.var("f"), self.fresh.var("y"));
                let twice = Term::lam(
                    &f,
                    Term::lam(
                        &y,
                        Term::app(Term::var(&f), Term::app(Term::var(&f), Term::var(&y))),
                    ),
                );
                let g = self.fun(env, half(b));
                Term::app(Term::app(twice, g), self.real(env, b - half(b)))
            }
            69..=74 => self.church(env, b),
            75..=79 => {
                let p = self.fresh.var("p");
                let pair = Term::pair(self.real(env, half(b)), self.real(env, half(b)));
                let mut env2 = env.to_vec();
                let (q0, q1) = (self.fresh.var("q"), self.fresh.var("q"));
                env2.push((q0.clone(), K::Real));
                env2.push((q1.clone(), K::Real));
                let body = self.real(&env2, half(b));
                Term::let_(
                    &p,
                    pair,
                    Term::let_(
                        &q0,
                        Term::proj(Term::var(&p), false),
                        Term::let_(&q1, Term::proj(Term::var(&p), true), body),
                    ),
                )
            }
            80..=86 => {
                let y = self.fresh.var("y");
                let mut env2 = env.to_vec();
                env2.push((y.clone(), K::Real));
                let inner = self.nested_body(&env2, half(b));
                let omega = Term::omega(&mut self.fresh);
                let at = self.real(env, half(half(b)));
                let along = self.leaf(env);
                Term::app(Term::app(Term::pb(Term::lam(&y, inner), omega), at), along)
            }
            87..=92 => {
                let y = self.fresh.var("y");
                let mut env2 = env.to_vec();
                env2.push((y.clone(), K::Real));
                let inner = self.nested_body(&env2, half(b));
                let along = self.leaf(env);
                let at = self.real(env, half(half(b)));
                Term::app(Term::jac(Term::lam(&y, inner), along), at)
            }
            _ => {
                let (u, v) = (self.fresh.var("u"), self.fresh.var("v"));
                let mut env2 = env.to_vec();
                env2.push((u.clone(), K::Real));
                env2.push((v.clone(), K::Real));
                let body = self.real(&env2, half(b));
                let curried = Term::lam(&u, Term::lam(&v, body));
                let (a1, a2) = (self.real(env, half(half(b))), self.leaf(env));
                Term::app(Term::app(curried, a1), a2)
            }
        }
    }

    /// The body of a nested `pb` or `J`: first order, at most [`INNER_BUDGET`] nodes.
    fn nested_body(&mut self, env: &[(Var, K)], budget: usize) -> Term {
        let outer = std::mem::replace(&mut self.inner, true);
        let t = self.real(env, budget.min(INNER_BUDGET));
        self.inner = outer;
        t
    }

    /// `fold (\a. \acc. op) 0 [e1, …, en]` over a Church-encoded list, `n` in 0..=3.
    fn church(&mut self, env: &[(Var, K)], b: usize) -> Term {
        let n = self.rng.gen_range(0..=3usize);
        let (c, nil) = (self.fresh.var("c"), self.fresh.var("n"));
        let mut list = Term::var(&nil);
        for _ in 0..n {
            let e = self.real(env, (b / (n + 2)).max(1));
            list = Term::app(Term::app(Term::var(&c), e), list);
        }
        let list = Term::lam(&c, Term::lam(&nil, list));
        let (l, a, acc) = (
            self.fresh.var("l"),
            self.fresh.var("a"),
            self.fresh.var("acc"),
        );
        let mut env2 = env.to_vec();
        env2.push((a.clone(), K::Real));
        let elem = if self.rng.gen_bool(0.5) {
            Term::var(&a)
        } else {
            self.real(&env2, 3)
        };
        let step = Term::lam(
            &a,
            Term::lam(&acc, app(FnSym::Add, vec![elem, Term::var(&acc)])),
        );
        let fold = Term::lam(&l, Term::app(Term::app(Term::var(&l), step), Term::int(0)));
        Term::app(fold, list)
    }
}

impl PbGen {
    /// A term of type `R` in which the variable `h : R -> R` may occur (in function
    /// positions), for the linear-position properties; half of them have the form `h a`.
    pub fn over_fun(&mut self, h: &Var, budget: usize) -> Term {
        if self.rng.gen_bool(0.5) {
            let a = self.real(&[], budget / 2 + 1);
            Term::app(Term::var(h), a)
        } else {
            self.real(&[(h.clone(), K::Fun)], budget)
        }
    }

    /// A closed function `R -> R`.
    pub fn closed_fun(&mut self, budget: usize) -> Term {
        let y = self.fresh.var("y");
        Term::lam(&y, self.real(&[(y.clone(), K::Real)], budget))
    }
}

/// The point `s` of a case as a term.
pub fn point_term(input: &Ty, point: &[Rat]) -> Term {
    match input {
        Ty::Pair(..) => Term::pair(Term::num(point[0].clone()), Term::num(point[1].clone())),
        _ => Term::num(point[0].clone()),
    }
}

/// The immediate subterms of `t` with a function rebuilding `t` from new ones.
fn children(t: &Term) -> Vec<Term> {
    match &t.kind {
        TermKind::Lam(_, _, b) | TermKind::Proj(b, _) => vec![(**b).clone()],
        TermKind::Let(_, a, b)
        | TermKind::App(a, b)
        | TermKind::Pair(a, b)
        | TermKind::Jac(a, b)
        | TermKind::Dual(a, b)
        | TermKind::Pb(a, b) => vec![(**a).clone(), (**b).clone()],
        TermKind::Sum(ts) => ts.clone(),
        _ => Vec::new(),
    }
}

fn with_children(t: &Term, cs: Vec<Term>) -> Term {
    let mut it = cs.into_iter();
    let mut next = || Box::new(it.next().expect("as many children"));
    let kind = match &t.kind {
        TermKind::Lam(x, ty, _) => TermKind::Lam(x.clone(), ty.clone(), next()),
        TermKind::Proj(_, i) => TermKind::Proj(next(), *i),
        TermKind::Let(x, _, _) => TermKind::Let(x.clone(), next(), next()),
        TermKind::App(..) => TermKind::App(next(), next()),
        TermKind::Pair(..) => TermKind::Pair(next(), next()),
        TermKind::Jac(..) => TermKind::Jac(next(), next()),
        TermKind::Dual(..) => TermKind::Dual(next(), next()),
        TermKind::Pb(..) => TermKind::Pb(next(), next()),
        TermKind::Sum(ts) => TermKind::Sum((0..ts.len()).map(|_| *next()).collect()),
        k => k.clone(),
    };
    Term::new(kind)
}

/// Every term obtained from `t` by replacing one subterm by one of its own subterms or by
/// the numeral `1`.
fn candidates(t: &Term) -> Vec<Term> {
    let mut out = Vec::new();
    for c in children(t) {
        out.push(c);
    }
    if !matches!(t.kind, TermKind::Num(_) | TermKind::Var(_)) {
        out.push(Term::int(1));
    }
    let cs = children(t);
    for (i, c) in cs.iter().enumerate() {
        for r in candidates(c) {
            let mut cs2 = cs.clone();
            cs2[i] = r;
            out.push(with_children(t, cs2));
        }
    }
    out
}

/// Greedy shrinking: the smallest closed, well-typed term (same type as `t`) reachable by
/// replacing subterms, for which `fails` still holds (at most `rounds` improvements, and
/// no new attempt after `budget` has passed).
pub fn shrink(
    t: &Term,
    fails: &dyn Fn(&Term) -> bool,
    rounds: usize,
    budget: std::time::Duration,
) -> Term {
    let start = std::time::Instant::now();
    let Ok(ty) = types::infer(t, &[]) else {
        return t.clone();
    };
    let mut cur = t.clone();
    for _ in 0..rounds {
        let mut cands = candidates(&cur);
        cands.sort_by_key(Term::size);
        let next = cands.into_iter().find(|c| {
            start.elapsed() < budget
                && c.size() < cur.size()
                && c.free_vars().is_empty()
                && types::infer(c, &[]).is_ok_and(|u| u == ty)
                && fails(c)
        });
        match next {
            Some(c) => cur = c,
            None => break,
        }
    }
    cur
}
