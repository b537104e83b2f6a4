//! The function symbols on tagged dual numbers (docs/engines/pullback.md, "The model"):
//! smooth symbols by polynomial arithmetic (exact in every tag, so nested derivatives are
//! exact), non-smooth ones decided on the primal part with the core language's conventions
//! (docs/language.md): total division (`a / 0 = 0`, every derivative 0 there), `abs'(0) = 0`,
//! ties of `min`/`max` pick the first argument, `sel_cmp` follows the chosen branch, integer
//! and boolean symbols are constants. Transcendental symbols are declined (the model is
//! exact).

use super::num::Num;
use crate::syntax::FnSym;
use adora_semantics::Rat;
use num_traits::{One, Signed, Zero};

fn flag(b: bool) -> Num {
    Num::constant(if b { Rat::one() } else { Rat::zero() })
}

fn floor_div(a: &Rat, b: &Rat) -> Rat {
    if b.is_zero() {
        Rat::zero()
    } else {
        (a / b).floor()
    }
}

/// `a^k` (`k < 0`: `1 / a^|k|`, total).
fn pow(a: &Num, k: i64) -> Num {
    let mut p = Num::constant(Rat::one());
    for _ in 0..k.unsigned_abs() {
        p = p.mul(a);
    }
    if k < 0 {
        p.inv()
    } else {
        p
    }
}

/// `f` applied to its `f.arity()` arguments.
pub fn apply(f: FnSym, r: &[Num]) -> Result<Num, String> {
    if f.is_transcendental() {
        return Err(format!(
            "the exact model declines the transcendental symbol `{}`",
            f.name()
        ));
    }
    let a = &r[0];
    let p = |i: usize| r[i].primal();
    Ok(match f {
        FnSym::Add => a.add(&r[1]),
        FnSym::Sub => a.sub(&r[1]),
        FnSym::Mul => a.mul(&r[1]),
        FnSym::Div => a.mul(&r[1].inv()),
        FnSym::Neg => a.neg(),
        FnSym::Pow(k) => pow(a, k),
        FnSym::Abs => {
            let s = p(0);
            if s.is_positive() {
                a.clone()
            } else if s.is_negative() {
                a.neg()
            } else {
                Num::default()
            }
        }
        FnSym::Min => {
            if p(0) <= p(1) {
                a.clone()
            } else {
                r[1].clone()
            }
        }
        FnSym::Max => {
            if p(0) >= p(1) {
                a.clone()
            } else {
                r[1].clone()
            }
        }
        FnSym::Floor => Num::constant(p(0).floor()),
        FnSym::ZDiv => Num::constant(floor_div(&p(0), &p(1))),
        FnSym::ZMod => {
            let (x, y) = (p(0), p(1));
            Num::constant(if y.is_zero() {
                x
            } else {
                &x - &y * floor_div(&x, &y)
            })
        }
        FnSym::Cmp(c) => flag(c.holds(&p(0), &p(1))),
        FnSym::Sel(c) => {
            if c.holds(&p(0), &p(1)) {
                r[2].clone()
            } else {
                r[3].clone()
            }
        }
        FnSym::And => flag(!p(0).is_zero() && !p(1).is_zero()),
        FnSym::Or => flag(!p(0).is_zero() || !p(1).is_zero()),
        FnSym::Not => flag(p(0).is_zero()),
        FnSym::Exp | FnSym::Log | FnSym::Sin | FnSym::Cos | FnSym::Tanh | FnSym::Sqrt => {
            unreachable!("transcendental symbols are declined above")
        }
    })
}
