//! Helpers over Linear A expressions: free variables, result arities, variable
//! references, and the code size of seed 002 §8.

use super::ast::{Atom, LExpr, LKind, LinearDef, LinearProgram, Op};
use crate::ast::Name;
use std::collections::{BTreeSet, HashMap};

/// The variables an operation reads (argument variables, then the free variables of
/// gather / scatter index maps other than the map's binders), in order.
pub fn op_vars(op: &Op, args: &[Atom]) -> Vec<Name> {
    let mut out: Vec<Name> = args.iter().filter_map(Atom::var).cloned().collect();
    if let Op::Gather(_, bs, ix) | Op::Scatter(_, bs, ix) = op {
        for e in ix {
            out.extend(
                crate::visit::free_vars(e)
                    .into_iter()
                    .filter(|v| !bs.contains(v)),
            );
        }
    }
    out
}

/// The variables read directly by `e` (not those of sub-expressions), in order.
pub fn direct_uses(e: &LExpr) -> Vec<Name> {
    let vars = |a: &[Atom], l: &[Name]| -> Vec<Name> {
        a.iter()
            .filter_map(Atom::var)
            .chain(l.iter())
            .cloned()
            .collect()
    };
    match &e.kind {
        LKind::Ret(a, l) | LKind::Call(_, a, l) => vars(a, l),
        LKind::Op { op, args, .. } => op_vars(op, args),
        LKind::Dup(x) | LKind::Drop(x) | LKind::Unpack(_, x, _) => vec![x.clone()],
        LKind::Let(..) => Vec::new(),
    }
}

/// The free variables of `e`.
pub fn free_vars(e: &LExpr) -> BTreeSet<Name> {
    let mut out: BTreeSet<Name> = direct_uses(e).into_iter().collect();
    match &e.kind {
        LKind::Let(b, bound, body) => {
            let mut fb = free_vars(body);
            for n in b.nl.iter().chain(&b.lin) {
                fb.remove(n);
            }
            out.extend(free_vars(bound));
            out.extend(fb);
        }
        LKind::Unpack(names, _, body) => {
            let mut fb = free_vars(body);
            for n in names {
                fb.remove(n);
            }
            out.extend(fb);
        }
        _ => {}
    }
    out
}

/// Numbers of non-linear and linear results of each def: its signature's arities.
pub fn signatures(p: &LinearProgram) -> HashMap<Name, (usize, usize)> {
    p.defs
        .iter()
        .map(|d| (d.name.clone(), (d.ret.len(), d.lret.len())))
        .collect()
}

/// The numbers of non-linear and linear results of `e` (calls: from `sigs`; unknown
/// callees count as none).
pub fn arity(e: &LExpr, sigs: &HashMap<Name, (usize, usize)>) -> (usize, usize) {
    let mut cur = e;
    loop {
        match &cur.kind {
            LKind::Ret(a, l) => return (a.len(), l.len()),
            LKind::Let(_, _, b) | LKind::Unpack(_, _, b) => cur = b,
            LKind::Call(f, _, _) => return sigs.get(f).copied().unwrap_or((0, 0)),
            LKind::Op { linear, .. } => return if *linear { (0, 1) } else { (1, 0) },
            LKind::Dup(_) => return (0, 2),
            LKind::Drop(_) => return (0, 0),
        }
    }
}

/// Code size of an expression (seed 002 §8: every node of the grammar counts 1): each
/// expression node, each atom and variable reference, each binder, each static type
/// annotation (of `zero`), and each node of an index-map expression.
pub fn expr_size(e: &LExpr) -> usize {
    let mut n = 0;
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        n += 1;
        match &x.kind {
            LKind::Ret(a, l) | LKind::Call(_, a, l) => n += a.len() + l.len(),
            LKind::Let(b, bound, body) => {
                n += b.len();
                stack.push(bound);
                stack.push(body);
            }
            LKind::Unpack(names, _, body) => {
                n += names.len() + 1;
                stack.push(body);
            }
            LKind::Op { op, args, .. } => {
                n += args.len();
                match op {
                    Op::Zero(_) => n += 1,
                    Op::Gather(_, bs, ix) | Op::Scatter(_, bs, ix) => {
                        n += bs.len() + ix.iter().map(crate::visit::node_count).sum::<usize>();
                    }
                    _ => {}
                }
            }
            LKind::Dup(_) | LKind::Drop(_) => n += 1,
        }
    }
    n
}

/// Code size of a def: its body plus one per parameter and result type.
pub fn def_size(d: &LinearDef) -> usize {
    1 + d.params.len() + d.lparams.len() + d.ret.len() + d.lret.len() + expr_size(&d.body)
}

/// Code size of a program: the sum over its defs.
pub fn program_size(p: &LinearProgram) -> usize {
    p.defs.iter().map(def_size).sum()
}
