//! The worked examples of docs/engines/pullback-reduction.md ("Worked examples"), run end
//! to end through `ad::grad` / `ad::vjp` / `ad::jvp`, with values, rows and counters.

use adora_pullback::ad;
use adora_pullback::parse;
use adora_pullback::reduce::Reducer;
use adora_pullback::syntax::Ty;
use adora_semantics::Rat;

fn q(n: i64) -> Rat {
    Rat::from_integer(n.into())
}

fn qs(ns: &[i64]) -> Vec<Rat> {
    ns.iter().map(|&n| q(n)).collect()
}

fn grad(src: &str, input: Ty, point: &[i64]) -> ad::AdResult {
    let f = parse::term(src).expect("parses");
    ad::grad(&f, &input, &qs(point), &Reducer::new().trace(true)).expect("reduces")
}

const F1: &str = "\\z. let a = add (z.0, 1) in let b = mul (2, z.0) in \
                  let c = mul (z.1, z.1) in let d = add (b, c) in let h = mul (a, d) in h";

#[test]
fn f1_running_example_value_row_and_counters() {
    let r = grad(F1, Ty::reals(2), &[1, 3]);
    assert_eq!(r.value, qs(&[22]));
    assert_eq!(r.derivative, qs(&[15, 12]));
    let s = &r.outcome.stats;
    assert_eq!(s.by_rule.get("8"), Some(&4));
    assert_eq!(s.by_rule.get("7"), Some(&1));
    assert_eq!(s.by_rule.get("P"), Some(&5));
    assert_eq!(s.by_rule.get("5"), Some(&5));
    assert_eq!(s.delta_f.get("add"), Some(&2));
    assert_eq!(s.delta_f.get("mul"), Some(&3));
    assert_eq!(s.delta_j.values().sum::<u64>(), 5);
    assert_eq!(s.delta_j, s.delta_f);
}
