//! Deterministic, non-trivial default inputs for `adora cost` without `--input`.
//!
//! Scalars are numbered `k = 1, 2, 3, …` in order across all parameters (row-major within
//! an array, components of a tuple in order). Then:
//!
//! * a real is `k / D`, where `D` is the smallest power of two above the number `N` of all
//!   scalars of all parameters (`D > N >= k`: distinct, non-zero, non-integer, in `(0, 1)`).
//!   One small common denominator keeps exact arithmetic on them cheap: a sum of `n` of
//!   them has a denominator of at most `D`, so `sum(x)` costs linear time in `n`, where
//!   `k / (k + 2)` (distinct prime-rich denominators) made it super-quadratic
//!   (docs/cost-models.md, "Default inputs").
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
    let n: u64 = f.params.iter().map(|p| scalars(&p.ty)).sum();
    let denom = BigInt::from(n.saturating_add(1).next_power_of_two());
    let mut k = 0u64;
    f.params
        .iter()
        .map(|p| value(&p.ty, &mut k, &denom))
        .collect()
}

/// The number of scalars of a value of type `t`.
fn scalars(t: &Type) -> u64 {
    match t {
        Type::Tuple(ts) => ts.iter().map(scalars).sum(),
        Type::Array(_, shape) => shape.iter().map(|&d| d as u64).product(),
    }
}

fn value(t: &Type, k: &mut u64, denom: &BigInt) -> Value<Rat> {
    match t {
        Type::Tuple(ts) => Value::Tuple(ts.iter().map(|t| value(t, k, denom)).collect()),
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
                            Rat::new(BigInt::from(*k), denom.clone())
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
