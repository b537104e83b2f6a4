//! Non-finite reals (`inf`, `-inf`, `nan`) in value literals, JSON inputs and programs,
//! and the two readings of JSON numbers (docs/language.md, "Non-finite literals" and "Inputs").
use crate::common::*;
use adora_core::diag::ErrorKind;
use adora_core::parser::parse_literal;
use adora_core::types::Type;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::io::{
    to_json, to_literal, value_from_expr, value_from_json, value_from_json_with, JsonNumbers,
};
use adora_semantics::value::Value;
use adora_semantics::Rat;
use num_traits::ToPrimitive;
use serde_json::json;

fn lit<S: adora_semantics::scalar::Scalar>(text: &str, ty: &Type) -> adora_core::Result<Value<S>> {
    value_from_expr(&parse_literal(text).unwrap(), ty)
}

/// The JSON `text` parsed as serde_json does for `--inputs`.
fn parsed(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn f64_literals_hold_infinities_and_nan() {
    let v: Value<f64> = lit("[1, inf, -inf, nan]", &tra(&[4])).unwrap();
    let Value::Real(t) = &v else { panic!("{v:?}") };
    assert_eq!(t.data[..3], [1.0, f64::INFINITY, f64::NEG_INFINITY]);
    assert!(t.data[3].is_nan());
    // Printed and JSON forms read back to the same value (NaN compares by its text).
    let again: Value<f64> = lit(&to_literal(&v), &tra(&[4])).unwrap();
    assert_eq!(to_literal(&again), "[1, inf, -inf, nan]");
    assert_eq!(to_json(&v), json!([1.0, "inf", "-inf", "nan"]));
    let back: Value<f64> = value_from_json(&to_json(&v), &tra(&[4]), "x").unwrap();
    assert_eq!(to_literal(&back), "[1, inf, -inf, nan]");
}

#[test]
fn exact_literals_reject_non_finite_numbers_by_name_and_position() {
    let e = lit::<Rat>("[1, -inf]", &tra(&[2])).unwrap_err();
    assert_eq!(e.kind, ErrorKind::NonRational);
    assert_eq!(
        e.message,
        "`inf` is not a rational number; run with --numeric f64"
    );
    assert_eq!((e.span.start, e.span.end), (4, 8), "the span of `-inf`");
    let e = lit::<Rat>("nan", &tr()).unwrap_err();
    assert_eq!(
        e.message,
        "`nan` is not a rational number; run with --numeric f64"
    );
    // An integer is never infinite.
    let e = lit::<f64>("inf", &tz()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Input);
    assert!(
        e.message.contains("the non-finite number `inf`"),
        "{}",
        e.message
    );
}

#[test]
fn json_strings_inf_and_nan_are_f64_reals() {
    let j = json!(["inf", "-inf", "nan", 2]);
    let v: Value<f64> = value_from_json(&j, &tra(&[4]), "F.json: key \"x\"").unwrap();
    assert_eq!(to_literal(&v), "[inf, -inf, nan, 2]");
    let e = value_from_json::<Rat>(&j, &tra(&[4]), "F.json: key \"x\"").unwrap_err();
    assert_eq!(e.kind, ErrorKind::NonRational);
    assert_eq!(
        e.message,
        "F.json: key \"x\": `inf` is not a rational number; run with --numeric f64"
    );
    assert!(value_from_json::<f64>(&json!("inf"), &tz(), "n").is_err());
    assert!(value_from_json::<f64>(&json!("Infinity"), &tr(), "x").is_err());
}

#[test]
fn json_numbers_are_exact_decimals_by_default_even_past_double_precision() {
    // Regression: serde_json read numbers through a best-effort f64, so 26 significant
    // digits came back as the double's shortest form (1/10) and a 23-digit integer as
    // 12345678901234567000000 (the `arbitrary_precision` feature keeps the text).
    let j = parsed("[0.1000000000000000000000001, 12345678901234567890123]");
    let v: Value<Rat> = value_from_json(&j, &tra(&[2]), "x").unwrap();
    let Value::Real(t) = &v else { panic!("{v:?}") };
    let tenth_and_a_bit = Rat::new(
        "1000000000000000000000001".parse().unwrap(),
        "10000000000000000000000000".parse().unwrap(),
    );
    assert_eq!(t.data[0], tenth_and_a_bit);
    assert_eq!(
        t.data[1],
        Rat::from_integer("12345678901234567890123".parse().unwrap())
    );
}

#[test]
fn json_numbers_as_doubles_are_the_exact_binary_value() {
    let j = parsed("[0.1, 0.30000000000000004, 2.5, -3]");
    let v: Value<Rat> = value_from_json_with(&j, &tra(&[4]), "x", JsonNumbers::Double).unwrap();
    let Value::Real(t) = &v else { panic!("{v:?}") };
    let two = |k: u32| Rat::from_integer(num_bigint::BigInt::from(2u8).pow(k));
    assert_eq!(
        t.data[0],
        Rat::from_integer(3602879701896397i64.into()) / two(55)
    );
    assert_eq!(
        t.data[1],
        Rat::from_integer(5404319552844596i64.into()) / two(54)
    );
    assert_eq!(t.data[1].to_f64(), Some(0.1 + 0.2));
    assert_eq!(t.data[2], rat(5, 2));
    assert_eq!(t.data[3], ri(-3));
    // The decimal reading of the same text differs: 0.1 is exactly 1/10 there.
    let d: Value<Rat> = value_from_json(&j, &tra(&[4]), "x").unwrap();
    assert_ne!(d, v);
    // Strings stay exact; integers (Z) are integers in both readings.
    let s: Value<Rat> =
        value_from_json_with(&json!("0.1"), &tr(), "x", JsonNumbers::Double).unwrap();
    assert_eq!(s, sr(rat(1, 10)));
    let big = parsed("9007199254740993");
    let n: Value<Rat> = value_from_json_with(&big, &tz(), "n", JsonNumbers::Double).unwrap();
    assert_eq!(n, Value::int(9007199254740993));
    // A number beyond the doubles is an input error naming the input.
    let e = value_from_json_with::<Rat>(
        &parsed("1e400"),
        &tr(),
        "F.json: key \"y\"",
        JsonNumbers::Double,
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Input);
    assert!(
        e.message.starts_with("F.json: key \"y\": the number"),
        "{}",
        e.message
    );
    assert!(
        e.message.contains("out of the range of IEEE doubles"),
        "{}",
        e.message
    );
}

#[test]
fn programs_evaluate_inf_in_f64_and_reject_it_exactly_at_its_position() {
    let opts = EvalOptions::default();
    let f = adora_core::load("def main(x: R) -> R = x + 0.0 * nan", "main").unwrap();
    let (v, _) = eval(&f, &[Value::real(1.0f64)], &opts).unwrap();
    assert!(v.as_real().unwrap().is_nan());
    let src = "def main(x: R[2]) -> R = reduce(max, -inf, x)";
    let f = adora_core::load(src, "main").unwrap();
    let (v, _) = eval(&f, &[Value::real_vector(vec![1.0f64, 3.0])], &opts).unwrap();
    assert_eq!(*v.as_real().unwrap(), 3.0);
    let e = eval(&f, &[vq(&[ri(1), ri(3)])], &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::NonRational);
    assert_eq!(&src[e.span.start..e.span.end], "inf");
}
