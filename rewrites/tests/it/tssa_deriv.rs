//! Engine `tssa`'s derivative transforms on hand-built Tensor-SSA programs: the shape of
//! `D` (one tangent block per statement, zeros dropped, the Leibniz halves) and of `R`
//! (no differential statement left, one adjoint per input), and their errors
//! (docs/engines/tssa-derivatives.md).

use adora_core::diag::ErrorKind;
use adora_core::tl::{Access, BlackBox, Pred, Rhs, SsaOut, SsaProgram, Stmt, Ty};
use adora_rewrites::tssa::deriv::forward::{derive, Kind};
use adora_rewrites::tssa::deriv::{jvp, vjp};

fn vec_ty(n: u64) -> Ty {
    Ty::Arr(n, Box::new(Ty::Num))
}

fn input(var: &str, x: &str, ty: Ty) -> Stmt {
    Stmt {
        var: var.into(),
        ty,
        rhs: Rhs::Input {
            input: x.into(),
            path: vec![],
        },
    }
}

fn acc(v: &str, idx: &[&str]) -> Access {
    Access {
        var: v.into(),
        idx: idx.iter().map(|s| s.to_string()).collect(),
    }
}

/// `sum_i exp(x[i]) * w[i]`, as Tensor SSA.
fn dot_exp() -> SsaProgram {
    SsaProgram {
        inputs: vec![("x".into(), vec_ty(3)), ("w".into(), vec_ty(3))],
        stmts: vec![
            input("a", "x", vec_ty(3)),
            input("b", "w", vec_ty(3)),
            Stmt {
                var: "e".into(),
                ty: vec_ty(3),
                rhs: Rhs::Map {
                    dims: vec![("i0".into(), 3)],
                    pred: Pred::True,
                    f: BlackBox::Exp,
                    y: "a".into(),
                },
            },
            Stmt {
                var: "c".into(),
                ty: Ty::Num,
                rhs: Rhs::Contract {
                    dims: vec![],
                    sums: vec![("i0".into(), 3)],
                    pred: Pred::True,
                    y: acc("e", &["i0"]),
                    z: Some(acc("b", &["i0"])),
                },
            },
        ],
        output: SsaOut::Var("c".into()),
    }
}

#[test]
fn forward_keeps_primal_and_adds_one_block_per_statement() {
    let p = dot_exp();
    let f = derive(&p, &["x".into(), "w".into()]).unwrap();
    let kinds: Vec<Kind> = f.stmts.iter().map(|(_, k)| *k).collect();
    use Kind::*;
    // a da b db e te de c dca dcb dc
    assert_eq!(
        kinds,
        vec![Primal, Diff, Primal, Diff, Primal, Coef, Diff, Primal, Diff, Diff, Diff]
    );
    let j = jvp(&p, &["x".into(), "w".into()]).unwrap();
    assert_eq!(j.inputs.len(), 4);
    assert!(j.stmts.len() <= 4 * p.stmts.len());
    assert!(matches!(j.output, SsaOut::Pair(..)));
}

#[test]
fn forward_drops_zero_tangents() {
    let p = dot_exp();
    // Only w: the exp statement has no tangent, the product one half.
    let f = derive(&p, &["w".into()]).unwrap();
    let diffs = f.stmts.iter().filter(|(_, k)| *k == Kind::Diff).count();
    let coefs = f.stmts.iter().filter(|(_, k)| *k == Kind::Coef).count();
    assert_eq!((diffs, coefs), (2, 0));
}

#[test]
fn adjoint_has_one_output_per_input_and_no_differentials() {
    let p = dot_exp();
    let r = vjp(&p, &["x".into(), "w".into()]).unwrap();
    assert_eq!(r.inputs.len(), 3);
    assert!(matches!(r.output, SsaOut::Pair(..)));
    let r1 = vjp(&p, &["w".into()]).unwrap();
    assert!(matches!(r1.output, SsaOut::Var(_)));
    // No statement reads a tangent input: there is none.
    assert!(r1.inputs.iter().all(|(x, _)| !x.starts_with("dx")));
}

#[test]
fn bad_requests_are_errors_not_panics() {
    let p = dot_exp();
    let e = jvp(&p, &["nope".into()]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Internal);
    let mut q = dot_exp();
    q.inputs.push(("flag".into(), Ty::Bool));
    let e = vjp(&q, &["flag".into()]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    let e = vjp(&p, &[]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
}
