//! Linearity erasure `E` (seed 002 §4.5, Lemma 4.4): every linear variable, operation and
//! result becomes non-linear ("move all the semicolons all the way to the right").
//!
//! | linear form | erased | rule |
//! |---|---|---|
//! | `def f(x ; dx) -> (T ; U)` | `def f(x, dx) -> (T, U ;)` | `erase/def` |
//! | `let (a ; b) = e` | `let (a, b ;) = E(e)` | `erase/let` |
//! | `zero(T)` | `0.0` replicated to `T`'s shape (tuples component-wise) | `erase/zero` |
//! | `da + db` | `+` (tuples: unpacked, added component-wise, repacked) | `erase/add` |
//! | `x * dy` | `*` (`x : R` and an array `dy`: `x` replicated first; tuples component-wise) | `erase/scale` |
//! | `let (; a, b) = dup(dx)` | `a`, `b` renamed to `dx` | `erase/dup` |
//! | `drop(dx)` | `drop(dx)` | `erase/drop` |
//! | other linear operations, linear unpacking, calls, returns | their non-linear forms | `erase/op` |
//!
//! The paper defines fresh functions for the vector-space operations at each type; we
//! expand them in place (tuples of arrays are small), which keeps the work of every
//! operation: `lin(E(P)) = lin(P)` (Lemma 4.4, checked by `linear/lemma-4.4`).

use super::util::{assemble, flatten, internal, op_stmt, Names, Renaming, Stmt};
use adora_core::ast::{BinOp, Prim};
use adora_core::diag::Result;
use adora_core::linear::check::{lit_type, DefTypes};
use adora_core::linear::{
    check_program, Atom, Binders, LExpr, LKind, LinearDef, LinearProgram, Op,
};
use adora_core::types::Type;

/// The linearity erasure of a program (every def; names kept).
pub fn erase_program(p: &LinearProgram) -> Result<LinearProgram> {
    let types = check_program(p)?;
    let mut names = Names::for_program(p);
    let mut out = LinearProgram::default();
    for d in &p.defs {
        let dt = types.def(&d.name);
        out.defs
            .push(adora_core::with_stack(|| erase_def(d, &dt, &mut names))?);
    }
    Ok(out)
}

fn erase_def(d: &LinearDef, types: &DefTypes, names: &mut Names) -> Result<LinearDef> {
    let mut e = Erase {
        types,
        names,
        ren: Renaming::default(),
        out: Vec::new(),
    };
    let (stmts, tail) = flatten(&d.body);
    for s in stmts {
        e.stmt(s)?;
    }
    let tail = e.ren.simple(&tail);
    let tail = match tail.kind {
        LKind::Ret(mut a, l) => {
            a.extend(l.into_iter().map(Atom::Var));
            LExpr::new(LKind::Ret(a, Vec::new()), tail.span)
        }
        _ => return Err(internal("a flattened def must end in a return")),
    };
    let mut params = d.params.clone();
    params.extend(d.lparams.iter().cloned());
    let mut ret = d.ret.clone();
    ret.extend(d.lret.iter().cloned());
    Ok(LinearDef {
        name: d.name.clone(),
        params,
        lparams: Vec::new(),
        ret,
        lret: Vec::new(),
        body: assemble(std::mem::take(&mut e.out), tail),
        span: d.span,
    })
}

struct Erase<'a> {
    types: &'a DefTypes,
    names: &'a mut Names,
    ren: Renaming,
    out: Vec<Stmt>,
}

impl Erase<'_> {
    fn ty(&self, a: &Atom) -> Type {
        match a {
            Atom::Var(v) => self.types.ty(v),
            Atom::Lit(l) => lit_type(l),
        }
    }

    fn emit(&mut self, x: &str, op: Op, args: Vec<Atom>) {
        self.out.push(op_stmt(x, op, args, false));
    }

    fn fresh_emit(&mut self, base: &str, op: Op, args: Vec<Atom>) -> Atom {
        let x = self.names.fresh(base);
        self.emit(&x, op, args);
        Atom::Var(x)
    }

    /// `x := zero(t)` in the non-linear fragment.
    fn zero(&mut self, x: &str, t: &Type) {
        match t {
            Type::Array(_, sh) => {
                let mut acc = super::util::real(0);
                for &n in sh.iter().rev() {
                    acc = self.fresh_emit("z", Op::Prim(Prim::Replicate(n)), vec![acc]);
                }
                self.emit(x, Op::Id, vec![acc]);
            }
            Type::Tuple(ts) => {
                let mut parts = Vec::new();
                for ct in ts {
                    let c = self.names.fresh("z");
                    self.zero(&c, ct);
                    parts.push(Atom::Var(c));
                }
                self.emit(x, Op::Tuple, parts);
            }
        }
    }

    /// `x := a (op) b` component-wise over `t` (`scale`: `a` is the scalar or same-shape
    /// factor, only `b` is split).
    fn vector_op(&mut self, x: &str, bin: BinOp, a: Atom, b: Atom, t: &Type) {
        match t {
            Type::Array(_, sh) => {
                let at = self.ty(&a);
                let a = if bin == BinOp::Mul && at.is_scalar() && !sh.is_empty() {
                    let mut acc = a;
                    for &n in sh.iter().rev() {
                        acc = self.fresh_emit("s", Op::Prim(Prim::Replicate(n)), vec![acc]);
                    }
                    acc
                } else {
                    a
                };
                self.emit(x, Op::Binary(bin), vec![a, b]);
            }
            Type::Tuple(ts) => {
                let split = |s: &mut Self, v: &Atom| -> Vec<Atom> {
                    let Atom::Var(v) = v else {
                        return Vec::new();
                    };
                    let cs: Vec<_> = ts.iter().map(|_| s.names.fresh("u")).collect();
                    s.out.push(Stmt::Unpack(cs.clone(), v.clone()));
                    cs.into_iter().map(Atom::Var).collect()
                };
                let bs = split(self, &b);
                let as_ = if bin == BinOp::Add {
                    split(self, &a)
                } else {
                    vec![a.clone(); ts.len()]
                };
                let mut parts = Vec::new();
                for ((ca, cb), ct) in as_.into_iter().zip(bs).zip(ts) {
                    let c = self.names.fresh("v");
                    self.vector_op(&c, bin, ca, cb, ct);
                    parts.push(Atom::Var(c));
                }
                self.emit(x, Op::Tuple, parts);
            }
        }
    }

    fn stmt(&mut self, s: Stmt) -> Result<()> {
        match s {
            Stmt::Unpack(ns, t) => {
                self.out.push(Stmt::Unpack(ns, self.ren.name(&t)));
                Ok(())
            }
            Stmt::Let(b, bound) => {
                let bound = self.ren.simple(&bound);
                let all = Binders {
                    nl: b.nl.iter().chain(&b.lin).cloned().collect(),
                    lin: Vec::new(),
                };
                match bound.kind {
                    LKind::Dup(x) => {
                        for n in &b.lin {
                            self.ren.0.insert(n.clone(), Atom::Var(x.clone()));
                        }
                    }
                    LKind::Drop(_) => self.out.push(Stmt::Let(all, bound)),
                    LKind::Call(f, mut a, l) => {
                        a.extend(l.into_iter().map(Atom::Var));
                        self.out.push(Stmt::Let(
                            all,
                            LExpr::new(LKind::Call(f, a, Vec::new()), bound.span),
                        ));
                    }
                    LKind::Op { op, args, linear } => {
                        let x = all
                            .nl
                            .first()
                            .cloned()
                            .ok_or_else(|| internal("an op binds one value"))?;
                        if !linear {
                            self.emit(&x, op, args);
                            return Ok(());
                        }
                        let t = self.types.ty(&x);
                        match op {
                            Op::Zero(zt) => self.zero(&x, &zt),
                            Op::Binary(bin @ (BinOp::Add | BinOp::Mul)) => {
                                self.vector_op(&x, bin, args[0].clone(), args[1].clone(), &t)
                            }
                            op => self.emit(&x, op, args),
                        }
                    }
                    LKind::Ret(..) | LKind::Let(..) | LKind::Unpack(..) => {
                        return Err(internal("a flattened statement binds a single expression"))
                    }
                }
                Ok(())
            }
        }
    }
}
