//! A-normalisation: the normal form's grammar, Example 3.3's shape, deep chains.

use adora_pullback::anf::{is_anf, normalize};
use adora_pullback::parse;
use adora_pullback::syntax::{Fresh, Term, TermKind};

fn anf(src: &str) -> Term {
    let t = parse::term(src).unwrap();
    let mut fresh = Fresh::above(&t);
    normalize(&t, &mut fresh)
}

fn lets(t: &Term) -> usize {
    let mut cur = match &t.kind {
        TermKind::Lam(_, _, b) => &**b,
        _ => t,
    };
    let mut n = 0;
    while let TermKind::Let(_, _, rest) = &cur.kind {
        n += 1;
        cur = rest;
    }
    n
}

#[test]
fn example_3_3_running_example() {
    let t = anf("\\z. mul (add (z.0, 1), add (mul (2, z.0), mul (z.1, z.1)))");
    assert!(is_anf(&t), "{t}");
    assert_eq!(lets(&t), 5, "{t}");
}

#[test]
fn nested_lets_are_flattened_and_abstractions_named() {
    let t = anf("\\x. let y = (let a = mul (x, x) in add (a, 1)) in (\\v. mul (v, y)) x");
    assert!(is_anf(&t), "{t}");
    let src = parse::term("\\x. mul (add (x, 1), x)").unwrap();
    assert!(!is_anf(&src));
}

#[test]
fn already_normal_terms_keep_their_shape() {
    let src = "\\z. let a = add (z.0, 1) in let h = mul (a, z.1) in h";
    let t = anf(src);
    assert!(t.alpha_eq(&parse::term(src).unwrap()), "{t}");
}
