//! Which constructs a program uses, by name, and which constructs each fragment's
//! generator is expected to produce (the coverage test demands each appears).

use super::typing::{is_int_literal, Env};
use super::walk::visit;
use super::Fragment;
use adora_core::ast::{BinOp, Expr, ExprKind, Op, Pat, Prim, Program};
use adora_core::types::Type;
use std::collections::BTreeSet;

/// Constructs of the scalar fragment.
pub const SCALAR: &[&str] = &[
    "literal-real",
    "literal-int",
    "literal-bool",
    "var",
    "add",
    "sub",
    "mul",
    "div",
    "mod",
    "neg",
    "compare",
    "logic",
    "not",
    "min",
    "max",
    "abs",
    "pow",
    "floor",
    "real",
    "select",
    "let",
    "let-tuple",
    "tuple",
    "proj",
    "call",
    "int-as-real",
];

/// Constructs of the bulk fragment beyond the scalar ones.
pub const BULK: &[&str] = &[
    "build-1d",
    "build-2d",
    "index",
    "gather",
    "scatter",
    "sum",
    "sum_outer",
    "replicate",
    "transpose",
    "reshape",
    "append",
    "stack",
    "array-literal",
    "iota",
    "broadcast",
    "select-elementwise",
];

/// Constructs of the SOAC fragment beyond the scalar ones.
pub const SOAC: &[&str] = &[
    "map",
    "reduce-add",
    "reduce-mul",
    "reduce-min",
    "reduce-max",
    "reduce-lambda",
    "scan",
    "reduce_by_index",
    "scatter_into",
    "loop",
    "if",
    "index",
    "array-literal",
    "iota",
    "replicate",
    "broadcast",
    "select-elementwise",
];

/// Every construct the generator of `f` must produce.
pub fn expected(f: Fragment) -> Vec<&'static str> {
    let extra: &[&str] = match f {
        Fragment::Scalar => &[],
        Fragment::Bulk => BULK,
        Fragment::Soac => SOAC,
    };
    SCALAR.iter().chain(extra).copied().collect()
}

/// The constructs a program uses.
pub fn constructs(p: &Program) -> BTreeSet<&'static str> {
    let mut out = BTreeSet::new();
    for d in &p.defs {
        let mut env: Env = d
            .params
            .iter()
            .map(|q| (q.name.clone(), q.ty.clone()))
            .collect();
        visit(
            &p.defs,
            &mut env,
            &d.body,
            &mut Vec::new(),
            &mut |e, env, _| node_constructs(&p.defs, env, e, &mut out),
        );
    }
    out
}

fn rank_of(defs: &[adora_core::ast::Def], env: &Env, e: &Expr) -> Option<usize> {
    match super::typing::type_of(defs, env, e)? {
        Type::Array(_, s) => Some(s.len()),
        Type::Tuple(_) => None,
    }
}

fn node_constructs(
    defs: &[adora_core::ast::Def],
    env: &Env,
    e: &Expr,
    out: &mut BTreeSet<&'static str>,
) {
    use adora_core::ast::Lit;
    use ExprKind::*;
    let broadcast = |a: &Expr, b: &Expr| {
        let (ra, rb) = (rank_of(defs, env, a), rank_of(defs, env, b));
        matches!((ra, rb), (Some(0), Some(r)) | (Some(r), Some(0)) if r > 0)
    };
    let name: &'static str = match &e.kind {
        Var(_) => "var",
        Lit(Lit::Real(_)) => "literal-real",
        Lit(Lit::Int(_)) => "literal-int",
        Lit(Lit::Bool(_)) => "literal-bool",
        Array(_) => "array-literal",
        Tuple(_) => "tuple",
        Proj(..) => "proj",
        Let(Pat::Var(_), ..) => "let",
        Let(Pat::Tuple(_), ..) => "let-tuple",
        If(..) => "if",
        Unary(adora_core::ast::UnOp::Neg, _) => "neg",
        Unary(adora_core::ast::UnOp::Not, _) => "not",
        Binary(op, a, b) => {
            if broadcast(a, b) {
                out.insert("broadcast");
            }
            let real = |x: &Expr| {
                super::typing::type_of(defs, env, x)
                    .is_some_and(|t| t.as_array().is_some_and(|(b, _)| b == adora_core::Base::R))
            };
            if (is_int_literal(a) && real(b)) || (is_int_literal(b) && real(a)) {
                out.insert("int-as-real");
            }
            match op {
                BinOp::Add => "add",
                BinOp::Sub => "sub",
                BinOp::Mul => "mul",
                BinOp::Div => "div",
                BinOp::Mod => "mod",
                BinOp::And | BinOp::Or => "logic",
                _ => "compare",
            }
        }
        Call(..) => "call",
        Prim(p, args) => match p {
            adora_core::ast::Prim::Min | adora_core::ast::Prim::Max => {
                if broadcast(&args[0], &args[1]) {
                    out.insert("broadcast");
                }
                if matches!(p, adora_core::ast::Prim::Min) {
                    "min"
                } else {
                    "max"
                }
            }
            adora_core::ast::Prim::Select => {
                if rank_of(defs, env, &args[0]).is_some_and(|r| r > 0) {
                    out.insert("select-elementwise");
                }
                "select"
            }
            other => prim_name(other),
        },
        Index(..) => "index",
        Build(sh, ..) => {
            if sh.len() >= 2 {
                "build-2d"
            } else {
                "build-1d"
            }
        }
        Gather(..) => "gather",
        Scatter(..) => "scatter",
        Map(..) => "map",
        Reduce(op, ..) => match op {
            Op::Add => "reduce-add",
            Op::Mul => "reduce-mul",
            Op::Min => "reduce-min",
            Op::Max => "reduce-max",
            Op::Lambda(_) => "reduce-lambda",
        },
        Scan(..) => "scan",
        ReduceByIndex { .. } => "reduce_by_index",
        ScatterInto { .. } => "scatter_into",
        Loop { .. } => "loop",
    };
    out.insert(name);
}

fn prim_name(p: &Prim) -> &'static str {
    match p {
        Prim::Exp => "exp",
        Prim::Log => "log",
        Prim::Sin => "sin",
        Prim::Cos => "cos",
        Prim::Tanh => "tanh",
        Prim::Sqrt => "sqrt",
        Prim::Abs => "abs",
        Prim::Floor => "floor",
        Prim::Real => "real",
        Prim::Min => "min",
        Prim::Max => "max",
        Prim::Pow(_) => "pow",
        Prim::Select => "select",
        Prim::Sum => "sum",
        Prim::SumOuter => "sum_outer",
        Prim::Replicate(_) => "replicate",
        Prim::Transpose(_) => "transpose",
        Prim::Reshape(_) => "reshape",
        Prim::Iota(_) => "iota",
        Prim::Append => "append",
        Prim::Stack => "stack",
    }
}
