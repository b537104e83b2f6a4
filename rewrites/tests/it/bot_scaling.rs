//! Bot on the benchmark families (deep `build` nests, long `let` chains, wide sums) at
//! about a thousand expression nodes: it reaches the normal form by its goal or by
//! saturation (not by an iteration or e-node limit), and the e-graph stays linear in the
//! program (at most 4 e-nodes per expression node). These are deterministic size checks;
//! the running time of the same families is measured by the criterion benchmark
//! `benches/bot.rs` (`cargo bench -p adora-rewrites --bench bot`), not here.

#[path = "../../benches/bot_programs/mod.rs"]
pub mod bot_programs;

use adora_rewrites::bot::projection::check_normal_form;
use adora_rewrites::bot::{transform, BotConfig};
use adora_rewrites::ir::runner::PhaseStop;

fn check(name: &str, src: &str) -> usize {
    let f = adora_core::load(src, "main").unwrap();
    let nodes = adora_core::visit::node_count(&f.body);
    let out = transform(&f, &BotConfig::default()).unwrap_or_else(|d| panic!("{name}: {d}"));
    check_normal_form(&out.function).unwrap_or_else(|v| panic!("{name}: {v}"));
    for phase in &out.phases {
        assert!(
            matches!(phase.stop, PhaseStop::Goal | PhaseStop::Saturated),
            "{name}: phase {} stopped by {:?} after {} iterations",
            phase.phase,
            phase.stop,
            phase.iterations
        );
    }
    assert!(
        out.egraph_nodes <= 4 * nodes,
        "{name}: {} e-nodes for {nodes} expression nodes",
        out.egraph_nodes
    );
    nodes
}

#[test]
fn deep_build_nests_stay_linear() {
    assert!(check("build-nest 20", &bot_programs::build_nest(20)) > 700);
}

#[test]
fn long_let_chains_stay_linear() {
    assert!(check("let-chain 80", &bot_programs::let_chain(80)) > 900);
}

#[test]
fn wide_sums_stay_linear() {
    assert!(check("wide-sum 100", &bot_programs::wide_sum(100)) > 900);
}
