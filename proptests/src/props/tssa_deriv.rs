//! The properties of engine `tssa`'s derivatives (seed 001, *Differentiating a Tensor
//! Language*, §6; docs/engines/tssa-derivatives.md, "Properties"), on random Tensor-SSA
//! programs ([`cases`], G3) and constructed families ([`dag`], G4):
//!
//! * `tssa/rule-6-N-sound` — forward (6.1 … 6.16): per primal form, the tangent block
//!   equals the dual-number JVP of the TL evaluator exactly; adjoint (6.20 … 6.49 and the
//!   fillers): every application of the rule in real runs keeps the desugared value;
//! * `tssa/rule-6-N-cost` — `C_ext` per rule application (S001-X6.55a–c);
//! * `tssa/jvp-equals-tl-jvp`, `tssa/ssa-adjoint-law`, `tssa/jvp-ops-bound` (Theorem 6.1),
//!   `tssa/cheap-gradient` and `tssa/cheap-gradient-strong` (Theorem 6.55),
//!   `tssa/adjoint-single-inner-product`, `tssa/inner-product-lhs-cost-zero`,
//!   `tssa/jvp-code-size-linear`, `tssa/transpose-preserves-additions`,
//!   `tssa/adjoint-fanout-sum-duality`, `tssa/conv-adjoint-is-correlation`.
//!
//! (The engine properties `tssa/grad-equals-reference`, `tssa/jvp-equals-reference` and
//! `tssa/adjoint-law` on host programs come from the registry, [`super::engines`].)

pub mod adjoint;
pub mod cases;
pub mod dag;
pub mod forward;
pub mod support;

use crate::catalogue::{Agg, Check, Figure, Outcome, Property};
use adjoint::CostLaw;
use forward::Form;

/// A property check of a few random dimensions.
type DimsCheck = fn(&[usize]) -> Outcome;

fn prop(
    name: &'static str,
    source: &'static str,
    description: &'static str,
    figure: Option<&'static str>,
    check: fn(&[usize]) -> Outcome,
) -> Property {
    Property {
        name,
        source,
        fragment: "tssa",
        description,
        figure: figure.map(|label| Figure {
            label,
            agg: Agg::Max,
        }),
        check: Check::Dims {
            count: 2,
            max: 1_000_000,
            check,
        },
    }
}

macro_rules! fwd_rule {
    ($f:ident, $form:expr) => {
        fn $f(d: &[usize]) -> Outcome {
            forward::rule_sound($form, d)
        }
    };
}
fwd_rule!(f_6_1, Form::Input);
fwd_rule!(f_6_3, Form::Const);
fwd_rule!(f_6_4, Form::Add);
fwd_rule!(f_6_5, Form::Product);
fwd_rule!(f_6_6, Form::Map);
fwd_rule!(f_6_10, Form::Sum);

macro_rules! adj_rule {
    ($f:ident, $name:expr) => {
        fn $f(d: &[usize]) -> Outcome {
            adjoint::rule_sound($name, d)
        }
    };
}
adj_rule!(a_6_20, "6.20");
adj_rule!(a_6_25, "6.25");
adj_rule!(a_6_26, "6.26");
adj_rule!(a_6_27, "6.27");
adj_rule!(a_6_28, "6.28");
adj_rule!(a_6_31, "6.31");
adj_rule!(a_6_32, "6.32");
adj_rule!(a_6_39, "6.39");
adj_rule!(a_6_44, "6.44");
adj_rule!(a_6_47, "6.47");
adj_rule!(a_6_48, "6.48");
adj_rule!(a_6_49, "6.49");
adj_rule!(a_6_x_input, "6.x-input");
adj_rule!(a_6_x_const, "6.x-const");
adj_rule!(a_6_x_copy, "6.x-copy");
adj_rule!(a_6_x_zero, "6.x-zero");

macro_rules! cost_rule {
    ($f:ident, $name:expr, $law:expr) => {
        fn $f(d: &[usize]) -> Outcome {
            adjoint::rule_cost($name, $law, d)
        }
    };
}
cost_rule!(c_6_20, "6.20", CostLaw::Equal);
cost_rule!(c_6_25, "6.25", CostLaw::Equal);
cost_rule!(c_6_26, "6.26", CostLaw::Equal);
cost_rule!(c_6_31, "6.31", CostLaw::Equal);
cost_rule!(c_6_39, "6.39", CostLaw::Equal);
cost_rule!(c_6_32, "6.32", CostLaw::NoRaise);
cost_rule!(c_6_44, "6.44", CostLaw::NoRaise);
cost_rule!(c_6_47, "6.47", CostLaw::NoRaise);
cost_rule!(c_6_48, "6.48", CostLaw::NoRaise);
cost_rule!(c_6_49, "6.49", CostLaw::NoRaise);
cost_rule!(c_6_28, "6.28", CostLaw::NoRaise);
cost_rule!(c_6_x_const, "6.x-const", CostLaw::NoRaise);
cost_rule!(c_6_x_copy, "6.x-copy", CostLaw::NoRaise);
cost_rule!(c_6_x_input, "6.x-input", CostLaw::Equal);
cost_rule!(c_6_27, "6.27", CostLaw::Io);

const FWD: &str = "S001 §6.2, Fig. 13 (S001-X6.2a)";
const ADJ: &str = "S001 §6.3, Figs. 14-16 (S001-X6.3a)";
const COST: &str = "S001 §6.3, Fig. 17, proof of Theorem 6.55 (S001-X6.55a-c)";

/// The derivative properties of engine `tssa`.
pub fn properties() -> Vec<Property> {
    let fwd = "on random Tensor-SSA programs (G3), every prefix ending in a statement of this form has a JVP (rules 6.1-6.16) equal to the dual-number JVP of the TL evaluator, exactly (random subsets of inputs differentiated)";
    let adj = "every application of this adjoint rule in the runs of R on random Tensor-SSA programs (G3) keeps the value of the inner-product term desugared by rules 6.17-6.19, exactly, at random x, dx and dY";
    let eq = "every application of this rule in runs of R on G3 programs preserves the extended cost C_ext of Fig. 17 exactly";
    let le = "every application of this rule in runs of R on G3 programs never raises the extended cost C_ext of Fig. 17";
    let mut out = vec![
        prop("tssa/rule-6-1-sound", FWD, fwd, None, f_6_1),
        prop("tssa/rule-6-3-sound", FWD, fwd, None, f_6_3),
        prop("tssa/rule-6-4-sound", FWD, fwd, None, f_6_4),
        prop("tssa/rule-6-5-sound", FWD, fwd, None, f_6_5),
        prop("tssa/rule-6-6-sound", FWD, fwd, None, f_6_6),
        prop("tssa/rule-6-10-sound", FWD, fwd, None, f_6_10),
        prop("tssa/rule-6-16-sound", FWD, "the let rule 6.16 (the chain rule): D of a whole random Tensor-SSA program equals the dual-number JVP of the TL evaluator, exactly", None, forward::whole_program),
        prop("tssa/jvp-equals-tl-jvp", "S001 §6.2 (S001-X6.2a)", "D of a random Tensor-SSA program, evaluated at random inputs and tangents, equals the JVP of its let-block by dual numbers, exactly", None, forward::whole_program),
        prop("tssa/jvp-ops-bound", "S001 Theorem 6.1 (S001-T6.1)", "C(D e) <= 4 C(e) on random Tensor-SSA programs, all real inputs differentiated (the figure: the worst ratio C(D e)/C(e); 4 is attained)", Some("max C(D)/C"), forward::ops_bound),
        prop("tssa/jvp-code-size-linear", "S001 §6.2 (S001-X6.2b)", "#stmts(D e) <= 4 #stmts(e) on random Tensor-SSA programs; the n-fold product differentiated by the term rules without lets grows quadratically in n, D on its SSA form linearly (the figure: the worst statement ratio)", Some("max #D/#e"), forward::code_size),
        prop("tssa/ssa-adjoint-law", "S001 §6.1 (S001-X2.1c)", "<dY, D(x; dX)> = <dX, R(x; dY)> exactly on random Tensor-SSA programs at random x, dX, dY (the figure: the fraction of cases with a non-zero side)", Some("non-zero"), adjoint::adjoint_law),
        prop("tssa/cheap-gradient", "S001 Theorem 6.55 (S001-T6.55)", "C(R e) <= 4 (C(e) + |X| + |Y|) on random Tensor-SSA programs (the figure: the worst ratio C(R e)/(C(e) + |X| + |Y|))", Some("max C(R)/C_io"), adjoint::cheap_gradient),
        prop("tssa/cheap-gradient-strong", "S001 Theorem 6.55, proof (S001-T6.55)", "the strong form C(R e) <= C(D e) + |X| + |Y| on random Tensor-SSA programs (the figure: the worst ratio C(R e)/(C(D e) + |X| + |Y|))", Some("max C(R)/(C(D)+io)"), adjoint::cheap_gradient_strong),
        prop("tssa/adjoint-single-inner-product", "S001 §6.3 (S001-X6.3c)", "in every run of R: after 6.25 no primal binding follows a differential one, 6.31 fires only with exactly one inner product on its variable, and at the end each input has one inner product and nothing else is left (the figure: the most 6.39 merges in a run)", Some("max merges"), adjoint::single_inner_product),
        prop("tssa/inner-product-lhs-cost-zero", "S001 §6.3, proof of Theorem 6.55 (S001-X6.3d)", "in every state of every run of R, the left side of every inner product is dY, a projection of it, or an adjoint variable: cost 0", None, adjoint::lhs_cost_zero),
        prop("tssa/transpose-preserves-additions", "S001 §2.2 (S001-X2.2b)", "on random linear scalar DAGs (G4), R has adds(e) + #outputs - #inputs additions and as many scalings as the DAG", None, dag::transpose_additions),
        prop("tssa/conv-adjoint-is-correlation", "S001 §2.1 (S001-X2.1b)", "the VJP of a 1-D convolution in Tensor SSA (index arithmetic in the predicate l == i + j) with respect to the signal is the correlation dx[l] = sum_j [0 <= l - j < m] w[j] dz[l - j], exactly, for random sizes, filters and cotangents", None, dag::conv_correlation),
        prop("tssa/adjoint-fanout-sum-duality", "S001 §2.2 (S001-X2.2a)", "the adjoint of a sum is the fan-out gen i. w and of a fan-out the sum (n - 1 additions); a dead input gets a zero adjoint and a constant output's cotangent is dead (C(R) = 0), at sizes 0-5", None, dag::duality),
    ];
    let adjoint_rules: [(&'static str, DimsCheck); 16] = [
        ("tssa/rule-6-20-sound", a_6_20),
        ("tssa/rule-6-25-sound", a_6_25),
        ("tssa/rule-6-26-sound", a_6_26),
        ("tssa/rule-6-27-sound", a_6_27),
        ("tssa/rule-6-28-sound", a_6_28),
        ("tssa/rule-6-31-sound", a_6_31),
        ("tssa/rule-6-32-sound", a_6_32),
        ("tssa/rule-6-39-sound", a_6_39),
        ("tssa/rule-6-44-sound", a_6_44),
        ("tssa/rule-6-47-sound", a_6_47),
        ("tssa/rule-6-48-sound", a_6_48),
        ("tssa/rule-6-49-sound", a_6_49),
        ("tssa/rule-6-x-input-sound", a_6_x_input),
        ("tssa/rule-6-x-const-sound", a_6_x_const),
        ("tssa/rule-6-x-copy-sound", a_6_x_copy),
        ("tssa/rule-6-x-zero-sound", a_6_x_zero),
    ];
    for (name, f) in adjoint_rules {
        out.push(prop(name, ADJ, adj, None, f));
    }
    let cost_rules: [(&'static str, &'static str, DimsCheck); 15] = [
        ("tssa/rule-6-20-cost", eq, c_6_20),
        ("tssa/rule-6-25-cost", eq, c_6_25),
        ("tssa/rule-6-26-cost", eq, c_6_26),
        ("tssa/rule-6-31-cost", eq, c_6_31),
        ("tssa/rule-6-39-cost", eq, c_6_39),
        ("tssa/rule-6-x-input-cost", eq, c_6_x_input),
        ("tssa/rule-6-32-cost", le, c_6_32),
        ("tssa/rule-6-44-cost", le, c_6_44),
        ("tssa/rule-6-47-cost", le, c_6_47),
        ("tssa/rule-6-48-cost", le, c_6_48),
        ("tssa/rule-6-49-cost", le, c_6_49),
        ("tssa/rule-6-28-cost", le, c_6_28),
        ("tssa/rule-6-x-const-cost", le, c_6_x_const),
        ("tssa/rule-6-x-copy-cost", le, c_6_x_copy),
        ("tssa/rule-6-27-cost", "step 3 of R (dropping the filters with 6.27, 6.28, zero adjoints of absent inputs) raises the extended cost C_ext by at most |X| in total in every run on G3 programs", c_6_27),
    ];
    for (name, what, f) in cost_rules {
        out.push(prop(name, COST, what, None, f));
    }
    out
}
