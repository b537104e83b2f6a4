//! Predicate and index helpers of the derivative transforms: conjunction and disjunction
//! with `true`/`false` folded, existential closure over a list of binders, equalities
//! `K == U` between index-variable lists, and capture-avoiding renaming of free index
//! variables (the adjoint rules of *Differentiating a Tensor Language* §6.3 move filter
//! predicates between the binder lists of different statements).

use adora_core::tl::{Aff, DataRef, Dims, IExpr, IVar, Index, PathStep, Pred};
use std::collections::{BTreeMap, BTreeSet};

/// `p && q`, folding `true` and `false`.
pub fn and(p: Pred, q: Pred) -> Pred {
    if p == q {
        return p;
    }
    match (p, q) {
        (Pred::True, q) => q,
        (p, Pred::True) => p,
        (Pred::False, _) | (_, Pred::False) => Pred::False,
        (p, q) => Pred::And(Box::new(p), Box::new(q)),
    }
}

/// `p || q`, folding `true` and `false`.
pub fn or(p: Pred, q: Pred) -> Pred {
    if p == q {
        return p;
    }
    match (p, q) {
        (Pred::False, q) => q,
        (p, Pred::False) => p,
        (Pred::True, _) | (_, Pred::True) => Pred::True,
        (p, q) => Pred::Or(Box::new(p), Box::new(q)),
    }
}

/// `∃J. p` (nested `exists`, outermost first); `p` itself when `J` is empty.
pub fn exists(dims: &Dims, p: Pred) -> Pred {
    if matches!(p, Pred::True | Pred::False) && dims.iter().all(|(_, n)| *n > 0) {
        return p;
    }
    dims.iter()
        .rev()
        .fold(p, |acc, (i, n)| Pred::Exists(i.clone(), *n, Box::new(acc)))
}

/// The index expression `i` (an affine form with one variable).
pub fn var_index(i: &str) -> Index {
    let mut terms = BTreeMap::new();
    terms.insert(i.to_string(), 1);
    Index::Aff(Aff { terms, constant: 0 })
}

/// `k1 == u1 && … && kn == un`.
pub fn eq_lists(k: &[IVar], u: &[IVar]) -> Pred {
    k.iter().zip(u).fold(Pred::True, |acc, (a, b)| {
        if a == b {
            acc
        } else {
            and(
                acc,
                Pred::Cmp(adora_core::tl::CmpOp::Eq, var_index(a), var_index(b)),
            )
        }
    })
}

/// Index-variable names that occur in `p`, bound or free.
pub fn all_ivars(p: &Pred, out: &mut BTreeSet<IVar>) {
    match p {
        Pred::True | Pred::False => {}
        Pred::Cmp(_, a, b) => {
            index_ivars(a, out);
            index_ivars(b, out);
        }
        Pred::Rel(_, ix) => ix.iter().for_each(|a| index_ivars(a, out)),
        Pred::Data(_, a, b) => {
            data_ivars(a, out);
            data_ivars(b, out);
        }
        Pred::And(a, b) | Pred::Or(a, b) => {
            all_ivars(a, out);
            all_ivars(b, out);
        }
        Pred::Not(a) => all_ivars(a, out),
        Pred::Exists(i, _, a) => {
            out.insert(i.clone());
            all_ivars(a, out);
        }
    }
}

fn index_ivars(a: &Index, out: &mut BTreeSet<IVar>) {
    match a {
        Index::Aff(f) => out.extend(f.terms.keys().cloned()),
        Index::Opaque(e) => iexpr_ivars(e, out),
    }
}

fn data_ivars(d: &DataRef, out: &mut BTreeSet<IVar>) {
    if let DataRef::Read(_, steps) = d {
        for s in steps {
            if let PathStep::At(a) = s {
                index_ivars(a, out);
            }
        }
    }
}

fn iexpr_ivars(e: &IExpr, out: &mut BTreeSet<IVar>) {
    match e {
        IExpr::Var(i) => {
            out.insert(i.clone());
        }
        IExpr::Const(_) => {}
        IExpr::Add(a, b)
        | IExpr::Mul(a, b)
        | IExpr::Div(a, b)
        | IExpr::Mod(a, b)
        | IExpr::Min(a, b)
        | IExpr::Max(a, b) => {
            iexpr_ivars(a, out);
            iexpr_ivars(b, out);
        }
        IExpr::Neg(a) | IExpr::Abs(a) => iexpr_ivars(a, out),
        IExpr::Read(_, ix) => ix.iter().for_each(|a| index_ivars(a, out)),
        IExpr::Floor(d) => data_ivars(d, out),
        IExpr::Cond(p, a, b) => {
            all_ivars(p, out);
            iexpr_ivars(a, out);
            iexpr_ivars(b, out);
        }
    }
}

/// A fresh index-variable name `base{n}` not in `used` (and records it).
pub fn fresh_ivar(base: &str, used: &mut BTreeSet<IVar>) -> IVar {
    let mut n = 0usize;
    loop {
        let cand = format!("{base}{n}");
        if used.insert(cand.clone()) {
            return cand;
        }
        n += 1;
    }
}

/// Renames the free index variables of `p` by `map` (simultaneously), renaming any
/// `exists` binder that would capture a new name.
pub fn rename(p: &Pred, map: &BTreeMap<IVar, IVar>) -> Pred {
    if map.iter().all(|(a, b)| a == b) {
        return p.clone();
    }
    let mut used = BTreeSet::new();
    all_ivars(p, &mut used);
    used.extend(map.values().cloned());
    used.extend(map.keys().cloned());
    rename_in(p, map, &mut used)
}

fn rename_in(p: &Pred, map: &BTreeMap<IVar, IVar>, used: &mut BTreeSet<IVar>) -> Pred {
    match p {
        Pred::True => Pred::True,
        Pred::False => Pred::False,
        Pred::Cmp(op, a, b) => Pred::Cmp(*op, rn_index(a, map, used), rn_index(b, map, used)),
        Pred::Rel(r, ix) => Pred::Rel(
            r.clone(),
            ix.iter().map(|a| rn_index(a, map, used)).collect(),
        ),
        Pred::Data(op, a, b) => Pred::Data(*op, rn_data(a, map, used), rn_data(b, map, used)),
        Pred::And(a, b) => Pred::And(
            Box::new(rename_in(a, map, used)),
            Box::new(rename_in(b, map, used)),
        ),
        Pred::Or(a, b) => Pred::Or(
            Box::new(rename_in(a, map, used)),
            Box::new(rename_in(b, map, used)),
        ),
        Pred::Not(a) => Pred::Not(Box::new(rename_in(a, map, used))),
        Pred::Exists(i, n, body) => {
            let mut inner = map.clone();
            inner.remove(i);
            if inner.values().any(|v| v == i) {
                // The binder would capture a renamed free variable: rename it first.
                let j = fresh_ivar(&format!("{i}_"), used);
                inner.insert(i.clone(), j.clone());
                Pred::Exists(j, *n, Box::new(rename_in(body, &inner, used)))
            } else {
                Pred::Exists(i.clone(), *n, Box::new(rename_in(body, &inner, used)))
            }
        }
    }
}

fn rn_index(a: &Index, map: &BTreeMap<IVar, IVar>, used: &mut BTreeSet<IVar>) -> Index {
    match a {
        Index::Aff(f) => {
            let mut terms: BTreeMap<IVar, i64> = BTreeMap::new();
            for (v, c) in &f.terms {
                let v = map.get(v).unwrap_or(v).clone();
                *terms.entry(v).or_insert(0) += c;
            }
            terms.retain(|_, c| *c != 0);
            Index::Aff(Aff {
                terms,
                constant: f.constant,
            })
        }
        Index::Opaque(e) => Index::Opaque(rn_iexpr(e, map, used)),
    }
}

fn rn_data(d: &DataRef, map: &BTreeMap<IVar, IVar>, used: &mut BTreeSet<IVar>) -> DataRef {
    match d {
        DataRef::Const(c) => DataRef::Const(c.clone()),
        DataRef::Read(x, steps) => DataRef::Read(
            x.clone(),
            steps
                .iter()
                .map(|s| match s {
                    PathStep::Proj(k) => PathStep::Proj(*k),
                    PathStep::At(a) => PathStep::At(rn_index(a, map, used)),
                })
                .collect(),
        ),
    }
}

fn rn_iexpr(e: &IExpr, map: &BTreeMap<IVar, IVar>, used: &mut BTreeSet<IVar>) -> IExpr {
    let b = |x: &IExpr, used: &mut BTreeSet<IVar>| Box::new(rn_iexpr(x, map, used));
    match e {
        IExpr::Var(i) => IExpr::Var(map.get(i).unwrap_or(i).clone()),
        IExpr::Const(c) => IExpr::Const(*c),
        IExpr::Add(x, y) => IExpr::Add(b(x, used), b(y, used)),
        IExpr::Mul(x, y) => IExpr::Mul(b(x, used), b(y, used)),
        IExpr::Div(x, y) => IExpr::Div(b(x, used), b(y, used)),
        IExpr::Mod(x, y) => IExpr::Mod(b(x, used), b(y, used)),
        IExpr::Min(x, y) => IExpr::Min(b(x, used), b(y, used)),
        IExpr::Max(x, y) => IExpr::Max(b(x, used), b(y, used)),
        IExpr::Neg(x) => IExpr::Neg(b(x, used)),
        IExpr::Abs(x) => IExpr::Abs(b(x, used)),
        IExpr::Read(v, ix) => IExpr::Read(
            v.clone(),
            ix.iter().map(|a| rn_index(a, map, used)).collect(),
        ),
        IExpr::Floor(d) => IExpr::Floor(rn_data(d, map, used)),
        IExpr::Cond(p, x, y) => {
            IExpr::Cond(Box::new(rename_in(p, map, used)), b(x, used), b(y, used))
        }
    }
}

/// The renaming that maps the binder names of `from` onto those of `to`, position by
/// position (both lists range over the same shape).
pub fn dims_map(from: &Dims, to: &Dims) -> BTreeMap<IVar, IVar> {
    from.iter()
        .zip(to)
        .map(|((a, _), (b, _))| (a.clone(), b.clone()))
        .collect()
}

/// The value variables a predicate reads (relations, integer data, data predicates).
pub fn pred_vars(p: &Pred, out: &mut BTreeSet<String>) {
    match p {
        Pred::True | Pred::False => {}
        Pred::Cmp(_, a, b) => {
            index_vars(a, out);
            index_vars(b, out);
        }
        Pred::Rel(r, ix) => {
            out.insert(r.clone());
            ix.iter().for_each(|a| index_vars(a, out));
        }
        Pred::Data(_, a, b) => {
            data_vars(a, out);
            data_vars(b, out);
        }
        Pred::And(a, b) | Pred::Or(a, b) => {
            pred_vars(a, out);
            pred_vars(b, out);
        }
        Pred::Not(a) | Pred::Exists(_, _, a) => pred_vars(a, out),
    }
}

/// The value variables an index expression reads (integer data, E3).
pub fn index_vars(a: &Index, out: &mut BTreeSet<String>) {
    if let Index::Opaque(e) = a {
        iexpr_vars(e, out);
    }
}

fn data_vars(d: &DataRef, out: &mut BTreeSet<String>) {
    if let DataRef::Read(x, steps) = d {
        out.insert(x.clone());
        for s in steps {
            if let PathStep::At(a) = s {
                index_vars(a, out);
            }
        }
    }
}

fn iexpr_vars(e: &IExpr, out: &mut BTreeSet<String>) {
    match e {
        IExpr::Var(_) | IExpr::Const(_) => {}
        IExpr::Add(a, b)
        | IExpr::Mul(a, b)
        | IExpr::Div(a, b)
        | IExpr::Mod(a, b)
        | IExpr::Min(a, b)
        | IExpr::Max(a, b) => {
            iexpr_vars(a, out);
            iexpr_vars(b, out);
        }
        IExpr::Neg(a) | IExpr::Abs(a) => iexpr_vars(a, out),
        IExpr::Read(x, ix) => {
            out.insert(x.clone());
            ix.iter().for_each(|a| index_vars(a, out));
        }
        IExpr::Floor(d) => data_vars(d, out),
        IExpr::Cond(p, a, b) => {
            pred_vars(p, out);
            iexpr_vars(a, out);
            iexpr_vars(b, out);
        }
    }
}

/// The conjuncts of `p` (nested `&&` flattened, duplicates and `true` dropped).
pub fn conjuncts(p: Pred, out: &mut Vec<Pred>) {
    match p {
        Pred::And(a, b) => {
            conjuncts(*a, out);
            conjuncts(*b, out);
        }
        Pred::True => {}
        p if out.contains(&p) => {}
        p => out.push(p),
    }
}

/// The conjunction of a list.
pub fn and_all(ps: Vec<Pred>) -> Pred {
    ps.into_iter().fold(Pred::True, and)
}

/// `b == e` or `e == b` with `e` affine and free of `b`: `Some(e)`.
fn solved_for(atom: &Pred, b: &str) -> Option<Aff> {
    let Pred::Cmp(adora_core::tl::CmpOp::Eq, Index::Aff(x), Index::Aff(y)) = atom else {
        return None;
    };
    let is_b = |a: &Aff| a.constant == 0 && a.terms.len() == 1 && a.terms.get(b) == Some(&1);
    if is_b(x) && !y.terms.contains_key(b) {
        Some(y.clone())
    } else if is_b(y) && !x.terms.contains_key(b) {
        Some(x.clone())
    } else {
        None
    }
}

/// `∃J. p`, with every binder of `J` that `p` equates to an affine expression `e`
/// eliminated: `∃j:n. (j == e && q) ≡ 0 <= e && e < n && q{j := e}` (exact on integers; the
/// bound guards are left out where `ranges`, the ranges of the free index variables, prove
/// them). Predicates are never costed (rule 4.34), so this changes no cost; it keeps the
/// filters of the adjoint rules small (docs/engines/tssa-derivatives.md).
pub fn exists_solved(dims: &Dims, p: Pred, ranges: &BTreeMap<IVar, u64>) -> Pred {
    let mut conj = Vec::new();
    conjuncts(p, &mut conj);
    let mut rest: Dims = dims.clone();
    let mut ranges = ranges.clone();
    ranges.extend(dims.iter().cloned());
    'outer: loop {
        for (bi, (b, n)) in rest.iter().enumerate() {
            for ai in 0..conj.len() {
                let Some(e) = solved_for(&conj[ai], b) else {
                    continue;
                };
                let (b, n) = (b.clone(), *n);
                conj.remove(ai);
                let mut used = BTreeSet::new();
                for c in &conj {
                    all_ivars(c, &mut used);
                }
                let mut names = adora_core::tl::NameSupply::new();
                for u in &used {
                    names.reserve(u);
                }
                for v in e.terms.keys() {
                    names.reserve(v);
                }
                let ix = Index::Aff(e.clone());
                let mut next = Vec::new();
                for c in conj.drain(..) {
                    match adora_core::tl::subst::subst_index_pred(&c, &b, &ix, &mut names) {
                        Ok(s) => conjuncts(s, &mut next),
                        Err(_) => {
                            // Unreachable for affine indices; keep the binder instead.
                            return exists(dims, and_all(next));
                        }
                    }
                }
                conj = next;
                let nonneg = e.constant >= 0 && e.terms.values().all(|c| *c >= 0);
                if !nonneg {
                    conj.push(Pred::Cmp(
                        adora_core::tl::CmpOp::Le,
                        Index::Aff(Aff::default()),
                        ix.clone(),
                    ));
                }
                let bounded = match (e.constant, e.terms.len()) {
                    (c, 0) => c < n as i64,
                    (0, 1) => e
                        .terms
                        .iter()
                        .all(|(v, c)| *c == 1 && ranges.get(v).is_some_and(|m| *m <= n)),
                    _ => false,
                };
                if !bounded {
                    conj.push(Pred::Cmp(
                        adora_core::tl::CmpOp::Lt,
                        ix,
                        Index::Aff(Aff {
                            terms: BTreeMap::new(),
                            constant: n as i64,
                        }),
                    ));
                }
                rest.remove(bi);
                continue 'outer;
            }
        }
        break;
    }
    exists(&rest, and_all(conj))
}
