//! Runtime values: row-major tensors of reals (generic scalar `S`), integers and booleans,
//! and tuples of values.

use crate::scalar::Scalar;
use adora_core::types::{Base, Type};

/// A dense row-major array with a static shape (`[]` for a scalar, one element).
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor<T> {
    /// Dimension sizes, outermost first.
    pub shape: Vec<usize>,
    /// The elements in row-major order; `data.len()` is the product of `shape`.
    pub data: Vec<T>,
}

/// A value of the core language, generic over the real scalar type `S`.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<S> {
    /// An array of reals (`R`).
    Real(Tensor<S>),
    /// An array of integers (`Z`).
    Int(Tensor<i64>),
    /// An array of booleans (`B`).
    Bool(Tensor<bool>),
    /// A tuple.
    Tuple(Vec<Value<S>>),
}

impl<T> Tensor<T> {
    /// A tensor of `shape` with elements `data` (row-major); `None` when the number of
    /// elements does not match the shape.
    pub fn new(shape: Vec<usize>, data: Vec<T>) -> Option<Tensor<T>> {
        let n = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))?;
        (n == data.len()).then_some(Tensor { shape, data })
    }
    /// A rank-0 tensor.
    pub fn scalar(x: T) -> Tensor<T> {
        Tensor {
            shape: Vec::new(),
            data: vec![x],
        }
    }
    /// A rank-1 tensor of the given elements.
    pub fn vector(data: Vec<T>) -> Tensor<T> {
        Tensor {
            shape: vec![data.len()],
            data,
        }
    }
    /// A tensor of `shape` with every element `x`.
    pub fn filled(shape: Vec<usize>, x: T) -> Tensor<T>
    where
        T: Clone,
    {
        let n = shape.iter().product();
        Tensor {
            shape,
            data: vec![x; n],
        }
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.data.len()
    }
    /// Whether the tensor has no elements (some dimension is 0).
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    /// Number of dimensions.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }
    /// The only element of a rank-0 tensor.
    pub fn as_scalar(&self) -> Option<&T> {
        if self.shape.is_empty() {
            self.data.first()
        } else {
            None
        }
    }
    /// The element at a full multi-index, `None` when out of bounds or of the wrong rank.
    pub fn get(&self, index: &[usize]) -> Option<&T> {
        if index.len() != self.shape.len() {
            return None;
        }
        let mut flat = 0;
        for (&i, &d) in index.iter().zip(&self.shape) {
            if i >= d {
                return None;
            }
            flat = flat * d + i;
        }
        self.data.get(flat)
    }
    /// The same shape with every element mapped by `f`.
    pub fn map<U>(&self, f: impl FnMut(&T) -> U) -> Tensor<U> {
        Tensor {
            shape: self.shape.clone(),
            data: self.data.iter().map(f).collect(),
        }
    }
}

impl<S> Value<S> {
    /// A real scalar.
    pub fn real(x: S) -> Value<S> {
        Value::Real(Tensor::scalar(x))
    }
    /// An integer scalar.
    pub fn int(n: i64) -> Value<S> {
        Value::Int(Tensor::scalar(n))
    }
    /// A boolean scalar.
    pub fn bool(b: bool) -> Value<S> {
        Value::Bool(Tensor::scalar(b))
    }
    /// A real array; `None` when `data` does not fit `shape`.
    pub fn reals(shape: Vec<usize>, data: Vec<S>) -> Option<Value<S>> {
        Tensor::new(shape, data).map(Value::Real)
    }
    /// A real vector.
    pub fn real_vector(data: Vec<S>) -> Value<S> {
        Value::Real(Tensor::vector(data))
    }
    /// An integer array; `None` when `data` does not fit `shape`.
    pub fn ints(shape: Vec<usize>, data: Vec<i64>) -> Option<Value<S>> {
        Tensor::new(shape, data).map(Value::Int)
    }
    /// A boolean array; `None` when `data` does not fit `shape`.
    pub fn bools(shape: Vec<usize>, data: Vec<bool>) -> Option<Value<S>> {
        Tensor::new(shape, data).map(Value::Bool)
    }

    /// The value of type `ty` whose scalars are all zero (`0`, `0`, `false`).
    pub fn zeros(ty: &Type) -> Value<S>
    where
        S: Scalar,
    {
        match ty {
            Type::Array(Base::R, s) => Value::Real(Tensor::filled(s.clone(), S::zero())),
            Type::Array(Base::Z, s) => Value::Int(Tensor::filled(s.clone(), 0)),
            Type::Array(Base::B, s) => Value::Bool(Tensor::filled(s.clone(), false)),
            Type::Tuple(ts) => Value::Tuple(ts.iter().map(Value::zeros).collect()),
        }
    }

    /// The type of the value.
    pub fn ty(&self) -> Type {
        match self {
            Value::Real(t) => Type::Array(Base::R, t.shape.clone()),
            Value::Int(t) => Type::Array(Base::Z, t.shape.clone()),
            Value::Bool(t) => Type::Array(Base::B, t.shape.clone()),
            Value::Tuple(vs) => Type::Tuple(vs.iter().map(Value::ty).collect()),
        }
    }

    /// The shape of an array value; `None` for tuples.
    pub fn shape(&self) -> Option<&[usize]> {
        match self {
            Value::Real(t) => Some(&t.shape),
            Value::Int(t) => Some(&t.shape),
            Value::Bool(t) => Some(&t.shape),
            Value::Tuple(_) => None,
        }
    }

    /// Number of scalars (tuples: the sum over their components).
    pub fn size(&self) -> usize {
        match self {
            Value::Real(t) => t.len(),
            Value::Int(t) => t.len(),
            Value::Bool(t) => t.len(),
            Value::Tuple(vs) => vs.iter().map(Value::size).sum(),
        }
    }

    /// The real of a rank-0 real value.
    pub fn as_real(&self) -> Option<&S> {
        match self {
            Value::Real(t) => t.as_scalar(),
            _ => None,
        }
    }
    /// The integer of a rank-0 integer value.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(t) => t.as_scalar().copied(),
            _ => None,
        }
    }
    /// The boolean of a rank-0 boolean value.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(t) => t.as_scalar().copied(),
            _ => None,
        }
    }
    /// The components of a tuple.
    pub fn as_tuple(&self) -> Option<&[Value<S>]> {
        match self {
            Value::Tuple(vs) => Some(vs),
            _ => None,
        }
    }

    /// The real scalars in order (tuples depth-first, arrays row-major).
    pub fn real_scalars(&self) -> Vec<&S> {
        fn go<'v, S>(v: &'v Value<S>, out: &mut Vec<&'v S>) {
            match v {
                Value::Real(t) => out.extend(t.data.iter()),
                Value::Int(_) | Value::Bool(_) => {}
                Value::Tuple(vs) => vs.iter().for_each(|c| go(c, out)),
            }
        }
        let mut out = Vec::new();
        go(self, &mut out);
        out
    }

    /// The same value with every real scalar mapped by `f` (in [`Value::real_scalars`]
    /// order); integers and booleans are copied.
    pub fn map_reals<T>(&self, f: &mut impl FnMut(&S) -> T) -> Value<T> {
        match self {
            Value::Real(t) => Value::Real(t.map(&mut *f)),
            Value::Int(t) => Value::Int(t.clone()),
            Value::Bool(t) => Value::Bool(t.clone()),
            Value::Tuple(vs) => Value::Tuple(vs.iter().map(|v| v.map_reals(f)).collect()),
        }
    }

    /// Converts an exact value to another scalar type (`f64`, dual numbers, ...).
    pub fn from_rationals(v: &Value<crate::Rat>) -> Value<S>
    where
        S: Scalar,
    {
        v.map_reals(&mut |r| S::from_rational(r))
    }

    /// The value with every real as the nearest `f64`.
    pub fn to_f64(&self) -> Value<f64>
    where
        S: Scalar,
    {
        self.map_reals(&mut |x| x.approx_f64())
    }
}
