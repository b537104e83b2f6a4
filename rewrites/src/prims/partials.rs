//! The templates of partial derivatives ([`T`]) and their interpreter at scalars
//! ([`eval_scalar`], used by engine `dual-scalar` and by the tests that check each
//! template against the reference derivative).
//!
//! A template is a small expression over the operands of a primitive (`A`, `B`), its
//! result (`Y`) and its static exponent (`K`, for `pow(x, k)`), in the style of the
//! `pdBinOp` / `pdUnOp` tables of Futhark's `Derivatives.hs` (Schenck et al., "AD for an
//! Array Language with Nested Parallelism", §5). Every engine interprets the same
//! templates in its own representation; see the module documentation of [`super`].

use adora_semantics::kernels::arith::{pow_total, sign};
use adora_semantics::scalar::{NonRational, Scalar, Transcendental};
use std::fmt;

/// A template of a partial derivative.
#[derive(Debug, PartialEq, Eq)]
pub enum T {
    /// The first operand `a`.
    A,
    /// The second operand `b`.
    B,
    /// The result `y` of the primitive.
    Y,
    /// The static exponent `k` of `pow(x, k)`.
    K,
    /// The integer constant `n`.
    Int(i64),
    /// `-t`.
    Neg(&'static T),
    /// `t + u`.
    Add(&'static T, &'static T),
    /// `t - u`.
    Sub(&'static T, &'static T),
    /// `t * u`.
    Mul(&'static T, &'static T),
    /// `t / u`.
    Div(&'static T, &'static T),
    /// `pow(t, k - 1)` for the static exponent `k`.
    PowKm1(&'static T),
    /// `sin(t)`.
    Sin(&'static T),
    /// `cos(t)`.
    Cos(&'static T),
    /// `sign(t)`: `-1`, `0` or `1` (`abs'(0) = 0`, docs/language.md); `1` for an
    /// unordered (NaN) `t`, as the reference's dual numbers have it.
    Sign(&'static T),
    /// The template `t`, whose value engine `linear` binds to a variable named after
    /// `name` (a presentation hint only; the other interpreters see through it).
    Named(&'static str, &'static T),
}

impl T {
    /// Whether the template reads the leaf `x` (one of [`T::A`], [`T::B`], [`T::Y`],
    /// [`T::K`]).
    pub fn mentions(&self, x: &T) -> bool {
        match self {
            T::A | T::B | T::Y | T::K => self == x,
            T::Int(_) => false,
            T::Neg(t) | T::PowKm1(t) | T::Sin(t) | T::Cos(t) | T::Sign(t) | T::Named(_, t) => {
                t.mentions(x)
            }
            T::Add(t, u) | T::Sub(t, u) | T::Mul(t, u) | T::Div(t, u) => {
                t.mentions(x) || u.mentions(x)
            }
        }
    }

    /// The template without its outer [`T::Named`] hints.
    pub fn bare(&self) -> &T {
        match self {
            T::Named(_, t) => t.bare(),
            t => t,
        }
    }
}

impl fmt::Display for T {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            T::A => write!(f, "a"),
            T::B => write!(f, "b"),
            T::Y => write!(f, "y"),
            T::K => write!(f, "k"),
            T::Int(n) => write!(f, "{n}"),
            T::Neg(t) => write!(f, "-{t}"),
            T::Add(t, u) => write!(f, "({t} + {u})"),
            T::Sub(t, u) => write!(f, "({t} - {u})"),
            T::Mul(t, u) => write!(f, "({t} * {u})"),
            T::Div(t, u) => write!(f, "({t} / {u})"),
            T::PowKm1(t) => write!(f, "pow({t}, k - 1)"),
            T::Sin(t) => write!(f, "sin({t})"),
            T::Cos(t) => write!(f, "cos({t})"),
            T::Sign(t) => write!(f, "sign({t})"),
            T::Named(_, t) => write!(f, "{t}"),
        }
    }
}

/// The values a template reads: operands, result and static exponent.
#[derive(Clone, Debug)]
pub struct Env<F> {
    /// The first operand.
    pub a: F,
    /// The second operand (the first again for unary primitives).
    pub b: F,
    /// The result.
    pub y: F,
    /// The static exponent (`0` where there is none).
    pub k: i64,
}

/// `x / y`, with the IEEE division of [`Scalar::div_by_zero`] where `y` is zero (f64
/// mode; exact mode never divides by zero here, the primal division failed first).
fn div<F: Scalar>(x: &F, y: &F) -> F {
    x.checked_div(y).unwrap_or_else(|| x.div_by_zero(y))
}

/// The value of template `t` at scalars (exact rationals or f64).
pub fn eval_scalar<F: Scalar>(t: &T, env: &Env<F>) -> Result<F, NonRational> {
    let go = |t: &T| eval_scalar(t, env);
    Ok(match t {
        T::A => env.a.clone(),
        T::B => env.b.clone(),
        T::Y => env.y.clone(),
        T::K => F::from_i64(env.k),
        T::Int(n) => F::from_i64(*n),
        T::Neg(t) => go(t)?.neg(),
        T::Add(t, u) => go(t)?.add(&go(u)?),
        T::Sub(t, u) => go(t)?.sub(&go(u)?),
        T::Mul(t, u) => go(t)?.mul(&go(u)?),
        T::Div(t, u) => div(&go(t)?, &go(u)?),
        T::PowKm1(t) => pow_total(&go(t)?, env.k - 1),
        T::Sin(t) => go(t)?.transcendental(Transcendental::Sin)?,
        T::Cos(t) => go(t)?.transcendental(Transcendental::Cos)?,
        T::Sign(t) => sign(&go(t)?),
        T::Named(_, t) => go(t)?,
    })
}
