//! The engine `tssa` (seed 001, *Differentiating a Tensor Language*): its entry in the
//! registry (`crate::engine::registry`) and its derivative programs
//! (docs/engines/tssa.md, docs/engines/tssa-derivatives.md).

use super::adapt::adapt;
use super::deriv::{adjoint, forward};
use super::pipeline::{run, wrt};
use super::raise::raise;
use crate::engine::{
    DerivativeProgram, Engine, Fragment, Input, Layout, Output, Question, Signature,
};
use crate::linear::tangent::tangent_type;
use adora_core::ast::Function;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::types::Type;

/// The engine `tssa`: lower to the tensor language, normalise (let-lifting, pair
/// elimination, gen push-out, Tensor SSA), differentiate by `D` (JVP) and `R` (VJP,
/// grad), raise back to core.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tssa;

impl Engine for Tssa {
    fn name(&self) -> &str {
        "tssa"
    }
    fn description(&self) -> &str {
        "seed 001 (Differentiating a Tensor Language): lowering to the tensor language, let-lifting, pair elimination, gen push-out, Tensor SSA; JVP programs by the total derivative D, VJP and grad programs by the adjoint rules R; raised to core programs"
    }
    fn fragments(&self) -> &'static [Fragment] {
        &[Fragment::Scalar, Fragment::Bulk]
    }
    fn real_results_only(&self) -> bool {
        true
    }
    fn programs(&self) -> &'static [Question] {
        &[Question::Grad, Question::Vjp, Question::Jvp]
    }
    fn program(&self, f: &Function, q: Question) -> Result<DerivativeProgram> {
        program(f, q)
    }
    // `cheap_gradient` stays `None`: Theorem 6.55's bound `C(R e) <= 4 (C(e) + |X| + |Y|)`
    // holds in the tensor cost `C` (Iverson discount, sparse sums; checked by
    // `tssa/cheap-gradient`), not in the host's `ops` of the raised program, which has no
    // sparse loops (docs/engines/tssa-derivatives.md, "The bounds").
}

fn internal(msg: String) -> Diagnostic {
    Diagnostic::new(ErrorKind::Internal, Span::DUMMY, format!("tssa: {msg}"))
}

/// The derivative program of engine `tssa` for `q`.
pub fn program(f: &Function, q: Question) -> Result<DerivativeProgram> {
    q.check_function(f)?;
    let s = run(f)?;
    let p = &s.ssa;
    if p.inputs.len() != f.params.len() {
        return Err(internal(format!(
            "the lowered program has {} inputs for {} parameters",
            p.inputs.len(),
            f.params.len()
        )));
    }
    let w = wrt(p);
    let ks: Vec<usize> = (0..p.inputs.len())
        .filter(|&k| w.contains(&p.inputs[k].0))
        .collect();
    let mut params: Vec<Type> = f.params.iter().map(|x| x.ty.clone()).collect();
    let mut inputs: Vec<Input> = (0..f.params.len()).map(Input::Primal).collect();
    let ret_tangent = tangent_type(&f.ret);
    let (sp, outputs, ret) = match q {
        Question::Jvp => {
            for &k in &ks {
                inputs.push(Input::Tangent(k));
                params.push(
                    tangent_type(&f.params[k].ty)
                        .ok_or_else(|| internal("a differentiated input without reals".into()))?,
                );
            }
            let prog = forward::jvp(p, &w)?;
            match ret_tangent {
                Some(t) => (
                    prog,
                    vec![Output::Value, Output::Tangent],
                    Type::Tuple(vec![f.ret.clone(), t]),
                ),
                None => (prog, vec![Output::Value], f.ret.clone()),
            }
        }
        Question::Grad | Question::Vjp => {
            let Some(t) = ret_tangent else {
                return Err(Diagnostic::new(
                    ErrorKind::Unsupported,
                    Span::DUMMY,
                    "engine `tssa`: the result has no real component, there is no VJP to derive",
                ));
            };
            inputs.push(Input::Cotangent);
            params.push(t);
            let mut outputs = vec![Output::Value];
            let mut rets = vec![f.ret.clone()];
            for &k in &ks {
                outputs.push(Output::Cotangent(k));
                rets.push(
                    tangent_type(&f.params[k].ty)
                        .ok_or_else(|| internal("a differentiated input without reals".into()))?,
                );
            }
            if ks.is_empty() {
                return Err(Diagnostic::new(
                    ErrorKind::Unsupported,
                    Span::DUMMY,
                    "engine `tssa`: no input has a real component, there is no VJP to derive",
                ));
            }
            (adjoint::vjp_with_value(p, &w)?, outputs, Type::Tuple(rets))
        }
    };
    let name = format!("{}_{}", f.name, q.name());
    let g = raise(&sp, &name)?;
    let function = adapt(g, &params, &ret)?;
    adora_core::check::check_function(&function)?;
    Ok(DerivativeProgram {
        question: q,
        primal: f.clone(),
        function,
        signature: Signature {
            inputs,
            outputs,
            layout: Layout::Reals,
        },
    })
}
