//! Unit tests of the generators: well-typedness (by the real checker), fragment
//! membership, growth with the size parameter,
//! construct coverage, shrinking, and the quickcheck `Arbitrary`.

use adora_core::check;
use adora_proptests::gen::coverage::{constructs, expected};
use adora_proptests::gen::qc::QcProgram;
use adora_proptests::gen::shrink::candidates;
use adora_proptests::gen::typing::SurfaceTypes;
use adora_proptests::gen::{generate, Case, Fragment, GenSpec, RetKind};
use adora_proptests::values::rat;
use quickcheck::{QuickCheck, TestResult};
use std::collections::BTreeSet;

/// Checks a case with `adora_core::check`.
fn well_typed(c: &Case) -> Result<(), String> {
    if c.main().params.len() != c.inputs.len() {
        return Err(format!("inputs do not match parameters\n{c:?}"));
    }
    check::check_program(&c.program).map_err(|d| format!("checker: {d}\n{c:?}"))?;
    let f = check::elaborate(&c.program, "main").map_err(|d| format!("elaborate: {d}\n{c:?}"))?;
    check::check_function(&f).map_err(|d| format!("check_function: {d}\n{c:?}"))
}

#[test]
fn every_surface_node_is_typed_by_the_checker() {
    for f in Fragment::ALL {
        for seed in 0..100 {
            let c = generate(&GenSpec::new(f), seed);
            let types = SurfaceTypes::of(&c.program);
            for d in &c.program.defs {
                assert_eq!(types.get(&d.body), Some(&d.ret), "def {}\n{c:?}", d.name);
                for e in adora_core::visit::subexprs(&d.body) {
                    assert!(
                        types.get(e).is_some(),
                        "untyped {}\n{c:?}",
                        adora_core::pretty::expr(e)
                    );
                }
            }
        }
    }
}

fn allowed(f: Fragment) -> BTreeSet<String> {
    expected(f).into_iter().collect()
}

#[test]
fn generated_programs_are_well_typed_and_in_their_fragment() {
    adora_core::with_stack(|| {
        for f in Fragment::ALL {
            let ok = allowed(f);
            for ret in [
                RetKind::Any,
                RetKind::RealScalar,
                RetKind::RealArray,
                RetKind::Real,
            ] {
                for seed in 0..100 {
                    let c = generate(&GenSpec::new(f).ret(ret), seed);
                    assert_eq!(c.fragment, f);
                    well_typed(&c).unwrap();
                    let used = constructs(&c.program);
                    let outside: Vec<_> = used.difference(&ok).collect();
                    assert!(outside.is_empty(), "{f} program uses {outside:?}:\n{c:?}");
                    match ret {
                        RetKind::RealScalar => assert_eq!(c.main().ret, adora_core::Type::real()),
                        RetKind::RealArray => assert!(matches!(
                            c.main().ret,
                            adora_core::Type::Array(adora_core::Base::R, _)
                        )),
                        RetKind::Real => assert!(c.main().ret.has_reals()),
                        RetKind::Any => {}
                    }
                }
            }
        }
    });
}

/// Checks the f64-exact restrictions on one def: dyadic real literals, reals divided only
/// by the literals 2, 4, 0.5, non-negative powers.
fn f64_exact_violation(c: &Case) -> Option<String> {
    use adora_core::ast::{BinOp, ExprKind, Lit, Prim};
    let mut bad = None;
    let types = SurfaceTypes::of(&c.program);
    for d in &c.program.defs {
        for e in adora_core::visit::subexprs(&d.body) {
            match &e.kind {
                ExprKind::Lit(Lit::Real(r))
                    if ![1, 2, 4].contains(&r.denom().to_string().parse::<i64>().unwrap_or(0)) =>
                {
                    bad = Some(format!("literal {r}"));
                }
                ExprKind::Prim(Prim::Pow(k), _) if *k < 0 => {
                    bad = Some(format!("pow exponent {k}"))
                }
                ExprKind::Binary(BinOp::Div, _, b)
                    if types.get(e).is_some_and(|t| t.has_reals()) =>
                {
                    let ok = matches!(&b.kind, ExprKind::Lit(Lit::Real(r)) if [rat(2, 1), rat(4, 1), rat(1, 2)].contains(r));
                    if !ok {
                        bad = Some(format!("real division by {}", adora_core::pretty::expr(b)));
                    }
                }
                _ => {}
            }
        }
    }
    bad
}

#[test]
fn f64_exact_programs_use_dyadic_literals_and_inputs() {
    for f in Fragment::ALL {
        for seed in 0..200 {
            let c = generate(&GenSpec::new(f).f64_exact(), seed);
            if let Some(why) = f64_exact_violation(&c) {
                panic!("{why} in\n{c:?}");
            }
            for x in c.inputs.iter().flat_map(adora_proptests::values::reals) {
                assert!(
                    [1, 2, 4].contains(&x.denom().to_string().parse::<i64>().unwrap_or(0)),
                    "input {x}"
                );
            }
        }
    }
    // Without the restriction, each kind of violation does occur.
    let any = (0..200)
        .any(|s| f64_exact_violation(&generate(&GenSpec::new(Fragment::Scalar), s)).is_some());
    assert!(any);
}

fn mean_nodes(f: Fragment, size: u32) -> f64 {
    let n = 300;
    (0..n)
        .map(|s| generate(&GenSpec::new(f).size(size), s).node_count())
        .sum::<usize>() as f64
        / n as f64
}

#[test]
fn size_grows_with_the_size_parameter() {
    for f in Fragment::ALL {
        let (a, b, c) = (mean_nodes(f, 8), mean_nodes(f, 24), mean_nodes(f, 60));
        println!(
            "{f}: mean nodes at size 8/24/60: {a:.1} / {b:.1} / {c:.1}; default 40: {:.1}",
            mean_nodes(f, 40)
        );
        assert!(a < b && b < c, "{f}: {a} {b} {c}");
        assert!(mean_nodes(f, 40) >= 20.0, "{f} programs are too small");
    }
}

#[test]
fn every_construct_appears_in_500_programs() {
    for f in Fragment::ALL {
        let mut seen = BTreeSet::new();
        for seed in 0..500 {
            seen.extend(constructs(&generate(&GenSpec::new(f), seed).program));
        }
        let missing: Vec<_> = expected(f)
            .into_iter()
            .filter(|c| !seen.contains(c))
            .collect();
        assert!(missing.is_empty(), "{f}: never generated {missing:?}");
    }
}

#[test]
fn generation_is_deterministic_in_the_seed() {
    for f in Fragment::ALL {
        assert_eq!(
            generate(&GenSpec::new(f), 42),
            generate(&GenSpec::new(f), 42)
        );
        assert_ne!(
            generate(&GenSpec::new(f), 42),
            generate(&GenSpec::new(f), 43)
        );
    }
}

#[test]
fn shrinking_reduces_size_and_keeps_well_typedness() {
    adora_core::with_stack(|| {
        for f in Fragment::ALL {
            for seed in 0..25 {
                let c = generate(&GenSpec::new(f), seed);
                let cands = candidates(&c);
                if c.node_count() > 4 {
                    assert!(
                        cands.iter().any(|d| d.node_count() < c.node_count()),
                        "no smaller candidate for\n{c:?}"
                    );
                }
                for d in &cands {
                    assert!(
                        d.node_count() <= c.node_count(),
                        "a candidate grew:\n{c:?}\n->\n{d:?}"
                    );
                    assert_ne!(d, &c, "a candidate equals the case");
                    well_typed(d).unwrap();
                }
            }
        }
    });
}

#[test]
fn repeated_shrinking_reaches_a_small_program() {
    // Greedily take the first candidate until none is left: the result is tiny.
    for f in Fragment::ALL {
        let mut c = generate(&GenSpec::new(f), 9);
        for _ in 0..10_000 {
            match candidates(&c).into_iter().next() {
                Some(d) => c = d,
                None => break,
            }
        }
        assert!(c.node_count() <= 4, "{c:?}");
    }
}

fn qc_roundtrip(p: QcProgram) -> TestResult {
    let c = p.to_case();
    let src = adora_proptests::gen::source(&c.program);
    match adora_core::parse(&src) {
        Ok(q) => TestResult::from_bool(
            q.defs
                .iter()
                .zip(&c.program.defs)
                .all(|(a, b)| a.body == b.body && a.ret == b.ret),
        ),
        Err(d) => TestResult::error(format!("{d}\n{src}")),
    }
}

#[test]
fn quickcheck_generated_programs_print_and_parse_back() {
    QuickCheck::new()
        .tests(200)
        .quickcheck(qc_roundtrip as fn(QcProgram) -> TestResult);
}

#[test]
fn quickcheck_shrinks_with_the_same_steps() {
    let mut g = quickcheck::Gen::new(40);
    let p: QcProgram = quickcheck::Arbitrary::arbitrary(&mut g);
    let shrunk: Vec<QcProgram> = quickcheck::Arbitrary::shrink(&p).collect();
    assert_eq!(shrunk.len(), candidates(&p.to_case()).len());
}

#[test]
fn statistics() {
    for f in Fragment::ALL {
        let n = 500;
        let cases: Vec<Case> = (0..n).map(|s| generate(&GenSpec::new(f), s)).collect();
        let mean = cases.iter().map(Case::node_count).sum::<usize>() as f64 / n as f64;
        let helpers = cases.iter().filter(|c| c.program.defs.len() > 1).count();
        let scalar = cases
            .iter()
            .filter(|c| c.main().ret == adora_core::Type::real())
            .count();
        println!("{f}: mean nodes {mean:.1}; {helpers}/{n} with a helper def; {scalar}/{n} with an R result");
    }
}
