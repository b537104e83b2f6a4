//! The runner reports failures with shrunk, readable counterexamples.

use adora_proptests::catalogue::{Check, Outcome, Pass, Property};
use adora_proptests::gen::coverage::constructs;
use adora_proptests::gen::strategy::CaseStrategy;
use adora_proptests::gen::{Case, Fragment, GenSpec};
use adora_proptests::runner::{run_property_persisting, CheckConfig, Persistence};

fn no_scan(case: &Case) -> Outcome {
    if constructs(&case.program).contains("scan") {
        Err("the program uses scan".into())
    } else {
        Pass::ok()
    }
}

fn small_dims(d: &[usize]) -> Outcome {
    if d.iter().sum::<usize>() > 7 {
        Err(format!("dims {d:?} too big"))
    } else {
        Pass::ok()
    }
}

fn synthetic(name: &'static str, check: Check) -> Property {
    Property {
        name,
        source: "test",
        fragment: "soac",
        description: "synthetic failing property",
        figure: None,
        check,
    }
}

#[test]
fn failures_shrink_to_small_programs() {
    let p = synthetic(
        "test/no-scan",
        Check::Case {
            strategy: || CaseStrategy::new(GenSpec::new(Fragment::Soac).size(50)),
            check: no_scan,
        },
    );
    let r = run_property_persisting(
        &p,
        &CheckConfig {
            cases: 200,
            seed: 3,
            filter: None,
            jobs: 1,
            size: 1,
        },
        Persistence::Off,
    );
    assert_eq!(r.failures, 1);
    let c = r.counterexample.expect("a counterexample");
    println!("{c}");
    assert!(c.contains("the program uses scan"));
    assert!(c.contains("replay: adora check --filter test/no-scan --seed 3 --cases 200"));
    assert!(c.contains("--input"));
    // The shrunk program is tiny: its size is printed as "counterexample (N nodes)".
    let nodes: usize = c
        .split("counterexample (")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .expect("node count");
    assert!(nodes <= 6, "shrunk to {nodes} nodes:\n{c}");
}

#[test]
fn dims_failures_shrink() {
    let p = synthetic(
        "test/small-dims",
        Check::Dims {
            count: 3,
            max: 6,
            check: small_dims,
        },
    );
    let r = run_property_persisting(
        &p,
        &CheckConfig {
            cases: 100,
            seed: 1,
            filter: None,
            jobs: 1,
            size: 1,
        },
        Persistence::Off,
    );
    assert_eq!(r.failures, 1);
    let c = r.counterexample.expect("a counterexample");
    assert!(c.contains("dims"), "{c}");
}

#[test]
fn failing_seeds_are_persisted_and_replayed_first() {
    let file = std::env::temp_dir().join(format!(
        "adora-proptests-{}-no-scan.txt",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&file);
    let p = synthetic(
        "test/no-scan",
        Check::Case {
            strategy: || CaseStrategy::new(GenSpec::new(Fragment::Soac).size(50)),
            check: no_scan,
        },
    );
    let cfg = CheckConfig {
        cases: 200,
        seed: 3,
        filter: None,
        jobs: 1,
        size: 1,
    };
    let first = run_property_persisting(&p, &cfg, Persistence::File(file.clone()));
    assert_eq!(first.failures, 1);
    let saved = std::fs::read_to_string(&file).expect("the seed was persisted");
    assert!(saved.lines().any(|l| l.starts_with("cc ")), "{saved}");
    // With no new cases at all, the persisted seed alone reproduces the failure.
    let replay = run_property_persisting(
        &p,
        &CheckConfig { cases: 0, ..cfg },
        Persistence::File(file.clone()),
    );
    let _ = std::fs::remove_file(&file);
    assert_eq!(replay.failures, 1);
    assert_eq!(
        replay
            .counterexample
            .map(|c| c.contains("the program uses scan")),
        Some(true)
    );
}
