//! Properties of the language front end: printing and parsing, checking, elaboration.

use super::alpha::functions_alpha_eq;
use super::util::{diag, exact, fail, load, load_program, Eval};
use crate::catalogue::{Check, Outcome, Pass, Property};
use crate::gen::strategy::CaseStrategy;
use crate::gen::{Case, RetKind};
use adora_core::ast::{Expr, ExprKind, Lit, NonFinite, Program, UnOp};
use adora_core::visit::{children, children_mut};
use adora_core::{check, pretty};

/// The language properties.
pub fn properties() -> Vec<Property> {
    vec![
        Property {
            name: "lang/print-parse-roundtrip",
            source: "engine invariant (docs/language.md: printed programs parse back)",
            fragment: "all",
            description: "parse(print(p)) == p (spans aside) for generated programs of every fragment, and \
                          printing is stable: print(parse(print(p))) == print(p); also with the real literals \
                          replaced by inf, -inf, nan, -nan (the negations print as -inf, -nan)",
            figure: None,
            check: Check::Case { strategy: || CaseStrategy::all_fragments(40, RetKind::Any), check: roundtrip },
        },
        Property {
            name: "lang/generated-well-typed",
            source: "engine invariant (generator soundness; docs/language.md)",
            fragment: "all",
            description: "generated programs pass check_program, their main elaborates, the elaborated \
                          function passes check_function with main's signature; the printed program parses, \
                          elaborates and evaluates (exactly) to the same value",
            figure: None,
            check: Check::Case { strategy: || CaseStrategy::all_fragments(40, RetKind::Any), check: well_typed },
        },
        Property {
            name: "lang/elaborate-idempotent",
            source: "engine invariant (elaboration is a normal form; docs/language.md, ast.rs)",
            fragment: "all",
            description: "printing the elaborated function as a program and elaborating it again gives an \
                          identical function (spans aside; binder names included, since elaboration's unique \
                          names are kept by a second elaboration), with the same exact value",
            figure: None,
            check: Check::Case { strategy: || CaseStrategy::all_fragments(40, RetKind::Any), check: idempotent },
        },
    ]
}

/// The first pair of differing subexpressions (descending while the children line up).
pub fn first_diff<'a>(a: &'a Expr, b: &'a Expr) -> Option<(&'a Expr, &'a Expr)> {
    if a == b {
        return None;
    }
    let (ca, cb) = (children(a), children(b));
    if ca.len() == cb.len() {
        let diffs: Vec<_> = ca.iter().zip(&cb).filter(|(x, y)| x != y).collect();
        // Only descend when the node itself agrees apart from one child.
        if diffs.len() == 1 && std::mem::discriminant(&a.kind) == std::mem::discriminant(&b.kind) {
            let (x, y) = diffs[0];
            return first_diff(x, y);
        }
    }
    Some((a, b))
}

fn describe_diff(p: &Program, q: &Program) -> String {
    for (a, b) in p.defs.iter().zip(&q.defs) {
        if a != b {
            if let Some((x, y)) = first_diff(&a.body, &b.body) {
                return format!(
                    "in def {}: generated subexpression\n  {}\n  {:?}\nreads back as\n  {}\n  {:?}",
                    a.name,
                    pretty::expr(x),
                    x.kind,
                    pretty::expr(y),
                    y.kind
                );
            }
            return format!("def {} differs in its signature", a.name);
        }
    }
    format!(
        "the programs have {} and {} defs",
        p.defs.len(),
        q.defs.len()
    )
}

fn roundtrip(case: &Case) -> Outcome {
    let src = pretty::program(&case.program);
    let q = adora_core::parse(&src)
        .map_err(|d| format!("the printed program does not parse: {}", diag(&d, &src)))?;
    // `Def` equality ignores spans.
    if q.defs != case.program.defs {
        return fail(format!(
            "parse(print(p)) != p: {}",
            describe_diff(&case.program, &q)
        ));
    }
    let again = pretty::program(&q);
    if again != src {
        return fail(format!("printing is not stable:\n{src}\nthen\n{again}"));
    }
    // The same program with its real literals replaced by `inf`, `-inf`, `nan`, `-nan`
    // in turn: the negations print as `-inf`, `-nan` and read back as negations.
    let nf = with_non_finite(&case.program);
    let src = pretty::program(&nf);
    let q = adora_core::parse(&src).map_err(|d| {
        format!(
            "the printed program with non-finite literals does not parse: {}",
            diag(&d, &src)
        )
    })?;
    if q.defs != nf.defs {
        return fail(format!(
            "with non-finite literals, parse(print(p)) != p: {}",
            describe_diff(&nf, &q)
        ));
    }
    Pass::ok()
}

/// `p` with its real literals replaced by `inf`, `-inf`, `nan`, `-nan` in turn (source
/// order).
fn with_non_finite(p: &Program) -> Program {
    fn go(e: &mut Expr, k: &mut usize) {
        if let ExprKind::Lit(Lit::Real(_)) = &e.kind {
            let (lit, negated) = match *k % 4 {
                0 => (NonFinite::Inf, false),
                1 => (NonFinite::Inf, true),
                2 => (NonFinite::NaN, false),
                _ => (NonFinite::NaN, true),
            };
            *k += 1;
            let l = Expr::new(ExprKind::Lit(Lit::NonFinite(lit)), e.span);
            e.kind = if negated {
                ExprKind::Unary(UnOp::Neg, Box::new(l))
            } else {
                l.kind
            };
            return;
        }
        for c in children_mut(e) {
            go(c, k);
        }
    }
    let mut p = p.clone();
    let mut k = 0;
    for d in &mut p.defs {
        go(&mut d.body, &mut k);
    }
    p
}

fn well_typed(case: &Case) -> Outcome {
    let f = load(case)?;
    check::check_function(&f).map_err(|d| {
        format!(
            "check_function rejects the elaborated main: {d}\n{}",
            pretty::function(&f)
        )
    })?;
    let main = case.main();
    if f.ret != main.ret
        || f.params.len() != main.params.len()
        || f.params.iter().zip(&main.params).any(|(a, b)| a.ty != b.ty)
    {
        return fail(format!(
            "the elaborated main has another signature:\n{}",
            pretty::function(&f)
        ));
    }
    let src = pretty::program(&case.program);
    let p2 = adora_core::parse(&src)
        .map_err(|d| format!("the printed program does not parse: {}", diag(&d, &src)))?;
    let f2 = load_program(&p2, "main").map_err(|e| format!("the printed program: {e}"))?;
    match (exact(&f, &case.inputs)?, exact(&f2, &case.inputs)?) {
        (Eval::Value(v1, _), Eval::Value(v2, _)) if v1 != v2 => fail(format!(
            "the program and its printed form evaluate differently: {} vs {}",
            crate::values::literal(&v1),
            crate::values::literal(&v2)
        )),
        (Eval::Value(..), Eval::Value(..)) => Pass::ok(),
        _ => Pass::vacuous(),
    }
}

fn idempotent(case: &Case) -> Outcome {
    let f1 = load(case)?;
    let text = pretty::function(&f1);
    let p2 = adora_core::parse(&text).map_err(|d| {
        format!(
            "the printed elaborated function does not parse: {}",
            diag(&d, &text)
        )
    })?;
    let f2 = load_program(&p2, &f1.name)
        .map_err(|e| format!("the printed elaborated function: {e}\n{text}"))?;
    // `Function` equality ignores spans.
    if f1 != f2 {
        let alpha = if functions_alpha_eq(&f1, &f2) {
            "only up to renaming of bound variables"
        } else {
            "not even up to renaming"
        };
        let detail = first_diff(&f1.body, &f2.body)
            .map(|(x, y)| format!("\n  {}\nbecomes\n  {}", pretty::expr(x), pretty::expr(y)))
            .unwrap_or_default();
        return fail(format!("elaborating the elaborated function changes it ({alpha}):{detail}\nfirst elaboration:\n{text}"));
    }
    match (exact(&f1, &case.inputs)?, exact(&f2, &case.inputs)?) {
        (Eval::Value(v1, _), Eval::Value(v2, _)) if v1 != v2 => {
            fail("the two elaborations evaluate differently")
        }
        _ => Pass::ok(),
    }
}
