//! The evaluator of the tensor language of seed 001 (*Differentiating a Tensor Language*,
//! Bernstein et al., §4.1, rules 4.1–4.21; docs/engines/tssa-language.md, "Evaluation"),
//! generic over [`Scalar`]: exact rationals, `f64`, and dual numbers, so that forward-mode
//! evaluation over duals is the reference JVP of a term ([`tl_jvp`]).
//!
//! * [`value`]: [`TlValue`], [`TlEnv`], the zero of a type, [`TlValue::iso_eq`];
//! * [`eval`](mod@eval): the evaluation context [`Ctx`] (terms, rules 4.1–4.12);
//! * [`pred`]: predicates and integer expressions (rules 4.13–4.21, E1, E3, E4);
//! * [`blackbox`]: the black-box functions (rule 4.5).

pub mod blackbox;
pub mod eval;
pub mod pred;
pub mod value;

pub use eval::Ctx;
pub use value::{TlEnv, TlValue};

use crate::dual::Dual;
use crate::scalar::Scalar;
use crate::Rat;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::tl::{ssa_to_term, SsaProgram, Term, Var};

/// `⟦t⟧env`: the value of a term (typed first: ill-typed terms are `Type` / `Name`
/// errors; black boxes that are not rational are `NonRational` errors in exact fields).
pub fn eval_term<S: Scalar>(t: &Term, env: &TlEnv<S>) -> Result<TlValue<S>> {
    Ctx::new(t, env)?.eval(t)
}

/// The value of a Tensor-SSA program at its inputs (in the order of `p.inputs`), by its
/// let-block embedding ([`ssa_to_term`]).
pub fn eval_ssa<S: Scalar>(p: &SsaProgram, inputs: &[TlValue<S>]) -> Result<TlValue<S>> {
    eval_term(&ssa_to_term(p), &ssa_env(p, inputs)?)
}

/// The environment of a program's inputs, checked against their types.
pub fn ssa_env<S: Scalar>(p: &SsaProgram, inputs: &[TlValue<S>]) -> Result<TlEnv<S>> {
    if inputs.len() != p.inputs.len() {
        return Err(Diagnostic::new(
            ErrorKind::Input,
            Span::DUMMY,
            format!(
                "the program takes {} inputs, {} given",
                p.inputs.len(),
                inputs.len()
            ),
        ));
    }
    for ((x, t), v) in p.inputs.iter().zip(inputs) {
        if !v.has_type(t) {
            return Err(Diagnostic::new(
                ErrorKind::Input,
                Span::DUMMY,
                format!("input `{x}` of type `{t}` given the value `{v}`"),
            ));
        }
    }
    Ok(TlEnv::from_inputs(&p.inputs, inputs))
}

/// The forward derivative of a term by evaluation over dual numbers (one direction):
/// the value of `t` and its tangent, where the free variables named in `tangents` move
/// in the given directions (each of the variable's type) and all others are constant.
pub fn tl_jvp(
    t: &Term,
    env: &TlEnv<Rat>,
    tangents: &[(Var, TlValue<Rat>)],
) -> Result<(TlValue<Rat>, TlValue<Rat>)> {
    let mut denv = TlEnv::<Dual<Rat>>::new();
    for (x, ty, v) in env.bindings() {
        let dv = match tangents.iter().rev().find(|(y, _)| y == x) {
            Some((_, dx)) => seed(v, dx).ok_or_else(|| {
                Diagnostic::new(
                    ErrorKind::Input,
                    Span::DUMMY,
                    format!("the tangent `{dx}` of `{x}` does not fit its value `{v}`"),
                )
            })?,
            None => v.map_num(&mut |r| Dual::constant(r.clone())),
        };
        denv.bind_typed(x.clone(), ty.clone(), dv);
    }
    let r = eval_term(t, &denv)?;
    Ok((
        r.map_num(&mut |d| d.value().clone()),
        r.map_num(&mut |d| d.tangent(0)),
    ))
}

/// The dual value of `v` moving in direction `dv` (tangent id 0).
fn seed(v: &TlValue<Rat>, dv: &TlValue<Rat>) -> Option<TlValue<Dual<Rat>>> {
    Some(match (v, dv) {
        (TlValue::Num(x), TlValue::Num(d)) => {
            TlValue::Num(Dual::new(x.clone(), vec![(0, d.clone())]))
        }
        (TlValue::Bool(b), _) => TlValue::Bool(*b),
        (TlValue::Int(k), _) => TlValue::Int(*k),
        (TlValue::Pair(a, b), TlValue::Pair(da, db)) => TlValue::pair(seed(a, da)?, seed(b, db)?),
        (TlValue::Arr(es), TlValue::Arr(ds)) if es.len() == ds.len() => TlValue::Arr(
            es.iter()
                .zip(ds)
                .map(|(e, d)| seed(e, d))
                .collect::<Option<_>>()?,
        ),
        _ => return None,
    })
}
