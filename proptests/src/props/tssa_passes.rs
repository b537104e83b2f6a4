//! The properties of engine `tssa`'s normalising passes (seed 001 §5.1–§5.3; rows
//! S001-X5a, X5.1a–d, X5.2a–d, X5.3a–c of specs/theorems.md; docs/engines/tssa-passes.md):
//! normal forms, semantics (pair elimination up to the struct-of-arrays isomorphism),
//! cost `C`, types up to ≅, independence of the rule order, and one soundness property
//! per rule (`tl/5-N-sound`: the rule applied once wherever it matches keeps the value).
//!
//! Cases come from the foundation's TL-native generator G2 (`crate::gen::tl`), one per
//! seed made from the dimensions. The rule properties also plant instances of the rule's
//! left-hand side at random scalar positions of the generated term ([`plant`]), so every
//! rule is exercised in every case; the generated term's own matches are checked too.

use super::tssa_inline::inline_ll_nf;
use super::tssa_iso::fit_data_paths;
use super::tssa_plant::plant;
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::tl::{tl_case, TlCase, TlGenOptions};
use adora_core::diag::ErrorKind;
use adora_core::tl::{Term, Ty, Var};
use adora_costmodel::tl::cost_c;
use adora_rewrites::tssa::egg::genpush::genpush_report;
use adora_rewrites::tssa::egg::letlift::{letlift_report, LetLiftOptions, Strategy};
use adora_rewrites::tssa::egg::nf::spine;
use adora_rewrites::tssa::egg::pairelim::pairelim_report;
use adora_rewrites::tssa::egg::run::Limits;
use adora_rewrites::tssa::egg::single::{apply_once, rule_names, Pass as RulePass};
use adora_rewrites::tssa::egg::types::{soa, type_of};
use adora_rewrites::tssa::egg::{is_gp_nf, is_ll_nf, is_pe_nf};
use adora_semantics::tl::{eval_term, TlEnv, TlValue};
use adora_semantics::Rat;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

fn seed(d: &[usize]) -> u64 {
    d.iter().fold(0u64, |s, &x| {
        s.wrapping_mul(1_000_003).wrapping_add(x as u64)
    })
}

fn case(d: &[usize]) -> TlCase {
    let mut rng = ChaCha8Rng::seed_from_u64(seed(d));
    tl_case(&mut rng, &TlGenOptions::default())
}

/// The case as text: inputs with values, and the term.
fn show(c: &TlCase, t: &Term) -> String {
    let inputs: Vec<String> = c
        .inputs
        .iter()
        .zip(&c.values)
        .map(|((x, ty), v)| format!("{x} : {ty} = {v}"))
        .collect();
    format!("inputs: {}\nterm: {t}", inputs.join(", "))
}

fn env(c: &TlCase) -> TlEnv<Rat> {
    TlEnv::from_inputs(&c.inputs, &c.values)
}

/// `⟦t⟧` at the case's inputs; `None` when the term is not rational (a black box outside
/// the exact field): the case is then vacuous for value comparisons.
fn value(c: &TlCase, t: &Term) -> Result<Option<TlValue<Rat>>, String> {
    match eval_term::<Rat>(t, &env(c)) {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.kind == ErrorKind::NonRational => Ok(None),
        // Known limit (docs/engines/tssa-passes.md, "Known limits"): the evaluator reads a
        // data predicate's path literally, so a pair-elimination intermediate whose data
        // path crosses a pair of arrays cannot be evaluated; such a case checks nothing.
        Err(e) if e.message.contains("does not fit its type") => Ok(None),
        Err(e) => Err(format!("evaluation failed: {}\n{}", e.message, show(c, t))),
    }
}

fn cost(c: &TlCase, t: &Term) -> Result<u64, String> {
    cost_c(t, &env(c)).map_err(|e| format!("cost failed: {}\n{}", e.message, show(c, t)))
}

fn ll(c: &TlCase) -> Result<Term, String> {
    letlift_report(&c.term, &c.inputs, &LetLiftOptions::default(), None)
        .map(|r| r.0)
        .map_err(|e| format!("let-lifting failed: {}\n{}", e.message, show(c, &c.term)))
}

fn pe(c: &TlCase) -> Result<Term, String> {
    let l = ll(c)?;
    pairelim_report(&l, &c.inputs, &Limits::default(), None)
        .map(|r| r.0)
        .map_err(|e| format!("pair elimination failed: {}\n{}", e.message, show(c, &l)))
}

fn gp(c: &TlCase) -> Result<(Term, Term), String> {
    let p = pe(c)?;
    let g = genpush_report(&p, &c.inputs, &Limits::default(), None)
        .map(|r| r.0)
        .map_err(|e| format!("gen push-out failed: {}\n{}", e.message, show(c, &p)))?;
    Ok((p, g))
}

fn same(c: &TlCase, before: &Term, after: &Term, iso: bool) -> Outcome {
    let (Some(a), Some(b)) = (value(c, before)?, value(c, after)?) else {
        return Pass::vacuous();
    };
    let ok = if iso { TlValue::iso_eq(&a, &b) } else { a == b };
    if ok {
        Pass::ok()
    } else {
        Err(format!(
            "values differ: {a} before, {b} after\nbefore: {}\nafter: {after}",
            show(c, before)
        ))
    }
}

fn ll_nf(d: &[usize]) -> Outcome {
    let c = case(d);
    let l = ll(&c)?;
    if is_ll_nf(&l) {
        Pass::ok()
    } else {
        Err(format!("not in LL-NF: {l}\n{}", show(&c, &c.term)))
    }
}
fn ll_sem(d: &[usize]) -> Outcome {
    let c = case(d);
    same(&c, &c.term, &ll(&c)?, false)
}
/// Whether a position where `C` reads an immediate predicate (an operand of `+`, rule
/// 4.24; the body of a maximal chain of sums and brackets, rule 4.30) holds a `let`, a
/// projection or an access: a pass may then expose a bracket there and `C` may fall
/// (docs/engines/tssa-passes.md, "Cost facts checked").
pub fn hides_predicate(t: &Term) -> bool {
    let hidden = |e: &Term| matches!(e, Term::Let(..) | Term::Proj(..) | Term::Access(..));
    match t {
        Term::Var(_) | Term::Const(_) | Term::IndexConst(_) => false,
        Term::Add(a, b) => hidden(a) || hidden(b) || hides_predicate(a) || hides_predicate(b),
        Term::Sum(..) => {
            let mut body = t;
            while let Term::Sum(_, _, e) | Term::Bracket(_, e) = body {
                body = e;
            }
            hidden(body) || hides_predicate(body)
        }
        Term::Mul(a, b) | Term::Pair(a, b) => hides_predicate(a) || hides_predicate(b),
        Term::Let(_, a, b) => hides_predicate(a) || hides_predicate(b),
        Term::Call(_, e)
        | Term::Proj(_, e)
        | Term::Gen(_, _, e)
        | Term::Access(e, _)
        | Term::Bracket(_, e) => hides_predicate(e),
    }
}

/// Whether `t` projects something other than a data path (`(e0, e1).k`,
/// `(gen i. (a, b))[j].0`, …): pair elimination then drops the other component and its
/// cost (rule 5.11).
pub fn projects_construction(t: &Term) -> bool {
    fn path(e: &Term) -> bool {
        match e {
            Term::Var(_) => true,
            Term::Access(e, _) | Term::Proj(_, e) => path(e),
            _ => false,
        }
    }
    match t {
        Term::Var(_) | Term::Const(_) | Term::IndexConst(_) => false,
        Term::Proj(_, e) => !path(e) || projects_construction(e),
        Term::Add(a, b) | Term::Mul(a, b) | Term::Pair(a, b) | Term::Let(_, a, b) => {
            projects_construction(a) || projects_construction(b)
        }
        Term::Call(_, e)
        | Term::Gen(_, _, e)
        | Term::Sum(_, _, e)
        | Term::Access(e, _)
        | Term::Bracket(_, e) => projects_construction(e),
    }
}

/// `C(after) = C(before)`, or `C(after) ≤ C(before)` where `before` hides an immediate
/// predicate ([`hides_predicate`]) or, with `drops`, projects a construction
/// ([`projects_construction`]); the figure is the drop.
fn neutral(c: &TlCase, before: &Term, after: &Term, drops: bool) -> Outcome {
    let (a, b) = (cost(c, before)?, cost(c, after)?);
    let may_fall = hides_predicate(before) || (drops && projects_construction(before));
    if a == b || (b < a && may_fall) {
        Pass::figure((a - b) as f64)
    } else {
        Err(format!(
            "C {a} before, {b} after: {after}\n{}",
            show(c, before)
        ))
    }
}

fn ll_cost(d: &[usize]) -> Outcome {
    let c = case(d);
    let l = ll(&c)?;
    neutral(&c, &c.term, &l, false)
}
/// S001-X5.1d: without the copy the result is still correct and `C` never falls below
/// the original; with it `C` is equal. The figure is the largest rise without the copy.
fn rule_5_9_cost(d: &[usize]) -> Outcome {
    let c = case(d);
    let opts = LetLiftOptions {
        copy_predicate: false,
        ..LetLiftOptions::default()
    };
    let nc = letlift_report(&c.term, &c.inputs, &opts, None)
        .map_err(|e| format!("let-lifting without the copy failed: {}", e.message))?
        .0;
    same(&c, &c.term, &nc, false)?;
    let l = ll(&c)?;
    neutral(&c, &c.term, &l, false)?;
    let (b, w) = (cost(&c, &l)?, cost(&c, &nc)?);
    if w < b {
        return Err(format!(
            "without the copy C is {w}, below {b} with it\n{}",
            show(&c, &c.term)
        ));
    }
    Pass::figure((w - b) as f64)
}

/// The limits under which `tssa/let-lift-direct-agrees-with-saturation` runs saturation:
/// a case whose saturation does not finish within them is vacuous (the property compares
/// results, it does not test saturation's reach).
fn agree_limits() -> Limits {
    Limits {
        node_limit: 20_000,
        time_limit: std::time::Duration::from_secs(30),
        ..Limits::default()
    }
}

/// `tssa/let-lift-direct-agrees-with-saturation`: where saturation of the egg rule system
/// finishes within [`agree_limits`], the direct strategy (the default) and saturation
/// both reach LL-NF with the same value, the same cost `C` and the same number of
/// bindings, and with every binding inlined ([`inline_ll_nf`]) the two are the same term
/// up to canonical names (checked where inlining applies: no bound variable read by a
/// data predicate, within its node budget). The terms themselves may legitimately
/// differ: several LL-NFs are reachable (the lets of the two operands of `+` float out in
/// either order) and saturation's extraction breaks ties by a structural fingerprint,
/// where the direct pass lifts the left operand's lets first. Figure (mean): 1 where the
/// results differ as terms, else 0.
fn ll_agree(d: &[usize]) -> Outcome {
    let c = case(d);
    let opts = LetLiftOptions::default()
        .with_strategy(Strategy::Saturation)
        .with_limits(agree_limits());
    let sat = match letlift_report(&c.term, &c.inputs, &opts, None) {
        Ok(r) => r.0,
        Err(e) if e.kind == ErrorKind::Resource => return Pass::vacuous(),
        Err(e) => {
            return Err(format!(
                "saturation failed: {}\n{}",
                e.message,
                show(&c, &c.term)
            ))
        }
    };
    let direct = ll(&c)?;
    for (what, t) in [("direct", &direct), ("saturation", &sat)] {
        if !is_ll_nf(t) {
            return Err(format!(
                "{what} result not in LL-NF: {t}\n{}",
                show(&c, &c.term)
            ));
        }
    }
    same(&c, &sat, &direct, false).map_err(|m| format!("direct vs saturation: {m}"))?;
    let (a, b) = (cost(&c, &sat)?, cost(&c, &direct)?);
    if a != b {
        return Err(format!(
            "C {b} (direct) but {a} (saturation)\ndirect: {direct}\nsaturation: {sat}\n{}",
            show(&c, &c.term)
        ));
    }
    let (n, m) = (spine(&direct).0.len(), spine(&sat).0.len());
    if n != m {
        return Err(format!(
            "{n} bindings (direct) but {m} (saturation)\ndirect: {direct}\nsaturation: {sat}"
        ));
    }
    if direct == sat {
        return Pass::figure(0.0);
    }
    let names: Vec<Var> = c.inputs.iter().map(|(x, _)| x.clone()).collect();
    if let (Some(a), Some(b)) = (inline_ll_nf(&direct, &names), inline_ll_nf(&sat, &names)) {
        if a != b {
            return Err(format!(
                "the results differ beyond the order of their lets\ndirect: {direct}\nsaturation: {sat}\n{}",
                show(&c, &c.term)
            ));
        }
    }
    Pass::figure(1.0)
}

fn types_env(c: &TlCase) -> BTreeMap<Var, Ty> {
    c.inputs.iter().map(|(x, t)| (x.clone(), soa(t))).collect()
}
fn pe_types(d: &[usize]) -> Outcome {
    let c = case(d);
    let p = pe(&c)?;
    let env = types_env(&c);
    let (a, b) = (type_of(&c.term, &env), type_of(&p, &env));
    if a.is_some() && a == b {
        Pass::ok()
    } else {
        Err(format!(
            "types {a:?} and {b:?} (SoA forms)\nafter: {p}\n{}",
            show(&c, &c.term)
        ))
    }
}
fn pe_nf(d: &[usize]) -> Outcome {
    let c = case(d);
    let p = pe(&c)?;
    if is_pe_nf(&p, &c.inputs) {
        Pass::ok()
    } else {
        Err(format!("not in PE-NF: {p}\n{}", show(&c, &c.term)))
    }
}
fn pe_sem(d: &[usize]) -> Outcome {
    let c = case(d);
    same(&c, &c.term, &pe(&c)?, true)
}
fn pe_cost(d: &[usize]) -> Outcome {
    let c = case(d);
    let l = ll(&c)?;
    let p = pe(&c)?;
    neutral(&c, &l, &p, true)
}
fn gp_nf_run(d: &[usize]) -> Outcome {
    let c = case(d);
    let (_, g) = gp(&c)?;
    if is_gp_nf(&g, &c.inputs) {
        Pass::ok()
    } else {
        Err(format!("not in GP-NF: {g}\n{}", show(&c, &c.term)))
    }
}
fn gp_sem_run(d: &[usize]) -> Outcome {
    let c = case(d);
    let (p, g) = gp(&c)?;
    same(&c, &p, &g, false)
}
fn gp_cost_run(d: &[usize]) -> Outcome {
    let c = case(d);
    let (p, g) = gp(&c)?;
    let (a, b) = (cost(&c, &p)?, cost(&c, &g)?);
    if b <= a {
        Pass::figure((a - b) as f64)
    } else {
        Err(format!("C rose from {a} to {b}: {g}\n{}", show(&c, &p)))
    }
}

/// S001-X5a: each pass saturates within its limits, and a random order of its rules gives
/// a normal form with the same value and the same cost `C` (confluence up to the choice
/// among equal-cost normal forms: the terms themselves may differ in the order of
/// independent lets, docs/engines/tssa-passes.md). Let-lifting runs by the direct
/// strategy; its rules saturated in the random order are compared with it where
/// saturation finishes within [`agree_limits`] (the e-graph of let-lifting grows
/// combinatorially with the lets under nested `gen`/`sum`).
fn terminate_run(d: &[usize]) -> Outcome {
    let c = case(d);
    let mut rng = ChaCha8Rng::seed_from_u64(seed(d) ^ 0x5eed);
    let mut order = |n: usize| {
        let mut o: Vec<usize> = (0..n).collect();
        o.shuffle(&mut rng);
        o
    };
    let agree = |what: &str, a: &Term, b: &Term, o: &[usize]| -> Outcome {
        same(&c, a, b, false).map_err(|m| format!("{what} in rule order {o:?}: {m}"))?;
        let (x, y) = (cost(&c, a)?, cost(&c, b)?);
        if x != y {
            return Err(format!(
                "{what} in rule order {o:?}: C {y}, not {x}\n{b}\n{}",
                show(&c, a)
            ));
        }
        Pass::ok()
    };
    let l = ll(&c)?;
    let o = order(rule_names(RulePass::LetLift).len());
    let sat = LetLiftOptions::default()
        .with_strategy(Strategy::Saturation)
        .with_limits(agree_limits());
    match letlift_report(&c.term, &c.inputs, &sat, Some(&o)) {
        // Saturation past the comparison's limits: the let-lifting part checks nothing.
        Err(e) if e.kind == ErrorKind::Resource => {}
        Err(e) => return Err(e.message),
        Ok((l2, _)) => {
            if !is_ll_nf(&l2) {
                return Err(format!(
                    "let-lifting in rule order {o:?} is not in LL-NF: {l2}"
                ));
            }
            agree("let-lifting", &l, &l2, &o)?;
        }
    }
    let p = pe(&c)?;
    let o = order(rule_names(RulePass::PairElim).len());
    let p2 = pairelim_report(&l, &c.inputs, &Limits::default(), Some(&o))
        .map_err(|e| e.message)?
        .0;
    if !is_pe_nf(&p2, &c.inputs) {
        return Err(format!(
            "pair elimination in rule order {o:?} is not in PE-NF: {p2}"
        ));
    }
    agree("pair elimination", &p, &p2, &o)?;
    let (_, g) = gp(&c)?;
    let o = order(rule_names(RulePass::GenPush).len());
    let g2 = genpush_report(&p, &c.inputs, &Limits::default(), Some(&o))
        .map_err(|e| e.message)?
        .0;
    if !is_gp_nf(&g2, &c.inputs) {
        return Err(format!(
            "gen push-out in rule order {o:?} is not in GP-NF: {g2}"
        ));
    }
    agree("gen push-out", &g, &g2, &o)
}

/// The rules of equation `eq` (`"5.1"` covers `tl/5.1` and `tl/5.1-mirror`).
fn variants(pass: RulePass, eq: &str) -> Vec<String> {
    let base = format!("tl/{eq}");
    rule_names(pass)
        .into_iter()
        .filter(|n| *n == base || n.starts_with(&format!("{base}-")))
        .filter(|n| !n.ends_with("no-copy"))
        .collect()
}

/// `tl/5-N-sound`: every rule of equation `eq`, applied once wherever it matches in the
/// generated term with instances of its left-hand side planted, keeps the value (pair
/// rules up to ≅).
fn sound(pass: RulePass, eq: &str, d: &[usize]) -> Outcome {
    let c = case(d);
    let mut rng = ChaCha8Rng::seed_from_u64(seed(d) ^ 0x9e37);
    let t = plant(&c.term, &c.inputs, eq, &mut rng);
    let mut fired = 0;
    for rule in variants(pass, eq) {
        let (t0, t1, n) = apply_once(pass, &rule, &t, &c.inputs)
            .map_err(|e| format!("{rule}: {}\n{}", e.message, show(&c, &t)))?;
        if n == 0 {
            continue;
        }
        fired += n;
        let (t0, t1) = if pass == RulePass::PairElim {
            (
                fit_data_paths(&t0, &c.inputs),
                fit_data_paths(&t1, &c.inputs),
            )
        } else {
            (t0, t1)
        };
        same(&c, &t0, &t1, pass == RulePass::PairElim)
            .map_err(|m| format!("{rule} ({n} applications): {m}"))?;
    }
    if fired == 0 {
        Pass::vacuous()
    } else {
        Pass::figure(fired as f64)
    }
}

macro_rules! rule_props {
    ($($f:ident, $pass:ident, $eq:literal, $name:literal;)*) => {
        $(fn $f(d: &[usize]) -> Outcome { sound(RulePass::$pass, $eq, d) })*
        fn rule_properties() -> Vec<Property> {
            vec![$(prop(
                $name,
                concat!("seed 001 §5, rule ", $eq),
                concat!("Rule ", $eq, " (every variant), applied once wherever it matches in a G2 term with planted instances of its left-hand side, keeps the value (pair rules up to the struct-of-arrays isomorphism)."),
                $f,
            )),*]
        }
    };
}

rule_props! {
    r5_1, LetLift, "5.1", "tl/5-1-sound";
    r5_2, LetLift, "5.2", "tl/5-2-sound";
    r5_3, LetLift, "5.3", "tl/5-3-sound";
    r5_4, LetLift, "5.4", "tl/5-4-sound";
    r5_5, LetLift, "5.5", "tl/5-5-sound";
    r5_6, LetLift, "5.6", "tl/5-6-sound";
    r5_7, LetLift, "5.7", "tl/5-7-sound";
    r5_8, LetLift, "5.8", "tl/5-8-sound";
    r5_9, LetLift, "5.9", "tl/5-9-sound";
    r5_10, LetLift, "5.10", "tl/5-10-sound";
    r5_11, PairElim, "5.11", "tl/5-11-sound";
    r5_12, PairElim, "5.12", "tl/5-12-sound";
    r5_13, PairElim, "5.13", "tl/5-13-sound";
    r5_14, PairElim, "5.14", "tl/5-14-sound";
    r5_15, PairElim, "5.15", "tl/5-15-sound";
    r5_16, PairElim, "5.16", "tl/5-16-sound";
    r5_17, PairElim, "5.17", "tl/5-17-sound";
    r5_18, PairElim, "5.18", "tl/5-18-sound";
    r5_19, PairElim, "5.19", "tl/5-19-sound";
    r5_20, PairElim, "5.20", "tl/5-20-sound";
    r5_21, GenPush, "5.21", "tl/5-21-sound";
    r5_22, GenPush, "5.22", "tl/5-22-sound";
    r5_23, GenPush, "5.23", "tl/5-23-sound";
    r5_24, GenPush, "5.24", "tl/5-24-sound";
    r5_24a, GenPush, "5.24a", "tl/5-24a-sound";
}

/// A gen push-out stopped by the runner's wall-clock safety net (the time limit of
/// `Limits`, never reached by a deterministic limit) depends on the machine's load, not on
/// the case: such a case is vacuous, so the same seed gives the same verdict. The
/// deterministic limits (iterations, e-nodes) still fail the property.
fn clocked(r: Outcome) -> Outcome {
    match r {
        Err(m) if m.contains("the time limit (") && m.contains("was reached before saturation") => {
            Pass::vacuous()
        }
        r => r,
    }
}

fn gp_nf(d: &[usize]) -> Outcome {
    clocked(gp_nf_run(d))
}

fn gp_sem(d: &[usize]) -> Outcome {
    clocked(gp_sem_run(d))
}

fn gp_cost(d: &[usize]) -> Outcome {
    clocked(gp_cost_run(d))
}

fn terminate(d: &[usize]) -> Outcome {
    clocked(terminate_run(d))
}

fn prop(
    name: &'static str,
    source: &'static str,
    description: &'static str,
    check: fn(&[usize]) -> Outcome,
) -> Property {
    Property {
        name,
        source,
        fragment: "tl",
        description,
        figure: None,
        check: Check::Dims {
            count: 2,
            max: 1_000_000,
            check,
        },
    }
}

/// The properties of the passes, then one per rule.
pub fn properties() -> Vec<Property> {
    let mut v = vec![
        prop("tssa/let-lift-normal-form", "seed 001 §5.1 (S001-X5.1a)", "Let-lifting reaches LL-NF: every let in the outer statement block, every binding and the body let-free.", ll_nf),
        prop("tssa/let-lift-preserves-semantics", "seed 001 §5.1 (S001-X5.1b)", "Let-lifting keeps the value exactly.", ll_sem),
        prop("tssa/let-lift-ops-neutral", "seed 001 §2.3, §5.1 (S001-X5.1c)", "Let-lifting keeps the cost C exactly (with the Iverson discount).", ll_cost),
        Property {
            figure: Some(Figure {
                label: "results differing as terms (fraction)",
                agg: Agg::Mean,
            }),
            ..prop("tssa/let-lift-direct-agrees-with-saturation", "seed 001 §5.1 (S001-X5.1e)", "Where saturation of the let-lifting rules finishes within its limits, the direct strategy and saturation reach LL-NFs with the same value, cost C and number of bindings. Figure: the fraction of cases whose results differ as terms (order of independent lets).", ll_agree)
        },
        prop("tssa/rule-5-9-ops-neutral", "seed 001 §5.1, rule 5.9 (S001-X5.1d)", "Without the predicate copy of rule 5.9 let-lifting is still correct and C never falls; with the copy C is unchanged. Figure: the largest rise without the copy.", rule_5_9_cost),
        prop("tssa/pair-elim-type-iso", "seed 001 §5.2 (S001-X5.2a)", "Pair elimination keeps the type up to the struct-of-arrays isomorphism (every merge of the run is type-checked up to it too).", pe_types),
        prop("tssa/pair-elim-normal-form", "seed 001 §5.2 (S001-X5.2b)", "Pair elimination reaches PE-NF: no pair-typed binding, projections only of inputs, pairs only in the output.", pe_nf),
        prop("tssa/pair-elim-preserves-semantics", "seed 001 §5.2 (S001-X5.2c)", "Pair elimination keeps the value up to the struct-of-arrays isomorphism.", pe_sem),
        prop("tssa/pair-elim-ops-neutral", "seed 001 §5.2 (S001-X5.2d)", "Pair elimination keeps the cost C at the normal form.", pe_cost),
        prop("tssa/gen-pushout-normal-form", "seed 001 §5.3 (S001-X5.3a)", "Gen push-out reaches GP-NF: every right-hand side gen I. s or an input expression.", gp_nf),
        prop("tssa/gen-pushout-preserves-semantics", "seed 001 §5.3 (S001-X5.3b)", "Gen push-out keeps the value exactly.", gp_sem),
        prop("tssa/gen-pushout-ops-non-increasing", "seed 001 §5.3 (S001-X5.3c)", "Gen push-out never raises the cost C (rule 5.21 may lower it). Figure: the largest drop.", gp_cost),
        prop("tssa/passes-terminate", "seed 001 §5 (S001-X5a)", "Each pass reaches its normal form, and a random order of its rules gives one with the same value and cost C (let-lifting: its rules saturated in that order, where saturation finishes within 20 000 e-nodes, against the direct strategy).", terminate),
    ];
    v.extend(rule_properties());
    v
}
