//! Input and output formats: literals, JSON, text.
use crate::common;
use adora_core::diag::ErrorKind;
use adora_core::parser::parse_expr;
use adora_core::types::{Base, Type};
use adora_semantics::io::{
    parse_rational, to_json, to_literal, to_text, value_from_expr, value_from_json,
};
use adora_semantics::value::Value;
use adora_semantics::Rat;
use common::*;
use serde_json::json;

fn from_text(text: &str, ty: &Type) -> adora_core::Result<Value<Rat>> {
    value_from_expr(&parse_expr(text).unwrap(), ty)
}

#[test]
fn literals_in() {
    assert_eq!(
        from_text("[1/3, -2]", &tra(&[2])).unwrap(),
        vq(&[rat(1, 3), ri(-2)])
    );
    assert_eq!(
        from_text("[[0.5, 2], [-0.125, 3]]", &tra(&[2, 2])).unwrap(),
        Value::reals(vec![2, 2], vec![rat(1, 2), ri(2), rat(-1, 8), ri(3)]).unwrap()
    );
    assert_eq!(from_text("-(1/3)", &tr()).unwrap(), sr(rat(-1, 3)));
    assert_eq!(from_text("-1/3", &tr()).unwrap(), sr(rat(-1, 3)));
    assert_eq!(
        from_text("[1, -2, 3]", &ta(Base::Z, &[3])).unwrap(),
        vz(&[1, -2, 3])
    );
    assert_eq!(
        from_text("[true, false]", &ta(Base::B, &[2])).unwrap(),
        Value::bools(vec![2], vec![true, false]).unwrap()
    );
    let ty = Type::Tuple(vec![tr(), Type::Tuple(vec![tz(), ta(Base::R, &[1])])]);
    assert_eq!(
        from_text("(1/2, (3, [4]))", &ty).unwrap(),
        Value::Tuple(vec![
            sr(rat(1, 2)),
            Value::Tuple(vec![Value::int(3), vr(&[4])])
        ])
    );
    // f64: decimal literals round correctly
    let v: Value<f64> = value_from_expr(&parse_expr("[0.1, 1/3]").unwrap(), &tra(&[2])).unwrap();
    assert_eq!(v, Value::real_vector(vec![0.1, 1.0 / 3.0]));
}

#[test]
fn literal_errors_name_expected_and_found() {
    let cases = [
        (
            "[1, 2]",
            tra(&[3]),
            "expected R[3], found an array of 2 elements",
            0,
        ),
        (
            "[[1, 2], [3]]",
            tra(&[2, 2]),
            "expected R[2], found an array of 1 element",
            9,
        ),
        ("1/2", tz(), "expected Z, found a non-integer number", 0),
        ("true", tr(), "expected R, found a boolean", 0),
        ("[1]", tr(), "expected R, found an array of 1 element", 0),
        (
            "(1, 2)",
            tra(&[2]),
            "expected R[2], found a tuple of 2 components",
            0,
        ),
        (
            "x",
            tr(),
            "expected R, found an expression that is not a literal",
            0,
        ),
        (
            "2",
            Type::Tuple(vec![tr(), tr()]),
            "expected (R, R), found an integer",
            0,
        ),
    ];
    for (text, ty, msg, pos) in cases {
        let e = from_text(text, &ty).unwrap_err();
        assert_eq!(
            (e.kind, e.message.as_str(), e.span.start),
            (ErrorKind::Input, msg, pos),
            "{text}"
        );
    }
    assert_eq!(
        from_text("1/0", &tr()).unwrap_err().message,
        "division by zero in a literal"
    );
    assert_eq!(
        from_text("99999999999999999999", &tz()).unwrap_err().kind,
        ErrorKind::Input
    );
}

#[test]
fn json_in() {
    let v: Value<Rat> =
        value_from_json(&json!([0.1, "1/3", "-2", 5, "2.5e-1"]), &tra(&[5]), "x").unwrap();
    assert_eq!(v, vq(&[rat(1, 10), rat(1, 3), ri(-2), ri(5), rat(1, 4)]));
    let v: Value<Rat> =
        value_from_json(&json!([[1, "2"], [3, 4]]), &ta(Base::Z, &[2, 2]), "n").unwrap();
    assert_eq!(v, Value::ints(vec![2, 2], vec![1, 2, 3, 4]).unwrap());
    let ty = Type::Tuple(vec![tb(), tra(&[1])]);
    let v: Value<Rat> = value_from_json(&json!([true, [1e-3]]), &ty, "p").unwrap();
    assert_eq!(
        v,
        Value::Tuple(vec![Value::bool(true), vq(&[rat(1, 1000)])])
    );
    let e = value_from_json::<Rat>(&json!([1, 2]), &tra(&[3]), "x").unwrap_err();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (
            ErrorKind::Input,
            "x: expected R[3], found an array of 2 elements"
        )
    );
    let e = value_from_json::<Rat>(&json!("1/0"), &tr(), "x").unwrap_err();
    assert_eq!(e.message, "x: expected R, found the string \"1/0\"");
    assert!(value_from_json::<Rat>(&json!(1.5), &tz(), "n").is_err());
    assert!(value_from_json::<Rat>(&json!(null), &tr(), "x").is_err());
}

#[test]
fn rational_text() {
    assert_eq!(parse_rational("0.1"), Some(rat(1, 10)));
    assert_eq!(parse_rational("-12.5e2"), Some(ri(-1250)));
    assert_eq!(parse_rational("3E-2"), Some(rat(3, 100)));
    assert_eq!(parse_rational(" 1 / -3 "), Some(rat(-1, 3)));
    assert_eq!(parse_rational(".5"), Some(rat(1, 2)));
    for bad in [
        "",
        "-",
        "1/0",
        "1e",
        "1e99999999",
        "abc",
        "1.2.3",
        "--1",
        "1/2/3",
    ] {
        assert_eq!(parse_rational(bad), None, "{bad}");
    }
}

#[test]
fn text_literal_json_out() {
    let v = vq(&[rat(1, 3), ri(2)]);
    assert_eq!(to_text(&v), "R[2] = [1/3, 2] ≈ [0.333333, 2]");
    assert_eq!(to_literal(&v), "[1/3, 2]");
    assert_eq!(to_json(&v), json!(["1/3", "2"]));
    assert_eq!(to_text(&vr(&[1, 2])), "R[2] = [1, 2]");
    assert_eq!(to_text(&sr(rat(-2, 3))), "-2/3 ≈ -0.666667");
    assert_eq!(to_text(&sr(ri(7))), "7");
    assert_eq!(to_text(&Value::<Rat>::int(7)), "7");
    let t = Value::Tuple(vec![sr(rat(1, 2)), vz(&[1, 2]), Value::bool(true)]);
    assert_eq!(
        to_text(&t),
        "(R, Z[2], B) = (1/2, [1, 2], true) ≈ (0.5, [1, 2], true)"
    );
    assert_eq!(to_json(&t), json!(["1/2", [1, 2], true]));
    let m = Value::reals(vec![2, 2], vec![ri(1), rat(2, 3), ri(0), ri(-1)]).unwrap();
    assert_eq!(to_literal(&m), "[[1, 2/3], [0, -1]]");
    assert_eq!(to_json(&m), json!([["1", "2/3"], ["0", "-1"]]));
    assert_eq!(
        to_literal(&Value::<Rat>::reals(vec![2, 0], vec![]).unwrap()),
        "[[], []]"
    );
    // f64: shortest round-trip decimals, no approximation line; JSON numbers
    let f = Value::real_vector(vec![0.1f64, 2.0, -1.5e-7]);
    assert_eq!(to_text(&f), "R[3] = [0.1, 2, -0.00000015]");
    assert_eq!(to_json(&f), json!([0.1, 2.0, -1.5e-7]));
    assert_eq!(to_json(&Value::real(f64::NAN)), json!("nan"));
    // approximations: %g style
    for (x, s) in [
        (1.0 / 3.0, "0.333333"),
        (123456789.0, "1.23457e8"),
        (1.5e-7, "1.5e-7"),
        (100000.0, "100000"),
        (0.0001, "0.0001"),
        (9.9999999, "10"),
    ] {
        assert_eq!(adora_semantics::io::approx_text(x), s);
    }
}

#[test]
fn round_trips() {
    let ty = Type::Tuple(vec![tra(&[2, 2]), ta(Base::Z, &[2]), tb()]);
    let v = Value::Tuple(vec![
        Value::reals(vec![2, 2], vec![rat(-1, 3), ri(0), rat(7, 2), ri(-5)]).unwrap(),
        vz(&[-3, 4]),
        Value::bool(false),
    ]);
    assert_eq!(from_text(&to_literal(&v), &ty).unwrap(), v);
    assert_eq!(value_from_json::<Rat>(&to_json(&v), &ty, "v").unwrap(), v);
    let f = Value::real_vector(vec![0.1f64, 1.0 / 3.0, -2.5e-300, 1e300]);
    let back: Value<f64> =
        value_from_expr(&parse_expr(&to_literal(&f)).unwrap(), &tra(&[4])).unwrap();
    assert_eq!(back, f);
    let back: Value<f64> = value_from_json(&to_json(&f), &tra(&[4]), "f").unwrap();
    assert_eq!(back, f);
}
