//! Running one rewrite phase: a builder-style [`Phase`] configuration, one egg `Runner`
//! per phase with explicit limits, and a [`PhaseReport`] with the stop reason as data.
//!
//! Stop reasons: [`PhaseStop::Saturated`] is the normal end; [`PhaseStop::IterationLimit`]
//! and [`PhaseStop::NodeLimit`] are reported as data (the driver decides whether the
//! result is good enough); [`PhaseStop::Goal`] when the phase's goal predicate held. The
//! wall-clock limit is a safety net only (it makes runs non-reproducible): hitting it is an
//! [`ErrorKind::Resource`] diagnostic. An analysis conflict (see
//! [`super::analysis::IrAnalysis::conflict`]) is an [`ErrorKind::Internal`] diagnostic
//! naming the conflict, the iteration and the rule whose application produced it (a
//! wrapping scheduler checks the conflict after each rule's application; a conflict that
//! surfaces only while rebuilding names the rules applied in that iteration). After a
//! conflict no further rule is applied and the runner stops at the next iteration.
//!
//! The time limit is checked within an iteration too: egg's `Runner` checks its limits only
//! between rules (after each rule's search and after each rule's application), so one
//! rule applied to many matches could overrun it by the length of an iteration. The
//! wrapping scheduler checks the deadline before each search and between chunks of
//! [`APPLY_CHUNK`] matches while applying (in the order egg would apply them, so a run
//! within its limit applies exactly what it did before); past it, nothing more is searched
//! or applied and the phase stops with the same resource error as egg's `TimeLimit`. What
//! is not interrupted: one rule's search of the whole e-graph, one chunk, and the rebuild
//! at the end of an iteration.

use super::analysis::{IrAnalysis, IrGraph};
use super::lang::Ir;
use super::translate::Translation;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use egg::{
    BackoffScheduler, Id, Rewrite, RewriteScheduler, Runner, SearchMatches, SimpleScheduler,
    StopReason,
};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

/// A goal: the phase stops (with [`PhaseStop::Goal`]) at the start of an iteration where
/// it holds of the e-graph and the root class.
pub type Goal = Arc<dyn Fn(&IrGraph, Id) -> bool + Send + Sync>;

/// Which egg scheduler a phase uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheduling {
    /// Every rule searches every iteration (`egg::SimpleScheduler`).
    Simple,
    /// Exponential backoff of rules with many matches (`egg::BackoffScheduler`).
    Backoff {
        /// Matches a rule may apply before it is banned (doubling per ban).
        match_limit: usize,
        /// Iterations of the first ban (doubling per ban).
        ban_length: usize,
    },
}

/// The configuration of one phase (builder style; see [`Phase::new`] for defaults).
#[derive(Clone)]
pub struct Phase {
    /// The phase's name (in reports and errors).
    pub name: String,
    /// Most iterations.
    pub iter_limit: usize,
    /// Most e-nodes (egg compares it with the memo size after each rule).
    pub node_limit: usize,
    /// Wall-clock safety net.
    pub time_limit: Duration,
    /// The scheduler.
    pub scheduling: Scheduling,
    /// An optional goal that stops the phase early.
    pub goal: Option<Goal>,
}

impl fmt::Debug for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Phase")
            .field("name", &self.name)
            .field("iter_limit", &self.iter_limit)
            .field("node_limit", &self.node_limit)
            .field("time_limit", &self.time_limit)
            .field("scheduling", &self.scheduling)
            .field("goal", &self.goal.is_some())
            .finish()
    }
}

impl Phase {
    /// A phase named `name` with defaults: 64 iterations, 100,000 nodes, a 60 s safety
    /// net, the backoff scheduler with egg's defaults (1,000 matches, bans of 5).
    pub fn new(name: impl Into<String>) -> Phase {
        Phase {
            name: name.into(),
            iter_limit: 64,
            node_limit: 100_000,
            time_limit: Duration::from_secs(60),
            scheduling: Scheduling::Backoff {
                match_limit: 1_000,
                ban_length: 5,
            },
            goal: None,
        }
    }
    /// Sets the iteration limit.
    pub fn with_iter_limit(mut self, n: usize) -> Phase {
        self.iter_limit = n;
        self
    }
    /// Sets the node limit.
    pub fn with_node_limit(mut self, n: usize) -> Phase {
        self.node_limit = n;
        self
    }
    /// Sets the wall-clock safety net.
    pub fn with_time_limit(mut self, t: Duration) -> Phase {
        self.time_limit = t;
        self
    }
    /// Uses the simple scheduler (every rule, every iteration).
    pub fn with_simple_scheduler(mut self) -> Phase {
        self.scheduling = Scheduling::Simple;
        self
    }
    /// Uses the backoff scheduler with these parameters.
    pub fn with_backoff(mut self, match_limit: usize, ban_length: usize) -> Phase {
        self.scheduling = Scheduling::Backoff {
            match_limit,
            ban_length,
        };
        self
    }
    /// Stops the phase as soon as `goal` holds (checked at the start of each iteration).
    pub fn with_goal(
        mut self,
        goal: impl Fn(&IrGraph, Id) -> bool + Send + Sync + 'static,
    ) -> Phase {
        self.goal = Some(Arc::new(goal));
        self
    }
}

/// Why a phase stopped (the non-error cases).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PhaseStop {
    /// No rule changed the e-graph in the last iteration.
    Saturated,
    /// The iteration limit was reached; the data is the number of iterations run.
    IterationLimit(usize),
    /// The node limit was exceeded; the data is the e-graph size (egg's memo size) that
    /// exceeded it (at most one rule's application past the limit).
    NodeLimit(usize),
    /// The phase's goal held.
    Goal,
}

/// What one phase did.
#[derive(Clone, Debug)]
pub struct PhaseReport {
    /// The phase's name.
    pub phase: String,
    /// Why it stopped.
    pub stop: PhaseStop,
    /// Iterations run.
    pub iterations: usize,
    /// E-nodes at the end.
    pub egraph_nodes: usize,
    /// E-classes at the end.
    pub egraph_classes: usize,
    /// Rule name → number of (new) applications, over all iterations.
    pub applied: BTreeMap<String, usize>,
    /// Wall-clock seconds (informational; not reproducible).
    pub seconds: f64,
}

/// The marker of a goal stop in egg's `StopReason::Other`.
const GOAL: &str = "adora: phase goal reached";
/// The marker of a conflict stop in egg's `StopReason::Other`.
const CONFLICT: &str = "adora: analysis conflict";
/// The marker of a time-limit stop found within an iteration in egg's `StopReason::Other`.
const DEADLINE: &str = "adora: time limit within an iteration";
/// Matches (e-classes with their substitutions) applied between two checks of the
/// deadline.
pub const APPLY_CHUNK: usize = 64;

/// Wraps a scheduler: after each rule's application it checks whether the analysis has
/// recorded a conflict and, if so, remembers the rule; once a conflict is known, no rule is
/// applied any more.
/// It also stops searching and applying once the phase's deadline has passed (see the
/// module documentation), recording that in `late`.
struct Blame<S> {
    inner: S,
    culprit: Rc<RefCell<Option<(usize, String)>>>,
    deadline: Deadline,
}

/// The wall-clock deadline of a phase and whether it was met within an iteration.
#[derive(Clone)]
struct Deadline {
    at: Option<std::time::Instant>,
    late: Rc<std::cell::Cell<bool>>,
}

impl Deadline {
    fn new(limit: Duration) -> Deadline {
        Deadline {
            at: std::time::Instant::now().checked_add(limit),
            late: Rc::new(std::cell::Cell::new(false)),
        }
    }
    /// Whether the deadline has passed (remembered once it has).
    fn passed(&self) -> bool {
        if !self.late.get() && self.at.is_some_and(|at| std::time::Instant::now() >= at) {
            self.late.set(true);
        }
        self.late.get()
    }
}

impl<S: RewriteScheduler<Ir, IrAnalysis>> RewriteScheduler<Ir, IrAnalysis> for Blame<S> {
    fn can_stop(&mut self, iteration: usize) -> bool {
        self.inner.can_stop(iteration)
    }

    fn search_rewrite<'a>(
        &mut self,
        iteration: usize,
        egraph: &IrGraph,
        rewrite: &'a Rewrite<Ir, IrAnalysis>,
    ) -> Vec<SearchMatches<'a, Ir>> {
        if egraph.analysis.conflict.is_some() || self.deadline.passed() {
            return Vec::new();
        }
        self.inner.search_rewrite(iteration, egraph, rewrite)
    }

    fn apply_rewrite(
        &mut self,
        iteration: usize,
        egraph: &mut IrGraph,
        rewrite: &Rewrite<Ir, IrAnalysis>,
        matches: Vec<SearchMatches<Ir>>,
    ) -> usize {
        let mut n = 0;
        let mut matches = matches.into_iter().peekable();
        while matches.peek().is_some() {
            if egraph.analysis.conflict.is_some() || self.deadline.passed() {
                break;
            }
            let chunk: Vec<SearchMatches<Ir>> = matches.by_ref().take(APPLY_CHUNK).collect();
            n += self.inner.apply_rewrite(iteration, egraph, rewrite, chunk);
            if egraph.analysis.conflict.is_some() {
                *self.culprit.borrow_mut() = Some((iteration, rewrite.name.to_string()));
            }
        }
        n
    }
}

/// Runs `rules` on `tr`'s e-graph under `cfg`; afterwards `tr.root` is canonical. The
/// e-graph stays in `tr` even when an error is returned (for inspection).
pub fn run_phase(
    tr: &mut Translation,
    rules: &[Rewrite<Ir, IrAnalysis>],
    cfg: &Phase,
) -> Result<PhaseReport> {
    let egraph = std::mem::replace(&mut tr.egraph, IrGraph::new(IrAnalysis::default()));
    let (egraph, root, report) = run_egraph(egraph, tr.root, rules, cfg);
    tr.egraph = egraph;
    tr.root = root;
    report
}

/// [`run_phase`] on a bare e-graph and root: returns the e-graph, the canonical root and
/// the report (or the error).
pub fn run_egraph(
    egraph: IrGraph,
    root: Id,
    rules: &[Rewrite<Ir, IrAnalysis>],
    cfg: &Phase,
) -> (IrGraph, Id, Result<PhaseReport>) {
    let culprit = Rc::new(RefCell::new(None));
    let deadline = Deadline::new(cfg.time_limit);
    let late = deadline.late.clone();
    let was_late = deadline.late.clone();
    let mut runner: Runner<Ir, IrAnalysis> = Runner::new(IrAnalysis::default())
        .with_egraph(egraph)
        .with_iter_limit(cfg.iter_limit)
        .with_node_limit(cfg.node_limit)
        .with_time_limit(cfg.time_limit)
        .with_hook(|r| match r.egraph.analysis.conflict {
            Some(_) => Err(CONFLICT.to_string()),
            None => Ok(()),
        })
        .with_hook(move |_| match late.get() {
            true => Err(DEADLINE.to_string()),
            false => Ok(()),
        });
    if let Some(goal) = cfg.goal.clone() {
        runner = runner.with_hook(move |r| {
            if goal(&r.egraph, r.egraph.find(root)) {
                Err(GOAL.to_string())
            } else {
                Ok(())
            }
        });
    }
    runner = match cfg.scheduling {
        Scheduling::Simple => runner.with_scheduler(Blame {
            inner: SimpleScheduler,
            culprit: culprit.clone(),
            deadline,
        }),
        Scheduling::Backoff {
            match_limit,
            ban_length,
        } => runner.with_scheduler(Blame {
            inner: BackoffScheduler::default()
                .with_initial_match_limit(match_limit)
                .with_ban_length(ban_length),
            culprit: culprit.clone(),
            deadline,
        }),
    };
    let started = std::time::Instant::now();
    let runner = runner.run(rules);
    let seconds = started.elapsed().as_secs_f64();
    let root = runner.egraph.find(root);
    let mut applied = BTreeMap::new();
    for it in &runner.iterations {
        for (name, n) in &it.applied {
            *applied.entry(name.to_string()).or_insert(0) += n;
        }
    }
    let culprit = culprit.borrow().clone();
    let report = finish(&runner, cfg, applied, seconds, culprit, was_late.get());
    (runner.egraph, root, report)
}

fn finish(
    runner: &Runner<Ir, IrAnalysis>,
    cfg: &Phase,
    applied: BTreeMap<String, usize>,
    seconds: f64,
    culprit: Option<(usize, String)>,
    late: bool,
) -> Result<PhaseReport> {
    let iterations = runner.iterations.len();
    crate::stats::note_egraph(runner.egraph.total_number_of_nodes());
    if let Some(c) = &runner.egraph.analysis.conflict {
        let at = match culprit {
            Some((it, rule)) => format!("iteration {it}, applying rule `{rule}`"),
            None => {
                let last: Vec<String> = runner
                    .iterations
                    .iter()
                    .rev()
                    .find(|it| !it.applied.is_empty())
                    .map(|it| it.applied.keys().map(|k| format!("`{k}`")).collect())
                    .unwrap_or_default();
                format!(
                    "while rebuilding; the last rules applied: {}",
                    last.join(", ")
                )
            }
        };
        return Err(Diagnostic::new(
            ErrorKind::Internal,
            Span::DUMMY,
            format!(
                "internal error: phase `{}` made an unsound merge ({at}): {c}",
                cfg.name
            ),
        ));
    }
    // Past the deadline within an iteration, searches were skipped: whatever egg concluded
    // (even saturation) is a time-limit stop.
    let late = late || matches!(runner.stop_reason, Some(StopReason::TimeLimit(_)));
    let stop = match runner.stop_reason.clone() {
        _ if late => {
            return Err(Diagnostic::new(
                ErrorKind::Resource,
                Span::DUMMY,
                format!(
                    "phase `{}` hit its time limit ({:?}) after {seconds:.3} s, {iterations} \
                     iterations, {} e-nodes",
                    cfg.name,
                    cfg.time_limit,
                    runner.egraph.total_number_of_nodes()
                ),
            ))
        }
        Some(StopReason::Saturated) => PhaseStop::Saturated,
        Some(StopReason::IterationLimit(n)) => PhaseStop::IterationLimit(n),
        Some(StopReason::NodeLimit(n)) => PhaseStop::NodeLimit(n),
        Some(StopReason::Other(s)) if s == GOAL => PhaseStop::Goal,
        other => {
            return Err(Diagnostic::new(
                ErrorKind::Internal,
                Span::DUMMY,
                format!(
                    "internal error: phase `{}` stopped unexpectedly: {other:?}",
                    cfg.name
                ),
            ))
        }
    };
    Ok(PhaseReport {
        phase: cfg.name.clone(),
        stop,
        iterations,
        egraph_nodes: runner.egraph.total_number_of_nodes(),
        egraph_classes: runner.egraph.number_of_classes(),
        applied,
        seconds,
    })
}
