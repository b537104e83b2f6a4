//! Properties of `D` (seed 001 §6.2, Fig. 13): per primal form, the tangent block is the
//! derivative (prefix programs ending in a statement of that form, against the
//! dual-number JVP of the TL evaluator, exactly); the whole program (rule 6.16, the
//! chain rule); Theorem 6.1 (`C(D⟦e⟧) ≤ 4·C(e)`); code size (S001-X6.2b).

use super::support::{case_of, rng_of, show, tangents, to_full, to_reals, wrt_all};
use crate::catalogue::{Outcome, Pass};
use adora_core::tl::{ssa_to_term, Rat, Rhs, SsaOut, SsaProgram, Stmt, Term, Ty, Var};
use adora_costmodel::tl::cost_c_ssa;
use adora_rewrites::tssa::deriv::jvp;
use adora_semantics::tl::{eval_ssa, tl_jvp, TlEnv, TlValue};
use rand::seq::SliceRandom;
use rand::Rng;

/// The primal forms of Fig. 13's table, by the rule that differentiates them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Inputs (rules 6.1, 6.2, 6.8).
    Input,
    /// Constants (6.3).
    Const,
    /// Additions (6.4).
    Add,
    /// Binary contractions (6.5, Leibniz).
    Product,
    /// Maps (6.6).
    Map,
    /// Unary contractions (6.10).
    Sum,
}

fn form(rhs: &Rhs) -> Form {
    match rhs {
        Rhs::Input { .. } => Form::Input,
        Rhs::Const { .. } => Form::Const,
        Rhs::Add { .. } => Form::Add,
        Rhs::Map { .. } => Form::Map,
        Rhs::Contract { z: Some(_), .. } => Form::Product,
        Rhs::Contract { z: None, .. } => Form::Sum,
    }
}

/// A random subset of the differentiable inputs (so that rule 6.2's zeros occur).
fn some_wrt(rng: &mut impl Rng, p: &SsaProgram) -> Vec<Var> {
    let mut all = wrt_all(p);
    all.shuffle(rng);
    let keep = if all.is_empty() {
        0
    } else {
        rng.gen_range(1..=all.len())
    };
    all.truncate(keep);
    all
}

/// `jvp(p)` evaluated at `values` and random tangents equals the dual-number JVP of the
/// TL evaluator, exactly. `Ok(false)`: nothing to compare (no real output).
fn agree(p: &SsaProgram, values: &[TlValue<Rat>], d: &[usize]) -> Result<bool, String> {
    let mut rng = rng_of(&[d, &[p.stmts.len()]].concat());
    let wrt = some_wrt(&mut rng, p);
    if wrt.is_empty() {
        return Ok(false);
    }
    let dxs = tangents(&mut rng, p, &wrt);
    let jp = jvp(p, &wrt).map_err(|e| format!("jvp fails: {e}"))?;
    let out_ty = out_type(p);
    let Some(_) = adora_rewrites::tssa::deriv::tangent_ty(&out_ty) else {
        return Ok(false);
    };
    let args: Vec<_> = values.iter().chain(&dxs).cloned().collect();
    let got = eval_ssa(&jp, &args).map_err(|e| format!("the JVP program fails: {e}\n{jp}"))?;
    let env = TlEnv::from_inputs(&p.inputs, values);
    let seeds: Vec<(Var, TlValue<Rat>)> = wrt
        .iter()
        .zip(&dxs)
        .map(|(x, t)| {
            let k = p.inputs.iter().position(|(y, _)| y == x).unwrap_or(0);
            (x.clone(), to_full(t, &values[k], &p.inputs[k].1))
        })
        .collect();
    let (v, t) = tl_jvp(&ssa_to_term(p), &env, &seeds)
        .map_err(|e| format!("the dual-number JVP fails: {e}"))?;
    let want = TlValue::Pair(
        Box::new(v),
        Box::new(to_reals(&t, &out_ty).ok_or("no real tangent")?),
    );
    if got != want {
        return Err(format!(
            "D differs from the dual-number JVP (wrt {wrt:?}, tangents {}):\n got {got}\nwant {want}\nJVP program:\n{jp}",
            dxs.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ")
        ));
    }
    Ok(true)
}

/// The output type of a program.
pub fn out_type(p: &SsaProgram) -> Ty {
    fn go(p: &SsaProgram, o: &SsaOut) -> Ty {
        match o {
            SsaOut::Var(x) => p
                .stmts
                .iter()
                .find(|s| &s.var == x)
                .map(|s| s.ty.clone())
                .unwrap_or(Ty::Num),
            SsaOut::Pair(a, b) => Ty::Pair(Box::new(go(p, a)), Box::new(go(p, b))),
        }
    }
    go(p, &p.output)
}

/// The program `p` cut after statement `k`, with that statement as its output.
fn prefix(p: &SsaProgram, k: usize) -> SsaProgram {
    let stmts: Vec<Stmt> = p.stmts[..=k].to_vec();
    SsaProgram {
        inputs: p.inputs.clone(),
        output: SsaOut::Var(stmts[k].var.clone()),
        stmts,
    }
}

/// Per rule: every statement of form `f` gets the right tangent block.
pub fn rule_sound(f: Form, d: &[usize]) -> Outcome {
    let c = case_of(d);
    let mut any = false;
    for k in 0..c.program.stmts.len() {
        if form(&c.program.stmts[k].rhs) != f {
            continue;
        }
        let p = prefix(&c.program, k);
        any |= agree(&p, &c.values, d).map_err(|m| format!("{m}\ncase:\n{}", show(&c)))?;
    }
    if any {
        Pass::ok()
    } else {
        Pass::vacuous()
    }
}

/// Rule 6.16 and S001-X6.2a: `D` of the whole program equals the dual-number JVP.
pub fn whole_program(d: &[usize]) -> Outcome {
    let c = case_of(d);
    match agree(&c.program, &c.values, d).map_err(|m| format!("{m}\ncase:\n{}", show(&c)))? {
        true => Pass::ok(),
        false => Pass::vacuous(),
    }
}

/// `C` of `jvp(p)` and of `p` at the case's values and random tangents.
pub fn costs(p: &SsaProgram, values: &[TlValue<Rat>], d: &[usize]) -> Result<(u64, u64), String> {
    let wrt = wrt_all(p);
    let mut rng = rng_of(d);
    let dxs = tangents(&mut rng, p, &wrt);
    let jp = jvp(p, &wrt).map_err(|e| format!("jvp fails: {e}"))?;
    let args: Vec<_> = values.iter().chain(&dxs).cloned().collect();
    let cd = cost_c_ssa(&jp, &args).map_err(|e| format!("C(D e) fails: {e}\n{jp}"))?;
    let ce = cost_c_ssa(p, values).map_err(|e| format!("C(e) fails: {e}"))?;
    Ok((cd, ce))
}

/// Theorem 6.1: `C(D⟦e⟧) ≤ 4·C(e)`; the figure is the ratio.
pub fn ops_bound(d: &[usize]) -> Outcome {
    let c = case_of(d);
    if wrt_all(&c.program).is_empty() {
        return Pass::vacuous();
    }
    let (cd, ce) = costs(&c.program, &c.values, d).map_err(|m| format!("{m}\n{}", show(&c)))?;
    if cd > 4 * ce {
        return Err(format!("C(D e) = {cd} > 4 C(e) = {}\n{}", 4 * ce, show(&c)));
    }
    Pass::figure(if ce == 0 { 0.0 } else { cd as f64 / ce as f64 })
}

/// S001-X6.2b: `#stmts(D⟦e⟧) ≤ 4·#stmts(e)` on the case; and on the n-fold product
/// (n = 2…12) the derivative by the term rules without lets grows quadratically (second
/// differences constant, non-zero) while `D` on its SSA form grows linearly.
pub fn code_size(d: &[usize]) -> Outcome {
    let c = case_of(d);
    let wrt = wrt_all(&c.program);
    if !wrt.is_empty() {
        let jp = jvp(&c.program, &wrt).map_err(|e| format!("jvp fails: {e}"))?;
        if jp.stmts.len() > 4 * c.program.stmts.len() {
            return Err(format!(
                "{} tangent-program statements for {} statements\n{}",
                jp.stmts.len(),
                c.program.stmts.len(),
                show(&c)
            ));
        }
    }
    let n = 2 + d[0] % 11;
    let (tree, ssa) = (
        [n, n + 1, n + 2].map(|k| size(&d_term(&product(k)))),
        [n, n + 1, n + 2].map(|k| {
            let p = product_ssa(k);
            jvp(&p, &wrt_all(&p)).map(|j| j.stmts.len()).unwrap_or(0)
        }),
    );
    let second = |s: [usize; 3]| s[2] as i64 - 2 * s[1] as i64 + s[0] as i64;
    if second(tree) <= 0 || second(ssa) != 0 {
        return Err(format!(
            "n-fold product at n = {n}: term-rule sizes {tree:?} (want quadratic), SSA sizes {ssa:?} (want linear)"
        ));
    }
    Pass::figure(jvp_ratio(&c.program, &wrt))
}

fn jvp_ratio(p: &SsaProgram, wrt: &[Var]) -> f64 {
    match jvp(p, wrt) {
        Ok(j) if !p.stmts.is_empty() && !wrt.is_empty() => {
            j.stmts.len() as f64 / p.stmts.len() as f64
        }
        _ => 0.0,
    }
}

/// `x1 * (x2 * (… * xn))`.
fn product(n: usize) -> Term {
    (1..n).rev().fold(Term::Var(format!("x{n}")), |t, k| {
        Term::Mul(Box::new(Term::Var(format!("x{k}"))), Box::new(t))
    })
}

/// The derivative by rules 6.1, 6.4, 6.5 on a let-free product term.
fn d_term(t: &Term) -> Term {
    match t {
        Term::Var(x) => Term::Var(format!("d{x}")),
        Term::Mul(a, b) => Term::Add(
            Box::new(Term::Mul(Box::new(d_term(a)), b.clone())),
            Box::new(Term::Mul(a.clone(), Box::new(d_term(b)))),
        ),
        other => other.clone(),
    }
}

fn size(t: &Term) -> usize {
    match t {
        Term::Add(a, b) | Term::Mul(a, b) => 1 + size(a) + size(b),
        _ => 1,
    }
}

/// The n-fold product of scalar inputs in Tensor SSA (a chain of binary contractions).
fn product_ssa(n: usize) -> SsaProgram {
    use adora_core::tl::{Access, Pred};
    let mut stmts = Vec::new();
    let inputs: Vec<(Var, Ty)> = (1..=n).map(|k| (format!("x{k}"), Ty::Num)).collect();
    for (x, _) in &inputs {
        stmts.push(Stmt {
            var: format!("a{x}"),
            ty: Ty::Num,
            rhs: Rhs::Input {
                input: x.clone(),
                path: vec![],
            },
        });
    }
    let mut acc = format!("ax{n}");
    for k in (1..n).rev() {
        let var = format!("p{k}");
        let a = |v: &str| Access {
            var: v.to_string(),
            idx: vec![],
        };
        stmts.push(Stmt {
            var: var.clone(),
            ty: Ty::Num,
            rhs: Rhs::Contract {
                dims: vec![],
                sums: vec![],
                pred: Pred::True,
                y: a(&format!("ax{k}")),
                z: Some(a(&acc)),
            },
        });
        acc = var;
    }
    SsaProgram {
        inputs,
        stmts,
        output: SsaOut::Var(acc),
    }
}
