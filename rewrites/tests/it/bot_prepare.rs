//! One bot preparation: on every `specs/programs/**` program, `adora show --stage bot`
//! (`bot::show`), engine `dual`'s preparation and engine `linear`'s build-free form are
//! the same program — the one `bot::prepare` returns — so what `show` prints is what the
//! engines differentiate.

use crate::bot_support::{load, programs};
use adora_core::diag::ErrorKind;
use adora_core::pretty::function;
use adora_rewrites::bot;
use adora_rewrites::dual::fragment;
use adora_rewrites::linear::engine::build_free;

#[test]
fn show_dual_and_linear_differentiate_the_same_bot_output() {
    let mut with_build = 0;
    for (path, src) in programs() {
        let f = load(&src);
        let prepared = match bot::prepare(&f) {
            Ok(g) => g,
            Err(d) if matches!(d.kind, ErrorKind::Unsupported | ErrorKind::Resource) => continue,
            Err(d) => panic!("{path}: {d}\n{:?}", d.notes),
        };
        let text = function(&prepared);
        assert_eq!(bot::show(&f).expect("show"), text, "{path}: show");
        assert_eq!(
            function(&build_free(&f).expect("linear")),
            text,
            "{path}: linear"
        );
        if let Ok(g) = fragment::prepare(&f) {
            assert_eq!(function(&g), text, "{path}: dual");
        }
        assert!(!bot::has_build(&prepared), "{path}: a build survives");
        with_build += usize::from(bot::has_build(&f));
    }
    assert!(with_build >= 10, "only {with_build} programs with a build");
}
