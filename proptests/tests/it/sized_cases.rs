//! Generated cases with size parameters (docs/language.md, "Size parameters"): about a
//! third of the cases give `main` size names, and loading such a case instantiates the
//! text at its inputs' sizes into exactly the generated program.

use adora_proptests::gen::{generate, Case, Fragment, GenSpec};
use adora_proptests::props::util::load;
use adora_semantics::value::Value;

#[test]
fn some_cases_have_size_parameters_and_instantiate_to_the_generated_program() {
    let mut sized = 0;
    let mut total = 0;
    for f in Fragment::ALL {
        for seed in 0..60 {
            let c = generate(&GenSpec::new(f), seed);
            total += 1;
            let Some(src) = c.sized_source() else {
                continue;
            };
            sized += 1;
            let sig = adora_core::sizes::signature(&src, "main")
                .expect("the signature parses")
                .expect("main has size parameters");
            assert!(!sig.size_names().is_empty(), "{src}");
            // `load` instantiates the text and compares it with the generated program.
            load(&c).unwrap_or_else(|e| panic!("{e}\n{c:?}"));
        }
    }
    assert!(
        sized * 5 >= total,
        "only {sized} of {total} cases have size parameters"
    );
}

#[test]
fn an_instantiation_that_differs_from_the_generated_program_fails_loading() {
    let mut c = (0..100)
        .map(|seed| generate(&GenSpec::new(Fragment::Bulk), seed))
        .find(|c| c.sized_source().is_some() && array_input(c).is_some())
        .expect("a case with size parameters and a real array input");
    assert!(load(&c).is_ok());
    // A different input shape binds different sizes: the instantiation no longer equals
    // the generated program, and loading says so.
    let k = array_input(&c).expect("found above");
    let mut v = c.inputs[k].clone();
    let Value::Real(t) = &mut v else {
        unreachable!("array_input finds real arrays")
    };
    t.shape[0] += 1;
    let n: usize = t.shape.iter().product();
    t.data.resize(n, adora_proptests::values::rat(0, 1));
    c.inputs[k] = v;
    let e = load(&c).expect_err("a different instantiation");
    assert!(e.contains("size"), "{e}");
}

/// The index of an input that is a real array of rank >= 1.
fn array_input(c: &Case) -> Option<usize> {
    c.inputs
        .iter()
        .position(|v| matches!(v, Value::Real(t) if !t.shape.is_empty()))
}
