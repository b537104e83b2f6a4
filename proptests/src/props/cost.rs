//! Properties of the cost models (docs/cost-models.md): `ops` (seed 001), `work`/`span` (seed 004).

use super::util::{fail, load, load_program, load_text, opts};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::mk;
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, RetKind};
use crate::values::{from_reals, rat, real_size, Rat};
use adora_core::ast::{BinOp, Function, Pat};
use adora_core::diag::ErrorKind;
use adora_costmodel::{measure, Costs};
use adora_semantics::value::Value;

/// The cost properties.
pub fn properties() -> Vec<Property> {
    vec![
        Property {
            name: "cost/let-sharing",
            source: "seed 001 §4 (the op-count model; let costs nothing and shares)",
            fragment: "all",
            description: "for a generated real-array expression e with |e| scalars: ops(let x = e in x + x) = \
                          ops(e) + |e| and ops(e + e) = 2 ops(e) + |e|",
            figure: None,
            check: Check::Case { strategy: || CaseStrategy::all_fragments(40, RetKind::RealArray), check: let_sharing },
        },
        Property {
            name: "cost/dot-closed-form",
            source: "seed 001 §4 (op counts of dot and matrix products)",
            fragment: "shapes",
            description: "ops(sum(x * y)) = 2n - 1 for x, y: R[n] (also written reduce/map), and a matrix \
                          product of random shapes [n,k]·[k,m] costs n·m·(2k - 1), written with build/sum and \
                          with map/reduce",
            figure: None,
            check: Check::Dims { count: 3, max: 6, check: dot_closed_form },
        },
        Property {
            name: "cost/work-span-laws",
            source: "seed 004 §2 (work-depth model); engine invariant",
            fragment: "all",
            description: "span <= work and ops <= work for every generated program, and all costs are \
                          deterministic (two runs give equal counts)",
            figure: Some(Figure { label: "max span/work", agg: Agg::Max }),
            check: Check::Case { strategy: || CaseStrategy::all_fragments(40, RetKind::Any), check: work_span },
        },
        Property {
            name: "cost/scatter-work-independent-of-dest",
            source: "seed 004 §5.3 (scatter: constant depth, work proportional to the updates)",
            fragment: "shapes",
            description: "for random sizes n, m <= n and k: scatter_into(xs, iota(m), vs) with xs: R[n, k] \
                          and vs: R[m, k] has the same work and span for a destination of n and of 4n rows, \
                          its work grows with m (the updates) and its span does not",
            figure: None,
            check: Check::Dims { count: 3, max: 6, check: scatter_work },
        },
    ]
}

/// Costs of `f` on `inputs`; `Ok(None)` at a resource limit.
fn costs(f: &Function, inputs: &[Value<Rat>]) -> Result<Option<Costs>, String> {
    match measure(f, inputs, &opts()) {
        Ok(c) => Ok(Some(c)),
        Err(d) if d.kind == ErrorKind::Resource => Ok(None),
        Err(d) => Err(format!("the cost models fail: {d}")),
    }
}

fn let_sharing(case: &Case) -> Outcome {
    let main_pos = case
        .program
        .defs
        .iter()
        .rposition(|d| d.name == "main")
        .ok_or("no main")?;
    let body = case.program.defs[main_pos].body.clone();
    let n = case.main().ret.size() as u64;
    let with_body = |b: adora_core::ast::Expr| -> Result<Function, String> {
        let mut p = case.program.clone();
        p.defs[main_pos].body = b;
        load_program(&p, "main")
    };
    let f = load(case)?;
    let shared = "shared";
    let f_let = with_body(mk::let_(
        Pat::Var(shared.into()),
        body.clone(),
        mk::bin(BinOp::Add, mk::var(shared), mk::var(shared)),
    ))?;
    let f_dup = with_body(mk::bin(BinOp::Add, body.clone(), body))?;
    let (Some(c), Some(c_let), Some(c_dup)) = (
        costs(&f, &case.inputs)?,
        costs(&f_let, &case.inputs)?,
        costs(&f_dup, &case.inputs)?,
    ) else {
        return Pass::vacuous();
    };
    if c_let.ops != c.ops + n {
        return fail(format!(
            "ops(e) = {}, |e| = {n}, but ops(let x = e in x + x) = {}",
            c.ops, c_let.ops
        ));
    }
    if c_dup.ops != 2 * c.ops + n {
        return fail(format!(
            "ops(e) = {}, |e| = {n}, but ops(e + e) = {}",
            c.ops, c_dup.ops
        ));
    }
    Pass::ok()
}

/// Inputs `1, 2, 3, ...` (as rationals, in order) for every parameter of `f`.
fn counting_inputs(f: &Function) -> Vec<Value<Rat>> {
    let mut next = 0i64;
    f.params
        .iter()
        .map(|p| {
            let xs: Vec<Rat> = (0..real_size(&p.ty))
                .map(|_| {
                    next += 1;
                    rat(next % 7 - 3, 1 + next % 3)
                })
                .collect();
            from_reals(&p.ty, &xs)
        })
        .collect()
}

fn ops_of(src: &str) -> Result<u64, String> {
    let f = load_text(src, "main").map_err(|e| format!("{e}\n{src}"))?;
    let c = costs(&f, &counting_inputs(&f))?.ok_or_else(|| format!("resource limit on\n{src}"))?;
    Ok(c.ops)
}

fn dot_closed_form(d: &[usize]) -> Outcome {
    let (n, k, m) = (d[0], d[1], d[2]);
    let dot = (2 * n - 1) as u64;
    let mm = (n * m * (2 * k - 1)) as u64;
    let programs = [
        (format!("def main(x: R[{n}], y: R[{n}]) -> R =\n  sum(x * y)\n"), dot),
        (format!("def main(x: R[{n}], y: R[{n}]) -> R =\n  reduce(+, 0.0, map((p, q) => p * q, x, y))\n"), dot),
        (
            format!(
                "def main(a: R[{n},{k}], b: R[{k},{m}]) -> R[{n},{m}] =\n  build [{n}, {m}] ((i, j) => sum(build {k} (l => a[i, l] * b[l, j])))\n"
            ),
            mm,
        ),
        (
            format!(
                "def main(a: R[{n},{k}], b: R[{k},{m}]) -> R[{n},{m}] =\n  map(r => map(c => reduce(+, 0.0, map((p, q) => p * q, r, c)), transpose([1, 0], b)), a)\n"
            ),
            mm,
        ),
    ];
    for (src, want) in programs {
        let got = ops_of(&src)?;
        if got != want {
            return fail(format!("ops = {got}, expected {want} for\n{src}"));
        }
    }
    Pass::ok()
}

fn work_span(case: &Case) -> Outcome {
    let f = load(case)?;
    let (Some(c1), Some(c2)) = (costs(&f, &case.inputs)?, costs(&f, &case.inputs)?) else {
        return Pass::vacuous();
    };
    if c1 != c2 {
        return fail(format!("two runs give different costs: {c1:?} vs {c2:?}"));
    }
    if c1.span > c1.work {
        return fail(format!("span {} > work {}", c1.span, c1.work));
    }
    if c1.ops > c1.work {
        return fail(format!("ops {} > work {}", c1.ops, c1.work));
    }
    Pass::figure(if c1.work == 0 {
        0.0
    } else {
        c1.span as f64 / c1.work as f64
    })
}

/// `work` and `span` of `scatter_into(xs, iota(m), vs)` with `rows` destination rows.
fn scatter_costs(rows: usize, m: usize, k: usize) -> Result<(u64, u64), String> {
    let src = format!(
        "def main(xs: R[{rows},{k}], vs: R[{m},{k}]) -> R[{rows},{k}] =\n  scatter_into(xs, iota({m}), vs)\n"
    );
    let f = load_text(&src, "main").map_err(|e| format!("{e}\n{src}"))?;
    let c = costs(&f, &counting_inputs(&f))?.ok_or_else(|| format!("resource limit on\n{src}"))?;
    Ok((c.work, c.span))
}

fn scatter_work(d: &[usize]) -> Outcome {
    let (m, extra, k) = (d[0], d[1], d[2]);
    let n = m + extra;
    let (w1, s1) = scatter_costs(n, m, k)?;
    let (w4, s4) = scatter_costs(4 * n, m, k)?;
    if (w1, s1) != (w4, s4) {
        return fail(format!(
            "m = {m} updates of {k} scalars: (work, span) = ({w1}, {s1}) into {n} rows but ({w4}, {s4}) into {} rows",
            4 * n
        ));
    }
    let (w2, s2) = scatter_costs(2 * n, 2 * m, k)?;
    if w2 <= w1 {
        return fail(format!(
            "work {w1} for {m} updates but {w2} for {} updates",
            2 * m
        ));
    }
    if s2 != s1 {
        return fail(format!(
            "span {s1} for {m} updates but {s2} for {} updates (depth is constant)",
            2 * m
        ));
    }
    Pass::ok()
}
