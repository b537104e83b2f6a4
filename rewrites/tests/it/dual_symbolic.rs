//! The symbolic pipeline: Fig. 18 end to end (through bot), scatter fusion, the
//! wrapper's signature and names, and the printed Delta.

use crate::dual_support;

use adora_core::ast::ExprKind;
use adora_core::types::Type;
use adora_rewrites::dual::symbolic::check::{check_form, instantiate};
use adora_rewrites::dual::{self, eval_gradient_program, Dual};
use adora_rewrites::engine::Derivatives;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::reference;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use dual_support::{agree, lit, load, random_inputs};

fn one() -> Value<Rat> {
    Value::real(Rat::from_integer(1.into()))
}

#[test]
fn fig18_end_to_end_through_bot() {
    // the paper's source term, with build; bot turns the indexings into gathers
    let f = load("def main(x: R[5]) -> R = sum_outer(build 5 (i => x[i] * x[4 - i]))");
    let x = lit(&f, 0, "[1, 2, 3, 4, 5]");
    let g = <Dual as Derivatives<Rat>>::gradient(
        &Dual,
        &f,
        std::slice::from_ref(&x),
        &EvalOptions::default(),
    )
    .expect("dual gradient");
    assert_eq!(g.value, Value::real(Rat::from_integer(35.into())));
    assert_eq!(g.grads[0], Some(lit(&f, 0, "[10, 8, 6, 4, 2]")));
    let text = dual::delta_text(&f).expect("delta text");
    assert!(text.contains("Gather(Input x"), "{text}");
    let gp = dual::gradient_program(&f).expect("gradient program");
    let grad = adora_core::pretty::function(&gp.function);
    assert!(grad.contains("scatter("), "{grad}");
    assert!(!grad.contains("build"), "{grad}");
}

#[test]
fn scatters_of_both_signs_and_prefixes_fuse_exactly() {
    let src = "def main(x: R[4, 3]) -> R =
      x[0, 0] - x[1, 2] + sum(x[2]) - sum(gather([2], x, i => [i + 1, 2])) + x[3, 1] * x[0, 2] - sum(x[1]) * x[2, 2]";
    let f = load(src);
    for seed in 0..4 {
        agree(&f, &random_inputs(&f, seed), &one());
    }
    let gp = dual::symbolic::wrapper::gradient_program(&f).expect("gradient program");
    let scatters = adora_core::visit::subexprs(&gp.function.body)
        .iter()
        .filter(|e| matches!(e.kind, ExprKind::Scatter(..)))
        .count();
    assert_eq!(
        scatters,
        1,
        "{}",
        adora_core::pretty::function(&gp.function)
    );
}

#[test]
fn the_wrapper_signature_names_and_shapes() {
    // a parameter called `dret` and a binder called `t_1`: no clash
    let f =
        load("def main(dret: R[2], t_1: R) -> R = let ct_1 = dret * dret in sum(ct_1) * t_1 / t_1");
    let gp = dual::symbolic::wrapper::gradient_program(&f).expect("gradient program");
    assert_eq!(gp.dret, "dret_1");
    assert_eq!(
        gp.function.params.last().map(|p| p.name.as_str()),
        Some("dret_1")
    );
    assert_eq!(gp.real_params, vec![0, 1]);
    for seed in 0..3 {
        agree(&f, &random_inputs(&f, seed), &one());
    }
    // tuple parameter and tuple result
    let f = load(
        "def main(x: R[2], p: (R, Z)) -> (R, R[2]) = (p.0 * sum(x), x * replicate(2, real(p.1)))",
    );
    let gp = dual::symbolic::wrapper::gradient_program(&f).expect("gradient program");
    assert_eq!(gp.function.ret.to_string(), "((R, R[2]), R[2], (R, Z))");
    assert_eq!(gp.function.params[2].ty, f.ret);
    // no real parameter: the value alone
    let f = load("def main(k: Z) -> R = real(k) * 2.0");
    let gp = dual::symbolic::wrapper::gradient_program(&f).expect("gradient program");
    assert!(gp.real_params.is_empty());
    assert_eq!(gp.function.ret, Type::real());
    let k = lit(&f, 0, "3");
    let got = eval_gradient_program(
        &gp,
        std::slice::from_ref(&k),
        &one(),
        &EvalOptions::default(),
    )
    .expect("evaluates");
    let want = reference::gradient(&f, &[k], &EvalOptions::default()).expect("reference");
    assert_eq!(got, want);
}

#[test]
fn the_separated_form_holds_and_instantiates() {
    for src in [
        "def main(x: R[5]) -> R = sum_outer(gather([5], x, i => [i]) * gather([5], x, j => [4 - j]))",
        "def main(x: R[3], y: R[3]) -> (R, R[3]) = let z = x / y in (sum(z * x), max(z, y))",
        "def main(p: (R, R[2]), k: Z) -> R = p.1[k] * p.0 + sum(select(p.1 > replicate(2, 0.0), p.1, -p.1))",
    ] {
        let f = load(src);
        let report = check_form(&f).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert!(report.delta_nodes > 0);
        let xs = random_inputs(&f, 5);
        let (value, deltas) = instantiate(&f, &xs, &EvalOptions::default()).expect("instantiates");
        let (want, _) = eval(&f, &xs, &EvalOptions::default()).expect("evaluates");
        assert_eq!(value, want, "{src}");
        assert!(!deltas.is_empty());
    }
}

#[test]
fn the_delta_printer_lists_shares_before_the_root() {
    let f = load("def main(x: R[3]) -> R = let y = x * x + x in sum(y * y)");
    let text = dual::delta_text(&f).expect("delta text");
    let share = text.find("#1 : R[3] =").expect("a share definition");
    let root = text.find("result : R =").expect("the root");
    assert!(share < root, "{text}");
    assert!(text.starts_with("-- primal ("), "{text}");
}
