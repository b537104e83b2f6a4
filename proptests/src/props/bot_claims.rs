//! The claims of seed 000 §5.1 about the bot rule system as a whole
//! (`adora_rewrites::bot`; specs/theorems.md, rows S000-X5.1d, X5.1f and T5.1-3):
//! memory (only the memory-costly rules of Fig. 11 raise sequential peak memory), the
//! uniqueness of normal forms (rule order does not matter) and the converse of
//! Theorem 5.1 (a term in normal form is irreducible). Each row says what holds of our
//! rule table and why the rest does not (docs/rules/bot.md, "Claims of §5.1").

use super::alpha::functions_alpha_eq;
use super::util::{aux_rng, exact, fail, is_resource, load, opts, Eval};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, Fragment, GenSpec, RetKind};
use crate::values::literal;
use adora_core::ast::{Expr, ExprKind, Function};
use adora_core::visit::children;
use adora_costmodel::measure;
use adora_rewrites::bot::projection::check_term;
use adora_rewrites::bot::{rules, transform, BotConfig, RULES};
use adora_rewrites::ir::extract::extract_recexpr;
use adora_rewrites::ir::translate::translate;
use egg::Language;
use rand::Rng;
use std::collections::HashSet;

fn bulk() -> CaseStrategy {
    CaseStrategy::new(GenSpec::new(Fragment::Bulk).size(32).ret(RetKind::Any))
}

/// The two rules of Fig. 11 that the paper names as raising sequential memory.
pub const MEMORY_COSTLY: [&str; 2] = ["bot/build-index-append", "bot/build-index-scatter"];

/// The claims of §5.1 about the rule system.
pub fn properties() -> Vec<Property> {
    vec![
        Property {
            name: "bot/mem-non-increasing-except-append-scatter",
            source: "seed 000 §5.1 (the 3rd and 4th rules of Fig. 11 do not preserve memory usage \
                     under sequential execution; executed in parallel, the left-hand side needs as \
                     much); docs/cost-models.md (`mem`)",
            fragment: "bulk",
            description: "mem(bot(p)) <= (1 + L) · W(p) · mem(p) + C, where W(p) is the largest \
                          product of the extents of nested builds in p (the iterations a parallel \
                          execution runs at once), L the number of lets of bot(p) (a materialised \
                          let is floated to the top and lives to the end, holding at most one \
                          parallel execution's value) and C its scalar literals (a let of a literal \
                          is inlined, each copy a live scalar): bot needs no more memory than the \
                          source run in parallel, up to those terms. Without the memory-costly rules the claim as stated, \
                          mem(bot(p)) <= mem(p), does not hold (every Fig. 9 rule materialises a \
                          build's body at once; see specs/theorems.md, S000-X5.1d) (the figure: the \
                          largest ratio mem(bot(p)) / mem(p) among cases where neither memory-costly \
                          rule applied)",
            figure: Some(Figure { label: "mem ratio w/o append/scatter (max)", agg: Agg::Max }),
            check: Check::Case { strategy: bulk, check: mem_bounded },
        },
        Property {
            name: "bot/confluent",
            source: "seed 000 §5.1 (strongly normalising: rewriting order is irrelevant, normal \
                     forms are unique)",
            fragment: "bulk",
            description: "bot run to saturation (no goal; the default limits) with its rules handed \
                          to egg in a random order returns the same program as with the table's \
                          order up to renaming of bound variables, or else a normal form with exactly \
                          the same value (the extractor's ties follow e-class ids). With the default \
                          goal (two iterations after the first normal form) the results depend on \
                          rule order (specs/theorems.md, S000-X5.1f) (the figure: the fraction of \
                          cases with alpha-equal results)",
            figure: Some(Figure { label: "alpha-equal (fraction)", agg: Agg::Mean }),
            check: Check::Case { strategy: bulk, check: confluent },
        },
        Property {
            name: "bot/normal-form-irreducible",
            source: "seed 000 §5.1, Theorem 5.1 (the normal forms are precisely the terms without \
                     build1 whose indexes are of variables, constants, appends and scatters)",
            fragment: "bulk",
            description: "a term in Theorem 5.1's normal form (the let-free form of a generated \
                          program or of its bot result, when it satisfies the two conditions) is \
                          irreducible under the rules of Figs. 9-11: no such rule changes its \
                          e-graph when applied to the term's matches (`bot/index-array` aside: it folds \
                          an index of a constant literal by a constant). The simplifications of \
                          horde-ad's rule set (gather fusion, decided appends) may apply and are \
                          not checked here (the figure: the fraction of cases with a normal-form \
                          term)",
            figure: Some(Figure { label: "normal-form terms (fraction)", agg: Agg::Mean }),
            check: Check::Case { strategy: bulk, check: irreducible },
        },
    ]
}

/// The largest product of extents of nested builds in `e` (1 without builds).
pub fn parallel_width(e: &Expr) -> u64 {
    let inner = children(e)
        .into_iter()
        .map(parallel_width)
        .max()
        .unwrap_or(1);
    match &e.kind {
        ExprKind::Build(sh, _, _) => sh
            .iter()
            .fold(inner, |w, &d| w.saturating_mul(d.max(1) as u64)),
        _ => inner,
    }
}

/// The number of nodes of `e` that satisfy `what`.
fn count(e: &Expr, what: &dyn Fn(&Expr) -> bool) -> u64 {
    u64::from(what(e)) + children(e).into_iter().map(|c| count(c, what)).sum::<u64>()
}

/// `mem` of `f` on the case's inputs; `None` when a resource limit stops it.
fn mem(f: &Function, case: &Case) -> Result<Option<u64>, String> {
    match measure(f, &case.inputs, &opts()) {
        Ok(c) => Ok(Some(c.mem)),
        Err(d) if is_resource(&d) => Ok(None),
        Err(d) => Err(format!(
            "costing fails: {d}\n{}",
            adora_core::pretty::function(f)
        )),
    }
}

fn mem_bounded(case: &Case) -> Outcome {
    let f = load(case)?;
    let out = transform(&f, &BotConfig::default()).map_err(|d| format!("bot fails: {d}"))?;
    let g = &out.function;
    let (Some(before), Some(after)) = (mem(&f, case)?, mem(g, case)?) else {
        return Pass::vacuous();
    };
    let w = parallel_width(&f.body);
    let lits = count(&g.body, &|e| matches!(e.kind, ExprKind::Lit(_)));
    let lets = count(&g.body, &|e| matches!(e.kind, ExprKind::Let(..)));
    if after > (1 + lets).saturating_mul(w).saturating_mul(before) + lits {
        return fail(format!(
            "mem {before} became {after}, more than (1 + {lets} lets) · W = {w} times plus {lits} \
             literals\n{}",
            adora_core::pretty::function(g)
        ));
    }
    let costly = MEMORY_COSTLY
        .iter()
        .any(|r| out.applied.get(*r).copied().unwrap_or(0) > 0);
    if costly || before == 0 {
        return Pass::vacuous();
    }
    Pass::figure(after as f64 / before as f64)
}

fn confluent(case: &Case) -> Outcome {
    let f = load(case)?;
    let sat = BotConfig::default().with_settle(None);
    let base = transform(&f, &sat).map_err(|d| format!("bot (saturating) fails: {d}"))?;
    let seed = aux_rng(case, 0xc0f1).gen::<u64>();
    let cfg = sat.clone().with_rule_order(Some(seed));
    let other = transform(&f, &cfg).map_err(|d| format!("bot (rule order {seed}) fails: {d}"))?;
    let (a, b) = (&base.function, &other.function);
    if functions_alpha_eq(a, b) {
        return Pass::figure(1.0);
    }
    // Not the same term (the extractor's ties and greedy choices follow e-class ids, which
    // follow rule order): both are normal forms (checked by `transform`) and must have
    // exactly the same value.
    let show = || {
        format!(
            "with the table's rule order bot gives\n{}\nwith rule order {seed} it gives\n{}",
            adora_core::pretty::function(a),
            adora_core::pretty::function(b)
        )
    };
    let (va, vb) = (exact(a, &case.inputs)?, exact(b, &case.inputs)?);
    if let (Eval::Value(x, _), Eval::Value(y, _)) = (&va, &vb) {
        if literal(x) != literal(y) {
            return fail(format!("the normal forms differ in value\n{}", show()));
        }
    }
    Pass::figure(0.0)
}

/// Whether a rule is one of the paper's (Figs. 9-11), as opposed to horde-ad's
/// simplifications and our tuple rules.
fn paper_rule(name: &str) -> bool {
    // `bot/index-array` on a normal form folds an index of a constant literal by a
    // constant (our rule; in the paper an index of a constant is a normal form).
    name != "bot/index-array"
        && RULES
            .iter()
            .any(|r| r.name == name && r.figure.starts_with("seed 000 Fig."))
}

/// The paper's rules that apply to `f`'s let-free term, or `None` when that term is not in
/// normal form.
fn rules_applying(f: &Function) -> Result<Option<Vec<String>>, String> {
    let tr = translate(f).map_err(|d| format!("translation fails: {d}"))?;
    let term = extract_recexpr(&tr.egraph, tr.root).map_err(|d| format!("extraction: {d}"))?;
    if check_term(&term).is_err() {
        return Ok(None);
    }
    // The classes of the term's own nodes. Not every node reachable from the root: the
    // translation also adds the values of dead `let`s, and the analysis unions a node
    // with what it folds to (`select(true, 0.0, p[0, 0, 0])` with `0.0`), so a class of the
    // term can hold nodes whose children are no part of the term.
    let mut ids: Vec<egg::Id> = Vec::with_capacity(term.as_ref().len());
    for node in term.as_ref() {
        let n = node.clone().map_children(|c| ids[usize::from(c)]);
        let Some(id) = tr.egraph.lookup(n) else {
            return Err("a node of the extracted term is not in the e-graph".to_string());
        };
        ids.push(tr.egraph.find(id));
    }
    let live: HashSet<egg::Id> = ids.into_iter().collect();
    let mut hits = Vec::new();
    for rule in rules() {
        let name = rule.name.to_string();
        if !paper_rule(&name) {
            continue;
        }
        let mut t = translate(f).map_err(|d| format!("translation fails: {d}"))?;
        let mut ms = rule.search(&t.egraph);
        ms.retain(|m| live.contains(&m.eclass));
        if !ms.is_empty() && !rule.apply(&mut t.egraph, &ms).is_empty() {
            hits.push(name);
        }
    }
    Ok(Some(hits))
}

fn irreducible(case: &Case) -> Outcome {
    let f = load(case)?;
    let out = transform(&f, &BotConfig::default()).map_err(|d| format!("bot fails: {d}"))?;
    let mut found = false;
    for (what, g) in [("the program", &f), ("bot's result", &out.function)] {
        let Some(hits) = rules_applying(g)? else {
            continue;
        };
        found = true;
        if !hits.is_empty() {
            return fail(format!(
                "{what} is in normal form, but {} applies to it\n{}",
                hits.join(", "),
                adora_core::pretty::function(g)
            ));
        }
    }
    Pass::figure(if found { 1.0 } else { 0.0 })
}
