//! Unzipping `U` (seed 002 §6): a Linear A def into Linear B — a non-linear def that
//! computes the primal results and a *tape* of non-linear intermediates, and a linear
//! def that reads the tape and computes the linear results.
//!
//! For `def f(x ; dx) -> (y ; dy)`, flattened to a chain of statements:
//!
//! | statement | goes to | rule |
//! |---|---|---|
//! | non-linear `let v = op(..)`, non-linear `drop`, non-linear unpack | `f_primal` (and also to `f_lin` when a linear statement needs `v` and the policy recomputes it) | `unzip/nonlinear` (ULet) |
//! | linear `let dv = op(..)`, `dup`, linear `drop`, linear unpack | `f_lin` | `unzip/linear` (ULet) |
//! | `let (v ; dv) = g(a ; da)` | `let (v, t.. ;) = g_primal(a)` in `f_primal`, `let (; dv) = g_lin(t.. ; da)` in `f_lin` | `unzip/call` (UApp) |
//! | `(y ; dy)` | `(y, tape ;)` in `f_primal`, `(; dy)` in `f_lin` | `unzip/ret` (URet) |
//!
//! `f_primal(x) -> (y, tape)`, `f_lin(tape ; dx) -> (; dy)`. The tape holds the non-linear
//! variables the linear statements read, except those the [`Checkpoint`] policy
//! recomputes: a recomputed variable's defining statement is copied into `f_lin`
//! (recursively, its own inputs are again stored or recomputed). Parameters and the
//! results of calls are always stored. Statements of `f_primal` that only fed recomputed
//! values are removed (dead code), and [`super::repair`] restores the `drop`s.

use super::repair::repair_def;
use super::util::{assemble, flatten, internal, unsupported, Names, Stmt};
use adora_core::ast::{Name, Param};
use adora_core::diag::{Result, Span};
use adora_core::linear::check::{DefTypes, ProgramTypes};
use adora_core::linear::visit::direct_uses;
use adora_core::linear::{check_program, Atom, Binders, LExpr, LKind, LinearDef, LinearProgram};
use std::collections::{BTreeSet, HashMap, HashSet};

/// The checkpointing knob of §6 and §11: which non-linear intermediates the linear part
/// recomputes instead of reading them from the tape.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Checkpoint {
    /// Store every intermediate the linear part needs (least work).
    #[default]
    StoreAll,
    /// Recompute every intermediate from the parameters (smallest tape).
    RecomputeAll,
    /// Recompute exactly the named intermediates, store the others.
    Recompute(BTreeSet<Name>),
}

impl Checkpoint {
    fn recompute(&self, v: &str) -> bool {
        match self {
            Checkpoint::StoreAll => false,
            Checkpoint::RecomputeAll => true,
            Checkpoint::Recompute(s) => s.contains(v),
        }
    }
}

/// The name of the primal half of `f`.
pub fn primal_name(f: &str) -> String {
    format!("{f}_primal")
}

/// The name of the linear half of `f`.
pub fn lin_name(f: &str) -> String {
    format!("{f}_lin")
}

/// Unzips every def of a Linear A program: the result has `f_primal` and `f_lin` for each
/// def `f` (in order) and satisfies Linear B.
pub fn unzip_program(p: &LinearProgram, policy: &Checkpoint) -> Result<LinearProgram> {
    let types = check_program(p)?;
    let mut names = Names::for_program(p);
    let mut out = LinearProgram::default();
    for d in &p.defs {
        names.avoid(&primal_name(&d.name));
        names.avoid(&lin_name(&d.name));
    }
    for d in &p.defs {
        let (prim, lin) =
            adora_core::with_stack(|| unzip_def(d, &types, &out, policy, &mut names))?;
        let prim = repair_def(&prim, &out)?;
        out.defs.push(prim);
        let lin = repair_def(&lin, &out)?;
        out.defs.push(lin);
    }
    Ok(out)
}

/// Where a statement goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Nl,
    Lin,
}

fn side(s: &Stmt, dt: &DefTypes) -> Side {
    match s {
        Stmt::Unpack(_, t) => {
            if dt.is_linear(t) {
                Side::Lin
            } else {
                Side::Nl
            }
        }
        Stmt::Let(_, e) => match &e.kind {
            LKind::Op { linear, .. } => {
                if *linear {
                    Side::Lin
                } else {
                    Side::Nl
                }
            }
            LKind::Dup(_) => Side::Lin,
            LKind::Drop(x) => {
                if dt.is_linear(x) {
                    Side::Lin
                } else {
                    Side::Nl
                }
            }
            _ => Side::Nl,
        },
    }
}

/// The variables a statement binds.
fn bound(s: &Stmt) -> Vec<Name> {
    match s {
        Stmt::Unpack(ns, _) => ns.clone(),
        Stmt::Let(b, _) => b.nl.iter().chain(&b.lin).cloned().collect(),
    }
}

/// The variables a statement reads.
fn reads(s: &Stmt) -> Vec<Name> {
    match s {
        Stmt::Unpack(_, t) => vec![t.clone()],
        Stmt::Let(_, e) => direct_uses(e),
    }
}

fn unzip_def(
    d: &LinearDef,
    types: &ProgramTypes,
    done: &LinearProgram,
    policy: &Checkpoint,
    names: &mut Names,
) -> Result<(LinearDef, LinearDef)> {
    let dt = types.def(&d.name);
    let (stmts, tail) = flatten(&d.body);
    let LKind::Ret(ys, dys) = &tail.kind else {
        return Err(internal("a flattened def must end in a return"));
    };
    // Split calls into their primal and linear halves; classify the rest.
    let mut prim: Vec<Stmt> = Vec::new();
    let mut lin: Vec<Stmt> = Vec::new();
    let mut stored_always: HashSet<Name> = d.params.iter().map(|p| p.name.clone()).collect();
    let mut def_of: HashMap<Name, usize> = HashMap::new();
    // Types of the tape variables bound by calls (fresh names the checker never saw).
    let mut call_tape: HashMap<Name, adora_core::types::Type> = HashMap::new();
    for s in stmts {
        if let Stmt::Let(b, e) = &s {
            if let LKind::Call(g, args, largs) = &e.kind {
                let gp = done
                    .def(&primal_name(g))
                    .ok_or_else(|| internal(format!("`{g}` is not unzipped yet")))?;
                let ntape = gp.ret.len().saturating_sub(b.nl.len());
                let tape: Vec<Name> = (0..ntape)
                    .map(|k| names.fresh(&format!("{g}_t{k}")))
                    .collect();
                for (v, ty) in tape.iter().zip(&gp.ret[b.nl.len().min(gp.ret.len())..]) {
                    call_tape.insert(v.clone(), ty.clone());
                }
                let mut nl = b.nl.clone();
                nl.extend(tape.iter().cloned());
                for v in &nl {
                    stored_always.insert(v.clone());
                }
                prim.push(Stmt::Let(
                    Binders {
                        nl,
                        lin: Vec::new(),
                    },
                    LExpr::new(
                        LKind::Call(primal_name(g), args.clone(), Vec::new()),
                        e.span,
                    ),
                ));
                let targs: Vec<Atom> = tape.iter().cloned().map(Atom::Var).collect();
                lin.push(Stmt::Let(
                    Binders {
                        nl: Vec::new(),
                        lin: b.lin.clone(),
                    },
                    LExpr::new(LKind::Call(lin_name(g), targs, largs.clone()), e.span),
                ));
                continue;
            }
        }
        match side(&s, &dt) {
            Side::Nl => {
                for v in bound(&s) {
                    def_of.insert(v, prim.len());
                }
                prim.push(s);
            }
            Side::Lin => lin.push(s),
        }
    }
    // The non-linear variables the linear statements read: stored or recomputed.
    let mut needed: Vec<Name> = Vec::new();
    for s in &lin {
        for v in reads(s) {
            if !dt.is_linear(&v) {
                needed.push(v);
            }
        }
    }
    let mut tape: BTreeSet<(usize, Name)> = BTreeSet::new();
    let mut recompute: BTreeSet<usize> = BTreeSet::new();
    let mut seen: HashSet<Name> = HashSet::new();
    let position = |v: &str| -> usize {
        d.params
            .iter()
            .position(|p| p.name == v)
            .unwrap_or_else(|| d.params.len() + def_of.get(v).copied().unwrap_or(usize::MAX / 2))
    };
    while let Some(v) = needed.pop() {
        if !seen.insert(v.clone()) {
            continue;
        }
        match def_of.get(&v) {
            Some(&k) if !stored_always.contains(&v) && policy.recompute(&v) => {
                recompute.insert(k);
                needed.extend(reads(&prim[k]).into_iter().filter(|x| !dt.is_linear(x)));
            }
            _ => {
                tape.insert((position(&v), v));
            }
        }
    }
    // A recomputed statement binds all its variables in the linear half (an unpacking
    // binds several): none of them may also come from the tape, or the linear half would
    // bind it twice.
    let tape: Vec<Name> = tape
        .into_iter()
        .map(|(_, v)| v)
        .filter(|v| !def_of.get(v).is_some_and(|k| recompute.contains(k)))
        .collect();
    let ty_of = |v: &str| call_tape.get(v).cloned().unwrap_or_else(|| dt.ty(v));
    // The linear def: recomputed statements and linear statements, in program order.
    // Recomputed statements depend only on the tape and on earlier recomputed
    // statements (never on linear values), so they can all go first, in program order.
    let mut lin_body: Vec<Stmt> = recompute.iter().map(|&k| prim[k].clone()).collect();
    lin_body.extend(lin.iter().cloned());
    let tape_params: Vec<Param> = tape
        .iter()
        .map(|v| Param {
            name: v.clone(),
            ty: ty_of(v),
            span: Span::DUMMY,
        })
        .collect();
    let lin_def = LinearDef {
        name: lin_name(&d.name),
        params: tape_params,
        lparams: d.lparams.clone(),
        ret: Vec::new(),
        lret: d.lret.clone(),
        body: assemble(lin_body, LExpr::synth(LKind::Ret(Vec::new(), dys.clone()))),
        span: d.span,
    };
    // The primal def: all non-linear statements, minus dead ones.
    let mut results: Vec<Atom> = ys.clone();
    results.extend(tape.iter().cloned().map(Atom::Var));
    let mut live: HashSet<Name> = results.iter().filter_map(Atom::var).cloned().collect();
    let mut kept: Vec<Stmt> = Vec::new();
    for s in prim.into_iter().rev() {
        let is_drop = matches!(&s, Stmt::Let(_, e) if matches!(e.kind, LKind::Drop(_)));
        let is_call = matches!(&s, Stmt::Let(_, e) if matches!(e.kind, LKind::Call(..)));
        if is_drop || is_call || bound(&s).iter().any(|v| live.contains(v)) {
            live.extend(reads(&s));
            kept.push(s);
        }
    }
    kept.reverse();
    let mut ret = d.ret.clone();
    ret.extend(tape.iter().map(|v| ty_of(v)));
    if ys.len() != d.ret.len() {
        return Err(unsupported(
            d.span,
            "a def's return does not match its signature",
        ));
    }
    let prim_def = LinearDef {
        name: primal_name(&d.name),
        params: d.params.clone(),
        lparams: Vec::new(),
        ret,
        lret: Vec::new(),
        body: assemble(kept, LExpr::synth(LKind::Ret(results, Vec::new()))),
        span: d.span,
    };
    Ok((prim_def, lin_def))
}
