//! The tensor language's syntax (seed 001 §3, Fig. 3; the concrete syntax and the
//! extensions E1–E4 are in docs/engines/tssa.md).
//!
//! Sizes are static (a core program is instantiated at its inputs' sizes before it is
//! lowered), so a range is a number and the paper's size variables do not occur. Value
//! variables and index variables are names; binders are unique in every term a pass
//! produces (the paper's "assuming no re-use of variable names").

use num_rational::BigRational;
use std::collections::BTreeMap;

/// An exact rational number.
pub type Rat = BigRational;

/// A value variable's name (inputs and `let` binders).
pub type Var = String;

/// An index variable's name (bound by `gen`, `sum` and `exists`).
pub type IVar = String;

/// Types (paper Fig. 3: number, pair and tensor types). `Bool` and `Int` are the element
/// types of relation inputs and integer data (extensions E1, E3): they occur only as the
/// types of free variables, never as the type of a term.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ty {
    /// `num`: a real number (an exact rational in Adora).
    Num,
    /// A boolean datum (relation inputs, E1).
    Bool,
    /// An integer datum (integer data, E3).
    Int,
    /// `T × U`.
    Pair(Box<Ty>, Box<Ty>),
    /// `[n]T`: an array of `n` elements of type `T`.
    Arr(u64, Box<Ty>),
}

/// Comparison operators of predicates (`>` and `>=` are written with swapped operands).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CmpOp {
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
}

/// An affine index expression `Σ cᵢ·iᵢ + c₀` (paper Fig. 3: index variable, integer
/// constant, integer addition, integer scaling), kept normalised: no zero coefficients,
/// variables in name order, so structural equality is equality of affine forms.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Aff {
    /// The coefficient of each index variable (never 0).
    pub terms: BTreeMap<IVar, i64>,
    /// The constant term.
    pub constant: i64,
}

/// A non-affine integer expression (extension E3): host integer arithmetic the equality
/// solver treats as opaque but the evaluator computes. Reads of integer data out of
/// bounds give 0, like the host.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IExpr {
    /// An index variable.
    Var(IVar),
    /// An integer constant.
    Const(i64),
    /// `a + b`.
    Add(Box<IExpr>, Box<IExpr>),
    /// `a * b`.
    Mul(Box<IExpr>, Box<IExpr>),
    /// `-a`.
    Neg(Box<IExpr>),
    /// Floor division `a / b` (host convention for `Z`, docs/language.md).
    Div(Box<IExpr>, Box<IExpr>),
    /// Remainder of floor division `a % b` (host convention).
    Mod(Box<IExpr>, Box<IExpr>),
    /// `min(a, b)`.
    Min(Box<IExpr>, Box<IExpr>),
    /// `max(a, b)`.
    Max(Box<IExpr>, Box<IExpr>),
    /// `abs(a)`.
    Abs(Box<IExpr>),
    /// A read of an integer datum `x[a]…[a]` (an `Int`-typed free variable).
    Read(Var, Vec<Index>),
    /// `floor(v)` of a real value read from a variable (integer data computed from
    /// reals: constant under differentiation).
    Floor(DataRef),
    /// `p ? a : b`.
    Cond(Box<Pred>, Box<IExpr>, Box<IExpr>),
}

/// An index expression: affine (solvable) or opaque (E3).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Index {
    /// An affine form.
    Aff(Aff),
    /// A non-affine integer expression.
    Opaque(IExpr),
}

/// One step of a data path: a pair projection or an array access.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathStep {
    /// `.0` or `.1`.
    Proj(u8),
    /// `[a]`.
    At(Index),
}

/// A real operand of a data predicate (E1): a constant, or a scalar read from a value
/// variable through projections and accesses.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DataRef {
    /// A rational constant.
    Const(Rat),
    /// `x.k[a]…`: a scalar read of a value variable.
    Read(Var, Vec<PathStep>),
}

/// Predicates (paper Fig. 3: comparison predicates, relational (data) predicates,
/// conjunction and disjunction, existential quantification; E1 and E4 added).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pred {
    /// Always true.
    True,
    /// Always false.
    False,
    /// `a ⋈ b` on index expressions.
    Cmp(CmpOp, Index, Index),
    /// `R(a, …)`: a read of a boolean datum (a `Bool`-typed free variable; out of
    /// bounds is false).
    Rel(Var, Vec<Index>),
    /// `u ⋈ v` on real values (E1, computed relations): constant under differentiation.
    Data(CmpOp, DataRef, DataRef),
    /// `p && q`.
    And(Box<Pred>, Box<Pred>),
    /// `p || q`.
    Or(Box<Pred>, Box<Pred>),
    /// `!p` (E4).
    Not(Box<Pred>),
    /// `exists i:n. p`.
    Exists(IVar, u64, Box<Pred>),
}

/// Black-box scalar functions (paper: "black-box scalar function"), the primitives the
/// core language lowers to and the derivatives [`BlackBox::derivative`] introduces (rule
/// 6.6). All are total: `recip(0) = 0` like the host's division.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BlackBox {
    /// `exp`.
    Exp,
    /// `log`.
    Log,
    /// `sin`.
    Sin,
    /// `cos`.
    Cos,
    /// `tanh`.
    Tanh,
    /// `sqrt`.
    Sqrt,
    /// `abs` (host convention `abs'(0) = 0`).
    Abs,
    /// `recip(x) = 1 / x`, total (`recip(0) = 0`).
    Recip,
    /// `pow(x, k)` with a static integer exponent (host convention for negative `k`).
    Pow(i64),
    /// `-sin(x)`, the derivative of `cos`.
    NegSin,
    /// `1 - tanh(x)²`, the derivative of `tanh`.
    DTanh,
    /// `0.5 / sqrt(x)`, the derivative of `sqrt` (host convention at 0).
    DSqrt,
    /// The sign of `x` (`0` at `0`), the derivative of `abs`.
    Sign,
    /// `k · pow(x, k - 1)`, the derivative of `pow(x, k)` (and of `recip` as `k = -1`).
    DPow(i64),
}

impl BlackBox {
    /// The black box of the derivative (rule 6.6), if it is one of ours.
    pub fn derivative(self) -> Option<BlackBox> {
        Some(match self {
            BlackBox::Exp => BlackBox::Exp,
            BlackBox::Log => BlackBox::Recip,
            BlackBox::Sin => BlackBox::Cos,
            BlackBox::Cos => BlackBox::NegSin,
            BlackBox::Tanh => BlackBox::DTanh,
            BlackBox::Sqrt => BlackBox::DSqrt,
            BlackBox::Abs => BlackBox::Sign,
            BlackBox::Recip => BlackBox::DPow(-1),
            BlackBox::Pow(k) => BlackBox::DPow(k),
            BlackBox::NegSin | BlackBox::DTanh | BlackBox::DSqrt | BlackBox::Sign => return None,
            BlackBox::DPow(_) => return None,
        })
    }
}

/// Terms of the tensor language (paper Fig. 3; E2 added).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    /// A value variable.
    Var(Var),
    /// A constant number.
    Const(Rat),
    /// `#a`: the number whose value is the index expression `a` (E2; derivative 0).
    IndexConst(Index),
    /// Scalar addition `e + e`.
    Add(Box<Term>, Box<Term>),
    /// Scalar multiplication `e * e`.
    Mul(Box<Term>, Box<Term>),
    /// A black-box scalar function `f(e)`.
    Call(BlackBox, Box<Term>),
    /// Pair construction `(e, e)`.
    Pair(Box<Term>, Box<Term>),
    /// Pair projection `e.0`, `e.1`.
    Proj(u8, Box<Term>),
    /// Tensor generation `gen i:n. e`.
    Gen(IVar, u64, Box<Term>),
    /// Tensor summation `sum i:n. e`.
    Sum(IVar, u64, Box<Term>),
    /// Tensor access `e[a]` (out of bounds: the zero of the element type).
    Access(Box<Term>, Index),
    /// The Iverson bracket `[p] e`: `e` where `p` holds, the zero of its type elsewhere.
    Bracket(Pred, Box<Term>),
    /// `let x = e in e`.
    Let(Var, Box<Term>, Box<Term>),
}

impl Term {
    /// The number of nodes of the term (every constructor counts one).
    pub fn size(&self) -> usize {
        1 + match self {
            Term::Var(_) | Term::Const(_) | Term::IndexConst(_) => 0,
            Term::Add(a, b) | Term::Mul(a, b) | Term::Pair(a, b) | Term::Let(_, a, b) => {
                a.size() + b.size()
            }
            Term::Call(_, e)
            | Term::Proj(_, e)
            | Term::Gen(_, _, e)
            | Term::Sum(_, _, e)
            | Term::Access(e, _)
            | Term::Bracket(_, e) => e.size(),
        }
    }
}
