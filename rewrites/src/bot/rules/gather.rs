//! Gather simplifications that keep bot's results small (horde-ad's rule set,
//! `astGatherKnobsS`). Each keeps out-of-bounds semantics exactly: fusion and the
//! dropping of a replicated dimension fire only when the interval bounds prove the
//! substituted indices inside the extents they replace (or, for replicate, re-encode the
//! check in the next index component).

use super::search::{custom, Shape2, View};
use super::subst::substitute;
use super::util::{
    add_int, arr, binders, depth_within, gather, in_range_cond, index, is_zero_fill, ivar, ivars,
    ixs, mentions, mentions_any, nat, range, shape_leaf, zeros, Range,
};
use crate::ir::analysis::{IrAnalysis, IrGraph};
use crate::ir::lang::Ir;
use egg::{Id, Rewrite};

/// The deepest index component `bot/gather-gather` produces (a leaf has depth 1).
pub(crate) const MAX_FUSED_DEPTH: usize = 6;

/// The gather rules.
pub(crate) fn rules() -> Vec<Rewrite<Ir, IrAnalysis>> {
    let z = Id::from(0usize);
    let g = Ir::Gather([z; 4]);
    let over = |inner: Ir| Shape2::nested(&g, 1, &inner).unless_replicated(1);
    let node = || Shape2::node(&g).unless_replicated(1);
    vec![
        custom("bot/gather-to-index", node(), gather_to_index),
        custom("bot/gather-identity", node(), gather_identity),
        custom("bot/gather-unused-binder", node(), gather_unused),
        custom("bot/gather-trailing-eta", node(), gather_eta),
        custom(
            "bot/gather-replicate",
            Shape2::nested(&g, 1, &Ir::Replicate([z; 2])),
            gather_replicate,
        ),
        custom("bot/gather-gather", over(Ir::Gather([z; 4])), gather_gather),
        custom(
            "bot/gather-index",
            over(Ir::Index(Box::new([]))),
            gather_index,
        ),
        custom(
            "bot/gather-transpose",
            over(Ir::Transpose([z; 2])),
            gather_transpose,
        ),
    ]
}

/// The parts of a matched gather: shape, source, binder classes, index classes.
struct Parts {
    sh: Vec<usize>,
    src: Id,
    bs: Vec<Id>,
    xs: Vec<Id>,
}

fn parts(eg: &IrGraph, m: &View<'_>) -> Option<Parts> {
    let p = Parts {
        sh: shape_leaf(eg, m.o(0)?)?,
        src: m.o(1)?,
        bs: binders(eg, m.o(2)?)?,
        xs: ixs(eg, m.o(3)?)?,
    };
    (p.sh.len() == p.bs.len()).then_some(p)
}

/// `gather sh src bs xs` with no binders left: `index src xs` (or `src`).
fn finish(eg: &mut IrGraph, sh: Vec<usize>, src: Id, bs: &[Id], xs: &[Id]) -> Id {
    if bs.is_empty() {
        index(eg, src, xs)
    } else {
        gather(eg, sh, src, bs, xs)
    }
}

/// `gather [] src (binders) (ixs xs) → index src xs` (`→ src` when `xs` is empty).
fn gather_to_index(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let p = parts(eg, m)?;
    p.bs.is_empty().then(|| index(eg, p.src, &p.xs))
}

/// `gather s src (binders b_1..b_k) (ixs b_1..b_k) → src` when `s` is the first `k`
/// dimensions of `src`.
fn gather_identity(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let p = parts(eg, m)?;
    let ss = arr(eg, p.src)?.1;
    let same = p.xs.len() == p.bs.len()
        && p.xs
            .iter()
            .zip(&p.bs)
            .all(|(&x, &b)| eg.find(x) == eg.find(b))
        && ss.len() >= p.sh.len()
        && ss[..p.sh.len()] == p.sh[..];
    (same && !p.bs.is_empty()).then_some(p.src)
}

/// `gather (k : s) src (binders b bs) (ixs xs) → replicate k (gather s src (binders bs)
/// (ixs xs))` when `b` occurs in no `xs` (the leading binder is unused).
fn gather_unused(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let p = parts(eg, m)?;
    let &b = p.bs.first()?;
    let v = ivar(eg, b)?;
    if p.xs.iter().any(|&x| mentions(eg, x, v)) {
        return None;
    }
    let inner = finish(eg, p.sh[1..].to_vec(), p.src, &p.bs[1..], &p.xs);
    let k = super::util::add_nat(eg, p.sh[0]);
    Some(eg.add(Ir::Replicate([k, inner])))
}

/// `gather (s ++ [k]) src (binders bs b) (ixs xs b) → gather s src (binders bs) (ixs xs)`
/// when `b` occurs nowhere else and the source dimension it indexes has size `k`
/// (trailing eta).
fn gather_eta(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let p = parts(eg, m)?;
    let (&b, bs) = p.bs.split_last()?;
    let (&x, xs) = p.xs.split_last()?;
    let v = ivar(eg, b)?;
    let ss = arr(eg, p.src)?.1;
    let ok = eg.find(x) == eg.find(b)
        && !xs.iter().any(|&y| mentions(eg, y, v))
        && ss.get(p.xs.len() - 1) == p.sh.last();
    ok.then(|| finish(eg, p.sh[..p.sh.len() - 1].to_vec(), p.src, bs, xs))
}

/// `gather s (replicate n e) bs (ixs x0 xs) → gather s e bs (ixs xs)` when the bounds
/// prove `0 <= x0 < n` (zeros when they refute it); otherwise, when `xs = x1 xs'` is not
/// empty, `→ gather s e bs (ixs select(0 <= x0 < n, x1, -1) xs')` (an out-of-range `x0`
/// turns into an out-of-range `x1`, which reads 0 as before). A gather of a fill of zeros
/// is the zero array of its type.
fn gather_replicate(eg: &mut IrGraph, c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let p = parts(eg, m)?;
    let (n, e) = (nat(eg, m.i(0)?)?, m.i(1)?);
    if is_zero_fill(eg, e) {
        let ty = arr(eg, c)?;
        return Some(zeros(eg, ty.0, &ty.1));
    }
    let (&x0, rest) = p.xs.split_first()?;
    match range(eg, x0, n) {
        Range::In => Some(gather(eg, p.sh, e, &p.bs, rest)),
        Range::Out => {
            let ty = arr(eg, c)?;
            Some(zeros(eg, ty.0, &ty.1))
        }
        Range::Unknown => {
            let (&x1, more) = rest.split_first()?;
            let cond = in_range_cond(eg, &[(x0, n)])?;
            let minus = add_int(eg, -1);
            let x1g = eg.add(Ir::Select([cond, x1, minus]));
            let mut xs = vec![x1g];
            xs.extend_from_slice(more);
            Some(gather(eg, p.sh, e, &p.bs, &xs))
        }
    }
}

/// Gather fusion: `gather s (gather s2 src (binders bs2) (ixs xs2)) (binders bs) (ixs ys)`
/// with `t = min(|ys|, |bs2|)` → `gather s src (binders bs) (ixs xs2[bs2 := ys] ++
/// ys[t..])` when `|ys| >= |bs2|`, else `gather (s ++ s2[|ys|..]) src (binders bs ++
/// bs2[|ys|..]) (ixs xs2[bs2 := ys])`. Fires only when the bounds prove every substituted
/// `ys_d` inside `[0, s2_d)` (so out-of-bounds reads are unchanged) and no name clashes.
fn gather_gather(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let p = parts(eg, m)?;
    let sh2 = shape_leaf(eg, m.i(0)?)?;
    let (src, bs2, xs2) = (m.i(1)?, binders(eg, m.i(2)?)?, ixs(eg, m.i(3)?)?);
    let (vs, vs2) = (ivars(eg, &p.bs)?, ivars(eg, &bs2)?);
    if sh2.len() != bs2.len() || vs.iter().any(|v| vs2.contains(v)) {
        return None;
    }
    let ys = p.xs;
    let t = ys.len().min(bs2.len());
    if ys.iter().any(|&y| mentions_any(eg, y, &vs2))
        || (0..t).any(|d| range(eg, ys[d], sh2[d]) != Range::In)
    {
        return None;
    }
    // Only small index maps are fused (horde-ad's `ixIsSmall`): a fused component is no
    // deeper than MAX_FUSED_DEPTH. Fusion composes index maps, and through e-graph cycles
    // (a class of zeros holds every gather of itself) it would compose without end.
    let b = ys[..t]
        .iter()
        .map(|&y| depth_within(eg, y, MAX_FUSED_DEPTH))
        .try_fold(1, |acc, d| d.map(|d| acc.max(d)))?;
    let fits = xs2
        .iter()
        .all(|&x| depth_within(eg, x, MAX_FUSED_DEPTH + 1 - b).is_some());
    if !fits {
        return None;
    }
    let map: Vec<_> = vs2[..t]
        .iter()
        .copied()
        .zip(ys[..t].iter().copied())
        .collect();
    let xs2 = substitute(eg, &xs2, &map)?;
    if ys.len() >= bs2.len() {
        let mut all = xs2;
        all.extend_from_slice(&ys[t..]);
        Some(finish(eg, p.sh, src, &p.bs, &all))
    } else {
        let mut sh = p.sh;
        sh.extend_from_slice(&sh2[t..]);
        let mut bs = p.bs;
        bs.extend_from_slice(&bs2[t..]);
        Some(gather(eg, sh, src, &bs, &xs2))
    }
}

/// `gather s (index v js) bs (ixs xs) → gather s v bs (ixs js ++ xs)` (the source's index
/// joins the index map; `js` cannot mention the gather's binders).
fn gather_index(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let p = parts(eg, m)?;
    let inner = m.inner();
    let (&v, js) = inner.split_first()?;
    let vs = ivars(eg, &p.bs)?;
    if js.iter().any(|&j| mentions_any(eg, j, &vs)) {
        return None;
    }
    let mut all = js.to_vec();
    all.extend_from_slice(&p.xs);
    Some(gather(eg, p.sh, v, &p.bs, &all))
}

/// `gather s (transpose p e) bs (ixs xs) → gather s e bs (ixs xs')` with `xs'[p[d]] =
/// xs[d]`, when `p` leaves the dimensions after the first `|xs|` in place.
fn gather_transpose(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let p = parts(eg, m)?;
    let (perm, e) = (shape_leaf(eg, m.i(0)?)?, m.i(1)?);
    let k = p.xs.len();
    if k > perm.len() || (k..perm.len()).any(|d| perm[d] != d) || perm[..k].iter().any(|&q| q >= k)
    {
        return None;
    }
    let mut xs = p.xs.clone();
    for d in 0..k {
        xs[perm[d]] = p.xs[d];
    }
    Some(gather(eg, p.sh, e, &p.bs, &xs))
}
