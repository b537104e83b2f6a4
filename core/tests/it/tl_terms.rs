//! The tensor language's term utilities (docs/engines/tssa-language.md): affine
//! arithmetic, free variables, capture-avoiding substitution (also into data
//! predicates), renaming, typing, the let-block embedding of Tensor-SSA, printing.

use adora_core::diag::ErrorKind;
use adora_core::tl::{
    free_vars, freshen, rat, ssa_to_term, subst, subst_index, type_of, type_of_iso, Access, Aff,
    BlackBox, CmpOp, ConstVal, DataRef, IExpr, Index, NameSupply, PathStep, Pred, Rhs, SsaOut,
    SsaProgram, Stmt, Term, Ty,
};

fn v(x: &str) -> Term {
    Term::var(x)
}

fn ieq(a: Index, b: Index) -> Pred {
    Pred::cmp(CmpOp::Eq, a, b)
}

#[test]
fn aff_arithmetic_is_normalised() {
    let i = Aff::var("i");
    let j = Aff::var("j");
    let a = i.add(&j.scale(2)).add(&Aff::constant(3));
    assert_eq!(
        a.eval(|n| Some(if n == "i" { 5 } else { 7 })),
        Some(5 + 14 + 3)
    );
    assert_eq!(a.sub(&i).coeff("i"), 0);
    assert!(!a.sub(&i).terms.contains_key("i"));
    assert_eq!(a.scale(0), Aff::constant(0));
    assert_eq!(i.as_var(), Some("i"));
    assert_eq!(a.as_var(), None);
    assert_eq!(Aff::constant(4).as_const(), Some(4));
    assert_eq!(a.eval(|_| None), None);
    // i*j is not affine; (2*i + 1) - i is.
    let e = IExpr::Mul(
        Box::new(IExpr::Var("i".into())),
        Box::new(IExpr::Var("j".into())),
    );
    assert!(matches!(Index::from_iexpr(e), Index::Opaque(_)));
    assert_eq!(
        Index::from_iexpr(a.to_iexpr()),
        Index::Aff(a.clone()),
        "to_iexpr and back"
    );
}

#[test]
fn free_variables_respect_binders() {
    // let y = x in gen i:3. [i == k] (y[i] + z)
    let t = Term::let_(
        "y",
        v("x"),
        Term::gen(
            "i",
            3,
            Term::bracket(
                ieq(Index::var("i"), Index::var("k")),
                Term::add(Term::at(v("y"), Index::var("i")), v("z")),
            ),
        ),
    );
    let fv = free_vars(&t);
    assert_eq!(fv.values.into_iter().collect::<Vec<_>>(), vec!["x", "z"]);
    assert_eq!(fv.indices.into_iter().collect::<Vec<_>>(), vec!["k"]);
}

#[test]
fn substitution_avoids_capture_of_index_variables() {
    // (gen i:3. x * y[i]){x := z[i]}: the binder i must be renamed.
    let t = Term::gen("i", 3, Term::mul(v("x"), Term::at(v("y"), Index::var("i"))));
    let s = subst(&t, "x", &Term::at(v("z"), Index::var("i"))).unwrap();
    let Term::Gen(j, 3, body) = &s else {
        panic!("{s}")
    };
    assert_ne!(j, "i");
    assert_eq!(
        **body,
        Term::mul(
            Term::at(v("z"), Index::var("i")),
            Term::at(v("y"), Index::var(j.as_str()))
        )
    );
}

#[test]
fn substitution_avoids_capture_of_value_variables_and_respects_shadowing() {
    // (let y = 1 in x + y){x := y}: the let binder is renamed.
    let t = Term::let_("y", Term::int(1), Term::add(v("x"), v("y")));
    let s = subst(&t, "x", &v("y")).unwrap();
    let Term::Let(y2, _, body) = &s else { panic!() };
    assert_ne!(y2, "y");
    assert_eq!(**body, Term::add(v("y"), v(y2)));
    // (let x = x in x){x := 2}: only the bound term is substituted.
    let t = Term::let_("x", v("x"), v("x"));
    assert_eq!(
        subst(&t, "x", &Term::int(2)).unwrap(),
        Term::let_("x", Term::int(2), v("x"))
    );
}

#[test]
fn substitution_extends_data_paths() {
    // [{x[j] <= 0}] 1, x := t.0[i]  ~>  [{t.0[i][j] <= 0}] 1
    let p = Pred::Data(
        CmpOp::Le,
        DataRef::read("x", vec![PathStep::At(Index::var("j"))]),
        DataRef::Const(rat(0)),
    );
    let t = Term::bracket(p, Term::int(1));
    let e = Term::at(Term::proj(0, v("t")), Index::var("i"));
    let s = subst(&t, "x", &e).unwrap();
    let want = Pred::Data(
        CmpOp::Le,
        DataRef::read(
            "t",
            vec![
                PathStep::Proj(0),
                PathStep::At(Index::var("i")),
                PathStep::At(Index::var("j")),
            ],
        ),
        DataRef::Const(rat(0)),
    );
    assert_eq!(s, Term::bracket(want, Term::int(1)));
    // Relation reads extend by accesses.
    let r = Term::bracket(Pred::Rel("b".into(), vec![Index::var("j")]), Term::int(1));
    let s = subst(&r, "b", &Term::at(v("c"), Index::constant(2))).unwrap();
    assert_eq!(
        s,
        Term::bracket(
            Pred::Rel("c".into(), vec![Index::constant(2), Index::var("j")]),
            Term::int(1)
        )
    );
    // A non-path term in a path position is an internal error.
    let err = subst(&t, "x", &Term::add(v("a"), v("b"))).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Internal);
}

#[test]
fn index_substitution_composes_affine_forms() {
    // (x[2*i + 1]){i := j - 1} = x[2*j - 1]
    let a = Aff::var("i").scale(2).add(&Aff::constant(1));
    let t = Term::at(v("x"), Index::Aff(a));
    let s = subst_index(&t, "i", &Index::Aff(Aff::var("j").sub(&Aff::constant(1)))).unwrap();
    let want = Aff::var("j").scale(2).sub(&Aff::constant(1));
    assert_eq!(s, Term::at(v("x"), Index::Aff(want)));
    // With an opaque substitute the index becomes opaque.
    let m = IExpr::Mod(Box::new(IExpr::Var("k".into())), Box::new(IExpr::Const(2)));
    let s = subst_index(&t, "i", &Index::Opaque(m)).unwrap();
    assert!(matches!(s, Term::Access(_, Index::Opaque(_))), "{s}");
    // Binders capturing the substitute's variables are renamed.
    let t = Term::sum(
        "j",
        2,
        Term::at(v("x"), Index::Aff(Aff::var("i").add(&Aff::var("j")))),
    );
    let s = subst_index(&t, "i", &Index::var("j")).unwrap();
    let Term::Sum(j2, _, body) = &s else { panic!() };
    assert_ne!(j2, "j");
    assert_eq!(
        **body,
        Term::at(
            v("x"),
            Index::Aff(Aff::var("j").add(&Aff::var(j2.as_str())))
        )
    );
}

#[test]
fn freshen_makes_binders_unique() {
    let body = Term::gen("i", 2, Term::at(v("x"), Index::var("i")));
    let t = Term::pair(body.clone(), Term::let_("x", body.clone(), v("x")));
    let mut names = NameSupply::new();
    let f = freshen(&t, &mut names);
    let Term::Pair(a, b) = &f else { panic!() };
    let (Term::Gen(i1, _, _), Term::Let(x2, e, _)) = (&**a, &**b) else {
        panic!("{f}")
    };
    let Term::Gen(i2, _, _) = &**e else { panic!() };
    assert!(i1 != i2 && i1 != "i" && i2 != "i" && x2 != "x");
    assert_eq!(free_vars(&f), free_vars(&t));
}

#[test]
fn typing_rules() {
    let inputs = vec![
        ("x".to_string(), Ty::tensor(&[3])),
        ("p".to_string(), Ty::arr(2, Ty::pair(Ty::Num, Ty::Num))),
        ("r".to_string(), Ty::arr(3, Ty::Bool)),
    ];
    let ok = Term::sum(
        "i",
        3,
        Term::bracket(
            Pred::Rel("r".into(), vec![Index::var("i")]),
            Term::call(BlackBox::Pow(2), Term::at(v("x"), Index::var("i"))),
        ),
    );
    assert_eq!(type_of(&ok, &inputs).unwrap(), Ty::Num);
    // `[p] e` at any type.
    let arr = Term::bracket(Pred::True, v("x"));
    assert_eq!(type_of(&arr, &inputs).unwrap(), Ty::tensor(&[3]));
    // `+` on arrays, sum of an array, access of a number, unbound index: errors.
    for (bad, kind) in [
        (Term::add(v("x"), v("x")), ErrorKind::Type),
        (Term::sum("i", 3, v("x")), ErrorKind::Type),
        (Term::at(Term::int(1), Index::constant(0)), ErrorKind::Type),
        (Term::at(v("x"), Index::var("k")), ErrorKind::Name),
        (v("r"), ErrorKind::Type),
        (v("nope"), ErrorKind::Name),
    ] {
        assert_eq!(type_of(&bad, &inputs).unwrap_err().kind, kind, "{bad}");
    }
    // p.0 is typed only up to the isomorphism.
    let proj = Term::proj(0, v("p"));
    assert_eq!(type_of(&proj, &inputs).unwrap_err().kind, ErrorKind::Type);
    assert_eq!(type_of_iso(&proj, &inputs).unwrap(), Ty::tensor(&[2]));
}

#[test]
fn ssa_embedding_writes_out_each_form() {
    let dims = vec![("i".to_string(), 3u64)];
    let p = SsaProgram {
        inputs: vec![("x".into(), Ty::tensor(&[3]))],
        stmts: vec![
            Stmt {
                var: "c".into(),
                ty: Ty::tensor(&[3]),
                rhs: Rhs::Const {
                    dims: dims.clone(),
                    pred: Pred::True,
                    value: ConstVal::Num(rat(2)),
                },
            },
            Stmt {
                var: "s".into(),
                ty: Ty::Num,
                rhs: Rhs::Contract {
                    dims: vec![],
                    sums: dims.clone(),
                    pred: Pred::True,
                    y: Access {
                        var: "c".into(),
                        idx: vec!["i".into()],
                    },
                    z: Some(Access {
                        var: "x".into(),
                        idx: vec!["i".into()],
                    }),
                },
            },
        ],
        output: SsaOut::Var("s".into()),
    };
    let t = ssa_to_term(&p);
    assert_eq!(
        t.to_string(),
        "let c = gen i:3. [true] 2 in let s = sum i:3. [true] (c[i] * x[i]) in s"
    );
    assert_eq!(type_of(&t, &p.inputs).unwrap(), Ty::Num);
    assert_eq!(
        p.to_string(),
        "input x: [3]num\nlet c: [3]num = gen (i:3). 2\nlet s: num = sum (i:3). c[i] * x[i]\nreturn s"
    );
}

#[test]
fn printing_follows_the_notation_table() {
    let t = Term::gen(
        "i",
        3,
        Term::bracket(
            ieq(Index::var("i"), Index::var("j")),
            Term::at(v("x"), Index::var("i")),
        ),
    );
    assert_eq!(t.to_string(), "gen i:3. [i == j] x[i]");
    let s = Term::add(
        Term::bracket(Pred::True, v("a")),
        Term::mul(v("b"), Term::add(v("c"), Term::num(rat(-1)))),
    );
    assert_eq!(s.to_string(), "[true] a + b * (c + -1)");
    let l = Term::let_("y", Term::pair(v("a"), v("b")), Term::proj(1, v("y")));
    assert_eq!(l.to_string(), "let y = (a, b) in y.1");
    let a = Aff::var("i")
        .add(&Aff::var("j").scale(-2))
        .sub(&Aff::constant(1));
    assert_eq!(a.to_string(), "i - 2*j - 1");
}
