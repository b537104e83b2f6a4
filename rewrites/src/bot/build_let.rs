//! The build-let rule (seed 000, "Provably Correct, Asymptotically Efficient,
//! Higher-Order Reverse-Mode Automatic Differentiation", §5.1; docs/rules/bot.md,
//! "Materialised lets"): a `let` in a `build` body (outside the body's own binders) whose
//! value is read more than once there (or once under a binder), and whose value mentions
//! no other `let` of the body, becomes a `let` of a `build`,
//!
//! ```text
//! build sh (is => let x = v in b)
//!   ~>  let xs = build sh (js => v[is := js]) in build sh (is => b[x := xs[is]])
//! ```
//!
//! so that module `share` keeps `xs` materialised. Without it, translation inlines `x`
//! by sharing, and the rules push each read of `x` through its definition separately:
//! `v` is then computed once per read (the counterexample of `specs/theorems.md`,
//! S000-X5.1c, ops 12 → 18). Lifting is sound because the language is pure and total and
//! `v` sees only the build's binders and the enclosing scope; a lift whose result does not
//! type-check (a value that is not an array of scalars, which a `build` cannot collect)
//! is not made. Lets are lifted innermost first, so a lifted `let` at the head of an outer
//! `build`'s body is lifted again.

use super::share::Entry;
use crate::kit::subst::subst;
use adora_core::ast::{Expr, ExprKind, Function, Name, Pat};
use adora_core::check::check_function;
use adora_core::visit::{
    children_mut, free_vars, pat_names, rename_unique, scoped_children, NameSupply,
};
use std::collections::BTreeSet;

/// `f` with every liftable `let` of a `build` body lifted (see the module docs).
pub(crate) fn lift(f: &Function) -> Function {
    let params: Vec<Name> = f.params.iter().map(|p| p.name.clone()).collect();
    let mut g = Function {
        body: rename_unique(&params, &f.body),
        ..f.clone()
    };
    let mut supply = crate::kit::names::supply_for(&params, &g.body);
    let mut refused: BTreeSet<Name> = BTreeSet::new();
    let mut changed = false;
    loop {
        let mut body = g.body.clone();
        let Some(x) = lift_one(&mut body, &refused, &mut supply) else {
            break;
        };
        let candidate = Function { body, ..g.clone() };
        if check_function(&candidate).is_ok() {
            g = candidate;
            changed = true;
        } else {
            refused.insert(x);
        }
    }
    if changed {
        g
    } else {
        f.clone()
    }
}

/// Lifts the first liftable `let` in post-order (innermost first); its name, or `None`
/// when there is none.
fn lift_one(e: &mut Expr, refused: &BTreeSet<Name>, supply: &mut NameSupply) -> Option<Name> {
    for c in children_mut(e) {
        if let Some(x) = lift_one(c, refused, supply) {
            return Some(x);
        }
    }
    let ExprKind::Build(sh, is, body) = &e.kind else {
        return None;
    };
    // The body's lets outside its binders, floated to its head (module `share`).
    let mut chain = Vec::new();
    let core = super::share::float((**body).clone(), &mut chain);
    let k = (0..chain.len()).find(|&k| liftable(&chain, k, &core, refused))?;
    let Pat::Var(x) = &chain[k].pat else {
        return None;
    };
    let (x, span) = (x.clone(), e.span);
    let xs = supply.fresh(&x);
    let js: Vec<Name> = is.iter().map(|i| supply.fresh(i)).collect();
    let var = |n: &Name| Expr::new(ExprKind::Var(n.clone()), span);
    let rename: Vec<(Name, Expr)> = is.iter().cloned().zip(js.iter().map(var)).collect();
    let value = subst(&chain[k].value, &rename);
    let read = Expr::new(
        ExprKind::Index(Box::new(var(&xs)), is.iter().map(var).collect()),
        span,
    );
    let to_read = [(x.clone(), read)];
    let rest = chain
        .iter()
        .enumerate()
        .rev()
        .filter(|(j, _)| *j != k)
        .fold(subst(&core, &to_read), |b, (j, c)| {
            let v = if j > k {
                subst(&c.value, &to_read)
            } else {
                c.value.clone()
            };
            let at = v.span;
            Expr::new(ExprKind::Let(c.pat.clone(), Box::new(v), Box::new(b)), at)
        });
    let arrays = Expr::new(ExprKind::Build(sh.clone(), js, Box::new(value)), span);
    let outer = Expr::new(
        ExprKind::Build(sh.clone(), is.clone(), Box::new(rest)),
        span,
    );
    *e = Expr::new(
        ExprKind::Let(Pat::Var(xs), Box::new(arrays), Box::new(outer)),
        span,
    );
    Some(x)
}

/// Whether entry `k` of a build body's floated `chain` (then `core`) can be lifted: a
/// single name, not refused, a value that is not [`cheap`] and mentions no earlier entry (it
/// sees only the build's binders and the enclosing scope), read repeatedly afterwards.
fn liftable(chain: &[Entry], k: usize, core: &Expr, refused: &BTreeSet<Name>) -> bool {
    let Pat::Var(x) = &chain[k].pat else {
        return false;
    };
    let v = &chain[k].value;
    if cheap(v) || refused.contains(x) {
        return false;
    }
    let free = free_vars(v);
    if chain[..k]
        .iter()
        .any(|c| pat_names(&c.pat).iter().any(|n| free.contains(*n)))
    {
        return false;
    }
    let later: Vec<&Expr> = chain[k + 1..]
        .iter()
        .map(|c| &c.value)
        .chain([core])
        .collect();
    let (mut n, mut under) = (0, false);
    for e in later {
        occurrences(e, x, false, &mut n, &mut under);
    }
    n > 1 || under
}

/// Whether a value costs no more to repeat than to read from an array: a variable, a
/// literal, or a variable indexed by variables and literals.
fn cheap(v: &Expr) -> bool {
    let atom = |e: &Expr| matches!(e.kind, ExprKind::Var(_) | ExprKind::Lit(_));
    match &v.kind {
        ExprKind::Index(x, js) => atom(x) && js.iter().all(atom),
        _ => atom(v),
    }
}

/// Counts the occurrences of `x` in `e` into `n`, and whether one lies under a binder
/// other than a `let` (where the read runs once per index) into `under`.
fn occurrences(e: &Expr, x: &Name, inside: bool, n: &mut usize, under: &mut bool) {
    if let ExprKind::Var(y) = &e.kind {
        if y == x {
            *n += 1;
            *under |= inside;
        }
        return;
    }
    let is_let = matches!(e.kind, ExprKind::Let(..));
    for (c, binds) in scoped_children(e) {
        occurrences(c, x, inside || (!is_let && !binds.is_empty()), n, under);
    }
}
