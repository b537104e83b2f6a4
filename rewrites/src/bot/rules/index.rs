//! Fig. 10 of seed 000 (§5.1): `index` pushed down through every construct it can pass
//! (the binder-substituting ones — build, gather, transpose, reshape — are in
//! [`super::index_bind`]).
//!
//! Out-of-bounds semantics are kept exactly (docs/language.md: an out-of-bounds read is 0,
//! `false` for `B`). Pushing an index through an elementwise operator `f` is exact when
//! `f(0, ..., 0) = 0` in exact *and* `f64` mode ("zero-preserving": `+ - * min max % && ||
//! != < >`, `/` on `Z`, `neg sin tanh sqrt abs floor real`, `pow` with `k > 0`); for the
//! others (`== <= >= not exp cos log`, `/` on `R` — IEEE `0/0` — and `pow` with `k <= 0`)
//! the result is guarded: `select(0 <= j && j < n, rhs, zeros)` unless the interval bounds
//! prove the index in range.
//!
//! index-let is realised by the encoding (a `let`-bound name is its value's class).
//! `index` of a variable, a constant array literal, an `append` (unless the bounds decide
//! the side) or a `scatter` is a normal form (Theorem 5.1).

use super::build::name;
use super::search::{custom, Shape2, View};
use super::util::{
    add_int, arr, guarded, index, int_value, interval, is_constant_array, is_zero_fill, nat,
    transpose, zeros,
};
use crate::ir::analysis::{IrAnalysis, IrGraph};
use crate::ir::lang::Ir;
use adora_core::types::Base;
use egg::{Id, Rewrite};

/// Most alternatives of the `select` chain that replaces an index of an array literal by
/// a non-constant index (larger literals stay indexed and the rule declines).
pub(crate) const MAX_SELECT_CHAIN: usize = 256;

/// Whether pushing an index through an operator needs a bounds guard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Zero {
    /// `f(0, ...) = 0` exactly in both modes: no guard.
    Preserving,
    /// `f(0, ...) != 0` (or not in `f64`): guard.
    Guard,
    /// Zero-preserving on `Z` only (`/`).
    IntOnly,
}

type Un = fn(Id) -> Ir;
type Bin = fn([Id; 2]) -> Ir;

/// The unary operators: rule suffix, constructor, zero behaviour.
pub(crate) fn unary_ops() -> Vec<(&'static str, Un, Zero)> {
    use Zero::*;
    vec![
        ("neg", |a| Ir::Neg([a]), Preserving),
        ("not", |a| Ir::Not([a]), Guard),
        ("exp", |a| Ir::Exp([a]), Guard),
        ("log", |a| Ir::Log([a]), Guard),
        ("sin", |a| Ir::Sin([a]), Preserving),
        ("cos", |a| Ir::Cos([a]), Guard),
        ("tanh", |a| Ir::Tanh([a]), Preserving),
        ("sqrt", |a| Ir::Sqrt([a]), Preserving),
        ("abs", |a| Ir::Abs([a]), Preserving),
        ("floor", |a| Ir::Floor([a]), Preserving),
        ("real", |a| Ir::ToReal([a]), Preserving),
    ]
}

/// The binary operators: rule suffix, constructor, zero behaviour.
pub(crate) fn binary_ops() -> Vec<(&'static str, Bin, Zero)> {
    use Zero::*;
    vec![
        ("add", Ir::Add, Preserving),
        ("sub", Ir::Sub, Preserving),
        ("mul", Ir::Mul, Preserving),
        ("div", Ir::Div, IntOnly),
        ("mod", Ir::Mod, Preserving),
        ("eq", Ir::Eq, Guard),
        ("ne", Ir::Ne, Preserving),
        ("lt", Ir::Lt, Preserving),
        ("le", Ir::Le, Guard),
        ("gt", Ir::Gt, Preserving),
        ("ge", Ir::Ge, Guard),
        ("and", Ir::And, Preserving),
        ("or", Ir::Or, Preserving),
        ("min", Ir::Min, Preserving),
        ("max", Ir::Max, Preserving),
    ]
}

/// The index list of an `index` match (children after the array).
pub(crate) fn js(m: &View<'_>) -> Vec<Id> {
    m.outer().into_iter().skip(1).collect()
}

/// `(j_d, n_d)` bounds checks of an index list against the outer dimensions `shape`
/// (`None` when the index is longer than the rank).
pub(crate) fn checks(js: &[Id], shape: &[usize]) -> Option<Vec<(Id, usize)>> {
    (js.len() <= shape.len()).then(|| js.iter().copied().zip(shape.iter().copied()).collect())
}

/// The matcher of `index (X ...) js` for the inner node kind `inner` (not on replicated arrays: see
/// [`Shape2::unless_replicated`]; `bot/index-replicate` indexes them).
pub(crate) fn on(inner: Ir) -> Shape2 {
    Shape2::nested(&Ir::Index(Box::new([])), 0, &inner).unless_replicated(0)
}

fn needs_guard(z: Zero, base: Base) -> bool {
    match z {
        Zero::Preserving => false,
        Zero::Guard => true,
        Zero::IntOnly => base != Base::Z,
    }
}

/// Pushes `index _ js` into the operands of an elementwise node rebuilt by `mk`.
fn elementwise(
    eg: &mut IrGraph,
    c: Id,
    m: &View<'_>,
    operands: &[Id],
    guard: bool,
    mk: impl FnOnce(&[Id]) -> Ir,
) -> Option<Id> {
    let js = js(m);
    let (_, shape) = arr(eg, operands[0])?;
    let ck = checks(&js, &shape)?;
    let ty = arr(eg, c)?;
    let rhs = |eg: &mut IrGraph| {
        let ops: Vec<Id> = operands.iter().map(|&a| index(eg, a, &js)).collect();
        Some(eg.add(mk(&ops)))
    };
    if guard {
        guarded(eg, &ck, &ty, rhs)
    } else {
        rhs(eg)
    }
}

/// The Fig. 10 rules of this module.
pub(crate) fn rules() -> Vec<Rewrite<Ir, IrAnalysis>> {
    let z = Id::from(0usize);
    let mut out = Vec::new();
    // index-<op>: index (op a) js → op (index a js)   [guarded unless zero-preserving]
    for (suffix, mk, zero) in unary_ops() {
        out.push(custom(
            name("index", suffix),
            on(mk(z)),
            move |eg, c, m, _| {
                let a = m.i(0)?;
                let g = needs_guard(zero, arr(eg, a)?.0);
                elementwise(eg, c, m, &[a], g, |o| mk(o[0]))
            },
        ));
    }
    // index-<op>: index (a op b) js → index a js op index b js   [guarded unless zero-preserving]
    for (suffix, mk, zero) in binary_ops() {
        out.push(custom(
            name("index", suffix),
            on(mk([z, z])),
            move |eg, c, m, _| {
                let (a, b) = (m.i(0)?, m.i(1)?);
                let g = needs_guard(zero, arr(eg, a)?.0);
                elementwise(eg, c, m, &[a, b], g, |o| mk([o[0], o[1]]))
            },
        ));
    }
    out.extend([
        custom("bot/index-pow", on(Ir::Pow([z; 2])), index_pow),
        custom("bot/index-select", on(Ir::Select([z; 3])), index_select),
        custom("bot/index-index", on(Ir::Index(Box::new([]))), index_index),
        custom(
            "bot/proj-tuple",
            Shape2::nested(&Ir::Proj([z; 2]), 1, &Ir::Tuple(Box::new([]))),
            proj_tuple,
        ),
        custom(
            "bot/index-replicate",
            Shape2::nested(&Ir::Index(Box::new([])), 0, &Ir::Replicate([z; 2])),
            index_replicate,
        ),
        custom("bot/index-iota", on(Ir::Iota([z])), index_iota),
        custom(
            "bot/index-sum-outer",
            on(Ir::SumOuter([z])),
            index_sum_outer,
        ),
        custom("bot/index-array", on(Ir::Array(Box::new([]))), index_array),
        custom("bot/index-stack", on(Ir::Stack(Box::new([]))), index_array),
        custom(
            "bot/index-append-decided",
            on(Ir::Append([z; 2])),
            index_append,
        ),
    ]);
    out
}

/// `index (pow a k) js → pow (index a js) k`, guarded unless `k > 0`.
fn index_pow(eg: &mut IrGraph, c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (a, k) = (m.i(0)?, m.i(1)?);
    let positive = int_value(eg, k)? > 0;
    elementwise(eg, c, m, &[a], !positive, |o| Ir::Pow([o[0], k]))
}

/// `index (select c a b) js → select (index c js) (index a js) (index b js)` when `c` has
/// the branches' shape; `→ select c (index a js) (index b js)` when `c` is a scalar.
fn index_select(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (c, a, b) = (m.i(0)?, m.i(1)?, m.i(2)?);
    let js = js(m);
    let (_, sc) = arr(eg, c)?;
    let (_, sa) = arr(eg, a)?;
    checks(&js, &sa)?;
    let ic = if sc == sa {
        index(eg, c, &js)
    } else if sc.is_empty() {
        c
    } else {
        return None;
    };
    let (ia, ib) = (index(eg, a, &js), index(eg, b, &js));
    Some(eg.add(Ir::Select([ic, ia, ib])))
}

/// `index (index e js) ks → index e (js ++ ks)`.
fn index_index(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let inner = m.inner();
    let (&e, first) = inner.split_first()?;
    let mut all = first.to_vec();
    all.extend(js(m));
    checks(&all, &arr(eg, e)?.1)?;
    Some(index(eg, e, &all))
}

/// `proj k (tuple e_0 ... e_n) → e_k`.
fn proj_tuple(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let k = nat(eg, m.o(0)?)?;
    m.inner().get(k).copied()
}

/// `index (replicate n e) (j : js) → index e js`, guarded by `0 <= j < n`; an index of a
/// fill of zeros is the zero array of its type (no guard needed).
fn index_replicate(eg: &mut IrGraph, c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (n, e) = (nat(eg, m.i(0)?)?, m.i(1)?);
    let js = js(m);
    let (&j, rest) = js.split_first()?;
    let ty = arr(eg, c)?;
    if is_zero_fill(eg, e) {
        return Some(zeros(eg, ty.0, &ty.1));
    }
    let rest = rest.to_vec();
    guarded(eg, &[(j, n)], &ty, |eg| Some(index(eg, e, &rest)))
}

/// `index (iota n) j → j`, guarded by `0 <= j < n`.
fn index_iota(eg: &mut IrGraph, c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let n = nat(eg, m.i(0)?)?;
    let js = js(m);
    let [j] = js[..] else { return None };
    let ty = arr(eg, c)?;
    guarded(eg, &[(j, n)], &ty, |_| Some(j))
}

/// `index (sum_outer e) js → sum_outer (index (transpose [1..k, 0, k+1..] e) js)` with
/// `k = |js|`: the summed dimension moves behind the indexed ones.
fn index_sum_outer(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let e = m.i(0)?;
    let js = js(m);
    let r = arr(eg, e)?.1.len();
    let k = js.len();
    if k + 1 > r {
        return None;
    }
    let mut perm: Vec<usize> = (1..=k).collect();
    perm.push(0);
    perm.extend(k + 1..r);
    let t = transpose(eg, perm, e);
    let it = index(eg, t, &js);
    Some(eg.add(Ir::SumOuter([it])))
}

/// `index [e_0, ..., e_(n-1)] (j : js)`: a constant `j` selects `index e_j js` (zeros out
/// of bounds); otherwise, unless the literal is constant (a normal form), a chain
/// `select(j == c, index e_c js, ...)` over the values the bounds allow, ending in zeros
/// (or in the last alternative when the bounds prove `j` in range).
fn index_array(eg: &mut IrGraph, c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let es = m.inner();
    let js = js(m);
    let (&j, rest) = js.split_first()?;
    let rest = rest.to_vec();
    let ty = arr(eg, c)?;
    let n = es.len() as i64;
    let iv = interval(eg, j);
    if let Some(iv) = iv.filter(|i| i.lo == i.hi) {
        return Some(if (0..n).contains(&iv.lo) {
            index(eg, es[iv.lo as usize], &rest)
        } else {
            zeros(eg, ty.0, &ty.1)
        });
    }
    if is_constant_array(eg, m.o(0)?) {
        return None;
    }
    let (lo, hi) = iv.map_or((0, n - 1), |i| (i.lo.max(0), i.hi.min(n - 1)));
    if lo > hi {
        return Some(zeros(eg, ty.0, &ty.1));
    }
    if (hi - lo + 1) as usize > MAX_SELECT_CHAIN {
        return None;
    }
    let inside = iv.is_some_and(|i| i.lo >= 0 && i.hi < n);
    let mut acc = if inside {
        index(eg, es[hi as usize], &rest)
    } else {
        zeros(eg, ty.0, &ty.1)
    };
    let last = if inside { hi - 1 } else { hi };
    for k in (lo..=last).rev() {
        let kk = add_int(eg, k);
        let cond = eg.add(Ir::Eq([j, kk]));
        let alt = index(eg, es[k as usize], &rest);
        acc = eg.add(Ir::Select([cond, alt, acc]));
    }
    Some(acc)
}

/// `index (append a b) (j : js) → index a (j : js)` when the bounds prove `j < |a|`;
/// `→ index b (j - |a| : js)` when they prove `j >= |a|` (horde-ad's decided append).
fn index_append(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (a, b) = (m.i(0)?, m.i(1)?);
    let js = js(m);
    let (&j, rest) = js.split_first()?;
    let la = *arr(eg, a)?.1.first()? as i64;
    let iv = interval(eg, j)?;
    if iv.hi < la {
        Some(index(eg, a, &js))
    } else if iv.lo >= la {
        let l = add_int(eg, la);
        let j2 = eg.add(Ir::Sub([j, l]));
        let mut all = vec![j2];
        all.extend_from_slice(rest);
        Some(index(eg, b, &all))
    } else {
        None
    }
}
