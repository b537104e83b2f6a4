//! The call-by-value reduction of the pullback calculus (Mak and Ong, *A Differential-form
//! Pullback Programming Language for Higher-order Reverse-mode AD*, §3.2–§3.4): the rules,
//! the strategy, the trace and the counters. docs/engines/pullback-reduction.md describes
//! the system, which parts are the paper's and which are reconstructed.
//!
//! | module | rules |
//! |---|---|
//! | [`values`] | values, numerals, the covector normal form |
//! | [`context`] | evaluation contexts, the unique decomposition (Lemma 3.6), the redex table |
//! | [`cbv`] | 1–4 (β, projections, δ, linearity of sums) |
//! | [`dual`] | 5, 6, 9′, covector normalisation |
//! | [`series`] | 7, 8, P |
//! | `tape` | the sparse environments of 8 and of the chain rule |
//! | `memo` | shared premises (16–18) and Jacobian applications under binders |
//! | [`jacobian`] | 9, 9z, 10–15, 20a, 20b, 20′, 20p, the forward chain rule |
//! | [`premise`] | 16a–c, 17, 18, 19a–c |
//!
//! The strategy (§3.4): call by value, left to right, in the contexts of [`context`]; the
//! A-context `pb(\x. A, t)` normalises the pulled-back function first (A3), then 7/8 split
//! it into a chain of pullbacks along elementary terms, P applies each to its point (the
//! forward phase) and 5 collapses the pending duals (the reverse phase).

pub mod cbv;
pub mod context;
pub mod dual;
pub mod jacobian;
mod memo;
pub mod premise;
mod prims;
pub mod series;
pub mod subst;
mod tape;
pub mod values;

pub use context::{decompose, Context, Frame};
pub use values::is_value;

use crate::syntax::{FnSym, Fresh, Term, TermKind};
use adora_core::diag::{Diagnostic, ErrorKind, Span};
use context::{enter, resume, root_rule};
use std::collections::BTreeMap;
use subst::Env;

/// A named reduction rule (the paper's numbers; see docs/engines/pullback-reduction.md for
/// which forms are the paper's and which are reconstructed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// A1: `let x = (let y = s in t) in u ⟶ let y = s in let x = t in u`.
    A1,
    /// A2: name a non-atomic immediate subterm of an elementary frame.
    A2,
    /// A3: abstraction bodies become let series (in the A-context `pb(\x. A, t)`).
    A3,
    /// A4: the final non-atomic body of a series is named.
    A4,
    /// 1: β_v (also `let x = v in s`).
    R1,
    /// 2: `(v0, v1).i ⟶ v_i`.
    R2,
    /// 3: δ, `f r ⟶ f̄(r)` and `J(f, w) r ⟶ Lin_f(r)(w)`.
    R3,
    /// 4: linearity of sums and zero in function and projection position, numeric sums.
    R4,
    /// 5: `dual(\w. s, \y. t) ⟶ \w. t{y := s}` (covector normal form); applying a dual.
    R5,
    /// 6: `dual(\w. s, dual(\w'. s', t)) ⟶ dual(\w. s'{w' := s}, t)`.
    R6,
    /// 7: `pb(\x. let y = E in y, ω) ⟶ pb(\x. E, ω)`.
    R7,
    /// 8: `pb(\x. let y = E in L, ω) ⟶ pb(\x. (x, E), pb(\z. L{x := z.0, y := z.1}, ω))`.
    R8,
    /// P: `pb(\x. E, ω) v ⟶ dual(Jat(\x. E, v), ω (E{x := v}))`.
    P,
    /// 9: the Jacobian of a constant function is 0.
    R9,
    /// 9′: `J(s, 0)`, `dual(s, 0)`, `pb(s, 0)` (and `J(0, t)`) reduce to 0.
    R9p,
    /// 9z: the Jacobian along a tangent that is zero on every path of `x` the body reads.
    R9z,
    /// 10: the Jacobian of a projection path of `x` is itself.
    R10,
    /// 11: the Jacobian of a sum linear in `x` is itself.
    R11,
    /// 12: the Jacobian of `J(a, b)` linear in `x` is itself.
    R12,
    /// 12b: the Jacobian of `J(a, b)` with `x` in both arguments (bilinearity).
    R12b,
    /// 13: the Jacobian of `pb(a, b)` linear in `x` is itself.
    R13,
    /// 14: the Jacobian of `\y. L` linear in `x` is itself.
    R14,
    /// 15: the Jacobian of `f a`: `J(f, tan a) (a{x := v})`.
    R15,
    /// 16a: the Jacobian of `dual(s, b)`, `x` only in the functional.
    R16a,
    /// 16b: the Jacobian of `dual(\w. L, b)`, `x` only in the map.
    R16b,
    /// 16c: the Jacobian of `dual(\w. L, b)`, `x` in both (bilinear).
    R16c,
    /// 17: the Jacobian of `pb(a, b)` with `x` in `a`: unfold the pullback.
    R17,
    /// 18: the Jacobian of `\y. L` (D-curry).
    R18,
    /// 19a: the Jacobian of `a b`, `x` only in the function position.
    R19a,
    /// 19b: the Jacobian of `a b`, `x` in both positions (D-eval).
    R19b,
    /// 19c: the Jacobian of `a b`, `x` only in the argument.
    R19c,
    /// 20a: the Jacobian of a pair, `x` in both components.
    R20a,
    /// 20b: the Jacobian of a pair, `x` in one component.
    R20b,
    /// 20′: the Jacobian of a sum not linear in `x`.
    R20s,
    /// 20p: the Jacobian of a projection that is not a path of `x` (projections are linear).
    R20p,
    /// The forward chain rule for the Jacobian of a let series (our decision).
    Chain,
    /// Covector normalisation of a functional (our decision).
    Covec,
}

impl Rule {
    /// Every rule, in table order.
    pub const ALL: &'static [Rule] = &[
        Rule::A1,
        Rule::A2,
        Rule::A3,
        Rule::A4,
        Rule::R1,
        Rule::R2,
        Rule::R3,
        Rule::R4,
        Rule::R5,
        Rule::R6,
        Rule::R7,
        Rule::R8,
        Rule::P,
        Rule::R9,
        Rule::R9p,
        Rule::R9z,
        Rule::R10,
        Rule::R11,
        Rule::R12,
        Rule::R12b,
        Rule::R13,
        Rule::R14,
        Rule::R15,
        Rule::R16a,
        Rule::R16b,
        Rule::R16c,
        Rule::R17,
        Rule::R18,
        Rule::R19a,
        Rule::R19b,
        Rule::R19c,
        Rule::R20a,
        Rule::R20b,
        Rule::R20s,
        Rule::R20p,
        Rule::Chain,
        Rule::Covec,
    ];

    /// The rule's name: "A1".."A4", "1".."15", "9'", "9z", "16a".."20b", "20'", "20p", "P", "chain",
    /// "covec".
    pub fn name(self) -> &'static str {
        match self {
            Rule::A1 => "A1",
            Rule::A2 => "A2",
            Rule::A3 => "A3",
            Rule::A4 => "A4",
            Rule::R1 => "1",
            Rule::R2 => "2",
            Rule::R3 => "3",
            Rule::R4 => "4",
            Rule::R5 => "5",
            Rule::R6 => "6",
            Rule::R7 => "7",
            Rule::R8 => "8",
            Rule::P => "P",
            Rule::R9 => "9",
            Rule::R9p => "9'",
            Rule::R9z => "9z",
            Rule::R10 => "10",
            Rule::R11 => "11",
            Rule::R12 => "12",
            Rule::R12b => "12b",
            Rule::R13 => "13",
            Rule::R14 => "14",
            Rule::R15 => "15",
            Rule::R16a => "16a",
            Rule::R16b => "16b",
            Rule::R16c => "16c",
            Rule::R17 => "17",
            Rule::R18 => "18",
            Rule::R19a => "19a",
            Rule::R19b => "19b",
            Rule::R19c => "19c",
            Rule::R20a => "20a",
            Rule::R20b => "20b",
            Rule::R20s => "20'",
            Rule::R20p => "20p",
            Rule::Chain => "chain",
            Rule::Covec => "covec",
        }
    }
}

/// One step of a reduction.
#[derive(Clone, Debug)]
pub struct TraceStep {
    /// The rule that fired.
    pub rule: Rule,
    /// The function symbol of a δ step (rule 3).
    pub symbol: Option<FnSym>,
    /// The term after the step: the whole term for the steps of the main reduction, the
    /// reduced subterm for the steps of a premise or of a covector normalisation.
    pub term: Term,
}

/// The counters of a reduction (docs/engines/pullback-reduction.md, "Counters").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// All steps, premises included.
    pub steps: u64,
    /// Steps per rule name.
    pub by_rule: BTreeMap<&'static str, u64>,
    /// Primal δ steps (`f r ⟶ f̄(r)`) per symbol name.
    pub delta_f: BTreeMap<String, u64>,
    /// Jacobian δ steps (`J(f, w) r ⟶ Lin_f(r)(w)`) per symbol name.
    pub delta_j: BTreeMap<String, u64>,
}

/// The result of [`Reducer::run`].
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The value reached.
    pub value: Term,
    /// The steps, when tracing was asked for (empty otherwise).
    pub trace: Vec<TraceStep>,
    /// The counters.
    pub stats: Stats,
}

impl Outcome {
    /// The trace as `[rule] term` lines, a δ step naming its symbol (`[3 mul] …`): the
    /// text `adora reduce --trace` prints and the trace goldens hold.
    pub fn trace_text(&self) -> String {
        let mut s = String::new();
        for step in &self.trace {
            match step.symbol {
                Some(f) => s.push_str(&format!(
                    "[{} {}] {}\n",
                    step.rule.name(),
                    f.name(),
                    step.term
                )),
                None => s.push_str(&format!("[{}] {}\n", step.rule.name(), step.term)),
            }
        }
        s
    }
}

/// The call-by-value reducer (builder: `Reducer::new().step_limit(n).trace(true)`).
#[derive(Clone, Debug)]
pub struct Reducer {
    limit: u64,
    size_limit: usize,
    trace: bool,
}

impl Default for Reducer {
    fn default() -> Self {
        Reducer::new()
    }
}

/// The default step limit.
pub const DEFAULT_STEP_LIMIT: u64 = 1_000_000;

/// The default term-size limit (nodes of one contractum or one let-bound term).
pub const DEFAULT_SIZE_LIMIT: usize = 10_000_000;

/// The stack the reduction runs on (the reduction recurses into deep terms).
const STACK_BYTES: usize = 1 << 30;

impl Reducer {
    /// A reducer with the default step limit and no trace.
    pub fn new() -> Reducer {
        Reducer {
            limit: DEFAULT_STEP_LIMIT,
            size_limit: DEFAULT_SIZE_LIMIT,
            trace: false,
        }
    }
    /// Stop with `ErrorKind::Resource` after `n` steps.
    pub fn step_limit(mut self, n: u64) -> Reducer {
        self.limit = n;
        self
    }
    /// Stop with `ErrorKind::Resource` when a step builds a term of more than `n` nodes
    /// (the contractum of a rule, or a term bound by a let spine): a reduction whose terms
    /// blow up ends with an error instead of exhausting time or memory inside one step.
    pub fn size_limit(mut self, n: usize) -> Reducer {
        self.size_limit = n;
        self
    }
    /// Record every step in [`Outcome::trace`].
    pub fn trace(mut self, on: bool) -> Reducer {
        self.trace = on;
        self
    }

    /// Reduces `t` to a value. Exceeding the step limit is an `ErrorKind::Resource` error; a
    /// transcendental symbol is `ErrorKind::NonRational`.
    pub fn run(&self, t: &Term) -> Result<Outcome, Diagnostic> {
        let work = || {
            let mut m = Machine::new(self, Fresh::above(t));
            let value = m.eval(t.clone())?;
            Ok(Outcome {
                value,
                trace: m.trace,
                stats: m.stats,
            })
        };
        on_big_stack(work)
    }

    /// One step of the strategy: the rule and the term after it, or `None` at a value.
    pub fn step(&self, t: &Term, fresh: &mut Fresh) -> Result<Option<(Rule, Term)>, Diagnostic> {
        let Some((ctx, redex)) = decompose(t) else {
            return Ok(None);
        };
        let rule = root_rule(&redex).expect("decompose returns redexes");
        let mut m = Machine::new(self, fresh.clone());
        let out = m.contract(rule, redex)?;
        let whole = ctx.plug(out, &mut m.fresh);
        *fresh = m.fresh;
        Ok(Some((rule, whole)))
    }
}

/// Runs `f` on a thread with a large stack (deep terms recurse deeply).
fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, f)
            .expect("spawning the reduction thread")
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

/// `rule` at the root of `redex` (premises are reduced inside), or `None` when that rule
/// does not apply there.
pub fn fire(rule: Rule, redex: &Term, fresh: &mut Fresh) -> Option<Term> {
    if root_rule(redex) != Some(rule) {
        return None;
    }
    let r = Reducer::new();
    let mut m = Machine::new(&r, fresh.clone());
    let out = m.contract(rule, redex.clone()).ok()?;
    *fresh = m.fresh;
    Some(out)
}

/// The state of one reduction: the fresh supply, the counters, the trace, the limit.
pub(crate) struct Machine<'a> {
    cfg: &'a Reducer,
    /// Fresh variables.
    pub fresh: Fresh,
    stats: Stats,
    trace: Vec<TraceStep>,
    /// The symbol of the last δ step (for the trace).
    pub(crate) last_symbol: Option<FnSym>,
    /// The premises reduced so far (`memo`).
    memo: memo::Memo,
}

impl<'a> Machine<'a> {
    fn new(cfg: &'a Reducer, fresh: Fresh) -> Machine<'a> {
        Machine {
            cfg,
            fresh,
            stats: Stats::default(),
            trace: Vec::new(),
            last_symbol: None,
            memo: memo::Memo::default(),
        }
    }

    /// Counts one step; `whole` builds the term after it for the trace.
    fn record(
        &mut self,
        rule: Rule,
        symbol: Option<FnSym>,
        whole: impl FnOnce(&mut Fresh) -> Term,
    ) -> Result<(), Diagnostic> {
        self.stats.steps += 1;
        if self.stats.steps > self.cfg.limit {
            return Err(Diagnostic::new(
                ErrorKind::Resource,
                Span::DUMMY,
                format!(
                    "the pullback reduction exceeded its step limit of {} steps",
                    self.cfg.limit
                ),
            ));
        }
        *self.stats.by_rule.entry(rule.name()).or_insert(0) += 1;
        if self.cfg.trace {
            let term = whole(&mut self.fresh);
            self.trace.push(TraceStep { rule, symbol, term });
        }
        Ok(())
    }

    /// Counts a δ step of `f` (`jac`: the Jacobian primitive).
    pub(crate) fn count_delta(&mut self, f: FnSym, jac: bool) {
        let map = if jac {
            &mut self.stats.delta_j
        } else {
            &mut self.stats.delta_f
        };
        *map.entry(f.name()).or_insert(0) += 1;
        self.last_symbol = Some(f);
    }

    /// Reduces `t` to a value by refocusing (the decomposition of Lemma 3.6 continued from
    /// the hole after each step). Let spines are substituted lazily: `let x = v in s`
    /// binds `x` in a pending substitution that is applied to each bound term as the
    /// spine is entered, so a chain of `n` lets costs `O(n)` substitution work.
    pub(crate) fn eval(&mut self, t: Term) -> Result<Term, Diagnostic> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut focus = t;
        // A node whose evaluated subterms are known to be values (after a resumed frame).
        let mut ready: Option<Term> = None;
        loop {
            let node = match ready.take() {
                Some(n) => n,
                None => match enter(focus) {
                    Ok((frame, child)) => {
                        stack.push(frame);
                        focus = child;
                        continue;
                    }
                    Err(node) => node,
                },
            };
            focus = Term::zero();
            if !stack.is_empty() && self.shares(&node) {
                // A Jacobian application under a binder is reduced as a shared premise
                // (`memo`): the same unfolded tangent map is met at every use.
                ready = Some(self.premise(node)?);
                continue;
            }
            match root_rule(&node) {
                Some(Rule::R1) if matches!(node.kind, TermKind::Let(..)) => {
                    let TermKind::Let(x, v, body) = node.kind else {
                        unreachable!("matched above")
                    };
                    let mut env = Env::default();
                    env.bind(x, *v);
                    focus = self.spine(*body, env, &mut stack)?;
                }
                Some(rule) => {
                    let out = self.contract(rule, node)?;
                    let sym = self.last_symbol.take();
                    self.record(rule, sym, |fr| plug_all(&stack, out.clone(), fr))?;
                    let span = out.span;
                    focus = match out.kind {
                        // P's right side `dual(\u. J, ω s)`: the Jacobian first, then `ω s`
                        // with `ω` known to be a value.
                        TermKind::Dual(jat, rest)
                            if rule == Rule::P
                                && matches!(jat.kind, TermKind::Lam(..))
                                && matches!(rest.kind, TermKind::App(..)) =>
                        {
                            let (TermKind::Lam(u, ty, body), TermKind::App(omega, s)) =
                                (jat.kind, rest.kind)
                            else {
                                unreachable!("matched above")
                            };
                            stack.push(Frame::DualLamP(u, ty, *omega, *s));
                            *body
                        }
                        kind => Term { kind, span },
                    };
                }
                None => match stack.pop() {
                    None => return Ok(node),
                    Some(Frame::LetB(x, body, mut env)) => {
                        env.bind(x, node);
                        focus = self.spine(body, env, &mut stack)?;
                    }
                    Some(Frame::DualLamP(u, ty, omega, s)) => {
                        stack.push(Frame::DualR(Term::new(TermKind::Lam(
                            u,
                            ty,
                            Box::new(node),
                        ))));
                        if is_value(&s) {
                            ready = Some(Term::app(omega, s));
                        } else {
                            stack.push(Frame::AppR(omega));
                            focus = s;
                        }
                    }
                    Some(frame) => match resume(frame, node, &mut self.fresh) {
                        Ok((f, child)) => {
                            stack.push(f);
                            focus = child;
                        }
                        Err(parent) => ready = Some(parent),
                    },
                },
            }
        }
    }

    /// Enters the let spine `body` under the pending substitution `env` after a rule-1 step
    /// bound its last variable; returns the next focus.
    fn spine(
        &mut self,
        mut body: Term,
        mut env: Env,
        stack: &mut Vec<Frame>,
    ) -> Result<Term, Diagnostic> {
        loop {
            let st: &[Frame] = stack;
            self.record(Rule::R1, None, |fr| {
                let mut e = env.clone();
                let b = e.apply(&body, fr);
                plug_all(st, b, fr)
            })?;
            match body.kind {
                TermKind::Let(y, s, rest) => {
                    let s2 = env.apply(&s, &mut self.fresh);
                    self.check_size(&s2, Rule::R1)?;
                    if is_value(&s2) {
                        env.bind(y, s2);
                        body = *rest;
                        continue;
                    }
                    stack.push(Frame::LetB(y, *rest, env));
                    return Ok(s2);
                }
                kind => {
                    let out = env.apply(&Term::new(kind), &mut self.fresh);
                    self.check_size(&out, Rule::R1)?;
                    return Ok(out);
                }
            }
        }
    }

    /// Whether the redex `t` is reduced as a shared premise: a Jacobian application
    /// `J(s, d) p` with free variables (met under a binder, where rule 17's unfolded tangent
    /// maps repeat; docs/engines/pullback-reduction.md, "Premises"), when no trace is kept
    /// (a trace shows every step in its whole term).
    fn shares(&self, t: &Term) -> bool {
        !self.cfg.trace
            && matches!(&t.kind, TermKind::App(j, _) if matches!(j.kind, TermKind::Jac(..)))
            && !matches!(root_rule(t), None | Some(Rule::R3 | Rule::R15))
            && !t.free_vars().is_empty()
    }

    /// Reduces a premise or a subterm under a binder to a value (same counters and limit).
    pub(crate) fn premise(&mut self, t: Term) -> Result<Term, Diagnostic> {
        if let Some(k) = self.memo.get(&t, &mut self.fresh) {
            return Ok(k);
        }
        let k = self.eval(t.clone())?;
        self.memo.put(&t, &k);
        Ok(k)
    }

    /// Contracts the redex `t` by `rule` (which [`root_rule`] chose).
    pub(crate) fn contract(&mut self, rule: Rule, t: Term) -> Result<Term, Diagnostic> {
        let out = match rule {
            Rule::R1 | Rule::R2 | Rule::R3 | Rule::R4 => cbv::contract(self, rule, t)?,
            Rule::R5 | Rule::R6 | Rule::R9p | Rule::Covec => dual::contract(self, rule, t)?,
            Rule::R7 | Rule::R8 | Rule::P | Rule::A3 => series::contract(self, rule, t)?,
            Rule::R16a
            | Rule::R16b
            | Rule::R16c
            | Rule::R17
            | Rule::R18
            | Rule::R19a
            | Rule::R19b
            | Rule::R19c => premise::contract(self, rule, t)?,
            _ => jacobian::contract(self, rule, t)?,
        };
        let out = out.ok_or_else(|| {
            Diagnostic::new(
                ErrorKind::Internal,
                Span::DUMMY,
                format!(
                    "pullback reduction: rule {} did not apply to its redex",
                    rule.name()
                ),
            )
        })?;
        // P moves the pending chain of pullbacks into its contractum without copying it;
        // every other contractum was built (substituted, copied) by the step, so measuring
        // it costs no more than the step did.
        if rule != Rule::P {
            self.check_size(&out, rule)?;
        }
        Ok(out)
    }

    /// The term-size limit ([`Reducer::size_limit`]) on a term built by a step of `rule`.
    fn check_size(&self, t: &Term, rule: Rule) -> Result<(), Diagnostic> {
        if size_exceeds(t, self.cfg.size_limit) {
            return Err(Diagnostic::new(
                ErrorKind::Resource,
                Span::DUMMY,
                format!(
                    "the pullback reduction exceeded its term-size limit of {} nodes (a step by rule {} built a larger term)",
                    self.cfg.size_limit,
                    rule.name()
                ),
            ));
        }
        Ok(())
    }
}

/// Whether `t` has more than `limit` nodes (stops counting past the limit).
fn size_exceeds(t: &Term, limit: usize) -> bool {
    fn go(t: &Term, left: &mut usize) -> bool {
        if *left == 0 {
            return true;
        }
        *left -= 1;
        match &t.kind {
            TermKind::Var(_) | TermKind::Num(_) | TermKind::Fn(_) | TermKind::Zero => false,
            TermKind::Lam(_, _, b) | TermKind::Proj(b, _) => go(b, left),
            TermKind::Let(_, a, b)
            | TermKind::App(a, b)
            | TermKind::Pair(a, b)
            | TermKind::Jac(a, b)
            | TermKind::Dual(a, b)
            | TermKind::Pb(a, b) => go(a, left) || go(b, left),
            TermKind::Sum(ts) => ts.iter().any(|s| go(s, left)),
        }
    }
    let mut left = limit;
    go(t, &mut left)
}

fn plug_all(stack: &[Frame], t: Term, fresh: &mut Fresh) -> Term {
    stack
        .iter()
        .rev()
        .fold(t, |acc, f| f.clone().plug(acc, fresh))
}
