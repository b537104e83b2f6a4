//! The bulk-operation transform (bot) of seed 000 §5 as an egg rule system.
//!
//! [`transform`] translates an elaborated function into an e-graph
//! ([`crate::ir::translate`]), runs every bot rule ([`rules`], tabulated in [`RULES`] and
//! docs/rules/bot.md) in one phase with explicit limits ([`BotConfig`]; a goal stops the
//! phase a few iterations after a normal form first exists), checks why the phase
//! stopped, extracts the best build-free term ([`crate::ir::extract`]: scope-aware,
//! preferring build-free terms and then normal-form indexes), checks Theorem 5.1's normal
//! form on that term ([`projection::check_term`]), re-introduces lets, re-type-checks, and
//! checks the normal form of the function ([`projection::check_normal_form`], the shared
//! [`normal_form::check_normal_form`] with projections of tuple variables counted as
//! variables). [`prepare`] is the one preparation the engines run (one configuration,
//! [`engine_config`]); [`show`] prints its result as source.
//!
//! The rules live in `rules/` (one module per figure; docs/rules/bot.md explains the
//! encoding: lets by sharing, binders, substitution on representatives, guards). A `let`
//! outside binders used more than once or under a binder is materialised instead (module
//! `share`: its value and the rest are transformed as separate segments).
//!
//! Errors: hitting the iteration or node limit before the normal form is reachable is an
//! [`ErrorKind::Resource`] diagnostic with the figures (iterations, e-nodes, e-classes);
//! the wall-clock safety net is `Resource` too; an unsound merge, or a saturated e-graph
//! without a normal form, is an internal error ([`ErrorKind::Internal`]); programs outside
//! the seed-000 fragment are [`ErrorKind::Unsupported`] (from translation). Nothing
//! panics on any input program, and the output is deterministic.

mod build_let;
mod goal;
pub mod normal_form;
mod prepare;
pub mod projection;
mod rules;
mod share;
pub mod table;

pub use prepare::{engine_config, has_build, prepare, show};
pub use table::{RuleInfo, RULES};

use crate::ir::analysis::IrAnalysis;
use crate::ir::extract::{extract_recexpr, to_function_naming};
use crate::ir::lang::Ir;
use crate::ir::runner::{run_phase, Phase, PhaseReport, PhaseStop};
use crate::ir::translate::translate;
use adora_core::ast::{Expr, ExprKind, Function};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::visit::{pat_names, NameSupply};
use egg::Rewrite;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The limits of one bot run (builder style; see [`BotConfig::default`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotConfig {
    /// Most iterations of the rule phase.
    pub iter_limit: usize,
    /// Most e-nodes.
    pub node_limit: usize,
    /// Wall-clock safety net (hitting it is an error; results never depend on it).
    pub time_limit: Duration,
    /// Iterations to keep rewriting once the root has a normal form (`None`: run to
    /// saturation). Equality saturation keeps finding alternatives long after a normal
    /// form exists (pushing indexes through every `let`-bound definition, say); a few more
    /// iterations let cheaper forms appear, then the phase stops with a goal.
    pub settle: Option<usize>,
    /// The order in which the rules are handed to egg: `None` is the table's order
    /// ([`RULES`]); `Some(seed)` a permutation of it determined by `seed` (used by the
    /// property `bot/confluent`: normal forms must not depend on rule order).
    pub rule_order: Option<u64>,
    /// The scheduler: `None` is egg's simple scheduler (every rule, every iteration);
    /// `Some((match_limit, ban_length))` egg's backoff scheduler with those parameters.
    pub backoff: Option<(usize, usize)>,
}

impl Default for BotConfig {
    /// 200 iterations, 400,000 e-nodes, a 60 s safety net, 2 settling iterations.
    fn default() -> Self {
        BotConfig {
            iter_limit: 200,
            node_limit: 400_000,
            time_limit: Duration::from_secs(60),
            settle: Some(2),
            rule_order: None,
            backoff: None,
        }
    }
}

impl BotConfig {
    /// Sets the iteration limit.
    pub fn with_iter_limit(mut self, n: usize) -> BotConfig {
        self.iter_limit = n;
        self
    }
    /// Sets the e-node limit.
    pub fn with_node_limit(mut self, n: usize) -> BotConfig {
        self.node_limit = n;
        self
    }
    /// Sets the wall-clock safety net.
    pub fn with_time_limit(mut self, t: Duration) -> BotConfig {
        self.time_limit = t;
        self
    }
    /// Sets the settling iterations (`None`: run to saturation).
    pub fn with_settle(mut self, settle: Option<usize>) -> BotConfig {
        self.settle = settle;
        self
    }
    /// Hands the rules to egg in the order determined by `seed` (`None`: the table's).
    pub fn with_rule_order(mut self, seed: Option<u64>) -> BotConfig {
        self.rule_order = seed;
        self
    }
    /// Uses egg's backoff scheduler with these parameters (`None`: the simple one).
    pub fn with_backoff(mut self, backoff: Option<(usize, usize)>) -> BotConfig {
        self.backoff = backoff;
        self
    }
    /// The rules in the order of `rule_order` (a Fisher–Yates shuffle driven by
    /// splitmix64, so the same seed gives the same order on every platform).
    fn ordered_rules(&self) -> Vec<Rewrite<Ir, IrAnalysis>> {
        let mut rs = rules();
        let Some(seed) = self.rule_order else {
            return rs;
        };
        let mut state = seed;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        for k in (1..rs.len()).rev() {
            let j = (next() % (k as u64 + 1)) as usize;
            rs.swap(k, j);
        }
        rs
    }
    /// The rule phase these limits describe (the simple scheduler unless `backoff` is
    /// set; with a goal when `settle` is set).
    fn phase(&self) -> Phase {
        let phase = Phase::new("bot")
            .with_iter_limit(self.iter_limit)
            .with_node_limit(self.node_limit)
            .with_time_limit(self.time_limit);
        let phase = match self.backoff {
            None => phase.with_simple_scheduler(),
            Some((m, b)) => phase.with_backoff(m, b),
        };
        let Some(extra) = self.settle else {
            return phase;
        };
        let seen: Mutex<(usize, Option<usize>)> = Mutex::new((0, None));
        phase.with_goal(move |eg, root| {
            let mut s = seen.lock().unwrap_or_else(|e| e.into_inner());
            let now = s.0;
            s.0 += 1;
            // The check extracts (after a cheap necessary condition); after the first few
            // iterations it runs every fourth one only.
            let due = now < 8 || now & 3 == 0;
            if s.1.is_none() && due && in_normal_form(eg, root) {
                s.1 = Some(now);
            }
            s.1.is_some_and(|first| now >= first + extra)
        })
    }
}

/// The result of [`transform`].
#[derive(Clone, Debug)]
pub struct BotOutcome {
    /// The transformed function: same signature, in Theorem 5.1's normal form.
    pub function: Function,
    /// What each phase did: one phase per segment (module `share`), in program order.
    pub phases: Vec<PhaseReport>,
    /// E-nodes at the end.
    pub egraph_nodes: usize,
    /// E-classes at the end.
    pub egraph_classes: usize,
    /// Rule name → applications, over all phases.
    pub applied: BTreeMap<String, usize>,
}

/// Every bot rule as an egg rewrite (the names and order of [`RULES`]).
pub fn rules() -> Vec<Rewrite<Ir, IrAnalysis>> {
    rules::all()
}

/// Runs the bot on an elaborated function (see the module docs).
///
/// A `let` outside every binder whose value is used more than once, or under a binder,
/// stays a `let` (module `share`, docs/rules/bot.md, "Materialised lets"): its value and
/// the rest are transformed as separate *segments*, one e-graph each, in order. Each
/// segment has the iteration and e-node limits of `cfg` and the time left of `cfg`'s
/// safety net; the outcome lists one phase report per segment, and its e-graph figures
/// and rule applications are the sums over the segments.
pub fn transform(f: &Function, cfg: &BotConfig) -> Result<BotOutcome> {
    let lifted = build_let::lift(f);
    let f = &lifted;
    let Some(segments) = share::split(f)? else {
        return transform_segment(f, cfg, &mut NameSupply::new());
    };
    // One supply names every segment's `let`s and binders, the parameters and the
    // materialised names reserved: the assembled program's names are unique by
    // construction (docs/architecture.md, "Lowering kit"), with no renaming afterwards.
    let mut supply = NameSupply::new();
    for p in &f.params {
        supply.reserve(&p.name);
    }
    for seg in &segments {
        for n in seg.pat.iter().flat_map(pat_names) {
            supply.reserve(n);
        }
    }
    let started = Instant::now();
    let mut lets = Vec::new();
    let mut total = BotOutcome {
        function: f.clone(),
        phases: Vec::new(),
        egraph_nodes: 0,
        egraph_classes: 0,
        applied: BTreeMap::new(),
    };
    for seg in segments {
        let left = cfg.time_limit.saturating_sub(started.elapsed());
        if left.is_zero() {
            return Err(Diagnostic::new(
                ErrorKind::Resource,
                f.body.span,
                format!(
                    "bot hit its time limit ({:?}) after {} of its segments",
                    cfg.time_limit,
                    total.phases.len()
                ),
            ));
        }
        let seg_cfg = cfg.clone().with_time_limit(left);
        let out = transform_segment(&seg.function, &seg_cfg, &mut supply)?;
        total.phases.extend(out.phases);
        total.egraph_nodes += out.egraph_nodes;
        total.egraph_classes += out.egraph_classes;
        for (rule, n) in out.applied {
            *total.applied.entry(rule).or_insert(0) += n;
        }
        match seg.pat {
            Some(p) => lets.push((p, out.function.body)),
            None => total.function.body = out.function.body,
        }
    }
    let body = lets
        .into_iter()
        .rev()
        .fold(total.function.body, |b, (p, v)| {
            let span = v.span;
            Expr::new(ExprKind::Let(p, Box::new(v), Box::new(b)), span)
        });
    total.function.body = body;
    let g = &total.function;
    crate::ir::extract::recheck(g, f, "the program with its lets")?;
    if let Err(v) = projection::check_normal_form(g) {
        return Err(
            internal(format!("the extracted program is not in normal form: {v}"))
                .with_note(adora_core::pretty::function(g)),
        );
    }
    Ok(total)
}

/// Bot on one segment (or on a whole function without materialised lets): one e-graph,
/// one phase; the extracted program's names come from `supply`.
fn transform_segment(f: &Function, cfg: &BotConfig, supply: &mut NameSupply) -> Result<BotOutcome> {
    let mut tr = translate(f)?;
    let rules = cfg.ordered_rules();
    let phase = cfg.phase();
    let report = run_phase(&mut tr, &rules, &phase)?;
    let figures = format!(
        "after {} iterations, with {} e-nodes in {} e-classes",
        report.iterations, report.egraph_nodes, report.egraph_classes
    );
    let stuck = |what: String| match &report.stop {
        PhaseStop::IterationLimit(n) => Diagnostic::new(
            ErrorKind::Resource,
            f.body.span,
            format!(
                "bot reached its iteration limit ({n}) before the normal form: {what} {figures}"
            ),
        ),
        PhaseStop::NodeLimit(n) => Diagnostic::new(
            ErrorKind::Resource,
            f.body.span,
            format!("bot reached its e-node limit ({n}) before the normal form: {what} {figures}"),
        ),
        stop => internal(format!(
            "bot stopped ({stop:?}) without a normal form: {what} {figures}"
        )),
    };
    let term = extract_recexpr(&tr.egraph, tr.root)?;
    if let Err(v) = projection::check_term(&term) {
        return Err(stuck(format!("the best term is not in normal form ({v})")));
    }
    let g = to_function_naming(&term, &tr.egraph.analysis, f, supply)?;
    if let Err(v) = projection::check_normal_form(&g) {
        return Err(
            internal(format!("the extracted program is not in normal form: {v}"))
                .with_note(adora_core::pretty::function(&g)),
        );
    }
    Ok(BotOutcome {
        function: g,
        egraph_nodes: report.egraph_nodes,
        egraph_classes: report.egraph_classes,
        applied: report.applied.clone(),
        phases: vec![report],
    })
}

/// Whether the best well-scoped term of `root` is in Theorem 5.1's normal form, as
/// [`projection::check_term`] decides on the extracted term (after the cheap necessary
/// condition of [`goal::may_be_normal`]).
fn in_normal_form(eg: &crate::ir::analysis::IrGraph, root: egg::Id) -> bool {
    if !goal::may_be_normal(eg, root) {
        return false;
    }
    extract_recexpr(eg, root).is_ok_and(|e| projection::check_term(&e).is_ok())
}

fn internal(msg: String) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Internal,
        Span::DUMMY,
        format!("internal error in bot: {msg}"),
    )
}
