//! Random instances of the statements the reverse rules cover, for the standalone checks
//! of docs/engines/soac-rules.md (`rewrites/tests/it/soac_rules.rs` and the
//! `soac/rule-*` properties): a one-statement function, its inputs and a cotangent,
//! all drawn deterministically from a seed. Values come from small sets so that ties,
//! zeros (0 to 3 of them in products), duplicate and out-of-bounds indices, slices
//! (`R[n, k]` elements) and empty arrays are frequent.

use adora_core::ast::Function;
use adora_core::diag::Result;
use adora_semantics::value::{Tensor, Value};
use adora_semantics::Rat;
use num_bigint::BigInt;

/// Which statement an instance exercises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `reduce` with `+` (the built-in or the lambda `a + b`).
    ReducePlus,
    /// `reduce` with `*`, 0 to 3 zeros among the factors.
    ReduceMul,
    /// `reduce` with `min` or `max`, many ties.
    ReduceMinMax,
    /// `reduce` with a lambda operator (possibly with a free variable).
    ReduceGeneral,
    /// `scan` with `+`.
    ScanPlus,
    /// `scan` with `*`, `min`, `max` or a lambda operator.
    ScanGeneral,
    /// `reduce_by_index` with `+`, `*`, `min` or `max`.
    ReduceByIndex,
    /// `reduce_by_index` with a lambda operator.
    ReduceByIndexGeneral,
    /// `scatter_into`.
    Scatter,
}

/// A random instance: the function, its inputs, the result's cotangent.
pub struct Instance {
    /// The one-statement function (elaborated).
    pub function: Function,
    /// Its inputs.
    pub inputs: Vec<Value<Rat>>,
    /// The cotangent of its result.
    pub cotangent: Value<Rat>,
}

/// SplitMix64: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// A real from a small set with ties, zeros, ones and a fraction.
fn small(rng: &mut Rng) -> Rat {
    let (p, q) = *rng.pick(&[
        (0, 1),
        (1, 1),
        (1, 1),
        (2, 1),
        (-1, 1),
        (3, 1),
        (1, 2),
        (-2, 1),
        (0, 1),
    ]);
    Rat::new(BigInt::from(p), BigInt::from(q))
}

/// A non-zero real.
fn nonzero(rng: &mut Rng) -> Rat {
    let (p, q) = *rng.pick(&[(1, 1), (2, 1), (-1, 1), (3, 1), (1, 2), (-2, 1), (2, 3)]);
    Rat::new(BigInt::from(p), BigInt::from(q))
}

/// A real from `{0, 1, 2}` (many ties for `min`/`max`).
fn tie(rng: &mut Rng) -> Rat {
    Rat::from_integer(BigInt::from(rng.below(3) as i64))
}

fn reals(rng: &mut Rng, shape: Vec<usize>, f: fn(&mut Rng) -> Rat) -> Value<Rat> {
    let n = shape.iter().product();
    let data = (0..n).map(|_| f(rng)).collect();
    Value::Real(Tensor { shape, data })
}

/// `R[a, b…]` in the concrete syntax.
fn ty(dims: &[usize]) -> String {
    if dims.is_empty() {
        "R".into()
    } else {
        let ds: Vec<String> = dims.iter().map(usize::to_string).collect();
        format!("R[{}]", ds.join(", "))
    }
}

fn with(outer: usize, sh: &[usize]) -> Vec<usize> {
    [&[outer][..], sh].concat()
}

/// The operator lambdas of the general rules (`c` is a free variable of the slice type).
const LAMBDAS: [&str; 6] = [
    "(a, b) => a * b + a",
    "(a, b) => a - b * a",
    "(a, b) => max(a, b) * b",
    "(a, b) => min(a, b)",
    "(a, b) => a * c + b",
    "(a, b) => b * a",
];

/// Operators that mix the components of `R[2]` slices (non-diagonal Jacobians).
const MIXING: [&str; 2] = ["(a, b) => a * b[1] + b", "(a, b) => b * a[0] - a"];

/// A lambda operator for slices of shape `sh`.
fn lambda(rng: &mut Rng, sh: &[usize]) -> String {
    if sh == [2] && rng.below(2) == 0 {
        rng.pick(&MIXING).to_string()
    } else {
        rng.pick(&LAMBDAS).to_string()
    }
}

fn elaborate(src: &str) -> Result<Function> {
    let p = adora_core::parser::parse_program(src)?;
    adora_core::check::elaborate(&p, "main")
}

/// The instance of `kind` drawn from `seed`.
pub fn instance(kind: Kind, seed: u64) -> Result<Instance> {
    let mut rng = Rng(seed);
    let sh: Vec<usize> = rng.pick(&[vec![], vec![], vec![2], vec![2, 2]]).clone();
    let n = rng.below(6);
    let slice = ty(&sh);
    let fill = |rng: &mut Rng, d: Vec<usize>| reals(rng, d, small);
    match kind {
        Kind::ReducePlus
        | Kind::ReduceMul
        | Kind::ReduceMinMax
        | Kind::ReduceGeneral
        | Kind::ScanPlus
        | Kind::ScanGeneral => {
            let scan = matches!(kind, Kind::ScanPlus | Kind::ScanGeneral);
            let op = match kind {
                Kind::ReducePlus | Kind::ScanPlus => {
                    rng.pick(&["+", "(a, b) => a + b"]).to_string()
                }
                Kind::ReduceMul => rng.pick(&["*", "(a, b) => a * b"]).to_string(),
                Kind::ReduceMinMax => rng.pick(&["min", "max"]).to_string(),
                Kind::ScanGeneral => match rng.below(4) {
                    0 => rng.pick(&["*", "min", "max"]).to_string(),
                    _ => lambda(&mut rng, &sh),
                },
                _ => lambda(&mut rng, &sh),
            };
            let free = op.contains('c');
            let (form, ret) = if scan {
                ("scan", ty(&with(n, &sh)))
            } else {
                ("reduce", slice.clone())
            };
            let extra = if free {
                format!(", c: {slice}")
            } else {
                String::new()
            };
            let src = format!(
                "def main(ne: {slice}, xs: {}{extra}) -> {ret} = {form}({op}, ne, xs)",
                ty(&with(n, &sh))
            );
            let values: fn(&mut Rng) -> Rat = match kind {
                Kind::ReduceMinMax => tie,
                _ if op == "min" || op == "max" => tie,
                Kind::ReduceMul => nonzero,
                _ => small,
            };
            let ne = reals(&mut rng, sh.clone(), values);
            let mut xs = reals(&mut rng, with(n, &sh), values);
            if kind == Kind::ReduceMul {
                xs = with_zeros(&mut rng, xs);
            }
            let mut inputs = vec![ne, xs];
            if free {
                inputs.push(fill(&mut rng, sh.clone()));
            }
            let cot = if scan {
                fill(&mut rng, with(n, &sh))
            } else {
                fill(&mut rng, sh.clone())
            };
            Ok(Instance {
                function: elaborate(&src)?,
                inputs,
                cotangent: cot,
            })
        }
        Kind::ReduceByIndex | Kind::ReduceByIndexGeneral | Kind::Scatter => {
            let b = 1 + rng.below(4);
            let m = rng.below(7);
            let is: Vec<i64> = (0..m).map(|_| rng.below(b + 2) as i64 - 1).collect();
            let op = match kind {
                Kind::ReduceByIndex => rng
                    .pick(&["+", "*", "min", "max", "(a, b) => b + a"])
                    .to_string(),
                Kind::ReduceByIndexGeneral => lambda(&mut rng, &sh),
                _ => String::new(),
            };
            let free = op.contains('c');
            let values: fn(&mut Rng) -> Rat = if op == "min" || op == "max" {
                tie
            } else {
                small
            };
            let dest = reals(&mut rng, with(b, &sh), values);
            let ne = fill(&mut rng, sh.clone());
            let vs = reals(&mut rng, with(m, &sh), values);
            let is_v = Value::Int(Tensor {
                shape: vec![m],
                data: is,
            });
            let (dty, vty) = (ty(&with(b, &sh)), ty(&with(m, &sh)));
            let extra = if free {
                format!(", c: {slice}")
            } else {
                String::new()
            };
            let (src, mut inputs) = if kind == Kind::Scatter {
                (
                    format!("def main(dest: {dty}, is: Z[{m}], vs: {vty}) -> {dty} = scatter_into(dest, is, vs)"),
                    vec![dest, is_v, vs],
                )
            } else {
                (
                    format!(
                        "def main(dest: {dty}, ne: {slice}, is: Z[{m}], vs: {vty}{extra}) -> {dty} = \
                         reduce_by_index(dest, {op}, ne, is, vs)"
                    ),
                    vec![dest, ne, is_v, vs],
                )
            };
            if free {
                inputs.push(fill(&mut rng, sh.clone()));
            }
            let cot = fill(&mut rng, with(b, &sh));
            Ok(Instance {
                function: elaborate(&src)?,
                inputs,
                cotangent: cot,
            })
        }
    }
}

/// `xs` with 0 to 3 of its scalars set to zero.
fn with_zeros(rng: &mut Rng, xs: Value<Rat>) -> Value<Rat> {
    let Value::Real(mut t) = xs else { return xs };
    let zs = rng.below(4);
    for _ in 0..zs {
        if !t.data.is_empty() {
            let k = rng.below(t.data.len());
            t.data[k] = Rat::from_integer(BigInt::from(0));
        }
    }
    Value::Real(t)
}
