//! Engine `tssa`'s conversion to Tensor-SSA form (docs/engines/tssa-lowering.md,
//! "Conversion to Tensor SSA") and its raising back to core, on hand-built GP-NF terms.

use adora_core::tl::{Access, CmpOp, Pred, Rhs, SsaOut, Term, Ty};
use adora_rewrites::tssa::lower::mk;
use adora_rewrites::tssa::raise::raise;
use adora_rewrites::tssa::ssa::{
    check_normal_form, is_ssa_normal_form, to_ssa, to_ssa_with, SsaOptions,
};

fn arr(n: u64) -> Ty {
    Ty::Arr(n, Box::new(Ty::Num))
}

fn at(x: &str, idx: &[adora_core::tl::Index]) -> Term {
    mk::access(Term::Var(x.into()), idx)
}

/// The convolution of the paper's §2.1: `let z = gen i:3. sum j:3. w[j] * x[i + j] in z`.
fn conv() -> (Term, Vec<(String, Ty)>) {
    let ij = mk::index_add_scaled(&mk::ivar("i"), 1, &mk::ivar("j"));
    let body = mk::mul(at("w", &[mk::ivar("j")]), at("x", &[ij]));
    let rhs = Term::Gen(
        "i".into(),
        3,
        Box::new(Term::Sum("j".into(), 3, Box::new(body))),
    );
    let t = Term::Let("z".into(), Box::new(rhs), Box::new(Term::Var("z".into())));
    (t, vec![("x".into(), arr(5)), ("w".into(), arr(3))])
}

#[test]
fn the_convolution_becomes_two_index_solved_copies_and_one_contraction() {
    let (t, inputs) = conv();
    let p = to_ssa(&t, &inputs).unwrap();
    check_normal_form(&p, true).unwrap();
    let forms: Vec<&Rhs> = p.stmts.iter().map(|s| &s.rhs).collect();
    assert_eq!(forms.len(), 5, "{forms:#?}");
    assert!(matches!(forms[0], Rhs::Input { input, .. } if input == "w"));
    let eq = |a: &str, b: adora_core::tl::Index| mk::cmp(CmpOp::Eq, mk::ivar(a), b);
    let Rhs::Contract {
        dims,
        sums,
        pred,
        y,
        z: None,
    } = forms[1]
    else {
        panic!("{:?}", forms[1])
    };
    assert_eq!(dims, &vec![("i0".to_string(), 3), ("i1".to_string(), 3)]);
    assert_eq!(sums, &vec![("i2".to_string(), 3)]);
    assert_eq!(pred, &eq("i2", mk::ivar("i1")));
    assert_eq!(y.idx, vec!["i2".to_string()]);
    let Rhs::Contract { sums, pred, .. } = forms[3] else {
        panic!("{:?}", forms[3])
    };
    assert_eq!(sums, &vec![("i2".to_string(), 5)]);
    let i0_plus_i1 = mk::index_add_scaled(&mk::ivar("i0"), 1, &mk::ivar("i1"));
    assert_eq!(pred, &eq("i2", i0_plus_i1));
    let Rhs::Contract {
        dims,
        sums,
        pred,
        y,
        z: Some(z),
    } = forms[4]
    else {
        panic!("{:?}", forms[4])
    };
    assert_eq!((dims.len(), sums.len(), pred), (1, 1, &Pred::True));
    assert_eq!(y.idx, vec!["i0".to_string(), "i1".to_string()]);
    assert!(y.var < z.var, "factors out of order");
    assert_eq!(p.output, SsaOut::Var("z".into()));
    assert_eq!(p.stmts[4].var, "z");
}

#[test]
fn cse_merges_equal_right_hand_sides_and_can_be_switched_off() {
    let xi = at("x", &[mk::ivar("i")]);
    let rhs = Term::Gen("i".into(), 3, Box::new(mk::mul(xi.clone(), xi)));
    let t = Term::Let("a".into(), Box::new(rhs), Box::new(Term::Var("a".into())));
    let inputs = vec![("x".to_string(), arr(3))];
    let on = to_ssa(&t, &inputs).unwrap();
    let off = to_ssa_with(&t, &inputs, SsaOptions { cse: false }).unwrap();
    assert_eq!((on.stmts.len(), off.stmts.len()), (3, 4));
    assert!(is_ssa_normal_form(&on));
    check_normal_form(&off, false).unwrap();
    let err = check_normal_form(&off, true).unwrap_err();
    assert!(err.contains("CSE"), "{err}");
    let Rhs::Contract { y, z: Some(z), .. } = &on.stmts[2].rhs else {
        panic!("{:?}", on.stmts[2])
    };
    assert_eq!(y, z);
}

#[test]
fn the_checker_rejects_non_canonical_index_names() {
    let (t, inputs) = conv();
    let mut p = to_ssa(&t, &inputs).unwrap();
    if let Rhs::Contract { dims, y, z, .. } = &mut p.stmts[4].rhs {
        dims[0].0 = "k".into();
        for a in [Some(&mut *y), z.as_mut()].into_iter().flatten() {
            let a: &mut Access = a;
            a.idx[0] = "k".into();
        }
    }
    let err = check_normal_form(&p, true).unwrap_err();
    assert!(err.contains("canonical"), "{err}");
}

#[test]
fn raising_solves_the_index_equalities_and_passes_the_core_checker() {
    let (t, inputs) = conv();
    let p = to_ssa(&t, &inputs).unwrap();
    let f = raise(&p, "main").unwrap();
    let text = adora_core::pretty::function(&f);
    assert_eq!(f.params.len(), 2);
    assert!(text.contains("build"), "{text}");
    // Every copy's summation is solved: only the contraction's `sum` remains.
    assert_eq!(text.matches("sum(").count(), 1, "{text}");
    let g = adora_core::load(&text, "main").expect("the printed raised program loads");
    assert_eq!(g.params.len(), 2);
}

#[test]
fn a_term_outside_gpnf_is_an_internal_error() {
    let inner = Term::Gen("j".into(), 2, Box::new(mk::num(1)));
    let bad = Term::Gen("i".into(), 2, Box::new(mk::access(inner, &[mk::ivar("i")])));
    let t = Term::Let("a".into(), Box::new(bad), Box::new(Term::Var("a".into())));
    let e = to_ssa(&t, &[]).unwrap_err();
    assert_eq!(e.kind, adora_core::diag::ErrorKind::Internal);
}
