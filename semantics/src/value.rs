//! Runtime values: row-major tensors of reals (generic scalar `S`), integers and booleans,
//! and tuples of values.

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
