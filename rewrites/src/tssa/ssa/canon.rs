//! Fix-up F4's order normalisation (Bernstein et al. 2020, §5.4: "the terms of a simple
//! addition are in order, the factors of a contraction are in order with index variables
//! renamed to match, index variables have canonical names"), as Adora defines it
//! (docs/engines/tssa-lowering.md, "Tensor-SSA normal form"):
//!
//! * the generated dimensions `I` are named `i0, i1, …` by position;
//! * the summed dimensions `J` are ordered by first occurrence in the accesses `U ++ V`
//!   (unused ones last, in their order) and named on from `i|I|`; `exists` binders next;
//! * of the two operand orders of an addition or a binary contraction, the one whose
//!   right-hand side is smaller in the derived total order of [`Rhs`] is kept.

use super::rename::{exists_binders, Renaming};
use adora_core::tl::{Access, ConstVal, Dims, Pred, Rhs};

/// The canonical name of the `k`-th index variable of a statement.
pub fn canonical_name(k: usize) -> String {
    format!("i{k}")
}

fn renaming(order: &[String], preds: &[&Pred]) -> Renaming {
    let mut r = Renaming::default();
    let mut k = 0;
    for v in order {
        r.ivars.insert(v.clone(), canonical_name(k));
        k += 1;
    }
    for p in preds {
        let mut ex = Vec::new();
        exists_binders(p, &mut ex);
        for v in ex {
            r.ivars.insert(v, canonical_name(k));
            k += 1;
        }
    }
    r
}

fn dims_names(d: &Dims) -> Vec<String> {
    d.iter().map(|(v, _)| v.clone()).collect()
}

fn rename_dims(r: &Renaming, d: &Dims) -> Dims {
    d.iter()
        .map(|(v, n)| (r.ivars.get(v).cloned().unwrap_or_else(|| v.clone()), *n))
        .collect()
}

fn rename_access(r: &Renaming, a: &Access) -> Access {
    Access {
        var: a.var.clone(),
        idx: a
            .idx
            .iter()
            .map(|v| r.ivars.get(v).cloned().unwrap_or_else(|| v.clone()))
            .collect(),
    }
}

fn contract(dims: &Dims, sums: &Dims, pred: &Pred, y: &Access, z: Option<&Access>) -> Rhs {
    let mut sum_order: Vec<(String, u64)> = Vec::new();
    let used = y
        .idx
        .iter()
        .chain(z.map(|z| z.idx.iter()).into_iter().flatten());
    for v in used {
        if let Some(s) = sums.iter().find(|(w, _)| w == v) {
            if !sum_order.iter().any(|(w, _)| w == v) {
                sum_order.push(s.clone());
            }
        }
    }
    for s in sums {
        if !sum_order.iter().any(|(w, _)| w == &s.0) {
            sum_order.push(s.clone());
        }
    }
    let mut order = dims_names(dims);
    order.extend(dims_names(&sum_order));
    let r = renaming(&order, &[pred]);
    Rhs::Contract {
        dims: rename_dims(&r, dims),
        sums: rename_dims(&r, &sum_order),
        pred: r.pred(pred),
        y: rename_access(&r, y),
        z: z.map(|z| rename_access(&r, z)),
    }
}

/// The canonical form of a right-hand side (same meaning, same cost).
pub fn canonical(rhs: &Rhs) -> Rhs {
    match rhs {
        Rhs::Input { .. } => rhs.clone(),
        Rhs::Const { dims, pred, value } => {
            let r = renaming(&dims_names(dims), &[pred]);
            Rhs::Const {
                dims: rename_dims(&r, dims),
                pred: r.pred(pred),
                value: match value {
                    ConstVal::Num(c) => ConstVal::Num(c.clone()),
                    ConstVal::Index(a) => ConstVal::Index(r.index(a)),
                },
            }
        }
        Rhs::Map { dims, pred, f, y } => {
            let r = renaming(&dims_names(dims), &[pred]);
            Rhs::Map {
                dims: rename_dims(&r, dims),
                pred: r.pred(pred),
                f: *f,
                y: y.clone(),
            }
        }
        Rhs::Add { dims, p, y, q, z } => {
            let r = renaming(&dims_names(dims), &[p, q]);
            let one = Rhs::Add {
                dims: rename_dims(&r, dims),
                p: r.pred(p),
                y: y.clone(),
                q: r.pred(q),
                z: z.clone(),
            };
            let r2 = renaming(&dims_names(dims), &[q, p]);
            let two = Rhs::Add {
                dims: rename_dims(&r2, dims),
                p: r2.pred(q),
                y: z.clone(),
                q: r2.pred(p),
                z: y.clone(),
            };
            one.min(two)
        }
        Rhs::Contract {
            dims,
            sums,
            pred,
            y,
            z,
        } => {
            let one = contract(dims, sums, pred, y, z.as_ref());
            match z {
                None => one,
                Some(z) => one.min(contract(dims, sums, pred, z, Some(y))),
            }
        }
    }
}
