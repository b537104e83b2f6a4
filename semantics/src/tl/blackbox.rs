//! The black-box scalar functions of the tensor language (paper §3, rule 4.5) over any
//! [`Scalar`], with the host's conventions (docs/language.md): `recip(x) = 1 / x` divides
//! by zero as the field does (`recip(0) = 0` exactly, IEEE in `f64`), `abs'(0) = 0`
//! (`sign(0) = 0`), `pow(x, k)` by repeated squaring and a total reciprocal for `k < 0`.
//! The transcendental ones (`exp`, `log`, `sin`, `cos`, `tanh`, `sqrt` and the
//! derivatives built from them) are not rational: exact fields report [`NonRational`].

use crate::kernels::arith::{pow_total, sign};
use crate::scalar::{NonRational, Scalar, Transcendental};
use adora_core::tl::BlackBox;

/// `f(x)`.
pub fn apply<S: Scalar>(f: BlackBox, x: &S) -> Result<S, NonRational> {
    let t = |g| x.transcendental(g);
    Ok(match f {
        BlackBox::Exp => t(Transcendental::Exp)?,
        BlackBox::Log => t(Transcendental::Log)?,
        BlackBox::Sin => t(Transcendental::Sin)?,
        BlackBox::Cos => t(Transcendental::Cos)?,
        BlackBox::Tanh => t(Transcendental::Tanh)?,
        BlackBox::Sqrt => t(Transcendental::Sqrt)?,
        BlackBox::Abs => x.abs(),
        BlackBox::Recip => recip(x),
        BlackBox::Pow(k) => pow_total(x, k),
        BlackBox::NegSin => t(Transcendental::Sin)?.neg(),
        BlackBox::DTanh => {
            let y = t(Transcendental::Tanh)?;
            S::one().sub(&y.mul(&y))
        }
        BlackBox::DSqrt => {
            let s = t(Transcendental::Sqrt)?;
            let two = S::from_i64(2);
            recip(&two.mul(&s))
        }
        BlackBox::Sign => sign(x),
        BlackBox::DPow(0) => S::zero(),
        BlackBox::DPow(k) => S::from_i64(k).mul(&pow_total(x, k - 1)),
    })
}

/// Whether `f` is rational (evaluable on exact numbers).
pub fn is_rational(f: BlackBox) -> bool {
    matches!(
        f,
        BlackBox::Abs | BlackBox::Recip | BlackBox::Pow(_) | BlackBox::Sign | BlackBox::DPow(_)
    )
}

/// `1 / x`, dividing by zero as the field does.
fn recip<S: Scalar>(x: &S) -> S {
    S::one()
        .checked_div(x)
        .unwrap_or_else(|| S::one().div_by_zero(x))
}
