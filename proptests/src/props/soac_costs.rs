//! Cost and statement-sequence properties of engine `soac`'s reverse mode (seed 004 *AD
//! for an Array Language with Nested Parallelism* §1, §4.1, §4.2, §5.1, §5.2, §7.2): work
//! and span of the VJP program within `c · (d + 1)` of the primal's, the cheap-gradient
//! constants measured, the vjp of statement sequences, scans with vectorised operators
//! against segmented scans, and the work and span of the scan rule. Costs are the cost
//! model's (`adora_costmodel::measure`, exact evaluation).

use super::soac_maps::{dims_rng, exact_vjp, random_inputs};
use super::util::{load, load_text, opts};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, Fragment, GenSpec, RetKind};
use crate::values::{from_reals, rat, real_size, Rat};
use adora_core::ast::{Expr, ExprKind, Op, Pat};
use adora_costmodel::Costs;
use adora_rewrites::engine::Question;
use adora_rewrites::soac::reverse::{self, Rules};
use adora_semantics::value::Value;
use std::collections::HashSet;

/// The constant `c` of `soac/work-span-preserved`.
pub const WORK_SPAN_C: u64 = 100;
/// The ops constant `k` of `soac/cheap-gradient` (`ops(grad) ≤ k · ops(p) + io`).
pub const CHEAP_K: u64 = 128;
/// The constant of the inputs and outputs in `soac/cheap-gradient`.
pub const CHEAP_IO: u64 = 8;
/// The constant of `soac/rule-scan-work-span`.
pub const SCAN_C: u64 = 80;

fn strategy() -> CaseStrategy {
    CaseStrategy {
        specs: vec![GenSpec::new(Fragment::Soac)
            .size(40)
            .ret(RetKind::RealScalar)],
    }
}

fn scalar_strategy() -> CaseStrategy {
    CaseStrategy {
        specs: vec![GenSpec::new(Fragment::Scalar)
            .size(40)
            .ret(RetKind::RealScalar)],
    }
}

/// Primal and gradient costs of a case (`None`: the primal fails or hits a limit), the
/// depth of its deepest scope after lowering, and the real scalars of its inputs and
/// output.
fn costs(case: &Case) -> Result<Option<(Costs, Costs, u64, u64)>, String> {
    let f = load(case)?;
    if f.ret != adora_core::types::Type::real() || lambda_on_slices(&f)? {
        return Ok(None);
    }
    let Ok(primal) = adora_costmodel::measure(&f, &case.inputs, &opts()) else {
        return Ok(None);
    };
    let dp = reverse::program(&f, Question::Grad).map_err(|d| format!("no program: {d}"))?;
    let mut xs = case.inputs.clone();
    xs.push(from_reals(&f.ret, &[rat(1, 1)]));
    let grad = adora_costmodel::measure(&dp.function, &xs, &opts())
        .map_err(|d| format!("the gradient program fails where the primal runs: {d}"))?;
    let lowered = adora_rewrites::soac::lower::lower(&f).map_err(|d| d.to_string())?;
    let depth = reverse::depths(&lowered)
        .map_err(|d| d.to_string())?
        .into_values()
        .max()
        .unwrap_or(0) as u64;
    let io = f
        .params
        .iter()
        .map(|p| real_size(&p.ty) as u64)
        .sum::<u64>()
        + 1;
    Ok(Some((primal, grad, depth, io)))
}

/// Whether `f` has a `reduce`, `scan` or `reduce_by_index` with a lambda operator on
/// slices (not scalars): its general rule composes the operator's Jacobians, `O(m³)`
/// work per element for slices of `m` scalars, outside the constant-size guarantee of
/// seed 004 §5.2 — such programs are vacuous for the cost bounds.
fn lambda_on_slices(f: &adora_core::ast::Function) -> Result<bool, String> {
    let types = adora_core::check::node_types(f).map_err(|d| d.to_string())?;
    let slice = |ne: &Expr| {
        types
            .get(ne)
            .is_some_and(|t| *t != adora_core::types::Type::real())
    };
    Ok(adora_core::visit::subexprs(&f.body)
        .into_iter()
        .any(|e| match &e.kind {
            ExprKind::Reduce(Op::Lambda(_), ne, _) | ExprKind::Scan(Op::Lambda(_), ne, _) => {
                slice(ne)
            }
            ExprKind::ReduceByIndex {
                op: Op::Lambda(_),
                ne,
                ..
            } => slice(ne),
            _ => false,
        }))
}

/// X1a: `work(vjp) ≤ c (d + 1) (work(p) + io)`, `span(vjp) ≤ c (d + 1) (span(p) + io)`.
fn work_span(case: &Case) -> Outcome {
    let Some((p, g, d, io)) = costs(case)? else {
        return Pass::vacuous();
    };
    let bw = WORK_SPAN_C * (d + 1) * (p.work + io);
    let bs = WORK_SPAN_C * (d + 1) * (p.span + io);
    if g.work > bw || g.span > bs {
        return Err(format!(
            "depth {d}, io {io}: primal work {} span {}, gradient work {} span {} (bounds {bw}, {bs})",
            p.work, p.span, g.work, g.span
        ));
    }
    let r = |x: u64, y: u64| x as f64 / (((d + 1) * y) as f64);
    Pass::figure(r(g.work, p.work + io).max(r(g.span, p.span + io)))
}

/// X5.1f, X7.2: engine `soac` declares no constants (`Engine::cheap_gradient` is
/// `None`), so the bounds checked are `ops(grad) ≤ CHEAP_K · ops(p) + CHEAP_IO · io` when
/// the primal does arithmetic, and `work(grad) ≤ CHEAP_K · (work(p) + io)` always; the
/// figure is the smallest ops constant `k` that holds per case.
fn cheap(case: &Case) -> Outcome {
    let Some((p, g, _, io)) = costs(case)? else {
        return Pass::vacuous();
    };
    if g.work > CHEAP_K * (p.work + io) {
        return Err(format!(
            "work: primal {}, gradient {} (io {io}), more than {CHEAP_K} · (primal + io)",
            p.work, g.work
        ));
    }
    if p.ops == 0 {
        return Pass::ok();
    }
    if !adora_costmodel::cheap_gradient_bound(&p, &g, CHEAP_K, CHEAP_IO, io) {
        return Err(format!(
            "ops: primal {}, gradient {} (io {io}), more than {CHEAP_K} · primal + {CHEAP_IO} · io",
            p.ops, g.ops
        ));
    }
    let k = adora_costmodel::cheap_gradient_min_k(&p, &g, CHEAP_IO, io).unwrap_or(0);
    Pass::figure(k as f64)
}

/// The names the top-level `let` chain of `e` binds, in order, with their values.
fn chain(e: &Expr) -> Vec<(Vec<String>, &Expr)> {
    let mut out = Vec::new();
    let mut e = e;
    while let ExprKind::Let(p, v, b) = &e.kind {
        let names = match p {
            Pat::Var(x) => vec![x.clone()],
            Pat::Tuple(xs) => xs.clone(),
        };
        out.push((names, &**v));
        e = b;
    }
    out
}

/// X4.2a: on statement sequences (the scalar fragment) the VJP is exact, and the
/// derivative program is the forward sweep then the return sweep: every source `let`
/// bound at its top level is bound before the first binding that reads the cotangent.
fn stms(case: &Case) -> Outcome {
    let f = load(case)?;
    let mut rng = super::util::aux_rng(case, 0x42A);
    exact_vjp(&f, &case.inputs, Rules::default(), &mut rng)?;
    let dp = reverse::program(&f, Question::Vjp).map_err(|d| d.to_string())?;
    let ct = dp
        .function
        .params
        .last()
        .map(|p| p.name.clone())
        .unwrap_or_default();
    let source: HashSet<String> = chain(&f.body).into_iter().flat_map(|(n, _)| n).collect();
    let mut reads_ct: HashSet<String> = HashSet::from([ct]);
    let mut return_sweep = false;
    for (names, v) in chain(&dp.function.body) {
        if adora_core::visit::free_vars(v)
            .iter()
            .any(|x| reads_ct.contains(x))
        {
            return_sweep = true;
            reads_ct.extend(names.iter().cloned());
        } else if return_sweep && names.iter().any(|n| source.contains(n)) {
            return Err(format!(
                "`{}` of the forward sweep is bound after the return sweep began:\n{}",
                names.join(", "),
                adora_core::pretty::function(&dp.function)
            ));
        }
    }
    if source.is_empty() {
        return Pass::vacuous();
    }
    Pass::ok()
}

const OPS: [&str; 5] = ["+", "*", "min", "max", "(a, b) => a * b + a"];

/// X5.2c: `scan(op, ne, xs)` with `xs: R[n, m]` (a vectorised operator) and the segmented
/// scan `transpose(map((c, e) => scan(op, e, c), transpose(xs), ne))` have equal values
/// and VJPs, both the reference's exactly.
fn vectorised(d: &[usize]) -> Outcome {
    let mut rng = dims_rng(d, 0x52C);
    let (n, m, op) = (1 + d[0] % 4, 1 + d[1] % 3, OPS[(d[0] / 4) % OPS.len()]);
    let vec_src =
        format!("def main(ne: R[{m}], xs: R[{n}, {m}]) -> R[{n}, {m}] = scan({op}, ne, xs)");
    let seg_src = format!(
        "def main(ne: R[{m}], xs: R[{n}, {m}]) -> R[{n}, {m}] =
           transpose([1, 0], map((c, e) => scan({op}, e, c), transpose([1, 0], xs), ne))"
    );
    let fv = load_text(&vec_src, "main")?;
    let fs = load_text(&seg_src, "main")?;
    let xs = random_inputs(&fv, &mut rng);
    let a = super::util::exact(&fv, &xs)?;
    let b = super::util::exact(&fs, &xs)?;
    if let (super::util::Eval::Value(a, _), super::util::Eval::Value(b, _)) = (a, b) {
        if a != b {
            return Err(format!(
                "{vec_src}: values differ from the segmented scan's"
            ));
        }
    }
    let mut r1 = rng.clone();
    exact_vjp(&fv, &xs, Rules::default(), &mut rng)?;
    exact_vjp(&fs, &xs, Rules::default(), &mut r1)?;
    Pass::ok()
}

/// X5.2b: scans of `n` scalars or `R[2]` slices (constant element size): the VJP's work
/// and span within `SCAN_C` times the primal's (span: plus `log2 n`).
fn scan_cost(d: &[usize]) -> Outcome {
    let n = 1usize << (1 + d[0] % 8);
    let op = OPS[d[1] % OPS.len()];
    let (ty, ne) = if d[1].is_multiple_of(2) {
        (format!("R[{n}]"), "0.5".to_string())
    } else {
        (format!("R[{n}, 2]"), "[0.5, 1.0]".to_string())
    };
    let src = format!("def main(xs: {ty}) -> {ty} = scan({op}, {ne}, xs)");
    let f = load_text(&src, "main")?;
    let xs: Vec<Value<Rat>> = adora_costmodel::default_inputs(&f);
    let p = adora_costmodel::measure(&f, &xs, &opts()).map_err(|e| e.to_string())?;
    let dp = reverse::program(&f, Question::Vjp).map_err(|e| e.to_string())?;
    let dxs = adora_costmodel::default_inputs(&dp.function);
    let g = adora_costmodel::measure(&dp.function, &dxs, &opts()).map_err(|e| e.to_string())?;
    let log = (usize::BITS - n.leading_zeros()) as u64;
    if g.work > SCAN_C * p.work.max(1) || g.span > SCAN_C * (p.span + log) {
        return Err(format!(
            "{src}: primal work {} span {}, VJP work {} span {}",
            p.work, p.span, g.work, g.span
        ));
    }
    Pass::figure(g.work as f64 / p.work.max(1) as f64)
}

/// The cost and statement properties of engine `soac`.
pub fn properties() -> Vec<Property> {
    vec![
        Property {
            name: "soac/work-span-preserved",
            source: "seed 004 abstract, §1, §4.1",
            fragment: "soac",
            description: "on generated programs of the seed-004 fragment with a scalar result and no lambda operator on slices (whose general rule costs O(m³) per element for slices of m scalars, outside §5.2's constant-size guarantee; vacuous), engine soac's gradient program has work ≤ c·(d+1)·(work(p) + io) and span ≤ c·(d+1)·(span(p) + io), with c = WORK_SPAN_C = 100, d the depth of the deepest scope after lowering and io the real input scalars plus one (cost models work and span, exact evaluation; the figure: the worst of work(grad) / ((d+1)·(work(p)+io)) and the span analogue)",
            figure: Some(Figure { label: "worst work or span / ((d+1)(primal + io))", agg: Agg::Max }),
            check: Check::Case { strategy, check: work_span },
        },
        Property {
            name: "soac/cheap-gradient",
            source: "seed 004 §5.1 footnote 11, §7.2",
            fragment: "soac",
            description: "engine soac declares no cheap-gradient constants, so on generated programs of the seed-004 fragment with a scalar result and no lambda operator on slices (vacuous) the bounds ops(grad) ≤ k·ops(p) + 8·io (when the primal does arithmetic) and work(grad) ≤ k·(work(p) + io) are checked with k = CHEAP_K = 128 (io: real input scalars plus one); the figure is the smallest ops constant k that holds per case, its maximum reported",
            figure: Some(Figure { label: "smallest ops constant k", agg: Agg::Max }),
            check: Check::Case { strategy, check: cheap },
        },
        Property {
            name: "soac/rule-stms-sound",
            source: "seed 004 §4.2 (Fig. 3: bodies and statement sequences)",
            fragment: "scalar",
            description: "on statement sequences (generated programs of the scalar fragment) engine soac's VJP equals the reference VJP exactly, and its program is the forward sweep then the return sweep: every source let bound at the top level is bound before the first binding that reads the cotangent",
            figure: None,
            check: Check::Case { strategy: scalar_strategy, check: stms },
        },
        Property {
            name: "soac/scan-vectorised-segmented-sound",
            source: "seed 004 §5.2 (vectorised operators)",
            fragment: "soac",
            description: "scan(op, ne, xs) with xs: R[n, m] (op +, *, min, max or a lambda, elementwise on slices) equals the segmented scan transpose(map((c, e) => scan(op, e, c), transpose(xs), ne)) in value, and engine soac's VJPs of both equal the reference VJP exactly",
            figure: None,
            check: Check::Dims { count: 2, max: 1000, check: vectorised },
        },
        Property {
            name: "soac/rule-scan-work-span",
            source: "seed 004 §5.2 (work-depth of the scan rule)",
            fragment: "soac",
            description: "scans of 2 to 256 scalars or R[2] slices with +, *, min, max or a lambda: engine soac's VJP program has work ≤ SCAN_C·work(p) and span ≤ SCAN_C·(span(p) + log2 n), SCAN_C = 80 (cost model, default inputs; the figure: the worst work ratio)",
            figure: Some(Figure { label: "worst VJP / primal work", agg: Agg::Max }),
            check: Check::Dims { count: 2, max: 1000, check: scan_cost },
        },
    ]
}
