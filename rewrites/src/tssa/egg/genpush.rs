//! Gen push-out (seed 001 §5.3, Fig. 9, rules 5.21–5.24 and our 5.24a) as an egg rule
//! system: every right-hand side becomes `gen I. s` with `s` a scalar expression of
//! brackets, sums and scalar operations over accesses of variables (GP-NF).
//!
//! | rule | equation | formula | side condition | tag |
//! |---|---|---|---|---|
//! | `tl/5.21` | 5.21 | `(gen i:n. e)[a] ⟶ [0 <= a && a < n] e{i := a}` (no guard when `a` is a constant in range) | — | reconstructed; the guard is our decision (out-of-bounds reads give 0) |
//! | `tl/5.22` | 5.22 | `([p] e)[a] ⟶ [p](e[a])` | — | reconstructed |
//! | `tl/5.23` | 5.23 | `[p](gen i:n. e) ⟶ gen i:n. [p] e` | `i ∉ fv(p)` | reconstructed |
//! | `tl/5.24` | 5.24 | `[p]([q] e) ⟶ [p && q] e` (conjuncts flattened, deduplicated, sorted) | — | reconstructed (R?) |
//! | `tl/5.24a-let`, `-bracket`, `-gen` | — | η of an array-typed data path `p : [n]T` (a variable, accesses and projections of one) where GP-NF needs a scalar: `let x = p in e ⟶ let x = (gen j:n. p[j]) in e`, `[q] p ⟶ gen j:n. [q] p[j]`, `gen i:m. p ⟶ gen i:m. gen j:n. p[j]`; output leaves by a pre-pass | `j` fresh | our decision |
//!
//! 5.21 substitutes (`i := a`) and adds a guard, 5.24 builds a new predicate, 5.24a
//! needs a fresh binder and the type: custom appliers ([`super::appliers`]). 5.24a unions
//! the expansion with its context, not with the class of `p` (which also feeds accesses,
//! where an η-expanded member would make every access a 5.21 redex and the e-graph grow
//! without need). After extraction, a plain naming pass binds every input
//! expression read inside a scalar expression (`X.0[a]`) to a variable at the top
//! (`let x = X.0 in …`), so that accesses are of variables only.

use super::analysis::{TlAnalysis, TlGraph};
use super::appliers::{pv, Beta, Conj, Ctx, Eta, EtaAt};
use super::extract::Mode;
use super::lang::Tl;
use super::letlift::reorder;
use super::names::{canonical, safe_prefix};
use super::nf::{check_gp_nf, check_gp_nf_with, check_pe_nf, is_input_path, spine};
use super::run::{run_pass, Limits, PassReport};
use super::types::{binder_types, soa, type_of};
use super::vars::{aff_var, Free};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::tl::{Term, Ty, Var};
use egg::{rewrite as rw, Id, Rewrite, Subst};
use std::collections::{BTreeMap, BTreeSet};

fn ivar_not_in_pred(eg: &mut TlGraph, _: Id, s: &Subst) -> bool {
    let i = match eg[s[pv("?b")]].nodes.first() {
        Some(Tl::Bind(b)) => b.0 .0.clone(),
        _ => return false,
    };
    !eg[s[pv("?p")]].data.free.ivars.contains(&i)
}

/// The rules of gen push-out, in the order of the table.
pub fn rules(ctx: &Ctx) -> Vec<Rewrite<Tl, TlAnalysis>> {
    vec![
        rw!("tl/5.21"; "(at (gen ?b ?e) ?a)" => { Beta { ctx: ctx.clone() } }),
        rw!("tl/5.22"; "(at (br ?p ?e) ?a)" => "(br ?p (at ?e ?a))"),
        rw!("tl/5.23"; "(br ?p (gen ?b ?e))" => "(gen ?b (br ?p ?e))" if ivar_not_in_pred),
        rw!("tl/5.24"; "(br ?p (br ?q ?e))" => { Conj }),
        rw!("tl/5.24a-let"; "(let ?x ?p ?e)" => { Eta { at: EtaAt::Let } }),
        rw!("tl/5.24a-bracket"; "(br ?q ?p)" => { Eta { at: EtaAt::Bracket } }),
        rw!("tl/5.24a-gen"; "(gen ?b ?p)" => { Eta { at: EtaAt::Gen } }),
    ]
}

/// Gen push-out with limits and a rule order (see [`super::letlift::letlift_report`]).
pub fn genpush_report(
    t: &Term,
    inputs: &[(Var, Ty)],
    limits: &Limits,
    order: Option<&[usize]>,
) -> Result<(Term, PassReport)> {
    check_pe_nf(t, inputs).map_err(|m| {
        Diagnostic::new(
            ErrorKind::Internal,
            Span::DUMMY,
            format!("tssa gen push-out: the input is not in PE-NF ({m})"),
        )
    })?;
    let t = &eta_outputs(t, inputs);
    let (out, report) = run_pass(
        "gen push-out",
        t,
        inputs,
        Mode::GenPush,
        |ctx| reorder(rules(ctx), order),
        limits,
        |u| check_gp_nf_with(u, inputs, true),
    )?;
    let names: Vec<Var> = inputs.iter().map(|(x, _)| x.clone()).collect();
    let out = canonical(&name_input_paths(&out), &names);
    check_gp_nf(&out, inputs).map_err(|m| {
        Diagnostic::new(
            ErrorKind::Internal,
            Span::DUMMY,
            format!("tssa gen push-out: result not in GP-NF after naming input expressions ({m})"),
        )
    })?;
    Ok((out, report))
}

/// Gen push-out (rules 5.21–5.24a): `t` (in PE-NF) in GP-NF, with the same value and a
/// cost `C` no larger. `inputs` are the free variables' types (the η rule 5.24a needs
/// the sizes of array inputs).
pub fn genpush(t: &Term, inputs: &[(Var, Ty)]) -> Result<Term> {
    Ok(genpush_report(t, inputs, &Limits::default(), None)?.0)
}

/// Rule 5.24a at the output: every output leaf that is an array-typed data path other
/// than a variable or an input expression (`x[a] : [n]T`) becomes `gen j:n. x[a][j]`
/// (repeatedly, down to scalars). A plain pre-pass: the output position is not a
/// pattern context.
fn eta_outputs(t: &Term, inputs: &[(Var, Ty)]) -> Term {
    let env: BTreeMap<Var, Ty> = inputs.iter().map(|(x, ty)| (x.clone(), soa(ty))).collect();
    let mut types = env.clone();
    binder_types(t, &env, &mut types);
    let (binds, body) = spine(t);
    let bound: BTreeSet<&Var> = binds.iter().map(|(x, _)| *x).collect();
    let mut out = out_map(body, &mut |leaf| eta_leaf(leaf, &types, &bound));
    for (x, r) in binds.into_iter().rev() {
        out = Term::Let(x.clone(), Box::new(r.clone()), Box::new(out));
    }
    out
}

fn is_data_path(t: &Term) -> bool {
    match t {
        Term::Var(_) => true,
        Term::Access(e, _) | Term::Proj(_, e) => is_data_path(e),
        _ => false,
    }
}

fn eta_leaf(l: &Term, types: &BTreeMap<Var, Ty>, bound: &BTreeSet<&Var>) -> Term {
    if matches!(l, Term::Var(_)) || is_input_path(l, bound) || !is_data_path(l) {
        return l.clone();
    }
    let Some(Ty::Arr(n, _)) = type_of(l, types) else {
        return l.clone();
    };
    let free = Free::of_term(l).ivars;
    let j = (0..)
        .map(|k| format!("η{k}"))
        .find(|j| !free.contains(j))
        .expect("a fresh name");
    let inner = Term::Access(Box::new(l.clone()), aff_var(&j));
    Term::Gen(j, n, Box::new(eta_leaf(&inner, types, bound)))
}

/// Binds every input expression that is read inside a scalar expression (not a whole
/// right-hand side or output leaf) to a fresh variable at the top.
fn name_input_paths(t: &Term) -> Term {
    let free = Free::of_term(t);
    let prefix = safe_prefix("x", free.vars.iter());
    let (binds, body) = spine(t);
    let bound: BTreeSet<&Var> = binds.iter().map(|(x, _)| *x).collect();
    let mut names: BTreeMap<Term, Var> = BTreeMap::new();
    let mut walk = |r: &Term| -> Term {
        if is_input_path(r, &bound) {
            r.clone()
        } else {
            replace_paths(r, &bound, &prefix, &mut names)
        }
    };
    let new_binds: Vec<(Var, Term)> = binds.iter().map(|(x, r)| ((*x).clone(), walk(r))).collect();
    let new_body = out_map(body, &mut walk);
    let mut out = new_body;
    for (x, r) in new_binds.into_iter().rev() {
        out = Term::Let(x, Box::new(r), Box::new(out));
    }
    let mut named: Vec<(Var, Term)> = names.into_iter().map(|(p, x)| (x, p)).collect();
    named.sort();
    for (x, p) in named.into_iter().rev() {
        out = Term::Let(x, Box::new(p), Box::new(out));
    }
    out
}

fn out_map(t: &Term, f: &mut impl FnMut(&Term) -> Term) -> Term {
    match t {
        Term::Pair(a, b) => {
            let a = out_map(a, f);
            Term::Pair(Box::new(a), Box::new(out_map(b, f)))
        }
        t => f(t),
    }
}

fn replace_paths(
    t: &Term,
    bound: &BTreeSet<&Var>,
    prefix: &str,
    names: &mut BTreeMap<Term, Var>,
) -> Term {
    if matches!(t, Term::Proj(..)) && is_input_path(t, bound) {
        let k = names.len();
        let x = names
            .entry(t.clone())
            .or_insert_with(|| format!("{prefix}{k}"));
        return Term::Var(x.clone());
    }
    let mut r = |e: &Term| Box::new(replace_paths(e, bound, prefix, names));
    match t {
        Term::Var(_) | Term::Const(_) | Term::IndexConst(_) => t.clone(),
        Term::Add(a, b) => Term::Add(r(a), r(b)),
        Term::Mul(a, b) => Term::Mul(r(a), r(b)),
        Term::Pair(a, b) => Term::Pair(r(a), r(b)),
        Term::Call(f, e) => Term::Call(*f, r(e)),
        Term::Proj(k, e) => Term::Proj(*k, r(e)),
        Term::Gen(i, n, e) => Term::Gen(i.clone(), *n, r(e)),
        Term::Sum(i, n, e) => Term::Sum(i.clone(), *n, r(e)),
        Term::Access(e, a) => Term::Access(r(e), a.clone()),
        Term::Bracket(p, e) => Term::Bracket(p.clone(), r(e)),
        Term::Let(x, a, b) => Term::Let(x.clone(), r(a), r(b)),
    }
}
