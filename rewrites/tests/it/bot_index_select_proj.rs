//! An index of a `select` whose condition is a projection of a kept tuple `let`
//! (`adora check --filter bot/runner-stops-cleanly --seed 4014 --cases 1000`): bot used to
//! saturate with the `index` of the `select` as its best term, an internal error.

use crate::bot_support::load;
use adora_rewrites::bot::projection::check_normal_form;
use adora_rewrites::bot::{transform, BotConfig};

const COUNTEREXAMPLE: &str = "def main(x: R) -> B =
  (let t4 = (replicate(3, 0.0), replicate(4, false)) in
    (replicate(3, 0.0), select(t4.1, replicate(4, false), t4.1))).1[0]";

#[test]
fn an_index_of_a_select_of_a_projected_let_reaches_normal_form() {
    let f = load(COUNTEREXAMPLE);
    for (iters, nodes) in [(4, 150), (8, 100_000), (200, 400_000)] {
        let cfg = BotConfig::default()
            .with_iter_limit(iters)
            .with_node_limit(nodes);
        let out = transform(&f, &cfg).unwrap_or_else(|d| panic!("{iters}/{nodes}: {d}"));
        check_normal_form(&out.function).unwrap_or_else(|v| panic!("{v}"));
    }
}
