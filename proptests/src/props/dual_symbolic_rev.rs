//! Properties of engine `dual`'s symbolic reverse pass and gradient program (seed 000
//! *Dual-Numbers Reverse AD for Functional Array Languages* §7.3–§7.4, App. C.2, App. D;
//! docs/engines/dual.md §5): no duplicated cotangent, increasing share ids, the output
//! fragment of the transposition, share → let, global sharing kept apart from `let`s,
//! primal/dual separation and the closure of the core language under differentiation.
//!
//! The gradient program's parts before unsharing come from the engine's read-only hook
//! `adora_rewrites::dual::symbolic::wrapper::gradient_parts`.

use super::dual_symbolic::{bulk, prepared, show, step};
use super::util::{aux_rng, fail, opts, random_value};
use crate::catalogue::{Check, Outcome, Pass, Property};
use crate::gen::{Case, RetKind};
use crate::values::{literal, Rat};
use adora_core::ast::{BinOp, Expr, ExprKind, Function, Name, Prim, UnOp};
use adora_core::types::Type;
use adora_core::visit;
use adora_rewrites::dual::reverse::{Reverse, Target};
use adora_rewrites::dual::symbolic::forward::{separate, SV};
use adora_rewrites::dual::symbolic::fuse::SymCt;
use adora_rewrites::dual::symbolic::target::SymTarget;
use adora_rewrites::dual::symbolic::wrapper::{gradient_parts, GradientParts};
use adora_rewrites::dual::symbolic::{Sym, SymMap};
use adora_rewrites::kit::lets::reference_id;
use adora_semantics::eval::eval;
use adora_semantics::value::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::rc::Rc;

/// The properties of this module.
pub fn properties() -> Vec<Property> {
    let p = |name, source, description, check| Property {
        name,
        source,
        fragment: "bulk",
        description,
        figure: None,
        check: Check::Case {
            strategy: || bulk(RetKind::Real),
            check,
        },
    };
    vec![
        p("dual/no-cotangent-duplication", "seed 000 §7.2, §7.3",
          "the symbolic reverse pass duplicates no cotangent term: run on the bot output's symbolic Delta through a target that tags every cotangent it builds, every cotangent used more than once (Add, Select, Append, Stack) is the output of `dup` (a share reference or an atom), every other one is used at most once", no_duplication),
        p("dual/symbolic-share-ids-increase", "seed 000 §7.3",
          "the shared cotangents of the symbolic reverse pass have increasing ids: every shared term mentions only share ids smaller than its own, all of them in the table", share_ids),
        p("dual/transpose-output-fragment", "seed 000 §7.4",
          "apart from copied index terms and index maps, the cotangent terms of the symbolic reverse pass (shared terms and gradients, before share → let) contain only variables (the primal's, the initial cotangent `dret` and its projections, share references), literals, `+`, `-`, `*`, `/` by primal factors, negation, `select`, `replicate`, `sum_outer`, `transpose`, `reshape`, `append` (scatter fusion), `index`, `gather`, `scatter` and tuples of gradients; no `let`", output_fragment),
        p("dual/share-to-let-preserves-semantics", "seed 000 §7.4, App. C.2",
          "converting global sharing to lets gives a well-scoped let chain (each shared id bound by one let, in ascending id order, the program type-checks) and preserves semantics: the gradient program evaluates exactly as the same program with every share reference replaced by its term, for a random cotangent (cases whose inlined terms pass 200,000 nodes are vacuous)", share_to_let),
        p("dual/no-share-under-let", "seed 000 App. C.2",
          "global sharing and lets are kept apart: no shared cotangent term contains a `let` (outside copied index terms), no primal binding mentions a share reference, the cotangent or a shared cotangent, the gradient program has no share reference left, and every shared cotangent is bound by exactly one `let` whose value contains no other `let` (outside index terms): computed once however often it is used", no_share_under_let),
        p("dual/primal-dual-separated", "seed 000 App. D, §7.6",
          "the primal and dual halves are separated: the primal bindings and the primal result of the gradient program mention neither the cotangent nor a shared cotangent, and its value component equals the program's value whatever the cotangent (evaluated with two random cotangents)", separated),
        p("dual/gradient-program-well-typed", "seed 000 App. D.2",
          "the core language is closed under differentiation: the gradient program is a well-typed core program with signature (params…, dret: T) -> (T, G1, …) (Gi the types of the parameters with reals), it prints, and the printed text parses, checks, elaborates and evaluates to the same value (random cotangent), and outside copied index terms it uses only seed-000 constructs (no build, no seed-004 construct: scatter fusion's lazy `if` segment test occurs only inside index maps)", well_typed),
    ]
}

/// The gradient parts of the bot output (`None`: a resource limit).
fn parts(case: &Case) -> Result<Option<(Function, Function, GradientParts)>, String> {
    let Some((f, g)) = prepared(case)? else {
        return Ok(None);
    };
    let p = step(
        adora_core::with_stack(|| gradient_parts(&g)),
        "the gradient program",
    )?;
    Ok(p.map(|p| (f, g, p)))
}

/// A cotangent with the tag of the operation that built it.
#[derive(Clone)]
struct Tagged {
    ct: SymCt,
    tag: u64,
}

/// [`SymTarget`] with every cotangent tagged and every use counted.
struct Counting<'n> {
    inner: SymTarget<'n>,
    next: u64,
    uses: HashMap<u64, usize>,
    dups: HashSet<u64>,
}

impl Counting<'_> {
    fn used(&mut self, t: &Tagged) {
        *self.uses.entry(t.tag).or_default() += 1;
    }
    fn tag(&mut self, ct: SymCt) -> Tagged {
        self.next += 1;
        Tagged { ct, tag: self.next }
    }
    fn one(&mut self, c: Tagged, f: impl FnOnce(&mut SymTarget<'_>, SymCt) -> SymCt) -> Tagged {
        self.used(&c);
        let out = f(&mut self.inner, c.ct);
        self.tag(out)
    }
}

impl Target<Sym> for Counting<'_> {
    type Ct = Tagged;
    fn dup(&mut self, c: Tagged) -> Tagged {
        let t = self.one(c, |s, c| s.dup(c));
        self.dups.insert(t.tag);
        t
    }
    fn add(&mut self, a: Tagged, b: Tagged) -> Tagged {
        self.used(&a);
        self.used(&b);
        let out = self.inner.add(a.ct, b.ct);
        self.tag(out)
    }
    fn neg(&mut self, c: Tagged) -> Tagged {
        self.one(c, |s, c| s.neg(c))
    }
    fn scale(&mut self, k: &Expr, c: Tagged) -> Tagged {
        self.one(c, |s, c| s.scale(k, c))
    }
    fn div_by(&mut self, k: &Expr, c: Tagged) -> Tagged {
        self.one(c, |s, c| s.div_by(k, c))
    }
    fn select(&mut self, b: &Expr, c: Tagged, then_branch: bool, shape: &[usize]) -> Tagged {
        self.one(c, |s, c| s.select(b, c, then_branch, shape))
    }
    fn one_hot(&mut self, shape: &[usize], ix: &Vec<Expr>, c: Tagged) -> Tagged {
        self.one(c, |s, c| s.one_hot(shape, ix, c))
    }
    fn scatter(&mut self, src: &[usize], map: &Rc<SymMap>, c: Tagged) -> Tagged {
        self.one(c, |s, c| s.scatter(src, map, c))
    }
    fn gather(&mut self, src: &[usize], out: &[usize], map: &Rc<SymMap>, c: Tagged) -> Tagged {
        self.one(c, |s, c| s.gather(src, out, map, c))
    }
    fn replicate(&mut self, n: usize, c: Tagged) -> Tagged {
        self.one(c, |s, c| s.replicate(n, c))
    }
    fn replicate_all(&mut self, shape: &[usize], c: Tagged) -> Tagged {
        self.one(c, |s, c| s.replicate_all(shape, c))
    }
    fn sum_outer(&mut self, c: Tagged, shape: &[usize]) -> Tagged {
        self.one(c, |s, c| s.sum_outer(c, shape))
    }
    fn transpose(&mut self, perm: &[usize], c: Tagged) -> Tagged {
        self.one(c, |s, c| s.transpose(perm, c))
    }
    fn reshape(&mut self, shape: &[usize], c: Tagged) -> Tagged {
        self.one(c, |s, c| s.reshape(shape, c))
    }
    fn slice(&mut self, c: Tagged, start: usize, len: usize, shape: &[usize]) -> Tagged {
        self.one(c, |s, c| s.slice(c, start, len, shape))
    }
    fn index_outer(&mut self, c: Tagged, k: usize, shape: &[usize]) -> Tagged {
        self.one(c, |s, c| s.index_outer(c, k, shape))
    }
}

fn seeds(sv: &SV, at: Expr, out: &mut Vec<(adora_rewrites::dual::symbolic::SDelta, SymCt)>) {
    match sv {
        SV::R(_, d) => out.push((d.clone(), SymCt::term(at))),
        SV::N(_) => {}
        SV::T(vs) => {
            for (k, c) in vs.iter().enumerate() {
                seeds(
                    c,
                    adora_rewrites::dual::symbolic::mk(ExprKind::Proj(Box::new(at.clone()), k)),
                    out,
                );
            }
        }
    }
}

fn no_duplication(case: &Case) -> Outcome {
    adora_core::with_stack(|| no_duplication_deep(case))
}

fn no_duplication_deep(case: &Case) -> Outcome {
    let Some((_, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    let sep = separate(&g).map_err(|d| format!("the symbolic forward pass fails: {d}"))?;
    let mut names = sep.names;
    let mut roots = Vec::new();
    seeds(
        &sep.result,
        adora_rewrites::dual::symbolic::var("dret"),
        &mut roots,
    );
    let mut t = Counting {
        inner: SymTarget::new(&mut names),
        next: 0,
        uses: HashMap::new(),
        dups: HashSet::new(),
    };
    let roots: Vec<_> = roots.into_iter().map(|(d, c)| (d, t.tag(c))).collect();
    let (grads, _) = Reverse::new(sep.leaves.len()).run(&mut t, roots);
    for c in grads.iter().flatten() {
        t.used(c);
    }
    if let Some((tag, n)) = t
        .uses
        .iter()
        .find(|(tag, n)| **n > 1 && !t.dups.contains(tag))
    {
        return fail(format!(
            "cotangent #{tag} is used {n} times without `dup` (share) in the reverse pass of\n{}",
            show(&g)
        ));
    }
    Pass::ok()
}

fn refs(e: &Expr) -> BTreeSet<u64> {
    visit::subexprs(e)
        .into_iter()
        .filter_map(reference_id)
        .collect()
}

fn share_ids(case: &Case) -> Outcome {
    let Some((_, g, p)) = parts(case)? else {
        return Pass::vacuous();
    };
    for (n, s) in &p.table {
        if let Some(m) = refs(&s.term)
            .into_iter()
            .find(|m| m >= n || !p.table.contains_key(m))
        {
            return fail(format!(
                "shared cotangent {n} mentions share id {m}\n{}",
                show(&g)
            ));
        }
    }
    if let Some(m) = refs(&p.result)
        .into_iter()
        .find(|m| !p.table.contains_key(m))
    {
        return fail(format!(
            "the gradient mentions share id {m}, not in the table"
        ));
    }
    Pass::ok()
}

/// The sub-terms of `e` outside index positions (index terms of `index`, index maps of
/// `gather`/`scatter`), pre-order.
fn outside_index(e: &Expr, out: &mut Vec<Expr>) {
    out.push(e.clone());
    match &e.kind {
        ExprKind::Index(x, _) | ExprKind::Gather(_, x, _, _) | ExprKind::Scatter(_, x, _, _) => {
            outside_index(x, out)
        }
        _ => visit::children(e)
            .into_iter()
            .for_each(|c| outside_index(c, out)),
    }
}

fn allowed(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Lit(_) | ExprKind::Tuple(_) | ExprKind::Proj(..) => true,
        ExprKind::Index(..) | ExprKind::Gather(..) | ExprKind::Scatter(..) => true,
        ExprKind::Binary(op, ..) => matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div),
        ExprKind::Unary(op, _) => matches!(op, UnOp::Neg),
        ExprKind::Prim(p, _) => matches!(
            p,
            Prim::Select
                | Prim::Replicate(_)
                | Prim::SumOuter
                | Prim::Transpose(_)
                | Prim::Reshape(_)
                | Prim::Append
        ),
        _ => false,
    }
}

/// The cotangent terms: every shared term, and the gradient components of the result.
fn cotangent_terms(p: &GradientParts) -> Vec<Expr> {
    let mut out: Vec<Expr> = p.table.values().map(|s| s.term.clone()).collect();
    if !p.real_params.is_empty() {
        if let ExprKind::Tuple(cs) = &p.result.kind {
            out.extend(cs.iter().skip(1).cloned());
        }
    }
    out
}

fn output_fragment(case: &Case) -> Outcome {
    let Some((_, g, p)) = parts(case)? else {
        return Pass::vacuous();
    };
    for t in cotangent_terms(&p) {
        let mut subs = Vec::new();
        outside_index(&t, &mut subs);
        if let Some(bad) = subs.iter().find(|e| !allowed(e)) {
            return fail(format!(
                "the reverse pass emitted `{}` outside the fragment (a `{}`) for\n{}",
                adora_core::pretty::expr(bad),
                bad.kind.form_name(),
                show(&g)
            ));
        }
    }
    Pass::ok()
}

/// `e` with every share reference replaced by its term (transitively); `None` past
/// `budget` nodes.
fn inline(e: &Expr, p: &GradientParts, budget: &mut usize) -> Option<Expr> {
    if let Some(n) = reference_id(e) {
        if let Some(s) = p.table.get(&n) {
            return inline(&s.term, p, budget);
        }
    }
    *budget = budget.checked_sub(1)?;
    let kids: Vec<Expr> = visit::children(e)
        .into_iter()
        .map(|c| inline(c, p, budget))
        .collect::<Option<_>>()?;
    let mut out = e.clone();
    for (slot, k) in visit::children_mut(&mut out).into_iter().zip(kids) {
        *slot = k;
    }
    Some(out)
}

/// The let-bound names of `e` in pre-order, with the let's value.
fn lets(e: &Expr) -> Vec<(Name, Expr)> {
    visit::subexprs(e)
        .into_iter()
        .filter_map(|x| match &x.kind {
            ExprKind::Let(adora_core::ast::Pat::Var(n), v, _) => Some((n.clone(), (**v).clone())),
            _ => None,
        })
        .collect()
}

fn args(case: &Case, g: &Function, salt: u64) -> Vec<Value<Rat>> {
    let mut rng = aux_rng(case, salt);
    let mut a = case.inputs.clone();
    a.push(random_value(&g.ret, &mut rng));
    a
}

fn share_to_let(case: &Case) -> Outcome {
    let Some((_, g, p)) = parts(case)? else {
        return Pass::vacuous();
    };
    if p.table.is_empty() {
        return Pass::vacuous();
    }
    let mut budget = 200_000usize;
    let Some(inlined) = inline(&p.result, &p, &mut budget) else {
        return Pass::vacuous();
    };
    let plain = Function {
        name: g.name.clone(),
        params: p.params.clone(),
        ret: p.ret.clone(),
        body: adora_rewrites::kit::anf::wrap(&p.bindings, inlined),
    };
    let gp = p
        .clone()
        .finish()
        .map_err(|d| format!("share → let fails: {d}"))?;
    let ids: BTreeMap<&Name, u64> = p.table.iter().map(|(n, s)| (&s.name, *n)).collect();
    let order: Vec<u64> = lets(&gp.function.body)
        .iter()
        .filter_map(|(n, _)| ids.get(n).copied())
        .collect();
    if order.windows(2).any(|w| w[0] >= w[1]) || order.len() != p.table.len() {
        return fail(format!(
            "the shared cotangents are bound in the order {order:?} (table {:?})",
            p.table.keys().collect::<Vec<_>>()
        ));
    }
    let a = args(case, &g, 41);
    let Some((x, _)) = step(eval(&gp.function, &a, &opts()), "the gradient program")? else {
        return Pass::vacuous();
    };
    let Some((y, _)) = step(eval(&plain, &a, &opts()), "the inlined gradient program")? else {
        return Pass::vacuous();
    };
    if x != y {
        return fail(format!(
            "with lets {} but inlined {}\n{}",
            literal(&x),
            literal(&y),
            show(&gp.function)
        ));
    }
    Pass::ok()
}

fn has_let_outside_index(e: &Expr) -> bool {
    let mut subs = Vec::new();
    outside_index(e, &mut subs);
    subs.iter().any(|x| matches!(x.kind, ExprKind::Let(..)))
}

fn no_share_under_let(case: &Case) -> Outcome {
    let Some((_, g, p)) = parts(case)? else {
        return Pass::vacuous();
    };
    if let Some((n, _)) = p.table.iter().find(|(_, s)| has_let_outside_index(&s.term)) {
        return fail(format!("shared cotangent {n} contains a let\n{}", show(&g)));
    }
    let dual_names: BTreeSet<&Name> = p.table.values().map(|s| &s.name).chain([&p.dret]).collect();
    for l in &p.bindings {
        let fv = visit::free_vars(&l.value);
        if !refs(&l.value).is_empty() || fv.iter().any(|v| dual_names.contains(v)) {
            return fail(format!(
                "the primal binding `{}` mentions the dual half",
                adora_core::pretty::expr(&l.value)
            ));
        }
    }
    let gp = p
        .clone()
        .finish()
        .map_err(|d| format!("share → let fails: {d}"))?;
    if !refs(&gp.function.body).is_empty() {
        return fail("a share reference survived share → let");
    }
    let bound = lets(&gp.function.body);
    for s in p.table.values() {
        let found: Vec<&(Name, Expr)> = bound.iter().filter(|(n, _)| *n == s.name).collect();
        if found.len() != 1 {
            return fail(format!(
                "shared cotangent `{}` is bound {} times",
                s.name,
                found.len()
            ));
        }
        if has_let_outside_index(&found[0].1) {
            return fail(format!(
                "the let of shared cotangent `{}` has a let in its value",
                s.name
            ));
        }
    }
    Pass::ok()
}

fn separated(case: &Case) -> Outcome {
    let Some((f, g, p)) = parts(case)? else {
        return Pass::vacuous();
    };
    let dual_names: BTreeSet<&Name> = p.table.values().map(|s| &s.name).chain([&p.dret]).collect();
    let primal_result = match &p.result.kind {
        ExprKind::Tuple(cs) if !p.real_params.is_empty() => cs[0].clone(),
        _ => p.result.clone(),
    };
    let primal = adora_rewrites::kit::anf::wrap(&p.bindings, primal_result);
    if !refs(&primal).is_empty()
        || visit::free_vars(&primal)
            .iter()
            .any(|v| dual_names.contains(v))
    {
        return fail(format!(
            "the primal half mentions the dual half:\n{}",
            adora_core::pretty::expr(&primal)
        ));
    }
    let gp = p.finish().map_err(|d| format!("share → let fails: {d}"))?;
    let value = |salt| -> Result<Option<Value<Rat>>, String> {
        let Some((v, _)) = step(
            eval(&gp.function, &args(case, &g, salt), &opts()),
            "the gradient program",
        )?
        else {
            return Ok(None);
        };
        Ok(Some(match v {
            Value::Tuple(mut vs) if !gp.real_params.is_empty() => vs.swap_remove(0),
            v => v,
        }))
    };
    let (Some(a), Some(b)) = (value(42)?, value(43)?) else {
        return Pass::vacuous();
    };
    let Some((want, _)) = step(eval(&f, &case.inputs, &opts()), "evaluation")? else {
        return Pass::vacuous();
    };
    if a != want || b != want {
        return fail(format!(
            "the gradient program's value is {} and {} for two cotangents, the program's {}",
            literal(&a),
            literal(&b),
            literal(&want)
        ));
    }
    Pass::ok()
}

fn well_typed(case: &Case) -> Outcome {
    let Some((_, g, p)) = parts(case)? else {
        return Pass::vacuous();
    };
    let gp = p.finish().map_err(|d| format!("share → let fails: {d}"))?;
    let h = &gp.function;
    let mut want_params: Vec<Type> = g.params.iter().map(|q| q.ty.clone()).collect();
    want_params.push(g.ret.clone());
    let got_params: Vec<Type> = h.params.iter().map(|q| q.ty.clone()).collect();
    let reals: Vec<Type> = g
        .params
        .iter()
        .filter(|q| q.ty.has_reals())
        .map(|q| q.ty.clone())
        .collect();
    let want_ret = if reals.is_empty() {
        g.ret.clone()
    } else {
        Type::Tuple([vec![g.ret.clone()], reals].concat())
    };
    if got_params != want_params || h.ret != want_ret {
        return fail(format!("the gradient program's signature is {got_params:?} -> {} instead of {want_params:?} -> {want_ret}", h.ret));
    }
    let text = show(h);
    let reloaded = super::util::load_text(&text, &h.name)
        .map_err(|m| format!("the printed gradient program {m}:\n{text}"))?;
    // Rational literals print as divisions (`(4.0 / 3.0)`), so the reloaded program is
    // compared by value, not by text.
    let a = args(case, &g, 44);
    let x = step(eval(h, &a, &opts()), "the gradient program")?;
    let y = step(
        eval(&reloaded, &a, &opts()),
        "the reloaded gradient program",
    )?;
    if let (Some((x, _)), Some((y, _))) = (x, y) {
        if x != y {
            return fail(format!(
                "the reloaded gradient program gives {} instead of {}:\n{text}",
                literal(&y),
                literal(&x)
            ));
        }
    }
    // Closed under differentiation: outside copied index terms the gradient program uses
    // only the seed-000 constructs (no build, and no seed-004 construct); scatter fusion's
    // lazy `if` segment test lives inside index maps only (docs/engines/dual.md §5).
    let mut subs = Vec::new();
    outside_index(&h.body, &mut subs);
    if let Some(bad) = subs.iter().find(|e| {
        !matches!(
            e.kind,
            ExprKind::Var(_)
                | ExprKind::Lit(_)
                | ExprKind::Array(_)
                | ExprKind::Tuple(_)
                | ExprKind::Proj(..)
                | ExprKind::Let(..)
                | ExprKind::Unary(..)
                | ExprKind::Binary(..)
                | ExprKind::Prim(..)
                | ExprKind::Index(..)
                | ExprKind::Gather(..)
                | ExprKind::Scatter(..)
        )
    }) {
        return fail(format!(
            "the gradient program uses `{}` outside index terms:\n{text}",
            bad.kind.form_name()
        ));
    }
    Pass::ok()
}
