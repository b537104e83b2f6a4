//! Let-lifting (seed 001 §5.1, Fig. 7, rules 5.1–5.10) as an egg rule system: every `let`
//! moves outwards until the term is in LL-NF (`let x = r in … r`, every `r` let-free).
//!
//! | rule | equation | formula | side condition | tag |
//! |---|---|---|---|---|
//! | `tl/5.1`, `tl/5.1-mirror` | 5.1 | `(let x = e1 in e2) + e3 ⟶ let x = e1 in (e2 + e3)` and mirrored | `x ∉ fv(e3)` | reconstructed (number R?) |
//! | `tl/5.2`, `tl/5.2-mirror` | 5.2 | `(let x = e1 in e2) * e3 ⟶ let x = e1 in (e2 * e3)` and mirrored | `x ∉ fv(e3)` | reconstructed (number R?) |
//! | `tl/5.3` | 5.3 | `f(let x = e1 in e2) ⟶ let x = e1 in f(e2)` | — | reconstructed (number R?) |
//! | `tl/5.4`, `tl/5.4-mirror` | 5.4 | `(let x = e1 in e2, e3) ⟶ let x = e1 in (e2, e3)` and mirrored | `x ∉ fv(e3)` | reconstructed (number R?) |
//! | `tl/5.5-0`, `tl/5.5-1` | 5.5 | `(let x = e1 in e2).k ⟶ let x = e1 in e2.k` | — | reconstructed (number R?) |
//! | `tl/5.6` | 5.6 | `gen i:n. (let x = e1 in e2) ⟶ let x' = gen i:n. e1 in gen i:n. e2{x := x'[i]}` | `x'` fresh | paper (loop fission; form reconstructed) |
//! | `tl/5.7` | 5.7 | `sum i:n. (let x = e1 in e2) ⟶ let x' = gen i:n. e1 in sum i:n. e2{x := x'[i]}` | `x'` fresh | paper (form reconstructed) |
//! | `tl/5.8` | 5.8 | `(let x = e1 in e2)[a] ⟶ let x = e1 in e2[a]` | — | reconstructed (number R?) |
//! | `tl/5.9` | 5.9 | `[p](let x = e1 in e2) ⟶ let x = [p] e1 in [p] e2` (the predicate copied onto the binding, for cost-neutrality) | `x ∉ fv(p)` | paper (number pinned by the prose) |
//! | `tl/5.10` | 5.10 | `let y = (let x = e1 in e2) in e3 ⟶ let x = e1 in let y = e2 in e3` | `x ∉ fv(e3)` | reconstructed (number R?) |
//!
//! 5.6 and 5.7 substitute (`x := x'[i]`), which is not a pattern rewrite: a custom
//! applier ([`super::appliers::LiftLet`]) extracts a representative of `e2`,
//! substitutes on it and adds the result. [`LetLiftOptions::copy_predicate`] `= false`
//! replaces 5.9 by the variant without the copy (`let x = e1 in [p] e2`), correct but not
//! cost-neutral (property S001-X5.1d). The invariant-motion variants 5.6′/5.7′ are not
//! rules of this system (they are not cost-neutral).
//!
//! [`letlift_report`] runs the rules by the direct strategy of [`super::letlift_direct`]
//! by default ([`Strategy::Direct`]): saturation keeps every partial lifting of every
//! `let`, and the e-graph grows combinatorially with the number of lets under nested
//! `gen`/`sum` (docs/check.md, "At 4× size"). [`Strategy::Saturation`] runs this egg rule
//! system; the per-rule properties ([`super::single`]) always use its rules, and
//! `tssa/let-lift-direct-agrees-with-saturation` compares the two.

use super::analysis::{TlAnalysis, TlGraph};
use super::appliers::{pv, Ctx, LiftLet};
use super::extract::Mode;
use super::lang::Tl;
use super::letlift_direct::letlift_direct;
use super::nf::check_ll_nf;
use super::run::{run_pass, Limits, PassReport};
use adora_core::diag::Result;
use adora_core::tl::{Term, Ty, Var};
use egg::{rewrite as rw, Id, Rewrite, Subst};

/// How the rules of let-lifting are run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strategy {
    /// Bottom-up, one rule application per lifted binding, no e-graph
    /// ([`super::letlift_direct`]); the limits are not used.
    #[default]
    Direct,
    /// Equality saturation of the egg rule system, under the limits, in the rule order
    /// given (if any).
    Saturation,
}

/// Options of let-lifting (builder style: `LetLiftOptions::default().with_…`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LetLiftOptions {
    /// Copy the predicate onto the binding in rule 5.9 (the paper's rule; `false` only
    /// for the property that shows why).
    pub copy_predicate: bool,
    /// The runner's limits (saturation only).
    pub limits: Limits,
    /// Direct (the default) or saturation.
    pub strategy: Strategy,
}

impl Default for LetLiftOptions {
    /// The predicate copied, the default limits, the direct strategy.
    fn default() -> Self {
        LetLiftOptions {
            copy_predicate: true,
            limits: Limits::default(),
            strategy: Strategy::Direct,
        }
    }
}

impl LetLiftOptions {
    /// With rule 5.9's predicate copy on or off.
    pub fn with_copy_predicate(mut self, copy: bool) -> Self {
        self.copy_predicate = copy;
        self
    }
    /// With the runner's limits (used by [`Strategy::Saturation`]).
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
    /// With the strategy.
    pub fn with_strategy(mut self, strategy: Strategy) -> Self {
        self.strategy = strategy;
        self
    }
}

/// The condition `x ∉ fv(e)` for pattern variables `?x` (a binder) and `e`.
pub fn not_free(e: &'static str) -> impl Fn(&mut TlGraph, Id, &Subst) -> bool {
    move |eg, _, s| {
        let x = match eg[s[pv("?x")]].nodes.first() {
            Some(Tl::Name(x)) => x.0.clone(),
            _ => return false,
        };
        !eg[s[pv(e)]].data.free.vars.contains(&x)
    }
}

/// The rules of let-lifting, in the order of the table.
pub fn rules(ctx: &Ctx, copy_predicate: bool) -> Vec<Rewrite<Tl, TlAnalysis>> {
    let mut r = vec![
        rw!("tl/5.1"; "(+ (let ?x ?e1 ?e2) ?e3)" => "(let ?x ?e1 (+ ?e2 ?e3))" if not_free("?e3")),
        rw!("tl/5.1-mirror"; "(+ ?e3 (let ?x ?e1 ?e2))" => "(let ?x ?e1 (+ ?e3 ?e2))" if not_free("?e3")),
        rw!("tl/5.2"; "(* (let ?x ?e1 ?e2) ?e3)" => "(let ?x ?e1 (* ?e2 ?e3))" if not_free("?e3")),
        rw!("tl/5.2-mirror"; "(* ?e3 (let ?x ?e1 ?e2))" => "(let ?x ?e1 (* ?e3 ?e2))" if not_free("?e3")),
        rw!("tl/5.3"; "(call ?f (let ?x ?e1 ?e2))" => "(let ?x ?e1 (call ?f ?e2))"),
        rw!("tl/5.4"; "(pair (let ?x ?e1 ?e2) ?e3)" => "(let ?x ?e1 (pair ?e2 ?e3))" if not_free("?e3")),
        rw!("tl/5.4-mirror"; "(pair ?e3 (let ?x ?e1 ?e2))" => "(let ?x ?e1 (pair ?e3 ?e2))" if not_free("?e3")),
        rw!("tl/5.5-0"; "(proj0 (let ?x ?e1 ?e2))" => "(let ?x ?e1 (proj0 ?e2))"),
        rw!("tl/5.5-1"; "(proj1 (let ?x ?e1 ?e2))" => "(let ?x ?e1 (proj1 ?e2))"),
        rw!("tl/5.6"; "(gen ?b (let ?x ?e1 ?e2))" => { LiftLet { sum: false, ctx: ctx.clone() } }),
        rw!("tl/5.7"; "(sum ?b (let ?x ?e1 ?e2))" => { LiftLet { sum: true, ctx: ctx.clone() } }),
        rw!("tl/5.8"; "(at (let ?x ?e1 ?e2) ?a)" => "(let ?x ?e1 (at ?e2 ?a))" if not_free("?a")),
    ];
    r.push(if copy_predicate {
        rw!("tl/5.9"; "(br ?p (let ?x ?e1 ?e2))" => "(let ?x (br ?p ?e1) (br ?p ?e2))" if not_free("?p"))
    } else {
        rw!("tl/5.9-no-copy"; "(br ?p (let ?x ?e1 ?e2))" => "(let ?x ?e1 (br ?p ?e2))" if not_free("?p"))
    });
    r.push(rw!("tl/5.10"; "(let ?y (let ?x ?e1 ?e2) ?e3)" => "(let ?x ?e1 (let ?y ?e2 ?e3))" if not_free("?e3")));
    r
}

/// Let-lifting with options and the rule order given by `order` (a permutation of the
/// rule table's indices; `None` for the table's order), with the run's report. The order
/// and the limits matter to [`Strategy::Saturation`] only; the direct strategy fixes its
/// own order (see [`super::letlift_direct`]).
pub fn letlift_report(
    t: &Term,
    inputs: &[(Var, Ty)],
    opts: &LetLiftOptions,
    order: Option<&[usize]>,
) -> Result<(Term, PassReport)> {
    if opts.strategy == Strategy::Direct {
        return letlift_direct(t, inputs, opts.copy_predicate);
    }
    run_pass(
        "let-lifting",
        t,
        inputs,
        Mode::LetLift,
        |ctx| reorder(rules(ctx, opts.copy_predicate), order),
        &opts.limits,
        check_ll_nf,
    )
}

/// `rules` permuted by `order` (indices; missing or repeated indices are ignored).
pub fn reorder<T>(rules: Vec<T>, order: Option<&[usize]>) -> Vec<T> {
    let Some(order) = order else {
        return rules;
    };
    let mut slots: Vec<Option<T>> = rules.into_iter().map(Some).collect();
    let mut out: Vec<T> = order
        .iter()
        .filter_map(|&i| slots.get_mut(i)?.take())
        .collect();
    out.extend(slots.into_iter().flatten());
    out
}

/// Let-lifting (rules 5.1–5.10): `t` in LL-NF, with the same value and cost `C`.
pub fn letlift(t: &Term) -> Result<Term> {
    Ok(letlift_report(t, &[], &LetLiftOptions::default(), None)?.0)
}
