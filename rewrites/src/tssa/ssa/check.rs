//! The checker of Tensor-SSA normal form (Bernstein et al. 2020, §5.4, Fig. 10, and its
//! post-conditions; docs/engines/tssa-lowering.md, "Tensor-SSA normal form"): forms and
//! types of the statements, definition before use, canonical order and index names, and
//! (with CSE) no two equal right-hand sides.

use super::canon::canonical;
use adora_core::tl::{Access, Dims, Rhs, SsaOut, SsaProgram, Ty};
use std::collections::{HashMap, HashSet};

/// Whether `p` is in Tensor-SSA normal form, CSE included.
pub fn is_ssa_normal_form(p: &SsaProgram) -> bool {
    check_normal_form(p, true).is_ok()
}

fn tensor_ty(dims: &Dims) -> Ty {
    dims.iter()
        .rev()
        .fold(Ty::Num, |t, (_, n)| Ty::Arr(*n, Box::new(t)))
}

fn check_access(
    a: &Access,
    scope: &Dims,
    types: &HashMap<String, Ty>,
    what: &str,
) -> Result<(), String> {
    let ty = types
        .get(&a.var)
        .ok_or_else(|| format!("{what}: `{}` is not a statement defined before", a.var))?;
    let mut t = ty.clone();
    for v in &a.idx {
        let Some((_, n)) = scope.iter().find(|(w, _)| w == v) else {
            return Err(format!(
                "{what}: the index `{v}` of `{}` is not bound",
                a.var
            ));
        };
        match t {
            Ty::Arr(m, el) if m == *n => t = *el,
            _ => {
                return Err(format!(
                    "{what}: `{}` is accessed by `{v}` of the wrong range or rank",
                    a.var
                ))
            }
        }
    }
    if t != Ty::Num {
        return Err(format!("{what}: `{}[…]` is not a number", a.var));
    }
    Ok(())
}

fn whole(y: &str, dims: &Dims, types: &HashMap<String, Ty>, what: &str) -> Result<(), String> {
    match types.get(y) {
        Some(t) if *t == tensor_ty(dims) => Ok(()),
        Some(t) => Err(format!(
            "{what}: `{y}` has type {t:?}, not that of the statement's dimensions"
        )),
        None => Err(format!("{what}: `{y}` is not a statement defined before")),
    }
}

/// Checks the normal form; with `cse`, also that no two statements have equal
/// right-hand sides. The error says which statement breaks which condition.
pub fn check_normal_form(p: &SsaProgram, cse: bool) -> Result<(), String> {
    let inputs: HashMap<String, Ty> = p.inputs.iter().cloned().collect();
    if inputs.len() != p.inputs.len() {
        return Err("two inputs share a name".into());
    }
    let mut types: HashMap<String, Ty> = HashMap::new();
    let mut seen: HashSet<&Rhs> = HashSet::new();
    for s in &p.stmts {
        let what = format!("statement `{}`", s.var);
        if inputs.contains_key(&s.var) || types.contains_key(&s.var) {
            return Err(format!("{what}: the name is bound twice"));
        }
        if canonical(&s.rhs) != s.rhs {
            return Err(format!(
                "{what}: not in canonical order with canonical index names (expected {:?})",
                canonical(&s.rhs)
            ));
        }
        if cse && !seen.insert(&s.rhs) {
            return Err(format!(
                "{what}: its right-hand side repeats an earlier one (CSE)"
            ));
        }
        let ty = match &s.rhs {
            Rhs::Input { input, path } => {
                let mut t = inputs
                    .get(input)
                    .cloned()
                    .ok_or_else(|| format!("{what}: `{input}` is not an input"))?;
                for &k in path {
                    t = match t {
                        Ty::Pair(a, b) => *(if k == 0 { a } else { b }),
                        _ => return Err(format!("{what}: a projection of a non-pair")),
                    };
                }
                t
            }
            Rhs::Const { dims, .. } => tensor_ty(dims),
            Rhs::Add { dims, y, z, .. } => {
                whole(y, dims, &types, &what)?;
                whole(z, dims, &types, &what)?;
                tensor_ty(dims)
            }
            Rhs::Map { dims, y, .. } => {
                whole(y, dims, &types, &what)?;
                tensor_ty(dims)
            }
            Rhs::Contract {
                dims, sums, y, z, ..
            } => {
                let mut scope = dims.clone();
                scope.extend(sums.iter().cloned());
                check_access(y, &scope, &types, &what)?;
                if let Some(z) = z {
                    check_access(z, &scope, &types, &what)?;
                }
                tensor_ty(dims)
            }
        };
        if ty != s.ty {
            return Err(format!(
                "{what}: declared type {:?}, but its form has {ty:?}",
                s.ty
            ));
        }
        types.insert(s.var.clone(), ty);
    }
    out_defined(&p.output, &types)
}

fn out_defined(o: &SsaOut, types: &HashMap<String, Ty>) -> Result<(), String> {
    match o {
        SsaOut::Var(v) if types.contains_key(v) => Ok(()),
        SsaOut::Var(v) => Err(format!("the output `{v}` is not a statement")),
        SsaOut::Pair(a, b) => {
            out_defined(a, types)?;
            out_defined(b, types)
        }
    }
}
