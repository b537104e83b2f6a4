//! Fig. 10 of seed 000, the rules that substitute or introduce index binders:
//! index-build (β), index-gather, index-transpose and index-reshape (the last two via
//! transpose-/reshape-as-gather with fresh binders derived from the match).

use super::index::{checks, js, on};
use super::search::{custom, View};
use super::subst::substitute;
use super::util::{
    add_int, add_ivar, arr, binders, gather, guarded, index, ivar, ivars, ixs, mentions_any, nat,
    replicate_to, shape_leaf, transpose, zeros,
};
use crate::ir::analysis::{IrAnalysis, IrGraph};
use crate::ir::lang::Ir;
use egg::{Id, Rewrite};

/// The rules of this module.
pub(crate) fn rules() -> Vec<Rewrite<Ir, IrAnalysis>> {
    let z = Id::from(0usize);
    vec![
        custom("bot/index-build", on(Ir::Build([z; 3])), index_build),
        custom("bot/index-gather", on(Ir::Gather([z; 4])), index_gather),
        custom(
            "bot/index-transpose",
            on(Ir::Transpose([z; 2])),
            index_transpose,
        ),
        custom("bot/index-reshape", on(Ir::Reshape([z; 2])), index_reshape),
    ]
}

/// `index (build n i e) (j : js) → index e[i := j] js`, guarded by `0 <= j < n`.
fn index_build(eg: &mut IrGraph, c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (n, i, body) = (nat(eg, m.i(0)?)?, m.i(1)?, m.i(2)?);
    let v = ivar(eg, i)?;
    let js = js(m);
    let (&j, rest) = js.split_first()?;
    let rest = rest.to_vec();
    let ty = arr(eg, c)?;
    guarded(eg, &[(j, n)], &ty, |eg| {
        let s = substitute(eg, &[body], &[(v, j)])?;
        Some(index(eg, s[0], &rest))
    })
}

/// `index (gather (s_1..s_b) src (binders b_1..b_b) (ixs xs)) (j_1..j_m)`, with
/// `t = min(m, b)`: substitutes `b_d := j_d` for `d <= t` in `xs`, guarded by
/// `0 <= j_d < s_d`; `→ index src (xs' ++ j_(b+1)..j_m)` when `m >= b`, else
/// `→ gather (s_(m+1)..) src (binders b_(m+1)..) (ixs xs')`.
fn index_gather(eg: &mut IrGraph, c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (sh, src) = (shape_leaf(eg, m.i(0)?)?, m.i(1)?);
    let bs = binders(eg, m.i(2)?)?;
    let xs = ixs(eg, m.i(3)?)?;
    let vs = ivars(eg, &bs)?;
    let js = js(m);
    let t = js.len().min(bs.len());
    if sh.len() != bs.len() || js[..t].iter().any(|&j| mentions_any(eg, j, &vs[t..])) {
        return None;
    }
    let ck = checks(&js[..t], &sh)?;
    let ty = arr(eg, c)?;
    let map: Vec<_> = vs[..t]
        .iter()
        .copied()
        .zip(js[..t].iter().copied())
        .collect();
    guarded(eg, &ck, &ty, |eg| {
        let xs2 = substitute(eg, &xs, &map)?;
        if js.len() >= bs.len() {
            let mut all = xs2;
            all.extend_from_slice(&js[t..]);
            Some(index(eg, src, &all))
        } else {
            Some(gather(eg, sh[t..].to_vec(), src, &bs[t..], &xs2))
        }
    })
}

/// `index (transpose p e) js` with `k = |js|`: when `p` maps the first `k` dimensions
/// among themselves, `→ transpose p' (index e js')` (`js'[p[d]] = js[d]`,
/// `p' = [p[d] - k | d >= k]`); otherwise transpose-as-gather: `→ gather (sh[k..]) e
/// (binders t_k..) (ixs x_0..)` with `x_(p[d]) = js[d]` for `d < k` and `t_d` otherwise
/// (fresh binders `t_d` derived from the match).
fn index_transpose(eg: &mut IrGraph, c: Id, m: &View<'_>, rule: &str) -> Option<Id> {
    let (perm, e) = (shape_leaf(eg, m.i(0)?)?, m.i(1)?);
    let js = js(m);
    let (k, r) = (js.len(), perm.len());
    let res = arr(eg, m.o(0)?)?.1;
    if k > r || res.len() != r || perm.iter().any(|&p| p >= r) {
        return None;
    }
    let mut x: Vec<Option<Id>> = vec![None; r];
    if perm[..k].iter().all(|&p| p < k) {
        for d in 0..k {
            x[perm[d]] = Some(js[d]);
        }
        let js2: Vec<Id> = x[..k].iter().copied().collect::<Option<_>>()?;
        let ie = index(eg, e, &js2);
        let rest: Vec<usize> = perm[k..].iter().map(|&p| p - k).collect();
        return Some(transpose(eg, rest, ie));
    }
    let mut bs = Vec::new();
    let key = fresh_key(eg, rule, m.o(0)?, k);
    for d in 0..r {
        if d < k {
            x[perm[d]] = Some(js[d]);
        } else {
            let v = eg.analysis.fresh_ivar(&key, c, d, "t", res[d]);
            let b = add_ivar(eg, v);
            bs.push(b);
            x[perm[d]] = Some(b);
        }
    }
    let xs: Vec<Id> = x.into_iter().collect::<Option<_>>()?;
    Some(gather(eg, res[k..].to_vec(), e, &bs, &xs))
}

/// `index (reshape s e) js` (reshape-as-gather): with fresh binders `r_d` for the
/// dimensions `d >= k` of `s`, the flat position `F = Σ y_d * stride_s(d)` (`y_d = j_d`
/// for `d < k`, `r_d` otherwise) addresses `e` at `x_c = (F / stride_e(c)) % e_c`;
/// `→ gather (s[k..]) e (binders r_k..) (ixs x_0..)` (an `index` when `k = |s|`), guarded
/// by `0 <= j_d < s_d`. A zero-sized reshape is the zero array.
fn index_reshape(eg: &mut IrGraph, c: Id, m: &View<'_>, rule: &str) -> Option<Id> {
    let (sh, e) = (shape_leaf(eg, m.i(0)?)?, m.i(1)?);
    let se = arr(eg, e)?.1;
    let js = js(m);
    let (k, q) = (js.len(), sh.len());
    let ty = arr(eg, c)?;
    let ck = checks(&js, &sh)?;
    if sh.iter().product::<usize>() == 0 {
        return Some(zeros(eg, ty.0, &ty.1));
    }
    if se.is_empty() {
        let rest = sh[k..].to_vec();
        return guarded(eg, &ck, &ty, |eg| Some(replicate_to(eg, e, &rest)));
    }
    let mut y = js.clone();
    let mut bs = Vec::new();
    let key = fresh_key(eg, rule, m.o(0)?, k);
    for (d, &extent) in sh.iter().enumerate().skip(k) {
        let v = eg.analysis.fresh_ivar(&key, c, d, "r", extent);
        let b = add_ivar(eg, v);
        bs.push(b);
        y.push(b);
    }
    guarded(eg, &ck, &ty, |eg| {
        let flat = flat_position(eg, &y, &sh);
        let xs = unflatten(eg, flat, &se);
        if k == q {
            Some(index(eg, e, &xs))
        } else {
            Some(gather(eg, sh[k..].to_vec(), e, &bs, &xs))
        }
    })
}

/// The derivation key of the fresh binders of a match: the rule, the indexed array's
/// class and the number of indices. A class can hold several matching `index` members
/// (indexing arrays of different shapes), so the class alone does not determine the
/// binders' extents.
fn fresh_key(eg: &IrGraph, rule: &str, array: Id, k: usize) -> String {
    format!("{rule} {} {k}", eg.find(array))
}

/// `Σ y_d * stride(d)` over the dimensions of `shape` (dimensions of size 1 skipped:
/// their index is 0 in range).
fn flat_position(eg: &mut IrGraph, y: &[Id], shape: &[usize]) -> Id {
    let mut acc: Option<Id> = None;
    for (d, &yd) in y.iter().enumerate() {
        if shape[d] == 1 {
            continue;
        }
        let stride: usize = shape[d + 1..].iter().product();
        let term = if stride == 1 {
            yd
        } else {
            let s = add_int(eg, stride as i64);
            eg.add(Ir::Mul([yd, s]))
        };
        acc = Some(match acc {
            None => term,
            Some(a) => eg.add(Ir::Add([a, term])),
        });
    }
    acc.unwrap_or_else(|| add_int(eg, 0))
}

/// The multi-index of flat position `f` in `shape`: `(f / stride(c)) % shape[c]` (no `%`
/// for the outermost dimension, no `/` for stride 1, `0` for dimensions of size 1).
fn unflatten(eg: &mut IrGraph, f: Id, shape: &[usize]) -> Vec<Id> {
    (0..shape.len())
        .map(|c| {
            if shape[c] == 1 {
                return add_int(eg, 0);
            }
            let stride: usize = shape[c + 1..].iter().product();
            let mut v = f;
            if stride != 1 {
                let s = add_int(eg, stride as i64);
                v = eg.add(Ir::Div([v, s]));
            }
            if c > 0 {
                let n = add_int(eg, shape[c] as i64);
                v = eg.add(Ir::Mod([v, n]));
            }
            v
        })
        .collect()
}
