//! Core → Linear A: an elaborated core function as a purely non-linear Linear A def in
//! A-normal form (seed 002 §4.1.2), the input of JVP.
//!
//! Every compound sub-expression gets a `let`; `let x = e` of the core program aliases
//! `x` to the atom of `e`; tuple patterns and projections become unpacking `let`s (one per
//! tuple variable, shared by all its projections); variables that end up unused are
//! dropped explicitly by [`super::repair`]. Accepted: the scalar fragment and the
//! build-free bulk fragment (literals, arithmetic, built-ins, tuples, indexing, gather,
//! scatter). `build`, `if` and the seed-004 forms are rejected with an `Unsupported`
//! diagnostic naming the construct and its position.

use super::repair::repair_def;
use super::util::{assemble, op_stmt, unsupported, Names, Stmt};
use adora_core::ast::{Expr, ExprKind, Function, Name, Param, Pat};
use adora_core::diag::Result;
use adora_core::linear::{Atom, LExpr, LKind, LinearDef, LinearProgram, Op};
use std::collections::HashMap;

/// The non-linear Linear A program of an elaborated core function (one def, same name,
/// parameters and result; variables renamed only where they clash with Linear A's
/// reserved words).
pub fn from_core(f: &Function) -> Result<LinearProgram> {
    adora_core::with_stack(|| from_core_here(f))
}

fn from_core_here(f: &Function) -> Result<LinearProgram> {
    let mut names = Names::new();
    for n in adora_core::visit::all_names(&f.body) {
        names.avoid(&n);
    }
    for p in &f.params {
        names.avoid(&p.name);
    }
    let types = adora_core::check::node_types(f)?;
    let mut a = Anf {
        types: &types,
        names,
        env: HashMap::new(),
        stmts: Vec::new(),
        unpacked: HashMap::new(),
    };
    let mut params = Vec::new();
    for p in &f.params {
        let n = a.names.claim(&p.name);
        a.env.insert(p.name.clone(), Atom::Var(n.clone()));
        params.push(Param {
            name: n,
            ty: p.ty.clone(),
            span: p.span,
        });
    }
    let r = a.expr(&f.body)?;
    let body = assemble(
        std::mem::take(&mut a.stmts),
        LExpr::new(LKind::Ret(vec![r], Vec::new()), f.body.span),
    );
    let def = LinearDef {
        name: f.name.clone(),
        params,
        lparams: Vec::new(),
        ret: vec![f.ret.clone()],
        lret: Vec::new(),
        body,
        span: f.body.span,
    };
    let def = repair_def(&def, &LinearProgram::default())?;
    Ok(LinearProgram { defs: vec![def] })
}

struct Anf<'t> {
    types: &'t adora_core::check::NodeTypes,
    names: Names,
    /// Core variable → its atom.
    env: HashMap<Name, Atom>,
    stmts: Vec<Stmt>,
    /// Tuple variable → its unpacked components.
    unpacked: HashMap<Name, Vec<Name>>,
}

impl Anf<'_> {
    fn bind(&mut self, base: &str, op: Op, args: Vec<Atom>) -> Atom {
        let x = self.names.fresh(base);
        self.stmts.push(op_stmt(&x, op, args, false));
        Atom::Var(x)
    }

    fn atoms(&mut self, es: &[Expr]) -> Result<Vec<Atom>> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    /// The components of the tuple variable of `t` (unpacked once).
    fn components(&mut self, t: &Atom, arity: usize, span: adora_core::Span) -> Result<Vec<Name>> {
        let Atom::Var(tv) = t else {
            return Err(unsupported(span, "a projection of a literal"));
        };
        if let Some(cs) = self.unpacked.get(tv) {
            return Ok(cs.clone());
        }
        let cs: Vec<Name> = (0..arity)
            .map(|k| self.names.fresh(&format!("{tv}_c{k}")))
            .collect();
        self.stmts.push(Stmt::Unpack(cs.clone(), tv.clone()));
        self.unpacked.insert(tv.clone(), cs.clone());
        Ok(cs)
    }

    /// A core index-map expression with variables renamed through the environment.
    fn index_expr(&self, e: &Expr, bound: &[Name]) -> Expr {
        let mut ren = super::util::Renaming::default();
        for v in adora_core::visit::free_vars(e) {
            if bound.contains(&v) {
                continue;
            }
            if let Some(a) = self.env.get(&v) {
                ren.0.insert(v, a.clone());
            }
        }
        ren.core(e, bound)
    }

    fn expr(&mut self, e: &Expr) -> Result<Atom> {
        use ExprKind as K;
        Ok(match &e.kind {
            K::Var(x) => self
                .env
                .get(x)
                .cloned()
                .ok_or_else(|| super::util::internal(format!("unbound `{x}`")))?,
            K::Lit(l) => Atom::Lit(l.clone()),
            K::Array(es) => {
                let a = self.atoms(es)?;
                self.bind("arr", Op::Array, a)
            }
            K::Tuple(es) => {
                let a = self.atoms(es)?;
                self.bind("tup", Op::Tuple, a)
            }
            K::Proj(t, k) => {
                let arity = match self.types.get(t) {
                    Some(adora_core::Type::Tuple(ts)) => ts.len(),
                    _ => return Err(super::util::internal("a projection of a non-tuple")),
                };
                let ta = self.expr(t)?;
                let cs = self.components(&ta, arity, e.span)?;
                Atom::Var(cs[*k].clone())
            }
            K::Let(p, v, b) => {
                let a = self.expr(v)?;
                match p {
                    Pat::Var(x) => {
                        self.env.insert(x.clone(), a);
                    }
                    Pat::Tuple(xs) => {
                        if let Atom::Var(tv) = &a {
                            if let Some(cs) = self.unpacked.get(tv).cloned() {
                                for (x, c) in xs.iter().zip(cs) {
                                    self.env.insert(x.clone(), Atom::Var(c));
                                }
                                return self.expr(b);
                            }
                        }
                        let cs = self.components(&a, xs.len(), e.span)?;
                        for (x, c) in xs.iter().zip(cs) {
                            self.env.insert(x.clone(), Atom::Var(c));
                        }
                    }
                }
                self.expr(b)?
            }
            K::Unary(u, x) => {
                let a = self.expr(x)?;
                self.bind(u.name(), Op::Unary(*u), vec![a])
            }
            K::Binary(b, x, y) => {
                let a = self.expr(x)?;
                let c = self.expr(y)?;
                self.bind(b.name(), Op::Binary(*b), vec![a, c])
            }
            K::Prim(p, es) => {
                let a = self.atoms(es)?;
                self.bind(p.name(), Op::Prim(p.clone()), a)
            }
            K::Index(x, is) => {
                let mut a = vec![self.expr(x)?];
                a.extend(self.atoms(is)?);
                self.bind("ix", Op::Index, a)
            }
            K::Gather(sh, x, bs, ix) | K::Scatter(sh, x, bs, ix) => {
                let a = self.expr(x)?;
                let ix: Vec<Expr> = ix.iter().map(|i| self.index_expr(i, bs)).collect();
                let (base, op) = if matches!(e.kind, K::Gather(..)) {
                    ("g", Op::Gather(sh.clone(), bs.clone(), ix))
                } else {
                    ("s", Op::Scatter(sh.clone(), bs.clone(), ix))
                };
                self.bind(base, op, vec![a])
            }
            _ => {
                return Err(unsupported(
                    e.span,
                    format!(
                        "the linear engine does not support `{}` (Linear A covers the scalar fragment and build-free bulk programs)",
                        e.kind.form_name()
                    ),
                ))
            }
        })
    }
}
