//! Type and shape checker, and elaboration of an entry point.
//!
//! The typing rules live in `rules` (stated on operand types), the traversal in `elab`
//! (surface mode: check and elaborate a `def` body; strict mode: check an elaborated
//! expression). Program-level checks (duplicate names, recursion, the entry point) are
//! here; inlining is in [`crate::inline`]. [`node_types`] (in `annotate`) runs the strict
//! traversal over a function's body and keeps the type of every node;
//! [`surface_node_types`] does the same for the surface check of a program.
//!
//! Error classes: unbound or duplicate names, unknown functions and recursion are
//! [`ErrorKind::Name`]; base, tuple and arity mismatches [`ErrorKind::Type`]; static shape
//! mismatches (including a wrong number of indices or of index binders)
//! [`ErrorKind::Shape`]; `map` with a tuple result and calls in elaborated programs
//! [`ErrorKind::Unsupported`]; arrays over [`limits::MAX_ARRAY_ELEMENTS`] elements and
//! programs over [`limits::MAX_NODES`] nodes or [`limits::MAX_DEPTH`] depth
//! [`ErrorKind::Resource`].

mod annotate;
mod builtins;
mod elab;
mod forms;
mod hints;
mod infer;
mod instances;
mod rules;
mod warn;

use crate::ast::{Binding, Def, Expr, Function, Name, Param, Program};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use crate::limits;
use crate::types::Type;
use crate::visit;
pub use annotate::{node_types, surface_node_types, NodeTypes};
use elab::{Elab, NodeMap, Sig};
use instances::Instances;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// Rejects trees deeper than [`limits::MAX_DEPTH`] or larger than [`limits::MAX_NODES`]
/// before any recursive pass runs on them.
fn guard_size(e: &Expr, what: &str, span: Span) -> Result<()> {
    let d = visit::depth(e);
    if d > limits::MAX_DEPTH {
        let msg = format!(
            "{what} is too deeply nested: depth {d} (the limit is {})",
            limits::MAX_DEPTH
        );
        return Err(Diagnostic::new(ErrorKind::Resource, span, msg));
    }
    let n = visit::node_count(e);
    if n > limits::MAX_NODES {
        let msg = format!(
            "{what} is too large: {n} nodes (the limit is {})",
            limits::MAX_NODES
        );
        return Err(Diagnostic::new(ErrorKind::Resource, span, msg));
    }
    Ok(())
}

/// Checks a signature: distinct parameter names, types within the size limit (`ret_span`
/// is where a too-large result type is reported).
fn check_signature(name: &str, params: &[Param], ret: &Type, ret_span: Span) -> Result<()> {
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for p in params {
        if let Some(first) = seen.insert(&p.name, p.span) {
            let msg = format!("duplicate parameter `{}` of `{name}`", p.name);
            return Err(Diagnostic::new(ErrorKind::Name, p.span, msg)
                .with_label(first, "first declared here"));
        }
        rules::limit(&p.ty, p.span)?;
    }
    rules::limit(ret, ret_span)
}

/// Checks the whole program; returns its defs with elaborated bodies (calls remain) and
/// the warnings about them. With `record`, the surface traversal also records there the
/// type of every node of every `def` body (see [`surface_node_types`]).
///
/// Each body is first given its literal types ([`infer::literals`]: unification over the
/// whole body), then checked and elaborated with them.
fn elaborate_defs(
    p: &Program,
    mut record: Option<&mut NodeMap>,
) -> Result<(Vec<Def>, Vec<Diagnostic>)> {
    let mut seen: HashMap<&str, Span> = HashMap::new();
    let templates = p.templates.iter().map(|t| &t.def);
    for d in p.defs.iter().chain(templates.clone()) {
        if let Some(first) = seen.insert(&d.name, d.name_span) {
            return Err(Diagnostic::new(
                ErrorKind::Name,
                d.name_span,
                format!("duplicate definition of `{}`", d.name),
            )
            .with_label(first, "first defined here"));
        }
    }
    for d in &p.defs {
        check_signature(&d.name, &d.params, &d.ret, d.name_span)?;
        guard_size(&d.body, &format!("the body of `{}`", d.name), d.name_span)?;
    }
    if p.templates.is_empty() {
        crate::inline::call_order(&p.defs)?;
    } else {
        let all: Vec<Def> = p.defs.iter().chain(templates).cloned().collect();
        crate::inline::call_order(&all)?;
    }
    let sig = |d: &Def, template: Option<usize>| {
        let s = Sig {
            params: d.params.clone(),
            ret: d.ret.clone(),
            template,
        };
        (d.name.clone(), s)
    };
    let sigs: HashMap<Name, Sig> = p
        .defs
        .iter()
        .map(|d| sig(d, None))
        .chain(
            p.templates
                .iter()
                .enumerate()
                .map(|(k, t)| sig(&t.def, Some(k))),
        )
        .collect();
    let instances = RefCell::new(Instances::new(p));
    let mut out = Vec::with_capacity(p.defs.len());
    let mut warnings = Vec::new();
    for d in &p.defs {
        let lits = infer::literals(d, &sigs)?;
        let mut checker = Elab::surface(&sigs)
            .with_literals(&lits)
            .with_instances(&instances);
        if let Some(m) = record.as_deref_mut() {
            checker = checker.recording(m);
        }
        let body = checker.def_body(d)?;
        warnings.extend(warn::truncating_divisions(&d.body, &lits));
        out.push(Def { body, ..d.clone() });
    }
    // The instances the calls above made, and those their own calls make (docs/
    // language.md, "Helpers with size parameters"); a finite list, as there is no
    // recursion. An error in an instance is labelled with the call that made it.
    let mut k = 0;
    loop {
        let next = instances
            .borrow()
            .made
            .get(k)
            .map(|i| (i.def.clone(), i.origin.clone()));
        let Some((d, (at, label))) = next else { break };
        let in_instance = |e: Diagnostic| e.with_label(at, label.clone());
        check_signature(&d.name, &d.params, &d.ret, d.name_span).map_err(in_instance)?;
        guard_size(&d.body, &format!("the body of `{}`", d.name), d.name_span)
            .map_err(in_instance)?;
        let lits = infer::literals(&d, &sigs).map_err(in_instance)?;
        let mut checker = Elab::surface(&sigs)
            .with_literals(&lits)
            .with_instances(&instances);
        let body = checker.def_body(&d).map_err(in_instance)?;
        warnings.extend(warn::truncating_divisions(&d.body, &lits));
        out.push(Def { body, ..d });
        k += 1;
    }
    Ok((out, warnings))
}

/// Type-checks every `def` of a surface program against its declared signature: names
/// (no duplicate defs or parameters, no unbound variables, no recursion), types and
/// static shapes (see docs/language.md and the module documentation for the rules).
pub fn check_program(p: &Program) -> Result<()> {
    elaborate_defs(p, None).map(|_| ())
}

/// [`check_program`], returning the warnings about the program (in `def` order, then
/// source order; see docs/language.md, "Warnings"): diagnostics of
/// [`crate::diag::Severity::Warning`] that never stop a command.
pub fn check_program_warnings(p: &Program) -> Result<Vec<Diagnostic>> {
    elaborate_defs(p, None).map(|(_, w)| w)
}

/// Elaborates the entry point `entry` of a program (see `ast` module docs): checks the
/// program, types every literal, makes broadcasts explicit, inlines every call and renames
/// binders so that their names are unique in the function and distinct from its
/// parameters (original names are kept where possible; otherwise `x_1`, `x_2`, ...).
/// The result passes [`check_function`].
pub fn elaborate(p: &Program, entry: &str) -> Result<Function> {
    if let Some(t) = p.templates.iter().find(|t| t.name() == entry) {
        // The entry point's sizes come from its inputs (`crate::sizes::load_sized`).
        let (n, span) = t
            .sig
            .params
            .iter()
            .flat_map(|p| p.ty.size_names())
            .next()
            .map_or((String::new(), t.def.name_span), |(n, s)| (n.clone(), s));
        let msg = format!(
            "`{entry}` has the size parameter `{n}`, which has no value: sizes are bound from the shapes of the inputs (`--input`, `--inputs`) or by `--size {n}=N`"
        );
        return Err(Diagnostic::new(ErrorKind::Input, span, msg));
    }
    let (defs, _) = elaborate_defs(p, None)?;
    // Instances follow the program's own defs in `defs`; the entry is one of those.
    let Some(i) = defs[..p.defs.len()].iter().position(|d| d.name == entry) else {
        let names: Vec<&str> = p.defs.iter().map(|d| d.name.as_str()).collect();
        let have = if names.is_empty() {
            "the program defines no functions".to_string()
        } else {
            format!("the program defines: {}", names.join(", "))
        };
        return Err(Diagnostic::new(
            ErrorKind::Name,
            Span::DUMMY,
            format!("no def named `{entry}`; {have}"),
        ));
    };
    let body = crate::inline::inline_entry(&defs, i)?;
    let d = &defs[i];
    let f = Function {
        name: d.name.clone(),
        params: d.params.clone(),
        ret: d.ret.clone(),
        body,
    };
    check_function(&f)?;
    Ok(f)
}

/// The type of an elaborated expression under `env` (innermost binding last). Integer
/// literals are `Z`; there is no implicit broadcasting and no call.
pub fn type_of(env: &[Binding], e: &Expr) -> Result<Type> {
    Elab::strict(env).expr(e, None).map(|(_, t)| t)
}

/// Checks that an elaborated function is well typed and obeys the elaborated invariants:
/// no `Call`, no implicit broadcast, literals of their final type (`Int` only where a `Z`
/// is meant), binder names unique in the function and distinct from the parameters, and
/// the size limits.
pub fn check_function(f: &Function) -> Result<()> {
    guard_size(&f.body, &format!("the function `{}`", f.name), f.body.span)?;
    check_signature(&f.name, &f.params, &f.ret, f.body.span)?;
    let mut names: HashSet<&str> = f.params.iter().map(|p| p.name.as_str()).collect();
    for (n, span) in visit::all_binders(&f.body) {
        if !names.insert(n) {
            let msg = format!(
                "the binder `{n}` is not unique in the elaborated function `{}`",
                f.name
            );
            return Err(Diagnostic::new(ErrorKind::Name, span, msg));
        }
    }
    let ty = type_body(f, None)?;
    rules::same_type(
        &format!("the body of `{}`", f.name),
        f.body.span,
        &ty,
        &f.ret,
    )
}

/// The typing environment of `f`'s parameters, in order: the environment of `f.body` for
/// [`type_of`].
pub fn param_env(f: &Function) -> Vec<Binding> {
    f.params
        .iter()
        .map(|p| Binding {
            name: p.name.clone(),
            ty: p.ty.clone(),
        })
        .collect()
}

/// The type of `f.body` under `f`'s parameters: [`type_of`] on the body. With `record`,
/// the strict traversal also records there the type of every node (see [`node_types`]).
fn type_body(f: &Function, record: Option<&mut NodeMap>) -> Result<Type> {
    let env = param_env(f);
    let mut checker = Elab::strict(&env);
    if let Some(m) = record {
        checker = checker.recording(m);
    }
    checker.expr(&f.body, None).map(|(_, t)| t)
}
