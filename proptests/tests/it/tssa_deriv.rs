//! The `tssa` derivative properties (docs/engines/tssa-derivatives.md, "Properties"):
//! every property of `adora_proptests::props::tssa_deriv` with a fixed seed and a few
//! hundred cases; the rule properties must also fire (not be vacuous throughout).

use adora_proptests::catalogue::catalogue;
use adora_proptests::runner::{run_property, CheckConfig};

fn run(name: &str, cases: u32) -> (u32, Option<String>) {
    let p = catalogue()
        .into_iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no property {name}"));
    let cfg = CheckConfig {
        cases,
        seed: 0x7e55_da7a,
        filter: None,
        jobs: 1,
        size: 1,
    };
    let r = run_property(&p, &cfg);
    if r.failures == 0 {
        assert_eq!(r.cases_run, cases, "{name}");
    }
    (r.failures, r.counterexample)
}

fn tssa_deriv_names() -> Vec<&'static str> {
    adora_proptests::props::tssa_deriv::properties()
        .iter()
        .map(|p| p.name)
        .collect()
}

#[test]
fn every_derivative_property_holds() {
    let mut failed = Vec::new();
    for name in tssa_deriv_names() {
        let (failures, cx) = run(name, 200);
        if failures > 0 {
            failed.push(format!("{name}:\n{}", cx.unwrap_or_default()));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

#[test]
fn every_rule_fires_on_the_generated_programs() {
    use adora_proptests::catalogue::Check;
    for p in adora_proptests::props::tssa_deriv::properties() {
        if !p.name.starts_with("tssa/rule-") {
            continue;
        }
        let Check::Dims { check, .. } = p.check else {
            panic!("{}: not a dims property", p.name)
        };
        let fired =
            (0..400usize).any(|k| matches!(check(&[k, 3 * k + 1]), Ok(pass) if !pass.vacuous));
        assert!(fired, "{} is vacuous on 400 cases", p.name);
    }
}
