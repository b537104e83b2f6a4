//! The cost properties of seed 003, the pullback calculus (Mak and Ong, *A Differential-form
//! Pullback Programming Language for Higher-order Reverse-mode Automatic Differentiation*,
//! §2.1, §3.3.4 Example 3.5, §3.4; specs/theorems.md rows S003-X2.1b and S003-X3.3i;
//! docs/engines/pullback-reduction.md, "Counters and complexity"), on random first-order
//! let series `\x. let x1 = op1 (a1, b1) in … in xk` (`op` in `add`, `sub`, `mul`; `ai`
//! the previous variable, `bi` any earlier one), reduced by `adora_pullback::ad::grad` and checked against
//! the concrete model (`adora_pullback::model`) and a symbolic differentiator written here:
//!
//! | property | row | statement checked |
//! |---|---|---|
//! | `pullback/no-expression-swell` | S003-X2.1b | the swell family `x_i = op_i (x_{i-1}, x_{i-1})`, `k` in 1..=10: exactly `6k + 1` reduction steps, `k` primal and `k` Jacobian δ steps, while the symbolic derivative of the inlined term has at least `2^k` nodes; all three (reduction, symbolic, model) agree exactly |
//! | `pullback/cbv-shares-primal` | S003-X3.3i | random DAG series (`x_i = op_i (x_{i-1}, x_j)`, `j < i` random), `k` in 1..=12: each primal intermediate is evaluated once (primal δ steps per symbol = lets with that symbol), at most one Jacobian δ per let; value and gradient equal the model's |
//!
//! The figures: the symbolic derivative's nodes per reduction step (max), and the primal δ
//! steps an inlining (call-by-name) evaluation would take per let (mean).

use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::props::pullback::obs;
use adora_pullback::ad;
use adora_pullback::print;
use adora_pullback::reduce::Reducer;
use adora_pullback::syntax::{FnSym, Fresh, Term, TermKind, Ty, Var};
use adora_semantics::Rat;
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// The symbols of the series.
const OPS: [FnSym; 3] = [FnSym::Add, FnSym::Sub, FnSym::Mul];

/// A random let series of `k` lets: `\x. let x1 = op (a, b) in … in xk`; with `swell`,
/// `a = b = x_{i-1}`, otherwise `a = x_{i-1}` and `b` any earlier variable (`x` included),
/// so every intermediate is live and the earlier ones are shared.
fn series(k: usize, swell: bool, rng: &mut ChaCha8Rng) -> Term {
    let mut fresh = Fresh::starting_at(1);
    let x = fresh.var("x");
    let mut vars: Vec<Var> = vec![x.clone()];
    let mut binds = Vec::new();
    for i in 1..=k {
        let op = OPS[rng.gen_range(0..OPS.len())];
        let (a, b) = if swell {
            (i - 1, i - 1)
        } else {
            (i - 1, rng.gen_range(0..i))
        };
        let v = fresh.var(&format!("x{i}"));
        let e = Term::app(
            Term::sym(op),
            Term::pair(Term::var(&vars[a]), Term::var(&vars[b])),
        );
        binds.push((v.clone(), e));
        vars.push(v);
    }
    let body = binds
        .into_iter()
        .rev()
        .fold(Term::var(&vars[k]), |b, (v, e)| Term::let_(&v, e, b));
    Term::lam(&x, body)
}

/// A let-free first-order expression over `x`.
#[derive(Clone)]
enum Expr {
    X,
    Num(Rat),
    Op(FnSym, Box<Expr>, Box<Expr>),
}

impl Expr {
    fn size(&self) -> usize {
        match self {
            Expr::X | Expr::Num(_) => 1,
            Expr::Op(_, a, b) => 1 + a.size() + b.size(),
        }
    }

    fn eval(&self, x: &Rat) -> Rat {
        match self {
            Expr::X => x.clone(),
            Expr::Num(r) => r.clone(),
            Expr::Op(f, a, b) => {
                let (a, b) = (a.eval(x), b.eval(x));
                match f {
                    FnSym::Add => a + b,
                    FnSym::Sub => a - b,
                    _ => a * b,
                }
            }
        }
    }

    /// The symbolic derivative (sum, difference and product rules, no sharing).
    fn diff(&self) -> Expr {
        let op = |f, a: Expr, b: Expr| Expr::Op(f, Box::new(a), Box::new(b));
        match self {
            Expr::X => Expr::Num(Rat::from_integer(1.into())),
            Expr::Num(_) => Expr::Num(Rat::from_integer(0.into())),
            Expr::Op(FnSym::Mul, a, b) => op(
                FnSym::Add,
                op(FnSym::Mul, a.diff(), (**b).clone()),
                op(FnSym::Mul, (**a).clone(), b.diff()),
            ),
            Expr::Op(f, a, b) => op(*f, a.diff(), b.diff()),
        }
    }
}

/// The series `\x. L` inlined into one expression (what symbolic differentiation sees),
/// and the symbol applications of `L` per symbol.
fn inline(f: &Term) -> Result<(Expr, BTreeMap<String, u64>), String> {
    let TermKind::Lam(x, _, body) = &f.kind else {
        return Err("not an abstraction".into());
    };
    let mut env: Vec<(Var, Expr)> = vec![(x.clone(), Expr::X)];
    let mut lets = BTreeMap::new();
    let mut t = &**body;
    let lookup = |env: &[(Var, Expr)], a: &Term| match &a.kind {
        TermKind::Var(v) => env
            .iter()
            .rev()
            .find(|(w, _)| w == v)
            .map(|(_, e)| e.clone())
            .ok_or_else(|| format!("unbound {}", print::term(a))),
        _ => Err(format!("not a variable: {}", print::term(a))),
    };
    loop {
        match &t.kind {
            TermKind::Let(v, e, rest) => {
                let (TermKind::App(g, arg), Some(sym)) = (&e.kind, fn_of(e)) else {
                    return Err(format!("not an elementary let: {}", print::term(e)));
                };
                let _ = g;
                let TermKind::Pair(a, b) = &arg.kind else {
                    return Err(format!("not a pair argument: {}", print::term(e)));
                };
                let ex = Expr::Op(sym, Box::new(lookup(&env, a)?), Box::new(lookup(&env, b)?));
                *lets.entry(sym.name().to_string()).or_insert(0) += 1;
                env.push((v.clone(), ex));
                t = rest;
            }
            _ => return Ok((lookup(&env, t)?, lets)),
        }
    }
}

fn fn_of(e: &Term) -> Option<FnSym> {
    match &e.kind {
        TermKind::App(g, _) => match g.kind {
            TermKind::Fn(f) => Some(f),
            _ => None,
        },
        _ => None,
    }
}

/// The point of a case: one of ±1/2, ±1, ±3/2, 2.
fn point(d: usize) -> Rat {
    let ns = [(1, 2), (-1, 2), (1, 1), (-1, 1), (3, 2), (-3, 2), (2, 1)];
    let (n, m) = ns[d % ns.len()];
    Rat::new(n.into(), m.into())
}

/// Reduces `pb(f, omega) p` and checks its value and gradient against the model; returns
/// the reduction.
fn reduce_and_check(f: &Term, p: &Rat) -> Result<ad::AdResult, String> {
    let r = ad::grad(
        f,
        &Ty::Real,
        std::slice::from_ref(p),
        &Reducer::new().step_limit(100_000),
    )
    .map_err(|d| format!("the reduction fails: {}", d.message))?;
    let mut fresh = Fresh::above(f);
    let pb = Term::app(
        Term::pb(f.clone(), Term::omega(&mut fresh)),
        Term::num(p.clone()),
    );
    let want = obs(&pb)?;
    let value = obs(&Term::app(f.clone(), Term::num(p.clone())))?;
    if r.derivative[..] != want[..1] || r.value != value {
        return Err(format!(
            "reduction value {:?} gradient {:?}, the model's {:?} and {:?}",
            r.value, r.derivative, value, want[0]
        ));
    }
    Ok(r)
}

fn total(m: &BTreeMap<String, u64>) -> u64 {
    m.values().sum()
}

fn swell_check(f: &Term, k: usize, p: &Rat) -> Result<f64, String> {
    let r = reduce_and_check(f, p)?;
    let s = &r.outcome.stats;
    let (prim, jac) = (total(&s.delta_f), total(&s.delta_j));
    if s.steps != 6 * k as u64 + 1 || prim != k as u64 || jac != k as u64 {
        return Err(format!(
            "k = {k}: {} steps (want 6k + 1 = {}), {prim} primal and {jac} Jacobian δ steps (want {k} each)",
            s.steps,
            6 * k + 1
        ));
    }
    let (e, _) = inline(f)?;
    let d = e.diff();
    if d.size() < 1 << k {
        return Err(format!(
            "the symbolic derivative has {} nodes, fewer than 2^{k}",
            d.size()
        ));
    }
    if d.eval(p) != r.derivative[0] || e.eval(p) != r.value[0] {
        return Err(format!(
            "symbolic value {} derivative {} but the reduction's {:?} {:?}",
            e.eval(p),
            d.eval(p),
            r.value,
            r.derivative
        ));
    }
    Ok(d.size() as f64 / s.steps as f64)
}

fn no_expression_swell(d: &[usize]) -> Outcome {
    let k = 1 + d[0] % 10;
    let mut rng = ChaCha8Rng::seed_from_u64(d[1] as u64);
    let f = series(k, true, &mut rng);
    match swell_check(&f, k, &point(d[2])) {
        Ok(x) => Pass::figure(x),
        Err(why) => Err(format!("{why}\nterm: {}", print::term(&f))),
    }
}

fn shares_check(f: &Term, p: &Rat) -> Result<f64, String> {
    let r = reduce_and_check(f, p)?;
    let s = &r.outcome.stats;
    let (e, lets) = inline(f)?;
    if s.delta_f != lets {
        return Err(format!(
            "primal δ steps {:?} but the series has {:?} symbol applications",
            s.delta_f, lets
        ));
    }
    if let Some((g, n)) = s
        .delta_j
        .iter()
        .find(|(g, n)| **n > lets.get(*g).copied().unwrap_or(0))
    {
        return Err(format!(
            "{n} Jacobian δ steps of {g}, more than its {} lets",
            lets.get(g).copied().unwrap_or(0)
        ));
    }
    Ok((e.size() / 2) as f64 / total(&lets) as f64)
}

fn cbv_shares_primal(d: &[usize]) -> Outcome {
    let k = 1 + d[0] % 12;
    let mut rng = ChaCha8Rng::seed_from_u64(d[1] as u64);
    let f = series(k, false, &mut rng);
    match shares_check(&f, &point(d[2])) {
        Ok(x) => Pass::figure(x),
        Err(why) => Err(format!("{why}\nterm: {}", print::term(&f))),
    }
}

fn prop(
    name: &'static str,
    source: &'static str,
    description: &'static str,
    label: &'static str,
    agg: Agg,
    check: fn(&[usize]) -> Outcome,
) -> Property {
    Property {
        name,
        source,
        fragment: "pullback",
        description,
        figure: Some(Figure { label, agg }),
        check: Check::Dims {
            count: 3,
            max: 1_000_000_000,
            check,
        },
    }
}

/// The cost properties of the pullback reduction.
pub fn properties() -> Vec<Property> {
    vec![
        prop(
            "pullback/no-expression-swell",
            "S003 §2.1, §3.3.4 Example 3.5 (S003-X2.1b)",
            "on the expression-swell family \\x. let x1 = op (x, x) in … let xk = op (x(k-1), x(k-1)) in xk (op add, sub or mul, k in 1..=10), reducing pb(f, omega) s takes exactly 6k + 1 steps with k primal and k Jacobian δ steps, while the symbolic derivative of the inlined term has at least 2^k nodes; reduction, symbolic derivative and concrete model agree exactly",
            "symbolic nodes per step (max)",
            Agg::Max,
            no_expression_swell,
        ),
        prop(
            "pullback/cbv-shares-primal",
            "S003 §3.3.4 Example 3.5, §3.4 (S003-X3.3i)",
            "on random let series x_i = op (x_(i-1), x_j), j < i random (k in 1..=12 lets of add, sub, mul; every intermediate live, earlier ones shared), the call-by-value reduction of pb(f, omega) s evaluates each primal intermediate once (primal δ steps per symbol = its lets) and takes at most one Jacobian δ per let; value and gradient equal the concrete model's",
            "inlined symbol applications per let (mean)",
            Agg::Mean,
            cbv_shares_primal,
        ),
    ]
}
