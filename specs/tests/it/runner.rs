//! Tests of the runner itself: header parsing and its errors, and that wrong expectations,
//! wrong engines and declining engines are reported as they should be.

use adora_core::ast::Function;
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference::Gradient;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use adora_specs::case::Numeric;
use adora_specs::{parse_case, run_bad_case, run_case, Derivatives, Engine, Reference, Runtime};
use std::path::Path;

const GOOD: &str = "\
-- A free comment: with a colon, but not a key.
-- input: x = [1, 2, 3]
-- value: 10
-- grad: x = [6, 4, 2]
-- tangent: x = [1, 0, 0]
-- jvp: 6
-- cotangent: 2
-- vjp: x = [12, 8, 4]
-- stats: div_by_zero=0 oob_reads=0
def main(x: R[3]) -> R = sum(x * build 3 (i => x[2 - i]))
-- note: comments after the code are never headers
";

fn case(text: &str) -> adora_specs::Case {
    parse_case(Path::new("t.adl"), text).expect("headers parse")
}

fn parse_err(text: &str) -> String {
    parse_case(Path::new("t.adl"), text).expect_err("headers must be rejected")
}

#[test]
fn headers_are_parsed_with_positions() {
    let c = case(GOOD);
    assert_eq!(c.entry, "main");
    assert_eq!(c.inputs.len(), 1);
    let lit = &c.inputs[0].lit;
    assert_eq!((lit.text.as_str(), lit.line), ("[1, 2, 3]", 2));
    assert_eq!(&GOOD[lit.offset..lit.offset + lit.text.len()], "[1, 2, 3]");
    assert_eq!(c.value.as_ref().map(|v| v.text.as_str()), Some("10"));
    assert_eq!(
        c.stats,
        Some(vec![
            ("div_by_zero".to_string(), 0),
            ("oob_reads".to_string(), 0)
        ])
    );
    assert_eq!(c.numeric, Numeric::Exact);
    assert!(c.error.is_none() && !c.strict);
    let f =
        case("-- numeric: f64 tol=1e-9\n-- mode: strict\n-- entry: go\ndef go(x: R) -> R = x\n");
    assert_eq!(f.numeric, Numeric::F64 { tol: 1e-9 });
    assert!(f.strict);
    assert_eq!(f.entry, "go");
}

#[test]
fn malformed_headers_name_file_and_line() {
    let e = parse_err("-- input: x = 1\n-- grads: x = 1\ndef main(x: R) -> R = x\n");
    assert!(
        e.starts_with("t.adl:2:") && e.contains("unknown header key `grads`"),
        "{e}"
    );
    let e = parse_err("-- input: x = 1\n-- input: x = 2\ndef main(x: R) -> R = x\n");
    assert!(e.starts_with("t.adl:2:") && e.contains("second"), "{e}");
    let e = parse_err("-- value: 1\n-- value: 2\ndef main(x: R) -> R = x\n");
    assert!(e.starts_with("t.adl:2:") && e.contains("twice"), "{e}");
    let e = parse_err("-- input: = 1\ndef main(x: R) -> R = x\n");
    assert!(e.starts_with("t.adl:1:"), "{e}");
    let e = parse_err("-- stats: div_by_zero=x\ndef main(x: R) -> R = x\n");
    assert!(e.starts_with("t.adl:1:"), "{e}");
    let e = parse_err("-- stats: steps=3\ndef main(x: R) -> R = x\n");
    assert!(e.contains("unknown stats field"), "{e}");
    let e = parse_err("-- numeric: f32\ndef main(x: R) -> R = x\n");
    assert!(e.starts_with("t.adl:1:"), "{e}");
    let e = parse_err("-- jvp: 1\ndef main(x: R) -> R = x\n");
    assert!(e.starts_with("t.adl:1:") && e.contains("tangent"), "{e}");
    let e = parse_err("-- vjp: x = 1\ndef main(x: R) -> R = x\n");
    assert!(e.contains("cotangent"), "{e}");
    let e = parse_err("-- error: bogus\n-- at: 1:1\n-- message: m\ndef main(x: R) -> R = x\n");
    assert!(e.contains("unknown error code"), "{e}");
    let e = parse_err("-- error: type\n-- message: m\ndef main(x: R) -> R = x\n");
    assert!(e.contains("needs all of"), "{e}");
    let e = parse_err("-- error: type\n-- at: 0:3\n-- message: m\ndef main(x: R) -> R = x\n");
    assert!(e.contains("LINE:COL"), "{e}");
}

#[test]
fn the_reference_passes_a_correct_case() {
    let out = run_case(&case(GOOD), &[&Reference]);
    assert!(out.passed(), "{:?}", out.failures);
    assert!(out.checked.iter().any(|c| c == "reference: grad"));
    assert!(out.checked.iter().any(|c| c == "reference: jvp"));
    assert!(out.checked.iter().any(|c| c == "reference: vjp"));
}

#[test]
fn every_wrong_expectation_is_reported() {
    let bad = GOOD
        .replace("-- value: 10", "-- value: 11")
        .replace("-- grad: x = [6, 4, 2]", "-- grad: x = [6, 4, 3]")
        .replace("-- jvp: 6", "-- jvp: 7")
        .replace("-- vjp: x = [12, 8, 4]", "-- vjp: x = [12, 8, 5]")
        .replace("oob_reads=0", "oob_reads=1");
    let out = run_case(&case(&bad), &[&Reference]);
    let all = out.failures.join("\n");
    for what in [
        "value: expected 11 but got 10",
        "grad x [reference]: expected [6, 4, 3] but got [6, 4, 2]",
        "jvp [reference]: expected 7 but got 6",
        "vjp x [reference]: expected [12, 8, 5] but got [12, 8, 4]",
        "stats: expected oob_reads=1 but got oob_reads=0",
    ] {
        assert!(all.contains(what), "missing `{what}` in:\n{all}");
    }
}

#[test]
fn missing_and_extra_lines_are_reported() {
    let out = run_case(
        &case("-- value: 1\n-- input: y = 2\ndef main(x: R) -> R = x\n"),
        &[&Reference],
    );
    let all = out.failures.join("\n");
    assert!(
        all.contains("not a parameter") && all.contains("no `-- input: x"),
        "{all}"
    );
    let out = run_case(&case("-- input: x = 1\n-- input: n = 2\n-- value: 1\n-- grad: n = 0\ndef main(x: R, n: Z) -> R = x\n"), &[&Reference]);
    let all = out.failures.join("\n");
    assert!(
        all.contains("has no reals") && all.contains("no `-- grad: x"),
        "{all}"
    );
    let out = run_case(
        &case("-- input: x = 1\n-- value: 1\ndef main(x: R) -> R = y\n"),
        &[&Reference],
    );
    assert!(
        out.failures.join("\n").contains("does not load"),
        "{:?}",
        out.failures
    );
}

/// An engine that gets every gradient wrong by one and declines JVPs.
struct OffByOne;

impl Engine for OffByOne {
    fn name(&self) -> &str {
        "off-by-one"
    }
    fn runtime(&self) -> Option<&dyn Runtime> {
        Some(self)
    }
}

impl Derivatives<f64> for OffByOne {}
impl Derivatives<adora_semantics::scalar::Interval> for OffByOne {}

impl Derivatives<Rat> for OffByOne {
    fn gradient(
        &self,
        f: &Function,
        inputs: &[Value<Rat>],
        opts: &EvalOptions,
    ) -> adora_core::Result<Gradient<Rat>> {
        let mut g = adora_semantics::reference::gradient(f, inputs, opts)?;
        for v in g.grads.iter_mut().flatten() {
            if let Value::Real(t) = v {
                for x in &mut t.data {
                    *x += Rat::from_integer(1.into());
                }
            }
        }
        Ok(g)
    }
}

#[test]
fn wrong_engines_fail_and_declining_engines_are_skipped() {
    let out = run_case(&case(GOOD), &[&Reference, &OffByOne]);
    let all = out.failures.join("\n");
    assert!(
        all.contains("grad x [off-by-one]: expected [6, 4, 2] but got [7, 5, 3]"),
        "{all}"
    );
    assert!(!all.contains("[reference]"), "{all}");
    assert!(
        out.skipped.iter().any(|s| s.starts_with("off-by-one: jvp")),
        "{:?}",
        out.skipped
    );
    assert!(
        out.skipped.iter().any(|s| s.starts_with("off-by-one: vjp")),
        "{:?}",
        out.skipped
    );
}

#[test]
fn f64_cases_compare_within_tolerance() {
    let text = "-- numeric: f64 tol=1e-9\n-- input: x = 1\n-- value: 2.7182818284\n-- grad: x = 2.71828182845904\ndef main(x: R) -> R = exp(x)\n";
    assert!(run_case(&case(text), &[&Reference]).passed());
    let text = text.replace("2.7182818284\n", "2.71828\n");
    let out = run_case(&case(&text), &[&Reference]);
    assert!(
        out.failures.iter().any(|f| f.contains("value: expected")),
        "{:?}",
        out.failures
    );
}

#[test]
fn bad_cases_check_code_position_and_message() {
    let text = "-- error: name\n-- at: 4:27\n-- message: unbound variable `y`\ndef main(x: R) -> R = x + y\n";
    assert_eq!(run_bad_case(&case(text)), Ok(()));
    let wrong = text.replace("4:27", "4:26").replace("name", "type");
    let e = run_bad_case(&case(&wrong)).expect_err("mismatch");
    assert!(
        e.contains("code: expected `type`") && e.contains("position: expected 4:26"),
        "{e}"
    );
    let ran =
        "-- error: runtime\n-- at: 1:1\n-- message: m\n-- input: x = 1\ndef main(x: R) -> R = x\n";
    assert!(run_bad_case(&case(ran))
        .expect_err("ran")
        .contains("without error"));
    // errors inside an input literal point into the header line
    let input = "-- error: input\n-- at: 4:19\n-- message: expected R, found an array\n-- input: x = [1, [2]]\ndef main(x: R[2]) -> R = sum(x)\n";
    assert_eq!(run_bad_case(&case(input)), Ok(()));
}
