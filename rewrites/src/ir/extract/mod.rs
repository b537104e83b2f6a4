//! Extraction: from an e-graph back to a core [`Function`].
//!
//! 1. **Selection** (module `select`): one term per use site, scope-aware (an extracted term
//!    never mentions an index variable outside its binder), minimising a [`Cost`] under a
//!    [`CostModel`]. The default [`BuildFreeCost`] orders terms lexicographically by
//!    (number of `build`s, number of `index` nodes whose array is not a variable, a
//!    constant, an `append` or a `scatter`, number of nodes): it strongly prefers
//!    build-free terms, then the Theorem 5.1 normal form, then small terms. Costs are tree
//!    costs (a shared subterm is paid per use) with saturating arithmetic; ties keep the
//!    first node in egg's sorted class order, so extraction is deterministic.
//! 2. **Validation** ([`check_scoped`]): the selected [`RecExpr`] is checked for
//!    well-scopedness before anything else uses it.
//! 3. **Lets** (module `lets`, placement by the lowering kit's [`crate::kit::lets`]; binder
//!    names by module `naming`): nodes of the DAG used more than once become `let`s at the
//!    outermost legal scope (under a binder only when they mention its index variables).
//! 4. **Re-check**: the function (original name, parameters and result type) must pass
//!    `adora_core::check::check_function`; otherwise an internal-error diagnostic
//!    ([`ErrorKind::Internal`]) carrying the printed program is returned, never a panic.
//!
//! Extraction reads only the classes reachable from the requested root, and works on an
//! e-graph that is not rebuilt (children are canonicalised with `find`), so custom
//! appliers may call [`extract_in_scope`] during the apply phase (the analysis data of
//! classes merged in that phase may lag until the next rebuild).

mod lets;
mod member;
mod naming;
pub mod scope;
mod select;
mod upper;

pub use member::{extract_member, Instance, Member};
pub use scope::check_scoped;

use super::analysis::{IrAnalysis, IrGraph};
use super::lang::{IVarId, Ir};
use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::visit::NameSupply;
use egg::{Id, Language, RecExpr};
use select::{Builder, Mode, Selector};

/// An extraction cost: compared lexicographically (`builds`, then `bad_index`, then
/// `size`); sums saturate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cost {
    /// Number of `build` nodes.
    pub builds: u64,
    /// Number of `index` nodes whose array is not in a stuck form.
    pub bad_index: u64,
    /// Number of nodes (or any other weight a cost model puts here).
    pub size: u64,
}

impl Cost {
    /// The zero cost.
    pub const ZERO: Cost = Cost {
        builds: 0,
        bad_index: 0,
        size: 0,
    };

    /// The componentwise saturating sum.
    pub fn plus(self, o: Cost) -> Cost {
        Cost {
            builds: self.builds.saturating_add(o.builds),
            bad_index: self.bad_index.saturating_add(o.bad_index),
            size: self.size.saturating_add(o.size),
        }
    }
}

/// How extraction weighs terms: a term's cost is the sum of its nodes' weights plus a
/// penalty per `index` whose array is not in a stuck form. Every weight must be non-zero
/// (extraction refuses cyclic choices a zero weight could make cheapest). Models are
/// `Sync` because extraction runs on a large-stack worker thread.
pub trait CostModel: Sync {
    /// The weight of one node (its children are paid separately).
    fn weight(&self, egraph: &IrGraph, node: &Ir) -> Cost;
    /// The penalty of an `index` whose array is not a variable, a constant, an `append` or
    /// a `scatter`.
    fn bad_index(&self) -> Cost;
}

/// The default cost model (see the module docs): `build` weighs `(1, 0, 1)`, every other
/// node `(0, 0, 1)`, a non-normal `index` adds `(0, 1, 0)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildFreeCost;

impl CostModel for BuildFreeCost {
    fn weight(&self, _egraph: &IrGraph, node: &Ir) -> Cost {
        Cost {
            builds: u64::from(matches!(node, Ir::Build(_))),
            bad_index: 0,
            size: 1,
        }
    }
    fn bad_index(&self) -> Cost {
        Cost {
            builds: 0,
            bad_index: 1,
            size: 0,
        }
    }
}

fn internal(msg: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Internal,
        Span::DUMMY,
        format!("internal error in extraction: {msg}"),
    )
}

fn select<C: CostModel>(
    eg: &IrGraph,
    root: Id,
    scope: &[IVarId],
    forced: Option<&Ir>,
    cost: &C,
) -> Result<RecExpr<Ir>> {
    let mut scope = scope.to_vec();
    scope.sort_unstable();
    scope.dedup();
    adora_core::with_stack(|| {
        let mut sel = Selector::new(eg, cost, root);
        let s = sel.state(root, &scope);
        sel.solve();
        let mut out = Builder::default();
        sel.build(s, Mode::Any, forced, &mut out).ok_or_else(|| {
            internal("no well-scoped term exists for the requested class or node")
        })?;
        if scope.is_empty() {
            check_scoped(&out.expr).map_err(internal)?;
        }
        Ok(out.expr)
    })
}

/// The cost of the best well-scoped term of class `root` under `cost` (e.g. `builds == 0`
/// says a build-free representation exists).
pub fn best_cost<C: CostModel>(egraph: &IrGraph, root: Id, cost: &C) -> Result<Cost> {
    adora_core::with_stack(|| {
        let mut sel = Selector::new(egraph, cost, root);
        let s = sel.state(root, &[]);
        sel.solve();
        sel.cost_of(s, Mode::Any)
            .ok_or_else(|| internal("no well-scoped term exists for the requested class"))
    })
}

/// The best well-scoped term of class `root` under [`BuildFreeCost`].
pub fn extract_recexpr(egraph: &IrGraph, root: Id) -> Result<RecExpr<Ir>> {
    select(egraph, root, &[], None, &BuildFreeCost)
}

/// The best term of class `class` whose free index variables are among `scope`, under
/// [`BuildFreeCost`] (for substitution in custom appliers: the body of
/// `(build n i e)` in the scope of `i` and the enclosing binders). The result may mention
/// the variables of `scope` freely (it is not a closed term, so it is not scope-checked
/// as one).
pub fn extract_in_scope(egraph: &IrGraph, class: Id, scope: &[IVarId]) -> Result<RecExpr<Ir>> {
    select(egraph, class, scope, None, &BuildFreeCost)
}

/// The best well-scoped term of class `root` under `cost`.
pub fn extract_recexpr_with<C: CostModel>(
    egraph: &IrGraph,
    root: Id,
    cost: &C,
) -> Result<RecExpr<Ir>> {
    select(egraph, root, &[], None, cost)
}

/// The best well-scoped term of class `class` whose top node is `node` (one of the
/// class's nodes, as found in `egraph[class].nodes`), under [`BuildFreeCost`]. A member
/// that mentions an index variable bound only around *other* uses of the class has no
/// closed term, and this fails on it; rule tests that evaluate every member of a class use
/// [`extract_member`] and [`Member::instances`] (module `member` explains such members).
pub fn extract_node(egraph: &IrGraph, class: Id, node: &Ir) -> Result<RecExpr<Ir>> {
    select(egraph, class, &[], Some(node), &BuildFreeCost)
}

/// The nodes of `expr` reachable from its root, structurally equal ones merged (a parsed
/// `RecExpr` repeats them), root last.
fn hash_cons(expr: &RecExpr<Ir>) -> RecExpr<Ir> {
    let nodes = expr.as_ref();
    let mut out = RecExpr::default();
    let mut seen: std::collections::HashMap<Ir, Id> = std::collections::HashMap::new();
    let mut map: Vec<Option<Id>> = vec![None; nodes.len()];
    let Some(root) = nodes.len().checked_sub(1) else {
        return out;
    };
    // Post-order from the root with an explicit stack (children precede parents).
    let mut stack = vec![(root, false)];
    while let Some((i, expanded)) = stack.pop() {
        if map[i].is_some() {
            continue;
        }
        if !expanded {
            stack.push((i, true));
            stack.extend(nodes[i].children().iter().map(|c| (usize::from(*c), false)));
            continue;
        }
        let n = nodes[i]
            .clone()
            .map_children(|c| map[usize::from(c)].unwrap_or(c));
        let id = *seen.entry(n.clone()).or_insert_with(|| out.add(n));
        map[i] = Some(id);
    }
    out
}

/// The core function with `original`'s name, parameters and result type whose body is
/// `expr` (lets re-introduced for nodes used more than once, after merging structurally
/// equal nodes), validated (see the module docs). `analysis` gives the leaves their names.
pub fn to_function(
    expr: &RecExpr<Ir>,
    analysis: &IrAnalysis,
    original: &Function,
) -> Result<Function> {
    to_function_naming(expr, analysis, original, &mut NameSupply::new())
}

/// [`to_function`] naming the `let`s and binders of the body from `supply` (after
/// reserving `original`'s parameters), so that functions extracted one after another
/// into one program — bot's segments — never repeat a name (docs/architecture.md,
/// "Lowering kit": names unique by construction).
pub fn to_function_naming(
    expr: &RecExpr<Ir>,
    analysis: &IrAnalysis,
    original: &Function,
    supply: &mut NameSupply,
) -> Result<Function> {
    check_scoped(expr).map_err(internal)?;
    let expr = &hash_cons(expr);
    let body = adora_core::with_stack(|| lets::to_expr(expr, analysis, &original.params, supply))
        .map_err(internal)?;
    let f = Function {
        name: original.name.clone(),
        params: original.params.clone(),
        ret: original.ret.clone(),
        body,
    };
    recheck(&f, original, "the extracted program")?;
    Ok(f)
}

/// Type-checks `f`, a program derived from `original` by rewriting (`what` names it in
/// messages). A derived program that needs an array beyond the language's element limit
/// (docs/language.md, "Resource limits") is a resource error at `original`'s body — a
/// rewrite may materialise an intermediate array the source only indexed (found by
/// `adora fuzz`); any other failure is an internal error carrying the program.
pub fn recheck(f: &Function, original: &Function, what: &str) -> Result<()> {
    adora_core::with_stack(|| adora_core::check::check_function(f)).map_err(|d| {
        if d.kind == ErrorKind::Resource {
            Diagnostic::new(
                ErrorKind::Resource,
                original.body.span,
                format!("{what} would exceed a resource limit: {}", d.message),
            )
        } else {
            internal(format!("{what} does not re-check: {}", d.message))
                .with_note(adora_core::pretty::function(f))
        }
    })
}

/// Extracts class `root` as a function with `original`'s signature, under
/// [`BuildFreeCost`].
pub fn extract_function(egraph: &IrGraph, root: Id, original: &Function) -> Result<Function> {
    extract_function_with(egraph, root, original, &BuildFreeCost)
}

/// Extracts class `root` as a function with `original`'s signature, under `cost`.
pub fn extract_function_with<C: CostModel>(
    egraph: &IrGraph,
    root: Id,
    original: &Function,
    cost: &C,
) -> Result<Function> {
    let e = select(egraph, root, &[], None, cost)?;
    to_function(&e, &egraph.analysis, original)
}
