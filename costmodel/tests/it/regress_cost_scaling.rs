//! Regression: `adora cost` on `sum(x)` was quadratic (or worse) in the size of `x`, because
//! the default inputs `k / (k + 2)` had ever larger denominators and their exact sum grew
//! with every element. The default reals now share one power-of-two denominator
//! (docs/cost-models.md, "Default inputs"), so an exact sum stays small.

use adora_costmodel::{default_inputs, measure};
use adora_semantics::value::Value;
use adora_semantics::Rat;
use num_bigint::BigInt;

fn load(src: &str) -> adora_core::Function {
    adora_core::load(src, "main").expect("a valid program")
}

#[test]
fn default_reals_share_one_small_denominator() {
    let f = load("def main(x: R[1000], i: Z[24]) -> R = sum(x)");
    let xs = default_inputs(&f);
    let Value::Real(t) = &xs[0] else {
        panic!("a real input")
    };
    let mut seen = std::collections::BTreeSet::new();
    for (k, r) in t.data.iter().enumerate() {
        // 1024 scalars in all: the smallest power of two above them is 2048.
        let whole = |n: i64| Rat::from_integer(BigInt::from(n));
        assert_eq!(r * whole(2048), whole(k as i64 + 1), "element {k}");
        assert!(!r.is_integer() && *r > whole(0) && *r < whole(1));
        assert!(seen.insert(r.clone()), "distinct");
    }
}

#[test]
fn the_exact_sum_of_the_defaults_stays_small() {
    let n = 100_000;
    let f = load(&format!("def main(x: R[{n}]) -> R = sum(x * x)"));
    let xs = default_inputs(&f);
    let c = measure(&f, &xs, &Default::default()).expect("measures");
    assert_eq!(c.ops, 2 * n - 1);
    let (v, _) = adora_semantics::eval::eval(&f, &xs, &Default::default()).expect("evaluates");
    let r = v.as_real().expect("a scalar");
    // sum of k^2 / 2^34 for k = 1..n: the denominator divides 2^34.
    assert!(r.denom().bits() <= 35, "{}", r.denom());
}
