//! Conversion of a term in gen-push-out normal form (GP-NF) to Tensor-SSA form
//! (Bernstein et al. 2020, §5.4, Figs. 10–12: rules 5.25–5.34 and the fix-ups F1–F4;
//! docs/engines/tssa-lowering.md, "Conversion to Tensor SSA").
//!
//! | item | rule |
//! |---|---|
//! | [`Conv::rule_5_25_let`] | `S⟦let x = gen I. s in b⟧`, input projections as input statements |
//! | [`Conv::rule_5_26_output`] | `S⟦out⟧`: a variable or a tuple of them |
//! | [`rules`] | `T⟦I; p; s⟧`: rules 5.27–5.34 |
//! | [`Conv::fixup_f1_alias`] | F1: alias statements removed by substitution |
//! | [`rules`] (`fixup_f2_flatten`, `fixup_f4_cse_order`) | F2 flattening, F4 CSE and order normalisation |
//! | [`Conv::fixup_f3_name_output`] | F3: a primitive output named by a statement |
//! | [`canon`] | canonical index names and operand order |
//! | [`check`] | the normal-form checker |

pub mod canon;
pub mod check;
pub mod rename;
pub mod rules;

pub use check::{check_normal_form, is_ssa_normal_form};

use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::tl::{Rhs, SsaOut, SsaProgram, Stmt, Term, Ty, Var};
use adora_core::visit::NameSupply;
use std::collections::HashMap;

/// Options of the conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SsaOptions {
    /// F4's common-subexpression elimination (syntactically equal right-hand sides become
    /// one statement). Off, the conversion preserves the cost `C` exactly; on, it may
    /// only lower it.
    pub cse: bool,
}

impl Default for SsaOptions {
    fn default() -> Self {
        SsaOptions { cse: true }
    }
}

/// Converts the GP-NF term `t` with free variables `inputs` to Tensor-SSA form, with
/// CSE on. A term outside GP-NF is an [`ErrorKind::Internal`] error (the passes produce
/// GP-NF).
pub fn to_ssa(t: &Term, inputs: &[(Var, Ty)]) -> Result<SsaProgram> {
    to_ssa_with(t, inputs, SsaOptions::default())
}

/// [`to_ssa`] with explicit options.
pub fn to_ssa_with(t: &Term, inputs: &[(Var, Ty)], opts: SsaOptions) -> Result<SsaProgram> {
    let mut c = Conv::new(t, inputs, opts);
    let mut cur = t;
    while let Term::Let(x, rhs, body) = cur {
        c.rule_5_25_let(x, rhs)?;
        cur = body;
    }
    let output = c.rule_5_26_output(cur)?;
    Ok(SsaProgram {
        inputs: inputs.to_vec(),
        stmts: c.stmts,
        output,
    })
}

/// An internal error: the input broke the conversion's precondition.
pub fn not_gpnf(what: &str) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Internal,
        Span::DUMMY,
        format!("tssa SSA conversion: the term is not in GP-NF: {what}"),
    )
}

/// The conversion's state.
pub struct Conv {
    opts: SsaOptions,
    /// The statements so far (flat: F2).
    pub stmts: Vec<Stmt>,
    types: HashMap<Var, Ty>,
    inputs: HashMap<Var, Ty>,
    alias: HashMap<Var, Var>,
    memo: HashMap<Rhs, Var>,
    input_stmts: HashMap<(Var, Vec<u8>), Var>,
    names: NameSupply,
}

impl Conv {
    fn new(t: &Term, inputs: &[(Var, Ty)], opts: SsaOptions) -> Conv {
        let mut names = NameSupply::new();
        for (x, _) in inputs {
            names.reserve(x);
        }
        let mut lets = Vec::new();
        let_names(t, &mut lets);
        for x in &lets {
            names.avoid(x);
        }
        Conv {
            opts,
            stmts: Vec::new(),
            types: HashMap::new(),
            inputs: inputs.iter().cloned().collect(),
            alias: HashMap::new(),
            memo: HashMap::new(),
            input_stmts: HashMap::new(),
            names,
        }
    }

    /// The type of a statement variable or input.
    pub fn type_of(&self, v: &str) -> Option<&Ty> {
        self.types.get(v).or_else(|| self.inputs.get(v))
    }

    /// Whether `v` is an input.
    pub fn is_input(&self, v: &str) -> bool {
        self.inputs.contains_key(v) && !self.alias.contains_key(v)
    }

    /// The statement variable a let-bound name stands for (F1).
    pub fn resolve(&self, v: &str) -> Var {
        self.alias.get(v).cloned().unwrap_or_else(|| v.to_string())
    }

    /// The alias map, for renaming value variables in predicates.
    pub fn aliases(&self) -> &HashMap<Var, Var> {
        &self.alias
    }

    /// A fresh statement name (based on `want` when given).
    pub fn name(&mut self, want: Option<&str>) -> Var {
        match want {
            Some(w) => self.names.claim(w),
            None => self.names.fresh("t"),
        }
    }

    /// Records `x` as an alias of `y` (fix-up F1: later references to `x` read `y`, and
    /// no statement `x = y` is made).
    pub fn fixup_f1_alias(&mut self, x: &str, y: &str) {
        let y = self.resolve(y);
        if x != y {
            self.alias.insert(x.to_string(), y);
        }
    }

    /// The input statement `v = X.path` (made once per input and path).
    pub fn input_stmt(&mut self, x: &str, path: &[u8], want: Option<&str>) -> Result<Var> {
        let key = (x.to_string(), path.to_vec());
        if let Some(v) = self.input_stmts.get(&key) {
            return Ok(v.clone());
        }
        let mut ty = self
            .inputs
            .get(x)
            .cloned()
            .ok_or_else(|| not_gpnf(&format!("`{x}` is not an input")))?;
        for &k in path {
            ty = match ty {
                Ty::Pair(a, b) => *(if k == 0 { a } else { b }),
                _ => {
                    return Err(not_gpnf(&format!(
                        "a projection of the non-pair input `{x}`"
                    )))
                }
            };
        }
        let v = self.name(want.or(Some(&format!("{x}_in"))));
        self.types.insert(v.clone(), ty.clone());
        self.stmts.push(Stmt {
            var: v.clone(),
            ty,
            rhs: Rhs::Input {
                input: x.to_string(),
                path: path.to_vec(),
            },
        });
        self.input_stmts.insert(key, v.clone());
        Ok(v)
    }

    /// Rule 5.25: `let x = gen I. s in …` converts `s` under `I` (rule 5.32 collects the
    /// nested `gen`s) and names the result `x`; an input projection `let x = X.k…` is
    /// the input statement; an alias `let x = y` is removed (F1).
    pub fn rule_5_25_let(&mut self, x: &str, rhs: &Term) -> Result<()> {
        if let Some((input, path)) = input_path(rhs) {
            if self.is_input(&input) {
                let v = self.input_stmt(&input, &path, Some(x))?;
                self.fixup_f1_alias(x, &v);
                return Ok(());
            }
            if path.is_empty() {
                self.fixup_f1_alias(x, &input);
                return Ok(());
            }
            return Err(not_gpnf(&format!(
                "a projection of the non-input `{input}`"
            )));
        }
        let (dims, s) = rules::rule_5_32_gen(rhs);
        let v = self.t(&dims, &adora_core::tl::Pred::True, s, Some(x))?;
        self.fixup_f1_alias(x, &v);
        Ok(())
    }

    /// Rule 5.26: the output, a variable or nested pairs of them; anything else is named
    /// first (F3).
    pub fn rule_5_26_output(&mut self, t: &Term) -> Result<SsaOut> {
        match t {
            Term::Pair(a, b) => Ok(SsaOut::Pair(
                Box::new(self.rule_5_26_output(a)?),
                Box::new(self.rule_5_26_output(b)?),
            )),
            _ => self.fixup_f3_name_output(t).map(SsaOut::Var),
        }
    }

    /// F3: the statement variable of an output expression (a variable, an input, or a
    /// primitive expression converted by rule 5.25 under a fresh name).
    pub fn fixup_f3_name_output(&mut self, t: &Term) -> Result<Var> {
        if let Some((input, path)) = input_path(t) {
            if self.is_input(&input) {
                return self.input_stmt(&input, &path, None);
            }
            if path.is_empty() {
                return Ok(self.resolve(&input));
            }
        }
        let o = self.names.fresh("out");
        self.rule_5_25_let(&o, t)?;
        Ok(self.resolve(&o))
    }

    pub(crate) fn push(&mut self, var: Var, ty: Ty, rhs: Rhs) {
        self.types.insert(var.clone(), ty.clone());
        if self.opts.cse {
            self.memo.insert(rhs.clone(), var.clone());
        }
        self.stmts.push(Stmt { var, ty, rhs });
    }

    pub(crate) fn memo(&self, rhs: &Rhs) -> Option<Var> {
        if self.opts.cse {
            self.memo.get(rhs).cloned()
        } else {
            None
        }
    }
}

/// `X.k…` as the variable and the projection path.
pub fn input_path(t: &Term) -> Option<(Var, Vec<u8>)> {
    match t {
        Term::Var(x) => Some((x.clone(), Vec::new())),
        Term::Proj(k, e) => input_path(e).map(|(x, mut p)| {
            p.push(*k);
            (x, p)
        }),
        _ => None,
    }
}

fn let_names(t: &Term, out: &mut Vec<Var>) {
    if let Term::Let(x, a, b) = t {
        out.push(x.clone());
        let_names(a, out);
        let_names(b, out);
    }
}
