//! One table of primitives ([`PRIMITIVES`]): each primitive of the language described
//! once — name, arity, static parameters, elementwise or not, and its derivative
//! ([`Deriv`]): the partial derivatives as templates ([`partials::T`]) over the operands
//! `a`, `b`, the result `y` and the static exponent `k`, a choice between operand
//! tangents (`min`, `max`, `select`), or linearity in some operands with the name of the
//! transpose rule of engine `linear`.
//!
//! | primitive | derivative |
//! |---|---|
//! | `-a` | `∂a = -1` |
//! | `exp(a)` | `∂a = y` |
//! | `log(a)` | `∂a = 1 / a` |
//! | `sin(a)`, `cos(a)` | `∂a = cos(a)`, `∂a = -sin(a)` |
//! | `tanh(a)`, `sqrt(a)` | `∂a = 1 - y * y`, `∂a = 1 / (y + y)` |
//! | `abs(a)` | `∂a = sign(a)` (`abs'(0) = 0`) |
//! | `pow(a, k)` | `∂a = k * pow(a, k - 1)`; `k = 0`: none, `k = 1`: `∂a = 1` |
//! | `a + b`, `a - b` | `∂a = 1, ∂b = 1`; `∂a = 1, ∂b = -1` |
//! | `a * b`, `a / b` | `∂a = b, ∂b = a`; `∂a = 1 / b, ∂b = -(y * (1 / b))` |
//! | `min(a, b)`, `max(a, b)` | `ȧ` if `a <= b` (`max`: `a >= b`) else `ḃ` |
//! | `select(c, a, b)` | `ȧ` if `c` else `ḃ` |
//! | `real(i)`, `floor(a)` | no tangent |
//! | `sum`, `sum_outer`, `replicate`, `transpose`, `reshape`, `append`, `gather`, `scatter`, `a[i]` | linear: `ẏ = f(ȧ)` |
//!
//! The full table, generated from this one and checked against it by a test, is
//! `docs/rules/primitives.md`. Sources: seed 000 (dual-numbers reverse AD of array
//! programs) Fig. 14 and §6.1 (the primitive operations and their Delta rules), seed 002
//! (You Only Linearize Once) §5.1.3 (the JVP rules of the primitives) and §7 (the
//! transpose rules of the linear ones); the shape of one table shared by every mode
//! follows Futhark's `Derivatives.hs` and JAX's primitive registry.
//!
//! The tie and zero conventions are those of docs/language.md ("Semantic conventions"):
//! `max(a, b)` follows `a` when `a >= b`, `min` when `a <= b`, `abs'(0) = 0`, `select`
//! follows the selected branch, `pow(x, 0)' = 0`, `pow(x, 1)' = dx`.
//!
//! Engines interpret the templates in their own representation: engine `dual-scalar` at
//! scalars ([`partials::eval_scalar`], `rewrites/src/dual/scalar.rs`), engine `linear`'s
//! JVP as Linear A statements (`rewrites/src/linear/jvp/table.rs`), and engine `dual` as
//! Delta terms (`rewrites/src/dual/table.rs`) in both its runtime forward pass (factors
//! are tensors, `rewrites/src/dual/forward/`) and its symbolic pass (factors are primal
//! terms bound to atoms, `rewrites/src/dual/symbolic/forward.rs`). Efficiency special
//! cases (`a * a` as `Scale(2a, da)`, `abs` at a positive scalar as the dual number itself
//! in `dual-scalar`) are tried first and documented where they are.
//!
//! Not on the table, and why:
//!
//! - `stack` and array literals `[a, …]`: variadic (every entry here has a fixed arity);
//!   linear in every operand — engine `dual`'s `Stack` Delta, engine `linear`'s
//!   `jvp/array` / `jvp/stack`, transposed by `transpose/unpack`.
//! - `one_hot` and `split`: not primitives of the core language (docs/language.md) but
//!   operations of Linear A that only transposition produces (the transposes of indexing
//!   and `append`); engine `linear` carries their rules (`jvp/one-hot`, `jvp/split`,
//!   `transpose/one-hot`, `transpose/split`).
//! - `iota`, comparisons, `&&`, `||`, `!`, `%` and integer arithmetic: no real result, so
//!   no derivative (the non-differentiating transformation 𝒩 of seed 000 §6.2).
//! - `if`, `build`, `map`, `reduce`, `scan`, `reduce_by_index`, `scatter_into`, `loop`:
//!   constructs with bodies, not primitives; each engine has its own rule for those it
//!   accepts (docs/engines/).
//!
//! The reference derivative (`adora_semantics::dual`, `adora_semantics::reference`) is
//! deliberately NOT derived from this table: it stays an independent description, so
//! that a wrong rule here still fails against the reference (the tests check every
//! template against it, exactly).

pub mod partials;

use adora_core::ast::Prim;
use partials::T;
use std::fmt;

/// How the tangent of a primitive's result follows from its operands' tangents.
#[derive(Debug, PartialEq, Eq)]
pub enum Deriv {
    /// `ẏ = Σᵢ ∂ᵢ · ȧᵢ`: one partial derivative per real operand, in operand order.
    Partials(&'static [T]),
    /// `ẏ = ȧ_then` where the condition holds, else `ȧ_else` (the selected operand's
    /// tangent, ties by the condition).
    Choose {
        /// The condition.
        cond: Cond,
        /// The operand whose tangent is taken where `cond` holds.
        then_arg: usize,
        /// The operand whose tangent is taken elsewhere.
        else_arg: usize,
    },
    /// Linear in the operands `args` (the others, and static parameters, are kept):
    /// `ẏ = f(ȧ)`, transposed by engine `linear`'s rule `transpose`.
    Linear {
        /// The linear operands.
        args: &'static [usize],
        /// The transpose rule's name (`rewrites/src/linear/rules.rs`).
        transpose: &'static str,
    },
    /// No tangent: the result is piecewise constant or not real.
    Constant,
}

/// The condition of a [`Deriv::Choose`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    /// `a <= b`.
    Le,
    /// `a >= b`.
    Ge,
    /// The boolean operand at this position.
    Operand(usize),
}

/// One primitive.
#[derive(Debug)]
pub struct Primitive {
    /// Which primitive.
    pub id: PrimId,
    /// Its name in the table and in docs/rules/primitives.md.
    pub name: &'static str,
    /// Its syntax, with operands `a`, `b`, `c` and static parameters.
    pub syntax: &'static str,
    /// The number of operands.
    pub arity: usize,
    /// Its static parameters (`""`: none).
    pub statics: &'static str,
    /// Applied elementwise to arrays.
    pub elementwise: bool,
    /// Its derivative.
    pub deriv: Deriv,
    /// Engine `linear`'s JVP rule name (`rewrites/src/linear/rules.rs`).
    pub jvp: &'static str,
}

/// The primitives of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum PrimId {
    Neg,
    Exp,
    Log,
    Sin,
    Cos,
    Tanh,
    Sqrt,
    Abs,
    Pow,
    Add,
    Sub,
    Mul,
    Div,
    Min,
    Max,
    Select,
    Real,
    Floor,
    Sum,
    SumOuter,
    Replicate,
    Transpose,
    Reshape,
    Append,
    Gather,
    Scatter,
    Index,
}

impl PrimId {
    /// The table's primitive of a transcendental function (the one mapping, used by the
    /// runtime interpreters of engines `dual` and `dual-scalar`).
    pub fn of_transcendental(f: adora_semantics::scalar::Transcendental) -> PrimId {
        use adora_semantics::scalar::Transcendental as F;
        match f {
            F::Exp => PrimId::Exp,
            F::Log => PrimId::Log,
            F::Sin => PrimId::Sin,
            F::Cos => PrimId::Cos,
            F::Tanh => PrimId::Tanh,
            F::Sqrt => PrimId::Sqrt,
        }
    }

    /// The table's primitive of a core primitive, with its static exponent (`pow`; 0
    /// otherwise), or `None` for one outside the table (`iota`, `stack`). The one mapping
    /// from core's [`Prim`] to the table, used by every engine's interpreter.
    pub fn of_prim(p: &Prim) -> Option<(PrimId, i64)> {
        let id = match p {
            Prim::Exp => PrimId::Exp,
            Prim::Log => PrimId::Log,
            Prim::Sin => PrimId::Sin,
            Prim::Cos => PrimId::Cos,
            Prim::Tanh => PrimId::Tanh,
            Prim::Sqrt => PrimId::Sqrt,
            Prim::Abs => PrimId::Abs,
            Prim::Pow(k) => return Some((PrimId::Pow, *k)),
            Prim::Min => PrimId::Min,
            Prim::Max => PrimId::Max,
            Prim::Select => PrimId::Select,
            Prim::Real => PrimId::Real,
            Prim::Floor => PrimId::Floor,
            Prim::Sum => PrimId::Sum,
            Prim::SumOuter => PrimId::SumOuter,
            Prim::Replicate(_) => PrimId::Replicate,
            Prim::Transpose(_) => PrimId::Transpose,
            Prim::Reshape(_) => PrimId::Reshape,
            Prim::Append => PrimId::Append,
            Prim::Iota(_) | Prim::Stack => return None,
        };
        Some((id, 0))
    }
}

const fn unary(id: PrimId, name: &'static str, syntax: &'static str, d: &'static [T]) -> Primitive {
    Primitive {
        id,
        name,
        syntax,
        arity: 1,
        statics: "",
        elementwise: true,
        deriv: Deriv::Partials(d),
        jvp: "",
    }
}

const fn binary(id: PrimId, name: &'static str, syntax: &'static str, d: Deriv) -> Primitive {
    Primitive {
        id,
        name,
        syntax,
        arity: 2,
        statics: "",
        elementwise: true,
        deriv: d,
        jvp: "",
    }
}

const fn linear(
    id: PrimId,
    name: &'static str,
    syntax: &'static str,
    arity: usize,
    statics: &'static str,
    args: &'static [usize],
    transpose: &'static str,
) -> Primitive {
    Primitive {
        id,
        name,
        syntax,
        arity,
        statics,
        elementwise: false,
        deriv: Deriv::Linear { args, transpose },
        jvp: "",
    }
}

const fn jvp(p: Primitive, rule: &'static str) -> Primitive {
    Primitive { jvp: rule, ..p }
}

/// `1 / b`, engine `linear` names it `inv`.
const INV_B: T = T::Named("inv", &T::Div(&T::Int(1), &T::B));

/// The table.
pub const PRIMITIVES: &[Primitive] = &[
    jvp(unary(PrimId::Neg, "neg", "-a", &[T::Int(-1)]), "jvp/neg"),
    jvp(unary(PrimId::Exp, "exp", "exp(a)", &[T::Y]), "jvp/exp"),
    jvp(
        unary(
            PrimId::Log,
            "log",
            "log(a)",
            &[T::Named("inv", &T::Div(&T::Int(1), &T::A))],
        ),
        "jvp/log",
    ),
    jvp(
        unary(
            PrimId::Sin,
            "sin",
            "sin(a)",
            &[T::Named("cos", &T::Cos(&T::A))],
        ),
        "jvp/sin",
    ),
    jvp(
        unary(
            PrimId::Cos,
            "cos",
            "cos(a)",
            &[T::Named("nsin", &T::Neg(&T::Named("sin", &T::Sin(&T::A))))],
        ),
        "jvp/cos",
    ),
    jvp(
        unary(
            PrimId::Tanh,
            "tanh",
            "tanh(a)",
            &[T::Named(
                "dtanh",
                &T::Sub(&T::Int(1), &T::Named("yy", &T::Mul(&T::Y, &T::Y))),
            )],
        ),
        "jvp/tanh",
    ),
    jvp(
        unary(
            PrimId::Sqrt,
            "sqrt",
            "sqrt(a)",
            &[T::Named(
                "dsqrt",
                &T::Div(&T::Int(1), &T::Named("yy", &T::Add(&T::Y, &T::Y))),
            )],
        ),
        "jvp/sqrt",
    ),
    jvp(
        unary(PrimId::Abs, "abs", "abs(a)", &[T::Sign(&T::A)]),
        "jvp/abs",
    ),
    jvp(
        Primitive {
            statics: "k",
            ..unary(
                PrimId::Pow,
                "pow",
                "pow(a, k)",
                &[T::Named(
                    "dpow",
                    &T::Mul(&T::K, &T::Named("pw", &T::PowKm1(&T::A))),
                )],
            )
        },
        "jvp/pow",
    ),
    jvp(
        binary(
            PrimId::Add,
            "add",
            "a + b",
            Deriv::Partials(&[T::Int(1), T::Int(1)]),
        ),
        "jvp/add",
    ),
    jvp(
        binary(
            PrimId::Sub,
            "sub",
            "a - b",
            Deriv::Partials(&[T::Int(1), T::Int(-1)]),
        ),
        "jvp/sub",
    ),
    jvp(
        binary(PrimId::Mul, "mul", "a * b", Deriv::Partials(&[T::B, T::A])),
        "jvp/mul",
    ),
    jvp(
        binary(
            PrimId::Div,
            "div",
            "a / b",
            Deriv::Partials(&[
                INV_B,
                T::Named("nqi", &T::Neg(&T::Named("qi", &T::Mul(&T::Y, &INV_B)))),
            ]),
        ),
        "jvp/div",
    ),
    jvp(
        binary(
            PrimId::Min,
            "min",
            "min(a, b)",
            Deriv::Choose {
                cond: Cond::Le,
                then_arg: 0,
                else_arg: 1,
            },
        ),
        "jvp/min",
    ),
    jvp(
        binary(
            PrimId::Max,
            "max",
            "max(a, b)",
            Deriv::Choose {
                cond: Cond::Ge,
                then_arg: 0,
                else_arg: 1,
            },
        ),
        "jvp/max",
    ),
    jvp(
        Primitive {
            arity: 3,
            ..binary(
                PrimId::Select,
                "select",
                "select(c, a, b)",
                Deriv::Choose {
                    cond: Cond::Operand(0),
                    then_arg: 1,
                    else_arg: 2,
                },
            )
        },
        "jvp/select",
    ),
    jvp(
        Primitive {
            arity: 1,
            ..binary(PrimId::Real, "real", "real(i)", Deriv::Constant)
        },
        "jvp/real",
    ),
    jvp(
        Primitive {
            arity: 1,
            ..binary(PrimId::Floor, "floor", "floor(a)", Deriv::Constant)
        },
        "jvp/int",
    ),
    jvp(
        linear(PrimId::Sum, "sum", "sum(a)", 1, "", &[0], "transpose/sum"),
        "jvp/sum",
    ),
    jvp(
        linear(
            PrimId::SumOuter,
            "sum_outer",
            "sum_outer(a)",
            1,
            "",
            &[0],
            "transpose/sum-outer",
        ),
        "jvp/sum-outer",
    ),
    jvp(
        linear(
            PrimId::Replicate,
            "replicate",
            "replicate(n, a)",
            1,
            "n",
            &[0],
            "transpose/replicate",
        ),
        "jvp/replicate",
    ),
    jvp(
        linear(
            PrimId::Transpose,
            "transpose",
            "transpose(perm, a)",
            1,
            "perm",
            &[0],
            "transpose/transpose",
        ),
        "jvp/transpose",
    ),
    jvp(
        linear(
            PrimId::Reshape,
            "reshape",
            "reshape(sh, a)",
            1,
            "sh",
            &[0],
            "transpose/reshape",
        ),
        "jvp/reshape",
    ),
    jvp(
        linear(
            PrimId::Append,
            "append",
            "append(a, b)",
            2,
            "",
            &[0, 1],
            "transpose/append",
        ),
        "jvp/append",
    ),
    jvp(
        linear(
            PrimId::Gather,
            "gather",
            "gather(sh, a, m)",
            1,
            "sh, m",
            &[0],
            "transpose/gather",
        ),
        "jvp/gather",
    ),
    jvp(
        linear(
            PrimId::Scatter,
            "scatter",
            "scatter(sh, a, m)",
            1,
            "sh, m",
            &[0],
            "transpose/scatter",
        ),
        "jvp/scatter",
    ),
    jvp(
        linear(
            PrimId::Index,
            "index",
            "a[i]",
            2,
            "",
            &[0],
            "transpose/index",
        ),
        "jvp/index",
    ),
];

/// The table's entry for `id`.
pub fn primitive(id: PrimId) -> &'static Primitive {
    PRIMITIVES
        .iter()
        .find(|p| p.id == id)
        .expect("every PrimId has one entry in PRIMITIVES (checked by a test)")
}

/// The derivative of `id` at the static exponent `k` (`pow(x, k)`; ignored elsewhere),
/// with the conventions of docs/language.md: `pow(x, 0)' = 0` (no tangent) and
/// `pow(x, 1)' = dx` (the partial `1`).
pub fn deriv_at(id: PrimId, k: i64) -> &'static Deriv {
    match (id, k) {
        (PrimId::Pow, 0) => &Deriv::Constant,
        (PrimId::Pow, 1) => &Deriv::Partials(&[T::Int(1)]),
        _ => &primitive(id).deriv,
    }
}

impl fmt::Display for Deriv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const OPS: [&str; 3] = ["a", "b", "c"];
        match self {
            Deriv::Partials(ps) => {
                let parts: Vec<String> = ps
                    .iter()
                    .zip(OPS)
                    .map(|(p, o)| format!("∂{o} = {p}"))
                    .collect();
                write!(f, "{}", parts.join(", "))
            }
            Deriv::Choose {
                cond,
                then_arg,
                else_arg,
            } => {
                // `select(c, a, b)`: the condition operand is `c`, the branches `a`, `b`.
                let ops = match cond {
                    Cond::Operand(_) => ["c", "a", "b"],
                    _ => OPS,
                };
                let c = match cond {
                    Cond::Le => "a <= b",
                    Cond::Ge => "a >= b",
                    Cond::Operand(i) => ops[*i],
                };
                write!(f, "ẏ = d{} if {c} else d{}", ops[*then_arg], ops[*else_arg])
            }
            Deriv::Linear { args, transpose } => {
                let a: Vec<&str> = args.iter().map(|&i| OPS[i]).collect();
                write!(f, "linear in {}; {transpose}", a.join(", "))
            }
            Deriv::Constant => write!(f, "no tangent"),
        }
    }
}
