//! Types of the core language: base types `R`, `Z`, `B`, statically shaped arrays of them
//! (rank 0 is a scalar) and tuples.

use std::fmt;

/// A static shape: the sizes of the dimensions, outermost first. `[]` is a scalar.
pub type Shape = Vec<usize>;

/// Element (base) types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Base {
    /// Reals: exact rationals in exact mode, `f64` in f64 mode. Differentiable.
    R,
    /// Integers (indices); 64-bit, overflow is an error.
    Z,
    /// Booleans.
    B,
}

impl Base {
    /// The base named `R`, `Z` or `B` in the concrete syntax.
    pub fn from_name(name: &str) -> Option<Base> {
        match name {
            "R" => Some(Base::R),
            "Z" => Some(Base::Z),
            "B" => Some(Base::B),
            _ => None,
        }
    }
}

/// A type: an array of a base type with a static shape, or a tuple of types.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `R`, `Z[4]`, `R[2,3]`, ...: rank-0 arrays are scalars.
    Array(Base, Shape),
    /// `(R, R[3])`.
    Tuple(Vec<Type>),
}

impl Type {
    /// The scalar type of `base`.
    pub fn scalar(base: Base) -> Type {
        Type::Array(base, Vec::new())
    }
    /// `R`.
    pub fn real() -> Type {
        Type::scalar(Base::R)
    }
    /// `Z`.
    pub fn int() -> Type {
        Type::scalar(Base::Z)
    }
    /// `B`.
    pub fn bool() -> Type {
        Type::scalar(Base::B)
    }
    /// Base and shape of an array type; `None` for tuples.
    pub fn as_array(&self) -> Option<(Base, &Shape)> {
        match self {
            Type::Array(b, s) => Some((*b, s)),
            Type::Tuple(_) => None,
        }
    }
    /// The base type of an array type; `None` for tuples.
    pub fn base(&self) -> Option<Base> {
        self.as_array().map(|(b, _)| b)
    }
    /// Whether this is a rank-0 array.
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Array(_, s) if s.is_empty())
    }
    /// Number of scalars in a value of this type (tuples: the sum of their parts).
    pub fn size(&self) -> usize {
        match self {
            Type::Array(_, s) => s.iter().product(),
            Type::Tuple(ts) => ts.iter().map(Type::size).sum(),
        }
    }
    /// Whether a value of this type contains any real scalars.
    pub fn has_reals(&self) -> bool {
        match self {
            Type::Array(b, _) => *b == Base::R,
            Type::Tuple(ts) => ts.iter().any(Type::has_reals),
        }
    }
}

impl fmt::Display for Base {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Base::R => "R",
            Base::Z => "Z",
            Base::B => "B",
        })
    }
}

impl fmt::Display for Type {
    /// Concrete syntax: `R`, `R[2,3]`, `(R, Z[4])`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Array(b, s) if s.is_empty() => write!(f, "{b}"),
            Type::Array(b, s) => {
                write!(f, "{b}[")?;
                for (k, d) in s.iter().enumerate() {
                    if k > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{d}")?;
                }
                f.write_str("]")
            }
            Type::Tuple(ts) => {
                f.write_str("(")?;
                for (k, t) in ts.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
        }
    }
}
