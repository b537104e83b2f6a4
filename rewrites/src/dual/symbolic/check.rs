//! Checking the separated form of Eq. 6 (seed 000 §7.1, §7.6).
//!
//! [`check_form`] verifies the syntactic conditions §7.1 and §7.6 list for the symbolic
//! Delta of [`super::forward::separate`]:
//!
//! 1. `Share` ids respect invariant 1 (every id inside `Share n d` is smaller than `n`);
//! 2. every `Scale`/`DivBy` factor and `Select` condition is a variable bound by the
//!    primal part (or a parameter), or a literal;
//! 3. every `Index` position is an atom over the primal part's variables, and every
//!    gather/scatter index map mentions only its binders and the primal part's variables;
//! 4. the leaves are `Input` leaves of the real inputs (or `Zero`);
//!
//! and that the primal bindings and result only mention variables bound before them.
//!
//! [`instantiate`] makes the separated form concrete: it evaluates the primal part on
//! inputs and reads every variable reference of the symbolic Delta off the environment,
//! giving a runtime Delta whose forward evaluation is the program's JVP — so the
//! separated form is checked semantically too (property `dual/separated-form`).

use super::forward::{separate, Separated, SV};
use super::{SDelta, Sym};
use crate::dual::delta::{Delta, Kind};
use crate::dual::forward::{check_inputs, Forward};
use crate::dual::value::{seed_input, RDelta, DV};
use crate::kit::anf::TypedLet;
use adora_core::ast::{Expr, ExprKind, Function, Name};
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::visit::{free_vars, pat_names};
use adora_semantics::eval::EvalOptions;
use adora_semantics::scalar::Scalar;
use adora_semantics::value::Value;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// Counts of a checked separated form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FormReport {
    /// Primal bindings.
    pub bindings: usize,
    /// Symbolic Delta nodes (all result components, `Share` bodies once).
    pub delta_nodes: usize,
    /// `Share` ids.
    pub shares: usize,
}

/// The variable of a variable reference or of a projection of one (`p.0.1`).
fn var_name(e: &Expr) -> Option<&Name> {
    match &e.kind {
        ExprKind::Var(n) => Some(n),
        ExprKind::Proj(x, _) => var_name(x),
        _ => None,
    }
}

fn roots(sv: &SV, out: &mut Vec<SDelta>) {
    match sv {
        SV::R(_, d) => out.push(d.clone()),
        SV::N(_) => {}
        SV::T(vs) => vs.iter().for_each(|c| roots(c, out)),
    }
}

/// Checks the separated form of `f` (well typed, build-free); the error says which
/// condition fails.
pub fn check_form(f: &Function) -> std::result::Result<FormReport, String> {
    let sep = separate(f).map_err(|d| format!("the symbolic forward pass fails: {d}"))?;
    let mut scope: BTreeSet<Name> = f.params.iter().map(|p| p.name.clone()).collect();
    for TypedLet {
        pat: p, value: e, ..
    } in &sep.bindings
    {
        let missing: Vec<Name> = free_vars(e)
            .into_iter()
            .filter(|n| !scope.contains(n))
            .collect();
        if !missing.is_empty() {
            return Err(format!("a primal binding mentions unbound {missing:?}"));
        }
        scope.extend(pat_names(p).into_iter().cloned());
    }
    let result = sep.result.primal();
    if let Some(n) = free_vars(&result).into_iter().find(|n| !scope.contains(n)) {
        return Err(format!("the primal result mentions unbound `{n}`"));
    }
    let mut rs = Vec::new();
    roots(&sep.result, &mut rs);
    let mut shares = 0;
    let mut stack: Vec<(SDelta, u64)> = rs.iter().map(|d| (d.clone(), u64::MAX)).collect();
    let mut seen = BTreeSet::new();
    while let Some((d, bound)) = stack.pop() {
        let atom_ok = |e: &Expr| match var_name(e) {
            Some(n) => scope.contains(n),
            None => matches!(e.kind, ExprKind::Lit(_)),
        };
        let mut limit = bound;
        match d.kind() {
            Kind::Share(id, _) => {
                if *id >= bound {
                    return Err(format!(
                        "invariant 1 fails: Share {id} inside an id <= {id}"
                    ));
                }
                if !seen.insert(*id) {
                    continue;
                }
                shares += 1;
                limit = *id;
            }
            Kind::Input(i) if *i >= sep.leaves.len() => {
                return Err(format!("Input {i} is not an input leaf"))
            }
            Kind::Scale(k, _) | Kind::DivBy(k, _) if !atom_ok(k) => {
                return Err(format!(
                    "a factor is not a primal variable: {}",
                    adora_core::pretty::expr(k)
                ))
            }
            Kind::Select(c, _, _) if !atom_ok(c) => {
                return Err(format!(
                    "a condition is not a primal variable: {}",
                    adora_core::pretty::expr(c)
                ))
            }
            Kind::Index(_, ix) if !ix.iter().all(atom_ok) => {
                return Err("an index is not an atom".into())
            }
            Kind::Gather(_, m) | Kind::Scatter(_, m) => {
                for e in &m.ix {
                    let bad = free_vars(e)
                        .into_iter()
                        .find(|n| !scope.contains(n) && !m.binders.contains(n));
                    if let Some(n) = bad {
                        return Err(format!("an index map mentions unbound `{n}`"));
                    }
                }
            }
            _ => {}
        }
        stack.extend(d.children().into_iter().map(|c| (c.clone(), limit)));
    }
    Ok(FormReport {
        bindings: sep.bindings.len(),
        delta_nodes: crate::dual::delta::node_count_all(&rs),
        shares,
    })
}

/// The separated form made concrete at `inputs`: the primal part evaluated (its result's
/// value) and the symbolic Deltas of the result's real components turned into runtime
/// Deltas over the same input leaves.
pub fn instantiate<S: Scalar>(
    f: &Function,
    inputs: &[Value<S>],
    opts: &EvalOptions,
) -> Result<(Value<S>, Vec<RDelta<S>>)> {
    check_inputs(f, inputs)?;
    let sep: Separated = separate(f)?;
    let mut fw: Forward<'_, S> = Forward::new(opts);
    let mut next = 0;
    for (p, v) in f.params.iter().zip(inputs) {
        let dv = seed_input(v, &mut next);
        fw.bind(&p.name, dv);
    }
    for TypedLet {
        pat: p, value: e, ..
    } in &sep.bindings
    {
        let v = fw.eval_primal(e)?;
        match (pat_names(p).as_slice(), v) {
            ([n], v) => fw.bind(n, v),
            (ns, DV::T(vs)) if ns.len() == vs.len() => {
                for (n, c) in ns.iter().zip(vs) {
                    fw.bind(n, c);
                }
            }
            _ => {
                return Err(Diagnostic::new(
                    ErrorKind::Type,
                    e.span,
                    "a tuple binding of a non-tuple",
                ))
            }
        }
    }
    let value = fw.eval_primal(&sep.result.primal())?.primal();
    let mut rs = Vec::new();
    roots(&sep.result, &mut rs);
    let mut memo = HashMap::new();
    let mut out = Vec::with_capacity(rs.len());
    for d in &rs {
        out.push(concrete(d, &mut fw, &mut memo)?);
    }
    Ok((value, out))
}

fn real_of<S: Scalar>(
    fw: &mut Forward<'_, S>,
    e: &Expr,
) -> Result<Rc<adora_semantics::value::Tensor<S>>> {
    match fw.eval_primal(e)? {
        DV::R(t, _) => Ok(t),
        _ => Err(Diagnostic::new(
            ErrorKind::Type,
            e.span,
            "a factor that is not real",
        )),
    }
}

fn concrete<S: Scalar>(
    d: &Delta<Sym>,
    fw: &mut Forward<'_, S>,
    memo: &mut HashMap<u64, RDelta<S>>,
) -> Result<RDelta<S>> {
    let span = adora_core::diag::Span::DUMMY;
    Ok(match d.kind() {
        Kind::Zero => Delta::zero(d.shape().to_vec()),
        Kind::Input(i) => Delta::input(*i, d.shape().to_vec()),
        Kind::Share(id, body) => {
            if let Some(c) = memo.get(id) {
                return Ok(c.clone());
            }
            let c = Delta::with_id(*id, concrete(body, fw, memo)?);
            memo.insert(*id, c.clone());
            c
        }
        Kind::Add(a, b) => Delta::plus(concrete(a, fw, memo)?, concrete(b, fw, memo)?),
        Kind::Neg(a) => Delta::minus(concrete(a, fw, memo)?),
        Kind::Scale(k, a) => Delta::scale(real_of(fw, k)?, concrete(a, fw, memo)?),
        Kind::DivBy(k, a) => Delta::div_by(real_of(fw, k)?, concrete(a, fw, memo)?),
        Kind::Select(c, a, b) => {
            let c = match fw.eval_primal(c)? {
                DV::B(t) => t,
                _ => {
                    return Err(Diagnostic::new(
                        ErrorKind::Type,
                        span,
                        "a condition that is not boolean",
                    ))
                }
            };
            Delta::select(c, concrete(a, fw, memo)?, concrete(b, fw, memo)?)
        }
        Kind::Index(a, ix) => {
            let mut at = Vec::with_capacity(ix.len());
            for i in ix {
                match fw.eval_primal(i)? {
                    DV::Z(t) if t.shape.is_empty() => at.push(t.data[0]),
                    _ => {
                        return Err(Diagnostic::new(
                            ErrorKind::Type,
                            span,
                            "an index that is not a Z scalar",
                        ))
                    }
                }
            }
            let k = at.len();
            Delta::index(concrete(a, fw, memo)?, at, k)
        }
        Kind::Gather(a, m) => {
            let src = a.shape().to_vec();
            let t = fw.table(span, &m.space, &m.binders, &m.ix, &src)?;
            Delta::gather(concrete(a, fw, memo)?, Rc::new(t), d.shape().to_vec())
        }
        Kind::Scatter(a, m) => {
            let t = fw.table(span, &m.space, &m.binders, &m.ix, d.shape())?;
            Delta::scatter(concrete(a, fw, memo)?, Rc::new(t), d.shape().to_vec())
        }
        Kind::Sum(a) => Delta::sum(concrete(a, fw, memo)?),
        Kind::SumOuter(a) => Delta::sum_outer(concrete(a, fw, memo)?),
        Kind::Replicate(n, a) => Delta::replicate(*n, concrete(a, fw, memo)?),
        Kind::Transpose(p, a) => Delta::transpose(p.clone(), concrete(a, fw, memo)?),
        Kind::Reshape(a) => Delta::reshape(d.shape().to_vec(), concrete(a, fw, memo)?),
        Kind::Append(a, b) => Delta::append(concrete(a, fw, memo)?, concrete(b, fw, memo)?),
        Kind::Stack(ds) => {
            let mut cs = Vec::with_capacity(ds.len());
            for x in ds {
                cs.push(concrete(x, fw, memo)?);
            }
            Delta::stack(cs)
        }
    })
}
