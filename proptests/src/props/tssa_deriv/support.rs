//! Shared helpers of the `tssa` derivative properties: the seeded case of a property's
//! dimensions, the differentiated inputs, tangent values and their conversion to the
//! full types the dual-number evaluator wants, and exact inner products.

use super::cases::{ssa_case, value, Case};
use adora_core::tl::{Rat, SsaProgram, Ty, Var};
use adora_rewrites::tssa::deriv::tangent_ty;
use adora_semantics::tl::TlValue;
use num_traits::Zero;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The deterministic generator of a property's dimensions.
pub fn rng_of(d: &[usize]) -> ChaCha8Rng {
    let seed = d.iter().fold(0x7e55_a001u64, |s, &x| {
        s.wrapping_mul(1_000_003).wrapping_add(x as u64)
    });
    ChaCha8Rng::seed_from_u64(seed)
}

/// The case of a property's dimensions: three in four from the foundation's generator
/// G3 (`crate::gen::tl_ssa`, up to 8 statements), the others from this module's own
/// generator ([`super::cases`]: out-of-range accesses, pair outputs, `!`/`||` predicates).
pub fn case_of(d: &[usize]) -> Case {
    let mut rng = rng_of(d);
    if d.iter().sum::<usize>() % 4 == 3 {
        return ssa_case(&mut rng);
    }
    let c = crate::gen::tl_ssa::ssa_case(&mut rng, &crate::gen::tl_ssa::SsaGenOptions::default());
    Case {
        program: c.program,
        values: c.values,
    }
}

/// The inputs with real components (the ones `jvp`/`vjp` differentiate).
pub fn wrt_all(p: &SsaProgram) -> Vec<Var> {
    p.inputs
        .iter()
        .filter(|(_, t)| tangent_ty(t).is_some())
        .map(|(x, _)| x.clone())
        .collect()
}

/// Random tangents `(X, dX of tangent type)` of the inputs `wrt`.
pub fn tangents(rng: &mut ChaCha8Rng, p: &SsaProgram, wrt: &[Var]) -> Vec<TlValue<Rat>> {
    wrt.iter()
        .map(|x| {
            let ty = p
                .inputs
                .iter()
                .find(|(y, _)| y == x)
                .and_then(|(_, t)| tangent_ty(t))
                .unwrap_or(Ty::Num);
            value(rng, &ty)
        })
        .collect()
}

/// The tangent-type value `t` spread over the full type `ty` (the data components copied
/// from the primal value `v`), for the dual-number evaluator.
pub fn to_full(t: &TlValue<Rat>, v: &TlValue<Rat>, ty: &Ty) -> TlValue<Rat> {
    match ty {
        Ty::Pair(a, b) => {
            let (TlValue::Pair(va, vb), ta, tb) = (v, tangent_ty(a), tangent_ty(b)) else {
                return v.clone();
            };
            let (fa, fb) = match (ta, tb, t) {
                (Some(_), Some(_), TlValue::Pair(x, y)) => (to_full(x, va, a), to_full(y, vb, b)),
                (Some(_), None, _) => (to_full(t, va, a), (**vb).clone()),
                (None, Some(_), _) => ((**va).clone(), to_full(t, vb, b)),
                _ => ((**va).clone(), (**vb).clone()),
            };
            TlValue::Pair(Box::new(fa), Box::new(fb))
        }
        _ if tangent_ty(ty).is_some() => t.clone(),
        _ => v.clone(),
    }
}

/// The real components of a value of type `ty`, shaped like `tangent_ty(ty)`.
pub fn to_reals(v: &TlValue<Rat>, ty: &Ty) -> Option<TlValue<Rat>> {
    match (ty, v) {
        (Ty::Pair(a, b), TlValue::Pair(va, vb)) => match (to_reals(va, a), to_reals(vb, b)) {
            (Some(x), Some(y)) => Some(TlValue::Pair(Box::new(x), Box::new(y))),
            (x, None) => x,
            (None, y) => y,
        },
        _ if tangent_ty(ty).is_some() => Some(v.clone()),
        _ => None,
    }
}

/// `⟨a, b⟩` of two values of one type (the sum of the products of their numbers).
pub fn dot(a: &TlValue<Rat>, b: &TlValue<Rat>) -> Result<Rat, String> {
    let (xs, ys) = (a.nums(), b.nums());
    if xs.len() != ys.len() {
        return Err(format!("inner product of `{a}` and `{b}`: shapes differ"));
    }
    Ok(xs
        .iter()
        .zip(&ys)
        .fold(Rat::zero(), |acc, (x, y)| acc + (*x).clone() * (*y).clone()))
}

/// The parts of a right-nested tuple of `k` values.
pub fn unnest(v: &TlValue<Rat>, k: usize) -> Vec<TlValue<Rat>> {
    match (k, v) {
        (0, _) => Vec::new(),
        (1, v) => vec![v.clone()],
        (_, TlValue::Pair(a, b)) => {
            let mut out = vec![(**a).clone()];
            out.extend(unnest(b, k - 1));
            out
        }
        (_, v) => vec![v.clone()],
    }
}

/// The program and its inputs as a failure report.
pub fn show(c: &Case) -> String {
    let vals: Vec<String> = c.values.iter().map(|v| v.to_string()).collect();
    format!("{}\ninputs: {}", c.program, vals.join(", "))
}
