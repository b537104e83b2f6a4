//! Types up to the struct-of-arrays isomorphism `[n](T0 × T1) ≅ [n]T0 × [n]T1` (seed 001
//! §5.2): every type is kept in its SoA normal form, so the "non-sensical" intermediates
//! of pair elimination (`(e[a]).k`, `(gen i. e).k` on arrays of pairs) have types, and
//! two terms equal up to the isomorphism have equal types.

use adora_core::tl::{Term, Ty, Var};
use std::collections::BTreeMap;

/// The SoA normal form of a type: no `[n](T × U)` inside.
pub fn soa(t: &Ty) -> Ty {
    match t {
        Ty::Num | Ty::Bool | Ty::Int => t.clone(),
        Ty::Pair(a, b) => Ty::Pair(Box::new(soa(a)), Box::new(soa(b))),
        Ty::Arr(n, e) => distribute(*n, soa(e)),
    }
}

fn distribute(n: u64, t: Ty) -> Ty {
    match t {
        Ty::Pair(a, b) => Ty::Pair(Box::new(distribute(n, *a)), Box::new(distribute(n, *b))),
        t => Ty::Arr(n, Box::new(t)),
    }
}

/// Whether a type is in SoA form (the precondition of pair elimination on inputs).
pub fn is_soa(t: &Ty) -> bool {
    soa(t) == *t
}

/// The element type of an access, in SoA form (`[n]T ↦ T`; a pair of arrays accesses
/// both components).
pub fn elem(t: &Ty) -> Option<Ty> {
    match t {
        Ty::Arr(_, e) => Some((**e).clone()),
        Ty::Pair(a, b) => Some(Ty::Pair(Box::new(elem(a)?), Box::new(elem(b)?))),
        _ => None,
    }
}

/// The component `k` of a pair type.
pub fn proj(t: &Ty, k: u8) -> Option<Ty> {
    match (t, k) {
        (Ty::Pair(a, _), 0) => Some((**a).clone()),
        (Ty::Pair(_, b), 1) => Some((**b).clone()),
        _ => None,
    }
}

/// `[n]T` in SoA form.
pub fn arr(n: u64, t: Ty) -> Ty {
    distribute(n, t)
}

/// Whether a type is (up to ≅) a pair.
pub fn is_pair(t: &Ty) -> bool {
    matches!(soa(t), Ty::Pair(..))
}

/// The SoA type of a term under `env` (free variables' types), or `None` when it is
/// ill-typed (scalar operators on non-scalars, projection of a non-pair, access of a
/// non-array, unbound variable).
pub fn type_of(t: &Term, env: &BTreeMap<Var, Ty>) -> Option<Ty> {
    let num = |a: &Term| type_of(a, env).filter(|x| *x == Ty::Num);
    match t {
        Term::Var(x) => env.get(x).map(soa),
        Term::Const(_) | Term::IndexConst(_) => Some(Ty::Num),
        Term::Add(a, b) | Term::Mul(a, b) => {
            num(a)?;
            num(b)?;
            Some(Ty::Num)
        }
        Term::Call(_, e) | Term::Sum(_, _, e) => num(e),
        Term::Pair(a, b) => Some(Ty::Pair(
            Box::new(type_of(a, env)?),
            Box::new(type_of(b, env)?),
        )),
        Term::Proj(k, e) => proj(&type_of(e, env)?, *k),
        Term::Gen(_, n, e) => Some(arr(*n, type_of(e, env)?)),
        Term::Access(e, _) => elem(&type_of(e, env)?),
        Term::Bracket(_, e) => type_of(e, env),
        Term::Let(x, e1, e2) => {
            let t1 = type_of(e1, env)?;
            let mut env2 = env.clone();
            env2.insert(x.clone(), t1);
            type_of(e2, &env2)
        }
    }
}

/// The types of every `let` binder of a term (binders are unique), in SoA form.
pub fn binder_types(t: &Term, env: &BTreeMap<Var, Ty>, out: &mut BTreeMap<Var, Ty>) {
    match t {
        Term::Var(_) | Term::Const(_) | Term::IndexConst(_) => {}
        Term::Add(a, b) | Term::Mul(a, b) | Term::Pair(a, b) => {
            binder_types(a, env, out);
            binder_types(b, env, out);
        }
        Term::Call(_, e)
        | Term::Proj(_, e)
        | Term::Gen(_, _, e)
        | Term::Sum(_, _, e)
        | Term::Access(e, _)
        | Term::Bracket(_, e) => binder_types(e, env, out),
        Term::Let(x, e1, e2) => {
            binder_types(e1, env, out);
            let mut env2 = env.clone();
            if let Some(t1) = type_of(e1, env) {
                out.insert(x.clone(), t1.clone());
                env2.insert(x.clone(), t1);
            }
            binder_types(e2, &env2, out);
        }
    }
}
