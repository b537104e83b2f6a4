//! Translation of an elaborated core [`Function`] (the output of `adora_core::load`: no
//! calls, typed literals, explicit `replicate`, unique binders) into an e-graph.
//!
//! Encoding (see [`super::lang`]):
//!
//! - parameters become `Var` leaves `v0, v1, ..` in order ([`Translation::params`]);
//! - `let x = e1 in e2` adds `e1` once and binds `x` to its e-class (no `let` node: the IR
//!   is pure and strict, so inlining by sharing is sound); `let (a, b) = e` binds `a` to
//!   `(proj n0 e)` and `b` to `(proj n1 e)`;
//! - every binder (of `build`, `gather`, `scatter`) becomes a fresh `IVar` leaf registered
//!   with its extent (`build` and `gather` binders range over their shape; `scatter`
//!   binders over the first dimensions of the source); `build [n, m] ((i, j) => e)`
//!   becomes `(build n i (build m j e))`;
//! - literals become `Lit` leaves, array literals `(array ..)` (nested for nested
//!   literals), every operator and built-in its node; `pow(x, k)` is `(pow x z<k>)`.
//!
//! Constructs outside the seed-000 fragment (`if`, `map`, `reduce`, `scan`,
//! `reduce_by_index`, `scatter_into`, `loop`, calls, and any construct added later) are
//! rejected with an [`ErrorKind::Unsupported`] diagnostic at their span.
//!
//! The recursion runs on a large stack ([`adora_core::with_stack`]), so deeply nested
//! programs translate.

use super::analysis::{IrAnalysis, IrGraph, Ty};
use super::lang::{Const, Ir, Nat, ShapeLeaf, VarId};
use adora_core::ast::{BinOp, Expr, ExprKind, Function, Lit, Pat, Prim, UnOp};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::types::Type;
use adora_core::visit::ScopedMap;
use egg::{Id, RecExpr};

/// A function in an e-graph.
pub struct Translation {
    /// The e-graph holding the body (with its analysis tables).
    pub egraph: IrGraph,
    /// The class of the body.
    pub root: Id,
    /// The `Var` leaf of each parameter, in order (`params[k] == VarId(k)`).
    pub params: Vec<VarId>,
}

/// Translates an elaborated function into a fresh e-graph (see the module docs).
pub fn translate(f: &Function) -> Result<Translation> {
    adora_core::with_stack(|| {
        let mut t = Translator {
            eg: IrGraph::new(IrAnalysis::default()),
            env: ScopedMap::new(),
        };
        let mut params = Vec::new();
        for p in &f.params {
            let v = t.eg.analysis.add_var(p.name.clone(), p.ty.clone());
            let id = t.eg.add(Ir::Var(v));
            t.env.push(&p.name, id);
            params.push(v);
        }
        let root = t.expr(&f.body)?;
        t.eg.rebuild();
        if let Some(c) = t.eg.analysis.conflict.clone() {
            return Err(internal(f.body.span, &c));
        }
        Ok(Translation {
            root: t.eg.find(root),
            egraph: t.eg,
            params,
        })
    })
}

/// Translates `f` and extracts its body as a [`RecExpr`] (no rewriting: every class has
/// the translated term, or a folded constant), with the analysis tables that give its
/// leaves meaning. Handy for tests and for building rule instances.
pub fn to_recexpr(f: &Function) -> Result<(RecExpr<Ir>, IrAnalysis)> {
    let t = translate(f)?;
    let e = super::extract::extract_recexpr(&t.egraph, t.root)?;
    Ok((e, t.egraph.analysis.clone()))
}

fn internal(span: Span, msg: &str) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Internal,
        span,
        format!("internal error: translating into the e-graph gave an ill-typed term: {msg}"),
    )
}

fn unsupported(e: &Expr) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Unsupported,
        e.span,
        format!(
            "the bulk-operation transform accepts the seed-000 fragment; `{}` is outside it",
            e.kind.form_name()
        ),
    )
}

struct Translator {
    eg: IrGraph,
    /// Names in scope: parameters, let-bound names and index variables, to their classes.
    env: ScopedMap<Id>,
}

impl Translator {
    fn add(&mut self, n: Ir) -> Id {
        self.eg.add(n)
    }

    fn nat(&mut self, k: usize) -> Id {
        self.add(Ir::Nat(Nat(k)))
    }

    fn shape(&mut self, s: &[usize]) -> Id {
        self.add(Ir::Shape(ShapeLeaf(s.to_vec())))
    }

    fn list(&mut self, es: &[Expr]) -> Result<Box<[Id]>> {
        es.iter()
            .map(|e| self.expr(e))
            .collect::<Result<Vec<_>>>()
            .map(Vec::into_boxed_slice)
    }

    /// Registers a fresh index variable, binds `name` to its leaf, returns the leaf class.
    fn bind_ivar(&mut self, name: &str, extent: usize) -> Id {
        let v = self.eg.analysis.add_ivar(name.to_string(), extent);
        let id = self.add(Ir::IVar(v));
        self.env.push(name, id);
        id
    }

    fn expr(&mut self, e: &Expr) -> Result<Id> {
        match &e.kind {
            ExprKind::Var(x) => self.env.get(x).copied().ok_or_else(|| {
                Diagnostic::new(ErrorKind::Name, e.span, format!("unbound variable `{x}`"))
            }),
            ExprKind::Lit(l) => {
                #[allow(unreachable_patterns)]
                let c = match l {
                    Lit::Int(n) => Const::Int(n.clone()),
                    Lit::Real(r) => Const::Real(r.clone()),
                    Lit::Bool(b) => Const::Bool(*b),
                    _ => return Err(unsupported(e)),
                };
                Ok(self.add(Ir::Lit(c)))
            }
            ExprKind::Array(es) => {
                let ch = self.list(es)?;
                Ok(self.add(Ir::Array(ch)))
            }
            ExprKind::Tuple(es) => {
                let ch = self.list(es)?;
                Ok(self.add(Ir::Tuple(ch)))
            }
            ExprKind::Proj(x, k) => {
                let x = self.expr(x)?;
                let k = self.nat(*k);
                Ok(self.add(Ir::Proj([k, x])))
            }
            ExprKind::Let(p, v, body) => {
                let v = self.expr(v)?;
                let names: Vec<&String> = match p {
                    Pat::Var(x) => {
                        self.env.push(x, v);
                        vec![x]
                    }
                    Pat::Tuple(xs) => {
                        for (k, x) in xs.iter().enumerate() {
                            let k = self.nat(k);
                            let c = self.add(Ir::Proj([k, v]));
                            self.env.push(x, c);
                        }
                        xs.iter().collect()
                    }
                };
                let out = self.expr(body);
                for x in names {
                    self.env.pop(x);
                }
                out
            }
            ExprKind::Unary(op, x) => {
                let x = self.expr(x)?;
                #[allow(unreachable_patterns)]
                let n = match op {
                    UnOp::Neg => Ir::Neg([x]),
                    UnOp::Not => Ir::Not([x]),
                    _ => return Err(unsupported(e)),
                };
                Ok(self.add(n))
            }
            ExprKind::Binary(op, x, y) => {
                let ch = [self.expr(x)?, self.expr(y)?];
                let n = binary(*op, ch).ok_or_else(|| unsupported(e))?;
                Ok(self.add(n))
            }
            ExprKind::Prim(p, args) => self.prim(e, p, args),
            ExprKind::Index(x, js) => {
                let mut ch = vec![self.expr(x)?];
                for j in js {
                    ch.push(self.expr(j)?);
                }
                Ok(self.add(Ir::Index(ch.into_boxed_slice())))
            }
            ExprKind::Build(sh, names, body) => self.build(e, sh, names, body),
            ExprKind::Gather(sh, x, names, ixs) => {
                let src = self.expr(x)?;
                let extents = sh.clone();
                self.indexed(e, sh, src, names, &extents, ixs, true)
            }
            ExprKind::Scatter(sh, x, names, ixs) => {
                let src = self.expr(x)?;
                let extents =
                    match &self.eg[src].data.ty {
                        Ty::Value(Type::Array(_, s)) if names.len() <= s.len() => {
                            s[..names.len()].to_vec()
                        }
                        _ => return Err(Diagnostic::new(
                            ErrorKind::Shape,
                            e.span,
                            "`scatter` binds more index variables than its source has dimensions",
                        )),
                    };
                self.indexed(e, sh, src, names, &extents, ixs, false)
            }
            _ => Err(unsupported(e)),
        }
    }

    fn build(&mut self, e: &Expr, sh: &[usize], names: &[String], body: &Expr) -> Result<Id> {
        if sh.len() != names.len() || sh.is_empty() {
            return Err(Diagnostic::new(
                ErrorKind::Shape,
                e.span,
                "`build` needs one binder per extent",
            ));
        }
        let mut binders = Vec::new();
        for (n, x) in sh.iter().zip(names) {
            binders.push(self.bind_ivar(x, *n));
        }
        let body = self.expr(body);
        for x in names {
            self.env.pop(x);
        }
        let mut acc = body?;
        for (n, i) in sh.iter().zip(binders).rev() {
            let n = self.nat(*n);
            acc = self.add(Ir::Build([n, i, acc]));
        }
        Ok(acc)
    }

    #[allow(clippy::too_many_arguments)]
    fn indexed(
        &mut self,
        e: &Expr,
        sh: &[usize],
        src: Id,
        names: &[String],
        extents: &[usize],
        ixs: &[Expr],
        gather: bool,
    ) -> Result<Id> {
        if extents.len() != names.len() {
            return Err(Diagnostic::new(
                ErrorKind::Shape,
                e.span,
                "`gather` needs one binder per dimension of its shape",
            ));
        }
        let mut bs = Vec::new();
        for (x, n) in names.iter().zip(extents) {
            bs.push(self.bind_ivar(x, *n));
        }
        let comps = self.list(ixs);
        for x in names {
            self.env.pop(x);
        }
        let comps = comps?;
        let shape = self.shape(sh);
        let bs = self.add(Ir::Binders(bs.into_boxed_slice()));
        let ixs = self.add(Ir::Ixs(comps));
        let ch = [shape, src, bs, ixs];
        Ok(self.add(if gather {
            Ir::Gather(ch)
        } else {
            Ir::Scatter(ch)
        }))
    }

    fn prim(&mut self, e: &Expr, p: &Prim, args: &[Expr]) -> Result<Id> {
        let mut a = Vec::with_capacity(args.len());
        for x in args {
            a.push(self.expr(x)?);
        }
        let arity = |n: usize| -> Result<()> {
            if a.len() == n {
                Ok(())
            } else {
                Err(Diagnostic::new(
                    ErrorKind::Type,
                    e.span,
                    format!("`{}` takes {n} argument(s)", p.name()),
                ))
            }
        };
        let one = |f: fn([Id; 1]) -> Ir| -> Result<Ir> {
            arity(1)?;
            Ok(f([a[0]]))
        };
        #[allow(unreachable_patterns)]
        let node = match p {
            Prim::Exp => one(Ir::Exp)?,
            Prim::Log => one(Ir::Log)?,
            Prim::Sin => one(Ir::Sin)?,
            Prim::Cos => one(Ir::Cos)?,
            Prim::Tanh => one(Ir::Tanh)?,
            Prim::Sqrt => one(Ir::Sqrt)?,
            Prim::Abs => one(Ir::Abs)?,
            Prim::Floor => one(Ir::Floor)?,
            Prim::Real => one(Ir::ToReal)?,
            Prim::Sum => one(Ir::Sum)?,
            Prim::SumOuter => one(Ir::SumOuter)?,
            Prim::Min | Prim::Max | Prim::Append => {
                arity(2)?;
                let ch = [a[0], a[1]];
                match p {
                    Prim::Min => Ir::Min(ch),
                    Prim::Max => Ir::Max(ch),
                    _ => Ir::Append(ch),
                }
            }
            Prim::Select => {
                arity(3)?;
                Ir::Select([a[0], a[1], a[2]])
            }
            Prim::Pow(k) => {
                arity(1)?;
                let k = self.add(Ir::Lit(Const::Int((*k).into())));
                Ir::Pow([a[0], k])
            }
            Prim::Replicate(n) => {
                arity(1)?;
                Ir::Replicate([self.nat(*n), a[0]])
            }
            Prim::Transpose(perm) => {
                arity(1)?;
                Ir::Transpose([self.shape(perm), a[0]])
            }
            Prim::Reshape(sh) => {
                arity(1)?;
                Ir::Reshape([self.shape(sh), a[0]])
            }
            Prim::Iota(n) => {
                arity(0)?;
                Ir::Iota([self.nat(*n)])
            }
            Prim::Stack => {
                if a.is_empty() {
                    arity(1)?;
                }
                Ir::Stack(a.clone().into_boxed_slice())
            }
            _ => return Err(unsupported(e)),
        };
        Ok(self.add(node))
    }
}

fn binary(op: BinOp, ch: [Id; 2]) -> Option<Ir> {
    #[allow(unreachable_patterns)]
    Some(match op {
        BinOp::Add => Ir::Add(ch),
        BinOp::Sub => Ir::Sub(ch),
        BinOp::Mul => Ir::Mul(ch),
        BinOp::Div => Ir::Div(ch),
        BinOp::Mod => Ir::Mod(ch),
        BinOp::Eq => Ir::Eq(ch),
        BinOp::Ne => Ir::Ne(ch),
        BinOp::Lt => Ir::Lt(ch),
        BinOp::Le => Ir::Le(ch),
        BinOp::Gt => Ir::Gt(ch),
        BinOp::Ge => Ir::Ge(ch),
        BinOp::And => Ir::And(ch),
        BinOp::Or => Ir::Or(ch),
        _ => return None,
    })
}
