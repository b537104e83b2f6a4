//! The properties of engine `soac`'s maps, accumulators and costs
//! (`adora_proptests::props::soac_maps`, `soac_costs`; seed 004 §1, §4, §5.2, §5.4, §6.1,
//! §7.2), a modest number of cases each with a fixed seed.

fn check(name: &str, cases: u32) {
    crate::properties::check_seeded(name, cases, 0x5040_AACC);
}

#[test]
fn map_and_accumulator_properties_hold() {
    adora_core::with_stack(|| {
        for name in [
            "soac/rule-map-sound",
            "soac/map-free-array-work",
            "soac/accumulator-semantics",
            "soac/acc-to-reduce-preserves-semantics",
            "soac/perfect-nest-no-reexecution",
        ] {
            check(name, 40);
        }
    })
}

#[test]
fn cost_and_statement_properties_hold() {
    adora_core::with_stack(|| {
        for name in [
            "soac/work-span-preserved",
            "soac/cheap-gradient",
            "soac/rule-stms-sound",
            "soac/scan-vectorised-segmented-sound",
            "soac/rule-scan-work-span",
        ] {
            check(name, 40);
        }
    })
}
