//! Fig. 9 of seed 000 (§5.1): `build1` pushed down through every construct.
//!
//! Notation (docs/rules/bot.md): `build n i e` is `(build n i e)` with binder `i`; `FV` is
//! the free-index-variable analysis; `swap` is the permutation `[1, 0, 2, ..., r-1]`;
//! `rep^s c` is `c` broadcast by nested `replicate`s to the outer shape `s`.
//!
//! Constructs without a rule of their own:
//!
//! - `let` (build-let) is realised by the encoding: a `let`-bound name *is* its value's
//!   class, so `build n i (let x = u in v)` is `build n i v[x := u]` already;
//! - nested builds (build-build) are handled inner first: the inner `build` class gains
//!   build-free members by these rules, and the outer `build` then matches those members;
//! - `iota`, literals and variables never mention `i`, so build-const covers them;
//! - tuples (build-tuple, build-proj) cannot be `build` bodies (arrays hold only base
//!   types), and a projection of a tuple literal is resolved by `bot/proj-tuple`;
//! - `index` (build-index-*) is Fig. 11, in [`super::commute`].

use super::search::{build_pattern, custom, custom_pattern, pattern, Shape2, View};
use super::util::{
    add_shape, arr, binders, build, gather, ivar, ixs, mentions, nat, replicate_to, shape_leaf,
    shape_of, swap01, transpose,
};
use crate::ir::analysis::{IrAnalysis, IrGraph};
use crate::ir::lang::Ir;
use egg::{Id, Rewrite};

/// The elementwise unary operators: rule suffix and egg operator.
pub(crate) const UNARY: [(&str, &str); 11] = [
    ("neg", "neg"),
    ("not", "not"),
    ("exp", "exp"),
    ("log", "log"),
    ("sin", "sin"),
    ("cos", "cos"),
    ("tanh", "tanh"),
    ("sqrt", "sqrt"),
    ("abs", "abs"),
    ("floor", "floor"),
    ("real", "real"),
];

/// The elementwise binary operators: rule suffix and egg operator.
pub(crate) const BINARY: [(&str, &str); 15] = [
    ("add", "+"),
    ("sub", "-"),
    ("mul", "*"),
    ("div", "/"),
    ("mod", "%"),
    ("eq", "=="),
    ("ne", "!="),
    ("lt", "<"),
    ("le", "<="),
    ("gt", ">"),
    ("ge", ">="),
    ("and", "&&"),
    ("or", "||"),
    ("min", "min"),
    ("max", "max"),
];

/// A `'static` rule name `bot/<prefix>-<suffix>` (names are created once per process and
/// cached, so repeated calls of [`rules`] do not leak).
pub(crate) fn name(prefix: &str, suffix: &str) -> &'static str {
    use std::collections::BTreeMap;
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<BTreeMap<String, &'static str>>> = OnceLock::new();
    let full = format!("bot/{prefix}-{suffix}");
    let mut m = NAMES
        .get_or_init(|| Mutex::new(BTreeMap::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(s) = m.get(&full) {
        return s;
    }
    let s: &'static str = Box::leak(full.clone().into_boxed_str());
    m.insert(full, s);
    s
}

/// The Fig. 9 rules.
pub(crate) fn rules() -> Vec<Rewrite<Ir, IrAnalysis>> {
    let mut out = vec![
        // build-const: build n i e → replicate n e   if i ∉ FV(e)   (Fig. 9)
        custom_pattern("bot/build-const", "(build ?n ?i ?e)", build_const),
        // build-ivar: build n i i → iota n   (Fig. 9)
        pattern("bot/build-ivar", "(build ?n ?i ?i)", "(iota ?n)"),
        // build-pow: build n i (pow e k) → pow (build n i e) k   (Fig. 9)
        build_pattern(
            "bot/build-pow",
            "(build ?n ?i (pow ?a ?k))",
            "(pow (build ?n ?i ?a) ?k)",
            &["?a"],
        ),
    ];
    // build-<op>: build n i (op a) → op (build n i a)   (Fig. 9)
    for (suffix, op) in UNARY {
        out.push(build_pattern(
            name("build", suffix),
            &format!("(build ?n ?i ({op} ?a))"),
            &format!("({op} (build ?n ?i ?a))"),
            &["?a"],
        ));
    }
    // build-<op>: build n i (a op b) → build n i a op build n i b   (Fig. 9)
    for (suffix, op) in BINARY {
        out.push(build_pattern(
            name("build", suffix),
            &format!("(build ?n ?i ({op} ?a ?b))"),
            &format!("({op} (build ?n ?i ?a) (build ?n ?i ?b))"),
            &["?a", "?b"],
        ));
    }
    let b = Ir::Build([Id::from(0usize); 3]);
    let z = Id::from(0usize);
    let nested = |inner: Ir| Shape2::nested(&b, 2, &inner);
    out.extend([
        custom("bot/build-select", nested(Ir::Select([z; 3])), build_select),
        custom("bot/build-sum", nested(Ir::Sum([z])), build_sum),
        custom(
            "bot/build-sum-outer",
            nested(Ir::SumOuter([z])),
            build_sum_outer,
        ),
        custom(
            "bot/build-replicate",
            nested(Ir::Replicate([z; 2])),
            build_replicate,
        ),
        custom(
            "bot/build-transpose",
            nested(Ir::Transpose([z; 2])),
            build_transpose,
        ),
        custom(
            "bot/build-reshape",
            nested(Ir::Reshape([z; 2])),
            build_reshape,
        ),
        custom("bot/build-append", nested(Ir::Append([z; 2])), build_append),
        custom(
            "bot/build-array",
            nested(Ir::Array(Box::new([]))),
            build_array,
        ),
        custom(
            "bot/build-stack",
            nested(Ir::Stack(Box::new([]))),
            build_stack,
        ),
        custom("bot/build-gather", nested(Ir::Gather([z; 4])), build_gather),
        custom(
            "bot/build-scatter",
            nested(Ir::Scatter([z; 4])),
            build_scatter,
        ),
    ]);
    out
}

/// `build n i e → replicate n e` when `i ∉ FV(e)`.
fn build_const(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (n, i, e) = (m.var("?n")?, m.var("?i")?, m.var("?e")?);
    let v = ivar(eg, i)?;
    if mentions(eg, e, v) {
        return None;
    }
    Some(eg.add(Ir::Replicate([n, e])))
}

/// `n` and the binder class of a nested `build` match, when the body mentions the binder
/// (an independent body is left to `bot/build-const`).
fn head(eg: &IrGraph, m: &View<'_>) -> Option<(Id, Id)> {
    let (n, i, body) = (m.o(0)?, m.o(1)?, m.o(2)?);
    mentions(eg, body, ivar(eg, i)?).then_some((n, i))
}

/// `build n i (select c a b) → select (build n i c') (build n i a) (build n i b)` where
/// `c' = c` when `c` has the branches' shape, `c' = rep^s c` when `c` is a scalar and the
/// branches have shape `s` (whole-array selection becomes elementwise).
fn build_select(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (n, i) = head(eg, m)?;
    let (c, a, b) = (m.i(0)?, m.i(1)?, m.i(2)?);
    let (_, sc) = arr(eg, c)?;
    let (_, sa) = arr(eg, a)?;
    let c2 = if sc == sa {
        c
    } else if sc.is_empty() {
        replicate_to(eg, c, &sa)
    } else {
        return None;
    };
    let (bc, ba, bb) = (build(eg, n, i, c2), build(eg, n, i, a), build(eg, n, i, b));
    Some(eg.add(Ir::Select([bc, ba, bb])))
}

/// `build n i (sum e) → sum_outer (transpose [1,0] (reshape [n, |e|] (build n i e)))`.
fn build_sum(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (n, i) = head(eg, m)?;
    let e = m.i(0)?;
    let k = nat(eg, n)?;
    let size: usize = shape_of(eg, e)?.iter().product();
    let be = build(eg, n, i, e);
    let sh = add_shape(eg, vec![k, size]);
    let r = eg.add(Ir::Reshape([sh, be]));
    let t = transpose(eg, vec![1, 0], r);
    Some(eg.add(Ir::SumOuter([t])))
}

/// `build n i (sum_outer e) → sum_outer (transpose swap (build n i e))`.
fn build_sum_outer(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (n, i) = head(eg, m)?;
    let e = m.i(0)?;
    let r = shape_of(eg, e)?.len() + 1;
    let be = build(eg, n, i, e);
    let t = transpose(eg, swap01(r), be);
    Some(eg.add(Ir::SumOuter([t])))
}

/// `build n i (replicate k e) → transpose swap (replicate k (build n i e))`.
fn build_replicate(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (n, i) = head(eg, m)?;
    let (k, e) = (m.i(0)?, m.i(1)?);
    let r = shape_of(eg, e)?.len() + 2;
    let be = build(eg, n, i, e);
    let rep = eg.add(Ir::Replicate([k, be]));
    Some(transpose(eg, swap01(r), rep))
}

/// `build n i (transpose p e) → transpose (0 : map (+1) p) (build n i e)`.
fn build_transpose(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (n, i) = head(eg, m)?;
    let (p, e) = (m.i(0)?, m.i(1)?);
    let perm = shape_leaf(eg, p)?;
    let mut q = vec![0];
    q.extend(perm.iter().map(|d| d + 1));
    let be = build(eg, n, i, e);
    Some(transpose(eg, q, be))
}

/// `build n i (reshape s e) → reshape (n : s) (build n i e)`.
fn build_reshape(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (n, i) = head(eg, m)?;
    let (s, e) = (m.i(0)?, m.i(1)?);
    let mut sh = vec![nat(eg, n)?];
    sh.extend(shape_leaf(eg, s)?);
    let be = build(eg, n, i, e);
    let s2 = add_shape(eg, sh);
    Some(eg.add(Ir::Reshape([s2, be])))
}

/// `build n i (append a b) → transpose swap (append (transpose swap (build n i a))
/// (transpose swap (build n i b)))`.
fn build_append(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (n, i) = head(eg, m)?;
    let (a, b) = (m.i(0)?, m.i(1)?);
    let r = shape_of(eg, a)?.len() + 1;
    let ba = build(eg, n, i, a);
    let bb = build(eg, n, i, b);
    let ta = transpose(eg, swap01(r), ba);
    let tb = transpose(eg, swap01(r), bb);
    let app = eg.add(Ir::Append([ta, tb]));
    Some(transpose(eg, swap01(r), app))
}

/// `build n i [e1, ..., ek] → transpose swap [build n i e1, ..., build n i ek]`.
fn build_array(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (r, bs) = build_elements(eg, m)?;
    let lit = eg.add(Ir::Array(bs.into_boxed_slice()));
    Some(transpose(eg, swap01(r), lit))
}

/// `build n i (stack e1 ... ek) → transpose swap (stack (build n i e1) ... (build n i ek))`.
fn build_stack(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (r, bs) = build_elements(eg, m)?;
    let st = eg.add(Ir::Stack(bs.into_boxed_slice()));
    Some(transpose(eg, swap01(r), st))
}

/// The rank of the result and `build n i e_k` for every element of a literal / stack.
fn build_elements(eg: &mut IrGraph, m: &View<'_>) -> Option<(usize, Vec<Id>)> {
    let (n, i) = head(eg, m)?;
    let es = m.inner();
    let r = shape_of(eg, *es.first()?)?.len() + 2;
    Some((r, es.iter().map(|&e| build(eg, n, i, e)).collect()))
}

/// `(binders i js)` and `(ixs i xs)` for the build binder `i` and a gather/scatter's
/// binder and index lists; `None` when the inner node rebinds `i` (a shadowing member of a
/// class that does not depend on `i`: the rule declines, the class has other members).
fn extend_binders(eg: &IrGraph, i: Id, bl: Id, xl: Id) -> Option<(Vec<Id>, Vec<Id>)> {
    let v = ivar(eg, i)?;
    let inner = binders(eg, bl)?;
    if inner.iter().any(|&b| ivar(eg, b) == Some(v)) {
        return None;
    }
    let mut bs = vec![i];
    bs.extend(inner);
    let mut xs = vec![i];
    xs.extend(ixs(eg, xl)?);
    Some((bs, xs))
}

/// `build n i (gather s src (binders js) (ixs xs)) → gather (n : s) (build n i src)
/// (binders i js) (ixs i xs)`; when `i ∉ FV(src)`, `→ gather (n : s) src (binders i js)
/// (ixs xs)` (no new source class: the index map alone depends on `i`).
fn build_gather(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (n, i) = head(eg, m)?;
    let (s, src, bl, xl) = (m.i(0)?, m.i(1)?, m.i(2)?, m.i(3)?);
    let mut sh = vec![nat(eg, n)?];
    sh.extend(shape_leaf(eg, s)?);
    let (bs, mut xs) = extend_binders(eg, i, bl, xl)?;
    if mentions(eg, src, ivar(eg, i)?) {
        let bsrc = build(eg, n, i, src);
        Some(gather(eg, sh, bsrc, &bs, &xs))
    } else {
        xs.remove(0);
        Some(gather(eg, sh, src, &bs, &xs))
    }
}

/// `build n i (scatter s src (binders js) (ixs xs)) → scatter (n : s) (build n i src)
/// (binders i js) (ixs i xs)` (`replicate n src` for the source when `i ∉ FV(src)`).
fn build_scatter(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let (n, i) = head(eg, m)?;
    let (s, src, bl, xl) = (m.i(0)?, m.i(1)?, m.i(2)?, m.i(3)?);
    let mut sh = vec![nat(eg, n)?];
    sh.extend(shape_leaf(eg, s)?);
    let (bs, xs) = extend_binders(eg, i, bl, xl)?;
    let bsrc = if mentions(eg, src, ivar(eg, i)?) {
        build(eg, n, i, src)
    } else {
        eg.add(Ir::Replicate([n, src]))
    };
    let s2 = add_shape(eg, sh);
    let b2 = eg.add(Ir::Binders(bs.into_boxed_slice()));
    let x2 = eg.add(Ir::Ixs(xs.into_boxed_slice()));
    Some(eg.add(Ir::Scatter([s2, bsrc, b2, x2])))
}
