//! The polynomial check of S001-X4.2 (seed 001 §4.2: without black boxes a term denotes
//! a multivariate polynomial): on a random line `t ↦ ⟦e⟧(x + t·v)` the `(D+1)`-th finite
//! difference over `D + 2` integer points is exactly 0, where `D` is a syntactic degree
//! bound (`deg x = 1` for inputs, constants 0, `+` max, `*` sum, lets substitute the
//! degree of their binding, every other form the degree of its body).

use crate::catalogue::{Outcome, Pass};
use crate::gen::tl::TlCase;
use adora_core::tl::Term;
use adora_semantics::tl::{eval_term, TlEnv, TlValue};
use adora_semantics::Rat;
use rand::Rng;

/// The syntactic degree bound of a term without black boxes (`None` with one).
pub fn degree(t: &Term, env: &mut Vec<(String, u32)>) -> Option<u32> {
    Some(match t {
        Term::Var(x) => env
            .iter()
            .rev()
            .find(|(y, _)| y == x)
            .map_or(1, |(_, d)| *d),
        Term::Const(_) | Term::IndexConst(_) => 0,
        Term::Add(a, b) | Term::Pair(a, b) => degree(a, env)?.max(degree(b, env)?),
        Term::Mul(a, b) => degree(a, env)? + degree(b, env)?,
        Term::Call(..) => return None,
        Term::Proj(_, e)
        | Term::Gen(_, _, e)
        | Term::Sum(_, _, e)
        | Term::Access(e, _)
        | Term::Bracket(_, e) => degree(e, env)?,
        Term::Let(x, e1, e2) => {
            let d1 = degree(e1, env)?;
            env.push((x.clone(), d1));
            let d = degree(e2, env);
            env.pop();
            d?
        }
    })
}

fn moved(x: &TlValue<Rat>, v: &TlValue<Rat>, t: i64) -> TlValue<Rat> {
    match (x, v) {
        (TlValue::Num(a), TlValue::Num(d)) => TlValue::Num(a + d * Rat::from_integer(t.into())),
        (TlValue::Pair(a, b), TlValue::Pair(da, db)) => {
            TlValue::pair(moved(a, da, t), moved(b, db, t))
        }
        (TlValue::Arr(es), TlValue::Arr(ds)) => {
            TlValue::Arr(es.iter().zip(ds).map(|(e, d)| moved(e, d, t)).collect())
        }
        (x, _) => x.clone(),
    }
}

fn binomial(m: u32, j: u32) -> Rat {
    let mut r = Rat::from_integer(1.into());
    for k in 0..j {
        r = r * Rat::from_integer((m - k).into()) / Rat::from_integer((k + 1).into());
    }
    r
}

/// Checks that the `(D+1)`-th finite difference of the case's term vanishes on a random line.
pub fn finite_difference(c: &TlCase, r: &mut impl Rng) -> Outcome {
    let Some(d) = degree(&c.term, &mut Vec::new()) else {
        return Pass::vacuous();
    };
    let dirs: Vec<TlValue<Rat>> = c
        .values
        .iter()
        .map(|v| v.map_num(&mut |_| Rat::from_integer(r.gen_range(-2..=2).into())))
        .collect();
    let m = d + 1;
    let mut acc: Option<Vec<Rat>> = None;
    for j in 0..=m {
        let vals: Vec<TlValue<Rat>> = c
            .values
            .iter()
            .zip(&dirs)
            .map(|(x, v)| moved(x, v, j as i64))
            .collect();
        let env = TlEnv::from_inputs(&c.inputs, &vals);
        let y = eval_term(&c.term, &env).map_err(|e| format!("{}\n{c}", e.message))?;
        let sign = if (m - j) % 2 == 0 { 1 } else { -1 };
        let w = binomial(m, j) * Rat::from_integer(sign.into());
        let terms: Vec<Rat> = y.nums().into_iter().map(|x| x * &w).collect();
        acc = Some(match acc {
            None => terms,
            Some(a) => a.iter().zip(&terms).map(|(p, q)| p + q).collect(),
        });
    }
    let zero = Rat::from_integer(0.into());
    match acc {
        Some(a) if a.iter().any(|x| *x != zero) => Err(format!(
            "the {m}-th finite difference is {a:?}, not 0 (degree bound {d})\n{c}"
        )),
        _ => Pass::ok(),
    }
}
