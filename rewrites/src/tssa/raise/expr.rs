//! Core expressions of the raising (docs/engines/tssa-lowering.md, "Raising"): index
//! expressions as `Z` arithmetic, predicates as `B` expressions (data predicates back to
//! comparisons of reals, `exists` as a count), black boxes back to host primitives.

use adora_core::ast::{BinOp, Expr, ExprKind, Lit, Prim, UnOp};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::tl::{Aff, BlackBox, CmpOp, DataRef, IExpr, Index, PathStep, Pred, Rat};
use adora_core::visit::NameSupply;
use num_bigint::BigInt;
use std::collections::HashMap;

/// An expression at no source position.
pub fn ex(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

/// The variable `x`.
pub fn var(x: &str) -> Expr {
    ex(ExprKind::Var(x.to_string()))
}

/// The `Z` literal `k`.
pub fn int(k: i64) -> Expr {
    ex(ExprKind::Lit(Lit::Int(BigInt::from(k))))
}

/// The `R` literal `r`.
pub fn real(r: Rat) -> Expr {
    ex(ExprKind::Lit(Lit::Real(r)))
}

/// The `R` literal `k`.
pub fn real_int(k: i64) -> Expr {
    real(Rat::from_integer(BigInt::from(k)))
}

/// `a op b`.
pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    ex(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}

/// A primitive applied to its arguments.
pub fn prim(p: Prim, args: Vec<Expr>) -> Expr {
    ex(ExprKind::Prim(p, args))
}

/// `select(c, a, b)`, or `a` when `c` is `true`.
pub fn select(c: Expr, a: Expr, b: Expr) -> Expr {
    if matches!(c.kind, ExprKind::Lit(Lit::Bool(true))) {
        return a;
    }
    prim(Prim::Select, vec![c, a, b])
}

/// `x[a…]`, or `x` with no index.
pub fn index(x: Expr, idx: Vec<Expr>) -> Expr {
    if idx.is_empty() {
        x
    } else {
        ex(ExprKind::Index(Box::new(x), idx))
    }
}

/// What index variables stand for while raising: a core binder, or the solution of an
/// equality, raised where it is *defined* (over fresh core binders, so that no `exists`
/// binder of a predicate raised later can capture a variable it mentions).
#[derive(Clone, Debug)]
pub enum IBind {
    /// A core `Z` binder.
    Name(String),
    /// A solved summation variable: its solution as a `Z` expression.
    Solved(Expr),
}

/// The raising context of one function: names and index-variable bindings.
pub struct Rx {
    /// Fresh names for core binders.
    pub names: NameSupply,
    /// Index variables in scope.
    pub ivars: HashMap<String, IBind>,
}

fn internal(msg: String) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Internal,
        Span::DUMMY,
        format!("tssa raising: {msg}"),
    )
}

impl Rx {
    /// An index variable as a core expression.
    pub fn ivar(&mut self, v: &str) -> Result<Expr> {
        match self.ivars.get(v).cloned() {
            Some(IBind::Name(n)) => Ok(var(&n)),
            Some(IBind::Solved(e)) => Ok(e),
            None => Err(internal(format!("the index variable `{v}` is unbound"))),
        }
    }

    /// An affine form as `Z` arithmetic.
    pub fn aff(&mut self, a: &Aff) -> Result<Expr> {
        let mut out: Option<Expr> = None;
        for (v, &c) in &a.terms {
            let x = self.ivar(v)?;
            let t = if c == 1 {
                x
            } else {
                bin(BinOp::Mul, int(c), x)
            };
            out = Some(match out {
                None => t,
                Some(o) => bin(BinOp::Add, o, t),
            });
        }
        Ok(match out {
            None => int(a.constant),
            Some(o) if a.constant == 0 => o,
            Some(o) => bin(BinOp::Add, o, int(a.constant)),
        })
    }

    /// An index expression as `Z` arithmetic.
    pub fn index(&mut self, a: &Index) -> Result<Expr> {
        match a {
            Index::Aff(a) => self.aff(a),
            Index::Opaque(e) => self.iexpr(e),
        }
    }

    fn indices(&mut self, idx: &[Index]) -> Result<Vec<Expr>> {
        idx.iter().map(|a| self.index(a)).collect()
    }

    /// An opaque integer expression as `Z` arithmetic.
    pub fn iexpr(&mut self, e: &IExpr) -> Result<Expr> {
        Ok(match e {
            IExpr::Var(v) => self.ivar(v)?,
            IExpr::Const(k) => int(*k),
            IExpr::Add(a, b) => bin(BinOp::Add, self.iexpr(a)?, self.iexpr(b)?),
            IExpr::Mul(a, b) => bin(BinOp::Mul, self.iexpr(a)?, self.iexpr(b)?),
            IExpr::Neg(a) => ex(ExprKind::Unary(UnOp::Neg, Box::new(self.iexpr(a)?))),
            IExpr::Div(a, b) => bin(BinOp::Div, self.iexpr(a)?, self.iexpr(b)?),
            IExpr::Mod(a, b) => bin(BinOp::Mod, self.iexpr(a)?, self.iexpr(b)?),
            IExpr::Min(a, b) => prim(Prim::Min, vec![self.iexpr(a)?, self.iexpr(b)?]),
            IExpr::Max(a, b) => prim(Prim::Max, vec![self.iexpr(a)?, self.iexpr(b)?]),
            IExpr::Abs(a) => prim(Prim::Abs, vec![self.iexpr(a)?]),
            IExpr::Read(v, idx) => index(var(v), self.indices(idx)?),
            IExpr::Floor(r) => prim(Prim::Floor, vec![self.data(r)?]),
            IExpr::Cond(p, a, b) => select(self.pred(p)?, self.iexpr(a)?, self.iexpr(b)?),
        })
    }

    /// A real operand of a data predicate: a literal or a read.
    pub fn data(&mut self, r: &DataRef) -> Result<Expr> {
        match r {
            DataRef::Const(c) => Ok(real(c.clone())),
            DataRef::Read(v, path) => {
                let mut e = var(v);
                let mut pending: Vec<Expr> = Vec::new();
                for s in path {
                    match s {
                        PathStep::Proj(k) => {
                            e = index(e, std::mem::take(&mut pending));
                            e = ex(ExprKind::Proj(Box::new(e), *k as usize));
                        }
                        PathStep::At(a) => pending.push(self.index(a)?),
                    }
                }
                Ok(index(e, pending))
            }
        }
    }

    /// A predicate as a `B` expression.
    pub fn pred(&mut self, p: &Pred) -> Result<Expr> {
        Ok(match p {
            Pred::True => ex(ExprKind::Lit(Lit::Bool(true))),
            Pred::False => ex(ExprKind::Lit(Lit::Bool(false))),
            Pred::Cmp(op, a, b) => bin(cmp_op(*op), self.index(a)?, self.index(b)?),
            Pred::Rel(v, idx) => index(var(v), self.indices(idx)?),
            Pred::Data(op, a, b) => bin(cmp_op(*op), self.data(a)?, self.data(b)?),
            Pred::And(a, b) => bin(BinOp::And, self.pred(a)?, self.pred(b)?),
            Pred::Or(a, b) => bin(BinOp::Or, self.pred(a)?, self.pred(b)?),
            Pred::Not(a) => ex(ExprKind::Unary(UnOp::Not, Box::new(self.pred(a)?))),
            Pred::Exists(i, n, a) => {
                let name = self.names.fresh(i);
                let old = self.ivars.insert(i.clone(), IBind::Name(name.clone()));
                let body = self.pred(a);
                match old {
                    Some(o) => self.ivars.insert(i.clone(), o),
                    None => self.ivars.remove(i),
                };
                let one = select(body?, real_int(1), real_int(0));
                let count = prim(
                    Prim::Sum,
                    vec![ex(ExprKind::Build(
                        vec![*n as usize],
                        vec![name],
                        Box::new(one),
                    ))],
                );
                bin(BinOp::Gt, count, real_int(0))
            }
        })
    }

    /// A black box applied to the core expression `x` (a variable: it may be used twice).
    pub fn black_box(&mut self, f: BlackBox, x: Expr) -> Expr {
        let p1 = |p: Prim, x: Expr| prim(p, vec![x]);
        let half = real(Rat::new(BigInt::from(1), BigInt::from(2)));
        match f {
            BlackBox::Exp => p1(Prim::Exp, x),
            BlackBox::Log => p1(Prim::Log, x),
            BlackBox::Sin => p1(Prim::Sin, x),
            BlackBox::Cos => p1(Prim::Cos, x),
            BlackBox::Tanh => p1(Prim::Tanh, x),
            BlackBox::Sqrt => p1(Prim::Sqrt, x),
            BlackBox::Abs => p1(Prim::Abs, x),
            BlackBox::Pow(k) => p1(Prim::Pow(k), x),
            BlackBox::Recip => bin(BinOp::Div, real_int(1), x),
            BlackBox::NegSin => ex(ExprKind::Unary(UnOp::Neg, Box::new(p1(Prim::Sin, x)))),
            BlackBox::DTanh => {
                let t = p1(Prim::Tanh, x);
                bin(BinOp::Sub, real_int(1), bin(BinOp::Mul, t.clone(), t))
            }
            BlackBox::DSqrt => bin(BinOp::Div, half, p1(Prim::Sqrt, x)),
            // sign(NaN) = 1, as the shared `sign` (abs' follows a NaN argument).
            BlackBox::Sign => select(
                bin(BinOp::Lt, x.clone(), real_int(0)),
                real_int(-1),
                select(bin(BinOp::Eq, x, real_int(0)), real_int(0), real_int(1)),
            ),
            BlackBox::DPow(k) => bin(
                BinOp::Mul,
                real_int(k),
                p1(Prim::Pow(k.saturating_sub(1)), x),
            ),
        }
    }
}

fn cmp_op(op: CmpOp) -> BinOp {
    match op {
        CmpOp::Eq => BinOp::Eq,
        CmpOp::Ne => BinOp::Ne,
        CmpOp::Lt => BinOp::Lt,
        CmpOp::Le => BinOp::Le,
    }
}
