//! Values in and out of buffers: reals as they are, integers and booleans as `f64`s
//! (docs/backend.md, "Buffers").

use crate::plan::{Output, Plan};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::types::{Base, Type};
use adora_semantics::value::{Tensor, Value};

fn store(plan: &Plan, o: &Output, v: &Value<f64>, slots: &mut [Vec<f64>]) -> Result<()> {
    let bad = || {
        Diagnostic::new(
            ErrorKind::Input,
            Span::DUMMY,
            "an input does not have its parameter's type",
        )
    };
    match (o, v) {
        (Output::Buf(b), v) => {
            let buf = &plan.buffers[*b];
            let dst = &mut slots[buf.slot][..buf.len()];
            match v {
                Value::Real(t)
                    if buf.base == Base::R && t.shape == buf.shape && t.data.len() == dst.len() =>
                {
                    dst.copy_from_slice(&t.data)
                }
                Value::Int(t)
                    if buf.base == Base::Z && t.shape == buf.shape && t.data.len() == dst.len() =>
                {
                    dst.iter_mut()
                        .zip(&t.data)
                        .for_each(|(d, &x)| *d = x as f64)
                }
                Value::Bool(t)
                    if buf.base == Base::B && t.shape == buf.shape && t.data.len() == dst.len() =>
                {
                    dst.iter_mut()
                        .zip(&t.data)
                        .for_each(|(d, &x)| *d = f64::from(x))
                }
                _ => return Err(bad()),
            }
            Ok(())
        }
        (Output::Tuple(os), Value::Tuple(vs)) if os.len() == vs.len() => {
            for (o, v) in os.iter().zip(vs) {
                store(plan, o, v, slots)?;
            }
            Ok(())
        }
        _ => Err(bad()),
    }
}

/// Copies the inputs into their buffers.
pub fn store_inputs(plan: &Plan, inputs: &[Value<f64>], slots: &mut [Vec<f64>]) -> Result<()> {
    if inputs.len() != plan.inputs.len() {
        return Err(Diagnostic::new(
            ErrorKind::Input,
            Span::DUMMY,
            format!(
                "the plan takes {} inputs, {} given",
                plan.inputs.len(),
                inputs.len()
            ),
        ));
    }
    for (o, v) in plan.inputs.iter().zip(inputs) {
        store(plan, o, v, slots)?;
    }
    Ok(())
}

/// The value of type `ty` held by the output buffers.
pub fn load_output(plan: &Plan, o: &Output, ty: &Type, slots: &[Vec<f64>]) -> Value<f64> {
    match (o, ty) {
        (Output::Buf(b), Type::Array(base, shape)) => {
            let buf = &plan.buffers[*b];
            let data = &slots[buf.slot][..buf.len()];
            let shape = shape.clone();
            match base {
                Base::R => Value::Real(Tensor {
                    shape,
                    data: data.to_vec(),
                }),
                Base::Z => Value::Int(Tensor {
                    shape,
                    data: data.iter().map(|&x| x as i64).collect(),
                }),
                Base::B => Value::Bool(Tensor {
                    shape,
                    data: data.iter().map(|&x| x != 0.0).collect(),
                }),
            }
        }
        (Output::Tuple(os), Type::Tuple(ts)) => Value::Tuple(
            os.iter()
                .zip(ts)
                .map(|(o, t)| load_output(plan, o, t, slots))
                .collect(),
        ),
        // The lowering builds the output from the function's result type.
        _ => Value::Tuple(Vec::new()),
    }
}
