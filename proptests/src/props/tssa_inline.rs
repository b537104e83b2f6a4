//! Inlining an LL-NF's bindings (seed 001 §4.1, the substitution identity
//! `⟦e{x := e'}⟧ρ = ⟦e⟧(ρ, x ↦ ⟦e'⟧ρ)`, read backwards), for comparing two let-lifting
//! results that may order independent `let`s differently
//! (`tssa/let-lift-direct-agrees-with-saturation`): both inline to the same let-free
//! term up to canonical names exactly when they differ only in the `let` structure.

use adora_core::tl::{Term, Var};
use adora_rewrites::tssa::egg::names::canonical;
use adora_rewrites::tssa::egg::nf::spine;
use adora_rewrites::tssa::egg::vars::Free;
use std::collections::BTreeMap;

/// The most nodes an inlined term may have (bindings used many times multiply).
const BUDGET: usize = 200_000;

/// `t` (in LL-NF, canonical names) with every binding substituted into its uses and
/// binders renamed canonically (`inputs` are avoided); `None` when a bound variable is
/// read where no term may stand (a predicate or index expression: extension E1/E3 data),
/// when `t` is not in LL-NF, or past the node budget.
pub fn inline_ll_nf(t: &Term, inputs: &[Var]) -> Option<Term> {
    let (binds, body) = spine(t);
    let mut env: BTreeMap<Var, Term> = BTreeMap::new();
    let mut budget = BUDGET;
    for (x, r) in binds {
        let r = subst(r, &env, &mut budget)?;
        env.insert(x.clone(), r);
    }
    let out = subst(body, &env, &mut budget)?;
    Some(canonical(&out, inputs))
}

/// Whether a bound variable occurs among `vars`.
fn reads_bound(vars: &std::collections::BTreeSet<Var>, env: &BTreeMap<Var, Term>) -> bool {
    vars.iter().any(|x| env.contains_key(x))
}

/// `t{x := env(x)}` for every bound `x`. Binders are unique (canonical names) and the
/// bindings have no free index variables, so no capture can occur.
fn subst(t: &Term, env: &BTreeMap<Var, Term>, budget: &mut usize) -> Option<Term> {
    *budget = budget.checked_sub(1)?;
    let b = |e: &Term, budget: &mut usize| subst(e, env, budget).map(Box::new);
    Some(match t {
        Term::Var(x) => match env.get(x) {
            Some(r) => {
                *budget = budget.checked_sub(r.size())?;
                r.clone()
            }
            None => t.clone(),
        },
        Term::Const(_) => t.clone(),
        Term::IndexConst(a) => {
            if reads_bound(&Free::of_index(a).vars, env) {
                return None;
            }
            t.clone()
        }
        Term::Add(p, q) => Term::Add(b(p, budget)?, b(q, budget)?),
        Term::Mul(p, q) => Term::Mul(b(p, budget)?, b(q, budget)?),
        Term::Pair(p, q) => Term::Pair(b(p, budget)?, b(q, budget)?),
        Term::Call(f, e) => Term::Call(*f, b(e, budget)?),
        Term::Proj(k, e) => Term::Proj(*k, b(e, budget)?),
        Term::Gen(i, n, e) => Term::Gen(i.clone(), *n, b(e, budget)?),
        Term::Sum(i, n, e) => Term::Sum(i.clone(), *n, b(e, budget)?),
        Term::Access(e, a) => {
            if reads_bound(&Free::of_index(a).vars, env) {
                return None;
            }
            Term::Access(b(e, budget)?, a.clone())
        }
        Term::Bracket(p, e) => {
            if reads_bound(&Free::of_pred(p).vars, env) {
                return None;
            }
            Term::Bracket(p.clone(), b(e, budget)?)
        }
        Term::Let(..) => return None,
    })
}
