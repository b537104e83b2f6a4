//! The lowering of the convention profiles (`adora_rewrites::conventions`): each rule, on a
//! program at its tie or kink, fires, keeps the value exactly, and gives under `futhark`
//! the reference derivative of the original under the profile — which differs from the
//! original's `futhark` derivative, so the test fails if the rule does nothing; `futhark`
//! lowers nothing; the rule names of the module table, [`RULES`] and docs/conventions.md
//! agree.

use adora_rewrites::conventions::{lower, RULES};
use adora_semantics::conventions::Conventions;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::io::value_from_expr;
use adora_semantics::reference;
use adora_semantics::value::Value;
use adora_semantics::Rat;

/// One rule's case: its program, inputs (one literal per parameter) and profile.
struct Case {
    rule: &'static str,
    profile: Conventions,
    program: &'static str,
    inputs: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        rule: "lower/tie-max-min",
        profile: Conventions::Pytorch,
        program: "def main(a: R[2], b: R[2]) -> R =\n  sum(max(a, b)) + 2.0 * sum(min(a, b))\n",
        inputs: &["[1, 2]", "[1, 0]"],
    },
    Case {
        rule: "lower/abs-at-0",
        profile: Conventions::Jax,
        program: "def main(x: R, y: R) -> R =\n  abs(x) + 3.0 * abs(y)\n",
        inputs: &["0", "-2"],
    },
    Case {
        rule: "lower/reduce-ties",
        profile: Conventions::Jax,
        program: "def main(x: R[4, 2], n: R[2]) -> R =\n  let m = reduce(max, n, x) in\n  m[0] + 5.0 * m[1]\n",
        inputs: &["[[1, 0], [3, 2], [3, 2], [2, 1]]", "[0, 2]"],
    },
    Case {
        rule: "lower/scan-ties",
        profile: Conventions::Pytorch,
        program: "def main(x: R[4]) -> R =\n  let y = scan(min, 0.0, x) in\n  y[0] + 2.0 * y[1] + 3.0 * y[2] + 4.0 * y[3]\n",
        inputs: &["[-1, -3, -3, -2]"],
    },
    Case {
        rule: "lower/hist-ties",
        profile: Conventions::Jax,
        program: "def main(d: R[2], v: R[3]) -> R =\n  let h = reduce_by_index(d, max, 0.0, [0, 0, 1], v) in\n  h[0] + 2.0 * h[1]\n",
        inputs: &["[3, 1]", "[3, 3, 0]"],
    },
];

fn opts(c: Conventions) -> EvalOptions {
    EvalOptions {
        conventions: c,
        ..EvalOptions::default()
    }
}

fn load(case: &Case) -> (adora_core::ast::Function, Vec<Value<Rat>>) {
    let f = adora_core::load(case.program, "main")
        .unwrap_or_else(|d| panic!("{}", d.render("test.adl", case.program)));
    let inputs = case
        .inputs
        .iter()
        .zip(&f.params)
        .map(|(t, p)| {
            let e = adora_core::parser::parse_expr(t).expect("literal parses");
            value_from_expr(&e, &p.ty).expect("literal fits")
        })
        .collect();
    (f, inputs)
}

#[test]
fn each_rule_gives_its_profile_at_its_tie() {
    assert_eq!(
        CASES.iter().map(|c| c.rule).collect::<Vec<_>>(),
        RULES.to_vec()
    );
    for (k, case) in CASES.iter().enumerate() {
        let (f, inputs) = load(case);
        let l = lower(&f, case.profile).unwrap();
        assert!(
            l.fired[k] >= 1,
            "{}: did not fire ({:?})",
            case.rule,
            l.fired
        );
        let futhark = opts(Conventions::Futhark);
        let value = eval(&f, &inputs, &futhark).unwrap().0;
        let lowered_value = eval(&l.function, &inputs, &futhark).unwrap().0;
        assert_eq!(lowered_value, value, "{}: value", case.rule);
        let want = reference::gradient(&f, &inputs, &opts(case.profile)).unwrap();
        let got = reference::gradient(&l.function, &inputs, &futhark).unwrap();
        let before = reference::gradient(&f, &inputs, &futhark).unwrap();
        assert_eq!(got, want, "{}: gradient under {}", case.rule, case.profile);
        assert_ne!(
            want, before,
            "{}: the case does not exercise the rule",
            case.rule
        );
    }
}

#[test]
fn futhark_lowers_nothing() {
    for case in CASES {
        let (f, _) = load(case);
        let l = lower(&f, Conventions::Futhark).unwrap();
        assert_eq!(l.function, f);
        assert_eq!(l.fired, [0; 5]);
    }
}

#[test]
fn integer_min_max_are_left_alone() {
    let src = "def main(i: Z, j: Z, x: R) -> R =\n  real(max(i, j) + abs(min(i, j))) * x\n";
    let f = adora_core::load(src, "main").unwrap();
    let l = lower(&f, Conventions::Jax).unwrap();
    assert_eq!(l.fired, [0; 5]);
}

#[test]
fn the_rules_are_the_documented_ones() {
    let module =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/conventions.rs"))
            .unwrap();
    let table: Vec<&str> = module
        .lines()
        .filter_map(|l| l.strip_prefix("//! | `"))
        .filter_map(|l| l.split('`').next())
        .filter(|n| n.starts_with("lower/"))
        .collect();
    assert_eq!(table, RULES.to_vec());
    let docs = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/conventions.md"
    ))
    .unwrap();
    for r in RULES {
        assert!(
            docs.contains(&format!("`{r}`")),
            "docs/conventions.md lacks `{r}`"
        );
    }
}
