//! Pair elimination (seed 001 §5.2, Fig. 8, rules 5.11–5.20) as an egg rule system: pairs
//! disappear from everything but input expressions and the output, by pushing
//! projections inwards and splitting pair-typed `let`s.
//!
//! Terms are typed up to the struct-of-arrays isomorphism `[n](T0 × T1) ≅ [n]T0 × [n]T1`
//! (the analysis keeps types in SoA form, [`super::types`]); the intermediates are
//! evaluated with projections and accesses conjugated by it.
//!
//! | rule | equation | formula | note | tag |
//! |---|---|---|---|---|
//! | `tl/5.11-0`, `tl/5.11-1` | 5.11 | `(e0, e1).k ⟶ e_k` | | reconstructed |
//! | `tl/5.12-0`, `tl/5.12-1` | 5.12 | `(gen i:n. e).k ⟶ gen i:n. e.k` | typed up to ≅ | reconstructed |
//! | `tl/5.13-0`, `tl/5.13-1` | 5.13 | `(e[a]).k ⟶ (e.k)[a]` | typed up to ≅ | paper ("interchange of projection and tensor access") |
//! | `tl/5.14-0`, `tl/5.14-1` | 5.14 | `([p] e).k ⟶ [p](e.k)` | | reconstructed |
//! | `tl/5.15` | 5.15 | `(e0, e1)[a] ⟶ (e0[a], e1[a])` | ≅ | reconstructed |
//! | `tl/5.16` | 5.16 | `gen i:n. (e0, e1) ⟶ (gen i:n. e0, gen i:n. e1)` | SoA | reconstructed |
//! | `tl/5.17` | 5.17 | `[p](e0, e1) ⟶ ([p] e0, [p] e1)` | | reconstructed |
//! | `tl/5.18` | 5.18 | `let x = e1 in e2 ⟶ let x0 = e1.0 in let x1 = e1.1 in e2{x := (x0, x1)}` | `e1 : T0 × T1` up to ≅; duplicates `e1` | paper (the duplicated right-hand side) |
//! | `tl/5.19` | 5.19 | `let x = (e0, e1) in e2 ⟶ let x0 = e0 in let x1 = e1 in e2{x := (x0, x1)}` | no duplication | reconstructed (R?) |
//! | `tl/5.20-0`, `tl/5.20-1` | 5.20 | `(let x = e1 in e2).k ⟶ let x = e1 in e2.k` | closure only | reconstructed (R?) |
//!
//! 5.18 and 5.19 substitute (`x := (x0, x1)`, also in the data paths of data predicates):
//! a custom applier ([`super::appliers::SplitLet`]).
//!
//! A pre-pass (our decision, docs/engines/tssa-passes.md, "Pair elimination") η-expands
//! every pair-typed output leaf `l` that is neither a variable nor an input expression to
//! `(l.0, l.1)`, down to non-pairs; the rules then push the projections inwards. Without
//! it a leaf such as `[p] (gen i:n. X)[a]` over a pair-typed input `X` keeps its pair type
//! (no rule fires on it), and gen push-out has no normal form for it.

use super::analysis::TlAnalysis;
use super::appliers::{Ctx, SplitLet};
use super::extract::Mode;
use super::lang::Tl;
use super::letlift::reorder;
use super::nf::{check_ll_nf, check_pe_nf, is_input_path, spine};
use super::run::{run_pass, Limits, PassReport};
use super::types::{binder_types, is_pair, is_soa, soa, type_of};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::tl::{Term, Ty, Var};
use egg::{rewrite as rw, Rewrite};
use std::collections::{BTreeMap, BTreeSet};

/// The rules of pair elimination, in the order of the table.
pub fn rules(ctx: &Ctx) -> Vec<Rewrite<Tl, TlAnalysis>> {
    vec![
        rw!("tl/5.11-0"; "(proj0 (pair ?a ?b))" => "?a"),
        rw!("tl/5.11-1"; "(proj1 (pair ?a ?b))" => "?b"),
        rw!("tl/5.12-0"; "(proj0 (gen ?b ?e))" => "(gen ?b (proj0 ?e))"),
        rw!("tl/5.12-1"; "(proj1 (gen ?b ?e))" => "(gen ?b (proj1 ?e))"),
        rw!("tl/5.13-0"; "(proj0 (at ?e ?a))" => "(at (proj0 ?e) ?a)"),
        rw!("tl/5.13-1"; "(proj1 (at ?e ?a))" => "(at (proj1 ?e) ?a)"),
        rw!("tl/5.14-0"; "(proj0 (br ?p ?e))" => "(br ?p (proj0 ?e))"),
        rw!("tl/5.14-1"; "(proj1 (br ?p ?e))" => "(br ?p (proj1 ?e))"),
        rw!("tl/5.15"; "(at (pair ?e0 ?e1) ?a)" => "(pair (at ?e0 ?a) (at ?e1 ?a))"),
        rw!("tl/5.16"; "(gen ?b (pair ?e0 ?e1))" => "(pair (gen ?b ?e0) (gen ?b ?e1))"),
        rw!("tl/5.17"; "(br ?p (pair ?e0 ?e1))" => "(pair (br ?p ?e0) (br ?p ?e1))"),
        rw!("tl/5.18"; "(let ?x ?e1 ?e2)" => { SplitLet { pair: false, ctx: ctx.clone() } }),
        rw!("tl/5.19"; "(let ?x (pair ?a ?b) ?e2)" => { SplitLet { pair: true, ctx: ctx.clone() } }),
        rw!("tl/5.20-0"; "(proj0 (let ?x ?e1 ?e2))" => "(let ?x ?e1 (proj0 ?e2))"),
        rw!("tl/5.20-1"; "(proj1 (let ?x ?e1 ?e2))" => "(let ?x ?e1 (proj1 ?e2))"),
    ]
}

/// Pair elimination with limits and a rule order (see [`super::letlift::letlift_report`]).
pub fn pairelim_report(
    t: &Term,
    inputs: &[(Var, Ty)],
    limits: &Limits,
    order: Option<&[usize]>,
) -> Result<(Term, PassReport)> {
    check_ll_nf(t).map_err(|m| {
        Diagnostic::new(
            ErrorKind::Internal,
            Span::DUMMY,
            format!("tssa pair elimination: the input is not in LL-NF ({m})"),
        )
    })?;
    if let Some((x, ty)) = inputs.iter().find(|(_, ty)| !is_soa(ty)) {
        return Err(Diagnostic::new(
            ErrorKind::Unsupported,
            Span::DUMMY,
            format!(
                "tssa pair elimination: input {x} has a type that is not struct-of-arrays ({ty:?})"
            ),
        ));
    }
    let t = &split_pair_leaves(t, inputs);
    run_pass(
        "pair elimination",
        t,
        inputs,
        Mode::PairElim,
        |ctx| reorder(rules(ctx), order),
        limits,
        |u| check_pe_nf(u, inputs),
    )
}

/// Pair elimination (rules 5.11–5.20): `t` (in LL-NF) in PE-NF, with the same value up
/// to ≅ and the same cost `C`.
pub fn pairelim(t: &Term, inputs: &[(Var, Ty)]) -> Result<Term> {
    Ok(pairelim_report(t, inputs, &Limits::default(), None)?.0)
}

/// The pre-pass (module documentation): every output leaf of pair type (up to ≅) that is
/// neither a variable nor an input expression, `l`, becomes `(l.0, l.1)`, repeatedly.
pub fn split_pair_leaves(t: &Term, inputs: &[(Var, Ty)]) -> Term {
    let env: BTreeMap<Var, Ty> = inputs.iter().map(|(x, ty)| (x.clone(), soa(ty))).collect();
    let mut types = env.clone();
    binder_types(t, &env, &mut types);
    let (binds, body) = spine(t);
    let bound: BTreeSet<&Var> = binds.iter().map(|(x, _)| *x).collect();
    let mut out = split_leaf(body, &types, &bound);
    for (x, r) in binds.into_iter().rev() {
        out = Term::Let(x.clone(), Box::new(r.clone()), Box::new(out));
    }
    out
}

fn split_leaf(l: &Term, types: &BTreeMap<Var, Ty>, bound: &BTreeSet<&Var>) -> Term {
    match l {
        Term::Pair(a, b) => Term::Pair(
            Box::new(split_leaf(a, types, bound)),
            Box::new(split_leaf(b, types, bound)),
        ),
        Term::Var(_) => l.clone(),
        l if is_input_path(l, bound) => l.clone(),
        l if type_of(l, types).is_some_and(|ty| is_pair(&ty)) => {
            let side = |k: u8| split_leaf(&Term::Proj(k, Box::new(l.clone())), types, bound);
            Term::Pair(Box::new(side(0)), Box::new(side(1)))
        }
        l => l.clone(),
    }
}
