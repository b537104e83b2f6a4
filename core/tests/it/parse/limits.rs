//! Resource limits: deep nesting is an error (never a stack overflow), long `let` chains
//! parse, and garbage input produces errors without panicking.

use super::support::*;
use adora_core::parser::{parse_expr, parse_program};
use adora_core::{limits::MAX_NESTING, pretty, with_stack};

fn nested_parens(depth: usize) -> String {
    format!("{}x{}", "(".repeat(depth), ")".repeat(depth))
}

fn too_deep(src: &str) {
    let msg = with_stack(|| parse_expr(src).map(|_| ()).map_err(|d| d.message)).unwrap_err();
    assert_eq!(
        msg,
        format!("nesting too deep (more than {MAX_NESTING} levels)")
    );
}

#[test]
fn deep_parentheses_fit_in_an_8_mib_stack() {
    let src = nested_parens(1900);
    let ok = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || parse_expr(&src).map(|e| e == var("x")).unwrap_or(false))
        .unwrap()
        .join()
        .unwrap();
    assert!(ok);
}

/// Sources nested just under the limit, one per construct (each repetition costs the
/// number of levels given).
fn near_limit_sources() -> Vec<String> {
    let n = MAX_NESTING - 10;
    let h = n / 2;
    vec![
        format!("{}x", "- ".repeat(n)),
        format!("{}x", "!".repeat(n)),
        format!("{}{}{}", "-([f(".repeat(n / 4), "x", ")])".repeat(n / 4)),
        format!("{}1{}", "let x = ".repeat(n), " in x".repeat(n)),
        "let x = 1 in ".repeat(n) + "x",
        format!("{}x{}", "gather([1], ".repeat(n), ", i => [i])".repeat(n)),
        format!(
            "{}x{}",
            "reduce_by_index(".repeat(n),
            ", +, 0, is, vs)".repeat(n)
        ),
        format!("{}x{}", "reduce((a, b) => ".repeat(n), ", 0, xs)".repeat(n)),
        format!("{}x{}", "map(a => ".repeat(n), ", xs)".repeat(n)),
        format!("{}x{}", "f(".repeat(n), ")".repeat(n)),
        format!("{}x", "build 3 i => ".repeat(n)),
        format!("{}x{}", "build 3 (i => ".repeat(n), ")".repeat(n)),
        format!(
            "{}x{}",
            "loop (a = ".repeat(n),
            ") for i < 3 do a".repeat(n)
        ),
        format!("{}x{}", "x[".repeat(h), "]".repeat(h)),
        format!("{}x{}", "if ".repeat(n), " then 1 else 2".repeat(n)),
        format!("{}x{}", "exp(".repeat(n), ")".repeat(n)),
        format!("{}x{}", "stack([".repeat(h), "])".repeat(h)),
        format!("{}x{}", "a + (".repeat(h), ")".repeat(h)),
        format!("{}x{}", "pow(".repeat(n), ", 2)".repeat(n)),
        format!("{}x{}", "(x, ".repeat(n), ")".repeat(n)),
        format!("x{}", " + x".repeat(n)),
        format!("x{}", ".0".repeat(n)),
    ]
}

#[test]
fn deep_nesting_of_every_construct_fits_in_an_8_mib_stack() {
    let ok = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(|| {
            near_limit_sources()
                .iter()
                .map(|s| parse_expr(s).map(|_| ()).map_err(|d| d.message))
                .collect::<Vec<_>>()
        })
        .unwrap()
        .join()
        .unwrap();
    for (k, r) in ok.into_iter().enumerate() {
        assert_eq!(r, Ok(()), "source #{k}");
    }
}

#[test]
fn nesting_past_the_limit_is_a_syntax_error() {
    too_deep(&nested_parens(20_000));
    too_deep(&nested_parens(MAX_NESTING + 1));
    with_stack(|| assert!(parse_expr(&nested_parens(MAX_NESTING - 1)).is_ok()));
    too_deep(&format!("{}x{}", "[".repeat(20_000), "]".repeat(20_000)));
    too_deep(&format!("{}x", "- ".repeat(20_000)));
    too_deep(&format!("{}x", "!".repeat(20_000)));
    too_deep(&"let x = 1 in ".repeat(20_000));
    too_deep(&format!("{}x", "build 1 i => ".repeat(20_000)));
    too_deep(&format!("{}0{}", "f(".repeat(20_000), ")".repeat(20_000)));
    // Left-associative chains and postfix chains build deep trees without recursion; they
    // count too.
    too_deep(&format!("x{}", " + x".repeat(20_000)));
    too_deep(&format!("x{}", "[0]".repeat(20_000)));
    too_deep(&format!("x{}", ".0".repeat(20_000)));
    let deep_type = format!("{}R{}", "(R, ".repeat(20_000), ")".repeat(20_000));
    let r = with_stack(|| adora_core::parser::parse_type(&deep_type).map_err(|d| d.message));
    assert!(r.unwrap_err().starts_with("nesting too deep"));
    // The error points at the token where the limit was crossed.
    let src = nested_parens(MAX_NESTING + 5);
    let d = with_stack(|| parse_expr(&src)).unwrap_err();
    assert_eq!(d.position(&src), (1, MAX_NESTING + 1));
}

#[test]
fn a_long_let_chain_parses_and_round_trips() {
    let mut src = String::from("def main(x: R) -> R =\n");
    for k in 0..1500 {
        src.push_str(&format!("  let x{k} = x * 2.0 in\n"));
    }
    src.push_str("  x1499\n");
    with_stack(|| {
        let p = prog(&src);
        roundtrip_program(&p);
    });
}

#[test]
fn garbage_input_is_an_error() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..300 {
        let len = rng.below(200);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let text = String::from_utf8_lossy(&bytes);
        assert!(with_stack(|| parse_program(&text)).is_err());
    }
}

#[test]
fn random_token_soup_never_panics() {
    const WORDS: &[&str] = &[
        "def",
        "main",
        "(",
        ")",
        "[",
        "]",
        ",",
        ":",
        "->",
        "=>",
        "=",
        "R",
        "Z[3]",
        "x",
        "y",
        "1",
        "-",
        "2.5",
        ".0",
        "+",
        "*",
        "/",
        "%",
        "<",
        "==",
        "&&",
        "||",
        "!",
        "let",
        "in",
        "if",
        "then",
        "else",
        "build",
        "gather",
        "scatter",
        "map",
        "reduce",
        "scan",
        "reduce_by_index",
        "scatter_into",
        "loop",
        "for",
        "do",
        "true",
        "sum",
        "pow",
        "replicate",
        "transpose",
        "iota",
        "stack",
        "min",
        "\n",
    ];
    let mut rng = Rng(42);
    let mut parsed = 0;
    for _ in 0..3000 {
        let n = 1 + rng.below(25);
        let words: Vec<&str> = (0..n).map(|_| WORDS[rng.below(WORDS.len())]).collect();
        let text = words.join(if rng.below(2) == 0 { " " } else { "" });
        if let Ok(x) = parse_expr(&text) {
            parsed += 1;
            // Whatever parses also round-trips.
            assert_eq!(parse_expr(&pretty::expr(&x)).unwrap(), x, "{text}");
        }
        let _ = parse_program(&format!("def main(x: R) -> R = {text}"));
    }
    assert!(parsed > 0);
}
