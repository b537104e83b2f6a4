//! Transposition `T` (seed 002 §7, Fig. 11, Theorem 7.1): a linear Linear B def
//! `f(x ; dx) -> (; dy)` into `f_t(x ; ct_dy) -> (; ct_dx)` with
//! `<ct_dy, f(x ; dx)> = <f_t(x ; ct_dy), dx>`.
//!
//! The body is flattened into statements; the non-linear ones are kept in order at the
//! front (TNonLin: they transpose to themselves), and the linear ones are transposed in
//! reverse order. Every linear variable is consumed exactly once, so when a statement is
//! reached its results' cotangents are known (written `z̄`) and the cotangents of its
//! linear arguments are bound exactly once (no additions are needed to merge them: that
//! is what `dup` transposing to `+` is for, §7.1.4).
//!
//! | rule | statement | transposed | paper |
//! |---|---|---|---|
//! | `transpose/var` | `dz = da` | `ā = z̄` (renaming) | TLinVar |
//! | `transpose/zero` | `dz = zero(T)` | `drop(z̄)` | TLinZero / TDrop |
//! | `transpose/drop` | `drop(da)` | `ā = zero(T)` | TDrop |
//! | `transpose/add` | `dz = da + db` | `(ā, b̄) = dup(z̄)` | TLinAdd |
//! | `transpose/dup` | `(dz1, dz2) = dup(da)` | `ā = z̄1 + z̄2` | TDup |
//! | `transpose/scale` | `dz = x * da` | `ā = x * z̄` | TLinMul |
//! | `transpose/tuple` | `dz = (da, db)` | `let (ā, b̄) = z̄` | TLinTup |
//! | `transpose/unpack` | `let (da, db) = dz` | `z̄ = (ā, b̄)` | TLinUnpack |
//! | `transpose/index` | `dz = da[i]` | `ā = one_hot(shape(da), z̄, i)` | index ↔ one-hot |
//! | `transpose/one-hot` | `dz = one_hot(sh, da, i)` | `ā = z̄[i]` | one-hot ↔ index |
//! | `transpose/gather` | `dz = gather(sh, da, m)` | `ā = scatter(shape(da), z̄, m)` | gather ↔ scatter (same map) |
//! | `transpose/scatter` | `dz = scatter(sh, da, m)` | `ā = gather(shape(da)[..k], z̄, m)` | scatter ↔ gather |
//! | `transpose/sum` | `dz = sum(da)` | `ā = reshape(shape(da), replicate(n, z̄))` | sum ↔ replicate |
//! | `transpose/sum-outer` | `dz = sum_outer(da)` | `ā = replicate(n, z̄)` | sum_outer ↔ replicate |
//! | `transpose/replicate` | `dz = replicate(n, da)` | `ā = sum_outer(z̄)` | replicate ↔ sum_outer |
//! | `transpose/transpose` | `dz = transpose(p, da)` | `ā = transpose(p⁻¹, z̄)` | inverse permutation |
//! | `transpose/reshape` | `dz = reshape(sh, da)` | `ā = reshape(shape(da), z̄)` | reshape back |
//! | `transpose/append` | `dz = append(da, db)` | `let (ā, b̄) = split(n, z̄)` | append ↔ slices |
//! | `transpose/split` | `dz = split(n, da)` | `let (p, q) = z̄ in ā = append(p, q)` | slices ↔ append |
//! | `transpose/select` | `dz = select(c, da, db)` | `(z1, z2) = dup(z̄)`, `ā = select(c, z1, 0.0)`, `b̄ = select(c, 0.0, z2)` | select(c) ↔ select(c) |
//! | `transpose/select-masked` | `dz = select(c, da, 0.0)` | `ā = select(c, z̄, 0.0)` | |
//! | `transpose/call` | `(; dz) = g(x ; da)` | `(; ā) = g_t(x ; z̄)` | TApp |
//! | `transpose/ret` | `(; dy)` | `(; ct_dx)`, cotangent parameters `ct_dy` | TRet |

use super::repair::repair_def;
use super::util::{assemble, flatten, internal, op_stmt, real, unsupported, Names, Stmt};
use adora_core::ast::{BinOp, Name, Param, Prim};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::linear::check::{masked_branch, DefTypes};
use adora_core::linear::{
    check_linear_b, Atom, Binders, LExpr, LKind, LinearDef, LinearProgram, Op,
};
use adora_core::types::Type;
use std::collections::HashMap;

/// The name of the transpose of `f`.
pub fn transpose_name(f: &str) -> String {
    format!("{f}_t")
}

/// Transposes the def `entry` of a Linear B program (and, first, every linear def it
/// calls): returns `p` with the transposed defs appended (`f_t` for `f`).
pub fn transpose_program(p: &LinearProgram, entry: &str) -> Result<LinearProgram> {
    let types = check_linear_b(p)?;
    let mut out = p.clone();
    let mut names = Names::for_program(p);
    let mut todo = vec![entry.to_string()];
    let mut order: Vec<Name> = Vec::new();
    while let Some(f) = todo.pop() {
        if order.contains(&f) {
            continue;
        }
        let d = p.def(&f).ok_or_else(|| {
            Diagnostic::new(ErrorKind::Name, Span::DUMMY, format!("no def `{f}`"))
        })?;
        for g in calls(&d.body) {
            todo.push(g);
        }
        order.push(f);
    }
    // Callees before callers: in program order.
    for d in &p.defs {
        if !order.contains(&d.name) {
            continue;
        }
        if !d.ret.is_empty() {
            return Err(unsupported(
                d.span,
                format!(
                    "transposition takes a def with only linear results; `{}` returns non-linear values (unzip it first)",
                    d.name
                ),
            ));
        }
        names.avoid(&transpose_name(&d.name));
        let dt = types.def(&d.name);
        let t = adora_core::with_stack(|| transpose_def(d, &dt, &mut names))?;
        let t = repair_def(&t, &out)?;
        out.defs.push(t);
    }
    Ok(out)
}

fn calls(e: &LExpr) -> Vec<Name> {
    let mut out = Vec::new();
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        match &x.kind {
            LKind::Call(f, ..) => out.push(f.clone()),
            LKind::Let(_, a, b) => {
                stack.push(a);
                stack.push(b);
            }
            LKind::Unpack(_, _, b) => stack.push(b),
            _ => {}
        }
    }
    out
}

fn transpose_def(d: &LinearDef, dt: &DefTypes, names: &mut Names) -> Result<LinearDef> {
    let (mut stmts, tail) = flatten(&d.body);
    let dys: Vec<Name> = match &tail.kind {
        LKind::Ret(a, l) if a.is_empty() => l.clone(),
        _ => {
            let rs: Vec<Name> = d.lret.iter().map(|_| names.fresh("r")).collect();
            stmts.push(Stmt::Let(
                Binders {
                    nl: Vec::new(),
                    lin: rs.clone(),
                },
                tail.clone(),
            ));
            rs
        }
    };
    let mut t = T {
        dt,
        names,
        ct: HashMap::new(),
        fwd: Vec::new(),
        bwd: Vec::new(),
        types: HashMap::new(),
    };
    let mut lparams = Vec::new();
    for (dy, ty) in dys.iter().zip(&d.lret) {
        let c = t.names.fresh(&format!("ct_{dy}"));
        t.ct.insert(dy.clone(), c.clone());
        lparams.push(Param {
            name: c,
            ty: ty.clone(),
            span: Span::DUMMY,
        });
    }
    let mut lin_stmts = Vec::new();
    for s in stmts {
        if t.is_linear_stmt(&s) {
            lin_stmts.push(s);
        } else {
            t.fwd.push(s);
        }
    }
    for s in lin_stmts.into_iter().rev() {
        t.stmt(&s)?;
    }
    let mut outs = Vec::new();
    for p in &d.lparams {
        outs.push(t.ct_of(&p.name)?);
    }
    let mut body = std::mem::take(&mut t.fwd);
    body.extend(std::mem::take(&mut t.bwd));
    Ok(LinearDef {
        name: transpose_name(&d.name),
        params: d.params.clone(),
        lparams,
        ret: Vec::new(),
        lret: d.lparams.iter().map(|p| p.ty.clone()).collect(),
        body: assemble(body, LExpr::synth(LKind::Ret(Vec::new(), outs))),
        span: d.span,
    })
}

struct T<'a> {
    dt: &'a DefTypes,
    names: &'a mut Names,
    /// Linear variable → its cotangent variable.
    ct: HashMap<Name, Name>,
    /// Non-linear statements, in order.
    fwd: Vec<Stmt>,
    /// Transposed linear statements, in emission order.
    bwd: Vec<Stmt>,
    /// Types of the cotangent variables introduced here.
    types: HashMap<Name, Type>,
}

impl T<'_> {
    fn is_linear_stmt(&self, s: &Stmt) -> bool {
        match s {
            Stmt::Unpack(_, t) => self.dt.is_linear(t),
            Stmt::Let(b, e) => match &e.kind {
                LKind::Op { linear, .. } => *linear,
                LKind::Dup(_) => true,
                LKind::Drop(x) => self.dt.is_linear(x),
                LKind::Call(_, _, l) => !l.is_empty() || !b.lin.is_empty(),
                _ => false,
            },
        }
    }

    fn ty(&self, v: &str) -> Type {
        self.types.get(v).cloned().unwrap_or_else(|| self.dt.ty(v))
    }

    fn ct_of(&self, v: &str) -> Result<Name> {
        self.ct
            .get(v)
            .cloned()
            .ok_or_else(|| internal(format!("no cotangent for `{v}` (is it used exactly once?)")))
    }

    /// Binds a fresh cotangent for linear variable `v` and returns its name.
    fn new_ct(&mut self, v: &str) -> Name {
        let c = self.names.fresh(&format!("ct_{v}"));
        self.ct.insert(v.to_string(), c.clone());
        let t = self.ty(v);
        self.types.insert(c.clone(), t);
        c
    }

    fn emit(&mut self, x: &str, op: Op, args: Vec<Atom>) {
        self.bwd.push(op_stmt(x, op, args, true));
    }

    fn stmt(&mut self, s: &Stmt) -> Result<()> {
        match s {
            Stmt::Unpack(ns, t) => {
                let parts = ns
                    .iter()
                    .map(|n| self.ct_of(n).map(Atom::Var))
                    .collect::<Result<Vec<_>>>()?;
                let c = self.new_ct(t);
                self.emit(&c, Op::Tuple, parts);
                Ok(())
            }
            Stmt::Let(b, e) => match &e.kind {
                LKind::Dup(x) => {
                    let z1 = self.ct_of(&b.lin[0])?;
                    let z2 = self.ct_of(&b.lin[1])?;
                    let c = self.new_ct(x);
                    self.emit(
                        &c,
                        Op::Binary(BinOp::Add),
                        vec![Atom::Var(z1), Atom::Var(z2)],
                    );
                    Ok(())
                }
                LKind::Drop(x) => {
                    let c = self.new_ct(x);
                    let t = self.ty(x);
                    self.emit(&c, Op::Zero(t), Vec::new());
                    Ok(())
                }
                LKind::Call(g, args, largs) => {
                    let zs: Vec<Name> =
                        b.lin.iter().map(|z| self.ct_of(z)).collect::<Result<_>>()?;
                    let cs: Vec<Name> = largs.iter().map(|a| self.new_ct(a)).collect();
                    self.bwd.push(Stmt::Let(
                        Binders {
                            nl: Vec::new(),
                            lin: cs,
                        },
                        LExpr::new(LKind::Call(transpose_name(g), args.clone(), zs), e.span),
                    ));
                    Ok(())
                }
                LKind::Op { op, args, .. } => {
                    let z = self.ct_of(
                        b.lin
                            .first()
                            .ok_or_else(|| internal("a linear op binds one value"))?,
                    )?;
                    self.op(op, args, &z)
                }
                _ => Err(internal("unexpected linear statement")),
            },
        }
    }

    fn lin_arg(args: &[Atom], k: usize) -> Result<Name> {
        args.get(k)
            .and_then(Atom::var)
            .cloned()
            .ok_or_else(|| internal("a linear argument is not a variable"))
    }

    fn shape(&self, v: &str) -> Vec<usize> {
        self.ty(v)
            .as_array()
            .map(|(_, s)| s.clone())
            .unwrap_or_default()
    }

    /// Transposes `z = op(args)` given the cotangent `zc` of `z`.
    fn op(&mut self, op: &Op, args: &[Atom], zc: &str) -> Result<()> {
        let z = Atom::Var(zc.to_string());
        match op {
            Op::Id => {
                let a = Self::lin_arg(args, 0)?;
                self.ct.insert(a, zc.to_string());
            }
            Op::Zero(_) => self.bwd.push(Stmt::Let(
                Binders::none(),
                LExpr::synth(LKind::Drop(zc.to_string())),
            )),
            Op::Tuple => {
                let cs: Vec<Name> = args
                    .iter()
                    .map(|a| {
                        a.var()
                            .cloned()
                            .ok_or_else(|| internal("tuple of a literal"))
                    })
                    .collect::<Result<Vec<_>>>()?
                    .iter()
                    .map(|a| self.new_ct(a))
                    .collect();
                self.bwd.push(Stmt::Unpack(cs, zc.to_string()));
            }
            Op::Binary(BinOp::Add) => {
                let a = Self::lin_arg(args, 0)?;
                let b = Self::lin_arg(args, 1)?;
                let ca = self.new_ct(&a);
                let cb = self.new_ct(&b);
                self.bwd.push(Stmt::Let(
                    Binders {
                        nl: Vec::new(),
                        lin: vec![ca, cb],
                    },
                    LExpr::synth(LKind::Dup(zc.to_string())),
                ));
            }
            Op::Binary(BinOp::Mul) => {
                let a = Self::lin_arg(args, 1)?;
                let c = self.new_ct(&a);
                self.emit(&c, Op::Binary(BinOp::Mul), vec![args[0].clone(), z]);
            }
            Op::Index => {
                let a = Self::lin_arg(args, 0)?;
                let sh = self.shape(&a);
                let c = self.new_ct(&a);
                let mut xs = vec![z];
                xs.extend(args[1..].iter().cloned());
                self.emit(&c, Op::OneHot(sh), xs);
            }
            Op::OneHot(_) => {
                let a = Self::lin_arg(args, 0)?;
                let c = self.new_ct(&a);
                let mut xs = vec![z];
                xs.extend(args[1..].iter().cloned());
                self.emit(&c, Op::Index, xs);
            }
            Op::Gather(_, bs, ix) => {
                let a = Self::lin_arg(args, 0)?;
                let sh = self.shape(&a);
                let c = self.new_ct(&a);
                self.emit(&c, Op::Scatter(sh, bs.clone(), ix.clone()), vec![z]);
            }
            Op::Scatter(_, bs, ix) => {
                let a = Self::lin_arg(args, 0)?;
                let sh = self.shape(&a);
                let c = self.new_ct(&a);
                let k = bs.len().min(sh.len());
                self.emit(
                    &c,
                    Op::Gather(sh[..k].to_vec(), bs.clone(), ix.clone()),
                    vec![z],
                );
            }
            Op::Split(_) => {
                let a = Self::lin_arg(args, 0)?;
                let p = self.names.fresh("ct_p");
                let q = self.names.fresh("ct_q");
                self.bwd
                    .push(Stmt::Unpack(vec![p.clone(), q.clone()], zc.to_string()));
                let c = self.new_ct(&a);
                self.emit(&c, Op::Prim(Prim::Append), vec![Atom::Var(p), Atom::Var(q)]);
            }
            Op::Prim(p) => self.prim(p, op, args, zc)?,
            _ => {
                return Err(internal(format!("{} has no transpose", op.name())));
            }
        }
        Ok(())
    }

    fn prim(&mut self, p: &Prim, op: &Op, args: &[Atom], zc: &str) -> Result<()> {
        let z = Atom::Var(zc.to_string());
        match p {
            Prim::Sum => {
                let a = Self::lin_arg(args, 0)?;
                let sh = self.shape(&a);
                let n: usize = sh.iter().product();
                let c = self.new_ct(&a);
                match sh.len() {
                    0 => self.emit(&c, Op::Id, vec![z]),
                    1 => self.emit(&c, Op::Prim(Prim::Replicate(n)), vec![z]),
                    _ => {
                        let r = self.names.fresh("ct_r");
                        self.emit(&r, Op::Prim(Prim::Replicate(n)), vec![z]);
                        self.emit(&c, Op::Prim(Prim::Reshape(sh)), vec![Atom::Var(r)]);
                    }
                }
            }
            Prim::SumOuter => {
                let a = Self::lin_arg(args, 0)?;
                let n = self.shape(&a).first().copied().unwrap_or(0);
                let c = self.new_ct(&a);
                self.emit(&c, Op::Prim(Prim::Replicate(n)), vec![z]);
            }
            Prim::Replicate(_) => {
                let a = Self::lin_arg(args, 0)?;
                let c = self.new_ct(&a);
                self.emit(&c, Op::Prim(Prim::SumOuter), vec![z]);
            }
            Prim::Transpose(perm) => {
                let a = Self::lin_arg(args, 0)?;
                let mut inv = vec![0; perm.len()];
                for (k, &pk) in perm.iter().enumerate() {
                    if pk < inv.len() {
                        inv[pk] = k;
                    }
                }
                let c = self.new_ct(&a);
                self.emit(&c, Op::Prim(Prim::Transpose(inv)), vec![z]);
            }
            Prim::Reshape(_) => {
                let a = Self::lin_arg(args, 0)?;
                let sh = self.shape(&a);
                let c = self.new_ct(&a);
                self.emit(&c, Op::Prim(Prim::Reshape(sh)), vec![z]);
            }
            Prim::Append => {
                let a = Self::lin_arg(args, 0)?;
                let b = Self::lin_arg(args, 1)?;
                let n = self.shape(&a).first().copied().unwrap_or(0);
                let ca = self.new_ct(&a);
                let cb = self.new_ct(&b);
                let t = self.names.fresh("ct_s");
                self.emit(&t, Op::Split(n), vec![z]);
                self.bwd.push(Stmt::Unpack(vec![ca, cb], t));
            }
            Prim::Select => match masked_branch(op, args) {
                Some(k) => {
                    let a = Self::lin_arg(args, 3 - k)?;
                    let c = self.new_ct(&a);
                    let mut xs = vec![args[0].clone(), real(0), real(0)];
                    xs[3 - k] = z;
                    self.emit(&c, Op::Prim(Prim::Select), xs);
                }
                None => {
                    let a = Self::lin_arg(args, 1)?;
                    let b = Self::lin_arg(args, 2)?;
                    let z1 = self.names.fresh("ct_z");
                    let z2 = self.names.fresh("ct_z");
                    self.bwd.push(Stmt::Let(
                        Binders {
                            nl: Vec::new(),
                            lin: vec![z1.clone(), z2.clone()],
                        },
                        LExpr::synth(LKind::Dup(zc.to_string())),
                    ));
                    let ca = self.new_ct(&a);
                    self.emit(
                        &ca,
                        Op::Prim(Prim::Select),
                        vec![args[0].clone(), Atom::Var(z1), real(0)],
                    );
                    let cb = self.new_ct(&b);
                    self.emit(
                        &cb,
                        Op::Prim(Prim::Select),
                        vec![args[0].clone(), real(0), Atom::Var(z2)],
                    );
                }
            },
            _ => return Err(internal(format!("`{}` has no linear form", p.name()))),
        }
        Ok(())
    }
}
