//! The e-graph language of the core IR (the seed-000 fragment), shared by every egg rule
//! system of Adora (bot first; simplification and transposition later).
//!
//! Encoding (see the egg paper (Willsey et al., POPL 2021)):
//!
//! - `let` is **not** a node: when a program enters the e-graph, a `let`-bound value is
//!   added once and its name stands for that e-class (hash-consing keeps the sharing);
//!   lets are re-introduced after extraction for nodes with more than one parent.
//! - Program variables are [`VarId`] leaves (`v3`), index variables are [`IVarId`] leaves
//!   (`i7`), interned `u32`s whose names and types/extents live in the analysis's tables,
//!   never in a global interner (determinism).
//! - A binder is a child e-class holding one `IVar` leaf: `(build n4 i7 body)`,
//!   `(gather [2,3] src (binders i1 i2) (ixs e1 e2))`. Multi-dimensional `build` is nested
//!   `build`s.
//! - Static parameters are leaf children: [`Nat`] (`n4`: sizes, projection indices) and
//!   [`ShapeLeaf`] (`[2,3]`: shapes and permutations).
//! - Scalar literals are [`Const`] leaves (`r1/2`, `z3`, `true`); array literals and
//!   stacking are `(array e1 ... en)`.
//!
//! Constructs outside the fragment (`if`, `map`, `reduce`, `scan`, `reduce_by_index`,
//! `scatter_into`, `loop`) have no node: translation rejects them with an `Unsupported`
//! diagnostic naming the construct and its position.

#![allow(missing_docs)] // variants of `define_language!` cannot carry doc comments

use egg::{define_language, Id};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::fmt;
use std::str::FromStr;

/// A program variable (a parameter or a `let`-bound name that could not be inlined as a
/// class, e.g. a tuple component), printed `v<n>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarId(pub u32);

/// An index variable bound by `build`, `gather` or `scatter`, printed `i<n>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IVarId(pub u32);

/// A static natural number (a size, a projection index), printed `n<k>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nat(pub usize);

/// A static list of naturals (a shape or a permutation), printed `[2,3]` (`[]` is empty).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ShapeLeaf(pub Vec<usize>);

/// A typed scalar constant: `r<p>/<q>` or `r<p>` (a real), `z<n>` (an integer),
/// `true` / `false`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Const {
    /// An exact real.
    Real(BigRational),
    /// An integer.
    Int(BigInt),
    /// A boolean.
    Bool(bool),
}

// Variants are documented by the comments beside them (the macro takes no doc
// comments on variants).
define_language! {
    /// The core IR as an egg language. Arities are fixed except for the list nodes
    /// (`array`, `tuple`, `stack`, `index`, `binders`, `ixs`).
    pub enum Ir {
        // ---- structure ----
        // `(array e1 ... en)`: array literal / stacking, a new outer dimension of size n.
        "array" = Array(Box<[Id]>),
        // `(tuple e1 ... en)`, n >= 2.
        "tuple" = Tuple(Box<[Id]>),
        // `(proj n<k> e)`: the k-th component (0-based).
        "proj" = Proj([Id; 2]),
        // ---- elementwise unary ----
        // Negation on R or Z.
        "neg" = Neg([Id; 1]),
        // Boolean not.
        "not" = Not([Id; 1]),
        // `exp`.
        "exp" = Exp([Id; 1]),
        // `log`.
        "log" = Log([Id; 1]),
        // `sin`.
        "sin" = Sin([Id; 1]),
        // `cos`.
        "cos" = Cos([Id; 1]),
        // `tanh`.
        "tanh" = Tanh([Id; 1]),
        // `sqrt`.
        "sqrt" = Sqrt([Id; 1]),
        // `abs`.
        "abs" = Abs([Id; 1]),
        // `floor` (R -> Z).
        "floor" = Floor([Id; 1]),
        // `real` (Z -> R).
        "real" = ToReal([Id; 1]),
        // `(pow e z<k>)`: integer power.
        "pow" = Pow([Id; 2]),
        // ---- elementwise binary ----
        // `+`.
        "+" = Add([Id; 2]),
        // `-`.
        "-" = Sub([Id; 2]),
        // `*`.
        "*" = Mul([Id; 2]),
        // `/` (total on R; floor division on Z).
        "/" = Div([Id; 2]),
        // `%` (Z remainder of floor division).
        "%" = Mod([Id; 2]),
        // `==`.
        "==" = Eq([Id; 2]),
        // `!=`.
        "!=" = Ne([Id; 2]),
        // `<`.
        "<" = Lt([Id; 2]),
        // `<=`.
        "<=" = Le([Id; 2]),
        // `>`.
        ">" = Gt([Id; 2]),
        // `>=`.
        ">=" = Ge([Id; 2]),
        // `&&`.
        "&&" = And([Id; 2]),
        // `||`.
        "||" = Or([Id; 2]),
        // `min` (ties pick the left operand).
        "min" = Min([Id; 2]),
        // `max` (ties pick the left operand).
        "max" = Max([Id; 2]),
        // `(select c a b)`: strict selection, elementwise or whole-array.
        "select" = Select([Id; 3]),
        // ---- bulk operations ----
        // `(sum e)`: sum of all elements, to a scalar.
        "sum" = Sum([Id; 1]),
        // `(sum_outer e)`: sum along the outermost dimension.
        "sum_outer" = SumOuter([Id; 1]),
        // `(replicate n<k> e)`: a new outer dimension of size k.
        "replicate" = Replicate([Id; 2]),
        // `(transpose [perm] e)`.
        "transpose" = Transpose([Id; 2]),
        // `(reshape [shape] e)`.
        "reshape" = Reshape([Id; 2]),
        // `(iota n<k>)`: `Z[k]`.
        "iota" = Iota([Id; 1]),
        // `(append a b)` along the outermost dimension.
        "append" = Append([Id; 2]),
        // `(stack e1 ... en)`: the built-in `stack([...])`.
        "stack" = Stack(Box<[Id]>),
        // `(index e j1 ... jk)`: prefix indexing, k >= 1 (out of bounds reads 0).
        "index" = Index(Box<[Id]>),
        // `(build n<k> i body)`: build1 with binder class `i` (an `IVar` leaf).
        "build" = Build([Id; 3]),
        // `(gather [sh] src (binders ...) (ixs ...))`.
        "gather" = Gather([Id; 4]),
        // `(scatter [sh] src (binders ...) (ixs ...))`; colliding writes add.
        "scatter" = Scatter([Id; 4]),
        // The binder list of a gather/scatter: `IVar` leaves.
        "binders" = Binders(Box<[Id]>),
        // The index list of a gather/scatter.
        "ixs" = Ixs(Box<[Id]>),
        // ---- leaves (parsed in this order; each `FromStr` demands its own prefix) ----
        // A scalar constant.
        Lit(Const),
        // A static natural.
        Nat(Nat),
        // A static shape or permutation.
        Shape(ShapeLeaf),
        // A program variable.
        Var(VarId),
        // An index variable.
        IVar(IVarId),
    }
}

/// The error of parsing a leaf payload (egg tries the leaf kinds in order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeafParseError;

impl fmt::Display for LeafParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a leaf of this kind")
    }
}

fn prefixed_u32(s: &str, prefix: char) -> Result<u32, LeafParseError> {
    let rest = s.strip_prefix(prefix).ok_or(LeafParseError)?;
    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return Err(LeafParseError);
    }
    rest.parse().map_err(|_| LeafParseError)
}

impl fmt::Display for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}
impl FromStr for VarId {
    type Err = LeafParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        prefixed_u32(s, 'v').map(VarId)
    }
}

impl fmt::Display for IVarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "i{}", self.0)
    }
}
impl FromStr for IVarId {
    type Err = LeafParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        prefixed_u32(s, 'i').map(IVarId)
    }
}

impl fmt::Display for Nat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "n{}", self.0)
    }
}
impl FromStr for Nat {
    type Err = LeafParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        prefixed_u32(s, 'n').map(|k| Nat(k as usize))
    }
}

impl fmt::Display for ShapeLeaf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (k, d) in self.0.iter().enumerate() {
            if k > 0 {
                f.write_str(",")?;
            }
            write!(f, "{d}")?;
        }
        f.write_str("]")
    }
}
impl FromStr for ShapeLeaf {
    type Err = LeafParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let inner = s
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .ok_or(LeafParseError)?;
        if inner.is_empty() {
            return Ok(ShapeLeaf(Vec::new()));
        }
        inner
            .split(',')
            .map(|d| d.parse::<usize>().map_err(|_| LeafParseError))
            .collect::<Result<Vec<_>, _>>()
            .map(ShapeLeaf)
    }
}

/// Whether node `id` of `e` is a constant: a literal, or an array literal of constants.
/// Bot's normal form (seed 000, Theorem 5.1) may index a constant, and extraction never
/// binds one to a `let` (that would turn `[c][0]` into an index of `[t]`).
pub fn is_constant(e: &egg::RecExpr<Ir>, id: Id) -> bool {
    match &e[id] {
        Ir::Lit(_) => true,
        Ir::Array(xs) => xs.iter().all(|&x| is_constant(e, x)),
        _ => false,
    }
}

impl fmt::Display for Const {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Const::Real(r) => write!(f, "r{r}"),
            Const::Int(n) => write!(f, "z{n}"),
            Const::Bool(b) => write!(f, "{b}"),
        }
    }
}
impl FromStr for Const {
    type Err = LeafParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "true" => return Ok(Const::Bool(true)),
            "false" => return Ok(Const::Bool(false)),
            _ => {}
        }
        if let Some(r) = s.strip_prefix('r') {
            return r
                .parse::<BigRational>()
                .map(Const::Real)
                .map_err(|_| LeafParseError);
        }
        if let Some(z) = s.strip_prefix('z') {
            return z
                .parse::<BigInt>()
                .map(Const::Int)
                .map_err(|_| LeafParseError);
        }
        Err(LeafParseError)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egg::RecExpr;

    #[test]
    fn leaves_round_trip_through_text() {
        let src = "(gather [2,3] (+ v0 (replicate n4 r1/2)) (binders i1 i2) (ixs (* z2 i1) i2))";
        let e: RecExpr<Ir> = src.parse().unwrap();
        assert_eq!(e.to_string(), src);
        let c: RecExpr<Ir> = "(index (build n3 i0 (pow (real i0) z-2)) true)"
            .parse()
            .unwrap();
        assert!(c.to_string().contains("z-2"));
    }

    #[test]
    fn leaf_kinds_do_not_overlap() {
        assert!("v3".parse::<IVarId>().is_err());
        assert!("i3".parse::<VarId>().is_err());
        assert!("n3".parse::<Const>().is_err());
        assert!("z3".parse::<Nat>().is_err());
        assert!("[]".parse::<ShapeLeaf>().unwrap().0.is_empty());
        assert!("r".parse::<Const>().is_err());
    }
}
