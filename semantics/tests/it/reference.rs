//! The reference derivative: gradient, JVP and VJP agree with each other exactly
//! (gradient = JVPs along basis vectors, JVP linear in the tangent, VJP = gradient for
//! scalar results, adjoint law `<dy, J dx> = <J^T dy, dx>`), tuples of reals work, and
//! misuse gives the documented errors.
use crate::common;
use adora_core::diag::ErrorKind;
use adora_core::Function;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::reference::{gradient, jvp, vjp};
use adora_semantics::value::Value;
use adora_semantics::Rat;
use common::*;

const PROGRAMS: &[(&str, &[&str])] = &[
    ("def main(x: R[3], w: R[3]) -> R = sum(x * w) / (1 + sum(x * x))", &["[1, -2, 1/2]", "[3, 1/3, 2]"]),
    (
        "def main(x: R[6], w: R[3]) -> R = let y = build 4 (i => sum(build 3 (k => x[i + k] * w[k]))) in sum(y * y)",
        &["[1, 2, 3, -1, 0, 1/2]", "[1, -1, 2]"],
    ),
    (
        "def main(x: R[4], n: Z) -> R = reduce(max, 0, x * real(n)) + reduce((a, b) => a * b + 1, 1, x)",
        &["[1, 3/2, -2, 3/2]", "2"],
    ),
    ("def main(p: (R, R[2]), b: B) -> R = select(b, p.0 * sum(p.1), p.0) + loop (a = p.0) for i < 3 do a * p.1[1]", &["(2, [3, -1/2])", "true"]),
    ("def main(x: R[2,2]) -> R = sum(scan(+, replicate(2, 0), x) * transpose([1, 0], x))", &["[[1, 2], [3, 4]]"]),
];

/// The `k`-th basis vector over all real input scalars, shaped like `inputs`.
fn basis(inputs: &[Value<Rat>], k: usize) -> Vec<Option<Value<Rat>>> {
    let mut pos = 0;
    inputs
        .iter()
        .map(|v| {
            Some(v.map_reals(&mut |_| {
                pos += 1;
                if pos - 1 == k {
                    ri(1)
                } else {
                    ri(0)
                }
            }))
        })
        .collect()
}

fn flat(vs: &[Option<Value<Rat>>], like: &[Value<Rat>]) -> Vec<Rat> {
    vs.iter()
        .zip(like)
        .flat_map(|(g, x)| match g {
            Some(g) => g.real_scalars().into_iter().cloned().collect::<Vec<_>>(),
            None => vec![ri(0); x.real_scalars().len()],
        })
        .collect()
}

fn setup(src: &str, inputs: &[&str]) -> (Function, Vec<Value<Rat>>) {
    let f = prog(src);
    let xs = lits(&f, inputs);
    (f, xs)
}

#[test]
fn gradient_equals_jvps_along_basis_vectors() {
    let opts = EvalOptions::default();
    for (src, inputs) in PROGRAMS {
        let (f, xs) = setup(src, inputs);
        let g = gradient(&f, &xs, &opts).unwrap();
        assert_eq!(g.value, eval(&f, &xs, &opts).unwrap().0, "{src}");
        let dense = flat(&g.grads, &xs);
        for (k, want) in dense.iter().enumerate() {
            let (v, t) = jvp(&f, &xs, &basis(&xs, k), &opts).unwrap();
            assert_eq!(v, g.value);
            assert_eq!(t.as_real().unwrap(), want, "{src}, input scalar {k}");
        }
    }
}

#[test]
fn jvp_is_linear_in_the_tangent() {
    let opts = EvalOptions::default();
    for (src, inputs) in PROGRAMS {
        let (f, xs) = setup(src, inputs);
        let n: usize = xs.iter().map(|v| v.real_scalars().len()).sum();
        let u: Vec<Rat> = (0..n).map(|k| rat(k as i64 + 1, 3)).collect();
        let w: Vec<Rat> = (0..n).map(|k| rat(2 - k as i64, 5)).collect();
        let shape = |d: &[Rat]| {
            let mut pos = 0;
            xs.iter()
                .map(|v| {
                    Some(v.map_reals(&mut |_| {
                        pos += 1;
                        d[pos - 1].clone()
                    }))
                })
                .collect::<Vec<_>>()
        };
        let c = rat(-7, 2);
        let mix: Vec<Rat> = u.iter().zip(&w).map(|(a, b)| a * &c + b).collect();
        let t = |d: &[Rat]| {
            jvp(&f, &xs, &shape(d), &opts)
                .unwrap()
                .1
                .as_real()
                .unwrap()
                .clone()
        };
        assert_eq!(t(&mix), t(&u) * &c + t(&w), "{src}");
    }
}

#[test]
fn vjp_matches_gradient_and_the_adjoint_law() {
    let opts = EvalOptions::default();
    for (src, inputs) in PROGRAMS {
        let (f, xs) = setup(src, inputs);
        let g = gradient(&f, &xs, &opts).unwrap();
        let r = vjp(&f, &xs, &sr(rat(3, 2)), &opts).unwrap();
        let scaled: Vec<Rat> = flat(&g.grads, &xs).iter().map(|x| x * rat(3, 2)).collect();
        assert_eq!(flat(&r.grads, &xs), scaled, "{src}");
        assert_eq!(r.value, g.value);
    }
    // a vector-valued program: <dy, J dx> = <J^T dy, dx>
    let (f, xs) = setup(
        "def main(x: R[3], y: R) -> (R[2], Z) = (build 2 (i => x[i] * x[i + 1] * y + x[2 - i]), 7)",
        &["[1, 2, 3]", "1/2"],
    );
    let dx = vec![
        Some(lit::<Rat>("[1, -1, 2]", &tra(&[3]))),
        Some(sr(rat(1, 3))),
    ];
    let dy = Value::Tuple(vec![lit::<Rat>("[5, -2]", &tra(&[2])), Value::int(0)]);
    let (_, jdx) = jvp(&f, &xs, &dx, &opts).unwrap();
    assert_eq!(
        jdx.as_tuple().unwrap()[1],
        Value::int(7),
        "integer parts of the tangent copy the value"
    );
    let lhs: Rat = dy
        .real_scalars()
        .iter()
        .zip(jdx.real_scalars())
        .map(|(a, b)| *a * b)
        .sum();
    let jt = vjp(&f, &xs, &dy, &opts).unwrap();
    let dxf = flat(&dx, &xs);
    let rhs: Rat = flat(&jt.grads, &xs)
        .iter()
        .zip(&dxf)
        .map(|(a, b)| a * b)
        .sum();
    assert_eq!(lhs, rhs);
    assert_ne!(lhs, ri(0));
}

#[test]
fn tuples_of_reals_in_parameters_and_results() {
    let opts = EvalOptions::default();
    let (f, xs) = setup(
        "def main(p: (R, (R, Z)), q: R[2]) -> R = p.0 * p.1.0 * real(p.1.1) + q[0]",
        &["(2, (3, 4))", "[1, 1]"],
    );
    // p.1.1 is an integer: its gradient component is 0
    let g = gradient(&f, &xs, &opts).unwrap();
    let want = lit::<Rat>("(12, (8, 0))", &f.params[0].ty);
    assert_eq!(g.grads[0], Some(want));
    assert_eq!(g.grads[1], Some(lit("[1, 0]", &tra(&[2]))));
    let (f, xs) = setup("def main(x: R) -> (R, R[2]) = (x * x, [x, 1])", &["3"]);
    let (v, t) = jvp(&f, &xs, &[Some(sr(ri(2)))], &opts).unwrap();
    assert_eq!(adora_semantics::io::to_literal(&v), "(9, [3, 1])");
    assert_eq!(adora_semantics::io::to_literal(&t), "(12, [2, 0])");
    let r = vjp(&f, &xs, &lit("(1, [10, 100])", &f.ret), &opts).unwrap();
    assert_eq!(r.grads, vec![Some(sr(ri(16)))]);
}

#[test]
fn misuse_gives_errors() {
    let opts = EvalOptions::default();
    let (f, xs) = setup("def main(x: R) -> R[2] = [x, x]", &["1"]);
    let e = gradient(&f, &xs, &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Type);
    assert!(
        e.message
            .starts_with("grad needs a scalar R result; use vjp"),
        "{}",
        e.message
    );
    assert_eq!(
        vjp(&f, &xs, &sr(ri(1)), &opts).unwrap_err().kind,
        ErrorKind::Input
    );
    assert_eq!(jvp(&f, &xs, &[], &opts).unwrap_err().kind, ErrorKind::Input);
    assert_eq!(
        jvp(&f, &xs, &[Some(Value::int(1))], &opts)
            .unwrap_err()
            .kind,
        ErrorKind::Input
    );
    assert_eq!(
        gradient(
            &prog("def main(x: R) -> R = x"),
            &[Value::<Rat>::int(1)],
            &opts
        )
        .unwrap_err()
        .kind,
        ErrorKind::Input
    );
    // f64 references work the same way
    let f = prog("def main(x: R[2]) -> R = x[0] * x[1]");
    let g = gradient(&f, &[Value::real_vector(vec![2.0f64, 3.0])], &opts).unwrap();
    assert_eq!(g.grads[0], Some(Value::real_vector(vec![3.0, 2.0])));
}
