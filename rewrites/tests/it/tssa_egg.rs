//! Engine tssa's egg passes (rewrites/src/tssa/egg): the worked examples of seed 001 §5
//! (docs/engines/tssa-passes.md) and structural checks of the normal forms, names and
//! limits.

use adora_core::diag::ErrorKind;
use adora_core::tl::{Aff, CmpOp, Index, Pred, Rat, Term, Ty};
use adora_rewrites::tssa::egg::{
    genpush, is_gp_nf, is_ll_nf, is_pe_nf, letlift,
    letlift::{letlift_report, LetLiftOptions, Strategy},
    pairelim,
    run::Limits,
};

fn v(x: &str) -> Term {
    Term::Var(x.into())
}
fn b(t: Term) -> Box<Term> {
    Box::new(t)
}
fn ix(i: &str) -> Index {
    let mut a = Aff::default();
    a.terms.insert(i.into(), 1);
    Index::Aff(a)
}
fn k(c: i64) -> Index {
    Index::Aff(Aff {
        terms: Default::default(),
        constant: c,
    })
}
fn at(e: Term, a: Index) -> Term {
    Term::Access(b(e), a)
}
fn mul(a: Term, c: Term) -> Term {
    Term::Mul(b(a), b(c))
}
fn add(a: Term, c: Term) -> Term {
    Term::Add(b(a), b(c))
}
fn gen(i: &str, n: u64, e: Term) -> Term {
    Term::Gen(i.into(), n, b(e))
}
fn sum(i: &str, n: u64, e: Term) -> Term {
    Term::Sum(i.into(), n, b(e))
}
fn let_(x: &str, e1: Term, e2: Term) -> Term {
    Term::Let(x.into(), b(e1), b(e2))
}
fn le(i: &str, c: i64) -> Pred {
    Pred::Cmp(CmpOp::Le, ix(i), k(c))
}
fn arr(n: u64) -> Ty {
    Ty::Arr(n, Box::new(Ty::Num))
}

/// f.6: `sum i:4. [i <= 1] let t = x[i]*x[i] in t + t`.
fn f6() -> Term {
    sum(
        "i",
        4,
        Term::Bracket(
            le("i", 1),
            b(let_(
                "t",
                mul(at(v("x"), ix("i")), at(v("x"), ix("i"))),
                add(v("t"), v("t")),
            )),
        ),
    )
}

#[test]
fn f6_let_lifting_copies_the_predicate_onto_the_binding() {
    let out = letlift(&f6()).unwrap();
    assert!(is_ll_nf(&out), "{out:?}");
    // let t0 = gen i0:4. [i0 <= 1] (x[i0] * x[i0]) in sum i1:4. [i1 <= 1] (t0[i1] + t0[i1])
    let want = let_(
        "t0",
        gen(
            "i0",
            4,
            Term::Bracket(
                le("i0", 1),
                b(mul(at(v("x"), ix("i0")), at(v("x"), ix("i0")))),
            ),
        ),
        sum(
            "i1",
            4,
            Term::Bracket(
                le("i1", 1),
                b(add(at(v("t0"), ix("i1")), at(v("t0"), ix("i1")))),
            ),
        ),
    );
    assert_eq!(out, want);
}

#[test]
fn f6_without_the_copy_the_binding_is_unguarded() {
    let opts = LetLiftOptions {
        copy_predicate: false,
        ..LetLiftOptions::default()
    };
    let (out, report) = letlift_report(&f6(), &[], &opts, None).unwrap();
    assert!(is_ll_nf(&out));
    assert!(report.applied.contains_key("tl/5.9-no-copy"));
    let want_binding = gen("i0", 4, mul(at(v("x"), ix("i0")), at(v("x"), ix("i0"))));
    match &out {
        Term::Let(_, r, _) => assert_eq!(**r, want_binding),
        t => panic!("not a let: {t:?}"),
    }
}

/// f.7: `let p = gen i:3. (x[i], x[i]*x[i]) in sum i:3. p[i].0 * p[i].1`.
fn f7() -> Term {
    let xi = || at(v("x"), ix("i"));
    let_(
        "p",
        gen("i", 3, Term::Pair(b(xi()), b(mul(xi(), xi())))),
        sum(
            "j",
            3,
            mul(
                Term::Proj(0, b(at(v("p"), ix("j")))),
                Term::Proj(1, b(at(v("p"), ix("j")))),
            ),
        ),
    )
}

#[test]
fn f7_pair_elimination_splits_the_let() {
    let inputs = vec![("x".to_string(), arr(3))];
    let out = pairelim(&f7(), &inputs).unwrap();
    assert!(is_pe_nf(&out, &inputs), "{out:?}");
    let want = let_(
        "t0",
        gen("i0", 3, at(v("x"), ix("i0"))),
        let_(
            "t1",
            gen("i1", 3, mul(at(v("x"), ix("i1")), at(v("x"), ix("i1")))),
            sum("i2", 3, mul(at(v("t0"), ix("i2")), at(v("t1"), ix("i2")))),
        ),
    );
    assert_eq!(out, want);
}

/// f.8: `let y = gen i:4. x[i]*x[i] in let z = (gen j:4. y[j]*y[j])[1] in z`.
fn f8() -> Term {
    let_(
        "y",
        gen("i", 4, mul(at(v("x"), ix("i")), at(v("x"), ix("i")))),
        let_(
            "z",
            at(
                gen("j", 4, mul(at(v("y"), ix("j")), at(v("y"), ix("j")))),
                k(1),
            ),
            v("z"),
        ),
    )
}

#[test]
fn f8_gen_push_out_beta_reduces_the_access() {
    let inputs = vec![("x".to_string(), arr(4))];
    let out = genpush(&f8(), &inputs).unwrap();
    assert!(is_gp_nf(&out, &inputs), "{out:?}");
    let want = let_(
        "t0",
        gen("i0", 4, mul(at(v("x"), ix("i0")), at(v("x"), ix("i0")))),
        let_("t1", mul(at(v("t0"), k(1)), at(v("t0"), k(1))), v("t1")),
    );
    assert_eq!(out, want);
}

#[test]
fn a_symbolic_access_gets_the_bounds_guard() {
    // gen a:3. (gen j:4. x[j] * x[j])[a + 1]
    //   ⟶  gen a:3. [0 <= a+1 && a+1 < 4] (x[a+1] * x[a+1])
    let inputs = vec![("x".to_string(), arr(4))];
    let mut a1 = Aff::default();
    a1.terms.insert("a".into(), 1);
    a1.constant = 1;
    let xj = || at(v("x"), ix("j"));
    let t = gen(
        "a",
        3,
        at(gen("j", 4, mul(xj(), xj())), Index::Aff(a1.clone())),
    );
    let out = genpush(&t, &inputs).unwrap();
    assert!(is_gp_nf(&out, &inputs), "{out:?}");
    let Term::Gen(i, 3, body) = &out else {
        panic!("{out:?}")
    };
    let Term::Bracket(Pred::And(lo, hi), e) = &**body else {
        panic!("{out:?}")
    };
    let mut ai = Aff::default();
    ai.terms.insert(i.clone(), 1);
    ai.constant = 1;
    assert_eq!(**lo, Pred::Cmp(CmpOp::Le, k(0), Index::Aff(ai.clone())));
    assert_eq!(**hi, Pred::Cmp(CmpOp::Lt, Index::Aff(ai.clone()), k(4)));
    let xa = || at(v("x"), Index::Aff(ai.clone()));
    assert_eq!(**e, mul(xa(), xa()));
}

#[test]
fn an_alias_of_an_array_is_eta_expanded() {
    // let y = gen i:2. x[i] * x[i] in let z = [true] y in z
    let inputs = vec![("x".to_string(), arr(2))];
    let t = let_(
        "y",
        gen("i", 2, mul(at(v("x"), ix("i")), at(v("x"), ix("i")))),
        let_("z", Term::Bracket(Pred::True, b(v("y"))), v("z")),
    );
    let out = genpush(&t, &inputs).unwrap();
    assert!(is_gp_nf(&out, &inputs), "{out:?}");
}

#[test]
fn a_tiny_node_limit_is_a_resource_error_naming_it() {
    let opts = LetLiftOptions::default()
        .with_strategy(Strategy::Saturation)
        .with_limits(Limits {
            node_limit: 5,
            ..Limits::default()
        });
    let e = letlift_report(&f6(), &[], &opts, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Resource);
    assert!(e.message.contains("e-node limit"), "{}", e.message);
}

#[test]
fn the_result_does_not_depend_on_the_rule_order() {
    let base = letlift(&f6()).unwrap();
    let n = 14;
    let rev: Vec<usize> = (0..n).rev().collect();
    let opts = LetLiftOptions::default().with_strategy(Strategy::Saturation);
    let sat = letlift_report(&f6(), &[], &opts, None).unwrap().0;
    let out = letlift_report(&f6(), &[], &opts, Some(&rev)).unwrap().0;
    assert_eq!(out, sat);
    assert_eq!(out, base);
}

#[test]
fn constants_survive() {
    let t = let_(
        "a",
        Term::Const(Rat::from_integer(3.into())),
        add(v("a"), v("a")),
    );
    assert_eq!(
        letlift(&t).unwrap(),
        let_(
            "t0",
            Term::Const(Rat::from_integer(3.into())),
            add(v("t0"), v("t0"))
        )
    );
}

fn affs(parts: &[(&str, i64)], c: i64) -> Index {
    let mut a = Aff::default();
    for (v, k) in parts {
        a.terms.insert((*v).into(), *k);
    }
    a.constant = c;
    Index::Aff(a)
}
fn num(c: i64) -> Term {
    Term::Const(Rat::from_integer(c.into()))
}

/// f.11: the batched deconvolution gradient, a `let` under `sum b` under `gen j`.
fn f11() -> Term {
    let xb = |bb: &str, a: Index| at(at(v("xb"), ix(bb)), a);
    let r = gen(
        "i",
        3,
        add(
            sum(
                "k",
                2,
                mul(at(v("w"), ix("k")), xb("b", affs(&[("i", 1), ("k", 1)], 0))),
            ),
            mul(num(-1), at(at(v("yb"), ix("b")), ix("i"))),
        ),
    );
    let body = sum(
        "i2",
        3,
        mul(
            mul(num(2), at(v("r"), ix("i2"))),
            xb("b", affs(&[("i2", 1), ("j", 1)], 0)),
        ),
    );
    gen("j", 2, sum("b", 2, let_("r", r, body)))
}

#[test]
fn f11_lifts_the_batched_let_over_both_binders() {
    let inputs = vec![
        ("w".to_string(), arr(2)),
        ("xb".to_string(), Ty::Arr(2, Box::new(arr(4)))),
        ("yb".to_string(), Ty::Arr(2, Box::new(arr(3)))),
    ];
    let l = letlift(&f11()).unwrap();
    assert!(is_ll_nf(&l), "{l:?}");
    // One binding, parameterised over j and b: gen j. gen b. gen i. …
    let Term::Let(_, r, _) = &l else {
        panic!("{l:?}")
    };
    assert!(
        matches!(&**r, Term::Gen(_, 2, g) if matches!(&**g, Term::Gen(_, 2, h) if matches!(&**h, Term::Gen(_, 3, _)))),
        "{r:?}"
    );
    let p = pairelim(&l, &inputs).unwrap();
    assert_eq!(p, l);
    let g = genpush(&p, &inputs).unwrap();
    assert!(is_gp_nf(&g, &inputs), "{g:?}");
}

#[test]
fn many_lets_in_one_sum_saturate() {
    // (let a1 = x[0] in a1) + ((let a2 = x[1] in a2) + (… + (let a6 = x[5] in a6)))
    let mut t = let_("a6", at(v("x"), k(5)), v("a6"));
    for j in (1..6).rev() {
        let a = format!("a{j}");
        t = add(let_(&a, at(v("x"), k(j - 1)), v(&a)), t);
    }
    let (out, report) = letlift_report(&t, &[], &LetLiftOptions::default(), None).unwrap();
    assert!(is_ll_nf(&out));
    assert!(report.nodes < 200_000, "{report:?}");
}

#[test]
fn let_lifting_needs_no_input_types() {
    // gen i:3. let t = x[i] in t * t, with x untyped: the binding has no known type.
    let t = gen("i", 3, let_("t", at(v("x"), ix("i")), mul(v("t"), v("t"))));
    let out = letlift(&t).unwrap();
    assert!(is_ll_nf(&out), "{out:?}");
}

#[test]
fn a_pair_input_is_read_through_named_projections() {
    // let p = X in sum i:2. p.0[i] * p.1[i], X : [2]num × [2]num
    let inputs = vec![(
        "X".to_string(),
        Ty::Pair(Box::new(arr(2)), Box::new(arr(2))),
    )];
    let t = let_(
        "p",
        v("X"),
        sum(
            "i",
            2,
            mul(
                at(Term::Proj(0, b(v("p"))), ix("i")),
                at(Term::Proj(1, b(v("p"))), ix("i")),
            ),
        ),
    );
    let l = letlift(&t).unwrap();
    let p = pairelim(&l, &inputs).unwrap();
    assert!(is_pe_nf(&p, &inputs), "{p:?}");
    let g = genpush(&p, &inputs).unwrap();
    assert!(is_gp_nf(&g, &inputs), "{g:?}");
    // let t0 = X.0 in let t1 = X.1 in sum i0:2. t0[i0] * t1[i0]
    let want = let_(
        "t0",
        Term::Proj(0, b(v("X"))),
        let_(
            "t1",
            Term::Proj(1, b(v("X"))),
            sum("i0", 2, mul(at(v("t0"), ix("i0")), at(v("t1"), ix("i0")))),
        ),
    );
    assert_eq!(g, want);
}

#[test]
fn an_array_of_pairs_input_is_unsupported_by_pair_elimination() {
    let inputs = vec![(
        "X".to_string(),
        Ty::Arr(2, Box::new(Ty::Pair(Box::new(Ty::Num), Box::new(Ty::Num)))),
    )];
    let e = pairelim(&v("X"), &inputs).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
}
