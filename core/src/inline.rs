//! Inlining of `def` calls with capture-avoiding renaming.
//!
//! A call `f(a1, ..., an)` of `def f(p1: T1, ..., pn: Tn) = body` becomes
//! `let q1 = a1 in ... let qn = an in body'`, where the `qi` and every binder of `body'`
//! get names unique in the whole result (see [`Uniquifier`]): no argument can be captured
//! by a parameter binding, and the callee's own binders never clash with the caller's.
//! The whole entry body is renamed in the same pass, so the result obeys the elaborated
//! invariant "every binder name is unique in the function and distinct from the
//! parameters": a binder keeps its name when no earlier binder (in pre-order) or
//! parameter has it, and otherwise becomes `base_k` with the smallest `k >= 1` such that
//! `base_k` occurs in no `def` of the program and was not generated before.
//!
//! The size and depth of the result are computed from the callees' sizes *before*
//! anything is built, so an exponential blow-up (a chain of `def`s each calling the next
//! twice) fails quickly with [`ErrorKind::Resource`].

use crate::ast::{Def, Expr, ExprKind, Name, Pat};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use crate::limits::{MAX_DEPTH, MAX_NODES};
use crate::visit::{all_names, children, subexprs, ExpandCall, Uniquifier};
use std::collections::HashMap;

fn index_of(defs: &[Def]) -> HashMap<&str, usize> {
    let mut m = HashMap::new();
    for (i, d) in defs.iter().enumerate() {
        m.entry(d.name.as_str()).or_insert(i);
    }
    m
}

/// The calls in `e` (callee name and span of the call), in source order. Iterative.
pub fn calls_in(e: &Expr) -> Vec<(&Name, Span)> {
    subexprs(e)
        .into_iter()
        .filter_map(|x| match &x.kind {
            ExprKind::Call(f, _) => Some((f, x.span)),
            _ => None,
        })
        .collect()
}

/// The indices of `defs` ordered so that every `def` comes after the `def`s it calls
/// (calls of unknown names are ignored). Direct or mutual recursion is an
/// [`ErrorKind::Name`] error at the call that closes the cycle, with the cycle in a note.
pub fn call_order(defs: &[Def]) -> Result<Vec<usize>> {
    let index = index_of(defs);
    let edges: Vec<Vec<(usize, Span)>> = defs
        .iter()
        .map(|d| {
            calls_in(&d.body)
                .into_iter()
                .filter_map(|(f, s)| index.get(f.as_str()).map(|&j| (j, s)))
                .collect()
        })
        .collect();
    // 0: unvisited, 1: on the current path, 2: done.
    let mut color = vec![0u8; defs.len()];
    let mut order = Vec::with_capacity(defs.len());
    for root in 0..defs.len() {
        if color[root] != 0 {
            continue;
        }
        color[root] = 1;
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(top) = stack.last_mut() {
            let (v, k) = *top;
            if k < edges[v].len() {
                top.1 += 1;
                let (w, span) = edges[v][k];
                match color[w] {
                    0 => {
                        color[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => {
                        let from = stack.iter().position(|&(x, _)| x == w).unwrap_or(0);
                        let mut cycle: Vec<&str> = stack[from..]
                            .iter()
                            .map(|&(x, _)| defs[x].name.as_str())
                            .collect();
                        cycle.push(&defs[w].name);
                        return Err(Diagnostic::new(
                            ErrorKind::Name,
                            span,
                            "recursive definitions are not supported",
                        )
                        .with_note(format!("call cycle: {}", cycle.join(" -> "))));
                    }
                    _ => {}
                }
            } else {
                color[v] = 2;
                order.push(v);
                stack.pop();
            }
        }
    }
    Ok(order)
}

/// Size (nodes) and depth of an expression once its calls are inlined, given the sizes and
/// depths of the inlined callees; saturating.
fn measure(e: &Expr, index: &HashMap<&str, usize>, memo: &[(usize, usize)]) -> (usize, usize) {
    if let ExprKind::Call(f, args) = &e.kind {
        if let Some(&g) = index.get(f.as_str()) {
            let (sg, dg) = memo[g];
            let n = args.len();
            let mut size = sg.saturating_add(n);
            let mut depth = dg.saturating_add(n);
            for (i, a) in args.iter().enumerate() {
                let (sa, da) = measure(a, index, memo);
                size = size.saturating_add(sa);
                depth = depth.max(da.saturating_add(i + 1));
            }
            return (size, depth);
        }
    }
    let mut size = 1usize;
    let mut depth = 0usize;
    for c in children(e) {
        let (sc, dc) = measure(c, index, memo);
        size = size.saturating_add(sc);
        depth = depth.max(dc);
    }
    (size, depth.saturating_add(1))
}

struct Inliner<'a> {
    defs: &'a [Def],
    index: HashMap<&'a str, usize>,
}

impl ExpandCall for Inliner<'_> {
    fn expand_call(&mut self, u: &mut Uniquifier, call: &Expr) -> Expr {
        let ExprKind::Call(f, args) = &call.kind else {
            return u.rename(call, self);
        };
        let Some(&g) = self.index.get(f.as_str()) else {
            return crate::visit::KeepCalls.expand_call(u, call);
        };
        let def = &self.defs[g];
        let mut lets = Vec::with_capacity(args.len());
        for (p, a) in def.params.iter().zip(args) {
            let q = u.supply.claim(&p.name);
            let v = u.rename(a, self);
            lets.push((q, v));
        }
        let caller_scope = std::mem::take(&mut u.scope);
        for (p, (q, _)) in def.params.iter().zip(&lets) {
            u.scope.push(&p.name, q.clone());
        }
        let body = u.rename(&def.body, self);
        u.scope = caller_scope;
        lets.into_iter().rev().fold(body, |acc, (q, v)| {
            Expr::new(
                ExprKind::Let(Pat::Var(q), Box::new(v), Box::new(acc)),
                call.span,
            )
        })
    }
}

/// Inlines every call in the body of `defs[entry]` and makes its binders unique (see the
/// module documentation). `defs` must be checked, free of recursion, and elaborated one by
/// one (typed literals, explicit broadcasts; calls remain). Fails with
/// [`ErrorKind::Resource`] when the result would exceed [`MAX_NODES`] nodes or
/// [`MAX_DEPTH`] depth, before building it.
pub fn inline_entry(defs: &[Def], entry: usize) -> Result<Expr> {
    let order = call_order(defs)?;
    let index = index_of(defs);
    let mut memo = vec![(0usize, 0usize); defs.len()];
    for &i in &order {
        memo[i] = measure(&defs[i].body, &index, &memo);
    }
    let d = &defs[entry];
    let (size, depth) = memo[entry];
    if size > MAX_NODES {
        let shown = if size == usize::MAX {
            "too many".to_string()
        } else {
            size.to_string()
        };
        return Err(Diagnostic::new(
            ErrorKind::Resource,
            d.name_span,
            format!(
                "`{}` is too large after inlining: {shown} nodes (the limit is {MAX_NODES})",
                d.name
            ),
        ));
    }
    if depth > MAX_DEPTH {
        return Err(Diagnostic::new(
            ErrorKind::Resource,
            d.name_span,
            format!(
                "`{}` is too deep after inlining: depth {depth} (the limit is {MAX_DEPTH})",
                d.name
            ),
        ));
    }
    let params: Vec<Name> = d.params.iter().map(|p| p.name.clone()).collect();
    let mut names = std::collections::BTreeSet::new();
    for def in defs {
        names.extend(def.params.iter().map(|p| p.name.clone()));
        names.extend(all_names(&def.body));
    }
    let mut u = Uniquifier::new(&params, &names);
    Ok(u.rename(&d.body, &mut Inliner { defs, index }))
}
