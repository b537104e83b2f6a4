//! Generated cases with a sized helper called at two sizes (docs/language.md, "Helpers
//! with size parameters"; `gen/sized_helper.rs`): some bulk programs hold its two
//! instances, the cases given with size parameters print the helper once, and loading
//! that text instantiates it into exactly the generated program.

use adora_proptests::gen::sized_helper::{template_of, INSTANCES};
use adora_proptests::gen::{generate, Fragment, GenSpec};
use adora_proptests::props::util::load;

#[test]
fn some_sized_cases_call_a_sized_helper_at_two_sizes() {
    let mut printed = 0;
    for seed in 0..400 {
        let c = generate(&GenSpec::new(Fragment::Bulk), seed);
        let Some(text) = template_of(&c.program) else {
            continue;
        };
        let sizes: Vec<&adora_core::Type> = INSTANCES
            .iter()
            .map(|n| {
                let d = c.program.defs.iter().find(|d| d.name == *n).unwrap();
                &d.params[0].ty
            })
            .collect();
        assert_ne!(sizes[0], sizes[1], "two different sizes");
        let Some(src) = c.sized_source() else {
            continue;
        };
        printed += 1;
        assert!(src.contains(text), "{src}");
        assert!(
            !src.contains(INSTANCES[0]) && !src.contains(INSTANCES[1]),
            "{src}"
        );
        assert!(src.matches("sz(").count() >= 2, "{src}");
        let p = adora_core::parse(&src).unwrap();
        assert!(p.templates.iter().any(|t| t.name() == "sz"), "{src}");
        // `load` instantiates the text and compares it with the generated program.
        load(&c).unwrap_or_else(|e| panic!("{e}\n{c:?}"));
    }
    assert!(
        printed >= 3,
        "only {printed} printed cases with a sized helper"
    );
}
