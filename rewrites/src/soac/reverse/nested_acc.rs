//! Loops whose accumulator nests a tuple in a tuple get a flat accumulator, one
//! component per array leaf (our decision; docs/engines/soac-reverse.md, "Loops"): the
//! loop rule (seed 004 §4.2, §4.3) checkpoints each accumulator component in an array
//! of its iterations, and arrays hold one base type, so every component must be an
//! array. The rewrite, for an accumulator of type `T` with leaves at paths `p1 … pm`:
//!
//! ```text
//! loop (acc = init) for i < n do body
//!   = let a0 = init in
//!     let r = loop ((l1, …, lm) = (a0.p1, …, a0.pm)) for i < n do
//!               let acc = T(l1, …, lm) in let b = body in (b.p1, …, b.pm)
//!     in T(r.0, …, r.(m-1))
//! ```
//!
//! where `T(x1, …, xm)` rebuilds the nested tuple from its leaves. Names come from one
//! supply seeded with every name of the function (`crate::kit::names`); the result is
//! re-checked by the caller.

use super::ir::{mk, var};
use crate::kit::names::supply_for;
use adora_core::ast::{Expr, ExprKind, Function, Name, Pat};
use adora_core::check::NodeTypes;
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::types::Type;
use adora_core::visit::{rebuild, NameSupply, Rebuild};

/// `f` with every loop whose accumulator nests tuples rewritten to a flat accumulator
/// (module documentation); `f` itself when it has none.
pub fn flatten_nested_accumulators(f: &Function) -> Result<Function> {
    adora_core::with_stack(|| {
        let types = adora_core::check::node_types(f)?;
        let names: Vec<Name> = f.params.iter().map(|p| p.name.clone()).collect();
        let mut fl = Flatten {
            types: &types,
            supply: supply_for(&names, &f.body),
            error: None,
        };
        let body = fl.go(&f.body);
        match fl.error {
            Some(d) => Err(d),
            None => Ok(Function { body, ..f.clone() }),
        }
    })
}

struct Flatten<'a> {
    types: &'a NodeTypes,
    supply: NameSupply,
    error: Option<Diagnostic>,
}

impl Rebuild for Flatten<'_> {
    fn binder(&mut self, name: &Name) -> Name {
        name.clone()
    }
    fn child(&mut self, e: &Expr, _: &[(Name, Name)]) -> Expr {
        self.go(e)
    }
}

fn proj(e: Expr, path: &[usize]) -> Expr {
    path.iter()
        .fold(e, |acc, &k| mk(ExprKind::Proj(Box::new(acc), k)))
}

fn let_in(p: Pat, v: Expr, b: Expr) -> Expr {
    mk(ExprKind::Let(p, Box::new(v), Box::new(b)))
}

/// The paths of the array leaves of `t`, in order.
fn leaves(t: &Type, path: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    match t {
        Type::Array(..) => out.push(path.clone()),
        Type::Tuple(ts) => {
            for (k, c) in ts.iter().enumerate() {
                path.push(k);
                leaves(c, path, out);
                path.pop();
            }
        }
    }
}

/// The nested tuple of type `t` whose leaves, in order, are `xs` (consumed from the front).
fn rebuild_tuple(t: &Type, xs: &mut std::slice::Iter<'_, Expr>) -> Expr {
    match t {
        Type::Array(..) => xs.next().cloned().unwrap_or_else(|| var("?")),
        Type::Tuple(ts) => mk(ExprKind::Tuple(
            ts.iter().map(|c| rebuild_tuple(c, xs)).collect(),
        )),
    }
}

fn nests(t: &Type) -> bool {
    matches!(t, Type::Tuple(ts) if ts.iter().any(|c| matches!(c, Type::Tuple(_))))
}

impl Flatten<'_> {
    fn go(&mut self, e: &Expr) -> Expr {
        let ExprKind::Loop {
            acc,
            init,
            var: v,
            count,
            body,
        } = &e.kind
        else {
            return rebuild(e, self);
        };
        let ty = match self.types.get(init) {
            Some(t) => t.clone(),
            None => {
                self.error.get_or_insert_with(|| {
                    Diagnostic::new(
                        ErrorKind::Internal,
                        e.span,
                        "internal error in engine soac: an untyped loop accumulator",
                    )
                });
                return e.clone();
            }
        };
        if !nests(&ty) {
            return rebuild(e, self);
        }
        let init = self.go(init);
        let body = self.go(body);
        let mut paths = Vec::new();
        leaves(&ty, &mut Vec::new(), &mut paths);
        let base = match acc {
            Pat::Var(a) => a.clone(),
            Pat::Tuple(xs) => xs.first().cloned().unwrap_or_else(|| "acc".into()),
        };
        let a0 = self.supply.fresh(&format!("{base}_init"));
        let ls: Vec<Name> = paths.iter().map(|_| self.supply.fresh(&base)).collect();
        let b = self.supply.fresh(&format!("{base}_next"));
        let r = self.supply.fresh(&format!("{base}_out"));
        let flat_init = mk(ExprKind::Tuple(
            paths.iter().map(|p| proj(var(&a0), p)).collect(),
        ));
        let lvars: Vec<Expr> = ls.iter().map(|l| var(l)).collect();
        let rebuilt = rebuild_tuple(&ty, &mut lvars.iter());
        let next = mk(ExprKind::Tuple(
            paths.iter().map(|p| proj(var(&b), p)).collect(),
        ));
        let inner = let_in(acc.clone(), rebuilt, let_in(Pat::Var(b), body, next));
        let lp = mk(ExprKind::Loop {
            acc: Pat::Tuple(ls),
            init: Box::new(flat_init),
            var: v.clone(),
            count: *count,
            body: Box::new(inner),
        });
        let outs: Vec<Expr> = (0..paths.len()).map(|k| proj(var(&r), &[k])).collect();
        let result = rebuild_tuple(&ty, &mut outs.iter());
        let_in(Pat::Var(a0), init, let_in(Pat::Var(r), lp, result))
    }
}
