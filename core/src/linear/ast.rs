//! The abstract syntax of Linear A (seed 002 §4.1, Fig. 3) over the types of the core
//! language.
//!
//! A program is a list of [`LinearDef`]s; a def takes non-linear parameters and linear
//! parameters (`def f(x: R ; dx: R) -> (R ; R) = ...`) and returns non-linear and linear
//! results. Expressions are in A-normal form: operations take [`Atom`]s (variables, or
//! literals in non-linear positions), and every intermediate is named by a `let`.
//!
//! | form | syntax | results |
//! |---|---|---|
//! | [`LKind::Ret`] | `(a, b ; dc, dd)` | the atoms (non-linear), the variables (linear) |
//! | [`LKind::Let`] | `let (x, y ; dz) = e1 in e2`, `let x = e1 in e2`, `let () = e1 in e2` | those of `e2` |
//! | [`LKind::Unpack`] | `let (a, b) = t in e` (`t` a tuple variable, non-linear or linear) | those of `e` |
//! | [`LKind::Call`] | `f(a, b ; dc)` | the callee's |
//! | [`LKind::Op`] | `x * y`, `sin(x)`, `dx + dy`, `x * dy`, `sum(dx)`, `zero(R[3])`, ... | one value, linear when [`LKind::Op::linear`](LKind::Op) |
//! | [`LKind::Dup`] | `dup(dx)` | two linear values |
//! | [`LKind::Drop`] | `drop(x)` (non-linear or linear `x`) | none |
//!
//! Equality ignores spans, so a print / parse round trip compares equal.

use crate::ast::{BinOp, Expr, Lit, Name, Param, Prim, UnOp};
use crate::diag::Span;
use crate::types::{Shape, Type};

/// An operand of an operation: a variable or (in non-linear positions only) a scalar
/// literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    /// A variable.
    Var(Name),
    /// A literal: `Int` is a `Z`, `Real` an `R`, `Bool` a `B` (no implicit conversion).
    Lit(Lit),
}

impl Atom {
    /// The variable of a variable atom.
    pub fn var(&self) -> Option<&Name> {
        match self {
            Atom::Var(n) => Some(n),
            Atom::Lit(_) => None,
        }
    }
    /// A variable atom.
    pub fn v(name: impl Into<Name>) -> Atom {
        Atom::Var(name.into())
    }
}

/// A whole Linear A program: definitions in order; a def may call only earlier ones.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct LinearProgram {
    /// The definitions.
    pub defs: Vec<LinearDef>,
}

impl LinearProgram {
    /// The def called `name`.
    pub fn def(&self, name: &str) -> Option<&LinearDef> {
        self.defs.iter().find(|d| d.name == name)
    }
}

/// `def name(x: T, ... ; dx: T, ...) -> (T, ... ; T, ...) = body`. Equality ignores spans.
#[derive(Clone, Debug)]
pub struct LinearDef {
    /// The name.
    pub name: Name,
    /// Non-linear parameters.
    pub params: Vec<Param>,
    /// Linear parameters (their types contain only reals).
    pub lparams: Vec<Param>,
    /// Types of the non-linear results.
    pub ret: Vec<Type>,
    /// Types of the linear results.
    pub lret: Vec<Type>,
    /// The body.
    pub body: LExpr,
    /// Span of the whole definition.
    pub span: Span,
}

impl PartialEq for LinearDef {
    fn eq(&self, o: &LinearDef) -> bool {
        self.name == o.name
            && self.params == o.params
            && self.lparams == o.lparams
            && self.ret == o.ret
            && self.lret == o.lret
            && self.body == o.body
    }
}

/// A Linear A expression with its span.
#[derive(Clone, Debug)]
pub struct LExpr {
    /// What it is.
    pub kind: LKind,
    /// Where it came from ([`Span::DUMMY`] for synthesised nodes).
    pub span: Span,
}

impl PartialEq for LExpr {
    fn eq(&self, o: &LExpr) -> bool {
        self.kind == o.kind
    }
}

impl LExpr {
    /// An expression of `kind` at `span`.
    pub fn new(kind: LKind, span: Span) -> LExpr {
        LExpr { kind, span }
    }
    /// An expression of `kind` without a source position.
    pub fn synth(kind: LKind) -> LExpr {
        LExpr::new(kind, Span::DUMMY)
    }
}

/// The binders of a multi-value `let`: non-linear names, then linear names.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Binders {
    /// Non-linear binders.
    pub nl: Vec<Name>,
    /// Linear binders.
    pub lin: Vec<Name>,
}

impl Binders {
    /// One non-linear binder.
    pub fn nl1(n: impl Into<Name>) -> Binders {
        Binders {
            nl: vec![n.into()],
            lin: Vec::new(),
        }
    }
    /// One linear binder.
    pub fn lin1(n: impl Into<Name>) -> Binders {
        Binders {
            nl: Vec::new(),
            lin: vec![n.into()],
        }
    }
    /// No binders (`let () = e in ...`).
    pub fn none() -> Binders {
        Binders::default()
    }
    /// Total number of binders.
    pub fn len(&self) -> usize {
        self.nl.len() + self.lin.len()
    }
    /// Whether there are no binders.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The operations (single-result primitives) of Linear A. Each is non-linear or linear
/// (the `linear` flag of [`LKind::Op`]); the linear ones are limited to those the issue
/// lists, and [`Op::linear_args`] says which arguments of a linear operation are linear.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// `x` (a copy of one atom; linear: `dx`).
    Id,
    /// `zero(T)`: the zero of a real type (no arguments; linear, or non-linear after
    /// erasure).
    Zero(Type),
    /// `(a, b, ...)`: a tuple (all linear or all non-linear components).
    Tuple,
    /// `-a`, `!a` (non-linear only).
    Unary(UnOp),
    /// `a op b`. Linear: `+` of two linear values, and `*` as right-linear scaling
    /// `x * dy` (non-linear `x` of type `R` or of `dy`'s array type).
    Binary(BinOp),
    /// A core built-in (`sin(x)`, `sum(dx)`, `select(c, da, db)`, `replicate(3, dx)`,
    /// `stack([a, b])` with the elements as arguments, ...). Linear: `sum`, `sum_outer`,
    /// `replicate`, `transpose`, `reshape`, `append`, and `select` with a non-linear
    /// condition.
    Prim(Prim),
    /// `[a, b, ...]`: an array literal of atoms (non-linear only).
    Array,
    /// `x[i, j]`: indexing by a prefix; argument 0 is the array, the rest the (non-linear,
    /// `Z`) indices.
    Index,
    /// `gather(sh, x, is => [ix])`: argument 0 is the source; the index map is core
    /// expressions of type `Z` over the binders and non-linear variables in scope.
    Gather(Shape, Vec<Name>, Vec<Expr>),
    /// `scatter(sh, x, is => [ix])` (colliding writes add), as [`Op::Gather`].
    Scatter(Shape, Vec<Name>, Vec<Expr>),
    /// `one_hot(sh, y, i, j)`: the array of shape `sh` that is zero except for the slice
    /// `[i, j]`, which is `y` (out of bounds: all zero) — the transpose of indexing.
    /// Argument 0 is `y`, the rest the indices.
    OneHot(Shape),
    /// `split(n, x)`: the pair `(x[0..n], x[n..])` along the outermost dimension — the
    /// transpose of `append`.
    Split(usize),
}

impl Op {
    /// For a linear application of this operation with `n` arguments, which arguments
    /// are linear (the others are non-linear atoms); `None` when the operation has no
    /// linear form.
    pub fn linear_args(&self, n: usize) -> Option<Vec<bool>> {
        let all = |b: bool| vec![b; n];
        let first = || (0..n).map(|k| k == 0).collect::<Vec<bool>>();
        Some(match self {
            Op::Id | Op::Tuple => all(true),
            Op::Zero(_) => Vec::new(),
            Op::Binary(BinOp::Add) => all(true),
            Op::Binary(BinOp::Mul) => vec![false, true],
            Op::Prim(p) => match p {
                Prim::Sum
                | Prim::SumOuter
                | Prim::Replicate(_)
                | Prim::Transpose(_)
                | Prim::Reshape(_)
                | Prim::Append => all(true),
                Prim::Select => vec![false, true, true],
                _ => return None,
            },
            Op::Index | Op::Gather(..) | Op::Scatter(..) | Op::OneHot(_) | Op::Split(_) => first(),
            Op::Unary(_) | Op::Binary(_) | Op::Array => return None,
        })
    }

    /// A short name of the operation for messages and rule tables.
    pub fn name(&self) -> String {
        match self {
            Op::Id => "variable".into(),
            Op::Zero(_) => "zero".into(),
            Op::Tuple => "tuple".into(),
            Op::Unary(u) => format!("`{}`", u.symbol()),
            Op::Binary(b) => format!("`{}`", b.symbol()),
            Op::Prim(p) => format!("`{}`", p.name()),
            Op::Array => "array literal".into(),
            Op::Index => "indexing".into(),
            Op::Gather(..) => "`gather`".into(),
            Op::Scatter(..) => "`scatter`".into(),
            Op::OneHot(_) => "`one_hot`".into(),
            Op::Split(_) => "`split`".into(),
        }
    }
}

/// The expression forms of Linear A (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub enum LKind {
    /// `(a, ... ; dx, ...)`: multi-value return.
    Ret(Vec<Atom>, Vec<Name>),
    /// `let (x, ... ; dx, ...) = e1 in e2`.
    Let(Binders, Box<LExpr>, Box<LExpr>),
    /// `let (a, b, ...) = t in e`: unpacks the tuple variable `t` (the components are
    /// linear exactly when `t` is).
    Unpack(Vec<Name>, Name, Box<LExpr>),
    /// `f(a, ... ; dx, ...)`: a call of an earlier def.
    Call(Name, Vec<Atom>, Vec<Name>),
    /// One operation; `linear` says whether it is the linear form.
    Op {
        /// The operation.
        op: Op,
        /// Its arguments.
        args: Vec<Atom>,
        /// Linear (one linear result) or non-linear (one non-linear result).
        linear: bool,
    },
    /// `dup(dx)`: two linear copies (the explicit fan-out of a linear value).
    Dup(Name),
    /// `drop(x)`: consumes a variable (linear or non-linear) and returns nothing.
    Drop(Name),
}

/// Whether `ty` contains only reals (arrays of `R` and tuples of such): the types a
/// linear value may have.
pub fn is_real_type(ty: &Type) -> bool {
    match ty {
        Type::Array(b, _) => *b == crate::types::Base::R,
        Type::Tuple(ts) => ts.iter().all(is_real_type),
    }
}

/// Words the Linear A parser reserves besides the core keywords and built-ins.
pub const RESERVED: [&str; 5] = ["zero", "dup", "drop", "one_hot", "split"];

/// Whether `name` can be a Linear A variable (a valid core name that is not one of
/// [`RESERVED`]).
pub fn is_valid_name(name: &str) -> bool {
    crate::lexer::is_valid_name(name) && !RESERVED.contains(&name)
}
