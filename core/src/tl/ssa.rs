//! Tensor-SSA normal form (seed 001 §5.4, Fig. 10): a sequence of statements, each binding
//! one right-hand side of six forms, and an output that is a variable or a tuple of them.
//!
//! | Fig. 10 row | item |
//! |---|---|
//! | statement binding | [`Stmt`] |
//! | lone output value, output tuple | [`SsaOut`] |
//! | input variable (projection path of a structured input) | [`Rhs::Input`] |
//! | constant number (`C`) | [`Rhs::Const`] |
//! | binary addition (`y + z`) | [`Rhs::Add`] |
//! | map scalar function (`f(y)`) | [`Rhs::Map`] |
//! | binary tensor contraction product, unary tensor contraction | [`Rhs::Contract`] (`z` present or not) |
//!
//! All index arithmetic lives in the predicates: accesses are by index variables only
//! (repeats allowed, `y[i, i]`).

use super::ast::{BlackBox, IVar, Index, Pred, Rat, Ty, Var};

/// A list of index binders with their ranges (the paper's over-arrow `I`).
pub type Dims = Vec<(IVar, u64)>;

/// `y[U]`: a variable accessed at a list of index variables drawn from `I ++ J`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Access {
    /// The accessed variable.
    pub var: Var,
    /// One index variable per dimension of `var`.
    pub idx: Vec<IVar>,
}

/// The value of a constant statement: a number, or an index constant (E2).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConstVal {
    /// A rational number.
    Num(Rat),
    /// `#a`, the number whose value is an index expression over `I`.
    Index(Index),
}

/// Right-hand sides of Tensor-SSA statements (Fig. 10).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rhs {
    /// `X.k…`: an input, or a projection path into a structured input.
    Input {
        /// The input variable.
        input: Var,
        /// The projections applied to it, outermost first (`0` or `1` each).
        path: Vec<u8>,
    },
    /// `gen I. [p] c`.
    Const {
        /// `I`.
        dims: Dims,
        /// `p`.
        pred: Pred,
        /// `c`.
        value: ConstVal,
    },
    /// `gen I. [p] y[I] + [q] z[I]`.
    Add {
        /// `I`.
        dims: Dims,
        /// `p`.
        p: Pred,
        /// `y`.
        y: Var,
        /// `q`.
        q: Pred,
        /// `z`.
        z: Var,
    },
    /// `gen I. [p] f(y[I])`.
    Map {
        /// `I`.
        dims: Dims,
        /// `p`.
        pred: Pred,
        /// `f`.
        f: BlackBox,
        /// `y`.
        y: Var,
    },
    /// `gen I. sum J. [p] y[U] * z[V]` (binary), or `gen I. sum J. [p] y[U]` (unary,
    /// `z` absent).
    Contract {
        /// `I`.
        dims: Dims,
        /// `J`.
        sums: Dims,
        /// `p`.
        pred: Pred,
        /// `y[U]`.
        y: Access,
        /// `z[V]`, for a binary contraction.
        z: Option<Access>,
    },
}

/// `let x = rhs in …`: one statement, with the type of the bound variable (`num` or a
/// tensor of `num`, or for an input the input's component type).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stmt {
    /// The bound variable.
    pub var: Var,
    /// Its type.
    pub ty: Ty,
    /// The right-hand side.
    pub rhs: Rhs,
}

/// The output: a lone variable, or nested pairs of them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SsaOut {
    /// A variable.
    Var(Var),
    /// A pair of outputs.
    Pair(Box<SsaOut>, Box<SsaOut>),
}

/// A Tensor-SSA program: typed inputs, statements in order, the output.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SsaProgram {
    /// The free variables (inputs) with their types.
    pub inputs: Vec<(Var, Ty)>,
    /// The statements.
    pub stmts: Vec<Stmt>,
    /// The output.
    pub output: SsaOut,
}
