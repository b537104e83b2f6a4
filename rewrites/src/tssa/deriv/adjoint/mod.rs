//! `R`, the adjoint derivative of a Tensor-SSA program (*Differentiating a Tensor
//! Language* §6.3): rewrite `⟨dY, D⟦e⟧⟩` by the adjoint rules ([`rules`], one function
//! per rule) into `let … in ⟨A1, dX1⟩ + … + ⟨Ak, dXk⟩` and read the adjoints `Ai` off the
//! left sides. The driver follows the order of §6.3 (paragraph 3):
//!
//! 1. `D⟦e⟧` in SSA; 6.20 to exhaustion, then 6.25, then 6.26;
//! 2. for each differential binding `dx = d`, innermost first: collect the inner products
//!    on `dx` (the sum is a list: 6.33–6.36 hold by construction); none: 6.32; several:
//!    6.39; then 6.31 and the rule of `d`'s form (6.44, 6.47, 6.48, 6.49, or a filler);
//! 3. for each input: 6.39 to one inner product per component, drop the filter, 6.27,
//!    6.28; absent inputs get 0;
//! 4. `R⟦e⟧ = let (primal statements) in let (adjoint statements) in (A_X1, …, A_Xk)`,
//!    dead statements removed.
//!
//! The driver asserts the discipline (primal bindings before differential ones after
//! step 1; 6.31 only with exactly one inner product on `dx`; at most one inner product
//! per input component at the end) and the invariant that every left side is a
//! variable or a projection of `dY` (cost 0); a violation is an `Internal` error.

pub mod rules;
pub mod state;

pub use state::{Adj, State};

use super::forward::{derive, Forward, Kind};
use super::inner::Right;
use super::internal;
use super::pred::pred_vars;
use adora_core::diag::Result;
use adora_core::tl::{ConstVal, Rhs, SsaOut, SsaProgram, Stmt, Var};
use std::collections::BTreeSet;

/// A callback seeing every rule application: the rule's name, the state before and
/// after (the per-rule properties check soundness and `C_ext` on it).
pub type Observer<'a> = &'a mut dyn FnMut(&str, &State, &State) -> Result<()>;

/// The VJP program of `p` for the inputs `wrt`: inputs `p.inputs` then the output
/// cotangent (the output's real components); output one adjoint per `wrt` entry (alone
/// for one, right-nested pairs for several).
pub fn vjp(p: &SsaProgram, wrt: &[Var]) -> Result<SsaProgram> {
    let (st, outs) = reverse(&derive(p, wrt)?, None)?;
    program(&st, &outs, None)
}

/// As [`vjp`], with the primal value first: output `(value, adjoints)`.
pub fn vjp_with_value(p: &SsaProgram, wrt: &[Var]) -> Result<SsaProgram> {
    let (st, outs) = reverse(&derive(p, wrt)?, None)?;
    program(&st, &outs, Some(&p.output))
}

/// Applies one rule, showing it to the observer.
fn step<T>(
    name: &str,
    st: &mut State,
    obs: &mut Option<Observer>,
    f: impl FnOnce(&mut State) -> Result<T>,
) -> Result<T> {
    match obs {
        Some(o) => {
            let before = st.clone();
            let out = f(st)?;
            o(name, &before, st)?;
            Ok(out)
        }
        None => f(st),
    }
}

/// Runs the algorithm (module documentation) on `D⟦e⟧`; returns the final state and the
/// adjoint output of each differentiated input.
pub fn reverse(fwd: &Forward, mut obs: Option<Observer>) -> Result<(State, Vec<SsaOut>)> {
    // Step 1.
    let mut st = rules::rule_6_20(fwd, "dY")?;
    if let Some(o) = obs.as_mut() {
        o("6.20", &st, &st)?;
    }
    for j in 0..st.lets.len() {
        let mut k = j;
        while k > 0 && st.lets[k].1 != Kind::Diff && st.lets[k - 1].1 == Kind::Diff {
            step("6.25", &mut st, &mut obs, |s| rules::rule_6_25(s, k - 1))?;
            k -= 1;
        }
    }
    let first_diff = st.lets.iter().position(|(_, k)| *k == Kind::Diff);
    if let Some(f) = first_diff {
        if st.lets[f..].iter().any(|(_, k)| *k != Kind::Diff) {
            return Err(internal(
                "adjoint discipline (6.25): a primal binding follows a differential one".into(),
            ));
        }
    }
    while !st.outs.is_empty() {
        step("6.26", &mut st, &mut obs, |s| rules::rule_6_26(s, 0))?;
    }
    check_lefts(&st)?;
    // Step 2.
    while let Some((s, Kind::Diff)) = st.lets.last().cloned() {
        loop {
            let users: Vec<usize> = (0..st.ips.len())
                .filter(|&k| st.ips[k].right == Right::Diff(s.var.clone()))
                .collect();
            match users[..] {
                [] => {
                    step("6.32", &mut st, &mut obs, rules::rule_6_32)?;
                    break;
                }
                [_] => {
                    let at = step("6.31", &mut st, &mut obs, rules::rule_6_31)?;
                    form_rule(&mut st, &mut obs, at, &s.rhs)?;
                    break;
                }
                [i, j, ..] => step("6.39", &mut st, &mut obs, |s| rules::rule_6_39(s, i, j))?,
            }
        }
        check_lefts(&st)?;
    }
    if st.lets.iter().any(|(_, k)| *k == Kind::Diff) {
        return Err(internal(
            "adjoint discipline: a differential binding is left".into(),
        ));
    }
    // Step 3.
    let mut outs = Vec::new();
    for (_, dx, ty) in st.tangent_inputs.clone() {
        for leaf in super::real_leaves(&ty) {
            let on = Right::Input {
                dx: dx.clone(),
                path: leaf.clone(),
            };
            loop {
                let users: Vec<usize> = (0..st.ips.len())
                    .filter(|&k| st.ips[k].right == on)
                    .collect();
                match users[..] {
                    [] => break,
                    [at] => {
                        step("6.27", &mut st, &mut obs, |s| {
                            rules::drop_filter_and_pad(s, at)
                        })?;
                        break;
                    }
                    [i, j, ..] => step("6.39", &mut st, &mut obs, |s| rules::rule_6_39(s, i, j))?,
                }
            }
        }
        loop {
            let mine: Vec<usize> = (0..st.finals.len())
                .filter(|&k| st.finals[k].0 == dx)
                .collect();
            match mine[..] {
                [] => step("6.x-zero", &mut st, &mut obs, |s| rules::zero_input(s, &dx))?,
                [at] => {
                    let adj = st.finals[at].1.clone();
                    outs.push(rules::materialise(&mut st, &adj)?);
                    break;
                }
                [i, j, ..] => step("6.28", &mut st, &mut obs, |s| rules::rule_6_28(s, i, j))?,
            }
        }
    }
    if !st.ips.is_empty() {
        return Err(internal(format!(
            "adjoint discipline: {} inner products are left on no input",
            st.ips.len()
        )));
    }
    Ok((st, outs))
}

/// The rule for the form of the differential `d` now on the right of the inner product
/// at `at` (step 2).
fn form_rule(st: &mut State, obs: &mut Option<Observer>, at: usize, d: &Rhs) -> Result<()> {
    let copy = |dims: &adora_core::tl::Dims, sums: &adora_core::tl::Dims, idx: &[Var]| {
        sums.is_empty() && dims.iter().map(|(i, _)| i).eq(idx.iter())
    };
    match d {
        Rhs::Input { .. } => step("6.x-input", st, obs, |s| rules::rule_6_x_input(s, at)),
        Rhs::Const { .. } => step("6.x-const", st, obs, |s| rules::rule_6_x_const(s, at)),
        Rhs::Add { .. } => step("6.44", st, obs, |s| rules::rule_6_44(s, at)),
        Rhs::Contract {
            dims,
            sums,
            y,
            z: None,
            ..
        } if copy(dims, sums, &y.idx) => step("6.x-copy", st, obs, |s| rules::rule_6_x_copy(s, at)),
        Rhs::Contract { z: None, .. } => step("6.49", st, obs, |s| rules::rule_6_49(s, at)),
        Rhs::Contract {
            dims,
            sums,
            y,
            z: Some(z),
            ..
        } if copy(dims, sums, &y.idx) && y.idx == z.idx => {
            step("6.47", st, obs, |s| rules::rule_6_47(s, at))
        }
        Rhs::Contract { .. } => step("6.48", st, obs, |s| rules::rule_6_48(s, at)),
        Rhs::Map { .. } => Err(internal(
            "a differential binding is a map; D never produces one".into(),
        )),
    }
}

/// The invariant of Theorem 6.55's proof (X6.3d): every left side is `dY`, a projection
/// of it, or an adjoint variable — cost 0.
fn check_lefts(st: &State) -> Result<()> {
    for ip in &st.ips {
        let ok = ip.left.var == st.cot.0
            || (ip.left.path.is_empty() && st.adjoints.iter().any(|s| s.var == ip.left.var));
        if !ok {
            return Err(internal(format!(
                "adjoint invariant: the left side `{}` is not a variable of cost 0",
                ip.left.var
            )));
        }
    }
    Ok(())
}

/// Step 4: the program `let (primal) in let (adjoint) in (A_X1, …)`, dead statements
/// removed; with `value`, the primal output comes first.
pub fn program(st: &State, outs: &[SsaOut], value: Option<&SsaOut>) -> Result<SsaProgram> {
    let adj = (!outs.is_empty()).then(|| nest(outs));
    let output = match (value, adj) {
        (Some(v), Some(a)) => SsaOut::Pair(Box::new(v.clone()), Box::new(a)),
        (None, Some(a)) => a,
        (_, None) => {
            return Err(super::unsupported(
                "no input is differentiated: the VJP has no output".into(),
            ))
        }
    };
    let stmts: Vec<Stmt> = st
        .lets
        .iter()
        .map(|(s, _)| s.clone())
        .chain(st.adjoints.iter().cloned())
        .collect();
    let mut inputs = st.inputs.clone();
    inputs.push(st.cot.clone());
    Ok(SsaProgram {
        inputs,
        stmts: dead_code(stmts, &output),
        output,
    })
}

/// `(a1, (a2, (…, ak)))`.
fn nest(outs: &[SsaOut]) -> SsaOut {
    match outs {
        [a] => a.clone(),
        [a, rest @ ..] => SsaOut::Pair(Box::new(a.clone()), Box::new(nest(rest))),
        [] => unreachable!("nest is called on a non-empty list"),
    }
}

fn out_vars(o: &SsaOut, acc: &mut BTreeSet<Var>) {
    match o {
        SsaOut::Var(x) => {
            acc.insert(x.clone());
        }
        SsaOut::Pair(a, b) => {
            out_vars(a, acc);
            out_vars(b, acc);
        }
    }
}

/// The variables a right-hand side reads (operands and predicate data).
pub fn rhs_vars(rhs: &Rhs, acc: &mut BTreeSet<Var>) {
    match rhs {
        Rhs::Input { input, .. } => {
            acc.insert(input.clone());
        }
        Rhs::Const { pred, value, .. } => {
            pred_vars(pred, acc);
            if let ConstVal::Index(a) = value {
                super::pred::index_vars(a, acc);
            }
        }
        Rhs::Add { p, y, q, z, .. } => {
            pred_vars(p, acc);
            pred_vars(q, acc);
            acc.insert(y.clone());
            acc.insert(z.clone());
        }
        Rhs::Map { pred, y, .. } => {
            pred_vars(pred, acc);
            acc.insert(y.clone());
        }
        Rhs::Contract { pred, y, z, .. } => {
            pred_vars(pred, acc);
            acc.insert(y.var.clone());
            if let Some(z) = z {
                acc.insert(z.var.clone());
            }
        }
    }
}

/// The statements the output needs, in order.
pub fn dead_code(stmts: Vec<Stmt>, output: &SsaOut) -> Vec<Stmt> {
    let mut live = BTreeSet::new();
    out_vars(output, &mut live);
    let mut keep = vec![false; stmts.len()];
    for (k, s) in stmts.iter().enumerate().rev() {
        if live.contains(&s.var) {
            keep[k] = true;
            rhs_vars(&s.rhs, &mut live);
        }
    }
    stmts
        .into_iter()
        .zip(keep)
        .filter_map(|(s, k)| k.then_some(s))
        .collect()
}
