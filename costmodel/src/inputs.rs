//! Deterministic, non-trivial default inputs for `adora cost` without `--input`.
//!
//! Scalars are numbered `k = 1, 2, 3, …` in order across all parameters (row-major within
//! an array, components of a tuple in order). Then:
//!
//! * a real is `k / (k + 2)` (`1/3, 1/2, 3/5, …`: distinct, non-zero, non-integer);
//! * an integer at row-major position `p` (0-based, within its own array) of an array whose
//!   outermost dimension is `d` is `p mod d` (so `Z[n]` holds `0, 1, …, n-1` and indices are
//!   in bounds of arrays at least that long); a scalar integer is `1`;
//! * a boolean is `true` at even `p`, `false` at odd `p` (a scalar boolean is `true`).

use adora_core::ast::Function;
use adora_core::types::{Base, Type};
use adora_semantics::value::{Tensor, Value};
use adora_semantics::Rat;
use num_bigint::BigInt;

/// Default inputs for `f`, one value per parameter (see the module documentation).
pub fn default_inputs(f: &Function) -> Vec<Value<Rat>> {
    let mut k = 0u64;
    f.params.iter().map(|p| value(&p.ty, &mut k)).collect()
}

fn value(t: &Type, k: &mut u64) -> Value<Rat> {
    match t {
        Type::Tuple(ts) => Value::Tuple(ts.iter().map(|t| value(t, k)).collect()),
        Type::Array(b, shape) => {
            let n: usize = shape.iter().product();
            let outer = shape.first().copied().unwrap_or(0) as u64;
            let shape = shape.clone();
            match b {
                Base::R => Value::Real(Tensor {
                    shape,
                    data: (0..n)
                        .map(|_| {
                            *k += 1;
                            Rat::new(BigInt::from(*k), BigInt::from(*k + 2))
                        })
                        .collect(),
                }),
                Base::Z => Value::Int(Tensor {
                    shape,
                    data: (0..n as u64)
                        .map(|p| {
                            *k += 1;
                            if outer == 0 {
                                1
                            } else {
                                i64::try_from(p % outer).unwrap_or(0)
                            }
                        })
                        .collect(),
                }),
                Base::B => Value::Bool(Tensor {
                    shape,
                    data: (0..n)
                        .map(|p| {
                            *k += 1;
                            p % 2 == 0
                        })
                        .collect(),
                }),
            }
        }
    }
}
