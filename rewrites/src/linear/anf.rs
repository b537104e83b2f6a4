//! Core → Linear A: an elaborated core function as a purely non-linear Linear A def in
//! A-normal form (seed 002 §4.1.2), the input of JVP.
//!
//! The lowering kit's typed ANF ([`crate::kit::anf::normalize`]) does the work: every
//! compound sub-expression gets a `let` named from one supply that avoids every name of
//! the program and Linear A's reserved words, and `let x = e` aliases `x` to the atom of
//! `e`. This module reads its chain as Linear A statements, one operation per binding;
//! a projection `let p = t.k` becomes an unpacking `let` of the tuple variable `t` (one
//! per tuple variable, components `t_c0`, `t_c1`, …, shared by all its projections) and
//! `p` an alias of the component. Variables that end up unused are dropped explicitly by
//! [`super::repair`]. Accepted: the scalar fragment and the build-free bulk fragment
//! (literals, arithmetic, built-ins, tuples, indexing, gather, scatter). `build`, `if`
//! and the seed-004 forms are rejected with an `Unsupported` diagnostic naming the
//! construct and its position.

use super::repair::repair_def;
use super::util::{assemble, internal, op_stmt, unsupported, Names, Renaming, Stmt};
use crate::kit::anf::{normalize, TypedLet};
use adora_core::ast::{Expr, ExprKind, Function, Name, Pat};
use adora_core::diag::{Diagnostic, Result};
use adora_core::linear::{Atom, LExpr, LKind, LinearDef, LinearProgram, Op};
use adora_core::types::Type;
use std::collections::HashMap;

/// The non-linear Linear A program of an elaborated core function (one def, same name,
/// parameters and result; variables renamed only where they clash with Linear A's
/// reserved words).
pub fn from_core(f: &Function) -> Result<LinearProgram> {
    adora_core::with_stack(|| from_core_here(f))
}

fn reject(e: &Expr) -> Diagnostic {
    unsupported(
        e.span,
        format!(
            "the linear engine does not support `{}` (Linear A covers the scalar fragment and build-free bulk programs)",
            e.kind.form_name()
        ),
    )
}

fn from_core_here(f: &Function) -> Result<LinearProgram> {
    let anf = normalize(f, Names::new().into_supply(), reject)?;
    let mut a = ToLinear {
        names: Names::from_supply(anf.supply),
        types: anf
            .params
            .iter()
            .map(|p| (p.name.clone(), p.ty.clone()))
            .collect(),
        aliases: Renaming::default(),
        stmts: Vec::new(),
        unpacked: HashMap::new(),
    };
    for l in &anf.lets {
        a.stmt(l)?;
    }
    let r = a.atom(&anf.result)?;
    let body = assemble(
        std::mem::take(&mut a.stmts),
        LExpr::new(LKind::Ret(vec![r], Vec::new()), f.body.span),
    );
    let def = LinearDef {
        name: f.name.clone(),
        params: anf.params,
        lparams: Vec::new(),
        ret: vec![f.ret.clone()],
        lret: Vec::new(),
        body,
        span: f.body.span,
    };
    let def = repair_def(&def, &LinearProgram::default())?;
    Ok(LinearProgram { defs: vec![def] })
}

struct ToLinear {
    names: Names,
    /// The type of every variable of the chain (parameters and bindings).
    types: HashMap<Name, Type>,
    /// Projection variables of the chain → the components they stand for.
    aliases: Renaming,
    stmts: Vec<Stmt>,
    /// Tuple variable → its unpacked components.
    unpacked: HashMap<Name, Vec<Name>>,
}

impl ToLinear {
    fn atom(&self, e: &Expr) -> Result<Atom> {
        match &e.kind {
            ExprKind::Var(x) => Ok(self.aliases.atom(&Atom::Var(x.clone()))),
            ExprKind::Lit(l) => Ok(Atom::Lit(l.clone())),
            _ => Err(internal("a typed ANF operand that is not an atom")),
        }
    }

    fn atoms(&self, es: &[Expr]) -> Result<Vec<Atom>> {
        es.iter().map(|e| self.atom(e)).collect()
    }

    /// The components of the tuple variable `t` (unpacked once).
    fn components(&mut self, t: &Atom, span: adora_core::Span) -> Result<Vec<Name>> {
        let Atom::Var(tv) = t else {
            return Err(unsupported(span, "a projection of a literal"));
        };
        if let Some(cs) = self.unpacked.get(tv) {
            return Ok(cs.clone());
        }
        let ts = match self.types.get(tv) {
            Some(Type::Tuple(ts)) => ts.clone(),
            _ => return Err(internal("a projection of a non-tuple")),
        };
        let cs: Vec<Name> = (0..ts.len())
            .map(|k| self.names.fresh(&format!("{tv}_c{k}")))
            .collect();
        self.types.extend(cs.iter().cloned().zip(ts));
        self.stmts.push(Stmt::Unpack(cs.clone(), tv.clone()));
        self.unpacked.insert(tv.clone(), cs.clone());
        Ok(cs)
    }

    /// One binding of the chain as Linear A statements.
    fn stmt(&mut self, l: &TypedLet) -> Result<()> {
        use ExprKind as K;
        let Pat::Var(x) = &l.pat else {
            return Err(internal("a tuple pattern in typed ANF"));
        };
        let e = &l.value;
        let (op, args) = match &e.kind {
            K::Proj(t, k) => {
                let t = self.atom(t)?;
                let cs = self.components(&t, e.span)?;
                let c = cs
                    .get(*k)
                    .ok_or_else(|| internal("a projection out of the tuple's range"))?;
                self.aliases.0.insert(x.clone(), Atom::Var(c.clone()));
                return Ok(());
            }
            K::Array(es) => (Op::Array, self.atoms(es)?),
            K::Tuple(es) => (Op::Tuple, self.atoms(es)?),
            K::Unary(u, a) => (Op::Unary(*u), vec![self.atom(a)?]),
            K::Binary(b, a, c) => (Op::Binary(*b), vec![self.atom(a)?, self.atom(c)?]),
            K::Prim(p, es) => (Op::Prim(p.clone()), self.atoms(es)?),
            K::Index(a, is) => {
                let mut args = vec![self.atom(a)?];
                args.extend(self.atoms(is)?);
                (Op::Index, args)
            }
            K::Gather(sh, a, bs, ix) => (
                self.aliases
                    .op(&Op::Gather(sh.clone(), bs.clone(), ix.clone())),
                vec![self.atom(a)?],
            ),
            K::Scatter(sh, a, bs, ix) => (
                self.aliases
                    .op(&Op::Scatter(sh.clone(), bs.clone(), ix.clone())),
                vec![self.atom(a)?],
            ),
            _ => return Err(internal("a typed ANF binding that is not one operation")),
        };
        self.types.insert(x.clone(), l.ty.clone());
        self.stmts.push(op_stmt(x, op, args, false));
        Ok(())
    }
}
