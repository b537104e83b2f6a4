//! Reverse mode of engine `soac` by redundant execution (seed 004 *AD for an Array
//! Language with Nested Parallelism* §4–§6; docs/engines/soac-reverse.md): the VJP of a
//! program as a derivative program in the core language, without a tape.
//!
//! The body is put in statement form ([`ir`]: A-normal form with the constructs with
//! bodies kept as statements holding bodies). The vjp of a body (Fig. 3, [`sweep`]) is
//! its forward sweep followed by the return sweep of its statements in reverse order,
//! adjoints final before use; it returns the adjoints of the body's free variables.
//! Nested bodies re-execute their forward sweep inside the enclosing return sweep.
//!
//! | construct | rule | module | paper |
//! |---|---|---|---|
//! | statements, `let`, the vjp of a body | forward sweep; return sweep in reverse order | [`sweep`] | §4, Fig. 3 |
//! | scalar operations, primitives | `ā += ȳ · ∂a`, partials of `crate::prims` | [`flat`] | §4.1 |
//! | `min`, `max`, `select` | the selected operand gets `ȳ` | [`flat`] | §4.1 |
//! | `sum`, `sum_outer`, `replicate`, `transpose`, `reshape`, `append`, `stack`, `[…]` | the table's transpose rules | [`flat`] | §4.1 |
//! | tuples, projections | componentwise | [`flat`] | §4.1 |
//! | indexing `y = xs[i]` | `xs̄ = reduce_by_index(xs̄, +, 0, [i], [ȳ])` | [`flat`] | §4.2 |
//! | `if` | both branches differentiated, the taken one run | [`control`] | §6.3 |
//! | `loop` | checkpoint per iteration, reversed loop re-executing the body | [`control`] | §4.2, §4.3 |
//! | strip-mining (`Checkpoint::StripMine`) | loops split into nested strips first | [`stripmine`] | §1 fn. 1, §4.3 |
//! | `map` | reversed lambda mapped; free variables summed by `reduce(+)` | [`map`] | §5.4, §6.1 |
//! | free arrays of a `map` read by indexing, in its body or nested `map`s and `if`s | accumulators: (index, value) updates added by `reduce_by_index(+)` after the outermost `map` | [`map_acc`], [`acc_if`] | §5.4 |
//! | accumulator updates with indices invariant to a `map` | summed over the `map` by `reduce(+)` | [`acc_reduce`] | §6.1 |
//! | `reduce`, `scan`, `reduce_by_index`, `scatter_into` | [`Rules`] (`soac::rules`) | [`soac`] | §5.1–§5.3 |
//!
//! The derivative program (`Full` layout): `(x1, …, xn, ct) -> (value, x̄k…)`, one
//! cotangent output per input with reals, in input order; `grad` programs are the same,
//! called with cotangent 1. [`counted`] also reports how many times each scope's primal
//! statements run in the derivative program ([`Counts`]).

pub mod acc_if;
pub mod acc_reduce;
pub mod build;
pub mod control;
pub mod dce;
pub mod flat;
pub mod ir;
pub mod map;
pub mod map_acc;
pub mod nested_acc;
pub mod once;
pub mod soac;
pub mod stripmine;
pub mod sweep;

pub use soac::Rules;

use crate::engine::{DerivativeProgram, Input, Layout, Output, Question, Signature};
use adora_core::ast::{Expr, ExprKind, Function, Param};
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use build::{wrap, Adj, Rev};
use ir::{mk, unsupported, var, Norm};
use std::collections::{BTreeMap, HashMap};

/// Per scope (labelled `main`, `map x`, `loop i`, `then #k`, `else #k`, `lambda a` after
/// the construct and its first binder in the source): how many copies of its primal
/// statements the derivative program contains after dead-code elimination ([`dce`]) —
/// copies of which at least one statement is still there. Each copy runs once wherever
/// the scope ran once in the primal program, so a count of `c` means the scope's primal
/// work is done `c` times (`c - 1` re-executions). A scope without statements (a body
/// that is an atom) counts 0. Loops with statements: exactly 2 (the checkpointing
/// forward sweep and the re-execution in the return sweep, which is never removed).
pub type Counts = BTreeMap<String, usize>;

/// The VJP (or gradient) program of `f` with the default [`Rules`].
pub fn program(f: &Function, q: Question) -> Result<DerivativeProgram> {
    counted(f, q, Rules::default()).map(|(dp, _)| dp)
}

/// How loops are checkpointed (seed 004 §4.3, §6.2; docs/engines/soac-reverse.md): the
/// engine interface's loop policy, `--checkpoint every|once|stripmine:K`.
pub use crate::engine::options::Checkpoint;

/// The VJP (or gradient) program of `f` with the SOAC rules `rules`, and the
/// re-execution counts of its scopes; loops checkpointed at every iteration.
pub fn counted(f: &Function, q: Question, rules: Rules) -> Result<(DerivativeProgram, Counts)> {
    counted_with(f, q, rules, Checkpoint::Every)
}

/// [`counted`] with the loop checkpointing policy `checkpoint`.
pub fn counted_with(
    f: &Function,
    q: Question,
    rules: Rules,
    checkpoint: Checkpoint,
) -> Result<(DerivativeProgram, Counts)> {
    derive(f, q, rules, checkpoint).map(|d| (d.program, d.counts))
}

/// A derivative program with what its construction observed.
#[derive(Clone, Debug)]
pub struct Derived {
    /// The VJP (or gradient) program.
    pub program: DerivativeProgram,
    /// The re-execution counts of its scopes ([`Counts`]).
    pub counts: Counts,
    /// How many times each framework rule ran in the return sweeps: `rev/if`,
    /// `rev/loop-return`, `rev/loop-once` (per component restored from a loop's result),
    /// `rev/index` (docs/engines/soac-reverse.md, "Rules"); a rule not listed never ran.
    pub fired: BTreeMap<&'static str, usize>,
    /// Names that got an adjoint contribution after their statement's rule had read
    /// their adjoint (seed 004 §2.0.2, `rev/final-before-use`): empty when every adjoint
    /// is final before it is used.
    pub late: Vec<adora_core::ast::Name>,
}

/// The derivative program of `f` for `q` with `rules` and `checkpoint`, its counts, the
/// rules that fired and the late contributions ([`Derived`]).
pub fn derive(f: &Function, q: Question, rules: Rules, checkpoint: Checkpoint) -> Result<Derived> {
    q.check_function(f)?;
    if q == Question::Jvp {
        return Err(unsupported(
            f.body.span,
            "engine soac's reverse mode answers grad and vjp; jvp is its forward mode",
        ));
    }
    let Prepared {
        function: lowered,
        mut body,
        mut supply,
        mut types,
        ifs,
    } = prepare(f)?;
    let f = &lowered;
    let mut once = HashMap::new();
    match checkpoint {
        Checkpoint::Every => {}
        Checkpoint::StripMine(k) => stripmine::stripmine(&mut body, k, &mut supply, &mut types),
        Checkpoint::Once => {
            for (v, p) in once::plan(&body) {
                once.insert(v, p.once.iter().map(|(_, b)| *b).collect());
            }
        }
    }
    let ct = supply.fresh("ct");
    types.insert(ct.clone(), f.ret.clone());
    let mut rev = Rev {
        supply,
        types,
        map: HashMap::new(),
        log: Vec::new(),
        open: Vec::new(),
        reexec: false,
        droppable: Default::default(),
        accs: HashMap::new(),
        rules,
        ifs,
        once,
        fired: BTreeMap::new(),
        late: Vec::new(),
    };
    let wanted: Vec<_> = f
        .params
        .iter()
        .filter(|p| p.ty.has_reals())
        .map(|p| p.name.clone())
        .collect();
    let ybar = if f.ret.has_reals() {
        Adj::Atom(var(&ct))
    } else {
        Adj::Zero
    };
    let mut out = Vec::new();
    let (value, adjs) = adora_core::with_stack(|| rev.vjp_body(&body, ybar, &wanted, &mut out))?;
    let mut results = vec![value];
    let mut outputs = vec![Output::Value];
    for (k, p) in f.params.iter().enumerate() {
        if let Some(i) = wanted.iter().position(|w| *w == p.name) {
            results.push(rev.materialize(&adjs[i], &p.ty, &mut out)?);
            outputs.push(Output::Cotangent(k));
        }
    }
    let tail = if results.len() == 1 {
        results.remove(0)
    } else {
        mk(ExprKind::Tuple(results))
    };
    let mut params = f.params.clone();
    params.push(Param {
        name: ct,
        ty: f.ret.clone(),
        span: f.body.span,
    });
    let ret_tys: Vec<_> = outputs
        .iter()
        .map(|o| match o {
            Output::Cotangent(k) => f.params[*k].ty.clone(),
            _ => f.ret.clone(),
        })
        .collect();
    let ret = if ret_tys.len() == 1 {
        ret_tys[0].clone()
    } else {
        adora_core::types::Type::Tuple(ret_tys)
    };
    let mut body = wrap(out, tail);
    adora_core::with_stack(|| dce::dce(&mut body, &rev.droppable));
    let counts = counts_after(&rev.log, &body);
    let function = Function {
        name: format!("{}_vjp", f.name),
        params,
        ret,
        body,
    };
    let function = spanned(function, f);
    adora_core::with_stack(|| adora_core::check::check_function(&function)).map_err(|d| {
        Diagnostic::new(
            ErrorKind::Internal,
            f.body.span,
            format!(
                "internal error: engine soac's reverse mode built an ill-typed program: {}",
                d.message
            ),
        )
    })?;
    let mut inputs: Vec<Input> = (0..f.params.len()).map(Input::Primal).collect();
    inputs.push(Input::Cotangent);
    let program = DerivativeProgram {
        question: q,
        primal: f.clone(),
        function,
        signature: Signature {
            inputs,
            outputs,
            layout: Layout::Full,
        },
    };
    Ok(Derived {
        program,
        counts,
        fired: rev.fired,
        late: rev.late,
    })
}

/// The program differentiated (the bulk forms lowered, nested accumulators flattened)
/// in statement form, with its name supply and types.
struct Prepared {
    function: Function,
    body: ir::Body,
    supply: adora_core::visit::NameSupply,
    types: HashMap<adora_core::ast::Name, adora_core::types::Type>,
    ifs: usize,
}

fn prepare(f: &Function) -> Result<Prepared> {
    // The bulk forms (`build`, `gather`, `scatter`, `sum`, ...) as SOACs first (seed 004
    // §2; `soac::lower`): the return sweep knows only SOACs. The lowered program is the
    // one differentiated, and so the primal of the derivative program.
    let lowered = super::lower::lower(f)?;
    let function = nested_acc::flatten_nested_accumulators(&lowered)?;
    let f = &function;
    let names: Vec<_> = f.params.iter().map(|p| p.name.clone()).collect();
    let mut supply = crate::kit::names::supply_for(&names, &f.body);
    let mut types = HashMap::new();
    for p in &f.params {
        types.insert(p.name.clone(), p.ty.clone());
    }
    let mut norm = Norm {
        supply: &mut supply,
        types: &mut types,
        alias: HashMap::new(),
        ifs: 0,
    };
    let body = adora_core::with_stack(|| norm.body("main".into(), &f.body))?;
    let ifs = norm.ifs;
    Ok(Prepared {
        function,
        body,
        supply,
        types,
        ifs,
    })
}

/// The plan of `--checkpoint once` for `f`'s loops (nested ones included, in program
/// order): per loop, which accumulator components are restored from the loop's result
/// instead of checkpointed per iteration (seed 004 §6.2; [`once`]).
pub fn once_plan(f: &Function) -> Result<Vec<once::LoopPlan>> {
    let p = prepare(f)?;
    Ok(once::plan(&p.body).into_iter().map(|(_, l)| l).collect())
}

/// Per scope of `f` (the labels of [`Counts`]; operator lambdas excepted): its nesting
/// depth, `main` 0 and each body of an `if`, `map` or `loop` one more than the scope it is
/// in. Seed 004 §4.1 bounds a scope's copies by its depth plus one (`S004-X1b`).
pub fn depths(f: &Function) -> Result<BTreeMap<String, usize>> {
    let names: Vec<_> = f.params.iter().map(|p| p.name.clone()).collect();
    let mut supply = crate::kit::names::supply_for(&names, &f.body);
    let mut types = HashMap::new();
    for p in &f.params {
        types.insert(p.name.clone(), p.ty.clone());
    }
    let mut norm = Norm {
        supply: &mut supply,
        types: &mut types,
        alias: HashMap::new(),
        ifs: 0,
    };
    let body = adora_core::with_stack(|| norm.body("main".into(), &f.body))?;
    let mut out = BTreeMap::new();
    walk_depths(&body, 0, &mut out);
    Ok(out)
}

fn walk_depths(b: &ir::Body, d: usize, out: &mut BTreeMap<String, usize>) {
    out.insert(b.label.clone(), d);
    for st in &b.stmts {
        match &st.rhs {
            ir::Rhs::If { then_, else_, .. } => {
                walk_depths(then_, d + 1, out);
                walk_depths(else_, d + 1, out);
            }
            ir::Rhs::Map { body, .. } | ir::Rhs::Loop { body, .. } => walk_depths(body, d + 1, out),
            ir::Rhs::Flat(_) | ir::Rhs::Soac(_) => {}
        }
    }
}

/// The copies of `log` that survive dead-code elimination in `body` (one of their
/// statements is still bound there), counted per label.
fn counts_after(log: &[(String, Vec<adora_core::ast::Name>)], body: &Expr) -> Counts {
    let bound: std::collections::HashSet<&adora_core::ast::Name> =
        adora_core::visit::all_binders(body)
            .into_iter()
            .map(|(n, _)| n)
            .collect();
    let mut counts = Counts::new();
    for (label, names) in log {
        let entry = counts.entry(label.clone()).or_insert(0);
        if names.iter().any(|n| bound.contains(n)) {
            *entry += 1;
        }
    }
    counts
}

/// The function with its body's span set to the primal body's (for error positions).
fn spanned(mut g: Function, f: &Function) -> Function {
    g.body = Expr {
        span: f.body.span,
        ..g.body
    };
    g
}
