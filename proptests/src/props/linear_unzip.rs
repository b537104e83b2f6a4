//! Seed 002 §6's claims about unzipping (specs/theorems.md, rows S002-D6.1, X6a, X6b and
//! X6c), checked on the JVP programs `J` of generated programs under three checkpointing
//! policies: store everything, recompute everything, and a random subset of the stored
//! intermediates recomputed (`Checkpoint::Recompute`).
//!
//! Memory is the tape: the scalars the primal half hands to the linear half (what stays
//! live between the forward and the backward pass). All comparisons are exact.

use super::linear::{any, random_largs, run, show, shows, stage, stages, static_work, Stages};
use super::util::{aux_rng, fail};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::Case;
use adora_core::ast::Name;
use adora_core::linear::visit::direct_uses;
use adora_core::linear::{check_program, LExpr, LKind, LinearProgram};
use adora_rewrites::linear::util::{flatten, Stmt};
use adora_rewrites::linear::{unzip, Checkpoint};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeSet, HashMap};

macro_rules! prop {
    ($name:expr, $source:expr, $desc:expr, $fig:expr, $check:expr) => {
        Property {
            name: $name,
            source: $source,
            fragment: "scalar, bulk",
            description: $desc,
            figure: $fig,
            check: Check::Case {
                strategy: any,
                check: $check,
            },
        }
    };
}

macro_rules! or_vacuous {
    ($e:expr) => {
        match $e? {
            Some(s) => s,
            None => return Pass::vacuous(),
        }
    };
}

/// The properties of this file.
pub fn properties() -> Vec<Property> {
    vec![
        prop!("linear/unzip-produces-linear-b", "seed 002 §6, Definition 6.1",
            "under every checkpointing policy (store all, recompute all, a random subset) the unzipped program passes the Linear B check and an independent one: no def or statement returns both non-linear and linear results, and no statement with non-linear results (nor a non-linear drop or operation) reads a linear variable",
            None, produces_linear_b),
        prop!("linear/unzip-preserves-semantics", "seed 002 §6 (theorem lost in extraction), §7.1.1, §11",
            "unzipping is total under every policy; running the primal half and then the linear half on its tape gives J's non-linear and linear results exactly for random tangents, and the linear half is well-typed Linear A with J's linear signature (the figure: the fraction of cases with non-zero linear results)",
            Some(Figure { label: "non-zero linear results (fraction)", agg: Agg::Mean }), preserves_semantics),
        prop!("linear/unzip-preserves-work", "seed 002 §1 footnote 2, §6",
            "with every non-linear intermediate stored, lin(primal half) + lin(linear half) = lin(J) exactly, by the static model and by the interpreter's count (the figure: the largest lin(J))",
            Some(Figure { label: "lin(J)", agg: Agg::Max }), preserves_work),
        prop!("linear/unzip-checkpoint-sound", "seed 002 abstract, §10, §11 (checkpointing)",
            "recomputing any random subset of the stored intermediates, or all of them, gives J's results exactly and never less lin work than storing all; recomputing intermediates whose inputs are on the stored tape gives a tape that is a subset of the stored one without them (less memory); recomputing everything does not always shrink the tape (the figure: the fraction of cases where it does)",
            Some(Figure { label: "recompute-all tape smaller (fraction)", agg: Agg::Mean }), checkpoint_sound),
    ]
}

/// The tape of an unzipped program: the non-linear results of the primal half after
/// the def's own `ny` results.
fn tape_names(u: &LinearProgram, prim: &str, ny: usize) -> Result<Vec<Name>, String> {
    let d = u.def(prim).ok_or_else(|| format!("no def `{prim}`"))?;
    match flatten(&d.body).1.kind {
        LKind::Ret(a, _) => Ok(a[ny.min(a.len())..]
            .iter()
            .filter_map(|x| x.var().cloned())
            .collect()),
        _ => Err(format!("`{prim}` does not end in a return")),
    }
}

/// Store all, recompute all, and a random subset of the stored (non-parameter) tape.
fn policies(s: &Stages, rng: &mut ChaCha8Rng) -> Result<Vec<(&'static str, Checkpoint)>, String> {
    let jd = s.jdef()?;
    let stored = tape_names(&s.u, &s.prim, jd.ret.len())?;
    let subset: BTreeSet<Name> = stored
        .into_iter()
        .filter(|v| !jd.params.iter().any(|p| &p.name == v) && rng.gen_bool(0.5))
        .collect();
    Ok(vec![
        ("store all", Checkpoint::StoreAll),
        ("recompute all", Checkpoint::RecomputeAll),
        ("recompute a subset", Checkpoint::Recompute(subset)),
    ])
}

fn unzipped(s: &Stages, policy: &Checkpoint) -> Result<Option<LinearProgram>, String> {
    stage(unzip::unzip_program(&s.j, policy), "unzipping")
}

/// Definition 6.1, recounted: returns the first violation.
fn linear_b(p: &LinearProgram) -> Result<(), String> {
    let types = check_program(p).map_err(|d| format!("ill-typed: {d}"))?;
    for d in &p.defs {
        if !d.ret.is_empty() && !d.lret.is_empty() {
            return Err(format!(
                "`{}` returns non-linear and linear results",
                d.name
            ));
        }
        let dt = types.def(&d.name);
        let mut stack: Vec<&LExpr> = vec![&d.body];
        while let Some(e) = stack.pop() {
            let (nl_result, lin_result) = match &e.kind {
                LKind::Let(b, a, body) => {
                    stack.push(a);
                    stack.push(body);
                    (!b.nl.is_empty(), !b.lin.is_empty())
                }
                LKind::Unpack(_, _, body) => {
                    stack.push(body);
                    (false, false)
                }
                LKind::Op { linear, .. } => (!linear, *linear),
                LKind::Drop(x) => (!dt.is_linear(x), false),
                LKind::Ret(a, l) => (!a.is_empty(), !l.is_empty()),
                LKind::Dup(_) | LKind::Call(..) => (false, true),
            };
            if nl_result && lin_result {
                return Err(format!(
                    "`{}`: a statement with both non-linear and linear results",
                    d.name
                ));
            }
            let reads_linear = direct_uses(e).iter().any(|v| dt.is_linear(v));
            if nl_result && reads_linear {
                return Err(format!(
                    "`{}`: a non-linear statement reads a linear variable",
                    d.name
                ));
            }
        }
    }
    Ok(())
}

fn produces_linear_b(case: &Case) -> Outcome {
    let s = or_vacuous!(stages(case));
    let mut rng = aux_rng(case, 71);
    for (what, policy) in policies(&s, &mut rng)? {
        let u = or_vacuous!(unzipped(&s, &policy));
        adora_core::linear::check_linear_b(&u)
            .map_err(|d| format!("{what}: not Linear B: {d}\n{}", show(&u)))?;
        linear_b(&u).map_err(|m| format!("{what}: {m}\n{}", show(&u)))?;
    }
    Pass::ok()
}

/// Runs both halves of `u`: `(primal results, tape, linear results, work of each half)`.
type Halves = (
    Vec<adora_semantics::value::Value<crate::values::Rat>>,
    Vec<adora_semantics::value::Value<crate::values::Rat>>,
    Vec<adora_semantics::value::Value<crate::values::Rat>>,
    u64,
    u64,
);

fn halves(
    s: &Stages,
    u: &LinearProgram,
    case: &Case,
    dx: &[adora_semantics::value::Value<crate::values::Rat>],
) -> Result<Option<Halves>, String> {
    let ny = s.jdef()?.ret.len();
    let Some(p) = run(u, &s.prim, &case.inputs, &[])? else {
        return Ok(None);
    };
    let tape = p.nl[ny..].to_vec();
    let Some(l) = run(u, &s.lin, &tape, dx)? else {
        return Ok(None);
    };
    Ok(Some((p.nl[..ny].to_vec(), tape, l.lin, p.work, l.work)))
}

fn preserves_semantics(case: &Case) -> Outcome {
    let s = or_vacuous!(stages(case));
    let jd = s.jdef()?;
    let mut rng = aux_rng(case, 72);
    let dx = random_largs(jd, &mut rng);
    let want = or_vacuous!(run(&s.j, &s.jname, &case.inputs, &dx));
    for (what, policy) in policies(&s, &mut rng)? {
        let u = or_vacuous!(unzipped(&s, &policy));
        let l = u.def(&s.lin).ok_or("no linear half")?;
        check_program(&u).map_err(|d| format!("{what}: ill-typed: {d}"))?;
        let ltys: Vec<_> = l.lparams.iter().map(|p| &p.ty).collect();
        let jtys: Vec<_> = jd.lparams.iter().map(|p| &p.ty).collect();
        if ltys != jtys || l.lret != jd.lret || !l.ret.is_empty() {
            return fail(format!(
                "{what}: the linear half's signature differs from J's\n{}",
                show(&u)
            ));
        }
        let (y, _, dy, _, _) = or_vacuous!(halves(&s, &u, case, &dx));
        if y != want.nl || dy != want.lin {
            return fail(format!(
                "{what}: the halves give ({}; {}), J ({}; {})\n{}",
                shows(&y),
                shows(&dy),
                shows(&want.nl),
                shows(&want.lin),
                show(&u)
            ));
        }
    }
    let nonzero = want.lin.iter().any(|v| {
        crate::values::reals(v)
            .iter()
            .any(|x| !num_traits::Zero::is_zero(x))
    });
    Pass::figure(if nonzero { 1.0 } else { 0.0 })
}

fn preserves_work(case: &Case) -> Outcome {
    let s = or_vacuous!(stages(case));
    let wj = static_work(&s.j, &s.jname)?;
    let (wp, wl) = (static_work(&s.u, &s.prim)?, static_work(&s.u, &s.lin)?);
    if wp + wl != wj {
        return fail(format!(
            "lin(primal) + lin(linear) = {wp} + {wl}, lin(J) = {wj}\n{}\n{}",
            show(&s.j),
            show(&s.u)
        ));
    }
    let mut rng = aux_rng(case, 73);
    let dx = random_largs(s.jdef()?, &mut rng);
    let j = or_vacuous!(run(&s.j, &s.jname, &case.inputs, &dx));
    let (_, _, _, a, b) = or_vacuous!(halves(&s, &s.u, case, &dx));
    if a + b != j.work {
        return fail(format!(
            "the interpreter counts {a} + {b} on the halves, {} on J",
            j.work
        ));
    }
    Pass::figure(wj as f64)
}

fn scalars(u: &LinearProgram, s: &Stages, tape: &[Name]) -> Result<u64, String> {
    let types = check_program(u).map_err(|d| d.to_string())?;
    let dt = types.def(&s.prim);
    Ok(tape.iter().map(|v| dt.ty(v).size() as u64).sum())
}

fn checkpoint_sound(case: &Case) -> Outcome {
    let s = or_vacuous!(stages(case));
    let jd = s.jdef()?;
    let ny = jd.ret.len();
    let mut rng = aux_rng(case, 74);
    let dx = random_largs(jd, &mut rng);
    let want = or_vacuous!(run(&s.j, &s.jname, &case.inputs, &dx));
    let w_store = static_work(&s.u, &s.prim)? + static_work(&s.u, &s.lin)?;
    let stored = tape_names(&s.u, &s.prim, ny)?;
    // Intermediates whose defining statement reads only stored variables.
    let mut reads: HashMap<Name, Vec<Name>> = HashMap::new();
    for st in flatten(&jd.body).0 {
        let (bound, r) = match &st {
            Stmt::Let(b, e) => (b.nl.clone(), direct_uses(e)),
            Stmt::Unpack(ns, t) => (ns.clone(), vec![t.clone()]),
        };
        for v in bound {
            reads.insert(v, r.clone());
        }
    }
    let local: BTreeSet<Name> = stored
        .iter()
        .filter(|v| {
            reads
                .get(*v)
                .is_some_and(|r| r.iter().all(|x| stored.contains(x)))
        })
        .filter(|_| rng.gen_bool(0.5))
        .cloned()
        .collect();
    let mut policies = policies(&s, &mut rng)?;
    policies.push((
        "recompute from the tape",
        Checkpoint::Recompute(local.clone()),
    ));
    let mut smaller = false;
    for (what, policy) in policies {
        let u = or_vacuous!(unzipped(&s, &policy));
        let (y, _, dy, _, _) = or_vacuous!(halves(&s, &u, case, &dx));
        if y != want.nl || dy != want.lin {
            return fail(format!(
                "{what}: the halves give ({}; {}), J ({}; {})\n{}",
                shows(&y),
                shows(&dy),
                shows(&want.nl),
                shows(&want.lin),
                show(&u)
            ));
        }
        let w = static_work(&u, &s.prim)? + static_work(&u, &s.lin)?;
        if w < w_store {
            return fail(format!(
                "{what}: lin work {w} < {w_store} with every intermediate stored\n{}",
                show(&u)
            ));
        }
        let tape = tape_names(&u, &s.prim, ny)?;
        if policy == Checkpoint::RecomputeAll {
            smaller = scalars(&u, &s, &tape)? < scalars(&s.u, &s, &stored)?;
        }
        if what == "recompute from the tape"
            && tape
                .iter()
                .any(|v| !stored.contains(v) || local.contains(v))
        {
            return fail(format!(
                "recomputing {local:?} from the stored tape {stored:?} gives the tape {tape:?}\n{}",
                show(&u)
            ));
        }
    }
    Pass::figure(if smaller { 1.0 } else { 0.0 })
}
