//! An independent brute-force counter of the cost `C` (S001-X4.3a): index binders are
//! unrolled by substituting their values into the term, every predicate is decided by
//! evaluating it as a closed term, and each `+`, `*` and black box is counted where the
//! evaluator performs it — additions skipped when an operand's immediate bracket is
//! false, the terms of a composite sum counted and combined with `N − 1` additions.

use adora_core::diag::Result;
use adora_core::tl::{subst_index, type_of, Index, Pred, Term};
use adora_semantics::tl::{eval_term, TlEnv, TlValue};
use adora_semantics::Rat;

/// The count of the operations of `t` in `env`.
pub fn count(t: &Term, env: &TlEnv<Rat>) -> Result<u64> {
    go(t, env)
}

fn truth(p: &Pred, env: &TlEnv<Rat>) -> Result<bool> {
    let v = eval_term(&Term::bracket(p.clone(), Term::int(1)), env)?;
    Ok(v == TlValue::Num(Rat::from_integer(1.into())))
}

fn live(t: &Term, env: &TlEnv<Rat>) -> Result<bool> {
    match t {
        Term::Bracket(p, _) => truth(p, env),
        _ => Ok(true),
    }
}

fn go(t: &Term, env: &TlEnv<Rat>) -> Result<u64> {
    Ok(match t {
        Term::Var(_) | Term::Const(_) | Term::IndexConst(_) => 0,
        Term::Add(a, b) => go(a, env)? + go(b, env)? + (live(a, env)? && live(b, env)?) as u64,
        Term::Mul(a, b) => go(a, env)? + go(b, env)? + 1,
        Term::Call(_, e) => go(e, env)? + 1,
        Term::Pair(a, b) => go(a, env)? + go(b, env)?,
        Term::Proj(_, e) | Term::Access(e, _) => go(e, env)?,
        Term::Gen(i, n, e) => {
            let mut s = 0;
            for k in 0..*n as i64 {
                s += go(&subst_index(e, i, &Index::constant(k))?, env)?;
            }
            s
        }
        Term::Sum(..) => {
            let (mut n, mut total) = (0u64, 0u64);
            chain(t, env, &mut n, &mut total)?;
            total - (n > 0) as u64
        }
        Term::Bracket(p, e) => {
            if truth(p, env)? {
                go(e, env)?
            } else {
                0
            }
        }
        Term::Let(x, e1, e2) => {
            let c1 = go(e1, env)?;
            let ty = type_of(e1, &env.types())?;
            let v = eval_term(e1, env)?;
            let mut inner = env.clone();
            inner.bind_typed(x.clone(), ty, v);
            c1 + go(e2, &inner)?
        }
    })
}

/// The terms of a chain of sums and brackets: each satisfying one costs its body + 1.
fn chain(t: &Term, env: &TlEnv<Rat>, n: &mut u64, total: &mut u64) -> Result<()> {
    match t {
        Term::Sum(i, m, e) => {
            for k in 0..*m as i64 {
                chain(&subst_index(e, i, &Index::constant(k))?, env, n, total)?;
            }
            Ok(())
        }
        Term::Bracket(p, e) => {
            if truth(p, env)? {
                chain(e, env, n, total)?;
            }
            Ok(())
        }
        body => {
            *n += 1;
            *total += go(body, env)? + 1;
            Ok(())
        }
    }
}
