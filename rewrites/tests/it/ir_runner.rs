//! The phase runner: stop reasons as data, per-rule application counts, goals, and
//! errors for analysis conflicts (naming the rule) and the time limit.

use adora_core::ErrorKind;
use adora_rewrites::ir::analysis::IrAnalysis;
use adora_rewrites::ir::extract::extract_function;
use adora_rewrites::ir::lang::Ir;
use adora_rewrites::ir::runner::{run_phase, Phase, PhaseStop};
use adora_rewrites::ir::translate::{translate, Translation};
use egg::{rewrite, Rewrite};
use std::time::Duration;

fn setup(src: &str) -> (adora_core::Function, Translation) {
    let f = adora_core::load(src, "main").unwrap();
    let tr = translate(&f).unwrap();
    (f, tr)
}

fn growing() -> Vec<Rewrite<Ir, IrAnalysis>> {
    vec![rewrite!("test/grow"; "(+ ?a ?b)" => "(+ (neg (neg ?a)) ?b)")]
}

#[test]
fn saturation_and_applied_counts() {
    let (f, mut tr) = setup("def main(x: R[3], y: R[3]) -> R[3] = x + y * y");
    let rules: Vec<Rewrite<Ir, IrAnalysis>> = vec![
        rewrite!("test/comm-add"; "(+ ?a ?b)" => "(+ ?b ?a)"),
        rewrite!("test/comm-mul"; "(* ?a ?b)" => "(* ?b ?a)"),
    ];
    let r = run_phase(&mut tr, &rules, &Phase::new("comm")).unwrap();
    assert_eq!(r.stop, PhaseStop::Saturated);
    assert_eq!(r.phase, "comm");
    assert_eq!(r.applied.get("test/comm-add"), Some(&1));
    assert!(
        !r.applied.contains_key("test/comm-mul"),
        "y * y is its own mirror"
    );
    assert!(r.iterations >= 2 && r.egraph_nodes >= 5 && r.egraph_classes >= 4);
    assert_eq!(tr.root, tr.egraph.find(tr.root));
    let g = extract_function(&tr.egraph, tr.root, &f).unwrap();
    adora_core::check::check_function(&g).unwrap();
}

#[test]
fn limits_are_reported_as_data() {
    let (_, mut tr) = setup("def main(x: R, y: R) -> R = x + y");
    let r = run_phase(&mut tr, &growing(), &Phase::new("grow").with_iter_limit(3)).unwrap();
    assert_eq!(r.stop, PhaseStop::IterationLimit(3));
    assert_eq!(r.iterations, 3);
    let (_, mut tr) = setup("def main(x: R, y: R) -> R = x + y");
    let cfg = Phase::new("grow")
        .with_iter_limit(10_000)
        .with_node_limit(40)
        .with_simple_scheduler();
    let r = run_phase(&mut tr, &growing(), &cfg).unwrap();
    assert!(
        matches!(r.stop, PhaseStop::NodeLimit(n) if n > 40),
        "{:?}",
        r.stop
    );
    assert!(r.applied["test/grow"] >= 10);
}

#[test]
fn a_goal_stops_the_phase() {
    let (_, mut tr) = setup("def main(x: R) -> R = x + x");
    let rules: Vec<Rewrite<Ir, IrAnalysis>> = vec![
        rewrite!("test/double"; "(+ ?a ?a)" => "(* ?a r2)"),
        growing().remove(0),
    ];
    let cfg = Phase::new("goal")
        .with_goal(|eg, root| eg[root].nodes.iter().any(|n| matches!(n, Ir::Mul(_))));
    let r = run_phase(&mut tr, &rules, &cfg).unwrap();
    assert_eq!(r.stop, PhaseStop::Goal);
    assert_eq!(r.iterations, 2);
}

#[test]
fn an_unsound_rule_is_named_in_the_error() {
    let (_, mut tr) = setup("def main(x: R[3]) -> R = sum(x) * 2.0");
    let rules: Vec<Rewrite<Ir, IrAnalysis>> = vec![
        rewrite!("test/comm-mul"; "(* ?a ?b)" => "(* ?b ?a)"),
        rewrite!("test/sum-drop"; "(sum ?x)" => "?x"),
    ];
    let d = run_phase(&mut tr, &rules, &Phase::new("unsound")).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Internal);
    assert!(d.message.contains("`test/sum-drop`"), "{}", d.message);
    assert!(
        d.message.contains("types") && d.message.contains("R[3]"),
        "{}",
        d.message
    );
    assert!(
        tr.egraph.analysis.conflict.is_some(),
        "the e-graph stays for inspection"
    );
}

#[test]
fn an_ill_typed_right_hand_side_is_an_error() {
    let (_, mut tr) = setup("def main(x: R[3]) -> R[3] = x + x");
    let rules: Vec<Rewrite<Ir, IrAnalysis>> =
        vec![rewrite!("test/bad-rhs"; "(+ ?a ?b)" => "(+ ?a (sum ?b))")];
    let d = run_phase(&mut tr, &rules, &Phase::new("bad")).unwrap_err();
    assert!(
        d.message.contains("test/bad-rhs") && d.message.contains("ill-typed"),
        "{}",
        d.message
    );
}

#[test]
fn the_time_limit_is_a_resource_error() {
    let (_, mut tr) = setup("def main(x: R, y: R) -> R = x + y");
    let cfg = Phase::new("slow")
        .with_iter_limit(1_000_000)
        .with_node_limit(usize::MAX)
        .with_time_limit(Duration::from_millis(20));
    let d = run_phase(&mut tr, &growing(), &cfg).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Resource);
    assert!(d.message.contains("time limit"), "{}", d.message);
}
