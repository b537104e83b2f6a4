//! Properties of the evaluator's array constructs and of inlining (seed 000
//! *Dual-Numbers Reverse AD for Functional Array Languages* §3.1, §3.3, §5.2, App. C.1;
//! docs/language.md): `map` and `build` are interdefinable through `iota`, `gather` is a
//! multidimensional `build` of indexing, `scatter` adds colliding writes and leaves zeros,
//! inlining of `def`s preserves semantics, and evaluation at dual numbers projects to
//! evaluation at their primal scalars.
//!
//! Each property rewrites generated programs (every construct of the kind, wherever it
//! occurs) and compares exact evaluations.

use super::util::{aux_rng, exact, fail, load, load_program, opts, random_rat, Eval};
use crate::catalogue::{Check, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, Fragment, GenSpec, RetKind};
use crate::values::{literal, rat, rat_literal, reals, Rat};
use adora_core::ast::{Def, Expr, ExprKind, Function, Lambda, Pat, Prim, Program};
use adora_core::check::NodeTypes;
use adora_core::diag::Span;
use adora_core::types::Type;
use adora_core::visit::{self, NameSupply};
use adora_semantics::dual::Dual;
use adora_semantics::eval::eval;
use adora_semantics::value::Value;
use rand::Rng;

/// The properties of this module.
pub fn properties() -> Vec<Property> {
    let p = |name, source, fragment, description, strategy, check| Property {
        name,
        source,
        fragment,
        description,
        figure: None,
        check: Check::Case { strategy, check },
    };
    vec![
        p("sem/map-equals-build", "seed 000 §3.1, footnote 9", "all",
          "`build` and `map` are interdefinable given `iota`: rewriting every `build sh (is => e)` of a generated program into nested `map(i => …, iota(n))`, and every `map(xs => e, as)` into `let v = a in build n (i => let x = v[i] in e)`, gives a well-typed program with exactly the same value (cases with neither construct are vacuous)",
          || CaseStrategy::all_fragments(32, RetKind::Any), map_build),
        p("sem/gather-equals-build", "seed 000 §3.3", "bulk",
          "`gather(sh, x, is => ix) = let v = x in build sh (is => v[ix])`: rewriting every `gather` of a generated program and of its bot output (which is full of them) gives exactly the same value, out-of-bounds reads included",
          || CaseStrategy::new(GenSpec::new(Fragment::Bulk).size(24)), gather_build),
        p("sem/scatter-adds-collisions", "seed 000 §3.3", "bulk",
          "`scatter` adds colliding writes and leaves positions that receive nothing 0: a scatter of the generated case's input reals (as `R[n]`, or `R[n/2, 2]`) through a random index table with collisions and out-of-bounds targets equals the sums computed by hand, exactly (the paper's example is a test)",
          || CaseStrategy::new(GenSpec::new(Fragment::Bulk).size(24)), scatter_adds),
        p("sem/inline-preserves-semantics", "seed 000 §5.2", "all",
          "inlining `def`s preserves semantics: the generated program with every call replaced by the callee's body with its arguments substituted (capture-avoiding, arguments duplicated) evaluates as the elaborated program (which binds arguments by `let`), and so does the program whose `main` calls its original body as a helper",
          || CaseStrategy::all_fragments(32, RetKind::Any), inline),
        p("sem/dual-primal-projection", "seed 000 App. C.1, C.3", "all",
          "interpretation commutes with the primitives: evaluating a generated program at dual numbers (inputs with random sparse tangents) and projecting to the primal gives exactly the evaluation at the rationals (the same error or resource limit, if any)",
          || CaseStrategy::all_fragments(32, RetKind::Any), dual_projection),
    ]
}

fn mk(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

fn var(n: &str) -> Expr {
    mk(ExprKind::Var(n.to_string()))
}

/// `e` with its children rewritten by `f` (reading the original children, so node-type
/// lookups by address keep working).
fn rebuild(e: &Expr, f: &mut impl FnMut(&Expr) -> Expr) -> Expr {
    let kids: Vec<Expr> = visit::children(e).into_iter().map(&mut *f).collect();
    let mut out = e.clone();
    for (slot, k) in visit::children_mut(&mut out).into_iter().zip(kids) {
        *slot = k;
    }
    out
}

fn supply(f: &Function) -> NameSupply {
    let params: Vec<String> = f.params.iter().map(|p| p.name.clone()).collect();
    adora_rewrites::kit::names::supply_for(&params, &f.body)
}

/// Both values exactly, or a vacuous pass / failure.
fn compare(f: &Function, g: &Function, inputs: &[Value<Rat>], what: &str) -> Outcome {
    adora_core::with_stack(|| adora_core::check::check_function(g)).map_err(|d| {
        format!(
            "the {what} does not type-check: {d}\n{}",
            adora_core::pretty::function(g)
        )
    })?;
    let (Eval::Value(a, _), Eval::Value(b, _)) = (exact(f, inputs)?, exact(g, inputs)?) else {
        return Pass::vacuous();
    };
    if a != b {
        return fail(format!(
            "the program gives {} but the {what} {}\n{}",
            literal(&a),
            literal(&b),
            adora_core::pretty::function(g)
        ));
    }
    Pass::ok()
}

struct MapBuild<'t> {
    types: &'t NodeTypes,
    names: NameSupply,
    rewrites: usize,
}

impl MapBuild<'_> {
    fn go(&mut self, e: &Expr) -> Expr {
        match &e.kind {
            ExprKind::Build(sh, bs, body) => {
                self.rewrites += 1;
                let mut out = self.go(body);
                for (n, b) in sh.iter().zip(bs).rev() {
                    let lam = Lambda {
                        params: vec![b.clone()],
                        body: Box::new(out),
                    };
                    out = mk(ExprKind::Map(
                        lam,
                        vec![mk(ExprKind::Prim(Prim::Iota(*n), vec![]))],
                    ));
                }
                out
            }
            ExprKind::Map(lam, xs) if lam.params.len() == xs.len() && !xs.is_empty() => {
                let Some(Type::Array(_, s)) = self.types.get(&xs[0]) else {
                    return rebuild(e, &mut |c| self.go(c));
                };
                let Some(&n) = s.first() else {
                    return rebuild(e, &mut |c| self.go(c));
                };
                self.rewrites += 1;
                let vs: Vec<String> = xs.iter().map(|_| self.names.fresh("v")).collect();
                let i = self.names.fresh("i");
                let mut body = self.go(&lam.body);
                for (p, v) in lam.params.iter().zip(&vs).rev() {
                    let at = mk(ExprKind::Index(Box::new(var(v)), vec![var(&i)]));
                    body = mk(ExprKind::Let(
                        Pat::Var(p.clone()),
                        Box::new(at),
                        Box::new(body),
                    ));
                }
                let mut out = mk(ExprKind::Build(vec![n], vec![i], Box::new(body)));
                for (x, v) in xs.iter().zip(&vs).rev() {
                    out = mk(ExprKind::Let(
                        Pat::Var(v.clone()),
                        Box::new(self.go(x)),
                        Box::new(out),
                    ));
                }
                out
            }
            _ => rebuild(e, &mut |c| self.go(c)),
        }
    }
}

fn map_build(case: &Case) -> Outcome {
    let f = load(case)?;
    let types = adora_core::check::node_types(&f).map_err(|d| format!("node types: {d}"))?;
    let mut t = MapBuild {
        types: &types,
        names: supply(&f),
        rewrites: 0,
    };
    let body = t.go(&f.body);
    if t.rewrites == 0 {
        return Pass::vacuous();
    }
    let g = Function { body, ..f.clone() };
    compare(
        &f,
        &g,
        &case.inputs,
        "program with builds and maps exchanged",
    )
}

/// Every `gather` with a non-empty index rewritten into a `build` of indexing.
fn gathers(e: &Expr, names: &mut NameSupply, n: &mut usize) -> Expr {
    match &e.kind {
        ExprKind::Gather(sh, x, bs, ix) if !ix.is_empty() => {
            *n += 1;
            let v = names.fresh("v");
            let ix: Vec<Expr> = ix.iter().map(|i| gathers(i, names, n)).collect();
            let read = mk(ExprKind::Index(Box::new(var(&v)), ix));
            let body = if sh.is_empty() {
                read
            } else {
                mk(ExprKind::Build(sh.clone(), bs.clone(), Box::new(read)))
            };
            mk(ExprKind::Let(
                Pat::Var(v),
                Box::new(gathers(x, names, n)),
                Box::new(body),
            ))
        }
        _ => rebuild(e, &mut |c| gathers(c, names, n)),
    }
}

fn gather_build(case: &Case) -> Outcome {
    let f = load(case)?;
    let mut programs = vec![f.clone()];
    match adora_rewrites::dual::fragment::prepare(&f) {
        Ok(g) => programs.push(g),
        Err(d) if d.kind == adora_core::diag::ErrorKind::Resource => {}
        Err(d) => return fail(format!("bot fails: {d}")),
    }
    let mut total = 0;
    for p in &programs {
        let mut n = 0;
        let body = gathers(&p.body, &mut supply(p), &mut n);
        if n == 0 {
            continue;
        }
        total += n;
        let g = Function { body, ..p.clone() };
        let r = compare(p, &g, &case.inputs, "program with gathers as builds")?;
        if r.vacuous {
            return Ok(r);
        }
    }
    if total == 0 {
        Pass::vacuous()
    } else {
        Pass::ok()
    }
}

fn scatter_adds(case: &Case) -> Outcome {
    let xs: Vec<Rat> = case.inputs.iter().flat_map(reals).collect();
    if xs.is_empty() {
        return Pass::vacuous();
    }
    let mut rng = aux_rng(case, 51);
    let tail = if xs.len().is_multiple_of(2) && rng.gen_bool(0.5) {
        2
    } else {
        1
    };
    let n = xs.len() / tail;
    let m: i64 = rng.gen_range(1..=6);
    let t: Vec<i64> = (0..n).map(|_| rng.gen_range(-1..=m)).collect();
    let mut want = vec![rat(0, 1); m as usize * tail];
    for (i, &j) in t.iter().enumerate() {
        if (0..m).contains(&j) {
            for k in 0..tail {
                want[j as usize * tail + k] += xs[i * tail + k].clone();
            }
        }
    }
    let (ty, out) = if tail == 1 {
        (format!("R[{n}]"), format!("R[{m}]"))
    } else {
        (format!("R[{n}, 2]"), format!("R[{m}, 2]"))
    };
    let sh = if tail == 1 {
        format!("[{m}]")
    } else {
        format!("[{m}, 2]")
    };
    let ts: Vec<String> = t.iter().map(|j| j.to_string()).collect();
    let src = format!(
        "def main(x: {ty}) -> {out} = let t = [{}] in scatter({sh}, x, i => [t[i]])",
        ts.join(", ")
    );
    let f = super::util::load_text(&src, "main")?;
    let shape = if tail == 1 { vec![n] } else { vec![n, 2] };
    let x = Value::Real(adora_semantics::value::Tensor { shape, data: xs });
    let Eval::Value(v, _) = exact(&f, &[x])? else {
        return Pass::vacuous();
    };
    if reals(&v) != want {
        return fail(format!(
            "{src}\ngives {} instead of [{}]",
            literal(&v),
            want.iter().map(rat_literal).collect::<Vec<_>>().join(", ")
        ));
    }
    Pass::ok()
}

/// `e` with every call of a `def` of `defs` replaced by its body, arguments substituted;
/// `None` for a call of another function (a template) or past `budget` nodes.
fn inline_calls(
    e: &Expr,
    defs: &[Def],
    names: &mut NameSupply,
    budget: &mut usize,
) -> Option<Expr> {
    *budget = budget.checked_sub(1)?;
    match &e.kind {
        ExprKind::Call(name, args) => {
            let d = defs.iter().find(|d| &d.name == name)?;
            let args: Vec<Expr> = args
                .iter()
                .map(|a| inline_calls(a, defs, names, budget))
                .collect::<Option<_>>()?;
            let body = inline_calls(&d.body, defs, names, budget)?;
            let map: Vec<(String, Expr)> =
                d.params.iter().map(|p| p.name.clone()).zip(args).collect();
            let out = adora_rewrites::kit::subst::subst_claiming(&body, &map, names);
            *budget = budget.checked_sub(visit::node_count(&out))?;
            Some(out)
        }
        _ => {
            let kids: Vec<Expr> = visit::children(e)
                .into_iter()
                .map(|c| inline_calls(c, defs, names, budget))
                .collect::<Option<_>>()?;
            let mut out = e.clone();
            for (slot, k) in visit::children_mut(&mut out).into_iter().zip(kids) {
                *slot = k;
            }
            Some(out)
        }
    }
}

fn inline(case: &Case) -> Outcome {
    let f = load(case)?;
    let main = case.main().clone();
    let mut all: Vec<String> = Vec::new();
    let mut bodies = Vec::new();
    for d in &case.program.defs {
        all.extend(d.params.iter().map(|p| p.name.clone()));
        all.push(d.name.clone());
        bodies.push(d.body.clone());
    }
    let mut names = adora_rewrites::kit::names::supply_for(&all, &mk(ExprKind::Array(bodies)));
    let mut budget = 50_000usize;
    let Some(body) = inline_calls(&main.body, &case.program.defs, &mut names, &mut budget) else {
        return Pass::vacuous();
    };
    let by_subst = Program {
        defs: vec![Def {
            body,
            ..main.clone()
        }],
        templates: Vec::new(),
    };
    let g = load_program(&by_subst, "main")?;
    let r = compare(&f, &g, &case.inputs, "program inlined by substitution")?;
    if r.vacuous {
        return Ok(r);
    }
    let inner = names.fresh("main_body");
    let mut wrapped = case.program.clone();
    for d in wrapped.defs.iter_mut().filter(|d| d.name == "main") {
        d.name = inner.clone();
    }
    let call = mk(ExprKind::Call(
        inner,
        main.params.iter().map(|p| var(&p.name)).collect(),
    ));
    wrapped.defs.push(Def { body: call, ..main });
    let h = load_program(&wrapped, "main")?;
    compare(&f, &h, &case.inputs, "program calling its body as a helper")
}

fn dual_projection(case: &Case) -> Outcome {
    let f = load(case)?;
    let mut rng = aux_rng(case, 52);
    let mut id = 0usize;
    let inputs: Vec<Value<Dual<Rat>>> = case
        .inputs
        .iter()
        .map(|x| {
            x.map_reals(&mut |r: &Rat| {
                id += 1;
                let t = (0..rng.gen_range(0..3usize))
                    .map(|_| (rng.gen_range(0..id + 2), random_rat(&mut rng)))
                    .collect();
                Dual::new(r.clone(), t)
            })
        })
        .collect();
    let d = eval(&f, &inputs, &opts());
    let r = eval(&f, &case.inputs, &opts());
    match (d, r) {
        (Ok((dv, _)), Ok((rv, _))) => {
            let p = dv.map_reals(&mut |x: &Dual<Rat>| x.value().clone());
            if p != rv {
                return fail(format!(
                    "at dual numbers the primal is {} but at rationals {}",
                    literal(&p),
                    literal(&rv)
                ));
            }
            Pass::ok()
        }
        (Err(a), Err(b)) if a.kind == b.kind => Pass::vacuous(),
        (Err(a), _) if a.kind == adora_core::diag::ErrorKind::Resource => Pass::vacuous(),
        (a, b) => fail(format!(
            "at dual numbers: {}; at rationals: {}",
            a.map(|(v, _)| literal(&v.map_reals(&mut |x: &Dual<Rat>| x.value().clone())))
                .unwrap_or_else(|d| d.to_string()),
            b.map(|(v, _)| literal(&v))
                .unwrap_or_else(|d| d.to_string())
        )),
    }
}
