//! The primal functions `f̄` and the Jacobian primitives `Lin_f(r)(w)` of the function
//! symbols (rule 3's two δ-reductions; docs/engines/pullback-reduction.md, "Function
//! symbols").
//!
//! The conventions are the core language's, so that the pullback engine's derivatives equal
//! the reference's exactly (`adora_semantics::dual`): total division `a / 0 = 0` with the
//! quotient rule evaluated with that division (so both partial derivatives are 0 at
//! `b = 0`), `abs'(0) = 0`, `min`/`max` ties pick the first argument, `select` follows the
//! chosen branch, integer and boolean symbols have Jacobian 0, `pow<k>` with `k < 0` is
//! `1 / a^|k|` (total) with derivative `k·a^(k-1)` (total). Transcendental symbols are not
//! rational: exact reduction refuses them with `ErrorKind::NonRational`.

use crate::syntax::{Cmp, FnSym, Term};
use adora_semantics::Rat;
use num_traits::{One, Signed, Zero};

/// Why a δ-reduction could not be performed.
#[derive(Debug)]
pub(crate) enum PrimError {
    /// The symbol is transcendental (not rational).
    NonRational(FnSym),
}

fn total_div(a: &Rat, b: &Rat) -> Rat {
    if b.is_zero() {
        Rat::zero()
    } else {
        a / b
    }
}

/// `a^k`, total (`0^k = 0` for `k < 0`, like `1 / 0`).
fn pow_total(a: &Rat, k: i64) -> Rat {
    let mut p = Rat::one();
    for _ in 0..k.unsigned_abs() {
        p *= a;
    }
    if k < 0 {
        total_div(&Rat::one(), &p)
    } else {
        p
    }
}

fn bool_rat(b: bool) -> Rat {
    if b {
        Rat::one()
    } else {
        Rat::zero()
    }
}

fn floor_div(a: &Rat, b: &Rat) -> Rat {
    if b.is_zero() {
        Rat::zero()
    } else {
        (a / b).floor()
    }
}

/// `f̄(r)`: the primal value of `f` at the numbers `r` (`r.len() == f.arity()`).
pub(crate) fn primal(f: FnSym, r: &[Rat]) -> Result<Rat, PrimError> {
    if f.is_transcendental() {
        return Err(PrimError::NonRational(f));
    }
    let a = &r[0];
    Ok(match f {
        FnSym::Add => a + &r[1],
        FnSym::Sub => a - &r[1],
        FnSym::Mul => a * &r[1],
        FnSym::Div => total_div(a, &r[1]),
        FnSym::Neg => -a.clone(),
        FnSym::Pow(k) => pow_total(a, k),
        FnSym::Abs => a.abs(),
        FnSym::Min => {
            if a <= &r[1] {
                a.clone()
            } else {
                r[1].clone()
            }
        }
        FnSym::Max => {
            if a >= &r[1] {
                a.clone()
            } else {
                r[1].clone()
            }
        }
        FnSym::Floor => a.floor(),
        FnSym::ZDiv => floor_div(a, &r[1]),
        FnSym::ZMod => {
            if r[1].is_zero() {
                a.clone()
            } else {
                a - &r[1] * floor_div(a, &r[1])
            }
        }
        FnSym::Cmp(c) => bool_rat(c.holds(a, &r[1])),
        FnSym::Sel(c) => {
            if c.holds(a, &r[1]) {
                r[2].clone()
            } else {
                r[3].clone()
            }
        }
        FnSym::And => bool_rat(!a.is_zero() && !r[1].is_zero()),
        FnSym::Or => bool_rat(!a.is_zero() || !r[1].is_zero()),
        FnSym::Not => bool_rat(a.is_zero()),
        FnSym::Exp | FnSym::Log | FnSym::Sin | FnSym::Cos | FnSym::Tanh | FnSym::Sqrt => {
            unreachable!("transcendental symbols are refused above")
        }
    })
}

/// The row `∂f/∂r_i` of the Jacobian of `f` at `r`: `Lin_f(r)(w) = Σ_i c_i · w_i`.
pub(crate) fn jacobian_row(f: FnSym, r: &[Rat]) -> Result<Vec<Rat>, PrimError> {
    if f.is_transcendental() {
        return Err(PrimError::NonRational(f));
    }
    let one = Rat::one;
    let zero = Rat::zero;
    let a = &r[0];
    Ok(match f {
        FnSym::Add => vec![one(), one()],
        FnSym::Sub => vec![one(), -one()],
        FnSym::Mul => vec![r[1].clone(), a.clone()],
        FnSym::Div => {
            // The quotient rule (a' - q b') / b with the total division (semantics/src/dual.rs).
            let b = &r[1];
            let q = total_div(a, b);
            vec![total_div(&one(), b), total_div(&-q, b)]
        }
        FnSym::Neg => vec![-one()],
        FnSym::Pow(k) => match k {
            0 => vec![zero()],
            1 => vec![one()],
            _ => vec![Rat::from_integer(k.into()) * pow_total(a, k - 1)],
        },
        FnSym::Abs => vec![if a.is_negative() {
            -one()
        } else if a.is_zero() {
            zero()
        } else {
            one()
        }],
        FnSym::Min => {
            let first = a <= &r[1];
            vec![bool_rat(first), bool_rat(!first)]
        }
        FnSym::Max => {
            let first = a >= &r[1];
            vec![bool_rat(first), bool_rat(!first)]
        }
        FnSym::Sel(c) => {
            let t = c.holds(a, &r[1]);
            vec![zero(), zero(), bool_rat(t), bool_rat(!t)]
        }
        FnSym::Floor
        | FnSym::ZDiv
        | FnSym::ZMod
        | FnSym::Cmp(_)
        | FnSym::And
        | FnSym::Or
        | FnSym::Not => vec![zero(); f.arity()],
        FnSym::Exp | FnSym::Log | FnSym::Sin | FnSym::Cos | FnSym::Tanh | FnSym::Sqrt => {
            unreachable!("transcendental symbols are refused above")
        }
    })
}

/// The row `∂f/∂r_i` at a point `a` that is not numeric (an open value under a binder), as
/// terms built from the symbols themselves; at every numeric instance of `a` each entry
/// reduces to [`jacobian_row`]'s number, so the conventions above hold pointwise:
/// `div`'s row is `(div (1, b), div (neg (div (a, b)), b))` (total division, 0 at `b = 0`),
/// `abs'(a) = div (abs a, a)` (0 at 0), `min`/`max`/`sel` use the comparison symbols
/// (ties pick the first argument), `pow<k>'(a) = k · pow<k-1> a`. Transcendental symbols
/// get their textbook derivatives; exact reduction refuses them at their first primal δ.
pub(crate) fn jacobian_row_symbolic(f: FnSym, a: &[Term]) -> Vec<Term> {
    let int = Term::int;
    let app = |g: FnSym, arg: Term| Term::app(Term::sym(g), arg);
    let app2 = |g: FnSym, x: Term, y: Term| app(g, Term::pair(x, y));
    match f {
        FnSym::Add => vec![int(1), int(1)],
        FnSym::Sub => vec![int(1), int(-1)],
        FnSym::Mul => vec![a[1].clone(), a[0].clone()],
        FnSym::Div => {
            let q = app2(FnSym::Div, a[0].clone(), a[1].clone());
            vec![
                app2(FnSym::Div, int(1), a[1].clone()),
                app2(FnSym::Div, app(FnSym::Neg, q), a[1].clone()),
            ]
        }
        FnSym::Neg => vec![int(-1)],
        FnSym::Pow(k) => match k {
            0 => vec![int(0)],
            1 => vec![int(1)],
            _ => vec![app2(
                FnSym::Mul,
                int(k),
                app(FnSym::Pow(k - 1), a[0].clone()),
            )],
        },
        FnSym::Abs => vec![app2(
            FnSym::Div,
            app(FnSym::Abs, a[0].clone()),
            a[0].clone(),
        )],
        FnSym::Min | FnSym::Max => {
            let (first, second) = if f == FnSym::Min {
                (Cmp::Le, Cmp::Gt)
            } else {
                (Cmp::Ge, Cmp::Lt)
            };
            vec![
                app2(FnSym::Cmp(first), a[0].clone(), a[1].clone()),
                app2(FnSym::Cmp(second), a[0].clone(), a[1].clone()),
            ]
        }
        FnSym::Sel(c) => {
            let t = app2(FnSym::Cmp(c), a[0].clone(), a[1].clone());
            vec![int(0), int(0), t.clone(), app(FnSym::Not, t)]
        }
        FnSym::Exp => vec![app(FnSym::Exp, a[0].clone())],
        FnSym::Log => vec![app2(FnSym::Div, int(1), a[0].clone())],
        FnSym::Sin => vec![app(FnSym::Cos, a[0].clone())],
        FnSym::Cos => vec![app(FnSym::Neg, app(FnSym::Sin, a[0].clone()))],
        FnSym::Tanh => {
            let t = app(FnSym::Tanh, a[0].clone());
            vec![app2(FnSym::Sub, int(1), app2(FnSym::Mul, t.clone(), t))]
        }
        FnSym::Sqrt => vec![app2(
            FnSym::Div,
            int(1),
            app2(FnSym::Mul, int(2), app(FnSym::Sqrt, a[0].clone())),
        )],
        FnSym::Floor
        | FnSym::ZDiv
        | FnSym::ZMod
        | FnSym::Cmp(_)
        | FnSym::And
        | FnSym::Or
        | FnSym::Not => vec![int(0); f.arity()],
    }
}
