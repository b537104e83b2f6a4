//! The scalar-field trait the evaluator is generic over, and its instances for exact
//! rationals and `f64`.

/// A field of real scalars (see the implementation for the full set of operations).
pub trait Scalar: Clone + std::fmt::Debug + PartialEq + Send + Sync + 'static {}
