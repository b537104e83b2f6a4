//! Values across the non-linear ; linear boundary: the tangent part of a value (its reals,
//! shaped by [`super::tangent::tangent_type`]) and back, and evaluation of a Linear A def
//! by erasure, lowering and the core evaluator.

use super::erase::erase_program;
use super::lower::lower;
use super::tangent::tangent_type;
use super::util::internal;
use adora_core::diag::Result;
use adora_core::linear::LinearProgram;
use adora_core::types::Type;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::scalar::Scalar;
use adora_semantics::value::Value;

/// The tangent part of `v : ty` (its reals, as a value of the tangent type), `None` when
/// the type has no tangent.
pub fn tangent_part<S: Scalar>(v: &Value<S>, ty: &Type) -> Option<Value<S>> {
    match (v, ty) {
        (Value::Real(_), _) => Some(v.clone()),
        (Value::Tuple(vs), Type::Tuple(ts)) => {
            let mut parts: Vec<Value<S>> = vs
                .iter()
                .zip(ts)
                .filter_map(|(c, t)| tangent_part(c, t))
                .collect();
            match parts.len() {
                0 => None,
                1 => parts.pop(),
                _ => Some(Value::Tuple(parts)),
            }
        }
        _ => None,
    }
}

/// The value of type `ty` whose reals come from the tangent value `tan` (zero when
/// absent) and whose integers and booleans are copied from `like` (`copy`) or zero.
pub fn from_tangent<S: Scalar>(
    tan: Option<&Value<S>>,
    like: &Value<S>,
    ty: &Type,
    copy: bool,
) -> Value<S> {
    match (like, ty) {
        (Value::Real(_), _) => tan.cloned().unwrap_or_else(|| Value::zeros(ty)),
        (Value::Tuple(vs), Type::Tuple(ts)) => {
            let with: Vec<bool> = ts.iter().map(|t| tangent_type(t).is_some()).collect();
            let count = with.iter().filter(|b| **b).count();
            let mut k = 0;
            let parts = vs
                .iter()
                .zip(ts)
                .zip(&with)
                .map(|((c, t), has)| {
                    if !*has {
                        return from_tangent(None, c, t, copy);
                    }
                    let part = match (tan, count) {
                        (Some(x), 1) => Some(x),
                        (Some(Value::Tuple(xs)), _) => xs.get(k),
                        _ => None,
                    };
                    k += 1;
                    from_tangent(part, c, t, copy)
                })
                .collect();
            Value::Tuple(parts)
        }
        _ => {
            if copy {
                like.clone()
            } else {
                Value::zeros(ty)
            }
        }
    }
}

/// Evaluates def `entry` of a Linear A program on its non-linear then linear arguments
/// (erased, lowered to core, evaluated): its non-linear then linear results. A def with
/// no results is not evaluated.
pub fn eval_def<S: Scalar>(
    p: &LinearProgram,
    entry: &str,
    args: &[Value<S>],
    opts: &EvalOptions,
) -> Result<Vec<Value<S>>> {
    let d = p
        .def(entry)
        .ok_or_else(|| internal(format!("no def `{entry}`")))?;
    let n = d.ret.len() + d.lret.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let e = erase_program(p)?;
    let f = lower(&e, entry)?;
    let (v, _) = eval(&f, args, opts)?;
    Ok(match (n, v) {
        (1, v) => vec![v],
        (_, Value::Tuple(vs)) => vs,
        _ => return Err(internal("a def with several results returned one value")),
    })
}
