//! The concrete model (docs/engines/pullback.md, "The model") on the golden files: the
//! value, the gradient row (`pb(f, omega) s` observed on the basis), the VJP, the JVP and
//! the normal forms the headers state, computed by tagged dual numbers independently of the
//! reducer; and the model's own laws (nested derivatives, perturbation confusion, decline).

use adora_pullback::file;
use adora_pullback::model::{observe_term, DEFAULT_FUEL};
use adora_pullback::parse;
use adora_pullback::syntax::{Fresh, Term, Ty};
use adora_pullback::types;
use adora_semantics::Rat;
use std::path::Path;

fn point(ty: &Ty, vals: &[Rat]) -> Term {
    fn go(ty: &Ty, it: &mut std::slice::Iter<Rat>) -> Term {
        match ty {
            Ty::Pair(a, b) => Term::pair(go(a, it), go(b, it)),
            _ => Term::num(it.next().expect("enough numbers").clone()),
        }
    }
    go(ty, &mut vals.iter())
}

fn obs(t: &Term) -> Vec<Rat> {
    let ty = types::infer(t, &[]).expect("typed");
    observe_term(t, &ty, DEFAULT_FUEL).expect("the model evaluates the term")
}

/// The row of a covector: its observation lists the values on the basis first (then on
/// the model's test vectors).
fn row(t: &Term, n: usize) -> Vec<Rat> {
    obs(t)[..n].to_vec()
}

#[test]
fn the_model_agrees_with_every_golden_header() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../specs/programs/pullback");
    let mut checked = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let path = e.path();
        if path.extension().is_none_or(|x| x != "adp") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let f = file::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let h = &f.header;
        let mut fresh = Fresh::above(&f.term);
        if let Some((_, p)) = &h.input {
            let s = point(&p.ty, &p.values);
            if let Some(v) = &h.value {
                assert_eq!(
                    obs(&Term::app(f.term.clone(), s.clone())),
                    v.values,
                    "{name}: value"
                );
            }
            if let Some(g) = &h.grad {
                let t = Term::app(Term::pb(f.term.clone(), Term::omega(&mut fresh)), s.clone());
                assert_eq!(row(&t, g.values.len()), g.values, "{name}: gradient");
                checked += 1;
            }
            if let (Some(dx), Some(j)) = (&h.tangent, &h.jvp) {
                let t = Term::app(Term::jac(f.term.clone(), point(&dx.ty, &dx.values)), s);
                assert_eq!(obs(&t), j.values, "{name}: jvp");
            }
        } else if let Some(nf) = &h.normal_form {
            if let Ok(n) = parse::term(nf) {
                if let adora_pullback::syntax::TermKind::Num(r) = n.kind {
                    assert_eq!(obs(&f.term), vec![r], "{name}: normal form");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 10, "only {checked} goldens checked");
}

#[test]
fn nested_derivatives_do_not_confuse_perturbations() {
    // f.8: d/dx (x · d/dy (x + y)) = 1; a confused model answers 2.
    let t =
        parse::term_closed("pb(\\x. mul (x, (pb(\\y. add (x, y), omega) 1) 1), omega) 1").unwrap();
    assert_eq!(row(&t, 1), vec![Rat::from_integer(1.into())]);
    // Second derivative of y³ at 3 by nesting: 6·3 = 18.
    let t =
        parse::term_closed("pb(\\x. (pb(\\y. mul (y, mul (y, y)), omega) x) 1, omega) 3").unwrap();
    assert_eq!(row(&t, 1), vec![Rat::from_integer(18.into())]);
    // A derivative returning a function applied under another derivative's perturbation
    // (Manzyuk et al.): d/dx [ (J(\a. \b. mul (a, b), 1) x) (x) ] = d/dx x = 1.
    let t = parse::term_closed("J(\\x. (J(\\a. \\b. mul (a, b), 1) x) x, 1) 2").unwrap();
    assert_eq!(obs(&t), vec![Rat::from_integer(1.into())]);
}

#[test]
fn the_model_declines_transcendental_symbols() {
    let t = parse::term_closed("exp 1").unwrap();
    let err = observe_term(&t, &Ty::Real, DEFAULT_FUEL).unwrap_err();
    assert!(err.contains("transcendental"), "{err}");
}
