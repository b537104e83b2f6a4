//! Which constructs of DESIGN §2.1 a case exercises, so that a test can demand that the
//! golden corpus as a whole covers every one of them ([`REQUIRED`]).
//!
//! Syntactic features come from the surface AST (every `ExprKind`, `Prim`, `BinOp`,
//! `UnOp` and `Op` variant, by an exhaustive match, so a new variant does not compile
//! until it is named here); elaboration features from the elaborated entry point
//! (broadcasts made explicit, integer literals typed as reals, `Z` division); behaviour
//! features from the headers (`stats` counters, modes, derivative questions, input types).

use crate::case::{Case, Numeric};
use adora_core::ast::{BinOp, Def, Expr, ExprKind, Lit, Op, Pat, Prim, UnOp};
use adora_core::ast::{Binding, Function};
use adora_core::types::{Base, Type};
use std::collections::{BTreeMap, BTreeSet};

/// Every feature the golden corpus must cover.
pub const REQUIRED: &[&str] = &[
    // expression forms
    "var",
    "lit:int",
    "lit:real",
    "lit:bool",
    "lit:decimal",
    "array",
    "tuple",
    "proj",
    "let",
    "let:tuple",
    "if",
    "call",
    "index",
    "index:prefix",
    "build",
    "build:2d",
    "gather",
    "scatter",
    "map",
    "map:multi",
    "loop",
    "loop:tuple",
    "scatter_into",
    // operators
    "unop:neg",
    "unop:not",
    "binop:add",
    "binop:sub",
    "binop:mul",
    "binop:div",
    "binop:mod",
    "binop:eq",
    "binop:ne",
    "binop:lt",
    "binop:le",
    "binop:gt",
    "binop:ge",
    "binop:and",
    "binop:or",
    // built-in functions
    "prim:exp",
    "prim:log",
    "prim:sin",
    "prim:cos",
    "prim:tanh",
    "prim:sqrt",
    "prim:abs",
    "prim:floor",
    "prim:real",
    "prim:min",
    "prim:max",
    "prim:pow",
    "pow:negative",
    "pow:zero",
    "prim:select",
    "prim:sum",
    "prim:sum_outer",
    "prim:replicate",
    "prim:transpose",
    "transpose:rank3",
    "prim:reshape",
    "prim:iota",
    "prim:append",
    "prim:stack",
    // combining operators
    "reduce:add",
    "reduce:mul",
    "reduce:min",
    "reduce:max",
    "reduce:lambda",
    "scan:add",
    "scan:mul",
    "scan:min",
    "scan:max",
    "scan:lambda",
    "reduce_by_index:add",
    "reduce_by_index:mul",
    "reduce_by_index:min",
    "reduce_by_index:max",
    // elaboration
    "defs",
    "broadcast",
    "int-literal-as-real",
    "zdiv",
    // behaviour, from the headers
    "header:value",
    "header:grad",
    "header:jvp",
    "header:vjp",
    "header:entry",
    "header:stats",
    "header:numeric-f64",
    "header:mode-strict",
    "input:Z",
    "input:B",
    "input:tuple",
    "result:tuple",
    "div-by-zero",
    "gather:oob",
    "scatter:oob",
    "scatter:collision",
    "scatter_into:collision",
    "scatter_into:oob",
    "reduce_by_index:oob",
    "select:strict",
    "index:oob",
];

/// Every feature of `case` (parses and loads its program; errors are reported as text).
pub fn features(case: &Case) -> Result<BTreeSet<String>, String> {
    let name = case.name();
    let program = adora_core::parse(&case.source).map_err(|d| d.render(&name, &case.source))?;
    let f =
        adora_core::load(&case.source, &case.entry).map_err(|d| d.render(&name, &case.source))?;
    let mut out = BTreeSet::new();
    if program.defs.len() > 1 {
        out.insert("defs".to_string());
    }
    for d in &program.defs {
        surface_def(d, &mut out);
    }
    elaborated(&f, &case.source, &mut out);
    headers(case, &f, &mut out);
    // behaviour that needs both the program and the stats
    let stat = |k: &str| {
        case.stats
            .as_ref()
            .and_then(|s| s.iter().find(|(f, _)| f == k))
            .map_or(0, |(_, n)| *n)
    };
    let has = |k: &str| out.contains(k);
    let mut extra = Vec::new();
    if stat("div_by_zero") > 0 {
        extra.push("div-by-zero");
        if has("prim:select") && !has("if") {
            extra.push("select:strict");
        }
    }
    let reads = stat("oob_reads") > 0;
    let writes = stat("oob_writes") > 0;
    if reads && has("gather") && !has("index") {
        extra.push("gather:oob");
    }
    if reads && has("index") && !has("gather") {
        extra.push("index:oob");
    }
    let only = |k: &str, others: [&str; 2]| has(k) && others.iter().all(|o| !has(o));
    if writes && only("scatter", ["scatter_into", "reduce_by_index"]) {
        extra.push("scatter:oob");
    }
    if writes && only("scatter_into", ["scatter", "reduce_by_index"]) {
        extra.push("scatter_into:oob");
    }
    if writes && only("reduce_by_index", ["scatter", "scatter_into"]) {
        extra.push("reduce_by_index:oob");
    }
    if stat("colliding_writes") > 0 && has("scatter_into") {
        extra.push("scatter_into:collision");
    }
    out.extend(extra.into_iter().map(String::from));
    Ok(out)
}

fn headers(case: &Case, f: &Function, out: &mut BTreeSet<String>) {
    let mut add = |s: &str| {
        out.insert(s.to_string());
    };
    if case.value.is_some() {
        add("header:value");
    }
    if !case.grads.is_empty() {
        add("header:grad");
    }
    if case.jvp.is_some() {
        add("header:jvp");
    }
    if case.cotangent.is_some() {
        add("header:vjp");
    }
    if case.entry != "main" {
        add("header:entry");
    }
    if case.stats.is_some() {
        add("header:stats");
    }
    if matches!(case.numeric, Numeric::F64 { .. }) {
        add("header:numeric-f64");
    }
    if case.strict {
        add("header:mode-strict");
    }
    for p in &f.params {
        match &p.ty {
            Type::Array(Base::Z, _) => add("input:Z"),
            Type::Array(Base::B, _) => add("input:B"),
            Type::Array(Base::R, _) => {}
            Type::Tuple(_) => add("input:tuple"),
        }
    }
    if matches!(f.ret, Type::Tuple(_)) {
        add("result:tuple");
    }
}

/// Calls `visit` on `e` and every sub-expression (lambda and operator bodies included).
pub fn walk(e: &Expr, visit: &mut dyn FnMut(&Expr)) {
    visit(e);
    let op = |o: &Op, visit: &mut dyn FnMut(&Expr)| {
        if let Op::Lambda(l) = o {
            walk(&l.body, visit);
        }
    };
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Lit(_) => {}
        ExprKind::Array(es)
        | ExprKind::Tuple(es)
        | ExprKind::Call(_, es)
        | ExprKind::Prim(_, es) => es.iter().for_each(|x| walk(x, visit)),
        ExprKind::Proj(a, _) | ExprKind::Unary(_, a) | ExprKind::Build(_, _, a) => walk(a, visit),
        ExprKind::Let(_, a, b) | ExprKind::Binary(_, a, b) => {
            walk(a, visit);
            walk(b, visit);
        }
        ExprKind::If(a, b, c) => {
            walk(a, visit);
            walk(b, visit);
            walk(c, visit);
        }
        ExprKind::Index(a, is) | ExprKind::Gather(_, a, _, is) | ExprKind::Scatter(_, a, _, is) => {
            walk(a, visit);
            is.iter().for_each(|x| walk(x, visit));
        }
        ExprKind::Map(l, xs) => {
            walk(&l.body, visit);
            xs.iter().for_each(|x| walk(x, visit));
        }
        ExprKind::Reduce(o, ne, xs) | ExprKind::Scan(o, ne, xs) => {
            op(o, visit);
            walk(ne, visit);
            walk(xs, visit);
        }
        ExprKind::ReduceByIndex {
            dest,
            op: o,
            ne,
            is,
            vs,
        } => {
            walk(dest, visit);
            op(o, visit);
            walk(ne, visit);
            walk(is, visit);
            walk(vs, visit);
        }
        ExprKind::ScatterInto { dest, is, vs } => {
            walk(dest, visit);
            walk(is, visit);
            walk(vs, visit);
        }
        ExprKind::Loop { init, body, .. } => {
            walk(init, visit);
            walk(body, visit);
        }
    }
}

fn op_name(o: &Op) -> &'static str {
    match o {
        Op::Add => "add",
        Op::Mul => "mul",
        Op::Min => "min",
        Op::Max => "max",
        Op::Lambda(_) => "lambda",
    }
}

fn binop_name(b: BinOp) -> &'static str {
    match b {
        BinOp::Add => "add",
        BinOp::Sub => "sub",
        BinOp::Mul => "mul",
        BinOp::Div => "div",
        BinOp::Mod => "mod",
        BinOp::Eq => "eq",
        BinOp::Ne => "ne",
        BinOp::Lt => "lt",
        BinOp::Le => "le",
        BinOp::Gt => "gt",
        BinOp::Ge => "ge",
        BinOp::And => "and",
        BinOp::Or => "or",
    }
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

/// The syntactic features of one surface `def`.
fn surface_def(d: &Def, out: &mut BTreeSet<String>) {
    let ranks: BTreeMap<&str, usize> = d
        .params
        .iter()
        .filter_map(|p| p.ty.as_array().map(|(_, s)| (p.name.as_str(), s.len())))
        .collect();
    walk(&d.body, &mut |e| {
        let mut add = |s: String| {
            out.insert(s);
        };
        match &e.kind {
            ExprKind::Var(_) => add("var".into()),
            ExprKind::Lit(Lit::Int(_)) => add("lit:int".into()),
            ExprKind::Lit(Lit::Real(r)) => {
                add("lit:real".into());
                if !r.is_integer() {
                    add("lit:decimal".into());
                }
            }
            ExprKind::Lit(Lit::Bool(_)) => add("lit:bool".into()),
            ExprKind::Array(_) => add("array".into()),
            ExprKind::Tuple(_) => add("tuple".into()),
            ExprKind::Proj(..) => add("proj".into()),
            ExprKind::Let(p, ..) => {
                add("let".into());
                if matches!(p, Pat::Tuple(_)) {
                    add("let:tuple".into());
                }
            }
            ExprKind::If(..) => add("if".into()),
            ExprKind::Unary(UnOp::Neg, _) => add("unop:neg".into()),
            ExprKind::Unary(UnOp::Not, _) => add("unop:not".into()),
            ExprKind::Binary(b, ..) => add(format!("binop:{}", binop_name(*b))),
            ExprKind::Call(..) => add("call".into()),
            ExprKind::Prim(p, _) => {
                add(format!("prim:{}", prim_name(p)));
                match p {
                    Prim::Pow(k) if *k < 0 => add("pow:negative".into()),
                    Prim::Pow(0) => add("pow:zero".into()),
                    Prim::Transpose(perm) if perm.len() >= 3 => add("transpose:rank3".into()),
                    _ => {}
                }
            }
            ExprKind::Index(a, is) => {
                add("index".into());
                if let ExprKind::Var(n) = &a.kind {
                    if ranks.get(n.as_str()).is_some_and(|r| *r > is.len()) {
                        add("index:prefix".into());
                    }
                }
            }
            ExprKind::Build(sh, ..) => {
                add("build".into());
                if sh.len() >= 2 {
                    add("build:2d".into());
                }
            }
            ExprKind::Gather(..) => add("gather".into()),
            ExprKind::Scatter(_, _, _, ix) => {
                add("scatter".into());
                let mut modular = false;
                ix.iter().for_each(|x| {
                    walk(x, &mut |s| {
                        modular |= matches!(s.kind, ExprKind::Binary(BinOp::Mod, ..))
                    })
                });
                if modular {
                    add("scatter:collision".into());
                }
            }
            ExprKind::Map(_, xs) => {
                add("map".into());
                if xs.len() >= 2 {
                    add("map:multi".into());
                }
            }
            ExprKind::Reduce(o, ..) => add(format!("reduce:{}", op_name(o))),
            ExprKind::Scan(o, ..) => add(format!("scan:{}", op_name(o))),
            ExprKind::ReduceByIndex { op, .. } => {
                add("reduce_by_index".into());
                add(format!("reduce_by_index:{}", op_name(op)));
            }
            ExprKind::ScatterInto { .. } => add("scatter_into".into()),
            ExprKind::Loop { acc, .. } => {
                add("loop".into());
                if matches!(acc, Pat::Tuple(_)) {
                    add("loop:tuple".into());
                }
            }
        }
    });
}

/// Features only visible after elaboration: synthesised broadcasts (a `replicate` whose
/// source text is not `replicate(...)`), integer literals typed as reals (a real literal
/// whose source text is an integer), and `Z` division (a `/` typed `Z`).
fn elaborated(f: &Function, src: &str, out: &mut BTreeSet<String>) {
    let env: Vec<Binding> = f
        .params
        .iter()
        .map(|p| Binding {
            name: p.name.clone(),
            ty: p.ty.clone(),
        })
        .collect();
    let text = |e: &Expr| src.get(e.span.start..e.span.end).unwrap_or("").trim();
    walk(&f.body, &mut |e| match &e.kind {
        ExprKind::Prim(Prim::Replicate(_), _) if !text(e).starts_with("replicate") => {
            out.insert("broadcast".into());
        }
        ExprKind::Lit(Lit::Real(_)) => {
            let t = text(e);
            if !t.is_empty()
                && t.trim_start_matches('-')
                    .chars()
                    .all(|c| c.is_ascii_digit())
            {
                out.insert("int-literal-as-real".into());
            }
        }
        ExprKind::Binary(BinOp::Div, ..) => {
            if let Ok(Type::Array(Base::Z, _)) = adora_core::check::type_of(&env, e) {
                out.insert("zdiv".into());
            }
        }
        _ => {}
    });
}
