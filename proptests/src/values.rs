//! Helpers on values: exact rationals, literals for `--input`, conversion to `f64`, and
//! the vector-space operations the derivative properties need (on the real parts of a
//! value; integer and boolean parts are constants).

use adora_core::types::{Base, Type};
use adora_semantics::value::{Tensor, Value};
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};

/// Exact rationals.
pub type Rat = adora_semantics::Rat;

/// The rational `num / den`.
pub fn rat(num: i64, den: i64) -> Rat {
    Rat::new(BigInt::from(num), BigInt::from(den))
}

/// A rational in literal syntax: `3`, `-2/3`.
pub fn rat_literal(r: &Rat) -> String {
    if r.is_integer() {
        r.numer().to_string()
    } else {
        format!("{}/{}", r.numer(), r.denom())
    }
}

fn nested<T>(shape: &[usize], data: &[T], f: &dyn Fn(&T) -> String) -> String {
    match shape.split_first() {
        None => data.first().map(f).unwrap_or_default(),
        Some((n, rest)) => {
            let m: usize = rest.iter().product();
            let parts: Vec<String> = (0..*n)
                .map(|k| nested(rest, &data[k * m..(k + 1) * m], f))
                .collect();
            format!("[{}]", parts.join(", "))
        }
    }
}

/// A value in the literal syntax of `--input` (`[[1, 2/3], [0, -1]]`, tuples `(a, b)`).
pub fn literal(v: &Value<Rat>) -> String {
    match v {
        Value::Real(t) => nested(&t.shape, &t.data, &rat_literal),
        Value::Int(t) => nested(&t.shape, &t.data, &|x: &i64| x.to_string()),
        Value::Bool(t) => nested(&t.shape, &t.data, &|x: &bool| x.to_string()),
        Value::Tuple(vs) => format!(
            "({})",
            vs.iter().map(literal).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// The same value with reals rounded to `f64`.
pub fn to_f64(v: &Value<Rat>) -> Value<f64> {
    match v {
        Value::Real(t) => Value::Real(Tensor {
            shape: t.shape.clone(),
            data: t
                .data
                .iter()
                .map(|r| r.to_f64().unwrap_or(f64::NAN))
                .collect(),
        }),
        Value::Int(t) => Value::Int(t.clone()),
        Value::Bool(t) => Value::Bool(t.clone()),
        Value::Tuple(vs) => Value::Tuple(vs.iter().map(to_f64).collect()),
    }
}

/// The real scalars of a value, in order (tuples flattened).
pub fn reals<S: Clone>(v: &Value<S>) -> Vec<S> {
    match v {
        Value::Real(t) => t.data.clone(),
        Value::Int(_) | Value::Bool(_) => Vec::new(),
        Value::Tuple(vs) => vs.iter().flat_map(reals).collect(),
    }
}

/// Replaces the real scalars of `v`, in order, by those of `xs` (which must have exactly
/// as many).
pub fn with_reals<S: Clone, T: Clone>(v: &Value<S>, xs: &[T]) -> Value<T> {
    fn go<S: Clone, T: Clone>(v: &Value<S>, xs: &[T], k: &mut usize) -> Value<T> {
        match v {
            Value::Real(t) => {
                let n = t.data.len();
                let data = xs[*k..*k + n].to_vec();
                *k += n;
                Value::Real(Tensor {
                    shape: t.shape.clone(),
                    data,
                })
            }
            Value::Int(t) => Value::Int(t.clone()),
            Value::Bool(t) => Value::Bool(t.clone()),
            Value::Tuple(vs) => Value::Tuple(vs.iter().map(|x| go(x, xs, k)).collect()),
        }
    }
    go(v, xs, &mut 0)
}

/// Number of real scalars in a value of type `ty`.
pub fn real_size(ty: &Type) -> usize {
    match ty {
        Type::Array(Base::R, s) => s.iter().product(),
        Type::Array(..) => 0,
        Type::Tuple(ts) => ts.iter().map(real_size).sum(),
    }
}

/// A value of type `ty` whose reals are `xs` in order (integers 0, booleans false).
pub fn from_reals(ty: &Type, xs: &[Rat]) -> Value<Rat> {
    fn go(ty: &Type, xs: &[Rat], k: &mut usize) -> Value<Rat> {
        match ty {
            Type::Array(b, s) => {
                let n: usize = s.iter().product();
                let shape = s.clone();
                match b {
                    Base::R => {
                        let data = xs[*k..*k + n].to_vec();
                        *k += n;
                        Value::Real(Tensor { shape, data })
                    }
                    Base::Z => Value::Int(Tensor {
                        shape,
                        data: vec![0; n],
                    }),
                    Base::B => Value::Bool(Tensor {
                        shape,
                        data: vec![false; n],
                    }),
                }
            }
            Type::Tuple(ts) => Value::Tuple(ts.iter().map(|t| go(t, xs, k)).collect()),
        }
    }
    go(ty, xs, &mut 0)
}

/// `sum_k a[k] * b[k]` over the real scalars of two values of one type.
pub fn dot(a: &Value<Rat>, b: &Value<Rat>) -> Rat {
    reals(a)
        .iter()
        .zip(reals(b).iter())
        .fold(Rat::zero(), |acc, (x, y)| acc + x * y)
}

/// `a * x + b * y` on the real scalars (integer and boolean parts taken from `x`).
pub fn lin_comb(a: &Rat, x: &Value<Rat>, b: &Rat, y: &Value<Rat>) -> Value<Rat> {
    let xs: Vec<Rat> = reals(x)
        .iter()
        .zip(reals(y).iter())
        .map(|(p, q)| a * p + b * q)
        .collect();
    with_reals(x, &xs)
}

/// The largest relative difference between the reals of an exact and an `f64` value:
/// `|a - b| / max(|a|, 1)` (an absolute error for values of magnitude below 1), or an
/// error message when the non-real parts or the shapes differ.
pub fn max_rel_err(exact: &Value<Rat>, approx: &Value<f64>) -> Result<f64, String> {
    if with_reals::<Rat, f64>(exact, &vec![0.0; reals(exact).len()])
        != with_reals::<f64, f64>(approx, &vec![0.0; reals(approx).len()])
    {
        return Err("integer/boolean parts or shapes differ".to_string());
    }
    let mut worst: f64 = 0.0;
    for (a, b) in reals(exact).iter().zip(reals(approx)) {
        let af = a.to_f64().unwrap_or(f64::NAN);
        if !b.is_finite() {
            return Err(format!(
                "f64 value {b} where the exact value is {}",
                rat_literal(a)
            ));
        }
        let err = (af - b).abs() / af.abs().max(1.0);
        worst = worst.max(err);
    }
    Ok(worst)
}
