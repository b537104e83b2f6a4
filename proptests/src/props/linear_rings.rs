//! Seed 002 §7.2 (after Theorem 7.1, row S002-X7.2): transposition over a non-commutative
//! ring. Adora's scalars are rationals and `f64`, but the Linear A interpreter
//! (`adora_rewrites::linear::interp`) is generic over `adora_semantics::scalar::Scalar`,
//! so the linear half and its transpose can run with quaternions over ℚ ([`Quat`]) as
//! scalars: tape values, tangents and cotangents become random quaternions (integer
//! indices and booleans are kept).
//!
//! Linear A has one scaling form, `x * dy`. Over the ring `H` the interpreter reads it as
//! left scaling `x·dy`; over the opposite ring `Hᵒᵖ` (`Quat<true>`, products reversed) it
//! reads the same program as right scaling `dy·x`. The paper's claim, "left and right
//! scaling transpose to each other and Claim 3 splits in two", is then checked as two
//! exact equalities over `H`, with `⟨a, b⟩ = Σ aᵢ·bᵢ` in that order:
//!
//! 1. `⟨ct, lin_H(dx)⟩ = ⟨T_Hᵒᵖ(ct), dx⟩` (a left-scaling program's transpose scales on the right);
//! 2. `⟨lin_Hᵒᵖ(dx), ct⟩ = ⟨dx, T_H(ct)⟩` (and the converse).
//!
//! Both hold exactly when transposition keeps every product's factors in their order
//! along each path (it reverses the path and flips the side of each scaling), which is
//! what "does not reorder products of linear factors" means.

use super::linear::{real, stage, stages, tape};
use super::util::{aux_rng, fail, opts};
use crate::catalogue::{Agg, Check, Figure, Outcome, Pass};
use crate::gen::Case;
use crate::values::{reals, with_reals, Rat};
use adora_core::ast::{BinOp, NonFinite};
use adora_core::linear::{Atom, LExpr, LKind, LinearDef, Op};
use adora_rewrites::linear::interp;
use adora_semantics::scalar::{NonRational, Scalar, Transcendental};
use adora_semantics::value::Value;
use num_traits::{ToPrimitive, Zero};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::cmp::Ordering;

/// A quaternion `a + b i + c j + d k` over ℚ: a non-commutative ring. With `REV` the
/// product is reversed (`x·y` is Hamilton's `y x`): the opposite ring. Only the ring
/// operations are meaningful; the order, `floor` and `abs` compare and return the real
/// part (linear statements never use them).
#[derive(Clone, Debug, PartialEq)]
pub struct Quat<const REV: bool>(pub [Rat; 4]);

/// Hamilton's product.
pub fn hamilton(a: &[Rat; 4], b: &[Rat; 4]) -> [Rat; 4] {
    let [a0, a1, a2, a3] = a;
    let [b0, b1, b2, b3] = b;
    [
        a0 * b0 - a1 * b1 - a2 * b2 - a3 * b3,
        a0 * b1 + a1 * b0 + a2 * b3 - a3 * b2,
        a0 * b2 - a1 * b3 + a2 * b0 + a3 * b1,
        a0 * b3 + a1 * b2 - a2 * b1 + a3 * b0,
    ]
}

fn real_q<const R: bool>(r: Rat) -> Quat<R> {
    Quat([
        r,
        <Rat as Zero>::zero(),
        <Rat as Zero>::zero(),
        <Rat as Zero>::zero(),
    ])
}

impl<const REV: bool> Scalar for Quat<REV> {
    fn zero() -> Self {
        real_q(<Rat as Zero>::zero())
    }
    fn one() -> Self {
        real_q(num_traits::One::one())
    }
    fn from_i64(n: i64) -> Self {
        real_q(Rat::from_integer(n.into()))
    }
    fn from_rational(r: &Rat) -> Self {
        real_q(r.clone())
    }
    fn non_finite(_: NonFinite) -> Option<Self> {
        None
    }
    fn is_zero(&self) -> bool {
        self.0.iter().all(Zero::is_zero)
    }
    fn add(&self, o: &Self) -> Self {
        Quat(std::array::from_fn(|k| &self.0[k] + &o.0[k]))
    }
    fn sub(&self, o: &Self) -> Self {
        Quat(std::array::from_fn(|k| &self.0[k] - &o.0[k]))
    }
    fn mul(&self, o: &Self) -> Self {
        Quat(if REV {
            hamilton(&o.0, &self.0)
        } else {
            hamilton(&self.0, &o.0)
        })
    }
    fn neg(&self) -> Self {
        Quat(std::array::from_fn(|k| -&self.0[k]))
    }
    fn checked_div(&self, o: &Self) -> Option<Self> {
        let n: Rat = o.0.iter().map(|x| x * x).sum();
        if Zero::is_zero(&n) {
            return None;
        }
        let inv = Quat([&o.0[0] / &n, -&o.0[1] / &n, -&o.0[2] / &n, -&o.0[3] / &n]);
        Some(self.mul(&inv))
    }
    fn compare(&self, o: &Self) -> Option<Ordering> {
        self.0[0].partial_cmp(&o.0[0])
    }
    fn floor_i64(&self) -> Option<i64> {
        self.0[0].floor().to_integer().to_i64()
    }
    fn abs(&self) -> Self {
        self.clone()
    }
    fn transcendental(&self, f: Transcendental) -> Result<Self, NonRational> {
        Err(NonRational(f))
    }
    fn approx_f64(&self) -> f64 {
        self.0[0].to_f64().unwrap_or(f64::NAN)
    }
    fn as_rational(&self) -> Option<&Rat> {
        None
    }
    fn fits_bits(&self, max_bits: u64) -> bool {
        self.0.iter().all(|c| Scalar::fits_bits(c, max_bits))
    }
    fn to_literal(&self) -> String {
        let [a, b, c, d] = &self.0;
        format!("({a} + {b}i + {c}j + {d}k)")
    }
    fn to_json(&self) -> serde_json::Value {
        serde_json::Value::String(self.to_literal())
    }
}

/// The property of this file.
pub fn properties() -> Vec<crate::catalogue::Property> {
    vec![crate::catalogue::Property {
        name: "linear/transpose-over-rings",
        source: "seed 002 §7.2 (after Theorem 7.1)",
        fragment: "scalar, bulk",
        description: "the linear half and its transpose run with random quaternions as scalars (tape, tangents, cotangents): <ct, lin_H(dx)> = <T_Hop(ct), dx> and <lin_Hop(dx), ct> = <dx, T_H(ct)> exactly, where H multiplies left-scaling and the opposite ring Hop right-scaling (transposition swaps the sides and reorders no product; the figure: the fraction of cases whose linear half scales by a variable)",
        figure: Some(Figure { label: "scaling by a variable (fraction)", agg: Agg::Mean }),
        check: Check::Case { strategy: real, check: over_rings },
    }]
}

/// Random quaternions for the reals of `v` (the same numbers in both rings).
fn quats(v: &Value<Rat>, rng: &mut ChaCha8Rng) -> Vec<[Rat; 4]> {
    reals(v)
        .iter()
        .map(|_| {
            std::array::from_fn(|_| {
                Rat::new(
                    rng.gen_range(-4i64..=4).into(),
                    rng.gen_range(1i64..=3).into(),
                )
            })
        })
        .collect()
}

fn as_ring<const R: bool>(v: &Value<Rat>, q: &[[Rat; 4]]) -> Value<Quat<R>> {
    let xs: Vec<Quat<R>> = q.iter().map(|c| Quat(c.clone())).collect();
    with_reals(v, &xs)
}

/// `Σ aᵢ·bᵢ` in `H` over every real scalar of the values, in order.
fn pair<const A: bool, const B: bool>(a: &[Value<Quat<A>>], b: &[Value<Quat<B>>]) -> [Rat; 4] {
    let xs: Vec<Quat<A>> = a.iter().flat_map(reals).collect();
    let ys: Vec<Quat<B>> = b.iter().flat_map(reals).collect();
    let mut acc: [Rat; 4] = std::array::from_fn(|_| <Rat as Zero>::zero());
    for (x, y) in xs.iter().zip(&ys) {
        let p = hamilton(&x.0, &y.0);
        acc = std::array::from_fn(|k| &acc[k] + &p[k]);
    }
    acc
}

fn scales_by_variable(d: &LinearDef) -> bool {
    let mut stack: Vec<&LExpr> = vec![&d.body];
    while let Some(e) = stack.pop() {
        match &e.kind {
            LKind::Let(_, a, b) => {
                stack.push(a);
                stack.push(b);
            }
            LKind::Unpack(_, _, b) => stack.push(b),
            LKind::Op {
                op: Op::Binary(BinOp::Mul),
                args,
                linear: true,
            } => {
                if matches!(args[0], Atom::Var(_)) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

fn go<const R: bool>(
    p: &adora_core::linear::LinearProgram,
    f: &str,
    args: &[Value<Quat<R>>],
    largs: &[Value<Quat<R>>],
) -> Result<Option<Vec<Value<Quat<R>>>>, String> {
    Ok(stage(
        interp::run(p, f, args, largs, &opts()),
        &format!("running `{f}` over quaternions"),
    )?
    .map(|r| r.lin))
}

fn over_rings(case: &Case) -> Outcome {
    let Some(s) = stages(case)? else {
        return Pass::vacuous();
    };
    let Some(tp) = tape(&s, case)? else {
        return Pass::vacuous();
    };
    let (l, t) = (s.lin_def()?, s.t_def()?);
    let mut rng = aux_rng(case, 81);
    let zeros = |ps: &[adora_core::ast::Param]| -> Vec<Value<Rat>> {
        ps.iter().map(|p| Value::zeros(&p.ty)).collect()
    };
    let (dx0, ct0) = (zeros(&l.lparams), zeros(&t.lparams));
    let qt: Vec<_> = tp.iter().map(|v| quats(v, &mut rng)).collect();
    let qd: Vec<_> = dx0.iter().map(|v| quats(v, &mut rng)).collect();
    let qc: Vec<_> = ct0.iter().map(|v| quats(v, &mut rng)).collect();
    fn lift<const R: bool>(vs: &[Value<Rat>], qs: &[Vec<[Rat; 4]>]) -> Vec<Value<Quat<R>>> {
        vs.iter().zip(qs).map(|(v, q)| as_ring::<R>(v, q)).collect()
    }
    let (tape_h, tape_op) = (lift::<false>(&tp, &qt), lift::<true>(&tp, &qt));
    let (dx_h, dx_op) = (lift::<false>(&dx0, &qd), lift::<true>(&dx0, &qd));
    let (ct_h, ct_op) = (lift::<false>(&ct0, &qc), lift::<true>(&ct0, &qc));
    let runs = (
        go(&s.u, &s.lin, &tape_h, &dx_h)?,
        go(&s.t, &s.lin_t, &tape_op, &ct_op)?,
        go(&s.u, &s.lin, &tape_op, &dx_op)?,
        go(&s.t, &s.lin_t, &tape_h, &ct_h)?,
    );
    let (Some(fwd_h), Some(bwd_op), Some(fwd_op), Some(bwd_h)) = runs else {
        return Pass::vacuous();
    };
    let (a, b) = (pair(&ct_h, &fwd_h), pair(&bwd_op, &dx_h));
    if a != b {
        return fail(format!(
            "<ct, lin_H dx> = {a:?} but <T_Hop ct, dx> = {b:?}\n{}",
            super::linear::show(&s.t)
        ));
    }
    let (c, d) = (pair(&fwd_op, &ct_h), pair(&dx_h, &bwd_h));
    if c != d {
        return fail(format!(
            "<lin_Hop dx, ct> = {c:?} but <dx, T_H ct> = {d:?}\n{}",
            super::linear::show(&s.t)
        ));
    }
    Pass::figure(if scales_by_variable(l) { 1.0 } else { 0.0 })
}
