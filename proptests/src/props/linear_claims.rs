//! Seed 002's remaining claims about engine `linear` (specs/theorems.md, rows S002-X1b,
//! X4.2, X4.3, X7.1.4 and X10): the cheap gradient in the `lin` model, the typing
//! invariant of every program the engine emits, the `lin` cost table, where the
//! transpose adds, and the user-facing transposition of a user-written linear function.
//! The unzipping claims are in [`super::linear_unzip`], the claim over rings in
//! [`super::linear_rings`]; the pipeline's stages come from [`super::linear`].
//!
//! The checks here restate the paper's rules independently of the engine's own checker
//! and cost model (an independent recount of uses, an independent accounting of work),
//! so that a lax checker or a wrong model fails them. All comparisons are exact.

use super::linear::{
    any, dot_all, random_largs, run, show, shows, stage, stages, static_work, Stages,
};
use super::util::{aux_rng, fail, opts, random_tangents};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::Case;
use crate::values::{literal, Rat};
use adora_core::ast::{BinOp, Name, Prim};
use adora_core::diag::ErrorKind;
use adora_core::linear::check::op_type;
use adora_core::linear::visit::{direct_uses, op_vars};
use adora_core::linear::{
    check_program, parse_program, print, Atom, Binders, LExpr, LKind, LinearDef, LinearProgram, Op,
    ProgramTypes,
};
use adora_core::types::Type;
use adora_costmodel::lin;
use adora_rewrites::linear::tangent::tangent_type;
use adora_rewrites::linear::values::tangent_part;
use adora_rewrites::linear::{transpose_source, unzip, Checkpoint};
use adora_semantics::reference;
use adora_semantics::value::Value;
use std::collections::{HashMap, HashSet};

/// S002-X1b: the constants of the cheap-gradient bound in the `lin` model,
/// `lin(grad) <= K lin(P) + C (#x + #y)`. `K` is Theorem 5.1's JVP constant (unzipping and
/// transposition preserve work exactly, so they add nothing), `C = 1` pays for the
/// `#y` the amortised equality of Theorem 7.1 adds.
pub const GRAD_K: u64 = super::linear::JVP_WORK;
/// See [`GRAD_K`].
pub const GRAD_C: u64 = 1;

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

fn fig(label: &'static str, agg: Agg) -> Option<Figure> {
    Some(Figure { label, agg })
}

/// The properties of this file.
pub fn properties() -> Vec<Property> {
    vec![
        prop!("linear/cheap-gradient-lin", "seed 002 §1 (contributions, footnote 2), §7",
            "the reverse mode is cheap in the lin model: lin(primal half) + lin(transposed linear half) <= 7 lin(P) + 1 (#x + #y) for the non-linear Linear A program P, with the steps exact: lin(primal) + lin(linear half) = lin(J) and lin(T) + |linear in| = lin(linear half) + |linear out| (the figure: the worst lin(grad) / (lin(P) + #x + #y))",
            fig("lin(grad) / (lin(P) + io)", Agg::Max), cheap_gradient),
        prop!("linear/linearity-typecheck", "seed 002 §4.2 (Fig. 4)",
            "every program the engine emits (J, both unzippings, the transpose, the transpose transposed) passes the Linear A checker and an independent recount: each linear variable used exactly once, each non-linear one at least once, linear + on two linear variables, linear * with a non-linear left and a linear right argument, no linear variable in a non-linear position",
            None, linearity_typecheck),
        prop!("cost/lin-model", "seed 002 §4.3",
            "the lin model equals an independent accounting of its table on J, both halves and the transpose (non-linear arithmetic and linear + and * 1 per result scalar, drop 1 per real scalar, dup, let, tuples, variables and returns 0, data movement by docs/engines/linear.md §3), the interpreter counts the same on J, and a def that only calls J costs J's body (the figure: the fraction of cases whose J has a dup)",
            fig("J with dup (fraction)", Agg::Mean), lin_model),
        prop!("linear/transpose-adds-only-at-dup", "seed 002 §7.1.4",
            "the transpose of the linear half has exactly one linear + per dup of the linear half (TDup) and one zero per linear drop (TDrop), and nothing else adds or makes zeros: no zero cotangents for absent variables, no merging additions (the figure: the fraction of cases with a dup)",
            fig("linear half with dup (fraction)", Agg::Mean), adds_only_at_dup),
        prop!("linear/linear-transpose-api-adjoint", "seed 002 §1, §10 (extensibility: user-written linear functions)",
            "a user-written linear def (printed Linear A text: a def calling the JVP and dropping its non-linear results) given to the user-facing transposition (`adora transpose`, `transpose_source`) yields a def whose composition with the primal half is the reverse derivative: <ct, f(x ; dx)> = <f_t(x ; ct), dx> exactly, and f(x ; dx) equals the reference JVP",
            fig("non-zero <ct, f dx> (fraction)", Agg::Mean), transpose_api),
    ]
}

fn work(p: &LinearProgram, f: &str) -> Result<u64, String> {
    static_work(p, f)
}

fn cheap_gradient(case: &Case) -> Outcome {
    let s = or_vacuous!(stages(case));
    let wp = work(&s.p, &s.p.defs[0].name)?;
    let wj = work(&s.j, &s.jname)?;
    let (wprim, wlin) = (work(&s.u, &s.prim)?, work(&s.u, &s.lin)?);
    let wt = work(&s.t, &s.lin_t)?;
    let (li, lo) = lin::linear_io(s.lin_def()?);
    if wprim + wlin != wj || wt + li != wlin + lo {
        return fail(format!(
            "lin(primal) + lin(linear half) = {wprim} + {wlin}, lin(J) = {wj}; lin(T) + |in| = {wt} + {li}, lin(linear half) + |out| = {wlin} + {lo}\n{}",
            show(&s.t)
        ));
    }
    let io: u64 =
        s.f.params
            .iter()
            .map(|p| lin::real_scalars(&p.ty))
            .sum::<u64>()
            + lin::real_scalars(&s.f.ret);
    let grad = wprim + wt;
    if grad > GRAD_K * wp + GRAD_C * io {
        return fail(format!(
            "lin(grad) = {wprim} + {wt} > {GRAD_K} * {wp} + {GRAD_C} * {io}\n{}",
            show(&s.t)
        ));
    }
    Pass::figure(grad as f64 / (wp + io).max(1) as f64)
}

/// The independent recount of Fig. 4's substructural rules on one def.
fn linearity(d: &LinearDef) -> Result<(), String> {
    let mut c = Uses::default();
    for p in &d.params {
        c.nl.push(p.name.clone());
    }
    for p in &d.lparams {
        c.lin.insert(p.name.clone());
        c.order.push(p.name.clone());
    }
    c.walk(&d.body)?;
    for v in &c.order {
        let n = c.uses.get(v).copied().unwrap_or(0);
        if n != 1 {
            return Err(format!("linear `{v}` is used {n} times in `{}`", d.name));
        }
    }
    for v in &c.nl {
        if c.uses.get(v).copied().unwrap_or(0) == 0 {
            return Err(format!("non-linear `{v}` is never used in `{}`", d.name));
        }
    }
    Ok(())
}

#[derive(Default)]
struct Uses {
    lin: HashSet<Name>,
    order: Vec<Name>,
    nl: Vec<Name>,
    uses: HashMap<Name, usize>,
}

impl Uses {
    fn is_lin(&self, a: &Atom) -> bool {
        a.var().is_some_and(|v| self.lin.contains(v))
    }

    fn bind(&mut self, b: &Binders) {
        self.nl.extend(b.nl.iter().cloned());
        for v in &b.lin {
            self.lin.insert(v.clone());
            self.order.push(v.clone());
        }
    }

    fn walk(&mut self, e: &LExpr) -> Result<(), String> {
        for v in direct_uses(e) {
            *self.uses.entry(v).or_default() += 1;
        }
        match &e.kind {
            LKind::Let(b, a, body) => {
                self.walk(a)?;
                self.bind(b);
                self.walk(body)
            }
            LKind::Unpack(ns, t, body) => {
                let b = if self.lin.contains(t) {
                    Binders {
                        nl: Vec::new(),
                        lin: ns.clone(),
                    }
                } else {
                    Binders {
                        nl: ns.clone(),
                        lin: Vec::new(),
                    }
                };
                self.bind(&b);
                self.walk(body)
            }
            LKind::Ret(a, l) | LKind::Call(_, a, l) => {
                if a.iter().any(|x| self.is_lin(x)) || l.iter().any(|x| !self.lin.contains(x)) {
                    return Err("a linear variable in a non-linear position of a return or call (or the converse)".into());
                }
                Ok(())
            }
            LKind::Dup(x) if !self.lin.contains(x) => Err(format!("dup of non-linear `{x}`")),
            LKind::Dup(_) | LKind::Drop(_) => Ok(()),
            LKind::Op { op, args, linear } => self.op(op, args, *linear),
        }
    }

    fn op(&self, op: &Op, args: &[Atom], linear: bool) -> Result<(), String> {
        let bad = |m: &str| Err(format!("{m} in {} {:?}", op.name(), args));
        if !linear {
            if op_vars(op, args).iter().any(|v| self.lin.contains(v)) {
                return bad("a linear variable read by a non-linear operation");
            }
            return Ok(());
        }
        let want: Vec<bool> = match op {
            Op::Binary(BinOp::Add) => vec![true, true],
            Op::Binary(BinOp::Mul) => vec![false, true],
            _ => match op.linear_args(args.len()) {
                Some(w) => w,
                None => return bad("a linear form of an operation without one"),
            },
        };
        if want.len() != args.len() {
            return bad("a linear operation with the wrong arguments");
        }
        for (a, w) in args.iter().zip(want) {
            // A masked select's constant branch is a literal in a linear position.
            if w && !self.is_lin(a) && a.var().is_some() {
                return bad("a non-linear variable in a linear position");
            }
            if !w && self.is_lin(a) {
                return bad("a linear variable in a non-linear position");
            }
        }
        if let Op::Binary(_) = op {
            if !self.is_lin(&args[1])
                || (matches!(op, Op::Binary(BinOp::Add)) && !self.is_lin(&args[0]))
            {
                return bad("linear + or * without its linear arguments");
            }
        }
        if let Op::Gather(..) | Op::Scatter(..) = op {
            if op_vars(op, args)
                .iter()
                .skip(1)
                .any(|v| self.lin.contains(v))
            {
                return bad("a linear variable in an index map");
            }
        }
        Ok(())
    }
}

fn check_all(p: &LinearProgram, what: &str) -> Result<(), String> {
    check_program(p).map_err(|d| format!("{what} fails the checker: {d}\n{}", show(p)))?;
    for d in &p.defs {
        linearity(d).map_err(|m| format!("{what}: {m}\n{}", show(p)))?;
    }
    Ok(())
}

fn linearity_typecheck(case: &Case) -> Outcome {
    let s = or_vacuous!(stages(case));
    check_all(&s.j, "J")?;
    check_all(&s.u, "U (tape stored)")?;
    check_all(&s.t, "T")?;
    let r = or_vacuous!(stage(
        unzip::unzip_program(&s.j, &Checkpoint::RecomputeAll),
        "unzipping"
    ));
    check_all(&r, "U (recomputing)")?;
    let tt = or_vacuous!(stage(
        adora_rewrites::linear::transpose::transpose_program(&s.t, &s.lin_t),
        "transposing twice"
    ));
    check_all(&tt, "T(T)")?;
    Pass::ok()
}

/// Non-linear arithmetic of the table: 1 per result scalar.
fn arithmetic(op: &Op) -> bool {
    match op {
        Op::Unary(_) | Op::Binary(_) => true,
        Op::Prim(p) => matches!(
            p,
            Prim::Exp
                | Prim::Log
                | Prim::Sin
                | Prim::Cos
                | Prim::Tanh
                | Prim::Sqrt
                | Prim::Abs
                | Prim::Floor
                | Prim::Real
                | Prim::Min
                | Prim::Max
                | Prim::Pow(_)
        ),
        _ => false,
    }
}

/// The work of def `f` by the table of §4.3, statement by statement.
fn account(p: &LinearProgram, types: &ProgramTypes, f: &str) -> Result<u64, String> {
    let d = p.def(f).ok_or_else(|| format!("no def `{f}`"))?;
    let dt = types.def(f);
    let mut total = 0;
    let mut stack = vec![&d.body];
    while let Some(e) = stack.pop() {
        total += match &e.kind {
            LKind::Let(_, a, b) => {
                stack.push(a);
                stack.push(b);
                0
            }
            LKind::Unpack(_, _, b) => {
                stack.push(b);
                0
            }
            LKind::Ret(..) | LKind::Dup(_) => 0,
            LKind::Drop(x) => lin::real_scalars(&dt.ty(x)),
            LKind::Call(g, ..) => account(p, types, g)?,
            LKind::Op { op, args, linear } => {
                let tys: Vec<Type> = args
                    .iter()
                    .map(|a| match a {
                        Atom::Var(v) => dt.ty(v),
                        Atom::Lit(l) => adora_core::linear::check::lit_type(l),
                    })
                    .collect();
                let res = op_type(op, args, &tys, *linear, &|n| Some(dt.ty(n)))
                    .map_err(|d| format!("typing {} fails: {d}", op.name()))?;
                match op {
                    Op::Binary(BinOp::Add | BinOp::Mul) if *linear => res.size() as u64,
                    Op::Zero(_) => 0,
                    _ if arithmetic(op) => res.size() as u64,
                    _ => lin::op_work(op, args, &tys, &res),
                }
            }
        };
    }
    Ok(total)
}

fn has_dup(e: &LExpr) -> bool {
    match &e.kind {
        LKind::Dup(_) => true,
        LKind::Let(_, a, b) => has_dup(a) || has_dup(b),
        LKind::Unpack(_, _, b) => has_dup(b),
        _ => false,
    }
}

fn lin_model(case: &Case) -> Outcome {
    let s = or_vacuous!(stages(case));
    for (p, f) in [
        (&s.j, &s.jname),
        (&s.u, &s.prim),
        (&s.u, &s.lin),
        (&s.t, &s.lin_t),
    ] {
        let types = check_program(p).map_err(|d| format!("ill-typed: {d}"))?;
        let (a, m) = (account(p, &types, f)?, work(p, f)?);
        if a != m {
            return fail(format!(
                "`{f}`: the table gives {a}, the lin model {m}\n{}",
                show(p)
            ));
        }
    }
    let jd = s.jdef()?;
    let mut rng = aux_rng(case, 61);
    let r = or_vacuous!(run(
        &s.j,
        &s.jname,
        &case.inputs,
        &random_largs(jd, &mut rng)
    ));
    let wj = work(&s.j, &s.jname)?;
    if r.work != wj {
        return fail(format!(
            "the interpreter counts {} on J, the model {wj}",
            r.work
        ));
    }
    // Applying a function costs its body.
    let mut w = s.j.clone();
    let name = format!("{}_wrapped", s.jname);
    w.defs.push(LinearDef {
        name: name.clone(),
        body: LExpr::synth(LKind::Call(
            s.jname.clone(),
            jd.params
                .iter()
                .map(|p| Atom::Var(p.name.clone()))
                .collect(),
            jd.lparams.iter().map(|p| p.name.clone()).collect(),
        )),
        ..jd.clone()
    });
    let ww = work(&w, &name)?;
    if ww != wj {
        return fail(format!("a def calling J costs {ww}, J's body {wj}"));
    }
    Pass::figure(if has_dup(&jd.body) { 1.0 } else { 0.0 })
}

/// Linear `+`, `zero`, `dup` and linear `drop` statements of a def.
#[derive(Default, Debug, PartialEq)]
struct Counts {
    adds: usize,
    zeros: usize,
    dups: usize,
    drops: usize,
}

fn counts(d: &LinearDef, lin_vars: &dyn Fn(&str) -> bool) -> Counts {
    let mut c = Counts::default();
    let mut stack = vec![&d.body];
    while let Some(e) = stack.pop() {
        match &e.kind {
            LKind::Let(_, a, b) => {
                stack.push(a);
                stack.push(b);
            }
            LKind::Unpack(_, _, b) => stack.push(b),
            LKind::Op {
                op: Op::Binary(BinOp::Add),
                linear: true,
                ..
            } => c.adds += 1,
            LKind::Op {
                op: Op::Zero(_), ..
            } => c.zeros += 1,
            LKind::Dup(_) => c.dups += 1,
            LKind::Drop(x) if lin_vars(x) => c.drops += 1,
            _ => {}
        }
    }
    c
}

fn adds_only_at_dup(case: &Case) -> Outcome {
    let s = or_vacuous!(stages(case));
    let tu = check_program(&s.u).map_err(|d| d.to_string())?;
    let tt = check_program(&s.t).map_err(|d| d.to_string())?;
    let (dl, dt) = (tu.def(&s.lin), tt.def(&s.lin_t));
    let l = counts(s.lin_def()?, &|v| dl.is_linear(v));
    let t = counts(s.t_def()?, &|v| dt.is_linear(v));
    if t.adds != l.dups || t.zeros != l.drops {
        return fail(format!(
            "the linear half has {} dups and {} linear drops, its transpose {} linear + and {} zeros\n{}\n{}",
            l.dups, l.drops, t.adds, t.zeros, show(&s.u), show(&s.t)
        ));
    }
    Pass::figure(if l.dups > 0 { 1.0 } else { 0.0 })
}

/// The user's program: J and `def user(x ; dx) -> (; dy)` calling it and dropping `y`.
fn user_program(s: &Stages) -> Result<LinearProgram, String> {
    let jd = s.jdef()?;
    let ys: Vec<Name> = (0..jd.ret.len()).map(|k| format!("user_y{k}")).collect();
    let ds: Vec<Name> = (0..jd.lret.len()).map(|k| format!("user_d{k}")).collect();
    let mut body = LExpr::synth(LKind::Ret(Vec::new(), ds.clone()));
    for y in ys.iter().rev() {
        body = LExpr::synth(LKind::Let(
            Binders::none(),
            Box::new(LExpr::synth(LKind::Drop(y.clone()))),
            Box::new(body),
        ));
    }
    let call = LKind::Call(
        s.jname.clone(),
        jd.params
            .iter()
            .map(|p| Atom::Var(p.name.clone()))
            .collect(),
        jd.lparams.iter().map(|p| p.name.clone()).collect(),
    );
    let mut p = s.j.clone();
    p.defs.push(LinearDef {
        name: "user".into(),
        ret: Vec::new(),
        body: LExpr::synth(LKind::Let(
            Binders { nl: ys, lin: ds },
            Box::new(LExpr::synth(call)),
            Box::new(body),
        )),
        ..jd.clone()
    });
    Ok(p)
}

fn transpose_api(case: &Case) -> Outcome {
    let s = or_vacuous!(stages(case));
    let text = print::program(&user_program(&s)?);
    let user =
        parse_program(&text).map_err(|d| format!("the user's text does not parse: {d}\n{text}"))?;
    let out = match transpose_source(&text, "user") {
        Ok(o) => o,
        Err(d) if d.kind == ErrorKind::Resource => return Pass::vacuous(),
        Err(d) => return fail(format!("`transpose_source` fails: {d}\n{text}")),
    };
    let q = parse_program(&out).map_err(|d| format!("its output does not parse: {d}\n{out}"))?;
    let mut rng = aux_rng(case, 62);
    let t = random_tangents(&case.inputs, &mut rng);
    let mut dx = Vec::new();
    for ((p, x), tk) in s.f.params.iter().zip(&case.inputs).zip(&t) {
        if let Some(tt) = tangent_type(&p.ty) {
            let z = Value::zeros(&x.ty());
            dx.push(
                tangent_part(tk.as_ref().unwrap_or(&z), &p.ty).unwrap_or_else(|| Value::zeros(&tt)),
            );
        }
    }
    let fwd = or_vacuous!(run(&user, "user", &case.inputs, &dx));
    let (_, want) = match reference::jvp(&s.f, &case.inputs, &t, &opts()) {
        Ok(w) => w,
        Err(d) if d.kind == ErrorKind::Resource => return Pass::vacuous(),
        Err(d) => return fail(format!("the reference JVP fails: {d}")),
    };
    if let Some(w) = tangent_part(&want, &s.f.ret) {
        if fwd.lin.first() != Some(&w) {
            return fail(format!(
                "user(x ; dx) = ({}), the reference JVP {}",
                shows(&fwd.lin),
                literal(&w)
            ));
        }
    }
    let tape = or_vacuous!(run(&q, &unzip::primal_name("user"), &case.inputs, &[]));
    let tn = adora_rewrites::linear::transpose::transpose_name(&unzip::lin_name("user"));
    let td = q
        .def(&tn)
        .ok_or_else(|| format!("no def `{tn}` in\n{out}"))?;
    let ct = random_largs(td, &mut rng);
    let bwd = or_vacuous!(run(&q, &tn, &tape.nl, &ct));
    let (lhs, rhs): (Rat, Rat) = (dot_all(&ct, &fwd.lin), dot_all(&bwd.lin, &dx));
    if lhs != rhs {
        return fail(format!(
            "<ct, user dx> = {lhs} but <user_t ct, dx> = {rhs}\n{out}"
        ));
    }
    Pass::figure(if num_traits::Zero::is_zero(&lhs) {
        0.0
    } else {
        1.0
    })
}
