//! `lin`: the work of Linear A programs (seed 002 §4.3), with array primitives.
//!
//! Per construct (`|T|` is the number of scalars of type `T`; `|T|_R` its real scalars):
//!
//! | construct | work |
//! |---|---|
//! | non-linear arithmetic (`- ! + - * / % == < && ...`, `exp log sin cos tanh sqrt abs floor real min max pow`) | `|result|` (1 per scalar: §4.3 "every non-linear primitive costs 1") |
//! | linear `da + db`, linear scaling `x * dy` | `|result|` |
//! | `drop(x)` (linear or not) | `|type of x|_R` |
//! | data movement, linear or not: variable, tuple, array literal, `index`, `one_hot`, `gather`, `scatter`, `sum`, `sum_outer`, `replicate`, `transpose`, `reshape`, `append`, `split`, `stack`, `select`, `iota` | `max(0, |inputs| - |result|)` |
//! | `zero(T)`, `dup`, literals, returns, `let`, unpacking | 0 (plus the work of sub-expressions) |
//! | `f(a ; da)` | the work of `f`'s body |
//!
//! The rule for data movement is ours (the paper has scalars only): "inputs" are the data
//! operands — every operand of variables, tuples, array literals, `stack` and `append`;
//! the array operand of the others (not indices, not the condition of `select`, not the
//! constant `0.0` branch of a masked `select`). It charges what the operation costs when
//! written with the paper's scalar forms (`dup` free, `+` and `drop` 1 per scalar): a
//! `sum` of `n` scalars is `n - 1` additions, a `select` drops the branch it does not
//! take, an `index` drops the rest of the array, a `gather` drops what it does not read.
//! Without it, `sum` (which consumes `n` scalars and returns 1) would break Lemma 4.3, and
//! `sum ↔ replicate` would break the exact work preservation of Theorem 7.1. With it, for
//! every linear operation `f : n scalars → m scalars` and its transpose,
//! `W(f) + m = max(n, m) = W(fᵀ) + n`, which is Theorem 7.1's amortised equality.
//!
//! Linear A has static shapes and no control flow, so the work is a function of the
//! program alone (Theorem 4.1, claim 1): [`work`] computes it from the types, without
//! evaluating anything.

use adora_core::ast::{Name, Prim};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::linear::check::{lit_type, masked_branch, op_type, DefTypes, ProgramTypes};
use adora_core::linear::{check_program, Atom, LExpr, LKind, LinearDef, LinearProgram, Op};
use adora_core::types::{Base, Type};
use std::collections::HashMap;

/// Real scalars of a type (`|T|_R`).
pub fn real_scalars(t: &Type) -> u64 {
    match t {
        Type::Array(Base::R, s) => s.iter().product::<usize>() as u64,
        Type::Array(..) => 0,
        Type::Tuple(ts) => ts.iter().map(real_scalars).sum(),
    }
}

/// Scalars of a type (`|T|`).
pub fn scalars(t: &Type) -> u64 {
    t.size() as u64
}

/// Whether an operation is arithmetic (charged per result scalar) rather than data
/// movement (charged by [`movement_work`]).
pub fn is_arithmetic(op: &Op) -> bool {
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

/// The data operands of a data-movement operation (see the module documentation).
pub fn data_operands(op: &Op, args: &[Atom]) -> Vec<usize> {
    match op {
        Op::Id | Op::Tuple | Op::Array | Op::Prim(Prim::Stack) | Op::Prim(Prim::Append) => {
            (0..args.len()).collect()
        }
        Op::Prim(Prim::Select) => {
            let m = masked_branch(op, args);
            [1usize, 2].into_iter().filter(|k| Some(*k) != m).collect()
        }
        Op::Zero(_) | Op::Prim(Prim::Iota(_)) => Vec::new(),
        _ => vec![0],
    }
}

/// `max(0, inputs - result)`.
pub fn movement_work(inputs: u64, result: u64) -> u64 {
    inputs.saturating_sub(result)
}

/// The work of one operation given its argument and result types.
pub fn op_work(op: &Op, args: &[Atom], arg_tys: &[Type], result: &Type) -> u64 {
    if is_arithmetic(op) {
        return scalars(result);
    }
    let inputs: u64 = data_operands(op, args)
        .into_iter()
        .filter_map(|k| arg_tys.get(k))
        .map(scalars)
        .sum();
    movement_work(inputs, scalars(result))
}

/// The work of evaluating def `entry` of `p` (checked first).
pub fn work(p: &LinearProgram, entry: &str) -> Result<u64> {
    let types = check_program(p)?;
    let mut memo = HashMap::new();
    def_work(p, &types, entry, &mut memo)
}

/// The work of every def of `p`, by name.
pub fn all_work(p: &LinearProgram) -> Result<HashMap<Name, u64>> {
    let types = check_program(p)?;
    let mut memo = HashMap::new();
    for d in &p.defs {
        def_work(p, &types, &d.name, &mut memo)?;
    }
    Ok(memo)
}

fn def_work(
    p: &LinearProgram,
    types: &ProgramTypes,
    name: &str,
    memo: &mut HashMap<Name, u64>,
) -> Result<u64> {
    if let Some(w) = memo.get(name) {
        return Ok(*w);
    }
    let d = p
        .def(name)
        .ok_or_else(|| Diagnostic::new(ErrorKind::Name, Span::DUMMY, format!("no def `{name}`")))?;
    let dt = types.def(name);
    let w = expr_work(p, types, &dt, &d.body, memo)?;
    memo.insert(name.to_string(), w);
    Ok(w)
}

fn atom_ty(dt: &DefTypes, a: &Atom) -> Type {
    match a {
        Atom::Var(v) => dt.ty(v),
        Atom::Lit(l) => lit_type(l),
    }
}

fn expr_work(
    p: &LinearProgram,
    types: &ProgramTypes,
    dt: &DefTypes,
    e: &LExpr,
    memo: &mut HashMap<Name, u64>,
) -> Result<u64> {
    let mut total = 0u64;
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        match &x.kind {
            LKind::Let(_, a, b) => {
                stack.push(a);
                stack.push(b);
            }
            LKind::Unpack(_, _, b) => stack.push(b),
            LKind::Ret(..) | LKind::Dup(_) => {}
            LKind::Drop(v) => total += real_scalars(&dt.ty(v)),
            LKind::Call(f, _, _) => total += def_work(p, types, f, memo)?,
            LKind::Op { op, args, linear } => {
                let tys: Vec<Type> = args.iter().map(|a| atom_ty(dt, a)).collect();
                let res =
                    op_type(op, args, &tys, *linear, &|n| Some(dt.ty(n))).map_err(|mut d| {
                        d.span = x.span;
                        d
                    })?;
                total += op_work(op, args, &tys, &res);
            }
        }
    }
    Ok(total)
}

/// The real scalars of a def's linear inputs and linear outputs (the corrections of
/// Theorem 7.1 and the bound of Lemma 4.3).
pub fn linear_io(d: &LinearDef) -> (u64, u64) {
    let i = d.lparams.iter().map(|p| real_scalars(&p.ty)).sum();
    let o = d.lret.iter().map(real_scalars).sum();
    (i, o)
}

/// Theorem 7.1, claim 2, as a statement about numbers: `W(e) + |outputs|` (the
/// amortised work of `e`; for a transposed def, compare with the original's).
pub fn amortised(work: u64, d: &LinearDef) -> u64 {
    let (_, o) = linear_io(d);
    work + o
}

#[cfg(test)]
mod tests {
    use super::*;
    use adora_core::linear::parse_program;

    fn w(src: &str) -> u64 {
        work(&parse_program(src).unwrap(), "f").unwrap()
    }

    #[test]
    fn the_rules_of_the_table() {
        // sum of 10 scalars: 9 additions; replicate: nothing.
        assert_eq!(
            w("def f( ; dx: R[10]) -> (; R) =\n  let s = sum(dx) in\n  (; s)\n"),
            9
        );
        assert_eq!(
            w("def f( ; dx: R) -> (; R[10]) =\n  let s = replicate(10, dx) in\n  (; s)\n"),
            0
        );
        // dup 0, + 1 per scalar, scaling 1 per scalar, drop 1 per real scalar.
        let src = "def f(x: R, i: Z ; dx: R[3]) -> (; R[3]) =\n  let () = drop(i) in\n  let (; a, b) = dup(dx) in\n  let c = a + b in\n  let d = x * c in\n  (; d)\n";
        assert_eq!(w(src), 6);
        let src = "def f(x: R[4] ; dx: R[4]) -> (; R) =\n  let () = drop(x) in\n  let () = drop(dx) in\n  let z = zero(R) in\n  (; z)\n";
        assert_eq!(w(src), 8);
        // Non-linear arithmetic: 1 per result scalar; an index drops the rest.
        let src = "def f(x: R[3], i: Z) -> (R ;) =\n  let y = x * x in\n  let s = sin(y) in\n  let e = s[i] in\n  (e ;)\n";
        assert_eq!(w(src), 3 + 3 + 2);
        // A select drops the branch it does not take; a masked select drops nothing.
        let src = "def f(c: B[2] ; da: R[2], db: R[2]) -> (; R[2], R[2]) =\n  let (; a1, a2) = dup(da) in\n  let s = select(c, a1, db) in\n  let m = select(c, a2, 0.0) in\n  (; s, m)\n";
        assert_eq!(w(src), 2);
    }

    #[test]
    fn calls_cost_their_bodies() {
        let src = "def g( ; dx: R[4]) -> (; R) =\n  let s = sum(dx) in\n  (; s)\n\ndef f( ; dx: R[4], dy: R[4]) -> (; R, R) =\n  let a = g(; dx) in\n  let b = g(; dy) in\n  (; a, b)\n";
        assert_eq!(w(src), 6);
        let p = parse_program(src).unwrap();
        assert_eq!(linear_io(p.def("f").unwrap()), (8, 2));
    }
}
