//! The tensor-language evaluator, rule by rule (paper §4.1, rules 4.1–4.21, and the
//! extensions E1–E4; docs/engines/tssa-language.md, "Evaluation").

use adora_core::diag::ErrorKind;
use adora_core::tl::{
    rat, subst, Access, Aff, BlackBox, CmpOp, DataRef, IExpr, Index, PathStep, Pred, Rat, Rhs,
    SsaOut, SsaProgram, Stmt, Term, Ty,
};
use adora_semantics::tl::{eval_ssa, eval_term, tl_jvp, TlEnv, TlValue};

type V = TlValue<Rat>;

fn n(k: i64) -> V {
    TlValue::Num(rat(k))
}
fn q(a: i64, b: i64) -> V {
    TlValue::Num(rat(a) / rat(b))
}
fn arr(xs: &[i64]) -> V {
    TlValue::Arr(xs.iter().map(|&k| n(k)).collect())
}
fn v(x: &str) -> Term {
    Term::var(x)
}
fn at(t: Term, i: &str) -> Term {
    Term::at(t, Index::var(i))
}
fn c(k: i64) -> Term {
    Term::int(k)
}
fn cmp(op: CmpOp, a: Index, b: Index) -> Pred {
    Pred::cmp(op, a, b)
}
fn ev(t: &Term, env: &TlEnv<Rat>) -> V {
    eval_term(t, env).unwrap_or_else(|e| panic!("{t}: {}", e.message))
}
fn env(bs: &[(&str, V)]) -> TlEnv<Rat> {
    let mut e = TlEnv::new();
    for (x, val) in bs {
        e.bind(*x, val.clone());
    }
    e
}

#[test]
fn rules_4_1_to_4_4_variables_constants_arithmetic() {
    let e = env(&[("x", n(3)), ("y", q(1, 2))]);
    assert_eq!(ev(&v("x"), &e), n(3));
    assert_eq!(ev(&Term::num(rat(-7) / rat(3)), &e), q(-7, 3));
    assert_eq!(ev(&Term::add(v("x"), v("y")), &e), q(7, 2));
    assert_eq!(ev(&Term::mul(v("x"), v("y")), &e), q(3, 2));
    // E2: #a is the value of the index expression.
    let t = Term::sum(
        "i",
        4,
        Term::index_const(Index::Aff(Aff::var("i").scale(2))),
    );
    assert_eq!(ev(&t, &e), n(12));
}

#[test]
fn rule_4_5_black_boxes_follow_the_host_conventions() {
    let e = env(&[("x", n(-2)), ("z", n(0))]);
    let call = |f, t| ev(&Term::call(f, t), &e);
    assert_eq!(call(BlackBox::Pow(2), v("x")), n(4));
    assert_eq!(call(BlackBox::Pow(-1), v("x")), q(-1, 2));
    assert_eq!(call(BlackBox::Recip, v("x")), q(-1, 2));
    assert_eq!(call(BlackBox::Recip, v("z")), n(0), "recip(0) = 0");
    assert_eq!(call(BlackBox::Abs, v("x")), n(2));
    assert_eq!(call(BlackBox::Sign, v("x")), n(-1));
    assert_eq!(call(BlackBox::Sign, v("z")), n(0), "abs'(0) = 0");
    assert_eq!(call(BlackBox::DPow(3), v("x")), n(12));
    assert_eq!(call(BlackBox::DPow(-1), v("x")), q(-1, 4));
    assert_eq!(call(BlackBox::DPow(0), v("z")), n(0));
    let err = eval_term(&Term::call(BlackBox::Exp, v("x")), &e).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NonRational);
    // In f64 the transcendental boxes evaluate.
    let mut fe = TlEnv::<f64>::new();
    fe.bind("x", TlValue::Num(0.0));
    let r = eval_term(&Term::call(BlackBox::Exp, v("x")), &fe).unwrap();
    assert_eq!(r, TlValue::Num(1.0));
    let r = eval_term(&Term::call(BlackBox::DTanh, v("x")), &fe).unwrap();
    assert_eq!(r, TlValue::Num(1.0));
    let r = eval_term(&Term::call(BlackBox::Recip, v("x")), &fe).unwrap();
    assert_eq!(
        r,
        TlValue::Num(f64::INFINITY),
        "f64 divides by zero as IEEE"
    );
}

#[test]
fn rules_4_6_4_7_pairs_and_elementwise_projection() {
    let p = TlValue::Arr(vec![TlValue::pair(n(1), n(2)), TlValue::pair(n(3), n(4))]);
    let e = env(&[("p", p), ("a", n(5))]);
    assert_eq!(ev(&Term::proj(1, Term::pair(v("a"), c(2))), &e), n(2));
    // §5.2: the projection of an array of pairs is elementwise.
    assert_eq!(ev(&Term::proj(0, v("p")), &e), arr(&[1, 3]));
    let t = Term::gen("i", 2, Term::proj(1, at(v("p"), "i")));
    assert_eq!(ev(&t, &e), arr(&[2, 4]));
}

#[test]
fn rule_4_8_brackets_give_the_zero_of_the_type() {
    let e = env(&[("x", arr(&[1, 2, 3]))]);
    let t = Term::gen(
        "i",
        3,
        Term::bracket(
            cmp(CmpOp::Ne, Index::var("i"), Index::constant(1)),
            at(v("x"), "i"),
        ),
    );
    assert_eq!(ev(&t, &e), arr(&[1, 0, 3]));
    // At array and pair types.
    let z = Term::bracket(Pred::False, Term::pair(v("x"), c(4)));
    assert_eq!(ev(&z, &e), TlValue::pair(arr(&[0, 0, 0]), n(0)));
    assert_eq!(ev(&Term::bracket(Pred::True, v("x")), &e), arr(&[1, 2, 3]));
    // The bracketed term is not evaluated when the predicate is false.
    let bad = Term::bracket(Pred::False, Term::call(BlackBox::Exp, c(1)));
    assert_eq!(ev(&bad, &e), n(0));
}

#[test]
fn rule_4_9_let_and_the_substitution_identity() {
    let e = env(&[("x", arr(&[1, 2, 3]))]);
    let body = Term::sum("i", 3, Term::mul(v("y"), at(v("x"), "i")));
    let t = Term::let_("y", Term::add(at(v("x"), "j"), c(1)), body.clone());
    let t = Term::gen("j", 3, t);
    assert_eq!(ev(&t, &e), arr(&[12, 18, 24]));
    // ⟦e{y := e'}⟧ = ⟦let y = e' in e⟧.
    let e2 = Term::add(at(v("x"), "j"), c(1));
    let s = Term::gen("j", 3, subst(&body, "y", &e2).unwrap());
    assert_eq!(ev(&s, &e), arr(&[12, 18, 24]));
}

#[test]
fn rules_4_10_4_11_gen_and_sum_including_empty_ranges() {
    let e = env(&[("x", arr(&[1, 2, 3]))]);
    let g = Term::gen("i", 3, Term::mul(at(v("x"), "i"), at(v("x"), "i")));
    assert_eq!(ev(&g, &e), arr(&[1, 4, 9]));
    assert_eq!(ev(&Term::gen("i", 0, c(1)), &e), TlValue::Arr(vec![]));
    assert_eq!(ev(&Term::sum("i", 0, c(1)), &e), n(0));
    let dot = Term::sum("i", 3, Term::mul(at(v("x"), "i"), at(v("x"), "i")));
    assert_eq!(ev(&dot, &e), n(14));
}

#[test]
fn rule_4_12_access_out_of_bounds_is_zero_of_the_element_type() {
    let m = TlValue::Arr(vec![arr(&[1, 2]), arr(&[3, 4])]);
    let mut e = env(&[("m", m), ("x", arr(&[1, 2, 3]))]);
    e.bind_typed("w", Ty::tensor(&[0, 2]), TlValue::Arr(vec![]));
    let shifted = Term::gen(
        "i",
        3,
        Term::at(v("x"), Index::Aff(Aff::var("i").add(&Aff::constant(1)))),
    );
    assert_eq!(ev(&shifted, &e), arr(&[2, 3, 0]));
    let neg = Term::at(v("x"), Index::constant(-1));
    assert_eq!(ev(&neg, &e), n(0));
    assert_eq!(ev(&Term::at(v("m"), Index::constant(5)), &e), arr(&[0, 0]));
    // The static type gives the zero even for an empty array.
    assert_eq!(ev(&Term::at(v("w"), Index::constant(0)), &e), arr(&[0, 0]));
    let g0 = Term::at(
        Term::gen("i", 0, Term::pair(c(1), v("x"))),
        Index::constant(0),
    );
    assert_eq!(ev(&g0, &e), TlValue::pair(n(0), arr(&[0, 0, 0])));
    // §5.2: an access of a pair of arrays is the pair of accesses.
    let pa = Term::at(Term::pair(v("x"), v("x")), Index::constant(2));
    assert_eq!(ev(&pa, &e), TlValue::pair(n(3), n(3)));
    let pa = Term::at(Term::pair(v("x"), v("x")), Index::constant(3));
    assert_eq!(ev(&pa, &e), TlValue::pair(n(0), n(0)));
}

#[test]
fn rules_4_13_to_4_21_predicates_and_index_expressions() {
    let rel = TlValue::Arr(vec![TlValue::Bool(true), TlValue::Bool(false)]);
    let e = env(&[("r", rel), ("x", arr(&[5, 6, 7, 8]))]);
    let masked = |p: Pred| ev(&Term::gen("i", 4, Term::bracket(p, at(v("x"), "i"))), &e);
    let i = || Index::var("i");
    assert_eq!(
        masked(cmp(CmpOp::Lt, i(), Index::constant(2))),
        arr(&[5, 6, 0, 0])
    );
    assert_eq!(
        masked(cmp(CmpOp::Le, i(), Index::constant(2))),
        arr(&[5, 6, 7, 0])
    );
    assert_eq!(
        masked(cmp(CmpOp::Eq, i(), Index::constant(2))),
        arr(&[0, 0, 7, 0])
    );
    assert_eq!(
        masked(cmp(CmpOp::Ne, i(), Index::constant(2))),
        arr(&[5, 6, 0, 8])
    );
    // Relations read out of bounds are false.
    assert_eq!(masked(Pred::Rel("r".into(), vec![i()])), arr(&[5, 0, 0, 0]));
    let p = Pred::or(
        Pred::and(
            cmp(CmpOp::Le, Index::constant(1), i()),
            cmp(CmpOp::Lt, i(), Index::constant(3)),
        ),
        Pred::cmp(CmpOp::Eq, i(), Index::constant(0)),
    );
    assert_eq!(masked(p.clone()), arr(&[5, 6, 7, 0]));
    assert_eq!(masked(Pred::not(p)), arr(&[0, 0, 0, 8]));
    // exists j:2. i == j + 2  (i + j == k style affine equalities)
    let ij = Index::Aff(Aff::var("j").add(&Aff::constant(2)));
    let ex = Pred::exists("j", 2, cmp(CmpOp::Eq, i(), ij));
    assert_eq!(masked(ex), arr(&[0, 0, 7, 8]));
    assert_eq!(masked(Pred::exists("j", 0, Pred::True)), arr(&[0, 0, 0, 0]));
    // 4.18–4.21: index variables, constants, +, constant scaling: x[3 - i].
    let rev = Term::gen(
        "i",
        4,
        Term::at(v("x"), Index::Aff(Aff::constant(3).sub(&Aff::var("i")))),
    );
    assert_eq!(ev(&rev, &e), arr(&[8, 7, 6, 5]));
}

#[test]
fn extensions_data_predicates_and_opaque_integers() {
    let ints = TlValue::Arr(vec![TlValue::Int(3), TlValue::Int(0)]);
    let e = env(&[("x", arr(&[-1, 2, 0])), ("k", ints)]);
    // E1: [x[i] <= 0] x[i], comparing primal values.
    let p = Pred::Data(
        CmpOp::Le,
        DataRef::read("x", vec![PathStep::At(Index::var("i"))]),
        DataRef::Const(rat(0)),
    );
    let relu = Term::gen("i", 3, Term::bracket(Pred::not(p), at(v("x"), "i")));
    assert_eq!(ev(&relu, &e), arr(&[0, 2, 0]));
    // E3: x[(i + 1) % 3], x[k[i]] (out of bounds reads of integer data are 0), and
    // total floor division (x / 0 = 0).
    let var = |s: &str| Box::new(IExpr::Var(s.into()));
    let rot = IExpr::Mod(
        Box::new(IExpr::Add(var("i"), Box::new(IExpr::Const(1)))),
        Box::new(IExpr::Const(3)),
    );
    assert_eq!(
        ev(&Term::gen("i", 3, Term::at(v("x"), Index::Opaque(rot))), &e),
        arr(&[2, 0, -1])
    );
    let rd = IExpr::Read("k".into(), vec![Index::var("i")]);
    assert_eq!(
        ev(&Term::gen("i", 3, Term::at(v("x"), Index::Opaque(rd))), &e),
        arr(&[0, -1, -1])
    );
    let div = IExpr::Div(var("i"), Box::new(IExpr::Const(0)));
    assert_eq!(
        ev(
            &Term::gen("i", 2, Term::index_const(Index::Opaque(div))),
            &e
        ),
        arr(&[0, 0])
    );
    // A data read out of bounds before its last step is 0 (regression: it returned the
    // zero row and failed).
    let m = TlValue::Arr(vec![arr(&[4, 5])]);
    let e2 = env(&[("m", m)]);
    let outer = DataRef::read(
        "m",
        vec![
            PathStep::At(Index::constant(1)),
            PathStep::At(Index::constant(0)),
        ],
    );
    let eq0 = Pred::Data(CmpOp::Eq, outer, DataRef::Const(rat(0)));
    assert_eq!(ev(&Term::bracket(eq0, Term::int(7)), &e2), n(7));
    let fl = IExpr::Floor(DataRef::Const(rat(-3) / rat(2)));
    assert_eq!(ev(&Term::index_const(Index::Opaque(fl)), &e), n(-2));
}

#[test]
fn ill_typed_terms_are_errors_not_panics() {
    let e = env(&[("x", arr(&[1, 2]))]);
    for t in [
        Term::add(v("x"), c(1)),
        Term::at(c(1), Index::constant(0)),
        Term::proj(0, c(1)),
        v("y"),
        Term::at(v("x"), Index::var("i")),
    ] {
        let err = eval_term(&t, &e).unwrap_err();
        assert!(
            matches!(err.kind, ErrorKind::Type | ErrorKind::Name),
            "{t}: {err:?}"
        );
    }
}

#[test]
fn iso_eq_compares_up_to_struct_of_arrays() {
    let aos = TlValue::Arr(vec![TlValue::pair(n(1), n(2)), TlValue::pair(n(3), n(4))]);
    let soa = TlValue::pair(arr(&[1, 3]), arr(&[2, 4]));
    assert!(V::iso_eq(&aos, &soa));
    assert!(!V::iso_eq(&aos, &TlValue::pair(arr(&[1, 3]), arr(&[2, 5]))));
    assert!(V::iso_eq(
        &TlValue::Arr(vec![]),
        &TlValue::pair(arr(&[]), arr(&[]))
    ));
    assert!(!V::iso_eq(&arr(&[1]), &n(1)));
}

#[test]
fn tl_jvp_is_evaluation_over_dual_numbers() {
    // f(x) = sum i. x[i] * x[i] + recip(x[0]);  Df(x; dx) = 2 x·dx - dx[0] / x[0]^2.
    let t = Term::add(
        Term::sum("i", 3, Term::mul(at(v("x"), "i"), at(v("x"), "i"))),
        Term::call(BlackBox::Recip, Term::at(v("x"), Index::constant(0))),
    );
    let e = env(&[("x", arr(&[1, 2, 3])), ("c", n(9))]);
    let (val, tan) = tl_jvp(&t, &e, &[("x".into(), arr(&[1, 0, 2]))]).unwrap();
    assert_eq!(val, n(15));
    assert_eq!(tan, n(2 + 12 - 1));
    // Data predicates use primal values only; their derivative follows the branch.
    let p = Pred::Data(
        CmpOp::Lt,
        DataRef::read("c", vec![]),
        DataRef::Const(rat(10)),
    );
    let sel = Term::bracket(p, Term::mul(v("c"), v("c")));
    let (val, tan) = tl_jvp(&sel, &e, &[("c".into(), n(1))]).unwrap();
    assert_eq!((val, tan), (n(81), n(18)));
}

#[test]
fn eval_ssa_runs_the_convolution_golden() {
    let acc = |x: &str, idx: &[&str]| Access {
        var: x.into(),
        idx: idx.iter().map(|s| s.to_string()).collect(),
    };
    let d = |names: &[(&str, u64)]| names.iter().map(|(i, k)| (i.to_string(), *k)).collect();
    let eqp = |a: &str, b: Index| cmp(CmpOp::Eq, Index::var(a), b);
    let p = SsaProgram {
        inputs: vec![
            ("x".into(), Ty::tensor(&[5])),
            ("w".into(), Ty::tensor(&[3])),
        ],
        stmts: vec![
            Stmt {
                var: "a".into(),
                ty: Ty::tensor(&[3, 3]),
                rhs: Rhs::Contract {
                    dims: d(&[("i", 3), ("j", 3)]),
                    sums: d(&[("k", 3)]),
                    pred: eqp("k", Index::var("j")),
                    y: acc("w", &["k"]),
                    z: None,
                },
            },
            Stmt {
                var: "b".into(),
                ty: Ty::tensor(&[3, 3]),
                rhs: Rhs::Contract {
                    dims: d(&[("i", 3), ("j", 3)]),
                    sums: d(&[("k", 5)]),
                    pred: eqp("k", Index::Aff(Aff::var("i").add(&Aff::var("j")))),
                    y: acc("x", &["k"]),
                    z: None,
                },
            },
            Stmt {
                var: "z".into(),
                ty: Ty::tensor(&[3]),
                rhs: Rhs::Contract {
                    dims: d(&[("i", 3)]),
                    sums: d(&[("j", 3)]),
                    pred: Pred::True,
                    y: acc("a", &["i", "j"]),
                    z: Some(acc("b", &["i", "j"])),
                },
            },
        ],
        output: SsaOut::Var("z".into()),
    };
    let r = eval_ssa(&p, &[arr(&[1, 2, 3, 4, 5]), arr(&[1, 2, -1])]).unwrap();
    assert_eq!(r, arr(&[2, 4, 6]));
    let err = eval_ssa(&p, &[arr(&[1, 2, 3, 4, 5])]).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Input);
}
