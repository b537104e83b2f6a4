//! Linearity repair: makes the substructural discipline of Fig. 4 hold by inserting the
//! explicit `dup`s and `drop`s (seed 002 §5.1.2, rule JLet and the "variants that add the
//! necessary calls" of JRet, JApp, JTup, JPrimMul).
//!
//! For every variable, at its binding (a parameter, a `let` binder, an unpacked
//! component):
//!
//! * used 0 times → `let () = drop(x) in` right after the binding (linear or not);
//! * linear and used `k >= 2` times → a chain of `k - 1` `dup`s right after the binding,
//!   `let (; x_1, r_1) = dup(x) in let (; x_2, r_2) = dup(r_1) in ...`, and the `k` uses
//!   renamed to the `k` copies.
//!
//! Transformations (ANF conversion, JVP, unzipping) emit code that reads tangent and
//! primal variables freely; this pass makes the result well typed. It needs unique binder
//! names in the def (every producer here guarantees it).

use super::util::{assemble, split_chain, Names, Stmt};
use adora_core::ast::Name;
use adora_core::diag::Result;
use adora_core::linear::visit::direct_uses;
use adora_core::linear::{Atom, Binders, LExpr, LKind, LinearDef, LinearProgram};
use std::collections::{HashMap, HashSet};

/// Repairs one def (see the module documentation). `p` supplies nothing today; it is
/// the program the def belongs to (for names to avoid).
pub fn repair_def(d: &LinearDef, p: &LinearProgram) -> Result<LinearDef> {
    let mut names = Names::for_program(p);
    names.avoid_def(d);
    let mut counts: HashMap<Name, usize> = HashMap::new();
    let mut stack = vec![&d.body];
    while let Some(e) = stack.pop() {
        for v in direct_uses(e) {
            *counts.entry(v).or_default() += 1;
        }
        match &e.kind {
            LKind::Let(_, a, b) => {
                stack.push(a);
                stack.push(b);
            }
            LKind::Unpack(_, _, b) => stack.push(b),
            _ => {}
        }
    }
    let mut r = Repair {
        names,
        counts,
        copies: HashMap::new(),
        lin: HashSet::new(),
    };
    let mut pre = Vec::new();
    for p in &d.params {
        r.after_binding(&p.name, false, &mut pre);
    }
    for p in &d.lparams {
        r.after_binding(&p.name, true, &mut pre);
    }
    let body = adora_core::with_stack(|| r.expr(&d.body));
    let (stmts, tail) = split_chain(&body);
    pre.extend(stmts);
    Ok(LinearDef {
        body: assemble(pre, tail),
        ..d.clone()
    })
}

/// Repairs every def of a program.
pub fn repair_program(p: &LinearProgram) -> Result<LinearProgram> {
    let mut out = LinearProgram::default();
    for d in &p.defs {
        let fixed = repair_def(d, p)?;
        out.defs.push(fixed);
    }
    Ok(out)
}

struct Repair {
    names: Names,
    counts: HashMap<Name, usize>,
    /// Linear variable → its remaining copies.
    copies: HashMap<Name, Vec<Name>>,
    /// The linear variables bound so far.
    lin: HashSet<Name>,
}

impl Repair {
    fn after_binding(&mut self, x: &str, linear: bool, out: &mut Vec<Stmt>) {
        if linear {
            self.lin.insert(x.to_string());
        }
        let k = self.counts.get(x).copied().unwrap_or(0);
        if k == 0 {
            out.push(Stmt::Let(
                Binders::none(),
                LExpr::synth(LKind::Drop(x.to_string())),
            ));
            return;
        }
        if !linear || k == 1 {
            return;
        }
        let mut copies = Vec::with_capacity(k);
        let mut rest = x.to_string();
        for i in 0..k - 1 {
            let c = self.names.fresh(x);
            let r = if i + 2 == k {
                self.names.fresh(x)
            } else {
                self.names.fresh(&format!("{x}_r"))
            };
            out.push(Stmt::Let(
                Binders {
                    nl: Vec::new(),
                    lin: vec![c.clone(), r.clone()],
                },
                LExpr::synth(LKind::Dup(rest)),
            ));
            copies.push(c);
            rest = r;
        }
        copies.push(rest);
        copies.reverse();
        self.copies.insert(x.to_string(), copies);
    }

    /// The renaming of the uses in one node: each use of a variable with copies takes the
    /// next copy.
    fn rename_uses(&mut self, e: &LExpr) -> LExpr {
        let take = |v: &Name, copies: &mut HashMap<Name, Vec<Name>>| -> Name {
            copies
                .get_mut(v)
                .and_then(Vec::pop)
                .unwrap_or_else(|| v.clone())
        };
        let kind = match &e.kind {
            LKind::Ret(a, l) => LKind::Ret(
                a.clone(),
                l.iter().map(|v| take(v, &mut self.copies)).collect(),
            ),
            LKind::Call(f, a, l) => LKind::Call(
                f.clone(),
                a.clone(),
                l.iter().map(|v| take(v, &mut self.copies)).collect(),
            ),
            LKind::Op { op, args, linear } => {
                let args = args
                    .iter()
                    .map(|a| match a {
                        Atom::Var(v) if self.copies.contains_key(v) => {
                            Atom::Var(take(v, &mut self.copies))
                        }
                        _ => a.clone(),
                    })
                    .collect();
                LKind::Op {
                    op: op.clone(),
                    args,
                    linear: *linear,
                }
            }
            LKind::Dup(x) => LKind::Dup(take(x, &mut self.copies)),
            LKind::Drop(x) => LKind::Drop(take(x, &mut self.copies)),
            _ => return e.clone(),
        };
        LExpr::new(kind, e.span)
    }

    fn expr(&mut self, e: &LExpr) -> LExpr {
        let (stmts, tail) = split_chain(e);
        let mut out = Vec::new();
        for s in stmts {
            match s {
                Stmt::Let(b, bound) => {
                    let bound = self.expr(&bound);
                    out.push(Stmt::Let(b.clone(), bound));
                    for n in &b.nl {
                        self.after_binding(n, false, &mut out);
                    }
                    for n in &b.lin {
                        self.after_binding(n, true, &mut out);
                    }
                }
                Stmt::Unpack(ns, t) => {
                    let linear = self.lin.contains(&t);
                    let t2 = self
                        .copies
                        .get_mut(&t)
                        .and_then(Vec::pop)
                        .unwrap_or_else(|| t.clone());
                    out.push(Stmt::Unpack(ns.clone(), t2));
                    for n in &ns {
                        self.after_binding(n, linear, &mut out);
                    }
                }
            }
        }
        let tail = self.rename_uses(&tail);
        assemble(out, tail)
    }
}
