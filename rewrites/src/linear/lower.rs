//! Lowering of a purely non-linear Linear A def to an elaborated core [`Function`] (valid
//! source that passes `adora_core::check::check_function` and evaluates with
//! `adora_semantics`): `let`s become core `let`s, unpacking becomes a tuple pattern,
//! `drop`s disappear (evaluation is pure), calls are inlined, and the operations core
//! lacks are expressed in core:
//!
//! * `one_hot(sh, y, i, j)` → `scatter(sh, replicate(1, y), k => [i, j])`;
//! * `split(n, x)` → `(gather([n], x, k => [k]), gather([m - n], x, k => [k + n]))`;
//! * a masked `select(c, a, 0.0)` → `select(c, a, z)` with `z` the zero array of `a`'s
//!   shape.
//!
//! Every binder of the result (`let`s, unpacking, gather / scatter binders and the binders
//! inside copied index maps) takes a name claimed from one supply, so names are unique in
//! the function by construction (the lowering kit, docs/architecture.md, "Lowering kit";
//! seed 002 *You Only Linearize Once* §8 for the pipeline's last step).

use super::util::{flatten, internal, unsupported, Stmt};
use crate::kit::subst::subst_claiming;
use adora_core::ast::{Expr, ExprKind, Function, Lit, Name, Param, Pat, Prim};
use adora_core::diag::{Result, Span};
use adora_core::linear::check::{core_expr, lit_type, masked_branch, ProgramTypes};
use adora_core::linear::{check_program, Atom, LKind, LinearDef, LinearProgram, Op};
use adora_core::types::Type;
use adora_core::visit::NameSupply;
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::HashMap;

/// Lowers the non-linear def `entry` of `p` (and the defs it calls) to a core function.
pub fn lower(p: &LinearProgram, entry: &str) -> Result<Function> {
    let types = check_program(p)?;
    let d = p
        .def(entry)
        .ok_or_else(|| internal(format!("no def `{entry}`")))?;
    if !d.lparams.is_empty() || !d.lret.is_empty() {
        return Err(unsupported(
            d.span,
            format!("`{entry}` has linear parameters or results: erase it before lowering"),
        ));
    }
    let ret = match d.ret.len() {
        0 => {
            return Err(unsupported(
                d.span,
                format!("`{entry}` returns nothing: there is no core function to lower it to"),
            ))
        }
        1 => d.ret[0].clone(),
        _ => Type::Tuple(d.ret.clone()),
    };
    let mut lw = Lower {
        p,
        types: &types,
        supply: NameSupply::new(),
    };
    let mut env = HashMap::new();
    let mut params = Vec::new();
    for prm in &d.params {
        let n = lw.supply.claim(&prm.name);
        env.insert(prm.name.clone(), Atom::Var(n.clone()));
        params.push(Param {
            name: n,
            ty: prm.ty.clone(),
            span: prm.span,
        });
    }
    // Every binder is claimed from `lw.supply` (index maps are copied with
    // `kit::subst::subst_claiming`), so binder names are unique by construction, as in
    // elaborated functions (docs/architecture.md, "Lowering kit").
    let body = adora_core::with_stack(|| lw.def_body(d, env))?;
    let f = Function {
        name: d.name.clone(),
        params,
        ret,
        body,
    };
    adora_core::check::check_function(&f).map_err(|d| {
        internal(format!("the lowered program does not type-check: {d}"))
            .with_note(adora_core::pretty::function(&f))
    })?;
    Ok(f)
}

/// A one-operation core function: `def op(v1: T1, ...) -> result = op(args)` whose
/// parameters are the operation's variables (argument variables, then the free variables
/// of a gather / scatter index map), typed by `var_ty`. Used to evaluate single Linear A
/// operations with the core evaluator.
pub fn op_function(
    op: &Op,
    args: &[Atom],
    result: &Type,
    var_ty: &dyn Fn(&str) -> Type,
) -> Result<Function> {
    let empty = LinearProgram::default();
    let types = ProgramTypes::default();
    let mut lw = Lower {
        p: &empty,
        types: &types,
        supply: NameSupply::new(),
    };
    let mut env = Env::new();
    let mut params: Vec<Param> = Vec::new();
    for v in adora_core::linear::visit::op_vars(op, args) {
        if env.contains_key(&v) {
            continue;
        }
        let n = lw.supply.claim(&v);
        env.insert(v.clone(), Atom::Var(n.clone()));
        params.push(Param {
            name: n,
            ty: var_ty(&v),
            span: Span::DUMMY,
        });
    }
    let body = lw.op(op, args, result, &env, var_ty)?;
    Ok(Function {
        name: "op".into(),
        params,
        ret: result.clone(),
        body,
    })
}

fn var(n: &str) -> Expr {
    Expr::new(ExprKind::Var(n.to_string()), Span::DUMMY)
}

fn mk(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

fn zero_lit() -> Expr {
    mk(ExprKind::Lit(Lit::Real(BigRational::from_integer(
        BigInt::from(0),
    ))))
}

struct Lower<'a> {
    p: &'a LinearProgram,
    types: &'a ProgramTypes,
    supply: NameSupply,
}

/// Linear A name → the core atom it stands for.
type Env = HashMap<Name, Atom>;

fn atom_expr(a: &Atom) -> Expr {
    match a {
        Atom::Var(v) => var(v),
        Atom::Lit(l) => mk(ExprKind::Lit(l.clone())),
    }
}

impl Lower<'_> {
    fn map_atom(&self, a: &Atom, env: &Env) -> Result<Atom> {
        match a {
            Atom::Var(v) => env
                .get(v)
                .cloned()
                .ok_or_else(|| internal(format!("unbound `{v}` while lowering"))),
            Atom::Lit(_) => Ok(a.clone()),
        }
    }

    fn atom(&self, a: &Atom, env: &Env) -> Result<Expr> {
        self.map_atom(a, env).map(|x| atom_expr(&x))
    }

    fn bind(&mut self, n: &str, env: &mut Env) -> Name {
        let m = self.supply.claim(n);
        env.insert(n.to_string(), Atom::Var(m.clone()));
        m
    }

    /// The core expression of a def's body under `env` (its parameters bound).
    fn def_body(&mut self, d: &LinearDef, mut env: Env) -> Result<Expr> {
        let dt = self.types.def(&d.name);
        let (stmts, tail) = flatten(&d.body);
        let mut frames: Vec<(Pat, Expr)> = Vec::new();
        for s in stmts {
            match s {
                Stmt::Unpack(ns, t) => {
                    let te = self.atom(&Atom::Var(t), &env)?;
                    let names = ns.iter().map(|n| self.bind(n, &mut env)).collect();
                    frames.push((Pat::Tuple(names), te));
                }
                Stmt::Let(b, bound) => {
                    let names: Vec<Name> = b.nl.iter().chain(&b.lin).cloned().collect();
                    let value = match &bound.kind {
                        LKind::Drop(_) => continue,
                        LKind::Op { op, args, .. } => {
                            let ty = names.first().map(|n| dt.ty(n)).unwrap_or_else(Type::real);
                            self.op(op, args, &ty, &env, &|n| dt.ty(n))?
                        }
                        LKind::Call(f, args, largs) => {
                            let callee = self
                                .p
                                .def(f)
                                .ok_or_else(|| internal(format!("no def `{f}`")))?;
                            if names.is_empty() {
                                continue;
                            }
                            let mut cenv = Env::new();
                            let all: Vec<Atom> = args
                                .iter()
                                .cloned()
                                .chain(largs.iter().cloned().map(Atom::Var))
                                .collect();
                            let ps = callee.params.iter().chain(&callee.lparams);
                            for (prm, a) in ps.zip(&all) {
                                cenv.insert(prm.name.clone(), self.map_atom(a, &env)?);
                            }
                            self.def_body(callee, cenv)?
                        }
                        _ => {
                            return Err(internal("a flattened statement binds a single expression"))
                        }
                    };
                    let pat = match names.len() {
                        1 => Pat::Var(self.bind(&names[0], &mut env)),
                        _ => Pat::Tuple(names.iter().map(|n| self.bind(n, &mut env)).collect()),
                    };
                    frames.push((pat, value));
                }
            }
        }
        let LKind::Ret(atoms, lins) = &tail.kind else {
            return Err(internal("a flattened def must end in a return"));
        };
        if !lins.is_empty() {
            return Err(internal("lowering a def with linear results"));
        }
        let mut parts = Vec::new();
        for a in atoms {
            parts.push(self.atom(a, &env)?);
        }
        let mut body = match parts.len() {
            1 => parts.pop().unwrap_or_else(zero_lit),
            0 => return Err(internal("lowering a def without results")),
            _ => mk(ExprKind::Tuple(parts)),
        };
        while let Some((pat, value)) = frames.pop() {
            body = mk(ExprKind::Let(pat, Box::new(value), Box::new(body)));
        }
        Ok(body)
    }

    /// Zeros of an array type (nested `replicate`s of `0.0`).
    fn zeros(&self, t: &Type) -> Expr {
        let mut acc = zero_lit();
        if let Some((_, sh)) = t.as_array() {
            for &n in sh.iter().rev() {
                acc = mk(ExprKind::Prim(Prim::Replicate(n), vec![acc]));
            }
        }
        acc
    }

    fn fresh_index(&mut self, bs: &[Name], ix: &[Expr], env: &Env) -> (Vec<Name>, Vec<Expr>) {
        let nbs: Vec<Name> = bs.iter().map(|b| self.supply.fresh(b)).collect();
        let ix = ix
            .iter()
            .map(|e| {
                let mut map = Vec::new();
                for v in adora_core::visit::free_vars(e) {
                    let repl = match bs.iter().position(|b| *b == v) {
                        Some(k) => var(&nbs[k]),
                        None => match env.get(&v) {
                            Some(x) => atom_expr(x),
                            None => continue,
                        },
                    };
                    map.push((v, repl));
                }
                subst_claiming(e, &map, &mut self.supply)
            })
            .collect();
        (nbs, ix)
    }

    fn op(
        &mut self,
        op: &Op,
        args: &[Atom],
        ty: &Type,
        env: &Env,
        var_ty: &dyn Fn(&str) -> Type,
    ) -> Result<Expr> {
        let a = |s: &Self, k: usize| -> Result<Expr> {
            let x = args.get(k).ok_or_else(|| internal("missing argument"))?;
            s.atom(x, env)
        };
        let atom_ty = |k: usize| -> Type {
            match &args[k] {
                Atom::Var(v) => var_ty(v),
                Atom::Lit(l) => lit_type(l),
            }
        };
        Ok(match op {
            Op::OneHot(sh) => {
                let k = self.supply.fresh("k");
                let y = mk(ExprKind::Prim(Prim::Replicate(1), vec![a(self, 0)?]));
                let mut ix = Vec::new();
                for j in 1..args.len() {
                    ix.push(a(self, j)?);
                }
                mk(ExprKind::Scatter(sh.clone(), Box::new(y), vec![k], ix))
            }
            Op::Split(n) => {
                let x = a(self, 0)?;
                let Some((_, sh)) = atom_ty(0).as_array().map(|(b, s)| (b, s.clone())) else {
                    return Err(internal("split of a tuple"));
                };
                let m = sh.first().copied().unwrap_or(0);
                let k1 = self.supply.fresh("k");
                let k2 = self.supply.fresh("k");
                let off = mk(ExprKind::Lit(Lit::Int(BigInt::from(*n))));
                let g1 = mk(ExprKind::Gather(
                    vec![*n],
                    Box::new(x.clone()),
                    vec![k1.clone()],
                    vec![var(&k1)],
                ));
                let shifted = mk(ExprKind::Binary(
                    adora_core::ast::BinOp::Add,
                    Box::new(var(&k2)),
                    Box::new(off),
                ));
                let g2 = mk(ExprKind::Gather(
                    vec![m.saturating_sub(*n)],
                    Box::new(x),
                    vec![k2],
                    vec![shifted],
                ));
                mk(ExprKind::Tuple(vec![g1, g2]))
            }
            Op::Prim(Prim::Select) if masked_branch(op, args).is_some() => {
                let k = masked_branch(op, args).unwrap_or(2);
                let z = self.zeros(ty);
                let mut parts = vec![a(self, 0)?, a(self, 1)?, a(self, 2)?];
                parts[k] = z;
                mk(ExprKind::Prim(Prim::Select, parts))
            }
            Op::Gather(sh, bs, ix) | Op::Scatter(sh, bs, ix) => {
                let x = a(self, 0)?;
                let (nbs, nix) = self.fresh_index(bs, ix, env);
                if matches!(op, Op::Gather(..)) {
                    mk(ExprKind::Gather(sh.clone(), Box::new(x), nbs, nix))
                } else {
                    mk(ExprKind::Scatter(sh.clone(), Box::new(x), nbs, nix))
                }
            }
            Op::Zero(t) => {
                return Err(unsupported(
                    Span::DUMMY,
                    format!("`zero({t})` is linear: erase the program before lowering"),
                ))
            }
            _ => {
                let mapped = args
                    .iter()
                    .map(|x| self.map_atom(x, env))
                    .collect::<Result<Vec<_>>>()?;
                core_expr(op, &mapped)
                    .ok_or_else(|| internal(format!("{} has no core form", op.name())))?
            }
        })
    }
}
