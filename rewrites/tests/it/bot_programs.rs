//! End-to-end bot: every `specs/programs/**` program in the seed-000 fragment transforms
//! into Theorem 5.1's normal form with the same exact value on its header inputs (the
//! `f64` value, as printed, for programs with non-rational operations); programs outside
//! the fragment are `Unsupported`; `show` prints source that parses and evaluates to the
//! same value; the output is deterministic; the `let` encoding is exercised by a
//! let-heavy program; limits produce `Resource` errors.

use crate::bot_support;

use adora_core::diag::ErrorKind;
use adora_rewrites::bot::projection::check_normal_form;
use adora_rewrites::bot::{show, transform, BotConfig};
use bot_support::{header_inputs, load, outcome, programs};

#[test]
fn every_spec_program_in_the_fragment_reaches_the_normal_form_with_equal_values() {
    let mut done = 0;
    for (path, src) in programs() {
        let f = load(&src);
        let out = match transform(&f, &BotConfig::default()) {
            Ok(o) => o,
            Err(d) if d.kind == ErrorKind::Unsupported => continue,
            Err(d) => panic!("{path}: {d}\n{:?}", d.notes),
        };
        check_normal_form(&out.function).unwrap_or_else(|v| panic!("{path}: {v}"));
        let inputs = header_inputs(&src, &f).unwrap_or_else(|| panic!("{path}: header inputs"));
        let want = outcome(&f, &inputs);
        assert!(want.is_ok(), "{path}: {want:?}");
        assert_eq!(
            outcome(&out.function, &inputs),
            want,
            "{path}\n{}",
            adora_core::pretty::function(&out.function)
        );
        done += 1;
    }
    assert!(done >= 40, "only {done} programs transformed");
}

#[test]
fn show_prints_source_that_parses_checks_and_evaluates_the_same() {
    for (path, src) in programs() {
        let f = load(&src);
        let Ok(text) = show(&f) else { continue };
        let g = adora_core::load(&text, &f.name).unwrap_or_else(|d| panic!("{path}: {d}\n{text}"));
        let inputs = header_inputs(&src, &f).expect("header inputs");
        assert_eq!(outcome(&g, &inputs), outcome(&f, &inputs), "{path}\n{text}");
        assert!(text.starts_with("def "), "{text}");
    }
}

#[test]
fn the_output_is_deterministic() {
    for (path, src) in programs().into_iter().take(40) {
        let f = load(&src);
        let (Ok(a), Ok(b)) = (show(&f), show(&f)) else {
            continue;
        };
        assert_eq!(a, b, "{path}");
    }
}

#[test]
fn lets_are_encoded_by_sharing() {
    // build-let / index-let by the encoding: every `let` is its value's class, so a chain
    // of lets inside and outside builds needs no rule of its own.
    let src = "def main(x: R[4], y: R[4]) -> R =
      let a = x * y in
      let b = build 4 (i => let t = a[i] + x[3 - i] in let u = t * t in u - y[i]) in
      let c = build 4 (i => let v = b[i] in v * a[i]) in
      sum(c) + b[2]";
    let f = load(src);
    let out = transform(&f, &BotConfig::default()).expect("bot");
    check_normal_form(&out.function).expect("normal form");
    let inputs = header_inputs(
        "-- input: x = [1, -2, 1/2, 3]\n-- input: y = [2, 1/3, -1, 4]",
        &f,
    )
    .expect("inputs");
    assert_eq!(outcome(&out.function, &inputs), outcome(&f, &inputs));
}

#[test]
fn limits_give_resource_errors_with_the_figures() {
    let src = "def main(x: R[3,3]) -> R[3,3] = build [3, 3] ((i, j) => x[j, i] * x[i, j])";
    let f = load(src);
    let d = transform(&f, &BotConfig::default().with_iter_limit(1)).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Resource, "{d}");
    assert!(d.message.contains("iteration limit (1)"), "{d}");
    assert!(d.message.contains("e-nodes"), "{d}");
    let d = transform(&f, &BotConfig::default().with_node_limit(5)).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Resource, "{d}");
    assert!(d.message.contains("e-node limit"), "{d}");
}

#[test]
fn programs_outside_the_fragment_are_unsupported() {
    let f = load("def main(x: R[3]) -> R = reduce(+, 0, x)");
    let d = transform(&f, &BotConfig::default()).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Unsupported);
}
