//! Properties of `R` (seed 001 §6.3): every application of every adjoint rule in real
//! runs preserves the desugared meaning (6.17–6.19) exactly and `C_ext` as the proof of
//! Theorem 6.55 says; the adjoint law on Tensor SSA; the discipline and the left-side
//! invariant; Theorem 6.55 in paper form and in the strong form.

use super::forward::{costs, out_type};
use super::support::{case_of, dot, rng_of, show, tangents, unnest, wrt_all};
use crate::catalogue::{Outcome, Pass};
use adora_core::tl::{Rat, SsaProgram, Term, Var};
use adora_costmodel::tl::{cost_c_ssa, type_size};
use adora_costmodel::tl_ext::cost_ext;
use adora_rewrites::tssa::deriv::adjoint::{reverse, State};
use adora_rewrites::tssa::deriv::forward::{derive, Kind};
use adora_rewrites::tssa::deriv::inner::Right;
use adora_rewrites::tssa::deriv::{jvp, tangent_ty, vjp};
use adora_semantics::tl::{eval_ssa, eval_term, TlEnv, TlValue};
use std::cell::RefCell;

/// A case ready for the rule checks: the program, the environment of `X`, `dX` and `dY`.
struct Run {
    program: SsaProgram,
    wrt: Vec<Var>,
    env: TlEnv<Rat>,
    report: String,
    x_size: u64,
}

fn prepare(d: &[usize]) -> Option<Run> {
    let c = case_of(d);
    let p = c.program.clone();
    let wrt = wrt_all(&p);
    let yty = tangent_ty(&out_type(&p))?;
    if wrt.is_empty() {
        return None;
    }
    let fwd = derive(&p, &wrt).ok()?;
    let mut rng = rng_of(&[d, &[7]].concat());
    let dxs = tangents(&mut rng, &p, &wrt);
    let mut env = TlEnv::from_inputs(&p.inputs, &c.values);
    for ((_, dx, t), v) in fwd.tangent_inputs.iter().zip(&dxs) {
        env.bind_typed(dx.clone(), t.clone(), v.clone());
    }
    let dy = super::cases::value(&mut rng, &yty);
    // `reverse` names the cotangent `dY` unless that name is taken.
    let probe = reverse(&fwd, None).ok()?;
    env.bind_typed(probe.0.cot.0.clone(), yty, dy);
    let x_size = fwd
        .tangent_inputs
        .iter()
        .map(|(_, _, t)| type_size(t))
        .sum();
    Some(Run {
        program: p,
        wrt,
        env,
        report: show(&c),
        x_size,
    })
}

/// Runs `R` on the case, showing every rule application to `check`.
fn observe(
    run: &Run,
    check: &mut dyn FnMut(&str, &State, &State) -> Result<(), String>,
) -> Result<State, String> {
    let fwd = derive(&run.program, &run.wrt).map_err(|e| format!("D fails: {e}"))?;
    let failure = RefCell::new(None);
    let mut obs = |name: &str, a: &State, b: &State| {
        if failure.borrow().is_none() {
            if let Err(m) = check(name, a, b) {
                *failure.borrow_mut() = Some(format!("rule {name}: {m}"));
            }
        }
        Ok(())
    };
    let (st, _) = reverse(&fwd, Some(&mut obs)).map_err(|e| format!("R fails: {e}"))?;
    match failure.into_inner() {
        Some(m) => Err(m),
        None => Ok(st),
    }
}

fn value_of(st: &State, env: &TlEnv<Rat>) -> Result<TlValue<Rat>, String> {
    eval_term(&st.desugar(), env).map_err(|e| format!("the desugared term fails: {e}"))
}

fn c_ext(st: &State, env: &TlEnv<Rat>) -> Result<u64, String> {
    cost_ext(&st.ext(), env).map_err(|e| format!("C_ext fails: {e}"))
}

/// `tssa/rule-<rule>-sound`: every application of the rule (observer name `rule`)
/// keeps the value of the desugared term.
pub fn rule_sound(rule: &str, d: &[usize]) -> Outcome {
    let Some(run) = prepare(d) else {
        return Pass::vacuous();
    };
    let mut fired = 0usize;
    observe(&run, &mut |name, a, b| {
        if name != rule {
            return Ok(());
        }
        fired += 1;
        let (va, vb) = (value_of(a, &run.env)?, value_of(b, &run.env)?);
        if va != vb {
            return Err(format!(
                "value {va} before, {vb} after\nbefore: {}\nafter: {}",
                a.desugar(),
                b.desugar()
            ));
        }
        Ok(())
    })
    .map_err(|m| format!("{m}\ncase:\n{}", run.report))?;
    if fired == 0 {
        Pass::vacuous()
    } else {
        Pass::ok()
    }
}

/// How a rule may change `C_ext` (seed 001 §6.3, proof of Theorem 6.55).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostLaw {
    /// Exactly preserved.
    Equal,
    /// Never raised.
    NoRaise,
    /// Step 3 (6.27 with the dropped filters, 6.28, zero inputs): raised by at most
    /// `|X|` in total.
    Io,
}

/// `tssa/rule-<rule>-cost`.
pub fn rule_cost(rule: &str, law: CostLaw, d: &[usize]) -> Outcome {
    let Some(run) = prepare(d) else {
        return Pass::vacuous();
    };
    let mut fired = 0usize;
    let mut net: i128 = 0;
    let step3 = ["6.27", "6.28", "6.x-zero"];
    observe(&run, &mut |name, a, b| {
        let relevant = match law {
            CostLaw::Io => step3.contains(&name),
            _ => name == rule,
        };
        if !relevant {
            return Ok(());
        }
        fired += 1;
        let (ca, cb) = (c_ext(a, &run.env)?, c_ext(b, &run.env)?);
        match law {
            CostLaw::Equal if ca != cb => Err(format!("C_ext {ca} before, {cb} after")),
            CostLaw::NoRaise if cb > ca => Err(format!("C_ext raised from {ca} to {cb}")),
            _ => {
                net += cb as i128 - ca as i128;
                Ok(())
            }
        }
    })
    .map_err(|m| format!("{m}\ncase:\n{}", run.report))?;
    if law == CostLaw::Io && net > run.x_size as i128 {
        return Err(format!(
            "step 3 raised C_ext by {net} > |X| = {}\ncase:\n{}",
            run.x_size, run.report
        ));
    }
    if fired == 0 {
        Pass::vacuous()
    } else {
        Pass::ok()
    }
}

/// S001-X6.3c: 6.25 leaves every differential binding after the primal ones; 6.31 fires
/// only with exactly one inner product on its variable; at the end one `⟨A, dX⟩` per
/// input and no other inner product. The figure: the number of 6.39 merges.
pub fn single_inner_product(d: &[usize]) -> Outcome {
    let Some(run) = prepare(d) else {
        return Pass::vacuous();
    };
    let mut merges = 0usize;
    let st = observe(&run, &mut |name, a, b| {
        match name {
            "6.31" => {
                let Some((s, Kind::Diff)) = a.lets.last() else {
                    return Err("6.31 on a non-differential binding".into());
                };
                let n = a.ips.iter().filter(|ip| ip.right.mentions(&s.var)).count();
                if n != 1 {
                    return Err(format!("6.31 with {n} inner products on `{}`", s.var));
                }
            }
            "6.39" => merges += 1,
            "6.26" => {
                let first = b.lets.iter().position(|(_, k)| *k == Kind::Diff);
                if first.is_some_and(|f| b.lets[f..].iter().any(|(_, k)| *k != Kind::Diff)) {
                    return Err("a primal binding follows a differential one after 6.25".into());
                }
            }
            _ => {}
        }
        Ok(())
    })
    .map_err(|m| format!("{m}\ncase:\n{}", run.report))?;
    let per_input = st
        .tangent_inputs
        .iter()
        .all(|(_, dx, _)| st.finals.iter().filter(|(d, _)| d == dx).count() == 1);
    if !per_input || !st.ips.is_empty() {
        return Err(format!(
            "final form: {} inner products left, finals {:?}\ncase:\n{}",
            st.ips.len(),
            st.finals,
            run.report
        ));
    }
    Pass::figure(merges as f64)
}

/// S001-X6.3d: in every state, every left side is a variable or a projection of one
/// (cost 0 by rules 4.22 and 4.28), bound to `dY` or an adjoint binding.
pub fn lhs_cost_zero(d: &[usize]) -> Outcome {
    let Some(run) = prepare(d) else {
        return Pass::vacuous();
    };
    observe(&run, &mut |_, _, b| {
        for ip in &b.ips {
            let mut t = ip.left_term();
            while let Term::Proj(_, inner) = t {
                t = *inner;
            }
            let Term::Var(x) = t else {
                return Err("a left side is not a variable".into());
            };
            let bound = x == b.cot.0 || b.adjoints.iter().any(|s| s.var == x);
            if !bound
                || matches!(ip.right, Right::Tangent(_)) && b.lets.iter().any(|(s, _)| s.var == x)
            {
                return Err(format!("the left side `{x}` is not dY or an adjoint"));
            }
        }
        Ok(())
    })
    .map_err(|m| format!("{m}\ncase:\n{}", run.report))?;
    Pass::ok()
}

/// The costs of Theorem 6.55 on a case: `(C(R e), C(D e), C(e), |X|, |Y|)`.
/// `(C(R e), C(D e), C(e), |X|, |Y|)`.
type GradientCosts = (u64, u64, u64, u64, u64);

fn gradient_costs(d: &[usize]) -> Result<Option<GradientCosts>, String> {
    let c = case_of(d);
    let p = &c.program;
    let wrt = wrt_all(p);
    let Some(yty) = tangent_ty(&out_type(p)) else {
        return Ok(None);
    };
    if wrt.is_empty() {
        return Ok(None);
    }
    let r = vjp(p, &wrt).map_err(|e| format!("vjp fails: {e}\n{}", show(&c)))?;
    let mut rng = rng_of(&[d, &[11]].concat());
    let dy = super::cases::value(&mut rng, &yty);
    let args: Vec<_> = c.values.iter().cloned().chain([dy]).collect();
    let cr = cost_c_ssa(&r, &args).map_err(|e| format!("C(R e) fails: {e}\n{r}"))?;
    let (cd, ce) = costs(p, &c.values, d)?;
    let xs: u64 = wrt
        .iter()
        .filter_map(|x| p.inputs.iter().find(|(y, _)| y == x))
        .filter_map(|(_, t)| tangent_ty(t))
        .map(|t| type_size(&t))
        .sum();
    Ok(Some((cr, cd, ce, xs, type_size(&yty))))
}

/// Theorem 6.55: `C(R⟦e⟧) ≤ 4·(C(e) + |X| + |Y|)`; the figure is `C(R) / C_io`.
pub fn cheap_gradient(d: &[usize]) -> Outcome {
    let Some((cr, _, ce, xs, ys)) = gradient_costs(d)? else {
        return Pass::vacuous();
    };
    let io = ce + xs + ys;
    if cr > 4 * io {
        return Err(format!(
            "C(R e) = {cr} > 4 (C(e) + |X| + |Y|) = {}\n{}",
            4 * io,
            show(&case_of(d))
        ));
    }
    Pass::figure(cr as f64 / io.max(1) as f64)
}

/// The strong form `C(R⟦e⟧) ≤ C(D⟦e⟧) + |X| + |Y|`; the figure is the ratio.
pub fn cheap_gradient_strong(d: &[usize]) -> Outcome {
    let Some((cr, cd, _, xs, ys)) = gradient_costs(d)? else {
        return Pass::vacuous();
    };
    if cr > cd + xs + ys {
        return Err(format!(
            "C(R e) = {cr} > C(D e) + |X| + |Y| = {}\n{}",
            cd + xs + ys,
            show(&case_of(d))
        ));
    }
    Pass::figure(cr as f64 / (cd + xs + ys).max(1) as f64)
}

/// The adjoint law on Tensor SSA: `⟨dY, D(x; dX)⟩ = ⟨dX, R(x; dY)⟩`, exactly.
pub fn adjoint_law(d: &[usize]) -> Outcome {
    let c = case_of(d);
    let p = &c.program;
    let wrt = wrt_all(p);
    let Some(yty) = tangent_ty(&out_type(p)) else {
        return Pass::vacuous();
    };
    if wrt.is_empty() {
        return Pass::vacuous();
    }
    let mut rng = rng_of(&[d, &[13]].concat());
    let dxs = tangents(&mut rng, p, &wrt);
    let dy = super::cases::value(&mut rng, &yty);
    let fail = |m: String| format!("{m}\ncase:\n{}", show(&c));
    let jp = jvp(p, &wrt).map_err(|e| fail(format!("jvp fails: {e}")))?;
    let rp = vjp(p, &wrt).map_err(|e| fail(format!("vjp fails: {e}")))?;
    let jargs: Vec<_> = c.values.iter().chain(&dxs).cloned().collect();
    let rargs: Vec<_> = c.values.iter().cloned().chain([dy.clone()]).collect();
    let t = match eval_ssa(&jp, &jargs).map_err(|e| fail(format!("the JVP fails: {e}")))? {
        TlValue::Pair(_, t) => *t,
        v => return Err(fail(format!("the JVP returned `{v}`, not a pair"))),
    };
    let adj = eval_ssa(&rp, &rargs).map_err(|e| fail(format!("the VJP fails: {e}")))?;
    let lhs = dot(&dy, &t).map_err(|e| fail(format!("<dY, J dX>: {e}")))?;
    let mut rhs = Rat::from_integer(0.into());
    for (a, dx) in unnest(&adj, wrt.len()).iter().zip(&dxs) {
        rhs += dot(a, dx).map_err(|e| fail(format!("<R dY, dX>: {e}\nVJP program:\n{rp}")))?;
    }
    if lhs != rhs {
        return Err(fail(format!(
            "<dY, J dX> = {lhs} but <R dY, dX> = {rhs}\nVJP program:\n{rp}"
        )));
    }
    Pass::figure(if lhs == Rat::from_integer(0.into()) {
        0.0
    } else {
        1.0
    })
}
