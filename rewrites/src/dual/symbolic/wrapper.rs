//! The wrapper (seed 000 §7.5, Fig. 21): from a build-free elaborated function to a core
//! gradient program.
//!
//! ```text
//! def f(x1: T1, …, xn: Tn, dret: T) -> (T, G1, …, Gk) =
//!   let <primal bindings of Eq. 6> in
//!   let <shared cotangents, ascending ids> in
//!   (primal result, gradient of real input 1, …, gradient of real input k)
//! ```
//!
//! * The parameters are `f`'s, plus the incoming cotangent `dret` of `f`'s result type
//!   (named `dret`, or `dret_1`, … when the program uses that name).
//! * The result is a tuple of the value and one gradient per parameter that contains
//!   reals, in parameter order (the reference's `Gradient::grads` without the `None`s);
//!   a gradient has its parameter's type (integer and boolean components of a tuple
//!   parameter are `0` and `false`). With no real parameter the result is the value alone.
//! * The body is the separated form's primal bindings, then the gradient computed by the
//!   symbolic reverse pass with `dret` as the initial cotangent (components `dret.k` of a
//!   tuple result), with global sharing converted to `let`s by the lowering kit
//!   ([`crate::kit::lets`], §7.4).
//! * Binder names are unique by construction (docs/architecture.md, "Lowering kit"):
//!   every name the passes invent comes from the one supply the forward pass started
//!   ([`crate::kit::names::supply_for`]); the primal bindings' binders are claimed before
//!   the reverse pass, which gives each index map it copies into the gradient (and each
//!   index term fusion repeats) fresh binders. No renaming pass follows; the result is
//!   type-checked.

use super::forward::{separate, SV};
use super::fuse::SymCt;
use super::target::SymTarget;
use super::{mk, replicate_to, Sym};
use crate::dual::delta::{node_count_all, Delta};
use crate::dual::reverse::Reverse;
use adora_core::ast::{Expr, ExprKind, Function, Lit, Name, Param};
use adora_core::check::check_function;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::types::{Base, Type};
use adora_core::visit::{all_binders, pat_names};
use num_bigint::BigInt;

/// A gradient program and what a caller needs to use it.
#[derive(Clone, Debug)]
pub struct GradientProgram {
    /// The core program (see the module documentation for its signature).
    pub function: Function,
    /// The indices of the parameters that get a gradient, in order (those whose type
    /// contains reals); the result's components `1..` correspond to them.
    pub real_params: Vec<usize>,
    /// The name of the incoming-cotangent parameter (the last parameter).
    pub dret: Name,
    /// Nodes of the symbolic Delta (the separated form's), `Share` bodies counted once.
    pub delta_nodes: usize,
    /// Number of shared cotangents the reverse pass introduced (`let`s after unsharing).
    pub shared_cotangents: usize,
    /// Number of primal bindings of the separated form.
    pub primal_bindings: usize,
    /// One-hot arrays in the gradient (one per `Index` node transposed).
    pub one_hots: usize,
}

fn zeros_of(ty: &Type) -> Expr {
    match ty {
        Type::Array(Base::R, s) => super::filled(s, 0),
        Type::Array(Base::Z, s) => replicate_to(s, mk(ExprKind::Lit(Lit::Int(BigInt::from(0))))),
        Type::Array(Base::B, s) => replicate_to(s, mk(ExprKind::Lit(Lit::Bool(false)))),
        Type::Tuple(ts) => mk(ExprKind::Tuple(ts.iter().map(zeros_of).collect())),
    }
}

/// The gradient of a parameter of type `ty` from the leaf gradients (in order).
fn assemble(ty: &Type, leaves: &mut impl Iterator<Item = Option<Expr>>) -> Expr {
    match ty {
        Type::Array(Base::R, _) => leaves.next().flatten().unwrap_or_else(|| zeros_of(ty)),
        Type::Array(..) => zeros_of(ty),
        Type::Tuple(ts) => mk(ExprKind::Tuple(
            ts.iter().map(|t| assemble(t, leaves)).collect(),
        )),
    }
}

/// The initial cotangents of the result's real components: `dret`, or its projections.
fn seeds(sv: &SV, at: Expr, out: &mut Vec<(Delta<Sym>, SymCt)>) {
    match sv {
        SV::R(_, d) => out.push((d.clone(), SymCt::term(at))),
        SV::N(_) => {}
        SV::T(vs) => {
            for (k, c) in vs.iter().enumerate() {
                seeds(c, mk(ExprKind::Proj(Box::new(at.clone()), k)), out);
            }
        }
    }
}

/// The parts of a gradient program before global sharing becomes `let`s (a read-only
/// view for the properties of seed 000 §7.3–§7.4 and App. C.2, `dual/...`): the primal
/// bindings of Eq. 6, the table of shared cotangents the symbolic reverse pass built
/// (ids ascending, each named as its `let` will be), and the result tuple whose
/// cotangent terms still hold share references ([`crate::kit::lets::reference`]).
/// [`gradient_program`] is [`GradientParts::finish`] of this.
#[derive(Clone, Debug)]
pub struct GradientParts {
    /// The primal bindings (the separated form's `let` chain).
    pub bindings: Vec<crate::kit::anf::TypedLet>,
    /// The shared cotangents by id, with the names of their `let`s.
    pub table: std::collections::BTreeMap<u64, crate::kit::lets::Shared>,
    /// `(primal result, gradient of each real parameter…)` with share references (the
    /// primal result alone when no parameter has reals).
    pub result: Expr,
    /// The function's signature: parameters (with `dret` last) and result type.
    pub params: Vec<Param>,
    /// The result type.
    pub ret: Type,
    /// See [`GradientProgram::real_params`].
    pub real_params: Vec<usize>,
    /// See [`GradientProgram::dret`].
    pub dret: Name,
    /// See [`GradientProgram::delta_nodes`].
    pub delta_nodes: usize,
    /// See [`GradientProgram::one_hots`].
    pub one_hots: usize,
    /// The source function's name and span (for the assembled program).
    name: Name,
    span: Span,
}

/// Builds the gradient program of a well-typed, build-free elaborated function.
pub fn gradient_program(f: &Function) -> Result<GradientProgram> {
    gradient_parts(f)?.finish()
}

/// The gradient program's parts before sharing becomes `let`s (see [`GradientParts`]).
pub fn gradient_parts(f: &Function) -> Result<GradientParts> {
    let sep = separate(f)?;
    let mut names = sep.names;
    let primal_result = sep.result.primal();
    for l in &sep.bindings {
        for n in pat_names(&l.pat) {
            names.reserve(n);
        }
    }
    for e in sep
        .bindings
        .iter()
        .map(|l| &l.value)
        .chain([&primal_result])
    {
        for (n, _) in all_binders(e) {
            names.reserve(n);
        }
    }
    let dret = names.claim("dret");
    let mut roots = Vec::new();
    seeds(&sep.result, mk(ExprKind::Var(dret.clone())), &mut roots);
    let delta_nodes = {
        let all: Vec<Delta<Sym>> = roots.iter().map(|(d, _)| d.clone()).collect();
        node_count_all(&all)
    };
    let mut target = SymTarget::new(&mut names);
    let (grads, state) = Reverse::new(sep.leaves.len()).run(&mut target, roots);
    let one_hots = state.one_hots;
    let grads: Vec<Option<Expr>> = grads
        .into_iter()
        .map(|g| g.map(|c| target.finish(c)))
        .collect();
    let table = std::mem::take(&mut target.shares);
    drop(target);
    let mut leaves = grads.into_iter();
    let mut parts = vec![primal_result];
    let mut real_params = Vec::new();
    let mut ret_types = vec![f.ret.clone()];
    for (k, p) in f.params.iter().enumerate() {
        let g = assemble(&p.ty, &mut leaves);
        if p.ty.has_reals() {
            real_params.push(k);
            parts.push(g);
            ret_types.push(p.ty.clone());
        }
    }
    let (result, ret) = if parts.len() == 1 {
        (parts.remove(0), f.ret.clone())
    } else {
        (mk(ExprKind::Tuple(parts)), Type::Tuple(ret_types))
    };
    let table = crate::kit::lets::named(table, &mut names, "ct");
    let mut params: Vec<Param> = f.params.clone();
    params.push(Param {
        name: dret.clone(),
        ty: f.ret.clone(),
        span: Span::DUMMY,
    });
    Ok(GradientParts {
        bindings: sep.bindings,
        table,
        result,
        params,
        ret,
        real_params,
        dret,
        delta_nodes,
        one_hots,
        name: f.name.clone(),
        span: f.body.span,
    })
}

impl GradientParts {
    /// The gradient program: shared cotangents bound by `let`s in ascending id order
    /// (§7.4, [`crate::kit::lets::bind_shared`]) after the primal bindings; type-checked.
    pub fn finish(self) -> Result<GradientProgram> {
        let gradient = crate::kit::lets::bind_shared(&self.result, &self.table);
        let body = crate::kit::anf::wrap(&self.bindings, gradient);
        let function = Function {
            name: self.name.clone(),
            params: self.params,
            ret: self.ret,
            body,
        };
        adora_core::with_stack(|| check_function(&function)).map_err(|d| {
            Diagnostic::new(
                ErrorKind::Internal,
                self.span,
                format!("internal error: the gradient program does not type-check: {d}"),
            )
        })?;
        Ok(GradientProgram {
            function,
            real_params: self.real_params,
            dret: self.dret,
            delta_nodes: self.delta_nodes,
            shared_cotangents: self.table.len(),
            primal_bindings: self.bindings.len(),
            one_hots: self.one_hots,
        })
    }
}
