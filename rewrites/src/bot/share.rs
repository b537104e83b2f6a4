//! Let-bound values that stay shared through bot (docs/rules/bot.md, "Encoding notes":
//! materialised lets).
//!
//! Translation encodes a `let` by sharing: the name stands for its value's e-class. That is
//! inlining, and for an array read at several indexes it lets the rules push every read
//! through the whole definition (`bot/index-build`), and through every earlier definition
//! of a chain of lets: a chain of n lets whose builds each read the previous array at
//! three indexes grows an e-graph exponential in n. In seed 000 a let-bound array is a
//! variable, and `build n (i => a[f(i)])` is stuck (Fig. 11: a gather of `a`).
//!
//! [`split`] restores that. It first floats every `let` outside all binders (not under a
//! `build`, nor in the index map of a `gather` or `scatter`) to the top of the body, in
//! evaluation order (sound: the language is pure and total, binder names are unique, and
//! outside binders every expression is evaluated exactly once), giving a spine
//! `let p1 = v1 in ... let pk = vk in core`. A spine `let` is **materialised** — its value
//! is transformed on its own and its names are variables in what follows — when its names
//! are used more than once in total, or once under a binder (where the use runs once per
//! index), unless its value is cheap (a variable or a literal: repeating it costs
//! nothing). Every other spine `let` is inlined by sharing, as before, into the one
//! segment that uses it. Each materialised value and the core become a *segment*: a
//! function of the parameters and the earlier materialised names, wrapped in the inlined
//! lets it needs.

use adora_core::ast::{Binding, Expr, ExprKind, Function, Name, Param, Pat};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::types::Type;
use adora_core::visit::{all_binders, free_vars, pat_names, scoped_children};
use std::collections::{BTreeSet, HashMap};

/// One segment of a split function.
pub(crate) struct Segment {
    /// The names a materialised segment binds (`None` for the core, the last segment).
    pub pat: Option<Pat>,
    /// The segment as a function: the original parameters, then the earlier materialised
    /// names, to the segment's value.
    pub function: Function,
}

/// A spine `let` after floating.
pub(super) struct Entry {
    /// Its pattern.
    pub pat: Pat,
    /// Its value.
    pub value: Expr,
}

/// The segments of `f` (see the module docs), or `None` when no `let` is materialised
/// (then bot runs on `f` as it is).
pub(crate) fn split(f: &Function) -> Result<Option<Vec<Segment>>> {
    adora_core::with_stack(|| split_here(f))
}

fn split_here(f: &Function) -> Result<Option<Vec<Segment>>> {
    // Floating is sound because binder names are unique, as in every elaborated program
    // (the checker requires it); a function that repeats one is refused, not repaired.
    let mut seen: BTreeSet<&Name> = f.params.iter().map(|p| &p.name).collect();
    if let Some((n, span)) = all_binders(&f.body)
        .into_iter()
        .find(|(n, _)| !seen.insert(n))
    {
        return Err(Diagnostic::new(
            ErrorKind::Internal,
            span,
            format!("internal error: bot needs an elaborated function, but `{n}` is bound twice"),
        ));
    }
    let mut spine = Vec::new();
    let core = float(f.body.clone(), &mut spine);
    if spine.is_empty() {
        return Ok(None);
    }
    let uses = count_uses(&spine, &core);
    let keep: Vec<bool> = spine
        .iter()
        .zip(&uses)
        .map(|(e, u)| !cheap(&e.value) && (u.count > 1 || u.under))
        .collect();
    if !keep.iter().any(|&k| k) {
        return Ok(None);
    }
    let index: HashMap<&Name, usize> = spine
        .iter()
        .enumerate()
        .flat_map(|(k, e)| pat_names(&e.pat).into_iter().map(move |n| (n, k)))
        .collect();
    let mut env: Vec<Binding> = adora_core::check::param_env(f);
    let mut segments = Vec::new();
    for (k, e) in spine.iter().enumerate() {
        if !keep[k] {
            continue;
        }
        let value = wrap(&spine, &keep, &index, e.value.clone(), &[]);
        let ty = adora_core::check::type_of(&env, &value)?;
        segments.push(Segment {
            pat: Some(e.pat.clone()),
            function: segment_function(f, &env, ty.clone(), value),
        });
        bind(&mut env, &e.pat, &ty);
    }
    // Dead lets stay in the core (translated, then dropped by extraction, as before).
    let dead: Vec<usize> = (0..spine.len())
        .filter(|&k| !cheap(&spine[k].value) && uses[k].count == 0)
        .collect();
    let value = wrap(&spine, &keep, &index, core, &dead);
    segments.push(Segment {
        pat: None,
        function: segment_function(f, &env, f.ret.clone(), value),
    });
    Ok(Some(segments))
}

fn segment_function(f: &Function, env: &[Binding], ret: Type, body: Expr) -> Function {
    Function {
        name: f.name.clone(),
        params: env
            .iter()
            .map(|b| Param {
                name: b.name.clone(),
                ty: b.ty.clone(),
                span: Span::DUMMY,
            })
            .collect(),
        ret,
        body,
    }
}

/// Adds the names of `pat` with their types (a tuple pattern takes a tuple's components).
fn bind(env: &mut Vec<Binding>, pat: &Pat, ty: &Type) {
    match (pat, ty) {
        (Pat::Tuple(xs), Type::Tuple(ts)) => env.extend(xs.iter().zip(ts).map(|(x, t)| Binding {
            name: x.clone(),
            ty: t.clone(),
        })),
        _ => {
            for x in pat_names(pat) {
                env.push(Binding {
                    name: x.clone(),
                    ty: ty.clone(),
                });
            }
        }
    }
}

/// Whether a value costs nothing to repeat: a variable or a literal.
fn cheap(v: &Expr) -> bool {
    matches!(v.kind, ExprKind::Var(_) | ExprKind::Lit(_))
}

/// Floats the `let`s of `e` that are outside every binder into `out` (in evaluation
/// order: a value's own lets first) and returns what remains. Only the constructs of the
/// seed-000 fragment are entered; any other construct is left as it is (translation
/// rejects it with its span).
pub(super) fn float(e: Expr, out: &mut Vec<Entry>) -> Expr {
    use ExprKind::*;
    let span = e.span;
    let all = |es: Vec<Expr>, out: &mut Vec<Entry>| -> Vec<Expr> {
        es.into_iter().map(|c| float(c, out)).collect()
    };
    let kind = match e.kind {
        Let(pat, v, b) => {
            let value = float(*v, out);
            out.push(Entry { pat, value });
            return float(*b, out);
        }
        Array(es) => Array(all(es, out)),
        Tuple(es) => Tuple(all(es, out)),
        Prim(p, es) => Prim(p, all(es, out)),
        Proj(x, k) => Proj(Box::new(float(*x, out)), k),
        Unary(op, x) => Unary(op, Box::new(float(*x, out))),
        Binary(op, a, b) => {
            let a = float(*a, out);
            Binary(op, Box::new(a), Box::new(float(*b, out)))
        }
        Index(x, js) => {
            let x = float(*x, out);
            Index(Box::new(x), all(js, out))
        }
        Gather(s, x, bs, ixs) => Gather(s, Box::new(float(*x, out)), bs, ixs),
        Scatter(s, x, bs, ixs) => Scatter(s, Box::new(float(*x, out)), bs, ixs),
        other => other,
    };
    Expr::new(kind, span)
}

/// The occurrences in `e` of the names in `names`, each with whether it lies under a
/// binder other than a `let` (a `build` body, an index map, a lambda, a loop body).
fn occurrences(e: &Expr, names: &BTreeSet<&Name>, under: bool, out: &mut Vec<(Name, bool)>) {
    if let ExprKind::Var(x) = &e.kind {
        if names.contains(x) {
            out.push((x.clone(), under));
        }
        return;
    }
    let is_let = matches!(e.kind, ExprKind::Let(..));
    for (c, bound) in scoped_children(e) {
        occurrences(c, names, under || (!is_let && !bound.is_empty()), out);
    }
}

/// How a spine entry's names are used: how many times, and whether once under a binder.
#[derive(Clone, Copy, Default)]
struct Uses {
    count: usize,
    under: bool,
}

/// How each spine entry's names are used (which decides whether it is materialised, see
/// the module docs). Uses are counted from the core backwards; a use inside a cheap
/// entry's value counts as many times as that entry is used (it is repeated wherever it
/// is used), a use inside any other value once (a dead value's uses included, so a value
/// it shares with a live use stays materialised).
fn count_uses(spine: &[Entry], core: &Expr) -> Vec<Uses> {
    let names: BTreeSet<&Name> = spine.iter().flat_map(|e| pat_names(&e.pat)).collect();
    let mut uses: HashMap<Name, Uses> = HashMap::new();
    let add = |uses: &mut HashMap<Name, Uses>, e: &Expr, times: usize, under: bool| {
        let mut occ = Vec::new();
        occurrences(e, &names, under, &mut occ);
        for (x, u) in occ {
            let slot = uses.entry(x).or_default();
            slot.count += times;
            slot.under |= u && times > 0;
        }
    };
    add(&mut uses, core, 1, false);
    let mut out = vec![Uses::default(); spine.len()];
    for (k, e) in spine.iter().enumerate().rev() {
        let mut own = Uses::default();
        for x in pat_names(&e.pat) {
            let u = uses.get(x).copied().unwrap_or_default();
            own.count += u.count;
            own.under |= u.under;
        }
        if cheap(&e.value) {
            add(&mut uses, &e.value, own.count, own.under);
        } else {
            add(&mut uses, &e.value, 1, false);
        }
        out[k] = own;
    }
    out
}

/// `value` wrapped in the inlined (not materialised) spine entries it needs, directly or
/// through other inlined entries, and in the entries `extra` (with what they need), in
/// spine order.
fn wrap(
    spine: &[Entry],
    keep: &[bool],
    index: &HashMap<&Name, usize>,
    value: Expr,
    extra: &[usize],
) -> Expr {
    let mut need: BTreeSet<usize> = BTreeSet::new();
    let mut todo: Vec<usize> = extra.to_vec();
    let inlined = |x: &Name| index.get(x).copied().filter(|&k| !keep[k]);
    todo.extend(free_vars(&value).iter().filter_map(inlined));
    while let Some(k) = todo.pop() {
        if need.insert(k) {
            todo.extend(free_vars(&spine[k].value).iter().filter_map(inlined));
        }
    }
    need.into_iter().rev().fold(value, |body, k| {
        let e = &spine[k];
        let span = e.value.span;
        Expr::new(
            ExprKind::Let(e.pat.clone(), Box::new(e.value.clone()), Box::new(body)),
            span,
        )
    })
}
