//! Which constructs a program uses, by name, and which constructs each fragment's
//! generator is expected to produce (the coverage test demands each appears, and that a
//! fragment's programs use nothing else).

use super::typing::SurfaceTypes;
use super::Fragment;
use adora_core::ast::{BinOp, Expr, ExprKind, Lit, Prim, Program, UnOp};
use adora_core::types::{Base, Type};
use adora_core::visit;
use std::collections::BTreeSet;

/// Constructs of the scalar fragment (names of [`constructs`]), besides every binary
/// operator (`binop:add`, ..., `binop:or`: see [`expected`]).
pub const SCALAR: &[&str] = &[
    "var",
    "lit",
    "lit:real",
    "lit:int",
    "lit:bool",
    "unop",
    "unop:neg",
    "unop:not",
    "binop",
    "prim",
    "prim:min",
    "prim:max",
    "prim:abs",
    "prim:pow",
    "prim:floor",
    "prim:real",
    "prim:select",
    "let",
    "let:var",
    "let:tuple",
    "tuple",
    "proj",
    "call",
    "int-literal-as-real",
];

/// Constructs of the bulk fragment beyond the scalar ones.
pub const BULK: &[&str] = &[
    "build",
    "build:1d",
    "build:2d",
    "index",
    "gather",
    "scatter",
    "prim:sum",
    "prim:sum_outer",
    "prim:replicate",
    "prim:transpose",
    "prim:reshape",
    "prim:append",
    "prim:stack",
    "array",
    "prim:iota",
    "broadcast",
    "select-elementwise",
];

/// Constructs of the SOAC fragment beyond the scalar ones.
pub const SOAC: &[&str] = &[
    "map",
    "reduce",
    "reduce:add",
    "reduce:mul",
    "reduce:min",
    "reduce:max",
    "reduce:lambda",
    "scan",
    "scan:add",
    "scan:mul",
    "scan:min",
    "scan:max",
    "scan:lambda",
    "reduce_by_index",
    "reduce_by_index:add",
    "reduce_by_index:mul",
    "reduce_by_index:min",
    "reduce_by_index:max",
    "reduce_by_index:lambda",
    "scatter_into",
    "loop",
    "loop:var",
    "loop:tuple",
    "if",
    "index",
    "array",
    "prim:iota",
    "prim:replicate",
    "broadcast",
    "select-elementwise",
];

/// Every construct the generator of `f` must produce: [`SCALAR`], every binary operator,
/// and the fragment's own constructs.
pub fn expected(f: Fragment) -> Vec<String> {
    let extra: &[&str] = match f {
        Fragment::Scalar => &[],
        Fragment::Bulk => BULK,
        Fragment::Soac => SOAC,
    };
    let binops = BinOp::ALL.iter().map(|op| {
        let c = visit::Construct {
            form: "binop",
            variant: Some(op.name()),
        };
        c.to_string()
    });
    SCALAR
        .iter()
        .chain(extra)
        .map(|s| s.to_string())
        .chain(binops)
        .collect()
}

/// The constructs a program uses: each node's form and construct in the vocabulary of
/// [`visit::construct`] (`let` and `let:var`, `binop` and `binop:add`, ...), plus
/// `broadcast` (an elementwise operator or `min`/`max` with one rank-0 operand and one of
/// higher rank), `int-literal-as-real` (an integer literal operand of an operator whose
/// other operand is real) and `select-elementwise` (a `select` whose condition is an
/// array), from the checker's types ([`SurfaceTypes`]).
pub fn constructs(p: &Program) -> BTreeSet<String> {
    let types = SurfaceTypes::of(p);
    let mut out = BTreeSet::new();
    for d in &p.defs {
        for e in visit::subexprs(&d.body) {
            let c = visit::construct(e);
            out.insert(c.form.to_string());
            out.insert(c.to_string());
            out.extend(typed_constructs(&types, e).into_iter().map(String::from));
        }
    }
    out
}

/// Whether `e` is an integer literal (possibly negated): such an operand takes the base
/// of the other operand of an arithmetic or comparison operator.
fn is_int_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Lit(Lit::Int(_)) => true,
        ExprKind::Unary(UnOp::Neg, x) => is_int_literal(x),
        _ => false,
    }
}

fn typed_constructs(types: &SurfaceTypes, e: &Expr) -> Vec<&'static str> {
    let rank = |x: &Expr| types.get(x).and_then(Type::as_array).map(|(_, s)| s.len());
    let broadcast = |a: &Expr, b: &Expr| match (rank(a), rank(b)) {
        (Some(0), Some(r)) | (Some(r), Some(0)) => r > 0,
        _ => false,
    };
    let real = |x: &Expr| {
        types
            .get(x)
            .and_then(Type::as_array)
            .is_some_and(|(b, _)| b == Base::R)
    };
    let mut out = Vec::new();
    match &e.kind {
        ExprKind::Binary(_, a, b) => {
            if broadcast(a, b) {
                out.push("broadcast");
            }
            if (is_int_literal(a) && real(b)) || (is_int_literal(b) && real(a)) {
                out.push("int-literal-as-real");
            }
        }
        ExprKind::Prim(Prim::Min | Prim::Max, args)
            if args.len() == 2 && broadcast(&args[0], &args[1]) =>
        {
            out.push("broadcast");
        }
        ExprKind::Prim(Prim::Select, args)
            if args.first().and_then(rank).is_some_and(|r| r > 0) =>
        {
            out.push("select-elementwise");
        }
        _ => {}
    }
    out
}
