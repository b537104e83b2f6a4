//! The plan's size limit (docs/backend.md, "What the plan refuses"): a derivative program
//! whose fused kernel body would grow past `MAX_KERNEL_SIZE` is refused with
//! `error[unsupported]`.

use adora_core::diag::ErrorKind;
use adora_gpu::plan::plan;
use adora_rewrites::engine::{self, Question};

#[test]
fn an_exponentially_fused_body_is_refused() {
    let path = adora_specs::specs_dir().join("programs/workloads/gmm.adl");
    let case = adora_specs::load_case(&path).unwrap();
    let f = adora_specs::sized::load(&case).unwrap();
    // The primal plans; the `soac` gradient reuses per-point arrays inside its map bodies.
    assert!(plan(&f).is_ok());
    let soac = engine::registry()
        .into_iter()
        .find(|e| e.name() == "soac")
        .expect("engine soac");
    let dp = soac.program(&f, Question::Grad).unwrap();
    let err = plan(&dp.function).expect_err("the soac gradient of gmm is refused");
    assert_eq!(err.kind, ErrorKind::Unsupported);
    assert!(
        err.message.contains("fused body has") && err.message.contains("20000"),
        "{}",
        err.message
    );
}
