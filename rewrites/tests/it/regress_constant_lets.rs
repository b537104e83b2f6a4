//! Regression: `adora check --seed 3006` failed `dual/cheap-gradient` with "internal error
//! in bot: the extracted program is not in normal form: an index of `array`". Extraction
//! bound the constant `[0.0]`, used twice, to a `let t`, turning the normal-form index
//! `[[0.0]][0]` into `[t][0]`, an index of an array literal of a variable. Constants are
//! now never `let`-bound by extraction (`rewrites/src/ir/extract/lets.rs`).

use adora_rewrites::bot;
use adora_rewrites::bot::projection::check_normal_form;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::io::to_literal;
use adora_semantics::value::Value;
use adora_semantics::Rat;

#[test]
fn a_constant_used_twice_stays_a_constant_in_the_normal_form() {
    let src = "def main(x: R) -> R =\n  \
               sum_outer(transpose([1, 0], [[0.0]]))[0] + sum_outer(build 4 (i3 => [0.0]))[0] + x";
    let f = adora_core::load(src, "main").unwrap();
    let g = bot::prepare(&f).unwrap_or_else(|d| panic!("{d}"));
    assert!(
        check_normal_form(&g).is_ok(),
        "{}",
        adora_core::pretty::function(&g)
    );
    let inputs: Vec<Value<Rat>> = vec![Value::real(Rat::new(3.into(), 2.into()))];
    let opts = EvalOptions::default();
    let value = |h| to_literal(&eval(h, &inputs, &opts).unwrap().0);
    assert_eq!(value(&g), value(&f));
}
