//! The abstract syntax of the core language (docs/language.md, concrete syntax §2.1).
//!
//! One tree serves two roles:
//!
//! * the **surface** program the parser returns (may contain `Call`s of other `def`s,
//!   integer literals where reals are expected, and rank-0 operands that broadcast);
//! * the **elaborated** program that [`crate::check::elaborate`] returns for an entry point: calls
//!   inlined, every literal of its final base type (`Lit::Int` only where a `Z` is meant,
//!   `Lit::Real` where an `R` is meant), every broadcast made explicit with
//!   `Prim::Replicate`, and every binder name unique within the function. All engines
//!   consume elaborated programs, and every engine's output is again one.
//!
//! Static sizes (build extents, shapes of gather/scatter, replicate counts, permutations,
//! reshape shapes, iota lengths, loop trip counts, integer exponents) are stored as plain
//! numbers in the nodes, never as expressions: size parameters are evaluated by the parser
//! ([`crate::sizes`]).

use crate::diag::Span;
use crate::types::{Shape, Type};
use num_bigint::BigInt;
use num_rational::BigRational;

/// A variable name (value variables, index variables and `def` names share one namespace
/// per scope; `def` names live at the top level only).
pub type Name = String;

/// A whole source file: a list of `def`s.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    /// The definitions, in source order (those with size parameters other than the entry
    /// point excepted).
    pub defs: Vec<Def>,
    /// The `def`s other than the entry point whose parameter types name sizes, in source
    /// order: instantiated at each call by the checker (docs/language.md, "Helpers with
    /// size parameters").
    pub templates: Vec<crate::sizes::Template>,
}

/// `def name(p1: T1, ...) -> T = body`. Equality ignores spans.
#[derive(Clone, Debug)]
pub struct Def {
    /// The function's name.
    pub name: Name,
    /// Its parameters, in order (for `main`, the program's inputs).
    pub params: Vec<Param>,
    /// Declared result type.
    pub ret: Type,
    /// The body.
    pub body: Expr,
    /// Span of the whole definition (the `def` keyword to the end of the body).
    pub span: Span,
    /// Span of the name after `def`.
    pub name_span: Span,
}

/// A typed parameter `x: R[3]`. Equality ignores spans.
#[derive(Clone, Debug)]
pub struct Param {
    /// Parameter name.
    pub name: Name,
    /// Declared type.
    pub ty: Type,
    /// Span of the name and its type.
    pub span: Span,
}

impl PartialEq for Def {
    fn eq(&self, o: &Def) -> bool {
        self.name == o.name && self.params == o.params && self.ret == o.ret && self.body == o.body
    }
}

impl PartialEq for Param {
    fn eq(&self, o: &Param) -> bool {
        self.name == o.name && self.ty == o.ty
    }
}

/// An elaborated entry point: the `def` named by `--entry` with all calls inlined, ready for
/// the evaluators and engines.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Name of the entry `def`.
    pub name: Name,
    /// The program's inputs.
    pub params: Vec<Param>,
    /// Result type.
    pub ret: Type,
    /// Elaborated body (see the module documentation for its invariants).
    pub body: Expr,
}

/// An expression with its source span. Synthesised nodes use the span of the construct
/// they were derived from (or [`Span::DUMMY`]).
#[derive(Clone, Debug)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// Where it came from.
    pub span: Span,
}

impl PartialEq for Expr {
    /// Structural equality that ignores spans (so a print/parse round trip compares equal).
    fn eq(&self, other: &Expr) -> bool {
        self.kind == other.kind
    }
}

impl Expr {
    /// An expression of `kind` at `span`.
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
}

/// A scalar literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lit {
    /// An integer literal `3` (a `Z`, or an `R` where one is expected: elaboration turns
    /// it into `Real` there).
    Int(BigInt),
    /// An exact real: decimal literals `2.5`, `-0.125` denote exact rationals.
    Real(BigRational),
    /// `true` / `false`.
    Bool(bool),
    /// `inf` or `nan`: a non-finite real, which only `--numeric f64` evaluates (exact
    /// mode rejects it by name and position; docs/language.md, "Non-finite literals"). `-inf` is
    /// `-` applied to `inf`.
    NonFinite(NonFinite),
}

/// The non-finite real literals (docs/language.md, "Non-finite literals").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NonFinite {
    /// `inf`: IEEE positive infinity.
    Inf,
    /// `nan`: an IEEE NaN.
    NaN,
}

impl NonFinite {
    /// The literal's spelling: `inf` or `nan`.
    pub fn name(self) -> &'static str {
        match self {
            NonFinite::Inf => "inf",
            NonFinite::NaN => "nan",
        }
    }

    /// The IEEE double it denotes.
    pub fn to_f64(self) -> f64 {
        match self {
            NonFinite::Inf => f64::INFINITY,
            NonFinite::NaN => f64::NAN,
        }
    }
}

/// A binding pattern: `x` or `(a, b, ...)` (flat tuples of names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pat {
    /// Binds the whole value.
    Var(Name),
    /// Binds the components of a tuple of the same arity.
    Tuple(Vec<Name>),
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `-e` on `R` or `Z` (elementwise).
    Neg,
    /// `!e` on `B` (elementwise).
    Not,
}

/// Binary operators (all elementwise on equal shapes; a rank-0 operand broadcasts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+` on `R`, `Z`.
    Add,
    /// `-` on `R`, `Z`.
    Sub,
    /// `*` on `R`, `Z`.
    Mul,
    /// `/`: total division on `R` (`x / 0 = 0`), floor division on `Z`.
    Div,
    /// `%`: remainder of floor division, `Z` only.
    Mod,
    /// `==` on any base type.
    Eq,
    /// `!=` on any base type.
    Ne,
    /// `<` on `R`, `Z`.
    Lt,
    /// `<=` on `R`, `Z`.
    Le,
    /// `>` on `R`, `Z`.
    Gt,
    /// `>=` on `R`, `Z`.
    Ge,
    /// `&&` on `B`.
    And,
    /// `||` on `B`.
    Or,
}

/// Built-in functions. Static parameters live in the variant; the expression arguments
/// are in `ExprKind::Prim`'s vector, in source order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Prim {
    /// `exp(x)`, elementwise, `R` (non-rational).
    Exp,
    /// `log(x)`, elementwise, `R` (non-rational).
    Log,
    /// `sin(x)`, elementwise, `R` (non-rational).
    Sin,
    /// `cos(x)`, elementwise, `R` (non-rational).
    Cos,
    /// `tanh(x)`, elementwise, `R` (non-rational).
    Tanh,
    /// `sqrt(x)`, elementwise, `R` (non-rational).
    Sqrt,
    /// `abs(x)`, elementwise, `R` or `Z`; `abs'(0) = 0`.
    Abs,
    /// `floor(x)`: `R` → `Z`, elementwise.
    Floor,
    /// `real(x)`: `Z` → `R`, elementwise.
    Real,
    /// `min(a, b)`, elementwise, `R` or `Z`; picks `a` when `a <= b`.
    Min,
    /// `max(a, b)`, elementwise, `R` or `Z`; picks `a` when `a >= b`.
    Max,
    /// `pow(x, k)` with a static integer exponent `k` (negative: `1 / x^|k|`, total).
    Pow(i64),
    /// `select(c, a, b)`: strict; elementwise when `c` has the shape of `a`, whole-array
    /// when `c` is a scalar.
    Select,
    /// `sum(x)`: the sum of all elements, a scalar.
    Sum,
    /// `sum_outer(x)`: sums along the outermost dimension.
    SumOuter,
    /// `replicate(n, x)`: adds an outer dimension of size `n`.
    Replicate(usize),
    /// `transpose(perm, x)`: result dimension `k` is input dimension `perm[k]`.
    Transpose(Vec<usize>),
    /// `reshape(sh, x)`: same elements in row-major order, new shape.
    Reshape(Shape),
    /// `iota(n)`: `[0, 1, ..., n-1] : Z[n]` (no expression arguments).
    Iota(usize),
    /// `append(a, b)`: joins along the outermost dimension.
    Append,
    /// `stack([a, b, ...])`: adds a new outermost dimension (the arguments are the list's
    /// elements).
    Stack,
}

/// The combining operator of `reduce`, `scan` and `reduce_by_index`.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// `+`.
    Add,
    /// `*`.
    Mul,
    /// `min` (ties: the lowest index wins).
    Min,
    /// `max` (ties: the lowest index wins).
    Max,
    /// A user operator `(a, b) => e` with two parameters; it receives whole slices
    /// (the built-in operators above apply to slices elementwise).
    Lambda(Lambda),
}

/// An anonymous function `(a, b) => e` (one binder may drop its parentheses).
#[derive(Clone, Debug, PartialEq)]
pub struct Lambda {
    /// The parameter names.
    pub params: Vec<Name>,
    /// The body.
    pub body: Box<Expr>,
}

/// The expression forms of the core language.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A variable (value or index variable).
    Var(Name),
    /// A scalar literal.
    Lit(Lit),
    /// `[e1, ..., en]` with `n >= 1` elements of one type: an array with a new outer
    /// dimension of size `n` (array literals and stacking share this form).
    Array(Vec<Expr>),
    /// `(e1, ..., en)` with `n >= 2`.
    Tuple(Vec<Expr>),
    /// `e.k`, tuple projection (0-based).
    Proj(Box<Expr>, usize),
    /// `let p = e1 in e2`.
    Let(Pat, Box<Expr>, Box<Expr>),
    /// `if c then a else b`: lazy, `c : B` scalar.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `-e`, `!e`.
    Unary(UnOp, Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `f(args)`: a call of a user `def` (surface only: removed by inlining).
    Call(Name, Vec<Expr>),
    /// A built-in function applied to its expression arguments.
    Prim(Prim, Vec<Expr>),
    /// `e[i1, ..., ik]`: indexes a prefix of the dimensions (`k >= 1`, each index `Z`).
    Index(Box<Expr>, Vec<Expr>),
    /// `build [n1, ..., nk] ((i1, ..., ik) => e)`; `build n (i => e)` has one extent.
    Build(Shape, Vec<Name>, Box<Expr>),
    /// `gather(sh, x, is => ix)`: binders range over `sh`; `ix` is a prefix index of `x`.
    Gather(Shape, Box<Expr>, Vec<Name>, Vec<Expr>),
    /// `scatter(sh, x, is => ix)`: binders range over the first `k` dims of `x`; `ix`
    /// indexes a prefix of the result of shape `sh`; colliding writes add.
    Scatter(Shape, Box<Expr>, Vec<Name>, Vec<Expr>),
    /// `map(lambda, xs1, ..., xsn)` over the outermost dimension of equal size.
    Map(Lambda, Vec<Expr>),
    /// `reduce(op, ne, xs)`.
    Reduce(Op, Box<Expr>, Box<Expr>),
    /// `scan(op, ne, xs)` (inclusive).
    Scan(Op, Box<Expr>, Box<Expr>),
    /// `reduce_by_index(dest, op, ne, is, vs)`.
    ReduceByIndex {
        /// Destination histogram `R[b, rest...]`.
        dest: Box<Expr>,
        /// Combining operator.
        op: Op,
        /// Neutral element (a slice).
        ne: Box<Expr>,
        /// Bucket indices `Z[m]`.
        is: Box<Expr>,
        /// Values `R[m, rest...]`.
        vs: Box<Expr>,
    },
    /// `scatter_into(dest, is, vs)`: `dest[is[j]] = vs[j]` (last write in index order wins).
    ScatterInto {
        /// Destination array.
        dest: Box<Expr>,
        /// Target indices `Z[m]`.
        is: Box<Expr>,
        /// Values, one outer slice per index.
        vs: Box<Expr>,
    },
    /// `loop (acc = init) for i < n do body`: runs `n` times, `i : Z`.
    Loop {
        /// The accumulator pattern.
        acc: Pat,
        /// Its initial value.
        init: Box<Expr>,
        /// The counter variable.
        var: Name,
        /// The static trip count.
        count: usize,
        /// The body: the next accumulator value.
        body: Box<Expr>,
    },
}

/// A typing environment entry, shared by checkers and engines.
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    /// The bound name.
    pub name: Name,
    /// Its type.
    pub ty: Type,
}

impl UnOp {
    /// The operator as written: `-`, `!`.
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::Not => "!",
        }
    }

    /// A lower-case name: `neg`, `not`.
    pub fn name(self) -> &'static str {
        match self {
            UnOp::Neg => "neg",
            UnOp::Not => "not",
        }
    }
}

impl BinOp {
    /// Every binary operator, in declaration order.
    pub const ALL: [BinOp; 13] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Mod,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::And,
        BinOp::Or,
    ];

    /// The operator as written: `+`, `==`, `&&`, ...
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    /// A lower-case name: the variant's name (`add`, `eq`, `and`, ...).
    pub fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::Div => "div",
            BinOp::Mod => "mod",
            BinOp::Eq => "eq",
            BinOp::Ne => "ne",
            BinOp::Lt => "lt",
            BinOp::Le => "le",
            BinOp::Gt => "gt",
            BinOp::Ge => "ge",
            BinOp::And => "and",
            BinOp::Or => "or",
        }
    }
}

impl Prim {
    /// The built-in's name as written in the concrete syntax (`exp`, `sum_outer`,
    /// `replicate`, ...), without its static parameters.
    pub fn name(&self) -> &'static str {
        match self {
            Prim::Exp => "exp",
            Prim::Log => "log",
            Prim::Sin => "sin",
            Prim::Cos => "cos",
            Prim::Tanh => "tanh",
            Prim::Sqrt => "sqrt",
            Prim::Abs => "abs",
            Prim::Floor => "floor",
            Prim::Real => "real",
            Prim::Min => "min",
            Prim::Max => "max",
            Prim::Pow(_) => "pow",
            Prim::Select => "select",
            Prim::Sum => "sum",
            Prim::SumOuter => "sum_outer",
            Prim::Replicate(_) => "replicate",
            Prim::Transpose(_) => "transpose",
            Prim::Reshape(_) => "reshape",
            Prim::Iota(_) => "iota",
            Prim::Append => "append",
            Prim::Stack => "stack",
        }
    }
}

impl Op {
    /// A lower-case name: `add`, `mul`, `min`, `max`, `lambda`.
    pub fn name(&self) -> &'static str {
        match self {
            Op::Add => "add",
            Op::Mul => "mul",
            Op::Min => "min",
            Op::Max => "max",
            Op::Lambda(_) => "lambda",
        }
    }
}

impl Lit {
    /// A lower-case name of the literal's kind: `int`, `real`, `bool`, `non-finite`.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Lit::Int(_) => "int",
            Lit::Real(_) => "real",
            Lit::Bool(_) => "bool",
            Lit::NonFinite(_) => "non-finite",
        }
    }
}

impl ExprKind {
    /// A lower-case name of the expression form: `var`, `lit`, `array`, `tuple`, `proj`,
    /// `let`, `if`, `unop`, `binop`, `call`, `prim`, `index`, `build`, `gather`, `scatter`,
    /// `map`, `reduce`, `scan`, `reduce_by_index`, `scatter_into`, `loop`.
    pub fn form_name(&self) -> &'static str {
        match self {
            ExprKind::Var(_) => "var",
            ExprKind::Lit(_) => "lit",
            ExprKind::Array(_) => "array",
            ExprKind::Tuple(_) => "tuple",
            ExprKind::Proj(..) => "proj",
            ExprKind::Let(..) => "let",
            ExprKind::If(..) => "if",
            ExprKind::Unary(..) => "unop",
            ExprKind::Binary(..) => "binop",
            ExprKind::Call(..) => "call",
            ExprKind::Prim(..) => "prim",
            ExprKind::Index(..) => "index",
            ExprKind::Build(..) => "build",
            ExprKind::Gather(..) => "gather",
            ExprKind::Scatter(..) => "scatter",
            ExprKind::Map(..) => "map",
            ExprKind::Reduce(..) => "reduce",
            ExprKind::Scan(..) => "scan",
            ExprKind::ReduceByIndex { .. } => "reduce_by_index",
            ExprKind::ScatterInto { .. } => "scatter_into",
            ExprKind::Loop { .. } => "loop",
        }
    }
}
