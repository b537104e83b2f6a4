//! The reverse rules of `y = reduce_by_index(dest, op, ne, is, vs)` (seed 004 §5.1.2;
//! docs/engines/soac-rules.md). Each bucket `t` is the left fold of `op` from `dest[t]`
//! over the `vs[j]` with `is[j] = t`, in index order; out-of-bounds indices are dropped
//! (zero adjoint) and `ne` is not used by the fold (docs/language.md), so it has no
//! adjoint. `+`, `*`, `min`, `max` follow the reduce rules with `ȳ` replaced by
//! `ȳ[is[j]]`; a lambda operator takes the general rule (two sequential loops).

use super::code::*;
use super::recurrence::{builtin_of, rev_index, Lets};
use super::reduce::{factor_adjoint, nonzero, zero_indicator};
use super::{RevEnv, RuleOutput, Stmt};
use adora_core::ast::{BinOp, Expr, Lambda, Name, Op, Pat, Prim};
use adora_core::diag::Result;
use adora_core::types::{Base, Type};

/// The rule names of this module, as the rule table of docs/engines/soac-rules.md lists
/// them.
pub const RULES: [&str; 4] = [
    "reduce-by-index-plus",
    "reduce-by-index-mul",
    "reduce-by-index-minmax",
    "reduce-by-index-general",
];

/// The operands and sizes every rule of this module uses.
struct Hist<'s> {
    dest: &'s Expr,
    is: &'s Expr,
    vs: &'s Expr,
    /// Number of buckets.
    b: usize,
    /// Number of values.
    m: usize,
    /// Slice shape.
    sh: Vec<usize>,
}

impl Hist<'_> {
    /// `build m (j => let t = is[j] in if 0 <= t < b then f(j, t) else 0)`.
    fn per_value(&self, l: &mut Lets, f: impl FnOnce(&Name, Expr) -> Expr) -> Expr {
        let (j, t) = (l.fresh("j"), l.fresh("t"));
        let inside = f(&j, var(&t));
        let body = let_(
            Pat::Var(t.clone()),
            at(self.is.clone(), var(&j)),
            if_in_bounds(var(&t), self.b, inside, zeros(&self.sh)),
        );
        build(vec![self.m], vec![j], body)
    }
}

/// The return sweep of `y = reduce_by_index(dest, op, ne, is, vs)`: contributions to
/// `dest` and `vs` (and to the operator's free variables).
pub fn reverse(env: &mut dyn RevEnv, op: &Op, s: &Stmt) -> Result<RuleOutput> {
    let [dest, _ne, is, vs] = s.operands.as_slice() else {
        return Err(malformed("`reduce_by_index` has four operands"));
    };
    let none = || RuleOutput {
        lets: Vec::new(),
        operands: vec![None; 4],
        free: Vec::new(),
    };
    let Some(dsh) = real_shape(&s.types[0]) else {
        return Ok(none());
    };
    let (m, _) = outer(&s.types[3])?;
    let h = Hist {
        dest,
        is,
        vs,
        b: dsh[0],
        m,
        sh: dsh[1..].to_vec(),
    };
    let mut l = Lets::new(env);
    let op = match op {
        Op::Lambda(lam) => builtin_of(lam).unwrap_or_else(|| op.clone()),
        _ => op.clone(),
    };
    let (dest_bar, vs_bar, free) = match &op {
        Op::Add => {
            let vs_bar = h.per_value(&mut l, |_, t| at(s.adjoint.clone(), t));
            (s.adjoint.clone(), vs_bar, Vec::new())
        }
        Op::Mul => times(&mut l, &h, &s.adjoint),
        Op::Min | Op::Max => min_max(&mut l, &h, s),
        Op::Lambda(lam) => general(&mut l, &h, lam, &s.adjoint)?,
    };
    Ok(RuleOutput {
        lets: l.lets,
        operands: vec![
            for_operand(dest, dest_bar),
            None,
            None,
            for_operand(vs, vs_bar),
        ],
        free,
    })
}

type Adjoints = (Expr, Expr, Vec<(String, Expr)>);

/// `reduce-by-index-mul` (§5.1.2 with §5.1.1): zeros counted and non-zero factors
/// multiplied per bucket by two `reduce_by_index`, then the factor rule per element.
fn times(l: &mut Lets, h: &Hist, yb: &Expr) -> Adjoints {
    let sh = &h.sh;
    let indicator = |l: &mut Lets, arr: &Expr, f: fn(Expr, &[usize]) -> Expr| {
        let x = l.fresh("x");
        map(vec![x.clone()], f(var(&x), sh), vec![arr.clone()])
    };
    let (dz, vz) = (
        indicator(l, h.dest, zero_indicator),
        indicator(l, h.vs, zero_indicator),
    );
    let cz = l.bind(
        "zeros",
        reduce_by_index(dz, Op::Add, zeros(sh), h.is.clone(), vz),
    );
    let (dn, vn) = (indicator(l, h.dest, nonzero), indicator(l, h.vs, nonzero));
    let p = l.bind(
        "product",
        reduce_by_index(dn, Op::Mul, ones(sh), h.is.clone(), vn),
    );
    let adj = |a: Expr, t: Expr| {
        factor_adjoint(
            at(yb.clone(), t.clone()),
            a,
            at(cz.clone(), t.clone()),
            at(p.clone(), t),
            sh,
        )
    };
    let t = l.fresh("t");
    let dest_bar = build(
        vec![h.b],
        vec![t.clone()],
        adj(at(h.dest.clone(), var(&t)), var(&t)),
    );
    let vs_bar = h.per_value(l, |j, t| adj(at(h.vs.clone(), var(j)), t));
    (dest_bar, vs_bar, Vec::new())
}

/// `reduce-by-index-minmax` (§5.1.2, our tie decision of docs/language.md): the
/// destination keeps a tie, so `dest[t]` gets `ȳ[t]` where it equals `y[t]`; otherwise the
/// lowest `j` with `is[j] = t` and `vs[j] = y[t]` (found by a `reduce_by_index(min)` of
/// the indices of the hits) gets it. Per slice position.
fn min_max(l: &mut Lets, h: &Hist, s: &Stmt) -> Adjoints {
    let sh = &h.sh;
    let (d, y) = (l.fresh("d"), l.fresh("y"));
    let keeps = select(bin(BinOp::Eq, var(&d), var(&y)), ones(sh), zeros(sh));
    let keeps = l.bind(
        "dest_wins",
        map(vec![d, y], keeps, vec![h.dest.clone(), s.result.clone()]),
    );
    let hit = |j: &Name, t: Expr| {
        select(
            bin(
                BinOp::Eq,
                at(h.vs.clone(), var(j)),
                at(s.result.clone(), t.clone()),
            ),
            select(
                bin(BinOp::Eq, at(keeps.clone(), t), ones(sh)),
                zeros(sh),
                ones(sh),
            ),
            zeros(sh),
        )
    };
    let hits = h.per_value(l, hit);
    let hits = l.bind("hits", hits);
    let index_of = |j: &Name| fill(sh, prim(Prim::Real, vec![var(j)]));
    let never = fill(sh, real(h.m as i64));
    let j = l.fresh("j");
    let cand = select(
        bin(BinOp::Eq, at(hits.clone(), var(&j)), ones(sh)),
        index_of(&j),
        never.clone(),
    );
    let cand = build(vec![h.m], vec![j], cand);
    let first = l.bind(
        "first",
        reduce_by_index(
            fill(&[h.b], never.clone()),
            Op::Min,
            never,
            h.is.clone(),
            cand,
        ),
    );
    let vs_bar = h.per_value(l, |j, t| {
        select(
            bin(BinOp::Eq, at(hits.clone(), var(j)), ones(sh)),
            select(
                bin(BinOp::Eq, at(first.clone(), t.clone()), index_of(j)),
                at(s.adjoint.clone(), t),
                zeros(sh),
            ),
            zeros(sh),
        )
    });
    let (k, g) = (l.fresh("k"), l.fresh("g"));
    let dest_bar = map(
        vec![k.clone(), g.clone()],
        select(bin(BinOp::Eq, var(&k), ones(sh)), var(&g), zeros(sh)),
        vec![keeps, s.adjoint.clone()],
    );
    (dest_bar, vs_bar, Vec::new())
}

/// `reduce-by-index-general` (§5.1.2; our decision: the paper's multi-scan is work in
/// progress there). A forward `loop` over `j` replays the histogram and saves the
/// bucket value `cur_j` each `vs[j]` met; a reverse `loop` runs the operator's reverse at
/// `(cur_j, vs[j], h̄[is[j]])` for `j` descending, replacing `h̄[is[j]]` by the adjoint of
/// the accumulator and setting `v̄s[j]`. Both loops run `m` iterations; each iteration
/// copies its accumulators, so the work is `O(m·(b + m)·k)` (`k` the slice size) and the
/// span `O(m)` in the cost models.
fn general(l: &mut Lets, h: &Hist, lam: &Lambda, yb: &Expr) -> Result<Adjoints> {
    let sh = &h.sh;
    let (b, m) = (h.b, h.m);
    let slice = Type::Array(Base::R, sh.clone());
    let lv = l
        .env
        .lambda_vjp(lam, &[slice.clone(), slice.clone()], &slice)?;
    if lv.lambda.params.len() != 3 {
        return Err(malformed(
            "the reverse of an operator takes three parameters",
        ));
    }
    let all = |d: usize| zeros(&[&[d][..], sh].concat());
    let put = |arr: Expr, at_: Expr, v: Expr| scatter_into(arr, array(vec![at_]), array(vec![v]));
    // forward: (hist, curs) = loop ((hh, cs) = (dest, 0)) for j < m do …
    let (hh, cs, j, t, c) = (
        l.fresh("hist"),
        l.fresh("curs"),
        l.fresh("j"),
        l.fresh("t"),
        l.fresh("cur"),
    );
    let next = apply(
        l.env,
        &lam.clone(),
        vec![var(&c), at(h.vs.clone(), var(&j))],
    );
    let step = let_(
        Pat::Var(c.clone()),
        at(var(&hh), var(&t)),
        tuple(vec![
            put(var(&hh), var(&t), next),
            put(var(&cs), var(&j), var(&c)),
        ]),
    );
    let body = let_(
        Pat::Var(t.clone()),
        at(h.is.clone(), var(&j)),
        if_in_bounds(var(&t), b, step, tuple(vec![var(&hh), var(&cs)])),
    );
    let fwd = lp(
        Pat::Tuple(vec![hh, cs]),
        tuple(vec![h.dest.clone(), all(m)]),
        j,
        m,
        body,
    );
    let (hist_f, curs) = (l.fresh("hist"), l.fresh("curs"));
    l.lets
        .push((Pat::Tuple(vec![hist_f.clone(), curs.clone()]), fwd));
    // reverse: loop over j descending.
    let mut state = vec![l.fresh("hist_bar"), l.fresh("vs_bar")];
    let mut init = vec![yb.clone(), all(m)];
    for (v, ty) in &lv.free {
        let Some(fsh) = real_shape(ty) else {
            return Err(unsupported(format!(
                "soac reverse rule: the operator's free variable `{v}` has type {ty}, not an array of reals"
            )));
        };
        state.push(l.fresh("free_bar"));
        init.push(zeros(fsh));
    }
    let (q, j, t, r) = (l.fresh("q"), l.fresh("j"), l.fresh("t"), l.fresh("r"));
    let call = apply(
        l.env,
        &lv.lambda,
        vec![
            at(var(&curs), var(&j)),
            at(h.vs.clone(), var(&j)),
            at(var(&state[0]), var(&t)),
        ],
    );
    let mut parts = vec![
        put(var(&state[0]), var(&t), proj(var(&r), 0)),
        put(var(&state[1]), var(&j), proj(var(&r), 1)),
    ];
    for (f, name) in state.iter().enumerate().skip(2) {
        parts.push(add(var(name), proj(var(&r), f)));
    }
    let update = let_(Pat::Var(r), call, tuple(parts));
    let keep = tuple(state.iter().map(|n| var(n)).collect());
    let body = let_(
        Pat::Var(j.clone()),
        rev_index(m, var(&q)),
        let_(
            Pat::Var(t.clone()),
            at(h.is.clone(), var(&j)),
            if_in_bounds(var(&t), b, update, keep),
        ),
    );
    let rev = lp(Pat::Tuple(state.clone()), tuple(init), q, m, body);
    let mut outs = vec![l.fresh("dest_bar"), l.fresh("vs_bar")];
    for _ in 2..state.len() {
        outs.push(l.fresh("free_bar"));
    }
    l.lets.push((Pat::Tuple(outs.clone()), rev));
    let free = lv
        .free
        .iter()
        .zip(&outs[2..])
        .map(|((v, _), o)| (v.clone(), var(o)))
        .collect();
    Ok((var(&outs[0]), var(&outs[1]), free))
}
