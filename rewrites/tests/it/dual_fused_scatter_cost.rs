//! Scatter fusion's segment test is a lazy `if` (docs/engines/dual.md; the module
//! `dual::symbolic::fuse`): with a `select` chain every write of the fused scatter
//! evaluated every segment's index term, and the gradient of this program (found by
//! `adora check --filter dual/cheap-gradient --seed 4013 --cases 1000`) cost 142 `ops`
//! against the bound 4 · 24 + 21 and 875 `work` against 4 · 170 + 21; with the `if`, the
//! `work` bound holds.

use crate::dual_support;
use adora_core::ast::{Expr, ExprKind, Prim};
use adora_core::types::{Base, Type};
use adora_core::visit::subexprs;
use adora_rewrites::engine::{self, Question, Seed};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;
use adora_semantics::Rat;

const COUNTEREXAMPLE: &str = "def f(p: R[3,3], q: R[2,2]) -> R =
  (q[0, 0], q[0, 0]).0 / p[0, 0]

def main(x: R[3,2,3], y: R[2]) -> R =
  f(build [3, 3] ((i1, i2) => f(sum_outer(build 4 (i2 => replicate(3, x[i1, 0]) * replicate(3, x[0, 1]))), build 2 (i1 => y))), [scatter([2], build 2 (i3 => sum_outer([replicate(3, x[0, i3, 0]), x[i3, i3]])), (i4, i5) => [i4]), y])";

fn zeros(shape: &[usize]) -> Value<Rat> {
    Value::zeros(&Type::Array(Base::R, shape.to_vec()))
}

fn select_in_index_map(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Scatter(_, _, _, ix) => ix.iter().any(|c| {
            subexprs(c)
                .iter()
                .any(|s| matches!(s.kind, ExprKind::Prim(Prim::Select, _)))
        }),
        _ => false,
    }
}

#[test]
fn the_fused_scatter_keeps_the_cheap_gradient_bound() {
    let f = dual_support::load(COUNTEREXAMPLE);
    let dual = engine::find("dual").expect("registered");
    let dp = dual.program(&f, Question::Grad).expect("gradient program");
    assert!(
        !subexprs(&dp.function.body)
            .iter()
            .any(|e| select_in_index_map(e)),
        "{}",
        adora_core::pretty::function(&dp.function)
    );
    let inputs = vec![zeros(&[3, 2, 3]), zeros(&[2])];
    let opts = EvalOptions::default();
    let primal = adora_costmodel::measure(&dp.primal, &inputs, &opts).expect("primal");
    let one = Value::real(Rat::from_integer(1.into()));
    let args = dp
        .arguments(&f, &inputs, Seed::Cotangent(&one))
        .expect("arguments");
    let grad = adora_costmodel::measure(&dp.function, &args, &opts).expect("gradient");
    let io = 18 + 2 + 1;
    // The property's bound: `ops`, or on programs dominated by data movement the same
    // bound in `work` (docs/cost-models.md).
    let work_bound = grad.work <= 4 * primal.work + io;
    assert!(
        adora_costmodel::cheap_gradient_bound(&primal, &grad, 4, 1, io) || work_bound,
        "ops(grad) = {} > 4 * {} + {io} and work(grad) = {} > 4 * {} + {io}",
        grad.ops,
        primal.ops,
        grad.work,
        primal.work
    );
}
