//! The tensor language's cost model `C` (seed 001 §4.3, rules 4.22–4.34) against the
//! closed forms of docs/engines/tssa-language.md ("Cost C") and the worked examples.

use adora_core::tl::{rat, Aff, BlackBox, CmpOp, DataRef, Index, PathStep, Pred, Term, Ty};
use adora_costmodel::tl::{cost_c, type_size};
use adora_semantics::tl::{TlEnv, TlValue};
use adora_semantics::Rat;

fn arr(xs: &[i64]) -> TlValue<Rat> {
    TlValue::Arr(xs.iter().map(|&k| TlValue::Num(rat(k))).collect())
}
fn mat(rows: &[&[i64]]) -> TlValue<Rat> {
    TlValue::Arr(rows.iter().map(|r| arr(r)).collect())
}
fn v(x: &str) -> Term {
    Term::var(x)
}
fn at(t: Term, i: &str) -> Term {
    Term::at(t, Index::var(i))
}
fn at2(x: &str, i: &str, j: &str) -> Term {
    at(at(v(x), i), j)
}
fn cmp(op: CmpOp, a: Index, b: Index) -> Pred {
    Pred::cmp(op, a, b)
}
fn iv(i: &str) -> Index {
    Index::var(i)
}
fn cost(t: &Term, bs: &[(&str, TlValue<Rat>)]) -> u64 {
    let mut e = TlEnv::new();
    for (x, val) in bs {
        e.bind(*x, val.clone());
    }
    cost_c(t, &e).unwrap_or_else(|e| panic!("{t}: {}", e.message))
}

#[test]
fn dot_product_costs_2n_minus_1() {
    for n in 0..6u64 {
        let xs: Vec<i64> = (0..n as i64).collect();
        let t = Term::sum("i", n, Term::mul(at(v("x"), "i"), at(v("y"), "i")));
        let want = if n == 0 { 0 } else { 2 * n - 1 };
        assert_eq!(
            cost(&t, &[("x", arr(&xs)), ("y", arr(&xs))]),
            want,
            "n = {n}"
        );
    }
}

#[test]
fn rule_4_24_iverson_discount_on_immediate_predicates() {
    // [p] a*a + [q] b*b: 1 + 1 + [p && q] when both hold, else only the live side.
    let sq = |x: &str| Term::mul(v(x), v(x));
    let e = [("a", TlValue::Num(rat(2))), ("b", TlValue::Num(rat(3)))];
    for (p, q, want) in [
        (Pred::True, Pred::True, 3),
        (Pred::True, Pred::False, 1),
        (Pred::False, Pred::True, 1),
        (Pred::False, Pred::False, 0),
    ] {
        let t = Term::add(
            Term::bracket(p.clone(), sq("a")),
            Term::bracket(q.clone(), sq("b")),
        );
        assert_eq!(cost(&t, &e), want, "[{p}] a*a + [{q}] b*b");
    }
    // Only the immediate predicate counts: `([false] a) * 1 + b` pays its addition.
    let hidden = Term::add(
        Term::mul(Term::bracket(Pred::False, v("a")), Term::int(1)),
        v("b"),
    );
    assert_eq!(cost(&hidden, &e), 2);
    // Nested brackets count as the outer one: [true][false] a + b pays 1.
    let nested = Term::add(
        Term::bracket(Pred::True, Term::bracket(Pred::False, v("a"))),
        v("b"),
    );
    assert_eq!(cost(&nested, &e), 1);
}

#[test]
fn skipped_entry_costs_n_minus_2() {
    // sum i:5. [i != 3] x[i]: 4 terms, 3 additions (host ops 4).
    let t = Term::sum(
        "i",
        5,
        Term::bracket(cmp(CmpOp::Ne, iv("i"), Index::constant(3)), at(v("x"), "i")),
    );
    assert_eq!(cost(&t, &[("x", arr(&[1, 2, 3, 4, 5]))]), 3);
}

#[test]
fn rule_4_30_composite_sums_are_costed_jointly() {
    // sum i:3. sum j:3. [j <= i] a[i][j]: 6 terms, 5 additions (not 0+1+2 + 2).
    let a = mat(&[&[1, 2, 3], &[4, 5, 6], &[7, 8, 9]]);
    let t = Term::sum(
        "i",
        3,
        Term::sum(
            "j",
            3,
            Term::bracket(cmp(CmpOp::Le, iv("j"), iv("i")), at2("a", "i", "j")),
        ),
    );
    assert_eq!(cost(&t, &[("a", a.clone())]), 5);
    // A sum with no satisfying term costs 0; a let between sums breaks the chain.
    let none = Term::sum("i", 3, Term::bracket(Pred::False, at(v("x"), "i")));
    assert_eq!(cost(&none, &[("x", arr(&[1, 2, 3]))]), 0);
    let broken = Term::sum(
        "i",
        3,
        Term::let_("r", at(v("a"), "i"), Term::sum("j", 3, at(v("r"), "j"))),
    );
    assert_eq!(cost(&broken, &[("a", a)]), 3 * 2 + 2);
}

#[test]
fn lower_triangular_matvec_costs_9() {
    // linalg/iverson.adl: gen i:3. sum j:3. [j <= i] a[i][j] * x[j].
    let t = Term::gen(
        "i",
        3,
        Term::sum(
            "j",
            3,
            Term::bracket(
                cmp(CmpOp::Le, iv("j"), iv("i")),
                Term::mul(at2("a", "i", "j"), at(v("x"), "j")),
            ),
        ),
    );
    let a = mat(&[&[1, 2, 3], &[4, 5, 6], &[7, 8, 10]]);
    assert_eq!(cost(&t, &[("a", a), ("x", arr(&[1, 2, 3]))]), 9);
}

#[test]
fn convolution_and_traces() {
    // f.1: gen i:3. sum j:3. w[j] * x[i + j] costs m(2K - 1) = 15.
    let xij = Term::at(v("x"), Index::Aff(Aff::var("i").add(&Aff::var("j"))));
    let conv = Term::gen("i", 3, Term::sum("j", 3, Term::mul(at(v("w"), "j"), xij)));
    assert_eq!(
        cost(
            &conv,
            &[("x", arr(&[1, 2, 3, 4, 5])), ("w", arr(&[1, 2, -1]))]
        ),
        15
    );
    // f.2: the sum of k = 4 traces of a 3×3 matrix costs k(n-1) + (k-1) = 11.
    let tr = || Term::sum("i", 3, at2("a", "i", "i"));
    let t = Term::add(Term::add(Term::add(tr(), tr()), tr()), tr());
    let a = mat(&[&[1, 2, 3], &[4, 5, 6], &[7, 8, 10]]);
    assert_eq!(cost(&t, &[("a", a.clone())]), 11);
    // f.5: eye ∘ trace costs 2.
    let eye = Term::let_(
        "s",
        tr(),
        Term::gen(
            "p",
            3,
            Term::gen(
                "q",
                3,
                Term::bracket(cmp(CmpOp::Eq, iv("p"), iv("q")), v("s")),
            ),
        ),
    );
    assert_eq!(cost(&eye, &[("a", a)]), 2);
}

#[test]
fn rule_4_32_lets_and_the_worked_examples_of_the_passes() {
    let x4 = [("x", arr(&[1, 2, 3, 4]))];
    // f.6: sum i:4. [i <= 1] let t = x[i]*x[i] in t + t costs 5 before let-lifting …
    let le1 = || cmp(CmpOp::Le, iv("i"), Index::constant(1));
    let sq = || Term::mul(at(v("x"), "i"), at(v("x"), "i"));
    let before = Term::sum(
        "i",
        4,
        Term::bracket(le1(), Term::let_("t", sq(), Term::add(v("t"), v("t")))),
    );
    assert_eq!(cost(&before, &x4), 5);
    // … and after: let t' = gen i:4. [i <= 1] x[i]*x[i] in sum i:4. [i <= 1] (t'[i] + t'[i]).
    let tt = || at(v("t2"), "i");
    let after = Term::let_(
        "t2",
        Term::gen("i", 4, Term::bracket(le1(), sq())),
        Term::sum("i", 4, Term::bracket(le1(), Term::add(tt(), tt()))),
    );
    assert_eq!(cost(&after, &x4), 5);
    // Without the predicate on the binding: 7.
    let unguarded = Term::let_(
        "t2",
        Term::gen("i", 4, sq()),
        Term::sum("i", 4, Term::bracket(le1(), Term::add(tt(), tt()))),
    );
    assert_eq!(cost(&unguarded, &x4), 7);
    // f.8: let y = gen i:4. x[i]*x[i] in (gen j:4. y[j]*y[j])[1] costs 8; after 5.21, 5.
    let y = Term::gen("i", 4, sq());
    let g = Term::gen("j", 4, Term::mul(at(v("y"), "j"), at(v("y"), "j")));
    let t = Term::let_("y", y.clone(), Term::at(g, Index::constant(1)));
    assert_eq!(cost(&t, &x4), 8);
    let one = || Term::at(v("y"), Index::constant(1));
    let t = Term::let_("y", y, Term::bracket(Pred::True, Term::mul(one(), one())));
    assert_eq!(cost(&t, &x4), 5);
    // f.9: dead lets cost nothing.
    let dead = Term::let_("y1", v("z"), Term::mul(Term::int(3), v("z")));
    assert_eq!(cost(&dead, &[("z", TlValue::Num(rat(2)))]), 1);
}

#[test]
fn pair_elimination_example_costs_8_then_11_then_8() {
    // f.7: let p = gen i:3. (x[i], x[i]*x[i]) in sum i:3. p[i].0 * p[i].1.
    let x = [("x", arr(&[1, 2, 3]))];
    let xi = || at(v("x"), "i");
    let gp = || Term::gen("i", 3, Term::pair(xi(), Term::mul(xi(), xi())));
    let t = Term::let_(
        "p",
        gp(),
        Term::sum(
            "i",
            3,
            Term::mul(
                Term::proj(0, at(v("p"), "i")),
                Term::proj(1, at(v("p"), "i")),
            ),
        ),
    );
    assert_eq!(cost(&t, &x), 8);
    // After 5.18 alone the x*x is duplicated: 11.
    let body = Term::sum("i", 3, Term::mul(at(v("p0"), "i"), at(v("p1"), "i")));
    let t = Term::let_(
        "p0",
        Term::proj(0, gp()),
        Term::let_("p1", Term::proj(1, gp()), body.clone()),
    );
    assert_eq!(cost(&t, &x), 11);
    // The normal form: 8.
    let t = Term::let_(
        "p0",
        Term::gen("i", 3, xi()),
        Term::let_("p1", Term::gen("i", 3, Term::mul(xi(), xi())), body),
    );
    assert_eq!(cost(&t, &x), 8);
}

#[test]
fn data_predicates_make_the_cost_value_dependent() {
    // gen i:3. [{x[i] <= 0}] x[i]*x[i] + [!{x[i] <= 0}] x[i]: one multiplication per
    // non-positive entry, no additions (disjoint predicates).
    let le = Pred::Data(
        CmpOp::Le,
        DataRef::read("x", vec![PathStep::At(iv("i"))]),
        DataRef::Const(rat(0)),
    );
    let xi = || at(v("x"), "i");
    let t = Term::gen(
        "i",
        3,
        Term::add(
            Term::bracket(le.clone(), Term::mul(xi(), xi())),
            Term::bracket(Pred::not(le), xi()),
        ),
    );
    assert_eq!(cost(&t, &[("x", arr(&[-1, 2, 0]))]), 2);
    assert_eq!(cost(&t, &[("x", arr(&[1, 2, 3]))]), 0);
    // A let-bound value read by a predicate is computed; a transcendental one that no
    // predicate reads is not (exact costing still works).
    let g = Term::let_(
        "e",
        Term::call(BlackBox::Exp, at(v("x"), "i")),
        Term::add(v("e"), Term::int(1)),
    );
    assert_eq!(cost(&Term::gen("i", 3, g), &[("x", arr(&[1, 2, 3]))]), 6);
}

#[test]
fn type_sizes() {
    assert_eq!(type_size(&Ty::Num), 1);
    assert_eq!(type_size(&Ty::tensor(&[3, 4])), 12);
    assert_eq!(type_size(&Ty::pair(Ty::tensor(&[2]), Ty::Num)), 3);
    assert_eq!(type_size(&Ty::arr(5, Ty::Bool)), 0);
    assert_eq!(type_size(&Ty::tensor(&[0, 7])), 0);
}
