//! The `tssa` derivative properties (docs/engines/tssa-derivatives.md, "Properties"):
//! every property of `adora_proptests::props::tssa_deriv` with a fixed seed and a few
//! hundred cases; the rule properties must also fire (not be vacuous throughout).

fn run(name: &str, cases: u32) -> (u32, Option<String>) {
    let r = crate::properties::report_seeded(name, cases, 0x7e55_da7a);
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
