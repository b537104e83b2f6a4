//! The concrete model of the pullback calculus: an evaluator of closed well-typed terms over
//! exact rationals, independent of the reducer, in which derivatives are computed by tagged
//! dual numbers (Mak and Ong, the model section, lost in extraction; the note's concrete
//! semantics, reconstructed: docs/engines/pullback.md, "The model").
//!
//! | module | job |
//! |---|---|
//! | [`num`] | tagged dual numbers (one fresh tag per derivative) |
//! | [`prims`] | the function symbols on them |
//! | [`value`] | values (numbers, pairs, closures, zero), sums, perturbation, extraction |
//! | [`eval`] | `⟦t⟧ρ`, with `J`, `dual`, `pb` by their concrete meaning |
//! | [`observe`](fn@observe) | a value's observation at its type: numbers; a covector on a first-order space by its row (Hahn–Banach: functionals agree iff they agree on a basis); other functions by fixed test arguments |
//!
//! Transcendental symbols are declined (an error), so the model is exact everywhere.

pub mod eval;
pub mod num;
pub mod prims;
pub mod value;

use crate::syntax::{Term, Ty};
use adora_semantics::Rat;
use num::Num;
use num_traits::{One, Zero};
use std::cell::Cell;
use value::{apply, V};

/// The fuel and the tag supply of one model evaluation: every evaluation and application
/// costs one unit, so a runaway evaluation ends in an error instead of a hang.
pub struct Budget {
    fuel: Cell<u64>,
    next_tag: Cell<u32>,
}

impl Budget {
    /// A budget of `fuel` units.
    pub fn new(fuel: u64) -> Budget {
        Budget {
            fuel: Cell::new(fuel),
            next_tag: Cell::new(1),
        }
    }
    /// Spends one unit.
    pub fn tick(&self) -> Result<(), String> {
        let f = self.fuel.get();
        if f == 0 {
            return Err("the model ran out of fuel".to_string());
        }
        self.fuel.set(f - 1);
        Ok(())
    }
    /// A tag never handed out before.
    pub fn tag(&self) -> num::Tag {
        let t = self.next_tag.get();
        self.next_tag.set(t + 1);
        t
    }
}

/// The default fuel of [`observe_term`].
pub const DEFAULT_FUEL: u64 = 2_000_000;

/// `⟦t⟧` of a closed term.
pub fn eval_closed(b: &Budget, t: &Term) -> Result<V, String> {
    eval::eval(b, t, &eval::Env::default())
}

/// The observation of the closed term `t` of type `ty` (see [`observe`]).
pub fn observe_term(t: &Term, ty: &Ty, fuel: u64) -> Result<Vec<Rat>, String> {
    let b = Budget::new(fuel);
    let v = eval_closed(&b, t)?;
    let mut out = Vec::new();
    observe(&b, &v, ty, &mut out)?;
    Ok(out)
}

fn rat(n: i64, d: i64) -> V {
    V::Num(Num::constant(Rat::new(n.into(), d.into())))
}

/// The first number in `v` (pairs: the first component; functions and zero: 0).
fn lead(v: &V) -> Num {
    match v {
        V::Num(n) => n.clone(),
        V::Pair(a, _) => lead(a),
        _ => Num::default(),
    }
}

/// The sum of the numbers of a first-order `v` (a linear functional).
fn total(v: &V) -> Num {
    match v {
        V::Num(n) => n.clone(),
        V::Pair(a, b) => total(a).add(&total(b)),
        _ => Num::default(),
    }
}

/// A value of type `ty` built from the number `n` (linear in `n`).
fn fill(ty: &Ty, n: Num) -> V {
    match ty {
        Ty::Real => V::Num(n),
        Ty::Pair(a, b) => V::pair(fill(a, n.clone()), fill(b, n)),
        Ty::Fun(_, r) => {
            let r = (**r).clone();
            V::fun(move |_, _| Ok(fill(&r, n.clone())))
        }
        Ty::Dual(_) => V::fun(move |_, w| Ok(V::Num(n.mul(&total(&w))))),
    }
}

/// Fixed test arguments of type `ty`: two points, two test functions
/// (`λy. 2·y + 1/2` and `λy. y·y − 1` on the first number of `y`, spread over the result
/// type), two linear functionals (`λw. Σ w` and `λw. 3·Σ w`).
pub fn tests(ty: &Ty) -> Vec<V> {
    match ty {
        Ty::Real => vec![rat(5, 3), rat(-2, 1)],
        Ty::Pair(a, b) => {
            let (xs, ys) = (tests(a), tests(b));
            (0..xs.len().max(ys.len()))
                .map(|i| V::pair(xs[i % xs.len()].clone(), ys[(i + 1) % ys.len()].clone()))
                .collect()
        }
        Ty::Fun(_, r) => {
            let (r1, r2) = ((**r).clone(), (**r).clone());
            let two = Num::constant(Rat::from_integer(2.into()));
            let half = Num::constant(Rat::new(1.into(), 2.into()));
            let one = Num::constant(Rat::one());
            vec![
                V::fun(move |_, y| Ok(fill(&r1, two.mul(&lead(&y)).add(&half)))),
                V::fun(move |_, y| {
                    let l = lead(&y);
                    Ok(fill(&r2, l.mul(&l).sub(&one)))
                }),
            ]
        }
        Ty::Dual(_) => {
            let three = Num::constant(Rat::from_integer(3.into()));
            vec![
                V::fun(|_, w| Ok(V::Num(total(&w)))),
                V::fun(move |_, w| Ok(V::Num(three.mul(&total(&w))))),
            ]
        }
    }
}

/// The unit vectors of a first-order type.
fn basis(ty: &Ty) -> Vec<V> {
    match ty {
        Ty::Real => vec![V::Num(Num::constant(Rat::one()))],
        Ty::Pair(a, b) => {
            let mut out: Vec<V> = basis(a).into_iter().map(|x| V::pair(x, V::Zero)).collect();
            out.extend(basis(b).into_iter().map(|y| V::pair(V::Zero, y)));
            out
        }
        _ => Vec::new(),
    }
}

/// Appends the observation of `v : ty` to `out`: the numbers of a first-order value; for a
/// function whose argument type is first order and whose result is `R` (a covector,
/// `dual σ`, or its convertible `σ -> R`), its values on the basis (the row) and on
/// [`tests`]; for other functions the observations of their results on [`tests`].
pub fn observe(b: &Budget, v: &V, ty: &Ty, out: &mut Vec<Rat>) -> Result<(), String> {
    match ty {
        Ty::Real => match v {
            V::Num(n) if n.is_constant() => out.push(n.primal()),
            V::Num(n) => return Err(format!("a perturbation leaked into a result: {n:?}")),
            V::Zero => out.push(Rat::zero()),
            _ => return Err("the model's value does not have type R".to_string()),
        },
        Ty::Pair(x, y) => {
            observe(b, &value::proj(v, false)?, x, out)?;
            observe(b, &value::proj(v, true)?, y, out)?;
        }
        Ty::Dual(a) if a.is_first_order() => {
            for e in basis(a).into_iter().chain(tests(a)) {
                observe(b, &apply(b, v, e)?, &Ty::Real, out)?;
            }
        }
        Ty::Fun(a, r) if a.is_first_order() && **r == Ty::Real => {
            for e in basis(a).into_iter().chain(tests(a)) {
                observe(b, &apply(b, v, e)?, r, out)?;
            }
        }
        Ty::Dual(a) | Ty::Fun(a, _) => {
            let r = match ty {
                Ty::Fun(_, r) => (**r).clone(),
                _ => Ty::Real,
            };
            for x in tests(a) {
                observe(b, &apply(b, v, x)?, &r, out)?;
            }
        }
    }
    Ok(())
}
