//! Translation into the e-graph: the encoding of lets, tuple patterns, binders, literals
//! and built-ins, and `Unsupported` diagnostics at the span of constructs outside the
//! seed-000 fragment.

use adora_core::ErrorKind;
use adora_rewrites::ir::translate::{to_recexpr, translate};

fn term(src: &str) -> String {
    let f = adora_core::load(src, "main").unwrap_or_else(|d| panic!("{src}: {d}"));
    to_recexpr(&f).unwrap().0.to_string()
}

#[test]
fn lets_become_shared_classes_and_tuple_patterns_projections() {
    assert_eq!(
        term("def main(x: R, y: R) -> R = let z = x * y in z + z"),
        "(+ (* v0 v1) (* v0 v1))"
    );
    assert_eq!(
        term("def main(p: (R, R)) -> R = let (a, b) = p in a - b"),
        "(- (proj n0 v0) (proj n1 v0))"
    );
    let f = adora_core::load("def main(x: R) -> R = let z = x * x in z + z", "main").unwrap();
    let tr = translate(&f).unwrap();
    // x, x * x, z + z: hash-consing keeps one class per distinct term.
    assert_eq!(tr.egraph.number_of_classes(), 3);
    assert_eq!(tr.params.len(), 1);
}

#[test]
fn binders_become_index_variables_with_their_extents() {
    assert_eq!(
        term("def main(a: R[3,2]) -> R[2,3] = build [2, 3] ((i, j) => a[j, i])"),
        "(build n2 i0 (build n3 i1 (index v0 i1 i0)))"
    );
    let src = "def main(x: R[9,2]) -> R[7,2] = scatter([7, 2], x, (i, j) => [i % 7, j])";
    let f = adora_core::load(src, "main").unwrap();
    let tr = translate(&f).unwrap();
    let ext: Vec<usize> = tr.egraph.analysis.ivars.iter().map(|v| v.extent).collect();
    assert_eq!(ext, vec![9, 2], "scatter binders range over the source");
    assert_eq!(
        term(src),
        "(scatter [7,2] v0 (binders i0 i1) (ixs (\"%\" i0 z7) i1))"
    );
    let src = "def main(x: R[10]) -> R[2,3] = gather([2, 3], x, (i, j) => [2 * (i + j)])";
    let f = adora_core::load(src, "main").unwrap();
    let tr = translate(&f).unwrap();
    let ext: Vec<usize> = tr.egraph.analysis.ivars.iter().map(|v| v.extent).collect();
    assert_eq!(ext, vec![2, 3], "gather binders range over its shape");
    let names: Vec<&str> = tr
        .egraph
        .analysis
        .ivars
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(names, vec!["i", "j"]);
}

#[test]
fn literals_and_built_ins_map_to_their_nodes() {
    // egg's printer quotes the `%` operator; the parser reads both forms.
    let quoted: egg::RecExpr<adora_rewrites::ir::lang::Ir> = "(% z1 z2)".parse().unwrap();
    assert_eq!(quoted.to_string(), "(\"%\" z1 z2)");
    assert_eq!(
        term("def main(x: R[2]) -> R[2,2] = [x, [0.5, -2]]"),
        "(array v0 (array r1/2 r-2))"
    );
    assert_eq!(
        term("def main(x: R[2]) -> R[2] = pow(x, -2) + stack([x[0], 1.0])"),
        "(+ (pow v0 z-2) (stack (index v0 z0) r1))"
    );
    assert_eq!(
        term("def main(x: R[2,3]) -> R[6] = reshape([6], transpose([1, 0], x))"),
        "(reshape [6] (transpose [1,0] v0))"
    );
    assert_eq!(
        term("def main(x: Z[2]) -> R[4] = real(append(x, iota(2))) + replicate(4, 1.5)"),
        "(+ (real (append v0 (iota n2))) (replicate n4 r3/2))"
    );
    assert_eq!(
        term("def main(a: Z, b: Z) -> B = !(a / b == a % b) || floor(2.5) >= min(a, -b)"),
        "(|| (not (== (/ v0 v1) (\"%\" v0 v1))) (>= z2 (min v0 (neg v1))))"
    );
    assert_eq!(
        term("def main(x: R[2,3]) -> R = sum(sum_outer(x)) * select(true, 1.0, 2.0)"),
        "(* (sum (sum_outer v0)) r1)"
    );
}

#[test]
fn constructs_outside_the_fragment_are_unsupported_at_their_span() {
    for (src, construct, at) in [
        (
            "def main(x: R) -> R = 1.0 + (if x > 0.0 then x else 0.0)",
            "`if`",
            "if",
        ),
        (
            "def main(x: R[3]) -> R[3] = map(a => a * a, x)",
            "`map`",
            "map",
        ),
        (
            "def main(x: R[3]) -> R = reduce(+, 0.0, x)",
            "`reduce`",
            "reduce",
        ),
        (
            "def main(x: R[3]) -> R[3] = scan(+, 0.0, x)",
            "`scan`",
            "scan",
        ),
        (
            "def main(x: R) -> R = loop (a = x) for i < 3 do a * a",
            "`loop`",
            "loop",
        ),
        (
            "def main(d: R[2], i: Z[3], v: R[3]) -> R[2] = scatter_into(d, i, v)",
            "`scatter_into`",
            "scatter_into",
        ),
        (
            "def main(d: R[2], i: Z[3], v: R[3]) -> R[2] = reduce_by_index(d, +, 0.0, i, v)",
            "`reduce_by_index`",
            "reduce_by_index",
        ),
    ] {
        let f = adora_core::load(src, "main").unwrap();
        let Err(d) = translate(&f) else {
            panic!("{src} translated")
        };
        assert_eq!(d.kind, ErrorKind::Unsupported, "{src}");
        assert!(d.message.contains(construct), "{src}: {}", d.message);
        assert!(d.message.contains("seed-000 fragment"), "{}", d.message);
        let from = src[d.span.start..].trim_start_matches('(');
        assert!(from.starts_with(at), "{src}: span {:?}", d.span);
    }
}

#[test]
fn deep_programs_translate_and_extract() {
    let mut src = "def main(x: R) -> R =\n  let y0 = x in\n".to_string();
    for k in 1..1_500 {
        src.push_str(&format!("  let y{k} = -y{} in\n", k - 1));
    }
    src.push_str("  y1499 * y1");
    // `load` itself recurses: callers run it on a large stack (adora_core::with_stack).
    let f = adora_core::with_stack(|| adora_core::load(&src, "main").unwrap());
    let tr = translate(&f).unwrap();
    assert!(tr.egraph.number_of_classes() >= 1_500);
    let g = adora_rewrites::ir::extract::extract_function(&tr.egraph, tr.root, &f).unwrap();
    assert!(adora_core::pretty::function(&g).contains("let t = -x in"));
}
