//! `dual/nondiff-preserves-type` and `dual/integer-paths-zero-derivative` (seed 000 §6.2,
//! §6.3): the non-differentiating transformation 𝒩, and computations that reach the result
//! only through integers.

use super::{prepared, show, step};
use crate::catalogue::{Outcome, Pass};
use crate::gen::Case;
use crate::props::util::{fail, opts};
use crate::values::{literal, rat, reals, Rat};
use adora_core::ast::{Expr, ExprKind, Function, Pat, Prim};
use adora_core::diag::Span;
use adora_core::types::Type;
use adora_rewrites::dual::delta::Kind;
use adora_rewrites::dual::forward::Forward;
use adora_rewrites::dual::symbolic::wrapper::gradient_program;
use adora_rewrites::dual::value::seed_input;
use adora_rewrites::dual::{eval_gradient_program, runtime_vjp_normal};
use adora_semantics::eval::eval;
use adora_semantics::reference;
use adora_semantics::value::Value;

pub(super) fn nondiff(case: &Case) -> Outcome {
    adora_core::with_stack(|| nondiff_deep(case))
}

fn nondiff_deep(case: &Case) -> Outcome {
    let Some((_, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    let o = opts();
    let mut fw: Forward<'_, Rat> = Forward::new(&o);
    let mut next = 0;
    for (p, v) in g.params.iter().zip(&case.inputs) {
        fw.bind(&p.name, seed_input(v, &mut next));
    }
    let Some(v) = step(fw.eval_primal(&g.body), "𝒩")? else {
        return Pass::vacuous();
    };
    if let Some(d) = v
        .deltas()
        .iter()
        .find(|d| !matches!(d.kind(), Kind::Zero | Kind::Input(_)))
    {
        return fail(format!(
            "𝒩 built a Delta node `{}` for the bot output\n{}",
            adora_rewrites::dual::delta::kind_name(d.kind()),
            show(&g)
        ));
    }
    let Some((want, _)) = step(eval(&g, &case.inputs, &o), "evaluation")? else {
        return Pass::vacuous();
    };
    let got = v.primal();
    if got != want {
        return fail(format!(
            "𝒩 gives {} but the evaluator {}",
            literal(&got),
            literal(&want)
        ));
    }
    if got.ty() != g.ret {
        return fail(format!(
            "𝒩's value has type {} but the function returns {}",
            got.ty(),
            g.ret
        ));
    }
    Pass::ok()
}

fn mk(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

/// `let r = body in k(r)` for a fresh `r`.
fn wrap_result(g: &Function, k: impl FnOnce(Expr) -> Expr) -> Function {
    let params: Vec<String> = g.params.iter().map(|p| p.name.clone()).collect();
    let mut names = adora_rewrites::kit::names::supply_for(&params, &g.body);
    let r = names.fresh("r");
    let body = mk(ExprKind::Let(
        Pat::Var(r.clone()),
        Box::new(g.body.clone()),
        Box::new(k(mk(ExprKind::Var(r)))),
    ));
    Function {
        name: g.name.clone(),
        params: g.params.clone(),
        ret: Type::real(),
        body,
    }
}

fn floor_real(r: Expr) -> Expr {
    mk(ExprKind::Prim(
        Prim::Real,
        vec![mk(ExprKind::Prim(Prim::Floor, vec![r]))],
    ))
}

/// The gradients of `h` (build-free) by the runtime reverse pass and by the gradient
/// program, and the reference's.
type Grads = Vec<Option<Value<Rat>>>;
fn three_gradients(h: &Function, case: &Case) -> Result<Option<(Grads, Grads, Grads)>, String> {
    let one = Value::real(rat(1, 1));
    // The wrapped program itself can fail where the case's program does not: `floor` of a
    // result beyond the 64-bit integers is an overflow (a runtime error of the program,
    // not of a derivative), and then there is no gradient to compare.
    if let Err(d) = adora_semantics::eval::eval(h, &case.inputs, &opts()) {
        if d.kind == adora_core::diag::ErrorKind::Runtime {
            return Ok(None);
        }
    }
    let Some((rt, _)) = step(
        runtime_vjp_normal(h, &case.inputs, &one, &opts()),
        "the runtime reverse pass",
    )?
    else {
        return Ok(None);
    };
    let gp = step(
        adora_core::with_stack(|| gradient_program(h)),
        "the gradient program",
    )?;
    let Some(gp) = gp else { return Ok(None) };
    let Some(sy) = step(
        eval_gradient_program(&gp, &case.inputs, &one, &opts()),
        "evaluating the gradient program",
    )?
    else {
        return Ok(None);
    };
    let Some(rf) = step(
        reference::gradient(h, &case.inputs, &opts()),
        "the reference gradient",
    )?
    else {
        return Ok(None);
    };
    Ok(Some((rt.grads, sy.grads, rf.grads)))
}

pub(super) fn integer_paths(case: &Case) -> Outcome {
    if case.main().ret != Type::real() || case.inputs.iter().all(|x| reals(x).is_empty()) {
        return Pass::vacuous();
    }
    let Some((_, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    let h1 = wrap_result(&g, floor_real);
    let Some((a, b, c)) = three_gradients(&h1, case)? else {
        return Pass::vacuous();
    };
    for (route, gs) in [
        ("runtime reverse pass", &a),
        ("gradient program", &b),
        ("reference", &c),
    ] {
        let nonzero = gs.iter().flatten().flat_map(reals).any(|x| x != rat(0, 1));
        if nonzero {
            return fail(format!(
                "the {route} gives a nonzero gradient through floor:\n{}",
                show(&h1)
            ));
        }
    }
    let h2 = wrap_result(&g, |r| {
        mk(ExprKind::Binary(
            adora_core::ast::BinOp::Mul,
            Box::new(floor_real(r.clone())),
            Box::new(r),
        ))
    });
    let Some((a, b, c)) = three_gradients(&h2, case)? else {
        return Pass::vacuous();
    };
    if a != c || b != c {
        return fail(format!(
            "gradients of\n{}\nruntime {:?}, gradient program {:?}, reference {:?}",
            show(&h2),
            a.iter()
                .map(|g| g.as_ref().map(literal))
                .collect::<Vec<_>>(),
            b.iter()
                .map(|g| g.as_ref().map(literal))
                .collect::<Vec<_>>(),
            c.iter()
                .map(|g| g.as_ref().map(literal))
                .collect::<Vec<_>>()
        ));
    }
    Pass::ok()
}
