//! One test per property of engine `dual`'s Delta terms, evaluators and baselines
//! (seed 000 §2.2–§2.7, §4.1–§4.4, App. A): a fixed seed and a case count that keeps the
//! file under about 20 s, failing with the shrunk counterexample.

const SEED: u64 = 0x0D17_A000;

fn check(name: &str, cases: u32) {
    crate::properties::check_seeded(name, cases, SEED);
}

macro_rules! property_tests {
    ($($test:ident: $name:literal, $cases:expr;)*) => {
        $(
            #[test]
            fn $test() {
                check($name, $cases);
            }
        )*
    };
}

property_tests! {
    primal_equals_eval: "dual/primal-equals-eval", 200;
    delta_fwd_equals_jvp: "dual/delta-fwd-equals-jvp", 200;
    evaluator_versions_agree: "dual/evaluator-versions-agree", 150;
    share_ids_decrease: "dual/share-ids-decrease", 200;
    share_id_unique: "dual/share-id-unique", 200;
    eval_visits_node_once: "dual/eval-visits-node-once", 200;
    let_chain_sharing: "dual/let-chain-sharing", 30;
    delta_share_wrapped: "dual/delta-share-wrapped", 200;
    eval_decreasing_ids: "dual/eval-decreasing-ids", 200;
    discrete_inputs_constant: "dual/discrete-inputs-constant", 200;
    naive_delta_size_linear: "dual/naive-delta-size-linear", 12;
    one_hot_quadratic_without_bot: "dual/one-hot-quadratic-without-bot", 12;
    jacobian_rows_equal_vjps: "dual/jacobian-rows-equal-vjps", 100;
    linear_op_derivative_is_itself: "dual/linear-op-derivative-is-itself", 200;
}
