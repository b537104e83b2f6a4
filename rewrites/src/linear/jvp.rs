//! Forward differentiation `J` (seed 002 §5, Theorem 5.1): the non-linear fragment of
//! Linear A into Linear A, computing primals and tangents in tandem, the tangents in the
//! linear fragment.
//!
//! Our notation: `J(e)` maps each non-linear variable `x` with a tangent type to its
//! tangent `dx`; `ẏ` below is the tangent of the result `y`, `0` a structurally zero
//! tangent (no code: the terms it would feed are left out, a `zero(T)` is emitted only
//! where a linear value is required).
//!
//! | rule | primal `y = ...` | tangent | paper |
//! |---|---|---|---|
//! | `jvp/var` | `a` | `ẏ = ȧ` | JVar |
//! | `jvp/lit` | `c` | `ẏ = 0` | JLit |
//! | `jvp/tuple` | `(a, b)` | `ẏ = (ȧ, ḃ)` (tangent components only) | JTup |
//! | `jvp/unpack` | `let (a, b) = t` | `let (ȧ, ḃ) = ṫ` | JUnpackA/B |
//! | `jvp/neg` | `-a` | `ẏ = -1.0 * ȧ` | (omitted rules) |
//! | `jvp/add`, `jvp/sub` | `a + b`, `a - b` | `ȧ + ḃ`, `ȧ + (-1.0 * ḃ)` | JPrimAdd |
//! | `jvp/mul` | `a * b` | `b * ȧ + a * ḃ` | JPrimMul |
//! | `jvp/div` | `a / b` | `i * ȧ + n * ḃ` with `i = 1 / b`, `n = -(y * i)` | (omitted) |
//! | `jvp/exp` | `exp(a)` | `y * ȧ` | JPrimSin-like |
//! | `jvp/log` | `log(a)` | `(1 / a) * ȧ` | |
//! | `jvp/sin` | `sin(a)` | `cos(a) * ȧ` | JPrimSin |
//! | `jvp/cos` | `cos(a)` | `-(sin(a)) * ȧ` | |
//! | `jvp/tanh` | `tanh(a)` | `(1 - y * y) * ȧ` | |
//! | `jvp/sqrt` | `sqrt(a)` | `(1 / (y + y)) * ȧ` | |
//! | `jvp/abs` | `abs(a)` | `s * ȧ`, `s = select(a < 0, -1, select(a > 0, 1, 0))` (`abs'(0) = 0`) | |
//! | `jvp/pow` | `pow(a, k)` | `(k * pow(a, k - 1)) * ȧ` (`k = 0`: `0`) | |
//! | `jvp/min`, `jvp/max` | `min(a, b)` | `select(a <= b, ȧ, ḃ)` (`max`: `a >= b`) | |
//! | `jvp/select` | `select(c, a, b)` | `select(c, ȧ, ḃ)` (a zero branch is `0.0`) | |
//! | `jvp/real`, `jvp/floor`, `jvp/int` | `real(i)`, `floor(a)`, `Z`/`B` ops | `0` / none | |
//! | `jvp/index` | `a[i]` | `ȧ[i]` | |
//! | `jvp/gather`, `jvp/scatter` | `gather(sh, a, m)` | `gather(sh, ȧ, m)` (same map) | |
//! | `jvp/sum`, `jvp/sum-outer`, `jvp/replicate`, `jvp/transpose`, `jvp/reshape` | `f(a)` | `f(ȧ)` | |
//! | `jvp/append` | `append(a, b)` | `append(ȧ, ḃ)` | |
//! | `jvp/stack` | `[a, b]`, `stack([a, b])` | `append(reshape([1, sh], ȧ), reshape([1, sh], ḃ))` | |
//! | `jvp/one-hot`, `jvp/split` | `one_hot(sh, a, i)`, `split(n, a)` | the same on `ȧ` | |
//! | `jvp/drop` | `drop(a)` | (`ȧ` is dropped by repair) | |
//! | `jvp/call` | `f(a)` | `let (y ; ẏ) = f_jvp(a ; ȧ)` | JApp |
//! | `jvp/let` | `let x = e1 in e2` | `let (x ; ẋ) = J(e1) in J(e2)`, `dup`s by repair | JLet |
//! | `jvp/ret` | `(a, b ;)` | `(a, b ; ȧ, ḃ)` | JRet |
//!
//! The rules of the primitives (`neg` to `index` above) are not written here: they are the
//! table of primitives ([`crate::prims`], docs/rules/primitives.md), interpreted as Linear A
//! statements by [`table`]; the structural rules (variables, tuples, stacks, calls, `let`)
//! stay here.
//!
//! The output reads tangents freely; [`super::repair`] then inserts the `dup`s and `drop`s
//! that make it linear (the dup chains of JLet).

mod table;

pub use table::prim_of_op;

use super::repair::repair_def;
use super::tangent::{slots, tangent_type};
use super::util::{assemble, flatten, internal, op_stmt, real, unsupported, Names, Stmt};
use adora_core::ast::{BinOp, Lit, Name, Param, Prim};
use adora_core::diag::Result;
use adora_core::linear::check::{lit_type, DefTypes};
use adora_core::linear::{
    check_program, Atom, Binders, LExpr, LKind, LinearDef, LinearProgram, Op,
};
use adora_core::types::{Base, Type};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::HashMap;

/// The name of the JVP of def `f`.
pub fn jvp_name(f: &str) -> String {
    format!("{f}_jvp")
}

/// `J` of every def of a purely non-linear program: the program of their JVPs (`f_jvp`
/// for each `f`, in order). The result passes the Linear A checker.
pub fn jvp_program(p: &LinearProgram) -> Result<LinearProgram> {
    let types = check_program(p)?;
    for d in &p.defs {
        if !d.lparams.is_empty() || !d.lret.is_empty() {
            return Err(unsupported(
                d.span,
                format!(
                    "JVP takes purely non-linear defs; `{}` has linear parameters or results",
                    d.name
                ),
            ));
        }
    }
    let mut names = Names::for_program(p);
    let mut out = LinearProgram::default();
    for d in &p.defs {
        names.avoid(&jvp_name(&d.name));
        let dt = types.def(&d.name);
        let j = adora_core::with_stack(|| jvp_def(d, &dt, &mut names))?;
        let j = repair_def(&j, &out)?;
        out.defs.push(j);
    }
    Ok(out)
}

fn jvp_def(d: &LinearDef, types: &DefTypes, names: &mut Names) -> Result<LinearDef> {
    let mut j = J {
        types,
        names,
        tan: HashMap::new(),
        stmts: Vec::new(),
    };
    let mut lparams = Vec::new();
    for p in &d.params {
        if let Some(t) = tangent_type(&p.ty) {
            let dx = j.names.claim(&format!("d{}", p.name));
            j.tan.insert(p.name.clone(), dx.clone());
            lparams.push(Param {
                name: dx,
                ty: t,
                span: p.span,
            });
        }
    }
    let (stmts, tail) = flatten(&d.body);
    for s in stmts {
        j.stmt(s)?;
    }
    let LKind::Ret(atoms, _) = &tail.kind else {
        return Err(internal("a flattened non-linear def must end in a return"));
    };
    let mut lins = Vec::new();
    let mut lret = Vec::new();
    for a in atoms {
        let t = j.atom_type(a);
        if let Some(tt) = tangent_type(&t) {
            lins.push(j.tan_or_zero(a, &tt));
            lret.push(tt);
        }
    }
    let body = assemble(
        std::mem::take(&mut j.stmts),
        LExpr::new(LKind::Ret(atoms.clone(), lins), tail.span),
    );
    Ok(LinearDef {
        name: jvp_name(&d.name),
        params: d.params.clone(),
        lparams,
        ret: d.ret.clone(),
        lret,
        body,
        span: d.span,
    })
}

struct J<'a> {
    types: &'a DefTypes,
    names: &'a mut Names,
    /// Non-linear variable → its tangent variable (absent: a zero tangent).
    tan: HashMap<Name, Name>,
    stmts: Vec<Stmt>,
}

fn shape_of(t: &Type) -> Vec<usize> {
    t.as_array().map(|(_, s)| s.clone()).unwrap_or_default()
}

fn rat(k: i64) -> Atom {
    Atom::Lit(Lit::Real(BigRational::from_integer(BigInt::from(k))))
}

impl J<'_> {
    fn atom_type(&self, a: &Atom) -> Type {
        match a {
            Atom::Var(v) => self.types.ty(v),
            Atom::Lit(l) => lit_type(l),
        }
    }

    /// The tangent of an atom, `None` when it is structurally zero.
    fn tan(&self, a: &Atom) -> Option<Name> {
        a.var().and_then(|v| self.tan.get(v).cloned())
    }

    /// The tangent of an atom as a linear variable (a `zero(T)` when structurally zero).
    fn tan_or_zero(&mut self, a: &Atom, tt: &Type) -> Name {
        match self.tan(a) {
            Some(d) => d,
            None => self.lin(Op::Zero(tt.clone()), Vec::new()),
        }
    }

    fn lin(&mut self, op: Op, args: Vec<Atom>) -> Name {
        let d = self.names.fresh("d");
        self.stmts.push(op_stmt(&d, op, args, true));
        d
    }

    fn nl(&mut self, base: &str, op: Op, args: Vec<Atom>) -> Atom {
        let x = self.names.fresh(base);
        self.stmts.push(op_stmt(&x, op, args, false));
        Atom::Var(x)
    }

    /// The real constant `k` with shape `sh` (nested `replicate`s of a literal).
    fn fill(&mut self, k: i64, sh: &[usize]) -> Atom {
        let mut acc = rat(k);
        for &n in sh.iter().rev() {
            acc = self.nl("c", Op::Prim(Prim::Replicate(n)), vec![acc]);
        }
        acc
    }

    fn scale(&mut self, c: Atom, d: Option<Name>) -> Option<Name> {
        d.map(|d| self.lin(Op::Binary(BinOp::Mul), vec![c, Atom::Var(d)]))
    }

    fn add(&mut self, a: Option<Name>, b: Option<Name>) -> Option<Name> {
        match (a, b) {
            (Some(a), Some(b)) => {
                Some(self.lin(Op::Binary(BinOp::Add), vec![Atom::Var(a), Atom::Var(b)]))
            }
            (a, None) => a,
            (None, b) => b,
        }
    }

    fn stmt(&mut self, s: Stmt) -> Result<()> {
        match s {
            Stmt::Unpack(ns, t) => {
                self.stmts.push(Stmt::Unpack(ns.clone(), t.clone()));
                let Some(dt) = self.tan.get(&t).cloned() else {
                    return Ok(());
                };
                let Type::Tuple(ts) = self.types.ty(&t) else {
                    return Err(internal("unpacking a non-tuple"));
                };
                let (sl, count) = slots(&ts);
                if count == 1 {
                    if let Some(k) = sl.iter().position(Option::is_some) {
                        self.tan.insert(ns[k].clone(), dt);
                    }
                    return Ok(());
                }
                let mut dns = Vec::new();
                for (n, s) in ns.iter().zip(&sl) {
                    if s.is_some() {
                        let dn = self.names.claim(&format!("d{n}"));
                        self.tan.insert(n.clone(), dn.clone());
                        dns.push(dn);
                    }
                }
                self.stmts.push(Stmt::Unpack(dns, dt));
                Ok(())
            }
            Stmt::Let(b, bound) => match &bound.kind {
                LKind::Op {
                    op,
                    args,
                    linear: false,
                } if b.nl.len() == 1 => {
                    let y = b.nl[0].clone();
                    self.stmts.push(Stmt::Let(b.clone(), bound.clone()));
                    let yt = self.types.ty(&y);
                    if tangent_type(&yt).is_none() {
                        return Ok(());
                    }
                    if let Some(dy) = self.rule(&y, &yt, op, args)? {
                        self.tan.insert(y, dy);
                    }
                    Ok(())
                }
                LKind::Drop(_) => {
                    self.stmts.push(Stmt::Let(b, bound));
                    Ok(())
                }
                LKind::Call(f, args, _) => {
                    let mut largs = Vec::new();
                    for a in args {
                        if let Some(tt) = tangent_type(&self.atom_type(a)) {
                            largs.push(self.tan_or_zero(a, &tt));
                        }
                    }
                    let mut lin = Vec::new();
                    for n in &b.nl {
                        if tangent_type(&self.types.ty(n)).is_some() {
                            let dn = self.names.claim(&format!("d{n}"));
                            self.tan.insert(n.clone(), dn.clone());
                            lin.push(dn);
                        }
                    }
                    let call =
                        LExpr::new(LKind::Call(jvp_name(f), args.clone(), largs), bound.span);
                    self.stmts.push(Stmt::Let(
                        Binders {
                            nl: b.nl.clone(),
                            lin,
                        },
                        call,
                    ));
                    Ok(())
                }
                _ => Err(unsupported(
                    bound.span,
                    "JVP takes the non-linear fragment of Linear A",
                )),
            },
        }
    }

    /// The tangent of `y = op(args)` (`y` has a tangent type `yt`).
    fn rule(&mut self, y: &Name, yt: &Type, op: &Op, args: &[Atom]) -> Result<Option<Name>> {
        let sh = shape_of(yt);
        if let Some(id) = table::prim_of_op(op) {
            return self.table_rule(id, op, y, &sh, args);
        }
        let d = |s: &Self, k: usize| args.get(k).and_then(|a| s.tan(a));
        Ok(match op {
            Op::Id => d(self, 0),
            Op::Tuple => {
                let mut parts = Vec::new();
                let mut any = false;
                for a in args {
                    if let Some(tt) = tangent_type(&self.atom_type(a)) {
                        any |= self.tan(a).is_some();
                        parts.push((a.clone(), tt));
                    }
                }
                if !any {
                    return Ok(None);
                }
                let parts: Vec<Atom> = parts
                    .into_iter()
                    .map(|(a, tt)| Atom::Var(self.tan_or_zero(&a, &tt)))
                    .collect();
                if parts.len() == 1 {
                    parts[0].var().cloned()
                } else {
                    Some(self.lin(Op::Tuple, parts))
                }
            }
            Op::Prim(Prim::Stack) => self.stack_rule(args, &sh)?,
            Op::Array => self.stack_rule(args, &sh)?,
            Op::OneHot(_) | Op::Split(_) => match d(self, 0) {
                Some(da) => {
                    let mut a = vec![Atom::Var(da)];
                    a.extend(args[1..].iter().cloned());
                    Some(self.lin(op.clone(), a))
                }
                None => None,
            },
            Op::Unary(_)
            | Op::Binary(_)
            | Op::Zero(_)
            | Op::Prim(_)
            | Op::Index
            | Op::Gather(..)
            | Op::Scatter(..) => None,
        })
    }

    /// `select(c, da, db)` with a missing branch as the constant `0.0`.
    fn masked_select(&mut self, c: Atom, da: Option<Name>, db: Option<Name>) -> Name {
        let br = |d: Option<Name>| d.map(Atom::Var).unwrap_or_else(|| real(0));
        self.lin(Op::Prim(Prim::Select), vec![c, br(da), br(db)])
    }

    /// The tangent of `[a, b, ...]`: the tangents stacked by `reshape` and `append`.
    fn stack_rule(&mut self, args: &[Atom], sh: &[usize]) -> Result<Option<Name>> {
        if args.iter().all(|a| self.tan(a).is_none()) {
            return Ok(None);
        }
        let elem: Vec<usize> = sh.get(1..).unwrap_or(&[]).to_vec();
        let et = Type::Array(Base::R, elem.clone());
        let mut one = vec![1];
        one.extend(elem.iter().copied());
        let mut acc: Option<Name> = None;
        for a in args {
            let da = self.tan_or_zero(a, &et);
            let r = self.lin(Op::Prim(Prim::Reshape(one.clone())), vec![Atom::Var(da)]);
            acc = Some(match acc {
                None => r,
                Some(prev) => self.lin(Op::Prim(Prim::Append), vec![Atom::Var(prev), Atom::Var(r)]),
            });
        }
        Ok(acc)
    }
}
