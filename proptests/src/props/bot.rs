//! Properties of the bulk-operation transform (seed 000 §5; `adora_rewrites::bot`):
//! Theorem 5.1 (termination within limits and the normal form), exact preservation of
//! values and types, `ops` never increased (§5.1), clean stops under small limits, and the
//! soundness of each rule on generated programs.
//! (That every rule fires somewhere is a test: `rewrites/tests/it/bot_coverage.rs`.)

use super::util::{aux_rng, exact, fail, is_resource, load, opts, Eval};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, Fragment, GenSpec, RetKind};
use crate::values::literal;
use adora_core::ast::Function;
use adora_core::diag::ErrorKind;
use adora_core::visit::node_count;
use adora_costmodel::measure;
use adora_rewrites::bot::projection::check_normal_form;
use adora_rewrites::bot::{rules, transform, BotConfig};
use adora_rewrites::ir::extract::{extract_member, to_function};
use adora_rewrites::ir::runner::{run_phase, Phase};
use adora_rewrites::ir::translate::translate;
use rand::Rng;

fn bulk() -> CaseStrategy {
    CaseStrategy::new(GenSpec::new(Fragment::Bulk).size(32).ret(RetKind::Any))
}

/// The `bot` properties.
pub fn properties() -> Vec<Property> {
    vec![
        Property {
            name: "bot/normal-form",
            source: "seed 000 §5.1, Theorem 5.1 (the rewrite system is strongly normalising; normal forms \
                     have no build1 and index only variables, constants, appends and scatters)",
            fragment: "bulk",
            description: "bot of a generated program stops within its default limits (200 iterations, \
                          400,000 e-nodes) and its result has no `build` and indexes only variables (or \
                          projections of tuple variables), constant literals, appends and scatters (the \
                          figure: the largest e-graph, in e-nodes)",
            figure: Some(Figure { label: "e-nodes (max)", agg: Agg::Max }),
            check: Check::Case { strategy: bulk, check: normal_form },
        },
        Property {
            name: "bot/preserves-semantics",
            source: "seed 000 §5 (every bot rule is an equation of the core language); docs/language.md \
                     (out-of-bounds reads give 0, strict select)",
            fragment: "bulk",
            description: "the result of bot has the original's signature and evaluates exactly to the \
                          original's value on the case's inputs (the figure: the largest ratio of the \
                          output's size to the input's, in expression nodes)",
            figure: Some(Figure { label: "output/input nodes (max)", agg: Agg::Max }),
            check: Check::Case { strategy: bulk, check: preserves },
        },
        Property {
            name: "bot/ops-non-increasing",
            source: "seed 000 §5.1 (the bot rules preserve time complexity); seed 001 §2.2 (the `ops` \
                     cost model, docs/cost-models.md)",
            fragment: "bulk",
            description: "bot's result costs no more `ops` than the original on the case's inputs \
                          (a let outside binders used more than once or under a binder stays a let: \
                          docs/rules/bot.md, \"Materialised lets\"; a let inside a build body read more \
                          than once there becomes a let of a build first: build-let) (the figure: the \
                          largest ratio ops(bot(p)) / ops(p), over cases with ops(p) > 0)",
            figure: Some(Figure { label: "ops ratio (max)", agg: Agg::Max }),
            check: Check::Case { strategy: bulk, check: ops_non_increasing },
        },
        Property {
            name: "bot/runner-stops-cleanly",
            source: "engine invariant (docs/architecture.md: one runner per phase, explicit limits, StopReason checked)",
            fragment: "bulk",
            description: "under random small limits (1 to 8 iterations; 40, 150 or 100,000 e-nodes) bot \
                          either returns a result in normal form (whatever stopped the phase) or fails \
                          with a resource error that names the limit and the e-graph's figures; it never \
                          returns a non-normal result or another error (the figure: the fraction of \
                          cases stopped by a limit)",
            figure: Some(Figure { label: "limit errors (fraction)", agg: Agg::Mean }),
            check: Check::Case { strategy: bulk, check: stops_cleanly },
        },
        Property {
            name: "bot/rule-sound",
            source: "seed 000 §5.1, Figs. 9-11 and horde-ad's rule set (each rule is an equation); \
                     the egg paper (Willsey et al., POPL 2021) (per-rule differential tests)",
            fragment: "bulk",
            description: "one bot rule, chosen at random among those matching the translated program, runs \
                          alone for two iterations; every member of the root class, extracted with its best \
                          sub-terms, evaluates exactly to the original's value (a member that mentions an \
                          index variable bound only around other uses of the class: under every valuation of \
                          it within its extent, up to 64) (the figure: the fraction of cases where the chosen \
                          rule changed the e-graph)",
            figure: Some(Figure { label: "rule applied (fraction)", agg: Agg::Mean }),
            check: Check::Case { strategy: bulk, check: rule_sound },
        },
    ]
}

/// Exact value of `f` on the case's inputs; `None` when a resource limit stops it.
fn value(f: &Function, case: &Case) -> Result<Option<String>, String> {
    Ok(match exact(f, &case.inputs)? {
        Eval::Value(v, _) => Some(literal(&v)),
        Eval::Resource(_) => None,
    })
}

fn normal_form(case: &Case) -> Outcome {
    let f = load(case)?;
    let out = transform(&f, &BotConfig::default()).map_err(|d| format!("bot fails: {d}"))?;
    if let Err(v) = check_normal_form(&out.function) {
        return fail(format!(
            "the result is not in normal form: {v}\n{}",
            adora_core::pretty::function(&out.function)
        ));
    }
    Pass::figure(out.egraph_nodes as f64)
}

fn preserves(case: &Case) -> Outcome {
    let f = load(case)?;
    let out = transform(&f, &BotConfig::default()).map_err(|d| format!("bot fails: {d}"))?;
    let g = &out.function;
    if g.params != f.params || g.ret != f.ret {
        return fail("bot changed the signature");
    }
    let Some(want) = value(&f, case)? else {
        return Pass::vacuous();
    };
    let got = match exact(g, &case.inputs) {
        Ok(Eval::Value(v, _)) => literal(&v),
        Ok(Eval::Resource(_)) => return Pass::vacuous(),
        Err(e) => {
            return fail(format!(
                "the result of bot fails: {e}\n{}",
                adora_core::pretty::function(g)
            ))
        }
    };
    if got != want {
        return fail(format!(
            "value {want} became {got}\n{}",
            adora_core::pretty::function(g)
        ));
    }
    Pass::figure(node_count(&g.body) as f64 / node_count(&f.body).max(1) as f64)
}

/// `ops` of `f` on the case's inputs; `None` when a resource limit stops the evaluation.
fn ops(f: &Function, case: &Case) -> Result<Option<u64>, String> {
    match measure(f, &case.inputs, &opts()) {
        Ok(c) => Ok(Some(c.ops)),
        Err(d) if is_resource(&d) => Ok(None),
        Err(d) => Err(format!(
            "costing fails: {d}\n{}",
            adora_core::pretty::function(f)
        )),
    }
}

fn ops_non_increasing(case: &Case) -> Outcome {
    let f = load(case)?;
    let out = transform(&f, &BotConfig::default()).map_err(|d| format!("bot fails: {d}"))?;
    let g = &out.function;
    let (Some(before), Some(after)) = (ops(&f, case)?, ops(g, case)?) else {
        return Pass::vacuous();
    };
    if after > before {
        return fail(format!(
            "ops {before} became {after}\n{}",
            adora_core::pretty::function(g)
        ));
    }
    if before == 0 {
        return Pass::vacuous();
    }
    Pass::figure(after as f64 / before as f64)
}

fn stops_cleanly(case: &Case) -> Outcome {
    let f = load(case)?;
    let mut rng = aux_rng(case, 0x5709);
    let iters = rng.gen_range(1..=8);
    let nodes = [40, 150, 100_000][rng.gen_range(0..3)];
    let cfg = BotConfig::default()
        .with_iter_limit(iters)
        .with_node_limit(nodes);
    match transform(&f, &cfg) {
        Ok(out) => match check_normal_form(&out.function) {
            Ok(()) => Pass::figure(0.0),
            Err(v) => fail(format!(
                "with {iters} iterations and {nodes} e-nodes bot returned a non-normal result ({v}):\n{}",
                adora_core::pretty::function(&out.function)
            )),
        },
        Err(d) if d.kind == ErrorKind::Resource && d.message.contains("limit") && d.message.contains("e-nodes") => {
            Pass::figure(1.0)
        }
        Err(d) => fail(format!("with {iters} iterations and {nodes} e-nodes bot fails: {d}")),
    }
}

/// Most valuations of an open root member's free index variables that `bot/rule-sound`
/// evaluates (all of them below this; see `Member::instances`).
const MAX_VALUATIONS: usize = 64;

fn rule_sound(case: &Case) -> Outcome {
    let f = load(case)?;
    let Some(want) = value(&f, case)? else {
        return Pass::vacuous();
    };
    let mut tr = translate(&f).map_err(|d| format!("translation fails: {d}"))?;
    let matching: Vec<_> = rules()
        .into_iter()
        .filter(|r| !r.search(&tr.egraph).is_empty())
        .collect();
    if matching.is_empty() {
        return Pass::vacuous();
    }
    let k = aux_rng(case, 0xb07).gen_range(0..matching.len());
    let rule = matching.into_iter().nth(k).expect("an index in range");
    let name = rule.name.to_string();
    let phase = Phase::new(name.clone())
        .with_iter_limit(2)
        .with_simple_scheduler();
    let rep = run_phase(&mut tr, &[rule], &phase).map_err(|d| format!("{name}: {d}"))?;
    let eg = &tr.egraph;
    for node in eg[tr.root].nodes.clone() {
        // A root member may mention an index variable bound only around other uses of
        // the root's class (union with a shared class; `ir::extract::member`): it must
        // have the original's value under every valuation of that variable.
        let m =
            extract_member(eg, tr.root, &node).map_err(|d| format!("{name}: extraction: {d}"))?;
        for inst in m.instances(MAX_VALUATIONS) {
            let g =
                to_function(&inst.expr, &eg.analysis, &f).map_err(|d| format!("{name}: {d}"))?;
            let got = match exact(&g, &case.inputs)? {
                Eval::Value(v, _) => literal(&v),
                Eval::Resource(_) => continue,
            };
            if got != want {
                let at: Vec<String> = inst
                    .valuation
                    .iter()
                    .map(|(v, k)| format!("{v} = {k}"))
                    .collect();
                return fail(format!(
                    "after {name}, value {want} became {got}{}\n{}",
                    if at.is_empty() {
                        String::new()
                    } else {
                        format!(" (open member {} at {})", m.expr, at.join(", "))
                    },
                    adora_core::pretty::function(&g)
                ));
            }
        }
    }
    let applied = rep.applied.get(&name).copied().unwrap_or(0) > 0;
    Pass::figure(if applied { 1.0 } else { 0.0 })
}

#[cfg(test)]
mod tests {
    use crate::catalogue::find;
    use crate::runner::{run_property, CheckConfig};

    /// Runs a `bot/` property on `cases` cases with a fixed seed (the catalogue's tests in
    /// `tests/it/properties.rs` list the older areas; these run the bot properties under
    /// `cargo test`).
    fn check(name: &str, cases: u32) {
        let p = find(name).unwrap_or_else(|| panic!("no property {name}"));
        let cfg = CheckConfig {
            cases,
            seed: 0x00B0_7B07,
            filter: None,
            jobs: 1,
            size: 1,
        };
        let r = run_property(&p, &cfg);
        println!(
            "{name}: {} cases, {:.2}s, {}",
            r.cases_run,
            r.elapsed.as_secs_f64(),
            r.figure.as_deref().unwrap_or("")
        );
        assert_eq!(
            r.failures,
            0,
            "{name}:\n{}",
            r.counterexample.unwrap_or_default()
        );
        assert_eq!(r.cases_run, cases);
    }

    #[test]
    fn bot_normal_form() {
        check("bot/normal-form", 200);
    }

    #[test]
    fn bot_preserves_semantics() {
        check("bot/preserves-semantics", 200);
    }

    #[test]
    fn bot_ops_non_increasing() {
        check("bot/ops-non-increasing", 200);
    }

    #[test]
    fn bot_runner_stops_cleanly() {
        check("bot/runner-stops-cleanly", 200);
    }

    #[test]
    fn bot_rule_sound() {
        check("bot/rule-sound", 200);
    }
}
