//! Running one pass: one egg `Runner` with explicit limits, the stop reason checked,
//! extraction by [`super::extract`], canonical names, and the pass's normal-form check
//! (docs/engines/tssa-passes.md, "Running a pass").
//!
//! Only saturation is success: a pass's rules are terminating rewrite systems (seed 001
//! §5: "they follow from our choice to use syntax-directed rewrite systems"), so the
//! e-graph saturates on every term within the limits the passes use; hitting the
//! iteration or node limit is an [`ErrorKind::Resource`] diagnostic naming the limit and
//! the figures, the wall-clock safety net too. A type conflict of the analysis (an
//! unsound merge), a root without a normal form, or a result that fails the normal-form
//! checker is [`ErrorKind::Internal`].

use super::analysis::{TlAnalysis, TlGraph};
use super::appliers::Ctx;
use super::extract::{extract, Mode};
use super::lang::{to_recexpr, Tl};
use super::names::canonical;
use super::types::{binder_types, soa};
use super::vars::Free;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::tl::{Term, Ty, Var};
use egg::{Rewrite, Runner, SimpleScheduler, StopReason};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// The limits of one pass's runner (builder style; see [`Limits::default`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most iterations.
    pub iter_limit: usize,
    /// Most e-nodes.
    pub node_limit: usize,
    /// Wall-clock safety net (hitting it is an error; results never depend on it).
    pub time_limit: Duration,
}

impl Default for Limits {
    /// 500 iterations, 200,000 e-nodes, a 60 s safety net.
    fn default() -> Self {
        Limits {
            iter_limit: 500,
            node_limit: 200_000,
            time_limit: Duration::from_secs(60),
        }
    }
}

/// What a run did (for reports and tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassReport {
    /// The pass's name.
    pub pass: String,
    /// Iterations run.
    pub iterations: usize,
    /// E-nodes at the end.
    pub nodes: usize,
    /// E-classes at the end.
    pub classes: usize,
    /// Rule applications that changed the e-graph, by rule name.
    pub applied: BTreeMap<String, usize>,
}

fn internal(pass: &str, msg: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Internal,
        Span::DUMMY,
        format!("tssa {pass}: {msg}"),
    )
}

/// Runs `rules` (built for the context) on `t` and extracts the normal form of `mode`;
/// `inputs` are the free variables' types (those missing are untyped), `check` the
/// normal-form checker applied to the result.
pub fn run_pass(
    pass: &str,
    t: &Term,
    inputs: &[(Var, Ty)],
    mode: Mode,
    rules: impl Fn(&Ctx) -> Vec<Rewrite<Tl, TlAnalysis>>,
    limits: &Limits,
    check: impl Fn(&Term) -> std::result::Result<(), String>,
) -> Result<(Term, PassReport)> {
    let input_names: Vec<Var> = inputs.iter().map(|(x, _)| x.clone()).collect();
    let free = Free::of_term(t);
    if let Some(i) = free.ivars.iter().next() {
        return Err(internal(pass, format!("free index variable {i}")));
    }
    let t = canonical(t, &input_names);
    let env: BTreeMap<Var, Ty> = inputs.iter().map(|(x, ty)| (x.clone(), soa(ty))).collect();
    let mut types = env.clone();
    binder_types(&t, &env, &mut types);
    let mut input_set: BTreeSet<Var> = input_names.iter().cloned().collect();
    input_set.extend(free.vars.iter().cloned());
    let ctx = Ctx::new(mode, input_set.clone());
    let reps = ctx.reps.clone();
    let mut eg = TlGraph::new(TlAnalysis {
        types,
        conflict: None,
    });
    let expr = to_recexpr(&t)?;
    let root = eg.add_expr(&expr);
    let rules = rules(&ctx);
    let runner: Runner<Tl, TlAnalysis> = Runner::new(TlAnalysis::default())
        .with_egraph(eg)
        .with_iter_limit(limits.iter_limit)
        .with_node_limit(limits.node_limit)
        .with_time_limit(limits.time_limit)
        .with_scheduler(SimpleScheduler)
        .with_hook(move |r| {
            // The e-graph was rebuilt since the last iteration: new representatives.
            reps.clear();
            match &r.egraph.analysis.conflict {
                Some(c) => Err(format!("analysis conflict: {c}")),
                None => Ok(()),
            }
        })
        .run(&rules);
    let eg = &runner.egraph;
    crate::stats::note_egraph(eg.total_size());
    let figures = format!(
        "{} iterations, {} e-nodes, {} e-classes",
        runner.iterations.len(),
        eg.total_size(),
        eg.number_of_classes()
    );
    match runner.stop_reason.clone() {
        Some(StopReason::Saturated) => {}
        Some(StopReason::IterationLimit(n)) => {
            return Err(Diagnostic::new(
                ErrorKind::Resource,
                Span::DUMMY,
                format!(
                "tssa {pass}: the iteration limit ({n}) was reached before saturation ({figures})"
            ),
            ))
        }
        Some(StopReason::NodeLimit(n)) => {
            return Err(Diagnostic::new(
                ErrorKind::Resource,
                Span::DUMMY,
                format!(
                    "tssa {pass}: the e-node limit ({n}) was reached before saturation ({figures})"
                ),
            ))
        }
        Some(StopReason::TimeLimit(s)) => {
            return Err(Diagnostic::new(
                ErrorKind::Resource,
                Span::DUMMY,
                format!(
                "tssa {pass}: the time limit ({s:.1} s) was reached before saturation ({figures})"
            ),
            ))
        }
        Some(StopReason::Other(m)) => return Err(internal(pass, m)),
        None => return Err(internal(pass, "the runner did not stop")),
    }
    if let Some(c) = &eg.analysis.conflict {
        return Err(internal(pass, format!("analysis conflict: {c}")));
    }
    let root = eg.find(root);
    let ex = extract(eg, &[root], mode, &input_set);
    let (key, out) = ex
        .root_term(eg, root)
        .ok_or_else(|| internal(pass, "no term extracted"))?;
    if key.0 != 0 {
        return Err(internal(
            pass,
            format!(
                "the saturated e-graph holds no normal form ({} violations)",
                key.0
            ),
        ));
    }
    let out = canonical(&out, &input_names);
    check(&out).map_err(|m| internal(pass, format!("result not in normal form: {m}")))?;
    let mut applied = BTreeMap::new();
    for it in &runner.iterations {
        for (name, n) in &it.applied {
            *applied.entry(name.to_string()).or_insert(0) += n;
        }
    }
    Ok((
        out,
        PassReport {
            pass: pass.to_string(),
            iterations: runner.iterations.len(),
            nodes: eg.total_size(),
            classes: eg.number_of_classes(),
            applied,
        },
    ))
}
