//! Each reduction rule fires on an instance and gives the expected term (exactly, up to
//! α-equivalence); docs/engines/pullback-reduction.md has the rule tables.

use adora_pullback::parse;
use adora_pullback::reduce::subst::subst;
use adora_pullback::reduce::{fire, Reducer, Rule};
use adora_pullback::syntax::Fresh;

fn check(rule: Rule, redex: &str, expected: &str) {
    let t = parse::term(redex).expect("redex parses");
    let mut fresh = Fresh::above(&t);
    let out = fire(rule, &t, &mut fresh)
        .unwrap_or_else(|| panic!("rule {} does not fire on {redex}", rule.name()));
    let want = parse::term(expected).expect("expected parses");
    assert!(
        out.alpha_eq(&want),
        "rule {} on {redex}: got {out}, expected {want}",
        rule.name()
    );
}

#[test]
fn cbv_rules() {
    check(Rule::R1, "(\\x. add (x, x)) 3", "add (3, 3)");
    check(Rule::R1, "let x = 2 in mul (x, x)", "mul (2, 2)");
    check(Rule::R2, "(1, 2).1", "2");
    check(Rule::R3, "mul (2, 5)", "10");
    check(Rule::R3, "div (1, 0)", "0");
    check(Rule::R3, "J(mul, (u, v)) (2, 5)", "mul (5, u) + mul (2, v)");
    check(Rule::R3, "J(div, (u, v)) (3, 0)", "zero");
    check(Rule::R3, "J(abs, u) 0", "zero");
    check(Rule::R3, "J(min, (u, v)) (2, 2)", "u");
    check(Rule::R4, "zero.0", "zero");
    check(Rule::R4, "(f + g) 1", "f 1 + g 1");
    check(Rule::R4, "1 + 2", "3");
    check(Rule::R4, "(zero + 5) + 7", "12");
}

#[test]
fn jacobian_delta_at_open_points() {
    check(Rule::R3, "J(add, (u, zero)) (1, y)", "u");
    check(Rule::R3, "J(mul, (u, v)) (a, b)", "mul (b, u) + mul (a, v)");
    check(Rule::R3, "J(mul, (u, v)) (2, b)", "mul (b, u) + mul (2, v)");
    check(Rule::R3, "J(neg, u) y", "mul (-1, u)");
    check(Rule::R3, "J(pow<3>, u) y", "mul (mul (3, pow<2> y), u)");
    check(Rule::R3, "J(abs, 2) y", "mul (2, div (abs y, y))");
    check(
        Rule::R3,
        "J(div, (u, v)) (a, b)",
        "mul (div (1, b), u) + mul (div (neg (div (a, b)), b), v)",
    );
    check(
        Rule::R3,
        "J(min, (u, v)) (a, b)",
        "mul (le (a, b), u) + mul (gt (a, b), v)",
    );
    check(Rule::R3, "J(floor, u) y", "zero");
}

/// Every entry of the open-point row reduces, at numeric points, to the numeric row
/// (the conventions at 0 and at ties included).
#[test]
fn open_point_rows_agree_with_numeric_rows() {
    let cases = [
        ("div", "(3, 0)"),
        ("div", "(3, 4)"),
        ("div", "(0, 0)"),
        ("abs", "0"),
        ("abs", "-2"),
        ("pow<-2>", "0"),
        ("pow<-2>", "3"),
        ("pow<1>", "5"),
        ("pow<0>", "5"),
        ("min", "(2, 2)"),
        ("max", "(2, 2)"),
        ("max", "(1, 2)"),
        ("sel_lt", "(1, (2, (3, 4)))"),
        ("sel_lt", "(2, (2, (3, 4)))"),
        ("mul", "(3, 7)"),
        ("sub", "(3, 7)"),
        ("zmod", "(3, 7)"),
    ];
    for (f, p) in cases {
        let dir = match p.matches(',').count() {
            0 => "5",
            1 => "(5, 7)",
            _ => "(5, (7, (11, 13)))",
        };
        let numeric = Reducer::new()
            .run(&parse::term(&format!("J({f}, {dir}) {p}")).unwrap())
            .unwrap()
            .value;
        let redex = parse::term(&format!("J({f}, {dir}) y")).unwrap();
        let mut fresh = Fresh::above(&redex);
        let row = fire(Rule::R3, &redex, &mut fresh).expect("rule 3 at an open point");
        let y = redex.free_vars().into_iter().next().expect("y is free");
        let at = subst(&row, &y, &parse::term(p).unwrap(), &mut fresh);
        let open = Reducer::new().run(&at).unwrap().value;
        let norm = |t: &adora_pullback::syntax::Term| match t.to_string().as_str() {
            "zero" => "0".to_string(),
            s => s.to_string(),
        };
        assert_eq!(norm(&numeric), norm(&open), "J({f}, {dir}) at {p}");
    }
}

#[test]
fn dual_rules() {
    check(
        Rule::R5,
        "dual(\\u. (u, mul (2, u)), \\w. mul (3, w.1))",
        "\\u. mul (6, u)",
    );
    check(
        Rule::R6,
        "dual(\\u. mul (2, u), dual(\\v. mul (3, v), y))",
        "dual(\\u. mul (3, mul (2, u)), y)",
    );
    check(Rule::R9p, "J(\\x. x, zero)", "zero");
    check(Rule::R9p, "pb(\\x. x, zero)", "zero");
    check(
        Rule::Covec,
        "dual(\\u. u, \\w. w + w)",
        "dual(\\u. u, \\w. mul (2, w))",
    );
}

#[test]
fn series_rules() {
    check(
        Rule::R7,
        "pb(\\x. let y = mul (x, x) in y, o)",
        "pb(\\x. mul (x, x), o)",
    );
    check(
        Rule::R8,
        "pb(\\x. let y = mul (x, x) in add (y, x), o)",
        "pb(\\x. (x, mul (x, x)), pb(\\z. add (z.1, z.0), o))",
    );
    // Sparse environments: only the live paths of the environment are carried.
    check(
        Rule::R7,
        "pb(\\x. let y = mul (x.0, x.0) in y, o)",
        "pb(\\x. mul (x.0, x.0), o)",
    );
    check(
        Rule::R8,
        "pb(\\x. let y = mul (x.0, x.0) in add (y, 1), o)",
        "pb(\\x. mul (x.0, x.0), pb(\\y. add (y, 1), o))",
    );
    check(
        Rule::R8,
        "pb(\\x. let y = mul (x.0, x.0) in add (y, x.1.1), o)",
        "pb(\\x. (x.1.1, mul (x.0, x.0)), pb(\\z. add (z.1, z.0), o))",
    );
    check(
        Rule::R8,
        "pb(\\x. let y = mul (x.0, x.0) in add (y, mul (x.0, x.1)), o)",
        "pb(\\x. (x, mul (x.0, x.0)), pb(\\z. add (z.1, mul (z.0.0, z.0.1)), o))",
    );
    check(
        Rule::R8,
        "pb(\\x. let y = x.0.0 in mul (x.1, mul (x.0.1, x.1.0)), o)",
        "pb(\\x. ((x.0.1, x.1), x.0.0), pb(\\z. mul (z.0.1, mul (z.0.0, z.0.1.0)), o))",
    );
    check(
        Rule::P,
        "pb(\\x. mul (x, x), o) 3",
        "dual(\\u. J(\\x. mul (x, x), u) 3, o (mul (3, 3)))",
    );
}

#[test]
fn jacobian_rules() {
    check(Rule::R9, "J(\\x. 7, u) 2", "zero");
    check(Rule::R10, "J(\\x. x.1, u) (1, 2)", "u.1");
    check(Rule::R11, "J(\\x. x.0 + x.1, u) (1, 2)", "u.0 + u.1");
    check(Rule::R12, "J(\\x. J(g, x), u) 1", "J(g, u)");
    check(Rule::R13, "J(\\x. pb(g, x), u) 1", "pb(g, u)");
    check(Rule::R14, "J(\\x. \\y. x y, u) 1", "\\y. u y");
    check(
        Rule::R15,
        "J(\\x. mul (x, 2), u) 3",
        "J(mul, (u, zero)) (3, 2)",
    );
    check(
        Rule::R20a,
        "J(\\x. (x, mul (x, x)), u) 3",
        "(J(\\x. x, u) 3, J(\\x. mul (x, x), u) 3)",
    );
    check(Rule::R20b, "J(\\x. (x, 1), u) 3", "(J(\\x. x, u) 3, zero)");
    check(Rule::R20s, "J(\\x. x + 1, u) 3", "J(\\x. x, u) 3");
    check(
        Rule::R20p,
        "J(\\z. (z.0, z.1).1, u) (0, 0)",
        "(J(\\z. (z.0, z.1), u) (0, 0)).1",
    );
    check(
        Rule::Chain,
        "J(\\x. let y = mul (x, x) in y, u) 3",
        "J(\\y. y, J(\\x. mul (x, x), u) 3) (mul (3, 3))",
    );
}

#[test]
fn premise_rules() {
    check(Rule::R16a, "J(\\x. dual(g, x), u) 1", "dual(g, u)");
    check(
        Rule::R16b,
        "J(\\x. dual(\\w. mul (x, w), o), u) 2",
        "dual(\\w. mul (w, u), o)",
    );
    check(Rule::R18, "J(\\x. \\y. mul (x, y), u) 3", "\\y. mul (y, u)");
    check(Rule::R19a, "J(\\x. x 2, u) (\\y. y)", "u 2");
    check(Rule::R19c, "J(\\x. g x, u) 3", "J(g, u) 3");
    check(
        Rule::R19b,
        "J(\\x. x.0 x.1, u) (g, 2)",
        "u.0 2 + J(g, u.1) 2",
    );
    check(Rule::R16b, "J(\\x. dual(x, o), u) g", "dual(u, o)");
    check(
        Rule::R16c,
        "J(\\z. dual(z.0, z.1), u) (g, o)",
        "dual(u.0, o) + dual(g, u.1)",
    );
    check(
        Rule::R17,
        "J(pb(g, o), u) 2",
        "J(\\w. dual(\\v. J(g, v) w, o (g w)), u) 2",
    );
    check(
        Rule::R17,
        "J(J(add, (1, 0)), (0, 1)) (2, 3)",
        "J(\\w. 1, (0, 1)) (2, 3)",
    );
    check(
        Rule::R17,
        "J(\\x. pb(x, o), u) g",
        "J(\\x. \\w. dual(\\v. J(x, v) w, o (x w)), u) g",
    );
}

#[test]
fn names_are_distinct_and_complete() {
    let mut names: Vec<&str> = Rule::ALL.iter().map(|r| r.name()).collect();
    let n = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), n);
    for want in ["A1", "8", "16b", "P", "A2", "20'", "9'", "covec"] {
        assert!(names.contains(&want), "{want}");
    }
}

#[test]
fn step_limit_is_a_resource_error() {
    let t = parse::term("(\\x. x x) (\\x. x x)").unwrap();
    let err = Reducer::new().step_limit(50).run(&t).unwrap_err();
    assert_eq!(err.kind, adora_core::diag::ErrorKind::Resource);
    assert!(err.message.contains("step limit"));
}

#[test]
fn exact_mode_refuses_transcendental_symbols() {
    let t = parse::term("exp 1").unwrap();
    let err = Reducer::new().run(&t).unwrap_err();
    assert_eq!(err.kind, adora_core::diag::ErrorKind::NonRational);
}

#[test]
fn step_and_run_agree_and_traces_are_deterministic() {
    let src = "pb(\\z. let a = add (z.0, 1) in let h = mul (a, z.1) in h, omega) (1, 3)";
    let t = parse::term(src).unwrap();
    let r = Reducer::new().trace(true);
    let a = r.run(&t).unwrap();
    let b = r.run(&t).unwrap();
    let names = |o: &adora_pullback::reduce::Outcome| {
        o.trace
            .iter()
            .map(|s| (s.rule, s.term.to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&a), names(&b));
    let mut fresh = Fresh::above(&t);
    let mut cur = t.clone();
    let mut n = 0;
    while let Some((_, next)) = r.step(&cur, &mut fresh).unwrap() {
        cur = next;
        n += 1;
    }
    assert!(cur.alpha_eq(&a.value), "{cur} vs {}", a.value);
    assert!(n > 0);
}
