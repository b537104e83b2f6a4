//! Let-lifting (seed 001, *Differentiating a Tensor Language* §5.1, Fig. 7, rules
//! 5.1–5.10) as a direct, terminating term-rewriting strategy: no e-graph. The rules are
//! exactly those of the table in [`super::letlift`] (the same names; 5.9 copies the
//! predicate unless [`super::letlift::LetLiftOptions::copy_predicate`] is `false`); only
//! the order in which they fire is fixed (docs/engines/tssa-passes.md, "Let-lifting").
//!
//! | node | its children's lets float out by | the lifted binding |
//! |---|---|---|
//! | `e + e'`, `e * e'`, `(e, e')` | `tl/5.1`, `tl/5.2`, `tl/5.4` (left operand), then the `-mirror` variant (right operand) | unchanged |
//! | `f(e)`, `e.k`, `e[a]` | `tl/5.3`, `tl/5.5-k`, `tl/5.8` | unchanged |
//! | `[p] e` | `tl/5.9` (`tl/5.9-no-copy`) | `[p] r` (`r`) |
//! | `gen i:n. e`, `sum i:n. e` | `tl/5.6`, `tl/5.7`, outermost binding first; the body and the later bindings get `x := x'[i]` | `x' = gen i:n. r` |
//! | `let y = e in e'` | `tl/5.10` (the lets of `e`); the lets of `e'` are already in place | unchanged |
//!
//! The strategy is bottom-up: a node's children are brought to a *spine* (`let x1 = r1 in
//! … let xk = rk in b`, every `rj` and `b` let-free) first, then the node's rule fires once
//! per binding of each child, outermost binding first, which leaves the node's own
//! spine. Each step is one application of a rule of the table to the current term at the
//! node, so the result is what the rule system rewrites the term to; it is reached in one
//! traversal (plus the substitutions of 5.6/5.7), so its cost is linear in the term's
//! size times the number of lets lifted through a `gen` or `sum`.
//!
//! Side conditions (`x ∉ fv(e3)` of 5.1, 5.2, 5.4, 5.8, 5.9, 5.10): the term is first
//! renamed canonically ([`super::names::canonical`]), so every binder is unique and no
//! binder is free in a sibling; the fresh names of 5.6/5.7 (`x_i`, as the egg applier
//! [`super::appliers::LiftLet`] names them, primed if taken) keep that so. The result is
//! renamed canonically again and checked for LL-NF ([`super::nf::check_ll_nf`]).
//!
//! The [`PassReport`] counts rule applications by name; `iterations` is 1 (one
//! traversal), `nodes` the result's size in term nodes and `classes` 0 (there is no
//! e-graph).

use super::names::canonical;
use super::nf::check_ll_nf;
use super::run::PassReport;
use super::vars::{fresh_like, subst_var, Free, VarRepl};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::tl::{Term, Ty, Var};
use std::collections::{BTreeMap, BTreeSet};

/// A term in LL-NF, kept apart: the bindings in order and the let-free body.
type Spine = (Vec<(Var, Term)>, Term);

/// The state of one run: the option, the names in use and the rule counts.
struct Lifter {
    copy_predicate: bool,
    used: BTreeSet<Var>,
    applied: BTreeMap<String, usize>,
}

fn internal(msg: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Internal,
        Span::DUMMY,
        format!("tssa let-lifting: {msg}"),
    )
}

/// Every value-variable name of `t`, free or bound.
fn names(t: &Term, out: &mut BTreeSet<Var>) {
    match t {
        Term::Var(x) => {
            out.insert(x.clone());
        }
        Term::Const(_) | Term::IndexConst(_) => {}
        Term::Add(a, b) | Term::Mul(a, b) | Term::Pair(a, b) => {
            names(a, out);
            names(b, out);
        }
        Term::Call(_, e)
        | Term::Proj(_, e)
        | Term::Gen(_, _, e)
        | Term::Sum(_, _, e)
        | Term::Access(e, _)
        | Term::Bracket(_, e) => names(e, out),
        Term::Let(x, a, b) => {
            out.insert(x.clone());
            names(a, out);
            names(b, out);
        }
    }
}

/// `let x1 = r1 in … b` from a spine.
fn rebuild((binds, body): Spine) -> Term {
    binds
        .into_iter()
        .rev()
        .fold(body, |acc, (x, r)| Term::Let(x, Box::new(r), Box::new(acc)))
}

fn bx(t: Term) -> Box<Term> {
    Box::new(t)
}

impl Lifter {
    fn count(&mut self, rule: &str, n: usize) {
        if n > 0 {
            *self.applied.entry(rule.to_string()).or_insert(0) += n;
        }
    }

    /// A binary node: the left operand's lets by `left`, the right's by `right`.
    fn binary(
        &mut self,
        a: &Term,
        b: &Term,
        rules: (&str, &str),
        node: fn(Box<Term>, Box<Term>) -> Term,
    ) -> Result<Spine> {
        let (mut binds, a) = self.spine(a)?;
        let (bb, b) = self.spine(b)?;
        self.count(rules.0, binds.len());
        self.count(rules.1, bb.len());
        binds.extend(bb);
        Ok((binds, node(bx(a), bx(b))))
    }

    /// A unary node whose rule leaves the bindings unchanged.
    fn unary(
        &mut self,
        e: &Term,
        rule: &str,
        node: impl FnOnce(Box<Term>) -> Term,
    ) -> Result<Spine> {
        let (binds, e) = self.spine(e)?;
        self.count(rule, binds.len());
        Ok((binds, node(bx(e))))
    }

    /// Rules 5.6 (`sum = false`) and 5.7: `gen|sum i:n. (let x = r in e) ⟶ let x' = gen
    /// i:n. r in gen|sum i:n. e{x := x'[i]}`, once per binding, outermost first.
    fn lift_binder(&mut self, i: &str, n: u64, e: &Term, sum: bool) -> Result<Spine> {
        let (binds, body) = self.spine(e)?;
        self.count(if sum { "tl/5.7" } else { "tl/5.6" }, binds.len());
        let mut subs: Vec<(Var, Var)> = Vec::new();
        let apply = |t: Term, subs: &[(Var, Var)]| -> Result<Term> {
            subs.iter().try_fold(t, |t, (x, x2)| {
                subst_var(&t, x, &VarRepl::Access(x2.clone(), i.to_string()))
                    .ok_or_else(|| internal(format!("the substitution {x} := {x2}[{i}] failed")))
            })
        };
        let mut out = Vec::with_capacity(binds.len());
        for (x, r) in binds {
            let r = apply(r, &subs)?;
            let base = format!("{x}_{i}");
            let x2 = if self.used.contains(&base) {
                fresh_like(&base, &self.used)
            } else {
                base
            };
            self.used.insert(x2.clone());
            out.push((x2.clone(), Term::Gen(i.to_string(), n, bx(r))));
            subs.push((x, x2));
        }
        let body = apply(body, &subs)?;
        let body = if sum {
            Term::Sum(i.to_string(), n, bx(body))
        } else {
            Term::Gen(i.to_string(), n, bx(body))
        };
        Ok((out, body))
    }

    /// `t` brought to a spine by the rules of the table.
    fn spine(&mut self, t: &Term) -> Result<Spine> {
        match t {
            Term::Var(_) | Term::Const(_) | Term::IndexConst(_) => Ok((Vec::new(), t.clone())),
            Term::Add(a, b) => self.binary(a, b, ("tl/5.1", "tl/5.1-mirror"), Term::Add),
            Term::Mul(a, b) => self.binary(a, b, ("tl/5.2", "tl/5.2-mirror"), Term::Mul),
            Term::Pair(a, b) => self.binary(a, b, ("tl/5.4", "tl/5.4-mirror"), Term::Pair),
            Term::Call(f, e) => self.unary(e, "tl/5.3", |e| Term::Call(*f, e)),
            Term::Proj(k, e) => {
                let rule = if *k == 0 { "tl/5.5-0" } else { "tl/5.5-1" };
                self.unary(e, rule, |e| Term::Proj(*k, e))
            }
            Term::Access(e, a) => self.unary(e, "tl/5.8", |e| Term::Access(e, a.clone())),
            Term::Bracket(p, e) => {
                let (binds, e) = self.spine(e)?;
                let binds = if self.copy_predicate {
                    self.count("tl/5.9", binds.len());
                    binds
                        .into_iter()
                        .map(|(x, r)| (x, Term::Bracket(p.clone(), bx(r))))
                        .collect()
                } else {
                    self.count("tl/5.9-no-copy", binds.len());
                    binds
                };
                Ok((binds, Term::Bracket(p.clone(), bx(e))))
            }
            Term::Gen(i, n, e) => self.lift_binder(i, *n, e, false),
            Term::Sum(i, n, e) => self.lift_binder(i, *n, e, true),
            Term::Let(x, e1, e2) => {
                let (mut binds, r) = self.spine(e1)?;
                self.count("tl/5.10", binds.len());
                binds.push((x.clone(), r));
                let (b2, body) = self.spine(e2)?;
                binds.extend(b2);
                Ok((binds, body))
            }
        }
    }
}

/// Let-lifting by the direct strategy: `t` in LL-NF (canonical names), with the run's
/// report. `inputs` are the free variables' types (only their names matter here: the
/// canonical names avoid them); `copy_predicate` chooses rule 5.9's variant.
pub fn letlift_direct(
    t: &Term,
    inputs: &[(Var, Ty)],
    copy_predicate: bool,
) -> Result<(Term, PassReport)> {
    let input_names: Vec<Var> = inputs.iter().map(|(x, _)| x.clone()).collect();
    let free = Free::of_term(t);
    if let Some(i) = free.ivars.iter().next() {
        return Err(internal(format!("free index variable {i}")));
    }
    let t = canonical(t, &input_names);
    let mut used = BTreeSet::new();
    names(&t, &mut used);
    used.extend(input_names.iter().cloned());
    let mut l = Lifter {
        copy_predicate,
        used,
        applied: BTreeMap::new(),
    };
    let out = rebuild(l.spine(&t)?);
    if Free::of_term(&out).vars != free.vars {
        return Err(internal(
            "the free variables changed (a side condition failed)",
        ));
    }
    let out = canonical(&out, &input_names);
    check_ll_nf(&out).map_err(|m| internal(format!("result not in normal form: {m}")))?;
    let nodes = out.size();
    Ok((
        out,
        PassReport {
            pass: "let-lifting".to_string(),
            iterations: 1,
            nodes,
            classes: 0,
            applied: l.applied,
        },
    ))
}
