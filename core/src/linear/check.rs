//! The Linear A type checker (seed 002 §4.2, Fig. 4), in our notation.
//!
//! Judgement `Γ ; Δ ⊢ e : (τ… ; σ…)`: `Γ` the non-linear variables, `Δ` the linear ones.
//!
//! * **Linear variables are used exactly once** (TypeLinVar, the disjoint split `Δ1 ⊎ Δ2`
//!   of TypeLet): a second use is an error at that use ("fan it out with `dup`"); an
//!   unused one is an error at its binding ("consume it with `drop`").
//! * **Non-linear variables are used at least once** (TypeVar, the union `Γ1 ∪ Γ2`): an
//!   unused one is an error at its binding (§4.3.1: `drop` is charged, so it is explicit).
//! * TypeLit, TypePrim: literals and non-linear primitives are typed as in the core
//!   language (strictly: no implicit broadcast, `2` is a `Z`, `2.0` an `R`), and read only
//!   non-linear atoms.
//! * TypeLinZero `Γ ; · ⊢ zero(σ) : (; σ)`; TypeLinPlus `Γ ; Δ1 ⊎ Δ2 ⊢ da + db : (; σ)`
//!   with `da, db : σ`; TypeLinMul `Γ ; Δ ⊢ x * dy : (; σ)` with `x : R` (or `x : σ`, an
//!   array type) non-linear and `dy : σ` linear; TypeDup `Γ ; dx:σ ⊢ dup(dx) : (; σ, σ)`;
//!   TypeDrop `Γ ; Δ ⊢ drop(x) : ( ; )` for a linear or non-linear `x`.
//! * Linear array primitives (index, one_hot, gather, scatter, sum, sum_outer, replicate,
//!   transpose, reshape, append, split, select with a non-linear condition) take their
//!   linear arguments from `Δ` and the others (indices, conditions) from `Γ`, with the
//!   shapes of their core counterparts.
//! * Every linear type contains only reals (`R` arrays and tuples of them).
//! * Binders are unique within a def (no shadowing), and a def calls only earlier defs.
//!
//! Errors are [`Diagnostic`]s with the position of the offending construct, never panics.

use super::ast::{is_real_type, Atom, Binders, LExpr, LKind, LinearDef, LinearProgram, Op};
pub use super::optype::{core_expr, lit_type, masked_branch, op_type};
use crate::ast::{BinOp, Name};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use crate::types::Type;
use std::collections::HashMap;

/// The type and linearity of a variable.
#[derive(Clone, Debug, PartialEq)]
pub struct VarInfo {
    /// Its type.
    pub ty: Type,
    /// Whether it is linear.
    pub linear: bool,
}

/// The variables (parameters and every binder) of one checked def.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DefTypes {
    /// Type and linearity of each variable (names are unique within a def).
    pub vars: HashMap<Name, VarInfo>,
}

impl DefTypes {
    /// The type of `name` (`R` for unknown names, which a checked def does not have).
    pub fn ty(&self, name: &str) -> Type {
        self.vars
            .get(name)
            .map(|v| v.ty.clone())
            .unwrap_or_else(Type::real)
    }
    /// Whether `name` is linear.
    pub fn is_linear(&self, name: &str) -> bool {
        self.vars.get(name).is_some_and(|v| v.linear)
    }
}

/// A def's signature: non-linear and linear parameter types, non-linear and linear
/// result types.
#[derive(Clone, Debug, PartialEq)]
pub struct Sig {
    /// Non-linear parameter types.
    pub params: Vec<Type>,
    /// Linear parameter types.
    pub lparams: Vec<Type>,
    /// Non-linear result types.
    pub ret: Vec<Type>,
    /// Linear result types.
    pub lret: Vec<Type>,
}

/// What the checker learned about a program.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProgramTypes {
    /// Per def: its variables.
    pub defs: HashMap<Name, DefTypes>,
    /// Per def: its signature.
    pub sigs: HashMap<Name, Sig>,
}

impl ProgramTypes {
    /// The variables of def `name` (empty for an unknown def).
    pub fn def(&self, name: &str) -> DefTypes {
        self.defs.get(name).cloned().unwrap_or_default()
    }
}

fn err(kind: ErrorKind, span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(kind, span, msg)
}

/// Checks a whole program (Fig. 4 for every def, in order) and returns the types of
/// every def's variables. Runs on a large stack ([`crate::with_stack`]).
pub fn check_program(p: &LinearProgram) -> Result<ProgramTypes> {
    crate::with_stack(|| check_here(p))
}

fn check_here(p: &LinearProgram) -> Result<ProgramTypes> {
    let mut out = ProgramTypes::default();
    for d in &p.defs {
        if out.sigs.contains_key(&d.name) {
            return Err(err(
                ErrorKind::Name,
                d.span,
                format!("`{}` is defined twice", d.name),
            ));
        }
        let types = check_def(d, &out.sigs)?;
        out.defs.insert(d.name.clone(), types);
        out.sigs.insert(d.name.clone(), sig_of(d));
    }
    Ok(out)
}

/// The signature of a def.
pub fn sig_of(d: &LinearDef) -> Sig {
    Sig {
        params: d.params.iter().map(|p| p.ty.clone()).collect(),
        lparams: d.lparams.iter().map(|p| p.ty.clone()).collect(),
        ret: d.ret.clone(),
        lret: d.lret.clone(),
    }
}

/// Checks one def against the signatures of the defs before it.
pub fn check_def(d: &LinearDef, sigs: &HashMap<Name, Sig>) -> Result<DefTypes> {
    let mut ck = Ck {
        sigs,
        env: HashMap::new(),
        all: DefTypes::default(),
    };
    for p in &d.params {
        ck.bind(&p.name, p.ty.clone(), false, p.span)?;
    }
    for p in &d.lparams {
        if !is_real_type(&p.ty) {
            return Err(err(
                ErrorKind::Type,
                p.span,
                format!(
                    "the linear parameter `{}` has type {}; linear values contain only reals",
                    p.name, p.ty
                ),
            ));
        }
        ck.bind(&p.name, p.ty.clone(), true, p.span)?;
    }
    for t in &d.lret {
        if !is_real_type(t) {
            return Err(err(
                ErrorKind::Type,
                d.span,
                format!(
                    "a linear result of `{}` has type {t}; linear values contain only reals",
                    d.name
                ),
            ));
        }
    }
    let (nl, lin) = ck.expr(&d.body)?;
    if nl != d.ret || lin != d.lret {
        return Err(err(
            ErrorKind::Type,
            d.body.span,
            format!(
                "the body of `{}` returns {}, but the def declares {}",
                d.name,
                show_results(&nl, &lin),
                show_results(&d.ret, &d.lret)
            ),
        ));
    }
    for p in d.params.iter().chain(&d.lparams) {
        ck.unbind(&p.name, p.span)?;
    }
    Ok(ck.all)
}

/// `(R, Z ; R[3])`.
pub fn show_results(nl: &[Type], lin: &[Type]) -> String {
    let j = |ts: &[Type]| {
        ts.iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!("({} ; {})", j(nl), j(lin))
}

struct Var {
    ty: Type,
    linear: bool,
    uses: usize,
}

struct Ck<'a> {
    sigs: &'a HashMap<Name, Sig>,
    env: HashMap<Name, Var>,
    all: DefTypes,
}

impl Ck<'_> {
    fn bind(&mut self, name: &str, ty: Type, linear: bool, span: Span) -> Result<()> {
        if self.all.vars.contains_key(name) {
            return Err(err(
                ErrorKind::Name,
                span,
                format!("`{name}` is bound twice (the names of a def must be unique)"),
            ));
        }
        if linear && !is_real_type(&ty) {
            return Err(err(
                ErrorKind::Type,
                span,
                format!("the linear variable `{name}` would have type {ty}; linear values contain only reals"),
            ));
        }
        self.all.vars.insert(
            name.to_string(),
            VarInfo {
                ty: ty.clone(),
                linear,
            },
        );
        self.env.insert(
            name.to_string(),
            Var {
                ty,
                linear,
                uses: 0,
            },
        );
        Ok(())
    }

    fn unbind(&mut self, name: &str, span: Span) -> Result<()> {
        let Some(v) = self.env.remove(name) else {
            return Ok(());
        };
        if v.uses == 0 {
            let what = if v.linear { "linear" } else { "non-linear" };
            return Err(err(
                ErrorKind::Type,
                span,
                format!(
                    "the {what} variable `{name}` is never used (consume it with `drop({name})`)"
                ),
            ));
        }
        Ok(())
    }

    fn lookup(&mut self, name: &str, span: Span) -> Result<&mut Var> {
        self.env
            .get_mut(name)
            .ok_or_else(|| err(ErrorKind::Name, span, format!("unbound variable `{name}`")))
    }

    /// A non-linear use of an atom (TypeVar / TypeLit).
    fn use_nl(&mut self, a: &Atom, span: Span) -> Result<Type> {
        match a {
            Atom::Lit(l) => Ok(lit_type(l)),
            Atom::Var(n) => {
                let v = self.lookup(n, span)?;
                if v.linear {
                    return Err(err(
                        ErrorKind::Type,
                        span,
                        format!("the linear variable `{n}` is used where a non-linear value is expected"),
                    ));
                }
                v.uses += 1;
                Ok(v.ty.clone())
            }
        }
    }

    /// A linear use of an atom (TypeLinVar): exactly once.
    fn use_lin(&mut self, a: &Atom, span: Span) -> Result<Type> {
        let Atom::Var(n) = a else {
            return Err(err(
                ErrorKind::Type,
                span,
                "a literal is not a linear value (write `zero(T)` for a linear zero)",
            ));
        };
        self.use_lin_var(n, span)
    }

    fn use_lin_var(&mut self, n: &str, span: Span) -> Result<Type> {
        let v = self.lookup(n, span)?;
        if !v.linear {
            return Err(err(
                ErrorKind::Type,
                span,
                format!("the non-linear variable `{n}` is used where a linear value is expected"),
            ));
        }
        if v.uses > 0 {
            return Err(err(
                ErrorKind::Type,
                span,
                format!(
                    "the linear variable `{n}` is used more than once (fan it out with `dup({n})`)"
                ),
            ));
        }
        v.uses = 1;
        Ok(v.ty.clone())
    }

    fn bind_all(&mut self, b: &Binders, nl: Vec<Type>, lin: Vec<Type>, span: Span) -> Result<()> {
        if b.nl.len() != nl.len() || b.lin.len() != lin.len() {
            return Err(err(
                ErrorKind::Type,
                span,
                format!(
                    "the pattern binds {} non-linear and {} linear values, but the expression returns {}",
                    b.nl.len(),
                    b.lin.len(),
                    show_results(&nl, &lin)
                ),
            ));
        }
        for (n, t) in b.nl.iter().zip(nl) {
            self.bind(n, t, false, span)?;
        }
        for (n, t) in b.lin.iter().zip(lin) {
            self.bind(n, t, true, span)?;
        }
        Ok(())
    }

    fn expr(&mut self, e: &LExpr) -> Result<(Vec<Type>, Vec<Type>)> {
        let span = e.span;
        match &e.kind {
            LKind::Ret(atoms, lins) => {
                let mut nl = Vec::new();
                for a in atoms {
                    nl.push(self.use_nl(a, span)?);
                }
                let mut lin = Vec::new();
                for n in lins {
                    lin.push(self.use_lin_var(n, span)?);
                }
                Ok((nl, lin))
            }
            LKind::Let(b, bound, body) => {
                let (nl, lin) = self.expr(bound)?;
                self.bind_all(b, nl, lin, span)?;
                let out = self.expr(body)?;
                for n in b.nl.iter().chain(&b.lin) {
                    self.unbind(n, span)?;
                }
                Ok(out)
            }
            LKind::Unpack(names, t, body) => {
                let v = self.lookup(t, span)?;
                let linear = v.linear;
                let ty = v.ty.clone();
                let Type::Tuple(ts) = &ty else {
                    return Err(err(
                        ErrorKind::Type,
                        span,
                        format!("only a tuple can be unpacked; `{t}` has type {ty}"),
                    ));
                };
                if ts.len() != names.len() {
                    return Err(err(
                        ErrorKind::Type,
                        span,
                        format!(
                            "the pattern has {} names but `{t}` has type {ty}",
                            names.len()
                        ),
                    ));
                }
                if linear {
                    self.use_lin_var(t, span)?;
                } else {
                    self.use_nl(&Atom::Var(t.clone()), span)?;
                }
                for (n, ct) in names.iter().zip(ts) {
                    self.bind(n, ct.clone(), linear, span)?;
                }
                let out = self.expr(body)?;
                for n in names {
                    self.unbind(n, span)?;
                }
                Ok(out)
            }
            LKind::Call(f, args, largs) => {
                let Some(sig) = self.sigs.get(f) else {
                    return Err(err(
                        ErrorKind::Name,
                        span,
                        format!("unknown function `{f}` (a def may call only earlier defs)"),
                    ));
                };
                let sig = sig.clone();
                if args.len() != sig.params.len() || largs.len() != sig.lparams.len() {
                    return Err(err(
                        ErrorKind::Type,
                        span,
                        format!(
                            "`{f}` takes {} non-linear and {} linear arguments, given {} and {}",
                            sig.params.len(),
                            sig.lparams.len(),
                            args.len(),
                            largs.len()
                        ),
                    ));
                }
                for (k, (a, t)) in args.iter().zip(&sig.params).enumerate() {
                    let at = self.use_nl(a, span)?;
                    expect_ty(&at, t, span, &format!("argument {} of `{f}`", k + 1))?;
                }
                for (k, (a, t)) in largs.iter().zip(&sig.lparams).enumerate() {
                    let at = self.use_lin_var(a, span)?;
                    expect_ty(&at, t, span, &format!("linear argument {} of `{f}`", k + 1))?;
                }
                Ok((sig.ret, sig.lret))
            }
            LKind::Dup(x) => {
                let v = self.lookup(x, span)?;
                if !v.linear {
                    return Err(err(
                        ErrorKind::Type,
                        span,
                        format!("`dup` is for linear variables; the non-linear `{x}` may simply be used again"),
                    ));
                }
                let t = self.use_lin_var(x, span)?;
                Ok((Vec::new(), vec![t.clone(), t]))
            }
            LKind::Drop(x) => {
                let linear = self.lookup(x, span)?.linear;
                if linear {
                    self.use_lin_var(x, span)?;
                } else {
                    self.use_nl(&Atom::Var(x.clone()), span)?;
                }
                Ok((Vec::new(), Vec::new()))
            }
            LKind::Op { op, args, linear } => {
                let t = self.op(op, args, *linear, span)?;
                Ok(if *linear {
                    (Vec::new(), vec![t])
                } else {
                    (vec![t], Vec::new())
                })
            }
        }
    }

    fn op(&mut self, op: &Op, args: &[Atom], linear: bool, span: Span) -> Result<Type> {
        let mask = if linear {
            op.linear_args(args.len()).ok_or_else(|| {
                err(
                    ErrorKind::Type,
                    span,
                    format!("{} has no linear form (linear operations: zero, +, scaling x * dy, dup, drop, tuples, index, one_hot, gather, scatter, sum, sum_outer, replicate, transpose, reshape, append, split, select)", op.name()),
                )
            })?
        } else {
            if matches!(op, Op::Zero(_)) {
                return Err(err(ErrorKind::Type, span, "`zero` is linear only"));
            }
            vec![false; args.len()]
        };
        if linear {
            if let Op::Binary(BinOp::Mul) = op {
                if let Some(Atom::Var(v)) = args.first() {
                    if self.env.get(v).is_some_and(|x| x.linear) {
                        return Err(err(
                            ErrorKind::Type,
                            span,
                            "linear scaling is right-linear: write the non-linear factor on the left (`x * dy`); two linear factors are not linear",
                        ));
                    }
                }
            }
        }
        let masked = masked_branch(op, args);
        let mut tys = Vec::with_capacity(args.len());
        for (k, (a, lin)) in args.iter().zip(&mask).enumerate() {
            tys.push(if masked == Some(k) {
                Type::real()
            } else if *lin {
                self.use_lin(a, span)?
            } else {
                self.use_nl(a, span)?
            });
        }
        if let Op::Gather(_, bs, ix) | Op::Scatter(_, bs, ix) = op {
            for e in ix {
                for v in crate::visit::free_vars(e) {
                    if !bs.contains(&v) {
                        self.use_nl(&Atom::Var(v), e.span)?;
                    }
                }
            }
        }
        let t = op_type(op, args, &tys, linear, &|n| {
            self.env.get(n).map(|v| v.ty.clone())
        })
        .map_err(|d| respan(d, span))?;
        if linear && !is_real_type(&t) {
            return Err(err(
                ErrorKind::Type,
                span,
                format!("a linear operation must return reals, this one returns {t}"),
            ));
        }
        Ok(t)
    }
}

fn respan(mut d: Diagnostic, span: Span) -> Diagnostic {
    if d.span == Span::DUMMY {
        d.span = span;
    }
    d
}

fn expect_ty(found: &Type, want: &Type, span: Span, what: &str) -> Result<()> {
    if found == want {
        Ok(())
    } else {
        Err(err(
            ErrorKind::Type,
            span,
            format!("{what}: expected {want}, found {found}"),
        ))
    }
}
