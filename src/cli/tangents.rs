//! `adora jvp` without `--tangent`: an error that lists the entry point's real inputs
//! with their types and shows an example (docs/language.md, "Tangents and cotangents"),
//! instead of a JVP along the zero tangent.

use adora_core::ast::Function;
use adora_core::types::{Base, Type};

/// Most scalars in an example tangent written out in full; a larger input's example is
/// described by its type instead.
const EXAMPLE_SCALARS: usize = 8;

/// The message for a `jvp` given no `--tangent` at all, or `None` when `f` has no real
/// input (its JVP is zero whatever the tangents, and there is nothing to choose).
pub fn missing(f: &Function) -> Option<String> {
    let reals: Vec<_> = f.params.iter().filter(|p| p.ty.has_reals()).collect();
    let first = reals.first()?;
    let mut text = format!(
        "`adora jvp` needs a tangent: give --tangent NAME=LITERAL for one or more of the real \
         inputs of `{}` (inputs not named get zero tangents):\n",
        f.name
    );
    for p in &reals {
        text.push_str(&format!("  {}: {}\n", p.name, p.ty));
    }
    match example(&first.ty) {
        Some(lit) => text.push_str(&format!(
            "example: --tangent '{}={lit}' (the direction of all ones)",
            first.name
        )),
        None => text.push_str(&format!(
            "example: --tangent '{}=LITERAL' with a literal of type {}",
            first.name, first.ty
        )),
    }
    Some(text)
}

/// A literal of type `t` with every real `1`, every integer `0` and every boolean
/// `false`, or `None` when `t` has more than [`EXAMPLE_SCALARS`] scalars.
pub fn example(t: &Type) -> Option<String> {
    if scalars(t) > EXAMPLE_SCALARS {
        return None;
    }
    Some(literal(t))
}

fn scalars(t: &Type) -> usize {
    match t {
        Type::Array(_, shape) => shape.iter().product(),
        Type::Tuple(ts) => ts.iter().map(scalars).sum(),
    }
}

fn literal(t: &Type) -> String {
    match t {
        Type::Tuple(ts) => {
            let parts: Vec<String> = ts.iter().map(literal).collect();
            format!("({})", parts.join(", "))
        }
        Type::Array(base, shape) => array(*base, shape),
    }
}

fn array(base: Base, shape: &[usize]) -> String {
    match shape.split_first() {
        None => match base {
            Base::R => "1",
            Base::Z => "0",
            Base::B => "false",
        }
        .to_string(),
        Some((&n, rest)) => {
            let el = array(base, rest);
            format!("[{}]", vec![el; n].join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use adora_core::parser::parse_type;

    fn ex(t: &str) -> Option<String> {
        example(&parse_type(t).unwrap())
    }

    #[test]
    fn examples_are_ones_shaped_like_the_input() {
        assert_eq!(ex("R").as_deref(), Some("1"));
        assert_eq!(ex("R[3]").as_deref(), Some("[1, 1, 1]"));
        assert_eq!(ex("R[2, 0]").as_deref(), Some("[[], []]"));
        assert_eq!(ex("(R[2], Z, B)").as_deref(), Some("([1, 1], 0, false)"));
        assert_eq!(ex("R[9]"), None);
    }

    #[test]
    fn the_message_lists_every_real_input_and_only_those() {
        let f = adora_core::load(
            "def main(k: Z, x: R[3], y: R, b: B[2]) -> R = sum(x) * y\n",
            "main",
        )
        .unwrap();
        let m = missing(&f).unwrap();
        assert!(m.contains("  x: R[3]\n  y: R\n"), "{m}");
        assert!(!m.contains("k: Z") && !m.contains("b: B"), "{m}");
        assert!(m.contains("example: --tangent 'x=[1, 1, 1]'"), "{m}");
        let g = adora_core::load("def main(k: Z) -> Z = k\n", "main").unwrap();
        assert_eq!(missing(&g), None);
    }
}
