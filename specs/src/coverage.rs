//! Which constructs of docs/language.md a case exercises, so that a test can demand that the
//! golden corpus as a whole covers every one of them ([`REQUIRED`]).
//!
//! Syntactic features come from the surface AST: each node's form and construct in the
//! vocabulary of [`adora_core::visit::construct`] (every `ExprKind`, `Prim`, `BinOp`,
//! `UnOp` and `Op` variant is named there by an exhaustive match), plus finer features
//! named here; elaboration features from the elaborated entry point
//! (broadcasts made explicit, integer literals typed as reals, `Z` division); behaviour
//! features from the headers (`stats` counters, modes, derivative questions, input types).

use crate::case::{Case, Numeric};
use adora_core::ast::{BinOp, Def, Expr, ExprKind, Function, Lit, Prim};
use adora_core::types::{Base, Type};
use adora_core::visit;
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
    "header:numeric-ball",
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
    let program = crate::sized::parse(case).map_err(|d| d.render(&name, &case.source))?;
    let f = crate::sized::load(case).map_err(|d| d.render(&name, &case.source))?;
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
    if matches!(case.numeric, Numeric::Ball { .. }) {
        add("header:numeric-ball");
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

/// The syntactic features of one surface `def`: every node's form and construct (see
/// [`visit::construct`]: `let` and `let:tuple`, `binop` and `binop:add`, ...), plus the
/// finer features below.
fn surface_def(d: &Def, out: &mut BTreeSet<String>) {
    let ranks: BTreeMap<&str, usize> = d
        .params
        .iter()
        .filter_map(|p| p.ty.as_array().map(|(_, s)| (p.name.as_str(), s.len())))
        .collect();
    for e in visit::subexprs(&d.body) {
        let c = visit::construct(e);
        out.insert(c.form.to_string());
        out.insert(c.to_string());
        let finer = match &e.kind {
            ExprKind::Lit(Lit::Real(r)) if !r.is_integer() => Some("lit:decimal"),
            ExprKind::Prim(Prim::Pow(k), _) if *k < 0 => Some("pow:negative"),
            ExprKind::Prim(Prim::Pow(0), _) => Some("pow:zero"),
            ExprKind::Prim(Prim::Transpose(perm), _) if perm.len() >= 3 => Some("transpose:rank3"),
            ExprKind::Index(a, is)
                if matches!(&a.kind, ExprKind::Var(n)
                    if ranks.get(n.as_str()).is_some_and(|r| *r > is.len())) =>
            {
                Some("index:prefix")
            }
            ExprKind::Scatter(_, _, _, ix)
                if ix
                    .iter()
                    .flat_map(visit::subexprs)
                    .any(|s| matches!(s.kind, ExprKind::Binary(BinOp::Mod, ..))) =>
            {
                Some("scatter:collision")
            }
            ExprKind::Map(_, xs) if xs.len() >= 2 => Some("map:multi"),
            _ => None,
        };
        out.extend(finer.map(String::from));
    }
}

/// Features only visible after elaboration: synthesised broadcasts (a `replicate` whose
/// source text is not `replicate(...)`), integer literals typed as reals (a real literal
/// whose source text is an integer), and `Z` division (a `/` typed `Z`).
fn elaborated(f: &Function, src: &str, out: &mut BTreeSet<String>) {
    let env = adora_core::check::param_env(f);
    let text = |e: &Expr| src.get(e.span.start..e.span.end).unwrap_or("").trim();
    for e in visit::subexprs(&f.body) {
        match &e.kind {
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
        }
    }
}
