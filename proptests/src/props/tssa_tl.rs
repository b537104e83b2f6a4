//! Properties of the tensor language's foundation (seed 001, *Differentiating a Tensor
//! Language*; docs/engines/tssa-language.md): printing and parsing, totality and
//! polynomiality of evaluation (X4.2), the substitution identity (X4.1a), the cost
//! model's Iverson discount (X2.2c), let sharing (X4.3b) and an independent brute-force
//! counter (X4.3a). Cases come from G2 and G3 seeded by the runner's dimensions.

use crate::catalogue::{Check, Outcome, Pass, Property};
use crate::gen::tl::{ssa_case, tl_case, tl_term, SsaGenOptions, TlCase, TlGenOptions};
use adora_core::tl::{
    parse_ssa, parse_term, subst, subst_index, type_of, CmpOp, Index, Pred, Term, Ty,
};
use adora_costmodel::tl::cost_c;
use adora_semantics::tl::{eval_term, TlEnv, TlValue};
use adora_semantics::Rat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod brute;
mod poly;

/// The random source of a case, from the runner's dimensions.
fn rng(d: &[usize], salt: u64) -> ChaCha8Rng {
    let seed = d.iter().fold(salt, |s, &x| {
        s.wrapping_mul(1_000_003).wrapping_add(x as u64)
    });
    ChaCha8Rng::seed_from_u64(seed)
}

fn msg(e: adora_core::Diagnostic) -> String {
    format!("{:?}: {}", e.kind, e.message)
}

fn roundtrip(d: &[usize]) -> Outcome {
    let mut r = rng(d, 1);
    let c = tl_case(&mut r, &TlGenOptions::default());
    let text = c.term.to_string();
    let back = parse_term(&text).map_err(|e| format!("{}\n{text}", msg(e)))?;
    if back != c.term {
        return Err(format!(
            "printed {text}\nreads back as {back}\n{back:?}\n{:?}",
            c.term
        ));
    }
    let s = ssa_case(&mut r, &SsaGenOptions::default());
    let text = s.program.to_string();
    let back = parse_ssa(&text).map_err(|e| format!("{}\n{text}", msg(e)))?;
    if back != s.program {
        return Err(format!("printed\n{text}\nreads back as\n{back}"));
    }
    Pass::ok()
}

fn eval_total(d: &[usize]) -> Outcome {
    let mut r = rng(d, 2);
    let c = tl_case(&mut r, &TlGenOptions::default());
    let t = type_of(&c.term, &c.inputs).map_err(|e| format!("{}\n{c}", msg(e)))?;
    let v = eval_term(&c.term, &c.env()).map_err(|e| format!("{}\n{c}", msg(e)))?;
    if !v.has_type(&t) {
        return Err(format!("value {v} is not of type {t}\n{c}"));
    }
    // Without black boxes and data predicates the denotation is a polynomial.
    let opts = TlGenOptions {
        black_boxes: false,
        data: false,
        ..TlGenOptions::default()
    };
    let c = tl_case(&mut r, &opts);
    poly::finite_difference(&c, &mut r)
}

/// The instance of the substitution identity: a let of the term inlined by
/// substitution, after binders were renamed to shadow each other where legal (so that
/// substitution must avoid capture).
fn let_substitution(d: &[usize]) -> Outcome {
    let mut r = rng(d, 3);
    let c = tl_case(&mut r, &TlGenOptions::default());
    let shadowed = shadow(&c.term, &mut r).map_err(msg)?;
    let env = c.env();
    let want = eval_term(&c.term, &env).map_err(|e| format!("{}\n{c}", msg(e)))?;
    let got0 = eval_term(&shadowed, &env).map_err(|e| format!("{}\n{shadowed}", msg(e)))?;
    if got0 != want {
        return Err(format!(
            "renaming binders changed the value\n{c}\n{shadowed}"
        ));
    }
    let lets = count_lets(&shadowed);
    if lets == 0 {
        return Pass::vacuous();
    }
    let k = r.gen_range(0..lets);
    let Some(inlined) = inline_let(&shadowed, k).map_err(msg)? else {
        return Pass::vacuous();
    };
    let got = eval_term(&inlined, &env).map_err(|e| format!("{}\n{inlined}", msg(e)))?;
    if got != want {
        return Err(format!(
            "⟦e{{x := e'}}⟧ = {got} but ⟦let x = e' in e⟧ = {want}\ninputs:\n{c}\nwith shadowing: {shadowed}\ninlined: {inlined}"
        ));
    }
    Pass::ok()
}

fn count_lets(t: &Term) -> usize {
    let mut n = 0;
    walk(t, &mut |s| n += matches!(s, Term::Let(..)) as usize);
    n
}

fn walk(t: &Term, f: &mut dyn FnMut(&Term)) {
    f(t);
    match t {
        Term::Var(_) | Term::Const(_) | Term::IndexConst(_) => {}
        Term::Add(a, b) | Term::Mul(a, b) | Term::Pair(a, b) | Term::Let(_, a, b) => {
            walk(a, f);
            walk(b, f);
        }
        Term::Call(_, e)
        | Term::Proj(_, e)
        | Term::Gen(_, _, e)
        | Term::Sum(_, _, e)
        | Term::Access(e, _)
        | Term::Bracket(_, e) => walk(e, f),
    }
}

/// Inlines the `k`-th let (preorder) by substitution; `None` when the bound term is not
/// path-shaped but read by a data predicate (then substitution does not apply).
fn inline_let(t: &Term, k: usize) -> adora_core::Result<Option<Term>> {
    fn go(t: &Term, k: &mut usize) -> adora_core::Result<Option<Term>> {
        if let Term::Let(x, e1, e2) = t {
            if *k == 0 {
                return match subst(e2, x, e1) {
                    Ok(s) => Ok(Some(s)),
                    Err(e)
                        if e.kind == adora_core::ErrorKind::Internal
                            && adora_core::tl::path_of(e1).is_none() =>
                    {
                        Ok(None)
                    }
                    Err(e) => Err(e),
                };
            }
            *k -= 1;
        }
        map_children(t, &mut |c| go(c, k))
    }
    let mut k = k;
    go(t, &mut k)
}

/// Rebuilds `t` with the first child for which `f` returns a replacement replaced.
fn map_children(
    t: &Term,
    f: &mut dyn FnMut(&Term) -> adora_core::Result<Option<Term>>,
) -> adora_core::Result<Option<Term>> {
    let b = |x: Term| Box::new(x);
    Ok(match t {
        Term::Var(_) | Term::Const(_) | Term::IndexConst(_) => None,
        Term::Add(x, y) | Term::Mul(x, y) | Term::Pair(x, y) | Term::Let(_, x, y) => {
            let rebuild = |x: Term, y: Term| match t {
                Term::Add(..) => Term::Add(b(x), b(y)),
                Term::Mul(..) => Term::Mul(b(x), b(y)),
                Term::Pair(..) => Term::Pair(b(x), b(y)),
                Term::Let(v, ..) => Term::Let(v.clone(), b(x), b(y)),
                _ => unreachable!(),
            };
            if let Some(nx) = f(x)? {
                Some(rebuild(nx, (**y).clone()))
            } else {
                f(y)?.map(|ny| rebuild((**x).clone(), ny))
            }
        }
        Term::Call(g, e) => f(e)?.map(|n| Term::Call(*g, b(n))),
        Term::Proj(k, e) => f(e)?.map(|n| Term::Proj(*k, b(n))),
        Term::Gen(i, m, e) => f(e)?.map(|n| Term::Gen(i.clone(), *m, b(n))),
        Term::Sum(i, m, e) => f(e)?.map(|n| Term::Sum(i.clone(), *m, b(n))),
        Term::Access(e, a) => f(e)?.map(|n| Term::Access(b(n), a.clone())),
        Term::Bracket(p, e) => f(e)?.map(|n| Term::Bracket(p.clone(), b(n))),
    })
}

/// Renames index binders to names of enclosing binders where the body does not use the
/// enclosing one (legal shadowing), so later substitutions meet would-be captures.
fn shadow(t: &Term, r: &mut ChaCha8Rng) -> adora_core::Result<Term> {
    go_shadow(t, &mut Vec::new(), r)
}

fn go_shadow(t: &Term, outer: &mut Vec<String>, r: &mut ChaCha8Rng) -> adora_core::Result<Term> {
    let b = |x: Term| Box::new(x);
    Ok(match t {
        Term::Var(_) | Term::Const(_) | Term::IndexConst(_) => t.clone(),
        Term::Gen(i, n, e) | Term::Sum(i, n, e) => {
            let fv = adora_core::tl::free_vars(e).indices;
            let cands: Vec<String> = outer
                .iter()
                .filter(|o| !fv.contains(*o) && *o != i)
                .cloned()
                .collect();
            let (name, body) = if !cands.is_empty() && r.gen_bool(0.5) {
                let j = cands[r.gen_range(0..cands.len())].clone();
                let e2 = subst_index(e, i, &Index::var(j.as_str()))?;
                (j, e2)
            } else {
                (i.clone(), (**e).clone())
            };
            outer.push(name.clone());
            let body = go_shadow(&body, outer, r);
            outer.pop();
            match t {
                Term::Gen(..) => Term::Gen(name, *n, b(body?)),
                _ => Term::Sum(name, *n, b(body?)),
            }
        }
        Term::Add(x, y) => Term::Add(b(go_shadow(x, outer, r)?), b(go_shadow(y, outer, r)?)),
        Term::Mul(x, y) => Term::Mul(b(go_shadow(x, outer, r)?), b(go_shadow(y, outer, r)?)),
        Term::Pair(x, y) => Term::Pair(b(go_shadow(x, outer, r)?), b(go_shadow(y, outer, r)?)),
        Term::Let(v, x, y) => Term::Let(
            v.clone(),
            b(go_shadow(x, outer, r)?),
            b(go_shadow(y, outer, r)?),
        ),
        Term::Call(g, e) => Term::Call(*g, b(go_shadow(e, outer, r)?)),
        Term::Proj(k, e) => Term::Proj(*k, b(go_shadow(e, outer, r)?)),
        Term::Access(e, a) => Term::Access(b(go_shadow(e, outer, r)?), a.clone()),
        Term::Bracket(p, e) => Term::Bracket(p.clone(), b(go_shadow(e, outer, r)?)),
    })
}

/// Rule 4.24 on G2 operands and rule 4.30 on random predicated sums, against closed
/// forms computed by enumeration.
fn iverson_discount(d: &[usize]) -> Outcome {
    let mut r = rng(d, 4);
    let c = tl_case(&mut r, &TlGenOptions::default());
    let env = c.env();
    let e = tl_term(&mut r, &TlGenOptions::default(), &c.inputs, &Ty::Num);
    let ce = cost_c(&e, &env).map_err(|x| format!("{}\n{e}", msg(x)))?;
    let (p, q) = (closed_pred(&mut r), closed_pred(&mut r));
    let (hp, hq) = (holds(&p)?, holds(&q)?);
    let t = Term::add(Term::bracket(p, e.clone()), Term::bracket(q, e.clone()));
    let got = cost_c(&t, &env).map_err(msg)?;
    let want = (hp as u64 + hq as u64) * ce + (hp && hq) as u64;
    if got != want {
        return Err(format!(
            "C({t}) = {got}, expected {want} (C(e) = {ce})\n{c}"
        ));
    }
    // sum i:n. [a·i + b ⋈ c] x[i] (* x[i]): N − [N>0] additions (+ N multiplications).
    let n = r.gen_range(0..6u64);
    let op = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le][r.gen_range(0..4)];
    let (a, b, k) = (
        r.gen_range(-2..=2i64),
        r.gen_range(-2..=2i64),
        r.gen_range(-1..=5i64),
    );
    let lhs = adora_core::tl::Aff::var("i")
        .scale(a)
        .add(&adora_core::tl::Aff::constant(b));
    let pred = Pred::Cmp(op, Index::Aff(lhs), Index::constant(k));
    let count = (0..n as i64)
        .filter(|i| {
            let v = a * i + b;
            match op {
                CmpOp::Eq => v == k,
                CmpOp::Ne => v != k,
                CmpOp::Lt => v < k,
                CmpOp::Le => v <= k,
            }
        })
        .count() as u64;
    let xi = || Term::at(Term::var("x"), Index::var("i"));
    let mult = r.gen_bool(0.5);
    let body = if mult { Term::mul(xi(), xi()) } else { xi() };
    let s = Term::sum("i", n, Term::bracket(pred, body));
    let mut env = TlEnv::new();
    env.bind_typed(
        "x",
        Ty::tensor(&[n]),
        TlValue::Arr(vec![TlValue::Num(Rat::from_integer(2.into())); n as usize]),
    );
    let got = cost_c(&s, &env).map_err(msg)?;
    let want = count - (count > 0) as u64 + if mult { count } else { 0 };
    if got != want {
        return Err(format!("C({s}) = {got}, expected {want} ({count} terms)"));
    }
    Pass::ok()
}

/// A predicate without free index variables.
fn closed_pred(r: &mut ChaCha8Rng) -> Pred {
    let op = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le][r.gen_range(0..4)];
    let p = Pred::Cmp(
        op,
        Index::constant(r.gen_range(0..3)),
        Index::constant(r.gen_range(0..3)),
    );
    if r.gen_bool(0.3) {
        Pred::exists(
            "e",
            r.gen_range(0..3),
            Pred::Cmp(op, Index::var("e"), Index::constant(1)),
        )
    } else {
        p
    }
}

fn holds(p: &Pred) -> Result<bool, String> {
    let v = eval_term(
        &Term::bracket(p.clone(), Term::int(1)),
        &TlEnv::<Rat>::new(),
    )
    .map_err(msg)?;
    Ok(v == TlValue::Num(Rat::from_integer(1.into())))
}

/// `C(let y = e1 in e2) = C(e1) + C(e2)` with `y` bound to `⟦e1⟧` (rule 4.32).
fn let_sharing(d: &[usize]) -> Outcome {
    let mut r = rng(d, 5);
    let c: TlCase = tl_case(&mut r, &TlGenOptions::default());
    let env = c.env();
    let bt = Ty::tensor(&[r.gen_range(0..4)]);
    let e1 = tl_term(&mut r, &TlGenOptions::default(), &c.inputs, &bt);
    let mut inner = c.inputs.clone();
    inner.push(("y".to_string(), bt.clone()));
    let out = type_of(&c.term, &c.inputs).map_err(msg)?;
    let e2 = tl_term(&mut r, &TlGenOptions::default(), &inner, &out);
    let t = Term::let_("y", e1.clone(), e2.clone());
    let whole = cost_c(&t, &env).map_err(|e| format!("{}\n{t}", msg(e)))?;
    let c1 = cost_c(&e1, &env).map_err(msg)?;
    let v1 = eval_term(&e1, &env).map_err(msg)?;
    let mut env2 = env.clone();
    env2.bind_typed("y", bt, v1);
    let c2 = cost_c(&e2, &env2).map_err(msg)?;
    if whole != c1 + c2 {
        return Err(format!(
            "C(let) = {whole} but C(e1) + C(e2) = {c1} + {c2}\n{c}\n{t}"
        ));
    }
    Pass::ok()
}

/// `C` against a counter that unrolls index binders by substitution and evaluates each
/// predicate as a closed term ([`brute`]).
fn brute_force(d: &[usize]) -> Outcome {
    let mut r = rng(d, 6);
    let c = tl_case(&mut r, &TlGenOptions::default());
    let env = c.env();
    let want = cost_c(&c.term, &env).map_err(|e| format!("{}\n{c}", msg(e)))?;
    let got = brute::count(&c.term, &env).map_err(|e| format!("{}\n{c}", msg(e)))?;
    if got != want {
        return Err(format!("C = {want}, brute-force count {got}\n{c}"));
    }
    Pass::ok()
}

fn prop(
    name: &'static str,
    source: &'static str,
    description: &'static str,
    check: fn(&[usize]) -> Outcome,
) -> Property {
    Property {
        name,
        source,
        fragment: "tl",
        description,
        figure: None,
        check: Check::Dims {
            count: 2,
            max: 1_000_000,
            check,
        },
    }
}

/// The properties of the tensor language's foundation.
pub fn properties() -> Vec<Property> {
    vec![
        prop(
            "tl/print-parse-roundtrip",
            "engine invariant (docs/engines/tssa-language.md)",
            "printing a G2 term or a G3 program and parsing it back gives the same tree",
            roundtrip,
        ),
        prop(
            "tl/eval-total",
            "seed 001 §4.2 (S001-X4.2)",
            "evaluation of well-typed G2 terms never fails; without black boxes the denotation is a polynomial of the syntactic degree (exact finite differences vanish)",
            eval_total,
        ),
        prop(
            "sem/tl-let-substitution",
            "seed 001 §4.1 (S001-X4.1a)",
            "⟦e{x := e'}⟧ρ = ⟦e⟧(ρ, x ↦ ⟦e'⟧ρ): inlining a let by capture-avoiding substitution keeps the value, with binders renamed to shadow",
            let_substitution,
        ),
        prop(
            "cost/iverson-discount",
            "seed 001 §4.3 rules 4.24, 4.30 (S001-X2.2c)",
            "C([p] e + [q] e) = [p]C(e) + [q]C(e) + [p ∧ q]; a predicated sum of N non-zero terms costs N − [N > 0] additions",
            iverson_discount,
        ),
        prop(
            "cost/tl-let-sharing",
            "seed 001 §4.3 rule 4.32 (S001-X4.3b)",
            "C(let y = e1 in e2) = C(e1) + C(e2) with y bound to the value of e1",
            let_sharing,
        ),
        prop(
            "cost/tl-brute-force",
            "seed 001 §4.3 (S001-X4.3a)",
            "C equals an independent counter that unrolls index binders by substitution and evaluates every predicate as a closed term",
            brute_force,
        ),
    ]
}
