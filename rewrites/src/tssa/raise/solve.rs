//! Elimination of summation binders by affine equalities (docs/engines/tssa-lowering.md,
//! "Raising"): a conjunct `a == b` of a contraction's predicate in which a summation
//! variable `j` has coefficient ±1 is solved for `j`; the sum over `j` disappears, the
//! conjunct is replaced by the bounds guard `0 <= sol < n_j`. A solution mentions no
//! variable solved before it, so substituting solutions never cycles. Other sums stay.

use adora_core::tl::{Aff, CmpOp, Dims, Index, Pred};

/// The result: solved binders with their solutions, the binders kept, the remaining
/// predicate (without the solved conjuncts and without the bounds guards).
pub struct Solved {
    /// `j := a`, in the order solved.
    pub solved: Vec<(String, Aff)>,
    /// The summation binders that stay.
    pub kept: Dims,
    /// The conjuncts not used.
    pub rest: Pred,
}

fn conjuncts(p: &Pred, out: &mut Vec<Pred>) {
    match p {
        Pred::And(a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        Pred::True => {}
        p => out.push(p.clone()),
    }
}

/// Solves `c` for `j` if `c` is `a == b` with coefficient ±1 on `j` and no variable of
/// `avoid` in the solution.
fn solve_for(c: &Pred, j: &str, avoid: &[String]) -> Option<Aff> {
    let Pred::Cmp(CmpOp::Eq, Index::Aff(a), Index::Aff(b)) = c else {
        return None;
    };
    let d = crate::tssa::lower::mk::aff_add_scaled(a, -1, b)?;
    let k = *d.terms.get(j)?;
    if k != 1 && k != -1 {
        return None;
    }
    let mut rest = d.clone();
    rest.terms.remove(j);
    if rest.terms.keys().any(|v| avoid.contains(v)) {
        return None;
    }
    // k·j + rest = 0  ⇒  j = -k·rest (k = ±1).
    crate::tssa::lower::mk::aff_add_scaled(&Aff::default(), -k, &rest)
}

/// Eliminates what it can of `sums` from `pred`.
pub fn eliminate(sums: &Dims, pred: &Pred) -> Solved {
    let mut cs = Vec::new();
    conjuncts(pred, &mut cs);
    let mut solved: Vec<(String, Aff)> = Vec::new();
    let mut kept = Vec::new();
    for (j, n) in sums {
        let avoid: Vec<String> = solved
            .iter()
            .map(|(v, _)| v.clone())
            .chain([j.clone()])
            .collect();
        let found = cs
            .iter()
            .enumerate()
            .find_map(|(k, c)| solve_for(c, j, &avoid).map(|a| (k, a)));
        match found {
            Some((k, a)) => {
                cs.remove(k);
                solved.push((j.clone(), a));
            }
            None => kept.push((j.clone(), *n)),
        }
    }
    let rest = cs.into_iter().fold(Pred::True, crate::tssa::lower::mk::and);
    Solved { solved, kept, rest }
}
