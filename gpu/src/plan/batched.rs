//! Batched contractions (docs/backend.md, "Batched products"): a sum over one index of
//! a product whose two sides share a batch index, `out[β, i, j] = Σ_r f(β, i, r) ·
//! g(β, r, j)` with the output's indices in any order, run as one matrix product per
//! batch index on strided views ([`KernelKind::Batched`]). Gradient programs give these:
//! GMM's triangular factor applied to every point, and its transpose.
//!
//! | form of the summed element                       | result                                 |
//! |--------------------------------------------------|----------------------------------------|
//! | factors each reading `β, i, r` or `β, r, j` only  | each side stored over the indices it   |
//! |   (`j` absent: a batched matrix-vector product)  |   reads, in its loads' order; `Batched` |
//! | a factor `c ? y : 0`, `c` reading `r` and one     | `c ? (that side) : 0` stored as the    |
//! |   side's indices                                 |   side, `c` as its mask                |
//! | a factor `c ? y : 0`, `c` not reading `r`         | `c ? Σ_r …y… : Σ_r …0…`, the second     |
//! |                                                  |   reduction over the indices it reads  |
//!
//! The last row is exact: `c` is the same at every `r`. After the middle row the
//! outputs that come out zero are recomputed as the program sums them ([`Zeros`]: from
//! the sides and the stored conditions when the selects are around the whole product,
//! else by the reduction replaced), so a zero has the program's sign (docs/backend.md,
//! "Numbers"). Such a product differs from the program only where a side holds a
//! non-finite value (`0 · inf` is NaN, the program's `c ? x · inf : 0` is 0); the
//! executor then runs the reduction it replaced (`exact`).

use super::arr::{Arr, Src};
use super::lower::Lower;
use super::sx::{Bin, BufId, Sx, VarId};
use super::{KernelKind, RedOp, Zeros};
use adora_core::types::Base;
use std::rc::Rc;

/// Whether `s` is the constant `+0.0` (not `-0.0`: a select's zero is kept bit for bit).
fn is_pos_zero(s: &Sx) -> bool {
    matches!(s, Sx::Const(z) if z.to_bits() == 0)
}

/// The first select `c ? y : +0` of the product tree `s` (through selects of that form)
/// whose condition does not read `r`: `c`, `s` with the select replaced by `y`, and `s`
/// with it replaced by its zero.
fn outer_select(s: &Sx, r: VarId) -> Option<(Sx, Sx, Sx)> {
    match s {
        Sx::Bin(Bin::Mul, a, b) => {
            if let Some((c, ya, za)) = outer_select(a, r) {
                let b = (**b).clone();
                return Some((
                    c,
                    Sx::bin(Bin::Mul, ya, b.clone()),
                    Sx::bin(Bin::Mul, za, b),
                ));
            }
            let (c, yb, zb) = outer_select(b, r)?;
            let a = (**a).clone();
            Some((
                c,
                Sx::bin(Bin::Mul, a.clone(), yb),
                Sx::bin(Bin::Mul, a, zb),
            ))
        }
        Sx::Select(c, y, z) if is_pos_zero(z) => {
            if !c.mentions(r) {
                return Some(((**c).clone(), (**y).clone(), (**z).clone()));
            }
            let (c2, y2, z2) = outer_select(y, r)?;
            let (c, z) = ((**c).clone(), (**z).clone());
            Some((
                c2,
                Sx::select(c.clone(), y2, z.clone()),
                Sx::select(c, z2, z),
            ))
        }
        _ => None,
    }
}

/// The factors of a product tree, through selects `c ? y : +0` (their conditions go to
/// `masks`, their `y` is split further).
fn split<'s>(s: &'s Sx, fs: &mut Vec<&'s Sx>, masks: &mut Vec<&'s Sx>) {
    match s {
        Sx::Bin(Bin::Mul, a, b) => {
            split(a, fs, masks);
            split(b, fs, masks);
        }
        Sx::Select(c, y, z) if is_pos_zero(z) => {
            masks.push(c);
            split(y, fs, masks);
        }
        s => fs.push(s),
    }
}

/// One side of the product: its factors and the conditions it is stored under.
#[derive(Default)]
struct Side<'s> {
    fs: Vec<&'s Sx>,
    masks: Vec<&'s Sx>,
}

impl Side<'_> {
    fn mentions(&self, v: VarId) -> bool {
        self.fs.iter().chain(&self.masks).any(|f| f.mentions(v))
    }
}

/// The two sides for batch index `beta`, row index `i` and column index `j` (none for a
/// matrix-vector product): every factor and condition reads `i` or `j`, not both.
fn sides<'s>(
    fs: &[&'s Sx],
    masks: &[&'s Sx],
    i: VarId,
    j: Option<VarId>,
    r: VarId,
) -> Option<(Side<'s>, Side<'s>)> {
    let (mut left, mut right) = (Side::default(), Side::default());
    let reads_j = |f: &Sx| j.is_some_and(|j| f.mentions(j));
    for (items, is_mask) in [(fs, false), (masks, true)] {
        for &f in items {
            let side = match (f.mentions(i), reads_j(f)) {
                (true, true) => return None,
                (true, false) => &mut left,
                (false, true) => &mut right,
                // Without a column index the right side is what reads neither `i` nor
                // `j`: the vector.
                (false, false) if j.is_none() => &mut right,
                (false, false) => &mut left,
            };
            if is_mask {
                side.masks.push(f);
            } else {
                side.fs.push(f);
            }
        }
    }
    // A genuine contraction: both sides read `r`, the left `i`, the right `j`.
    let ok = left.mentions(i)
        && left.mentions(r)
        && right.mentions(r)
        && j.is_none_or(|j| right.mentions(j))
        && !right.fs.is_empty();
    ok.then_some((left, right))
}

/// Row-major strides of `shape`.
fn strides(shape: &[usize]) -> Vec<usize> {
    let mut st = vec![1; shape.len()];
    for t in (0..shape.len().saturating_sub(1)).rev() {
        st[t] = st[t + 1] * shape[t + 1];
    }
    st
}

/// The strides of `order` (variables, `None` for an absent one) in a buffer indexed by
/// `params` with strides `st`: 0 for a variable the buffer is not indexed by.
fn strides_of(order: [Option<VarId>; 3], params: &[VarId], st: &[usize]) -> [usize; 3] {
    order.map(|v| {
        v.and_then(|v| params.iter().position(|&p| p == v))
            .map_or(0, |t| st[t])
    })
}

/// `side` read in place: one load of a buffer by distinct index variables of `order`
/// within its dimensions.
fn in_place(
    l: &Lower,
    side: &Side<'_>,
    order: [Option<VarId>; 3],
) -> Option<(BufId, Option<BufId>, [usize; 3])> {
    let ([Sx::Load(b, sh, ix)], []) = (&side.fs[..], &side.masks[..]) else {
        return None;
    };
    let vs: Vec<VarId> = ix
        .iter()
        .map(|i| match i {
            Sx::Var(v) if order.contains(&Some(*v)) => Some(*v),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let distinct = vs.iter().enumerate().all(|(t, v)| !vs[..t].contains(v));
    let fits = vs.iter().zip(sh).all(|(v, &n)| l.ids.range[v] <= n);
    (distinct && fits).then(|| (*b, None, strides_of(order, &vs, &strides(sh))))
}

/// The indices of `order` that `side` reads, in that order.
fn wanted(side: &Side<'_>, order: [Option<VarId>; 3]) -> Vec<VarId> {
    order
        .iter()
        .flatten()
        .copied()
        .filter(|&v| side.mentions(v))
        .collect()
}

/// The elements `store` would write for `side`: none when it is read in place.
fn stored_len(l: &Lower, side: &Side<'_>, order: [Option<VarId>; 3]) -> usize {
    if in_place(l, side, order).is_some() {
        return 0;
    }
    wanted(side, order).iter().map(|v| l.ids.range[v]).product()
}

/// Stores `side` as a buffer over the indices of `order` it reads and gives its strides
/// for `order`. A side that is one load of a buffer by distinct index variables is read
/// in place; otherwise a map kernel stores it, in the order of the indices of its first
/// load that reads them all (so that kernel reads its own points), else in `order`.
fn store(
    l: &mut Lower,
    side: &Side<'_>,
    order: [Option<VarId>; 3],
    with_mask: bool,
) -> (BufId, Option<BufId>, [usize; 3]) {
    if let Some(read) = in_place(l, side, order) {
        return read;
    }
    let wanted = wanted(side, order);
    let mut params = wanted.clone();
    for f in &side.fs {
        let mut found = None;
        f.visit(&mut |n| {
            if let (None, Sx::Load(_, _, ix)) = (&found, n) {
                let vs: Vec<VarId> = ix
                    .iter()
                    .filter_map(|i| match i {
                        Sx::Var(v) => Some(*v),
                        _ => None,
                    })
                    .collect();
                if vs.len() == wanted.len() && wanted.iter().all(|w| vs.contains(w)) {
                    found = Some(vs);
                }
            }
        });
        if let Some(vs) = found {
            params = vs;
            break;
        }
    }
    let masked = |mut body: Sx| {
        for c in side.masks.iter().rev() {
            body = Sx::select((*c).clone(), body, Sx::Const(0.0));
        }
        body
    };
    // A side of conditions only (`c ? 1 : 0`) is its mask.
    let body = match side.fs.split_first() {
        Some((f0, rest)) => rest
            .iter()
            .fold((*f0).clone(), |a, f| Sx::bin(Bin::Mul, a, (*f).clone())),
        None => Sx::Const(1.0),
    };
    let shape: Vec<usize> = params.iter().map(|v| l.ids.range[v]).collect();
    let mut put = |body: Sx| {
        l.materialize(&Arr {
            base: Base::R,
            shape: shape.clone(),
            src: Src::Fn {
                params: params.clone(),
                body: Rc::new(body),
            },
        })
    };
    let b = put(masked(body));
    let mask = (with_mask && !side.masks.is_empty()).then(|| put(masked(Sx::Const(1.0))));
    (b, mask, strides_of(order, &params, &strides(&shape)))
}

/// `out[vars] = init + Σ_{r < k} body` as a batched matrix product, or `None`. `init`
/// must be a zero and `vars` two or three distinct index variables other than `r`.
pub(crate) fn recognise(
    l: &mut Lower,
    vars: &[VarId],
    r: VarId,
    k: usize,
    init: &Sx,
    body: &Sx,
) -> Option<KernelKind> {
    let dims: Vec<usize> = vars.iter().map(|v| l.ids.range[v]).collect();
    let distinct = vars.iter().enumerate().all(|(t, v)| !vars[..t].contains(v));
    if *init != Sx::Const(0.0)
        || !(2..=3).contains(&vars.len())
        || !distinct
        || vars.contains(&r)
        || k == 0
        || dims.contains(&0)
    {
        return None;
    }
    let exact = || KernelKind::Reduce {
        vars: vars.to_vec(),
        red_vars: vec![r],
        red: vec![k],
        op: RedOp::Add,
        init: init.clone(),
        body: body.clone(),
    };
    if let Some((c, y, z)) = outer_select(body, r) {
        // `c` does not change with `r`: `c ? Σ …y… : Σ …0…`, when the first is a product
        // and the second reads fewer indices (else it would cost what the sum did).
        let zvars: Vec<VarId> = vars.iter().copied().filter(|&v| z.mentions(v)).collect();
        if zvars.len() == vars.len() {
            return None;
        }
        let p = recognise(l, vars, r, k, init, &y)?;
        let pb = l.buffer(Base::R, dims.clone());
        l.emit(pb, p.tag("reduce"), p);
        let zdims: Vec<usize> = zvars.iter().map(|v| l.ids.range[v]).collect();
        let zb = l.reduce_kernel(Base::R, zvars.clone(), vec![r], RedOp::Add, init.clone(), z);
        let load = |b: BufId, vs: &[VarId], sh: Vec<usize>| {
            Sx::Load(b, sh, vs.iter().map(|&v| Sx::Var(v)).collect())
        };
        return Some(KernelKind::Map {
            vars: vars.to_vec(),
            body: Sx::select(c, load(pb, vars, dims), load(zb, &zvars, zdims)),
        });
    }
    // Selects around the whole product drop a term as `+0`; one inside the product as
    // `x · +0`, whose sign the sides do not keep.
    let (mut masks, mut rest) = (Vec::new(), body);
    while let Sx::Select(c, y, z) = rest {
        if !is_pos_zero(z) {
            break;
        }
        masks.push(&**c);
        rest = y;
    }
    let top = masks.len();
    let mut fs = Vec::new();
    split(rest, &mut fs, &mut masks);
    if masks.iter().any(|c| !c.mentions(r)) {
        return None;
    }
    let inner = masks.len() > top;
    let out_st = strides(&dims);
    for (t, &beta) in vars.iter().enumerate() {
        let others: Vec<VarId> = vars.iter().copied().filter(|&v| v != beta).collect();
        let (i, j) = match others[..] {
            [i, j] => (i, Some(j)),
            [i] => (i, None),
            _ => return None,
        };
        let Some((left, right)) = sides(&fs, &masks, i, j, r)
            .or_else(|| j.and_then(|j| sides(&fs, &masks, j, Some(i), r)))
        else {
            continue;
        };
        // The roles as matched: `left` reads the row index.
        let (i, j) = if left.mentions(i) {
            (i, j)
        } else {
            (j.expect("a column index"), Some(i))
        };
        let (oa, ob) = ([Some(beta), Some(i), Some(r)], [Some(beta), Some(r), j]);
        // A side stored over the whole summed space (a batched matrix-vector product whose
        // matrix is computed) would cost what the reduction costs.
        let space: usize = dims.iter().product::<usize>() * k;
        if stored_len(l, &left, oa).max(stored_len(l, &right, ob)) >= space {
            continue;
        }
        let (a, ma, sa) = store(l, &left, oa, !inner);
        let (b, mb, sb) = store(l, &right, ob, !inner);
        let zeros = if inner {
            Zeros::Exact
        } else if masks.is_empty() {
            Zeros::Sides
        } else {
            Zeros::Masks([ma, mb])
        };
        let pos = |v: VarId| vars.iter().position(|&x| x == v).map_or(0, |p| out_st[p]);
        return Some(KernelKind::Batched {
            a,
            b,
            count: dims[t],
            m: l.ids.range[&i],
            n: j.map_or(1, |j| l.ids.range[&j]),
            k,
            sa,
            sb,
            so: [out_st[t], pos(i), j.map_or(1, pos)],
            zeros,
            exact: Box::new(exact()),
        });
    }
    None
}
