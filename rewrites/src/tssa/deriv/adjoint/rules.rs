//! The adjoint rules of *Differentiating a Tensor Language* §6.3 (Figs. 15–16), each a
//! function applying one rule at one position of a [`State`] (an `Internal` error if the
//! rule does not apply there), so that the driver and the per-rule properties call the
//! same code. Rule table and tags: docs/engines/tssa-derivatives.md, "Adjoint".

use super::super::forward::{zero_rhs, Forward, Kind};
use super::super::inner::{no_filter, Filter, Inner, Left, Right};
use super::super::pred::{
    all_ivars, and, dims_map, eq_lists, exists_solved, fresh_ivar, or, rename,
};
use super::super::{internal, real_leaves, shape, tangent_ty, ty_at, Names};
use super::state::{Adj, State};
use adora_core::diag::Result;
use adora_core::tl::{Access, Dims, IVar, Pred, Rhs, SsaOut, Ty, Var};
use std::collections::{BTreeMap, BTreeSet};

fn not_applicable(rule: &str, why: &str) -> adora_core::diag::Diagnostic {
    internal(format!("rule {rule} does not apply: {why}"))
}

/// Rule 6.20 to exhaustion: `⟨dY, D⟦let x = r in b⟧⟩ ⟶ let x = r in let dx = D⟦r⟧ in
/// ⟨dY, D⟦b⟧⟩`. The bindings of `D⟦e⟧` (primal, coefficient, differential, in `D`'s
/// order) are extracted from the inner product; what remains is `⟨dY, out⟩` with `out`
/// the tangent output. `dY` is named `cot` (fresh).
pub fn rule_6_20(fwd: &Forward, cot: &str) -> Result<State> {
    let mut names = Names::default();
    for (x, _) in &fwd.inputs {
        names.reserve(x);
    }
    for (_, dx, _) in &fwd.tangent_inputs {
        names.reserve(dx);
    }
    for (s, _) in &fwd.stmts {
        names.reserve(&s.var);
    }
    let cot = names.fresh(cot);
    let mut types: BTreeMap<Var, Ty> = fwd.inputs.iter().cloned().collect();
    for (_, dx, t) in &fwd.tangent_inputs {
        types.insert(dx.clone(), t.clone());
    }
    for (s, _) in &fwd.stmts {
        types.insert(s.var.clone(), s.ty.clone());
    }
    let Some(tangent) = fwd.tangent.clone() else {
        return Err(super::super::unsupported(
            "the output has no real component: there is nothing to differentiate".into(),
        ));
    };
    let mut st = State {
        inputs: fwd.inputs.clone(),
        tangent_inputs: fwd.tangent_inputs.clone(),
        cot: (cot.clone(), Ty::Num),
        lets: fwd.stmts.clone(),
        adjoints: Vec::new(),
        ips: Vec::new(),
        outs: Vec::new(),
        finals: Vec::new(),
        names,
        types,
        bound_left: BTreeMap::new(),
    };
    let cty = st.out_ty(&tangent);
    st.types.insert(cot.clone(), cty.clone());
    st.cot.1 = cty;
    st.outs.push((
        Left {
            var: cot,
            path: Vec::new(),
        },
        tangent,
    ));
    Ok(st)
}

/// Rule 6.25: `let dx = d in let y = r in t ⟶ let y = r in let dx = d in t` if
/// `dx ∉ fv(r)`: the differential binding at `at` moves after the primal (or
/// coefficient) binding that follows it.
pub fn rule_6_25(st: &mut State, at: usize) -> Result<()> {
    let ok = matches!(
        (st.lets.get(at), st.lets.get(at + 1)),
        (Some((d, Kind::Diff)), Some((r, k))) if *k != Kind::Diff
            && !super::super::inner::rhs_reads(&r.rhs, &d.var)
    );
    if !ok {
        return Err(not_applicable(
            "6.25",
            "no differential binding followed by a primal one",
        ));
    }
    st.lets.swap(at, at + 1);
    Ok(())
}

/// Rule 6.26: `⟨w, (d0, d1)⟩ ⟶ ⟨w.0, d0⟩ + ⟨w.1, d1⟩` on the output inner product at
/// `at`; an output that is one differential variable becomes the inner product
/// `⟨w, dx⟩`.
pub fn rule_6_26(st: &mut State, at: usize) -> Result<()> {
    if at >= st.outs.len() {
        return Err(not_applicable("6.26", "no output inner product there"));
    }
    let (left, out) = st.outs.remove(at);
    match out {
        SsaOut::Pair(a, b) => {
            for (k, o) in [(0u8, *a), (1u8, *b)] {
                let mut path = left.path.clone();
                path.push(k);
                st.outs.insert(
                    at + k as usize,
                    (
                        Left {
                            var: left.var.clone(),
                            path,
                        },
                        o,
                    ),
                );
            }
        }
        SsaOut::Var(dx) => {
            let ty = st.types.get(&dx).cloned().unwrap_or(Ty::Num);
            let right = diff_or_input(st, &dx);
            st.ips.push(Inner {
                filter: no_filter(&ty),
                left,
                right,
                ty,
            });
        }
    }
    Ok(())
}

/// Rule 6.32: `let dx = d in t ⟶ t` if `dx ∉ fv(t)`: the innermost differential binding
/// is unused.
pub fn rule_6_32(st: &mut State) -> Result<()> {
    let Some((s, Kind::Diff)) = st.lets.last() else {
        return Err(not_applicable(
            "6.32",
            "the innermost binding is not differential",
        ));
    };
    if st.ips.iter().any(|ip| ip.right.mentions(&s.var)) {
        return Err(not_applicable("6.32", "the differential is used"));
    }
    st.lets.pop();
    Ok(())
}

/// The filter's predicate over the binders `to` (the filter's own binders renamed).
fn filter_over(f: &Filter, to: &Dims) -> Pred {
    rename(&f.pred, &dims_map(&f.dims, to))
}

/// Rule 6.39: `⟨[r1] w1, dx⟩ + ⟨[r2] w2, dx⟩ ⟶ let w = gen K. [r1] w1[K] + [r2] w2[K] in
/// ⟨[r1 || r2] w, dx⟩` for the inner products at `i` and `j` (same right side, a
/// differential variable or input).
pub fn rule_6_39(st: &mut State, i: usize, j: usize) -> Result<()> {
    let (Some(a), Some(b)) = (st.ips.get(i).cloned(), st.ips.get(j).cloned()) else {
        return Err(not_applicable("6.39", "no inner products there"));
    };
    let same = i != j
        && a.right == b.right
        && matches!(a.right, Right::Diff(_) | Right::Input { .. })
        && shape(&a.ty).is_some();
    if !same {
        return Err(not_applicable(
            "6.39",
            "not two inner products on one differential",
        ));
    }
    let k = a.filter.dims.clone();
    let r1 = a.filter.pred.clone();
    let r2 = filter_over(&b.filter, &k);
    let w1 = st.left_var(&a.left);
    let w2 = st.left_var(&b.left);
    let rhs = Rhs::Add {
        dims: k.clone(),
        p: r1.clone(),
        y: w1,
        q: r2.clone(),
        z: w2,
    };
    let w = st.bind("w", &a.ty, rhs);
    let merged = Inner {
        filter: Filter {
            dims: k,
            pred: or(r1, r2),
        },
        left: Left {
            var: w,
            path: Vec::new(),
        },
        right: a.right.clone(),
        ty: a.ty.clone(),
    };
    let (lo, hi) = (i.min(j), i.max(j));
    st.ips.remove(hi);
    st.ips[lo] = merged;
    Ok(())
}

/// Rule 6.31, the reversing rule: `let dx = d in (⟨w, dx⟩ + t) ⟶ let dx = w in (⟨dx, d⟩
/// + t)` if `dx ∉ fv(t) ∪ fv(w)`, for the innermost differential binding; allowed only
/// when exactly one inner product mentions `dx`. The adjoint `w` keeps its name (the
/// alias `dx = w` is substituted away), and the inner product now has `d` on the right.
pub fn rule_6_31(st: &mut State) -> Result<usize> {
    let Some((s, Kind::Diff)) = st.lets.last().cloned() else {
        return Err(not_applicable(
            "6.31",
            "the innermost binding is not differential",
        ));
    };
    let users: Vec<usize> = (0..st.ips.len())
        .filter(|&k| st.ips[k].right.mentions(&s.var) || st.ips[k].left.var == s.var)
        .collect();
    let [at] = users[..] else {
        return Err(not_applicable(
            "6.31",
            &format!(
                "{} inner products mention `{}`, not exactly one",
                users.len(),
                s.var
            ),
        ));
    };
    if st.ips[at].right != Right::Diff(s.var.clone()) {
        return Err(not_applicable(
            "6.31",
            "the inner product is not on the variable itself",
        ));
    }
    st.lets.pop();
    st.ips[at].right = Right::Tangent(Box::new(s.rhs));
    Ok(at)
}

/// The inner product at `at` with a right-hand side on the right (after 6.31).
fn tangent_at(st: &State, at: usize, rule: &str) -> Result<(Inner, Rhs)> {
    match st.ips.get(at) {
        Some(ip) => match &ip.right {
            Right::Tangent(rhs) => Ok((ip.clone(), (**rhs).clone())),
            _ => Err(not_applicable(
                rule,
                "the right side is not a right-hand side",
            )),
        },
        None => Err(not_applicable(rule, "no inner product there")),
    }
}

/// An inner product `⟨[r] w, dv⟩` on the differential variable `dv`.
fn on_diff(st: &State, dims: Dims, pred: Pred, w: Var, dv: &Var) -> Inner {
    let ty = st.types.get(dv).cloned().unwrap_or(Ty::Num);
    Inner {
        filter: Filter { dims, pred },
        left: Left {
            var: w,
            path: Vec::new(),
        },
        right: diff_or_input(st, dv),
        ty,
    }
}

/// `dv` on the right of an inner product: a differential variable, or a differential
/// input read directly (`dX`, rule 6.x-input).
fn diff_or_input(st: &State, dv: &Var) -> Right {
    if st.tangent_inputs.iter().any(|(_, d, _)| d == dv) {
        Right::Input {
            dx: dv.clone(),
            path: Vec::new(),
        }
    } else {
        Right::Diff(dv.clone())
    }
}

/// Rule 6.44 (addition): `⟨[r] w, gen I. [p] da[I] + [q] db[I]⟩ ⟶ ⟨[r && p] w, da⟩ +
/// ⟨[r && q] w, db⟩`.
pub fn rule_6_44(st: &mut State, at: usize) -> Result<()> {
    let (ip, rhs) = tangent_at(st, at, "6.44")?;
    let Rhs::Add { dims, p, y, q, z } = rhs else {
        return Err(not_applicable("6.44", "not an addition"));
    };
    let r = filter_over(&ip.filter, &dims);
    let w = st.left_var(&ip.left);
    let a = on_diff(st, dims.clone(), and(r.clone(), p), w.clone(), &y);
    let b = on_diff(st, dims, and(r, q), w, &z);
    st.ips[at] = a;
    st.ips.insert(at + 1, b);
    Ok(())
}

/// Whether `x` is a differential (a bound differential variable or a differential input).
fn differential(st: &State, x: &str) -> bool {
    st.is_diff(x) || st.tangent_inputs.iter().any(|(_, d, _)| d == x)
}

fn names_of(d: &Dims) -> Vec<IVar> {
    d.iter().map(|(i, _)| i.clone()).collect()
}

/// Rule 6.47 (map): the tangent `gen I. sum (). [p] t[I] * dy[I]` of `gen I.[p] f(y[I])`
/// (`t = f'(y)` its coefficient) gives `⟨[r] w, …⟩ ⟶ let w' = gen I. sum (). [r && p]
/// t[I] * w[I] in ⟨[r && p] w', dy⟩`.
pub fn rule_6_47(st: &mut State, at: usize) -> Result<()> {
    let (ip, rhs) = tangent_at(st, at, "6.47")?;
    let Rhs::Contract {
        dims,
        sums,
        pred,
        y,
        z: Some(z),
    } = rhs
    else {
        return Err(not_applicable("6.47", "not a product"));
    };
    let i = names_of(&dims);
    if !sums.is_empty() || y.idx != i || z.idx != i {
        return Err(not_applicable("6.47", "not a pointwise product"));
    }
    let (coef, dv) = match (differential(st, &y.var), differential(st, &z.var)) {
        (false, true) => (y.var, z.var),
        (true, false) => (z.var, y.var),
        _ => return Err(not_applicable("6.47", "not one differential factor")),
    };
    let r = and(filter_over(&ip.filter, &dims), pred);
    let w = st.left_var(&ip.left);
    let rhs = Rhs::Contract {
        dims: dims.clone(),
        sums: Vec::new(),
        pred: r.clone(),
        y: Access {
            var: coef,
            idx: i.clone(),
        },
        z: Some(Access { var: w, idx: i }),
    };
    let ty = ip.ty.clone();
    let w2 = st.bind("w", &ty, rhs);
    st.ips[at] = on_diff(st, dims, r, w2, &dv);
    Ok(())
}

/// Fresh binders `K` over the shape of `dv`, avoiding every index name of `used`.
fn fresh_dims(st: &State, dv: &Var, used: &mut BTreeSet<IVar>) -> Dims {
    let sh = st.types.get(dv).and_then(shape).unwrap_or_default();
    sh.into_iter().map(|n| (fresh_ivar("k", used), n)).collect()
}

/// The transposed contraction of rules 6.48 and 6.49 for the differential factor `dv`
/// at `u`: `let wd = gen K. sum (I,J). [r && p && K == U] w[I] (* other) in
/// ⟨[∃I J. r && p && K == U] wd, dv⟩`.
fn transpose(
    st: &mut State,
    at: usize,
    ip: &Inner,
    (dims, sums, pred): (&Dims, &Dims, &Pred),
    (dv, u): (&Var, &[IVar]),
    other: Option<Access>,
) {
    let mut used: BTreeSet<IVar> = dims.iter().chain(sums).map(|(i, _)| i.clone()).collect();
    all_ivars(pred, &mut used);
    let k = fresh_dims(st, dv, &mut used);
    let r = filter_over(&ip.filter, dims);
    let q = and(and(r, pred.clone()), eq_lists(&names_of(&k), u));
    let all: Dims = dims.iter().chain(sums).cloned().collect();
    let w = st.left_var(&ip.left);
    let rhs = Rhs::Contract {
        dims: k.clone(),
        sums: all.clone(),
        pred: q.clone(),
        y: Access {
            var: w,
            idx: names_of(dims),
        },
        z: other,
    };
    let ty = st.types.get(dv).cloned().unwrap_or(Ty::Num);
    let wd = st.bind("w", &ty, rhs);
    let ranges = k.iter().cloned().collect();
    st.ips[at] = on_diff(st, k, exists_solved(&all, q, &ranges), wd, dv);
}

/// Rule 6.48 (binary contraction with one differential factor): `⟨[r] w, gen I. sum J.
/// [p] dy[U] * z[V]⟩ ⟶ let wy = gen K. sum (I,J). [r && p && K == U] w[I] * z[V] in
/// ⟨[∃I J. r && p && K == U] wy, dy⟩` (either factor may be the differential).
pub fn rule_6_48(st: &mut State, at: usize) -> Result<()> {
    let (ip, rhs) = tangent_at(st, at, "6.48")?;
    let Rhs::Contract {
        dims,
        sums,
        pred,
        y,
        z: Some(z),
    } = rhs
    else {
        return Err(not_applicable("6.48", "not a binary contraction"));
    };
    let (d, other) = match (differential(st, &y.var), differential(st, &z.var)) {
        (true, false) => (y, z),
        (false, true) => (z, y),
        _ => return Err(not_applicable("6.48", "not one differential factor")),
    };
    transpose(
        st,
        at,
        &ip,
        (&dims, &sums, &pred),
        (&d.var, &d.idx),
        Some(other),
    );
    Ok(())
}

/// Rule 6.49 (unary contraction): `⟨[r] w, gen I. sum J. [p] dy[U]⟩ ⟶ let wy = gen K.
/// sum (I,J). [r && p && K == U] w[I] in ⟨[∃I J. r && p && K == U] wy, dy⟩`.
pub fn rule_6_49(st: &mut State, at: usize) -> Result<()> {
    let (ip, rhs) = tangent_at(st, at, "6.49")?;
    let Rhs::Contract {
        dims,
        sums,
        pred,
        y,
        z: None,
    } = rhs
    else {
        return Err(not_applicable("6.49", "not a unary contraction"));
    };
    if !differential(st, &y.var) {
        return Err(not_applicable("6.49", "the operand is not a differential"));
    }
    transpose(st, at, &ip, (&dims, &sums, &pred), (&y.var, &y.idx), None);
    Ok(())
}

/// Filler 6.x-copy (our decision; the paper's 6.40–6.43 are lost): the copy `gen I. sum
/// (). [p] dy[I]` transposes without a statement, `⟨[r] w, …⟩ ⟶ ⟨[r && p] w, dy⟩` (6.49
/// with `K == I` solved).
pub fn rule_6_x_copy(st: &mut State, at: usize) -> Result<()> {
    let (ip, rhs) = tangent_at(st, at, "6.x-copy")?;
    let Rhs::Contract {
        dims,
        sums,
        pred,
        y,
        z: None,
    } = rhs
    else {
        return Err(not_applicable("6.x-copy", "not a unary contraction"));
    };
    if !sums.is_empty() || y.idx != names_of(&dims) || !differential(st, &y.var) {
        return Err(not_applicable("6.x-copy", "not a copy of a differential"));
    }
    let r = and(filter_over(&ip.filter, &dims), pred);
    let w = st.left_var(&ip.left);
    st.ips[at] = on_diff(st, dims, r, w, &y.var);
    Ok(())
}

/// Filler 6.x-input: `⟨w, D⟦X.k…⟧⟩ = ⟨w, dX.k…⟩`; a pair-typed one is split into its
/// components by 6.18.
pub fn rule_6_x_input(st: &mut State, at: usize) -> Result<()> {
    let (ip, rhs) = tangent_at(st, at, "6.x-input")?;
    let Rhs::Input { input, path } = rhs else {
        return Err(not_applicable("6.x-input", "not an input"));
    };
    let mut new = Vec::new();
    for leaf in real_leaves(&ip.ty) {
        let ty = ty_at(&ip.ty, &leaf).cloned().unwrap_or(Ty::Num);
        let filter = if leaf.is_empty() {
            ip.filter.clone()
        } else {
            no_filter(&ty)
        };
        let mut lp = ip.left.path.clone();
        lp.extend(&leaf);
        let mut rp = path.clone();
        rp.extend(&leaf);
        new.push(Inner {
            filter,
            left: Left {
                var: ip.left.var.clone(),
                path: lp,
            },
            right: Right::Input {
                dx: input.clone(),
                path: rp,
            },
            ty,
        });
    }
    st.ips.splice(at..=at, new);
    Ok(())
}

/// Filler 6.x-const: `⟨[r] w, gen I.[p] c⟩ ⟶ 0` for the zero tangent (the inner product
/// disappears, 6.36).
pub fn rule_6_x_const(st: &mut State, at: usize) -> Result<()> {
    let (_, rhs) = tangent_at(st, at, "6.x-const")?;
    if !matches!(rhs, Rhs::Const { .. }) {
        return Err(not_applicable("6.x-const", "not a constant"));
    }
    st.ips.remove(at);
    Ok(())
}

/// Dropping the filter of the last inner product on an input component (§6.3, the
/// second cost adjustment of Theorem 6.55): `⟨[r] w, dX.k…⟩ ⟶ let a = gen K. sum ().
/// [r] w[K] in ⟨a, dX.k…⟩` (the new binding costs 0), then rule 6.27 pads it to `⟨(…a…),
/// dX⟩`.
pub fn drop_filter_and_pad(st: &mut State, at: usize) -> Result<()> {
    let Some(ip) = st.ips.get(at).cloned() else {
        return Err(not_applicable("6.27", "no inner product there"));
    };
    let Right::Input { dx, path } = &ip.right else {
        return Err(not_applicable("6.27", "not on a differential input"));
    };
    let w = st.left_var(&ip.left);
    let a = if ip.filter.pred == Pred::True {
        w
    } else {
        // The adjoint has the input's shape: where the filter ranges over other extents
        // (a read out of bounds, e.g. `v[i]` for `i < 2` of a `[0]num`), the binding ranges
        // over the input's, and indices past the filter's extent are excluded.
        let (k, pred) = input_dims(&ip.filter.dims, &ip.ty, &ip.filter.pred);
        let rhs = Rhs::Contract {
            dims: k.clone(),
            sums: Vec::new(),
            pred,
            y: Access {
                var: w,
                idx: names_of(&k),
            },
            z: None,
        };
        st.bind("w", &ip.ty, rhs)
    };
    let Some((_, _, xty)) = st.tangent_inputs.iter().find(|(_, d, _)| d == dx).cloned() else {
        return Err(internal(format!("`{dx}` is not a differential input")));
    };
    let adj = rule_6_27(&xty, path, Adj::Leaf(a))?;
    st.ips.remove(at);
    st.finals.push((dx.clone(), adj));
    Ok(())
}

/// The filter dims `k` with the extents of `ty` (the input component's type, same rank),
/// and `pred` with `i < n` added for each dim whose filter extent `n` is smaller.
fn input_dims(k: &Dims, ty: &Ty, pred: &Pred) -> (Dims, Pred) {
    let Some(ext) = shape(ty).filter(|e| e.len() == k.len()) else {
        return (k.clone(), pred.clone());
    };
    let mut p = pred.clone();
    let mut dims = Vec::with_capacity(k.len());
    for ((i, n), m) in k.iter().zip(ext) {
        if *n < m {
            p = Pred::And(
                Box::new(p),
                Box::new(Pred::Cmp(
                    adora_core::tl::CmpOp::Lt,
                    adora_core::tl::Index::var(i.clone()),
                    adora_core::tl::Index::constant(*n as i64),
                )),
            );
        }
        dims.push((i.clone(), m));
    }
    (dims, p)
}

/// Rule 6.27: `⟨a, dX.0⟩ ⟶ ⟨(a, 0), dX⟩` and `⟨a, dX.1⟩ ⟶ ⟨(0, a), dX⟩`, along the whole
/// path: the adjoint of a component, padded with zeros to the input's tangent type.
pub fn rule_6_27(xty: &Ty, path: &[u8], a: Adj) -> Result<Adj> {
    let Some((&k, rest)) = path.split_first() else {
        return Ok(a);
    };
    let Ty::Pair(t0, t1) = xty else {
        return Err(internal("6.27: the path leaves the pair type".into()));
    };
    Ok(if k == 0 {
        Adj::Pair(Box::new(rule_6_27(t0, rest, a)?), Box::new(zero_adj(t1)))
    } else {
        Adj::Pair(Box::new(zero_adj(t0)), Box::new(rule_6_27(t1, rest, a)?))
    })
}

/// The zero adjoint of a tangent type.
pub fn zero_adj(ty: &Ty) -> Adj {
    match ty {
        Ty::Pair(a, b) => Adj::Pair(Box::new(zero_adj(a)), Box::new(zero_adj(b))),
        t => Adj::Zero(t.clone()),
    }
}

/// Rule 6.28: `⟨a, dX⟩ + ⟨b, dX⟩ ⟶ ⟨a ⊕ b, dX⟩` with zero-aware addition, for the final
/// inner products at `i` and `j` (on the same input; components present on both sides
/// have been merged by 6.39 before).
pub fn rule_6_28(st: &mut State, i: usize, j: usize) -> Result<()> {
    let (Some((da, a)), Some((db, b))) = (st.finals.get(i).cloned(), st.finals.get(j).cloned())
    else {
        return Err(not_applicable("6.28", "no final inner products there"));
    };
    if i == j || da != db {
        return Err(not_applicable(
            "6.28",
            "not two inner products on one input",
        ));
    }
    let sum = plus(a, b)?;
    let (lo, hi) = (i.min(j), i.max(j));
    st.finals.remove(hi);
    st.finals[lo] = (da, sum);
    Ok(())
}

fn plus(a: Adj, b: Adj) -> Result<Adj> {
    Ok(match (a, b) {
        (Adj::Zero(_), x) | (x, Adj::Zero(_)) => x,
        (Adj::Pair(a0, a1), Adj::Pair(b0, b1)) => {
            Adj::Pair(Box::new(plus(*a0, *b0)?), Box::new(plus(*a1, *b1)?))
        }
        _ => {
            return Err(internal(
                "6.28: two adjoints of one input component (6.39 merges them first)".into(),
            ))
        }
    })
}

/// An input without any inner product: its adjoint is zero (`⟨0, dX⟩`, step 3).
pub fn zero_input(st: &mut State, dx: &Var) -> Result<()> {
    let Some((_, _, ty)) = st.tangent_inputs.iter().find(|(_, d, _)| d == dx).cloned() else {
        return Err(internal(format!("`{dx}` is not a differential input")));
    };
    st.finals.push((dx.clone(), zero_adj(&ty)));
    Ok(())
}

/// The adjoint tree as statements and an output (zeros become constant statements).
pub fn materialise(st: &mut State, adj: &Adj) -> Result<SsaOut> {
    Ok(match adj {
        Adj::Leaf(v) => SsaOut::Var(v.clone()),
        Adj::Pair(a, b) => {
            SsaOut::Pair(Box::new(materialise(st, a)?), Box::new(materialise(st, b)?))
        }
        Adj::Zero(ty) => {
            let rhs = zero_rhs(ty).ok_or_else(|| internal(format!("zero of {ty:?}")))?;
            SsaOut::Var(st.bind("z", ty, rhs))
        }
    })
}

/// Whether `ty` is a tangent type (kept for the driver's assertions).
pub fn is_tangent_ty(ty: &Ty) -> bool {
    tangent_ty(ty).as_ref() == Some(ty)
}
