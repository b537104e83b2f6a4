//! Fig. 11 of seed 000 (§5.1): `build1` commuted under `index` for the four forms that
//! `index` cannot be pushed into (Theorem 5.1's normal forms): a variable, a constant
//! array, an `append` and a `scatter`. The index becomes a `gather` whose binder is the
//! build's binder. The last two rules are the memory-costly ones of the paper: they
//! materialise `build n (i => v)` — `n` whole appends or scatters — before gathering from
//! it, where sequential execution of the left side needs one at a time.
//!
//! `bot/build-index-free` generalises the first two to any array that does not mention the
//! build's binder (horde-ad's first vectorisation rule for index, horde-ad's rule set).
//! In the paper a `let`-bound array is a variable, so `build n (i => a[f i])` with `a`
//! let-bound is stuck and commutes to `gather [n] a (i => f i)`; our encoding has no `let`
//! (a name *is* its value's class), and this rule restores that normal form: without it
//! the index would have to be pushed through `a`'s whole definition, and through every
//! earlier definition of a `let` chain (quadratic output).

use super::search::{custom, Shape2, View};
use super::util::{build, gather, is_constant_array, is_variable, ivar, mentions, nat};
use crate::ir::analysis::{IrAnalysis, IrGraph};
use crate::ir::lang::Ir;
use egg::{Id, Rewrite};

/// The Fig. 11 rules.
pub(crate) fn rules() -> Vec<Rewrite<Ir, IrAnalysis>> {
    let z = Id::from(0usize);
    let on = || Shape2::nested(&Ir::Build([z; 3]), 2, &Ir::Index(Box::new([])));
    vec![
        custom("bot/build-index-var", on(), |eg, c, m, _| {
            let v = m.i(0)?;
            is_variable(eg, v).then_some(())?;
            index_free(eg, c, m)
        }),
        custom("bot/build-index-const", on(), |eg, c, m, _| {
            let v = m.i(0)?;
            is_constant_array(eg, v).then_some(())?;
            index_free(eg, c, m)
        }),
        custom("bot/build-index-free", on(), |eg, c, m, _| {
            let v = m.i(0)?;
            if is_variable(eg, v) || is_constant_array(eg, v) {
                return None;
            }
            index_free(eg, c, m)
        }),
        custom("bot/build-index-append", on(), |eg, c, m, _| {
            let v = m.i(0)?;
            let has = eg[v].nodes.iter().any(|n| matches!(n, Ir::Append(_)));
            has.then_some(())?;
            index_materialised(eg, c, m)
        }),
        custom("bot/build-index-scatter", on(), |eg, c, m, _| {
            let v = m.i(0)?;
            let has = eg[v].nodes.iter().any(|n| matches!(n, Ir::Scatter(_)));
            has.then_some(())?;
            index_materialised(eg, c, m)
        }),
    ]
}

/// `build n i (index v js) → gather [n] v (binders i) (ixs js)` when `i ∉ FV(v)`.
fn index_free(eg: &mut IrGraph, _c: Id, m: &View<'_>) -> Option<Id> {
    let (n, i, v) = (m.o(0)?, m.o(1)?, m.i(0)?);
    let iv = ivar(eg, i)?;
    if mentions(eg, v, iv) || !mentions(eg, m.o(2)?, iv) {
        return None;
    }
    let k = nat(eg, n)?;
    Some(gather(eg, vec![k], v, &[i], &js_inner(m)))
}

/// `build n i (index v js) → gather [n] (build n i v) (binders i) (ixs i js)`; when
/// `i ∉ FV(v)`, `→ gather [n] v (binders i) (ixs js)` (nothing to materialise).
fn index_materialised(eg: &mut IrGraph, _c: Id, m: &View<'_>) -> Option<Id> {
    let (n, i, v) = (m.o(0)?, m.o(1)?, m.i(0)?);
    if !mentions(eg, m.o(2)?, ivar(eg, i)?) {
        return None;
    }
    let k = nat(eg, n)?;
    if !mentions(eg, v, ivar(eg, i)?) {
        return Some(gather(eg, vec![k], v, &[i], &js_inner(m)));
    }
    let bv = build(eg, n, i, v);
    let mut xs = vec![i];
    xs.extend(js_inner(m));
    Some(gather(eg, vec![k], bv, &[i], &xs))
}

/// The index list of the inner `index` node (its children after the array).
fn js_inner(m: &View<'_>) -> Vec<Id> {
    m.inner().into_iter().skip(1).collect()
}
