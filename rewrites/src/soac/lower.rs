//! The bulk forms as SOACs (seed 004 §2: the language's parallel constructs are `map`,
//! `reduce`, `scan`, `reduce_by_index` and `scatter_into`; docs/engines/soac-forward.md,
//! "Lowering"), so that the reverse mode of engine `soac` sees only SOAC forms.
//!
//! | form | lowered to |
//! |---|---|
//! | `build [n1, …, nk] ((i1, …, ik) => e)` | `map(i1 => … map(ik => e, iota(nk)) …, iota(n1))` |
//! | `gather(sh, x, is => ix)` | `let g = x in` the nested `map` over `iota(sh…)` of `g[ix]` (a read out of bounds is 0 for both) |
//! | `scatter(sh, x, is => ix)` | `reduce_by_index(zeros([P] ++ rest), +, zeros(rest), flat, reshape([m] ++ rest, x))`: `flat` the row-major position of `ix` in the first `p` dimensions of `sh` (`P` their product), `-1` (dropped) when a component is out of bounds; then `reshape(sh, ·)` |
//! | `sum(x)` | `reduce(+, 0, reshape([#x], x))` (`x` itself at rank 0) |
//! | `sum_outer(x)` | `reduce(+, zeros(rest), x)` |
//! | `replicate(n, x)` | `let v = x in map(_ => v, iota(n))` |
//!
//! `zeros(sh)` is itself a nest of `map`s over `iota` returning `0`, so no `replicate`
//! is left.
//!
//! The other primitives (`transpose`, `reshape`, `append`, `stack`, indexing, the
//! elementwise operators) stay: each has a reverse rule of one primitive (its transpose),
//! and they are no bulk forms with an index function. The output is elaborated (binder
//! names of the source are kept, new ones come from one supply seeded with every name of
//! the source, `crate::kit::names`) and re-checked.

use super::forward::{int_lit, internal, mk, prim, real_lit, var};
use crate::kit::names::supply_for;
use adora_core::ast::{BinOp, Expr, ExprKind, Function, Lambda, Name, Op, Pat, Prim};
use adora_core::check::NodeTypes;
use adora_core::diag::Result;
use adora_core::types::{Base, Shape, Type};
use adora_core::visit::{rebuild, NameSupply, Rebuild};

/// `f` with its bulk forms lowered to SOACs (module documentation), re-checked.
pub fn lower(f: &Function) -> Result<Function> {
    adora_core::with_stack(|| {
        let types = adora_core::check::node_types(f)?;
        let names: Vec<Name> = f.params.iter().map(|p| p.name.clone()).collect();
        let mut l = Lower {
            types: &types,
            supply: supply_for(&names, &f.body),
            error: None,
        };
        let body = l.go(&f.body);
        if let Some(d) = l.error {
            return Err(d);
        }
        let out = Function { body, ..f.clone() };
        adora_core::check::check_function(&out).map_err(|d| {
            internal(format!(
                "the lowered program does not re-check: {}\n{}",
                d.message,
                adora_core::pretty::function(&out)
            ))
        })?;
        Ok(out)
    })
}

struct Lower<'a> {
    types: &'a NodeTypes,
    supply: NameSupply,
    error: Option<adora_core::diag::Diagnostic>,
}

impl Rebuild for Lower<'_> {
    fn binder(&mut self, name: &Name) -> Name {
        name.clone()
    }
    fn child(&mut self, e: &Expr, _: &[(Name, Name)]) -> Expr {
        self.go(e)
    }
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    mk(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}

fn let_in(x: &str, v: Expr, b: Expr) -> Expr {
    mk(ExprKind::Let(
        Pat::Var(x.to_string()),
        Box::new(v),
        Box::new(b),
    ))
}

/// `map(i1 => … map(ik => body, iota(nk)) …, iota(n1))`.
fn nest(sh: &[usize], is: &[Name], body: Expr) -> Expr {
    sh.iter().zip(is).rev().fold(body, |acc, (&n, i)| {
        let lam = Lambda {
            params: vec![i.clone()],
            body: Box::new(acc),
        };
        mk(ExprKind::Map(lam, vec![prim(Prim::Iota(n), vec![])]))
    })
}

impl Lower<'_> {
    /// The zero of `base` broadcast to `shape` by `map`s over `iota` (no `replicate`).
    fn zeros(&mut self, base: Base, shape: &[usize]) -> Expr {
        let z = match base {
            Base::R => real_lit(0),
            _ => int_lit(0),
        };
        let names: Vec<Name> = shape.iter().map(|_| self.supply.fresh("z")).collect();
        nest(shape, &names, z)
    }

    fn ty(&mut self, e: &Expr) -> Type {
        match self.types.get(e) {
            Some(t) => t.clone(),
            None => {
                self.error
                    .get_or_insert_with(|| internal("lowering met a node without a type"));
                Type::real()
            }
        }
    }

    fn go(&mut self, e: &Expr) -> Expr {
        match &e.kind {
            ExprKind::Build(sh, is, b) => {
                let b = self.go(b);
                nest(sh, is, b)
            }
            ExprKind::Gather(sh, x, bs, ix) => {
                let x2 = self.go(x);
                let ix: Vec<Expr> = ix.iter().map(|i| self.go(i)).collect();
                let g = self.supply.fresh("g");
                let read = if ix.is_empty() {
                    var(&g)
                } else {
                    mk(ExprKind::Index(Box::new(var(&g)), ix))
                };
                let_in(&g, x2, nest(sh, bs, read))
            }
            ExprKind::Scatter(sh, x, bs, ix) => {
                let ty = self.ty(x);
                self.scatter(sh, x, &ty, bs, ix)
            }
            ExprKind::Prim(Prim::Sum, args) if args.len() == 1 => {
                let ty = self.ty(&args[0]);
                let x = self.go(&args[0]);
                let Type::Array(base, s) = ty else {
                    return x;
                };
                if s.is_empty() {
                    return x;
                }
                let flat = if s.len() == 1 {
                    x
                } else {
                    prim(Prim::Reshape(vec![s.iter().product()]), vec![x])
                };
                mk(ExprKind::Reduce(
                    Op::Add,
                    Box::new(self.zeros(base, &[])),
                    Box::new(flat),
                ))
            }
            ExprKind::Prim(Prim::SumOuter, args) if args.len() == 1 => {
                let ty = self.ty(&args[0]);
                let x = self.go(&args[0]);
                let Type::Array(base, s) = ty else {
                    return x;
                };
                mk(ExprKind::Reduce(
                    Op::Add,
                    Box::new(self.zeros(base, s.get(1..).unwrap_or(&[]))),
                    Box::new(x),
                ))
            }
            ExprKind::Prim(Prim::Replicate(n), args) if args.len() == 1 => {
                let x = self.go(&args[0]);
                let v = self.supply.fresh("v");
                let i = self.supply.fresh("r");
                let_in(&v, x, nest(&[*n], &[i], var(&v)))
            }
            _ => rebuild(e, self),
        }
    }

    /// `scatter(sh, x, bs => ix)` as a `reduce_by_index(+)` (module documentation).
    fn scatter(&mut self, sh: &Shape, x: &Expr, ty: &Type, bs: &[Name], ix: &[Expr]) -> Expr {
        let x2 = self.go(x);
        let ix: Vec<Expr> = ix.iter().map(|i| self.go(i)).collect();
        let Type::Array(base, xs) = ty else {
            return x2;
        };
        let (k, p) = (bs.len(), ix.len());
        let rest: Vec<usize> = sh.get(p..).unwrap_or(&[]).to_vec();
        let m: usize = xs.iter().take(k).product();
        let big_p: usize = sh.iter().take(p).product();
        // The row-major position of `ix` in `sh[..p]`, or -1 when out of bounds.
        let mut lets = Vec::new();
        let mut inb: Option<Expr> = None;
        let mut lin: Option<Expr> = None;
        for (j, c) in ix.into_iter().enumerate() {
            let t = self.supply.fresh("t");
            lets.push((t.clone(), c));
            let lo = bin(BinOp::Le, int_lit(0), var(&t));
            let hi = bin(BinOp::Lt, var(&t), int_lit(sh[j] as i64));
            let ok = bin(BinOp::And, lo, hi);
            inb = Some(match inb {
                None => ok,
                Some(a) => bin(BinOp::And, a, ok),
            });
            lin = Some(match lin {
                None => var(&t),
                Some(a) => bin(
                    BinOp::Add,
                    bin(BinOp::Mul, a, int_lit(sh[j] as i64)),
                    var(&t),
                ),
            });
        }
        let flat = match (inb, lin) {
            (Some(c), Some(l)) => mk(ExprKind::If(
                Box::new(c),
                Box::new(l),
                Box::new(int_lit(-1)),
            )),
            _ => int_lit(0),
        };
        let flat = lets
            .into_iter()
            .rev()
            .fold(flat, |acc, (t, v)| let_in(&t, v, acc));
        let is = match k {
            0 => mk(ExprKind::Array(vec![flat])),
            1 => nest(&xs[..1], bs, flat),
            _ => prim(Prim::Reshape(vec![m]), vec![nest(&xs[..k], bs, flat)]),
        };
        let vs = if k == 1 {
            x2
        } else {
            let mut s = vec![m];
            s.extend(xs.iter().skip(k));
            prim(Prim::Reshape(s), vec![x2])
        };
        let mut dsh = vec![big_p];
        dsh.extend(&rest);
        let r = mk(ExprKind::ReduceByIndex {
            dest: Box::new(self.zeros(*base, &dsh)),
            op: Op::Add,
            ne: Box::new(self.zeros(*base, &rest)),
            is: Box::new(is),
            vs: Box::new(vs),
        });
        match p {
            0 => mk(ExprKind::Index(Box::new(r), vec![int_lit(0)])),
            1 => r,
            _ => prim(Prim::Reshape(sh.clone()), vec![r]),
        }
    }
}
