//! Properties of the lowering kit (`adora_rewrites::kit`, docs/architecture.md,
//! "Lowering kit") on random elaborated programs of every generator fragment:
//! substitution avoids capture and is simultaneous, the claiming substitution yields
//! unique binders, and the DAG → `let`s pass preserves meaning and places every shared
//! node inside the scope of its variables and no deeper than the binders it depends on;
//! typed ANF preserves meaning and states the checker's types; and bot's and every
//! engine's programs bind each name once with no renaming pass (`kit/unique-binders`).

use adora_core::ast::{Expr, ExprKind, Function, Name, Param};
use adora_core::diag::Span;
use adora_core::visit::{
    all_binders, children_mut, free_vars, scoped_children, subexprs, NameSupply,
};
use adora_proptests::gen::{generate, Case, Fragment, GenSpec};
use adora_rewrites::kit::anf::{is_atom, normalize, verify, wrap};
use adora_rewrites::kit::lets::{bind_shared, reference, Shared};
use adora_rewrites::kit::names::supply_for;
use adora_rewrites::kit::subst::{subst, subst_claiming};
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::value::Value;
use adora_semantics::Rat;
use std::collections::{BTreeMap, BTreeSet};

const SEEDS: u64 = 60;

/// Every case: its elaborated `main` and inputs.
fn cases() -> Vec<(Case, Function)> {
    let mut out = Vec::new();
    for frag in Fragment::ALL {
        for seed in 0..SEEDS {
            let c = generate(&GenSpec::new(frag), seed);
            let f = adora_core::check::elaborate(&c.program, "main").expect("elaborates");
            out.push((c, f));
        }
    }
    out
}

fn run(f: &Function, xs: &[Value<Rat>]) -> Result<Value<Rat>, String> {
    adora_core::check::check_function(f).map_err(|d| format!("check: {d}"))?;
    eval(f, xs, &EvalOptions::default())
        .map(|(v, _)| v)
        .map_err(|d| format!("eval: {d}"))
}

fn var(n: &str) -> Expr {
    Expr::new(ExprKind::Var(n.into()), Span::DUMMY)
}

fn with(f: &Function, params: Vec<Param>, body: Expr) -> Function {
    Function {
        params,
        body,
        ..f.clone()
    }
}

#[test]
fn renaming_a_parameter_to_an_inner_binder_name_avoids_capture() {
    adora_core::with_stack(|| {
        let mut captured = 0;
        for (c, f) in cases() {
            let (Some(p), Some((b, _))) = (f.params.first(), all_binders(&f.body).first().cloned())
            else {
                continue;
            };
            let b: Name = b.clone();
            if f.params.iter().any(|q| q.name == b) {
                continue;
            }
            captured += usize::from(free_vars(&f.body).contains(&p.name));
            let mut params = f.params.clone();
            params[0].name = b.clone();
            let map = vec![(p.name.clone(), var(&b))];
            let want = run(&f, &c.inputs);
            let g = with(&f, params.clone(), subst(&f.body, &map));
            assert_eq!(run(&g, &c.inputs), want, "subst\n{c:?}");
            let mut supply = supply_for(&[], &f.body);
            for q in &params {
                supply.reserve(&q.name);
            }
            let h = with(&f, params, subst_claiming(&f.body, &map, &mut supply));
            // check_function (in `run`) also checks that binders are unique.
            assert_eq!(run(&h, &c.inputs), want, "subst_claiming\n{c:?}");
        }
        assert!(captured > 50, "too few cases exercise capture: {captured}");
    });
}

#[test]
fn substitution_is_simultaneous_on_random_programs() {
    adora_core::with_stack(|| {
        let mut swapped = 0;
        for (c, f) in cases() {
            let [p, q, ..] = f.params.as_slice() else {
                continue;
            };
            if p.ty != q.ty {
                continue;
            }
            swapped += 1;
            let map = vec![
                (p.name.clone(), var(&q.name)),
                (q.name.clone(), var(&p.name)),
            ];
            let g = with(&f, f.params.clone(), subst(&f.body, &map));
            let mut xs = c.inputs.clone();
            xs.swap(0, 1);
            assert_eq!(run(&g, &xs), run(&f, &c.inputs), "{c:?}");
        }
        assert!(
            swapped > 10,
            "too few cases with two parameters of one type"
        );
    });
}

fn undummy(e: &mut Expr) {
    e.span = Span::DUMMY;
    for c in children_mut(e) {
        undummy(c);
    }
}

fn replace(e: &mut Expr, pat: &Expr, by: &Expr) {
    if *e == *pat {
        *e = by.clone();
        return;
    }
    for c in children_mut(e) {
        replace(c, pat, by);
    }
}

/// A deterministic choice of up to three compound sub-terms of `body`, smallest first.
fn choose(body: &Expr, aux: u64) -> Vec<Expr> {
    let all: Vec<&Expr> = subexprs(body)
        .into_iter()
        .filter(|e| !matches!(e.kind, ExprKind::Var(_) | ExprKind::Lit(_)))
        .collect();
    let mut out: Vec<Expr> = Vec::new();
    let mut r = aux | 1;
    for _ in 0..3 {
        if all.is_empty() {
            break;
        }
        r = r
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let e = all[(r >> 33) as usize % all.len()].clone();
        if !out.contains(&e) {
            out.push(e);
        }
    }
    out.sort_by_key(adora_core::visit::node_count);
    out
}

/// Checks the placement of the table's `let`s in `e` (see the module documentation):
/// a `let` under a binder mentions a variable of that binder or a `let` placed there.
fn check_placement(
    e: &Expr,
    lets: &BTreeSet<Name>,
    frame: &mut (Vec<Name>, Vec<Name>),
    root: bool,
) {
    if let ExprKind::Let(adora_core::ast::Pat::Var(x), v, b) = &e.kind {
        if lets.contains(x) {
            let fv = free_vars(v);
            assert!(
                root || frame.0.iter().chain(&frame.1).any(|n| fv.contains(n)),
                "`let {x}` sits under binders {:?} it does not depend on",
                frame.0
            );
            check_placement(v, lets, frame, root);
            frame.1.push(x.clone());
            check_placement(b, lets, frame, root);
            return;
        }
    }
    for (c, bound) in scoped_children(e) {
        if bound.is_empty() {
            check_placement(c, lets, frame, root);
        } else {
            let mut inner = (bound.into_iter().cloned().collect(), Vec::new());
            check_placement(c, lets, &mut inner, false);
        }
    }
}

#[test]
fn lets_pass_preserves_meaning_and_places_nodes_in_the_outermost_legal_scope() {
    adora_core::with_stack(|| {
        let mut shared = 0;
        for (c, f) in cases() {
            let mut body = f.body.clone();
            undummy(&mut body);
            let params: Vec<Name> = f.params.iter().map(|p| p.name.clone()).collect();
            let mut supply = supply_for(&params, &body);
            let mut table = BTreeMap::new();
            let mut done: Vec<(Expr, Expr)> = Vec::new();
            for (id, mut term) in choose(&body, c.aux).into_iter().enumerate() {
                for (pat, r) in &done {
                    replace(&mut term, pat, r);
                }
                let r = reference(id as u64);
                replace(&mut body, &term, &r);
                let name = supply.fresh("t");
                table.insert(
                    id as u64,
                    Shared {
                        name,
                        term: term.clone(),
                    },
                );
                done.push((term, r));
            }
            shared += table.len();
            let out = bind_shared(&body, &table);
            assert!(
                !adora_core::pretty::expr(&out).contains('#'),
                "a reference is left\n{c:?}"
            );
            let g = with(&f, f.params.clone(), out.clone());
            assert_eq!(
                run(&g, &c.inputs),
                run(&f, &c.inputs),
                "{c:?}\n{}",
                adora_core::pretty::expr(&out)
            );
            let lets: BTreeSet<Name> = table.values().map(|s| s.name.clone()).collect();
            check_placement(&out, &lets, &mut (Vec::new(), Vec::new()), true);
        }
        assert!(shared > 300, "too few shared nodes: {shared}");
    });
}

#[test]
fn derivative_programs_bind_each_name_once_without_repair() {
    // The catalogue's `kit/unique-binders` check on every case: bot's prepared program,
    // the kit's typed ANF and every engine's derivative programs.
    let mut checked = 0.0;
    for (c, _) in cases() {
        match adora_proptests::props::kit::unique_binders(&c) {
            Ok(p) => checked += p.figure.unwrap_or(0.0),
            Err(m) => panic!("{m}\n{c:?}"),
        }
    }
    assert!(checked > 400.0, "too few programs checked: {checked}");
}

#[test]
fn typed_anf_preserves_meaning_and_states_the_checkers_types() {
    adora_core::with_stack(|| {
        let mut normalized = 0;
        for (c, f) in cases() {
            let reject = |e: &Expr| {
                adora_core::diag::Diagnostic::new(
                    adora_core::diag::ErrorKind::Unsupported,
                    e.span,
                    "outside the flat fragment",
                )
            };
            let a = match normalize(&f, NameSupply::new(), reject) {
                Ok(a) => a,
                Err(d) if d.kind == adora_core::diag::ErrorKind::Unsupported => continue,
                Err(d) => panic!("{d}\n{c:?}"),
            };
            normalized += 1;
            let env = adora_core::check::param_env(&f);
            verify(&env, &a.lets).unwrap_or_else(|d| panic!("{d}\n{c:?}"));
            assert!(
                a.lets.iter().all(|l| match &l.value.kind {
                    ExprKind::Gather(_, x, ..) | ExprKind::Scatter(_, x, ..) => is_atom(x),
                    _ => adora_core::visit::children(&l.value)
                        .iter()
                        .all(|x| is_atom(x)),
                }),
                "an operand is not an atom\n{c:?}"
            );
            let g = with(&f, a.params.clone(), wrap(&a.lets, a.result.clone()));
            assert_eq!(run(&g, &c.inputs), run(&f, &c.inputs), "{c:?}");
        }
        assert!(
            normalized > 60,
            "too few programs in the flat fragment: {normalized}"
        );
    });
}
