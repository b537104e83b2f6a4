//! Values of the concrete model and their linear structure (docs/engines/pullback.md, "The
//! model"; the note's concrete semantics: `⟦R⟧ = ℚ`, pairs, functions as closures, `⟦dual σ⟧`
//! = linear functions `⟦σ⟧ → ℚ`, `⟦P + Q⟧` pointwise, `⟦0⟧ = 0`).
//!
//! | operation | numbers | pairs | functions | zero |
//! |---|---|---|---|---|
//! | [`add`] | `+` | componentwise | pointwise | unit |
//! | [`perturb`] (`· ε`) | `· ε` | componentwise | on results | zero |
//! | [`extract`] (coefficient of `ε`) | coefficient | componentwise | on results, with the argument's `ε` renamed away (Manzyuk et al.) | zero |
//! | [`swap`] (exchange two tags) | renames | componentwise | conjugates | zero |

use super::num::{Num, Tag};
use super::Budget;
use std::fmt;
use std::rc::Rc;

/// A function value.
pub type Fun = Rc<dyn Fn(&Budget, V) -> Result<V, String>>;

/// A value of the model.
#[derive(Clone)]
pub enum V {
    /// A (tagged) number.
    Num(Num),
    /// A pair.
    Pair(Rc<V>, Rc<V>),
    /// A function (closures, symbols, Jacobians, duals, pullbacks).
    Fun(Fun),
    /// The zero of any type.
    Zero,
}

impl fmt::Debug for V {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            V::Num(n) => write!(f, "{n:?}"),
            V::Pair(a, b) => write!(f, "({a:?}, {b:?})"),
            V::Fun(_) => f.write_str("<fun>"),
            V::Zero => f.write_str("zero"),
        }
    }
}

impl V {
    /// A pair value.
    pub fn pair(a: V, b: V) -> V {
        V::Pair(Rc::new(a), Rc::new(b))
    }
    /// A function value.
    pub fn fun(f: impl Fn(&Budget, V) -> Result<V, String> + 'static) -> V {
        V::Fun(Rc::new(f))
    }
}

/// `f a` (the zero function gives zero).
pub fn apply(b: &Budget, f: &V, a: V) -> Result<V, String> {
    b.tick()?;
    match f {
        V::Fun(g) => g(b, a),
        V::Zero => Ok(V::Zero),
        V::Num(_) | V::Pair(..) => Err("the model applied a non-function".to_string()),
    }
}

/// `v.i` (`zero.i = zero`).
pub fn proj(v: &V, second: bool) -> Result<V, String> {
    match v {
        V::Pair(a, b) => Ok(if second { (**b).clone() } else { (**a).clone() }),
        V::Zero => Ok(V::Zero),
        _ => Err("the model projected a non-pair".to_string()),
    }
}

/// `a + b`.
pub fn add(a: &V, b: &V) -> Result<V, String> {
    Ok(match (a, b) {
        (V::Zero, x) | (x, V::Zero) => x.clone(),
        (V::Num(x), V::Num(y)) => V::Num(x.add(y)),
        (V::Pair(a0, a1), V::Pair(b0, b1)) => V::pair(add(a0, b0)?, add(a1, b1)?),
        (V::Fun(f), V::Fun(g)) => {
            let (f, g) = (f.clone(), g.clone());
            V::fun(move |b, x| add(&f(b, x.clone())?, &g(b, x)?))
        }
        _ => return Err("the model added values of different types".to_string()),
    })
}

/// `v · ε`.
pub fn perturb(v: &V, e: Tag) -> V {
    match v {
        V::Num(n) => V::Num(n.perturb(e)),
        V::Pair(a, b) => V::pair(perturb(a, e), perturb(b, e)),
        V::Fun(f) => {
            let f = f.clone();
            V::fun(move |b, x| Ok(perturb(&f(b, x)?, e)))
        }
        V::Zero => V::Zero,
    }
}

/// The coefficient of `ε` in `v`; on functions `λy. extract(f y)` with `ε` in `y` renamed
/// to a fresh tag for the call (the fix for perturbation confusion of Manzyuk et al.).
pub fn extract(v: &V, e: Tag) -> V {
    match v {
        V::Num(n) => V::Num(n.extract(e)),
        V::Pair(a, b) => V::pair(extract(a, e), extract(b, e)),
        V::Fun(f) => {
            let f = f.clone();
            V::fun(move |b, y| {
                let e2 = b.tag();
                let r = f(b, swap(&y, e, e2))?;
                Ok(swap(&extract(&r, e), e, e2))
            })
        }
        V::Zero => V::Zero,
    }
}

/// `v` with tags `a` and `b` exchanged.
pub fn swap(v: &V, a: Tag, t: Tag) -> V {
    match v {
        V::Num(n) => V::Num(n.swap(a, t)),
        V::Pair(x, y) => V::pair(swap(x, a, t), swap(y, a, t)),
        V::Fun(f) => {
            let f = f.clone();
            V::fun(move |b, x| Ok(swap(&f(b, swap(&x, a, t))?, a, t)))
        }
        V::Zero => V::Zero,
    }
}

/// The directional derivative `D f (x) · u` with a fresh tag.
pub fn derivative(b: &Budget, f: &V, x: &V, u: &V) -> Result<V, String> {
    let e = b.tag();
    let r = apply(b, f, add(x, &perturb(u, e))?)?;
    Ok(extract(&r, e))
}
