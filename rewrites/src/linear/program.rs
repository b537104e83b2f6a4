//! Engine `linear`'s derivative programs (docs/architecture.md, "The engine interface";
//! docs/engines/linear.md): core programs obtained by erasing (`E`, §4.5) and lowering
//! the Linear A defs of the pipeline.
//!
//! * JVP: `E(J(f))`'s def `NAME_jvp(x…, dx…) -> (y, dy)`, lowered;
//! * VJP (and `grad`, with cotangent 1): after `J`, unzipping (tape stored) and `T`, the
//!   composition of the two halves as one non-linear def
//!
//!   ```text
//!   def NAME_vjp(x…, ct) -> (y, ct_x…) =
//!     let (y, tape…) = NAME_jvp_primal(x…) in
//!     let (ct_x…) = NAME_jvp_lin_t(tape…, ct) in (y, ct_x…)
//!   ```
//!
//!   lowered (the calls inlined).
//!
//! Tangent and cotangent slots use the `Reals` layout: the tangent types of seed 002
//! §5.1.5 (a parameter without reals gets no tangent).

use super::engine::{build_free, linearize, reverse_program};
use super::erase::erase_program;
use super::jvp::jvp_name;
use super::lower::lower;
use super::tangent::tangent_type;
use super::transpose::transpose_name;
use super::unzip::{lin_name, primal_name, Checkpoint};
use super::util::internal;
use crate::engine::{DerivativeProgram, Input, Layout, Output, Question, Signature};
use adora_core::ast::{Function, Name, Param};
use adora_core::diag::{Result, Span};
use adora_core::linear::{Atom, Binders, LExpr, LKind, LinearDef};
use adora_core::visit::NameSupply;

/// The indices of `f`'s parameters that have a tangent (contain reals).
fn with_tangent(f: &Function) -> Vec<usize> {
    (0..f.params.len())
        .filter(|&k| tangent_type(&f.params[k].ty).is_some())
        .collect()
}

/// The JVP program of `f`: `E(J(f))` lowered, `(x…, dx…) -> (y, dy)`.
pub fn jvp_program(f: &Function) -> Result<DerivativeProgram> {
    let j = linearize(f)?;
    let e = erase_program(&j)?;
    let function = lower(&e, &jvp_name(&f.name))?;
    let tangents = with_tangent(f);
    let mut inputs: Vec<Input> = (0..f.params.len()).map(Input::Primal).collect();
    inputs.extend(tangents.iter().map(|k| Input::Tangent(*k)));
    let mut outputs = vec![Output::Value];
    if tangent_type(&f.ret).is_some() {
        outputs.push(Output::Tangent);
    }
    Ok(DerivativeProgram {
        question: Question::Jvp,
        primal: build_free(f)?,
        function,
        signature: Signature {
            inputs,
            outputs,
            layout: Layout::Reals,
        },
    })
}

/// The VJP program of `f` under a checkpointing policy: the primal half and the
/// transposed linear half composed (module documentation), lowered.
pub fn vjp_program(f: &Function, policy: &Checkpoint) -> Result<DerivativeProgram> {
    let p = reverse_program(f, policy)?;
    let mut e = erase_program(&p)?;
    let jname = jvp_name(&f.name);
    let (prim, lin_t) = (primal_name(&jname), transpose_name(&lin_name(&jname)));
    let name = format!("{}_vjp", f.name);
    let def = compose(&e, &prim, &lin_t, &name)?;
    e.defs.push(def);
    let function = lower(&e, &name)?;
    let mut inputs: Vec<Input> = (0..f.params.len()).map(Input::Primal).collect();
    if tangent_type(&f.ret).is_some() {
        inputs.push(Input::Cotangent);
    }
    let mut outputs = vec![Output::Value];
    outputs.extend(with_tangent(f).into_iter().map(Output::Cotangent));
    Ok(DerivativeProgram {
        question: Question::Vjp,
        primal: build_free(f)?,
        function,
        signature: Signature {
            inputs,
            outputs,
            layout: Layout::Reals,
        },
    })
}

/// The non-linear def `name(x…, ct…) = let (y, tape…) = prim(x…) in let (g…) =
/// lin_t(tape…, ct…) in (y, g…)` over the erased program's defs `prim` and `lin_t`.
fn compose(
    e: &adora_core::linear::LinearProgram,
    prim: &str,
    lin_t: &str,
    name: &str,
) -> Result<LinearDef> {
    let p = e
        .def(prim)
        .ok_or_else(|| internal(format!("no def `{prim}`")))?;
    let t = e
        .def(lin_t)
        .ok_or_else(|| internal(format!("no def `{lin_t}`")))?;
    let tape_len = p.ret.len().saturating_sub(1);
    if p.ret.is_empty() || t.params.len() < tape_len {
        return Err(internal("the unzipped halves do not fit together"));
    }
    let mut names = NameSupply::new();
    let mut params: Vec<Param> = Vec::new();
    for prm in &p.params {
        params.push(Param {
            name: names.claim(&prm.name),
            ty: prm.ty.clone(),
            span: Span::DUMMY,
        });
    }
    for prm in &t.params[tape_len..] {
        params.push(Param {
            name: names.claim("ct"),
            ty: prm.ty.clone(),
            span: Span::DUMMY,
        });
    }
    let y = names.claim("y");
    let tape: Vec<Name> = (0..tape_len).map(|_| names.fresh("tape")).collect();
    let grads: Vec<Name> = (0..t.ret.len()).map(|_| names.fresh("ct_x")).collect();
    let vars = |ns: &[Name]| ns.iter().map(|n| Atom::v(n.clone())).collect::<Vec<_>>();
    let xs: Vec<Name> = params[..p.params.len()]
        .iter()
        .map(|q| q.name.clone())
        .collect();
    let cts: Vec<Name> = params[p.params.len()..]
        .iter()
        .map(|q| q.name.clone())
        .collect();
    let mut result = vec![Atom::v(y.clone())];
    result.extend(vars(&grads));
    let mut body = LExpr::synth(LKind::Ret(result, Vec::new()));
    if !grads.is_empty() {
        let mut args = vars(&tape);
        args.extend(vars(&cts));
        let call = LExpr::synth(LKind::Call(lin_t.to_string(), args, Vec::new()));
        body = LExpr::synth(LKind::Let(
            Binders {
                nl: grads.clone(),
                lin: Vec::new(),
            },
            Box::new(call),
            Box::new(body),
        ));
    }
    let mut bound = vec![y];
    bound.extend(tape);
    let call = LExpr::synth(LKind::Call(prim.to_string(), vars(&xs), Vec::new()));
    body = LExpr::synth(LKind::Let(
        Binders {
            nl: bound,
            lin: Vec::new(),
        },
        Box::new(call),
        Box::new(body),
    ));
    let mut ret = vec![p.ret[0].clone()];
    ret.extend(t.ret.iter().cloned());
    Ok(LinearDef {
        name: name.to_string(),
        params,
        lparams: Vec::new(),
        ret,
        lret: Vec::new(),
        body,
        span: Span::DUMMY,
    })
}
