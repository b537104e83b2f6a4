//! The normal forms of the three passes (seed 001 §5.1–§5.3; docs/engines/tssa-passes.md,
//! "Normal forms"), as checkers that name the first violation.
//!
//! - **LL-NF** `e ::= let x = r in e | r`, every `r` let-free.
//! - **PE-NF** LL-NF; no bound variable has a pair type (up to ≅); the only projections
//!   are of input expressions `X.k…`; the only pair constructions form the output (the
//!   tree of pairs at the top of the final body), whose leaves have no pair type unless
//!   they are variables or input expressions.
//! - **GP-NF** PE-NF; every right-hand side is an input expression or `gen I. s` (`I`
//!   possibly empty), and so is every leaf of the output (or a variable), where
//!   `s ::= c | #a | s + s | s * s | f(s) | sum i:n. s | [p] s | x[a]…[a]` and the last
//!   form reads a scalar from a variable.

use super::types::{is_pair, soa, type_of};
use adora_core::tl::{Term, Ty, Var};
use std::collections::{BTreeMap, BTreeSet};

type Check = std::result::Result<(), String>;

fn has_let(t: &Term) -> bool {
    match t {
        Term::Let(..) => true,
        Term::Var(_) | Term::Const(_) | Term::IndexConst(_) => false,
        Term::Add(a, b) | Term::Mul(a, b) | Term::Pair(a, b) => has_let(a) || has_let(b),
        Term::Call(_, e)
        | Term::Proj(_, e)
        | Term::Gen(_, _, e)
        | Term::Sum(_, _, e)
        | Term::Access(e, _)
        | Term::Bracket(_, e) => has_let(e),
    }
}

/// The `let` spine: the bindings in order and the final body.
pub fn spine(t: &Term) -> (Vec<(&Var, &Term)>, &Term) {
    let mut binds = Vec::new();
    let mut t = t;
    while let Term::Let(x, r, b) = t {
        binds.push((x, &**r));
        t = b;
    }
    (binds, t)
}

/// Checks LL-NF.
pub fn check_ll_nf(t: &Term) -> Check {
    let (binds, body) = spine(t);
    for (x, r) in binds {
        if has_let(r) {
            return Err(format!("the binding of {x} contains a let"));
        }
    }
    if has_let(body) {
        return Err("the body contains a let".into());
    }
    Ok(())
}

/// Whether `t` is in LL-NF.
pub fn is_ll_nf(t: &Term) -> bool {
    check_ll_nf(t).is_ok()
}

/// Whether `t` is an input expression `X.k…` (`X` free: not in `bound`).
pub fn is_input_path(t: &Term, bound: &BTreeSet<&Var>) -> bool {
    match t {
        Term::Var(x) => !bound.contains(x),
        Term::Proj(_, e) => is_input_path(e, bound),
        _ => false,
    }
}

fn pair_free(t: &Term, bound: &BTreeSet<&Var>) -> Check {
    match t {
        Term::Pair(..) => Err("a pair construction outside the output".into()),
        Term::Proj(..) if is_input_path(t, bound) => Ok(()),
        Term::Proj(..) => Err("a projection of a non-input".into()),
        Term::Var(_) | Term::Const(_) | Term::IndexConst(_) => Ok(()),
        Term::Add(a, b) | Term::Mul(a, b) => pair_free(a, bound).and(pair_free(b, bound)),
        Term::Call(_, e)
        | Term::Gen(_, _, e)
        | Term::Sum(_, _, e)
        | Term::Access(e, _)
        | Term::Bracket(_, e) => pair_free(e, bound),
        Term::Let(..) => Err("a let below the spine".into()),
    }
}

fn output_leaves<'a>(t: &'a Term, out: &mut Vec<&'a Term>) {
    match t {
        Term::Pair(a, b) => {
            output_leaves(a, out);
            output_leaves(b, out);
        }
        t => out.push(t),
    }
}

/// Checks PE-NF; `inputs` are the free variables' types.
pub fn check_pe_nf(t: &Term, inputs: &[(Var, Ty)]) -> Check {
    check_ll_nf(t)?;
    let (binds, body) = spine(t);
    let mut env: BTreeMap<Var, Ty> = inputs.iter().map(|(x, ty)| (x.clone(), soa(ty))).collect();
    let mut bound = BTreeSet::new();
    for (x, r) in binds {
        let ty = type_of(r, &env).ok_or_else(|| format!("the binding of {x} is ill-typed"))?;
        if is_pair(&ty) {
            return Err(format!("{x} is bound to a pair ({ty:?})"));
        }
        pair_free(r, &bound).map_err(|m| format!("binding of {x}: {m}"))?;
        env.insert(x.clone(), ty);
        bound.insert(x);
    }
    let mut leaves = Vec::new();
    output_leaves(body, &mut leaves);
    for l in leaves {
        pair_free(l, &bound).map_err(|m| format!("output: {m}"))?;
        let pair_typed = type_of(l, &env).is_some_and(|ty| is_pair(&ty));
        if pair_typed && !matches!(l, Term::Var(_)) && !is_input_path(l, &bound) {
            return Err(
                "an output leaf of pair type is neither a variable nor an input expression".into(),
            );
        }
    }
    Ok(())
}

/// Whether `t` is in PE-NF.
pub fn is_pe_nf(t: &Term, inputs: &[(Var, Ty)]) -> bool {
    check_pe_nf(t, inputs).is_ok()
}

fn is_s(t: &Term, env: &BTreeMap<Var, Ty>, paths: bool, bound: &BTreeSet<&Var>) -> bool {
    match t {
        Term::Const(_) | Term::IndexConst(_) => true,
        Term::Add(a, b) | Term::Mul(a, b) => {
            is_s(a, env, paths, bound) && is_s(b, env, paths, bound)
        }
        Term::Call(_, e) | Term::Sum(_, _, e) | Term::Bracket(_, e) => is_s(e, env, paths, bound),
        Term::Var(_) | Term::Access(..) | Term::Proj(..) => {
            let mut base = t;
            while let Term::Access(e, _) = base {
                base = e;
            }
            let base_ok = match base {
                Term::Var(_) => true,
                Term::Proj(..) => paths && is_input_path(base, bound),
                _ => false,
            };
            base_ok && type_of(t, env) == Some(Ty::Num)
        }
        _ => false,
    }
}

fn is_gen_s(t: &Term, env: &BTreeMap<Var, Ty>, paths: bool, bound: &BTreeSet<&Var>) -> bool {
    match t {
        Term::Gen(_, _, e) => is_gen_s(e, env, paths, bound),
        t => is_s(t, env, paths, bound),
    }
}

/// Checks GP-NF; with `paths`, `s` may also read scalars from input expressions
/// (`X.0[a]`), the form before [`super::genpush`] names them.
pub fn check_gp_nf_with(t: &Term, inputs: &[(Var, Ty)], paths: bool) -> Check {
    check_pe_nf(t, inputs)?;
    let (binds, body) = spine(t);
    let mut env: BTreeMap<Var, Ty> = inputs.iter().map(|(x, ty)| (x.clone(), soa(ty))).collect();
    let mut bound = BTreeSet::new();
    for (x, r) in binds {
        if !(is_input_path(r, &bound) || is_gen_s(r, &env, paths, &bound)) {
            return Err(format!(
                "the binding of {x} is neither an input expression nor gen I. s"
            ));
        }
        let ty = type_of(r, &env).ok_or_else(|| format!("the binding of {x} is ill-typed"))?;
        env.insert(x.clone(), ty);
        bound.insert(x);
    }
    let mut leaves = Vec::new();
    output_leaves(body, &mut leaves);
    for l in leaves {
        let ok = matches!(l, Term::Var(_))
            || is_input_path(l, &bound)
            || is_gen_s(l, &env, paths, &bound);
        if !ok {
            return Err(
                "an output leaf is neither a variable, an input expression nor gen I. s".into(),
            );
        }
    }
    Ok(())
}

/// Checks GP-NF (accesses of variables only).
pub fn check_gp_nf(t: &Term, inputs: &[(Var, Ty)]) -> Check {
    check_gp_nf_with(t, inputs, false)
}

/// Whether `t` is in GP-NF.
pub fn is_gp_nf(t: &Term, inputs: &[(Var, Ty)]) -> bool {
    check_gp_nf(t, inputs).is_ok()
}
