//! Shrinking: the smaller well-typed variants of a case, most aggressive first.
//!
//! Steps: drop an unused helper `def`; drop an unused parameter of `main` (with its
//! input) unless it is the only one; make a closed subexpression of `main` (one using
//! only `main`'s parameters) its whole body, with its type as the result type; replace a
//! subexpression (in pre-order, so large subtrees go first) by a strictly smaller
//! expression of the same type — one of its own children that does not use the child's
//! binders, a visible variable, or a constant (`0`, `false`, `replicate(n, 0)`, tuples of
//! those); move an input scalar towards `0`, then `1`, then its integer part.
//!
//! Types come from the checker ([`SurfaceTypes`]). They are contextual (an integer
//! literal where a real is expected is typed `R`), so a replacement can still be
//! ill-typed in its new place (`let t = y / 4 in x * t` → `let t = 4 in x * t`): every
//! candidate program is confirmed by [`check::check_program`]. Every step thus keeps the
//! program well typed, and shrinking ends at a small readable counterexample.

use super::mk;
use super::typing::{Env, SurfaceTypes};
use super::walk::{replace_at, visit};
use super::Case;
use crate::values::Rat;
use adora_core::ast::{Def, Expr, ExprKind, Prim};
use adora_core::check;
use adora_core::inline::calls_in;
use adora_core::types::{Base, Type};
use adora_core::visit::{free_vars, node_count, scoped_children};
use adora_semantics::value::Value;
use num_traits::{One, Zero};

/// The smallest constant of type `ty`.
pub fn zero_of(ty: &Type) -> Expr {
    match ty {
        Type::Tuple(ts) => mk::tuple(ts.iter().map(zero_of).collect()),
        Type::Array(b, s) => match s.split_first() {
            None => match b {
                Base::R => mk::real(0, 1),
                Base::Z => mk::int(0),
                Base::B => mk::boolean(false),
            },
            Some((n, rest)) => mk::prim(
                Prim::Replicate(*n),
                vec![zero_of(&Type::Array(*b, rest.to_vec()))],
            ),
        },
    }
}

/// All one-step shrinks of `case`, most aggressive first.
pub fn candidates(case: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    let defs = &case.program.defs;
    let types = SurfaceTypes::of(&case.program);
    let main_pos = defs
        .iter()
        .rposition(|d| d.name == "main")
        .unwrap_or(defs.len().saturating_sub(1));
    // 1. unused helper defs
    for (k, d) in defs.iter().enumerate() {
        if k != main_pos
            && !defs
                .iter()
                .any(|o| o.name != d.name && calls_in(&o.body).iter().any(|c| *c.0 == d.name))
        {
            let mut c = case.clone();
            c.program.defs.remove(k);
            out.push(c);
        }
    }
    // 2. unused parameters of main
    let main = &defs[main_pos];
    if main.params.len() > 1 {
        let used = free_vars(&main.body);
        for (k, p) in main.params.iter().enumerate() {
            if !used.contains(&p.name) {
                let mut c = case.clone();
                c.program.defs[main_pos].params.remove(k);
                c.inputs.remove(k);
                out.push(c);
            }
        }
    }
    // 3. a closed proper subexpression of main becomes its whole body (and its type the
    //    result type)
    let params = main.params.len();
    let mut env: Env = main
        .params
        .iter()
        .map(|p| (p.name.clone(), p.ty.clone()))
        .collect();
    visit(
        &types,
        &mut env,
        &main.body,
        &mut Vec::new(),
        &mut |e, env, path| {
            if path.is_empty() {
                return;
            }
            let closed = free_vars(e).iter().all(|v| {
                env.iter()
                    .rposition(|(n, _)| n == v)
                    .is_some_and(|k| k < params)
            });
            if let (true, Some(t)) = (closed, types.get(e)) {
                let mut c = case.clone();
                c.program.defs[main_pos].body = e.clone();
                c.program.defs[main_pos].ret = t.clone();
                out.push(c);
            }
        },
    );
    // 4. subexpression replacements, main first
    let mut order: Vec<usize> = vec![main_pos];
    order.extend((0..defs.len()).filter(|&k| k != main_pos));
    for k in order {
        for (path, new) in replacements(&types, &defs[k]) {
            let mut c = case.clone();
            if replace_at(&mut c.program.defs[k].body, &path, new) {
                out.push(c);
            }
        }
    }
    // Contextual types can admit an ill-typed replacement (see the module documentation).
    out.retain(|c| check::check_program(&c.program).is_ok());
    // 5. inputs towards 0 and 1
    for (k, v) in case.inputs.iter().enumerate() {
        for w in shrink_value(v) {
            let mut c = case.clone();
            c.inputs[k] = w;
            out.push(c);
        }
    }
    out
}

/// (path, replacement) pairs for the body of `d`.
fn replacements(types: &SurfaceTypes, d: &Def) -> Vec<(Vec<usize>, Expr)> {
    let mut out = Vec::new();
    let mut env: Env = d
        .params
        .iter()
        .map(|p| (p.name.clone(), p.ty.clone()))
        .collect();
    visit(
        types,
        &mut env,
        &d.body,
        &mut Vec::new(),
        &mut |e, env, path| {
            let Some(ty) = types.get(e) else {
                return;
            };
            let size = node_count(e);
            if size <= 1 {
                // A leaf: a literal other than the smallest one still shrinks to it.
                let z = zero_of(ty);
                if z != *e && matches!(e.kind, ExprKind::Lit(_)) && node_count(&z) == 1 {
                    out.push((path.clone(), z));
                }
                return;
            }
            let mut local: Vec<Expr> = Vec::new();
            let z = zero_of(ty);
            if node_count(&z) < size {
                local.push(z);
            }
            for (c, bound) in scoped_children(e) {
                let fv = free_vars(c);
                if !bound.iter().any(|n| fv.contains(*n)) && types.get(c) == Some(ty) {
                    local.push(c.clone());
                }
            }
            let mut seen: Vec<&str> = Vec::new();
            for (n, t) in env.iter().rev() {
                if seen.contains(&n.as_str()) {
                    continue;
                }
                seen.push(n);
                if t == ty {
                    local.push(mk::var(n));
                }
            }
            let mut uniq: Vec<Expr> = Vec::new();
            for x in local {
                if !uniq.contains(&x) && x != *e && node_count(&x) < size {
                    uniq.push(x);
                }
            }
            out.extend(uniq.into_iter().map(|x| (path.clone(), x)));
        },
    );
    out
}

fn shrink_rat(r: &Rat) -> Vec<Rat> {
    let mut out = Vec::new();
    if !r.is_zero() {
        out.push(Rat::zero());
        if !r.is_one() {
            out.push(Rat::one());
        }
        if !r.is_integer() {
            out.push(r.trunc());
        }
    }
    out
}

fn shrink_value(v: &Value<Rat>) -> Vec<Value<Rat>> {
    let mut out = Vec::new();
    match v {
        Value::Real(t) => {
            for (k, x) in t.data.iter().enumerate() {
                for y in shrink_rat(x) {
                    let mut t2 = t.clone();
                    t2.data[k] = y;
                    out.push(Value::Real(t2));
                }
            }
        }
        Value::Int(t) => {
            for (k, x) in t.data.iter().enumerate() {
                if *x != 0 {
                    let mut t2 = t.clone();
                    t2.data[k] = 0;
                    out.push(Value::Int(t2));
                }
            }
        }
        Value::Bool(t) => {
            for (k, x) in t.data.iter().enumerate() {
                if *x {
                    let mut t2 = t.clone();
                    t2.data[k] = false;
                    out.push(Value::Bool(t2));
                }
            }
        }
        Value::Tuple(vs) => {
            for (k, x) in vs.iter().enumerate() {
                for y in shrink_value(x) {
                    let mut vs2 = vs.clone();
                    vs2[k] = y;
                    out.push(Value::Tuple(vs2));
                }
            }
        }
    }
    out
}
