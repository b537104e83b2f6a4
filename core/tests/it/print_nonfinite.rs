//! Printing the negation of a non-finite literal (docs/language.md, "Non-finite
//! literals"): `-inf` and `-nan` print as written, not as `-(inf)`, and read back as the
//! same tree.
use adora_core::parser::{parse_expr, parse_program};
use adora_core::pretty;

#[test]
fn negated_infinity_prints_as_minus_inf() {
    for (src, want) in [
        ("-inf", "-inf"),
        ("-nan", "-nan"),
        ("-(inf)", "-inf"),
        ("- -inf", "-(-inf)"),
        ("x * -inf", "x * -inf"),
        ("(-inf)[0]", "(-inf)[0]"),
        ("[-inf, inf, -3, -(3)]", "[-inf, inf, -3, -(3)]"),
    ] {
        let e = parse_expr(src).unwrap();
        let printed = pretty::expr(&e);
        assert_eq!(printed, want, "printing {src}");
        assert_eq!(parse_expr(&printed).unwrap(), e, "reading back {printed}");
    }
}

#[test]
fn programs_with_negated_infinities_round_trip() {
    let src = "def main(x: R[2]) -> R = reduce(max, -inf, x) + min(x[0], -inf) * -nan";
    let p = parse_program(src).unwrap();
    let printed = pretty::program(&p);
    assert!(!printed.contains("-("), "{printed}");
    assert_eq!(parse_program(&printed).unwrap(), p);
    let f = adora_core::load(src, "main").unwrap();
    let g = adora_core::load(&pretty::function(&f), "main").unwrap();
    assert_eq!(g, f);
}
