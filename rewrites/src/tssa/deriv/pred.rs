//! Predicate and index helpers of the derivative transforms: conjunction and disjunction
//! with `true`/`false` folded, existential closure over a list of binders, equalities
//! `K == U` between index-variable lists, and capture-avoiding renaming of free index
//! variables (the adjoint rules of *Differentiating a Tensor Language* §6.3 move filter
//! predicates between the binder lists of different statements).

use adora_core::tl::{Aff, DataRef, Dims, IExpr, IVar, Index, PathStep, Pred};
use std::collections::{BTreeMap, BTreeSet};

/// `p && q`, folding `true` and `false`.
pub fn and(p: Pred, q: Pred) -> Pred {
    match (p, q) {
        (Pred::True, q) => q,
        (p, Pred::True) => p,
        (Pred::False, _) | (_, Pred::False) => Pred::False,
        (p, q) => Pred::And(Box::new(p), Box::new(q)),
    }
}

/// `p || q`, folding `true` and `false`.
pub fn or(p: Pred, q: Pred) -> Pred {
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
