//! The builder of derivative programs: the one name supply, the types of every name, the
//! map from statement names to the names of the copy being emitted, adjoint values
//! ([`Adj`]) and their accumulation, zeros, and the plain emission of primal code (the
//! forward sweep of seed 004 *AD for an Array Language with Nested Parallelism* §4,
//! Fig. 3, and every re-execution of it, §4.2).
//!
//! Every emission of a body claims its binders' names from the supply: the first copy
//! of a source `let` keeps its name, later copies (re-executions) get `base_k` names, so
//! binder names are unique when made (docs/architecture.md §7a, "No uniqueness
//! repair").

use super::ir::{internal, mk, var, Body, Rhs, St};
use adora_core::ast::{BinOp, Expr, ExprKind, Lambda, Lit, Name, Pat, Prim};
use adora_core::diag::Result;
use adora_core::types::{Base, Type};
use adora_core::visit::{free_vars, NameSupply};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::{HashMap, HashSet};

/// A block of emitted bindings, in order.
pub type Block = Vec<(Pat, Expr)>;

/// `let p1 = v1 in … tail`.
pub fn wrap(block: Block, tail: Expr) -> Expr {
    block.into_iter().rev().fold(tail, |acc, (p, v)| {
        mk(ExprKind::Let(p, Box::new(v), Box::new(acc)))
    })
}

/// The adjoint of a value, as known while the return sweep runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Adj {
    /// Zero (nothing contributed yet).
    Zero,
    /// An atom of the value's type.
    Atom(Expr),
    /// A tuple's adjoint, per component.
    Tuple(Vec<Adj>),
}

impl Adj {
    /// Whether it is structurally zero.
    pub fn is_zero(&self) -> bool {
        match self {
            Adj::Zero => true,
            Adj::Atom(_) => false,
            Adj::Tuple(xs) => xs.iter().all(Adj::is_zero),
        }
    }
}

/// The real literal `n`.
pub fn real(n: i64) -> Expr {
    mk(ExprKind::Lit(Lit::Real(BigRational::from_integer(
        BigInt::from(n),
    ))))
}

/// The integer literal `n`.
pub fn int(n: i64) -> Expr {
    mk(ExprKind::Lit(Lit::Int(BigInt::from(n))))
}

/// `a op b`.
pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    mk(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}

/// `p(args)`.
pub fn prim(p: Prim, args: Vec<Expr>) -> Expr {
    mk(ExprKind::Prim(p, args))
}

/// A scalar `x` broadcast to `shape` by `replicate`s.
pub fn fill(shape: &[usize], x: Expr) -> Expr {
    shape
        .iter()
        .rev()
        .fold(x, |acc, &n| prim(Prim::Replicate(n), vec![acc]))
}

/// The zero of `ty` (integers `0`, booleans `false`).
pub fn zeros(ty: &Type) -> Expr {
    match ty {
        Type::Array(b, s) => {
            let z = match b {
                Base::R => real(0),
                Base::Z => int(0),
                Base::B => mk(ExprKind::Lit(Lit::Bool(false))),
            };
            fill(s, z)
        }
        Type::Tuple(ts) => mk(ExprKind::Tuple(ts.iter().map(zeros).collect())),
    }
}

/// The builder's state.
pub struct Rev {
    /// The program's one supply.
    pub supply: NameSupply,
    /// The type of every statement name and every emitted name.
    pub types: HashMap<Name, Type>,
    /// Statement name → the atom of the copy being emitted.
    pub map: HashMap<Name, Expr>,
    /// Every copy of a scope's primal statements emitted: its label and the names its
    /// statements bind (`super::counts_after`).
    pub log: Vec<(String, Vec<Name>)>,
    /// The copies being emitted, innermost last (indices into `log`).
    pub open: Vec<usize>,
    /// Whether the forward sweep being emitted is a re-execution that dead-code
    /// elimination may remove (`super::dce`).
    pub reexec: bool,
    /// The names bound by such re-executions.
    pub droppable: HashSet<Name>,
    /// The accumulators of the `map`s being reversed (`super::map_acc`): per free
    /// array, the batches of updates collected in the scope being reversed.
    pub accs: HashMap<Name, Vec<super::map_acc::Batch>>,
    /// The reverse rules of the SOACs without bodies.
    pub rules: super::Rules,
    /// Counter of `if`s met when normalising lambdas.
    pub ifs: usize,
    /// Under `Checkpoint::Once`, per loop counter: which accumulator components are
    /// restored from the loop's result instead of checkpointed per iteration
    /// (`super::once`); loops not listed checkpoint every component.
    pub once: HashMap<Name, Vec<bool>>,
    /// How many times each rule ran in the return sweeps (`rev/if`, `rev/loop-return`,
    /// `rev/loop-once`, `rev/index`): the coverage of `super::Derived`.
    pub fired: std::collections::BTreeMap<&'static str, usize>,
    /// Statement names that got a contribution after their statement's rule had read
    /// their adjoint (`rev/final-before-use` broken; `super::Derived::late`).
    pub late: Vec<Name>,
}

impl Rev {
    /// Counts one application of `rule` (`fired`).
    pub fn fire(&mut self, rule: &'static str) {
        *self.fired.entry(rule).or_insert(0) += 1;
    }

    /// A fresh name `base_k`.
    pub fn fresh(&mut self, base: &str) -> Name {
        self.supply.fresh(base)
    }

    /// The type of the statement name or emitted name `n`.
    pub fn ty(&self, n: &str) -> Result<Type> {
        self.types
            .get(n)
            .cloned()
            .ok_or_else(|| internal(format!("no type for `{n}`")))
    }

    /// The type of an atom.
    pub fn atom_ty(&self, a: &Expr) -> Result<Type> {
        super::ir::type_in(&self.types, a)
    }

    /// `value` bound to a fresh `base_k` of type `ty` in `out`, unless it is an atom.
    pub fn bind(&mut self, base: &str, ty: &Type, value: Expr, out: &mut Block) -> Expr {
        if matches!(value.kind, ExprKind::Var(_) | ExprKind::Lit(_)) {
            return value;
        }
        let x = self.fresh(base);
        self.types.insert(x.clone(), ty.clone());
        out.push((Pat::Var(x.clone()), value));
        var(&x)
    }

    /// Claims the emitted name of the statement name `n` (of type `ty`) and maps `n` to it.
    pub fn claim(&mut self, n: &Name, ty: &Type) -> Name {
        let x = self.supply.claim(n);
        self.types.insert(x.clone(), ty.clone());
        if self.reexec {
            self.droppable.insert(x.clone());
        }
        if let Some(&k) = self.open.last() {
            self.log[k].1.push(x.clone());
        }
        self.map.insert(n.clone(), var(&x));
        x
    }

    /// `e` (statement names) in the names of the current copy; binders inside `e` (index
    /// maps, operator lambdas) get fresh names.
    pub fn sub(&mut self, e: &Expr) -> Expr {
        if let ExprKind::Var(n) = &e.kind {
            return self.map.get(n).cloned().unwrap_or_else(|| e.clone());
        }
        if let ExprKind::Lit(_) = &e.kind {
            return e.clone();
        }
        let m: Vec<(Name, Expr)> = free_vars(e)
            .into_iter()
            .filter_map(|n| self.map.get(&n).map(|a| (n, a.clone())))
            .collect();
        crate::kit::subst::subst_claiming(e, &m, &mut self.supply)
    }

    /// Starts a copy of the scope `label` (its claimed names are logged to it).
    pub fn begin_copy(&mut self, label: &str) {
        self.log.push((label.to_string(), Vec::new()));
        self.open.push(self.log.len() - 1);
    }

    /// Ends the innermost copy.
    pub fn end_copy(&mut self) {
        self.open.pop();
    }

    /// The plain forward code of `b` (its statements as they are) into `out`; returns the
    /// result atom.
    pub fn emit_body(&mut self, b: &Body, out: &mut Block) -> Result<Expr> {
        self.begin_copy(&b.label);
        for st in &b.stmts {
            self.emit_stmt(st, out)?;
        }
        self.end_copy();
        Ok(self.sub(&b.result))
    }

    /// `b` as one expression (a `let` chain ending in its result).
    pub fn body_expr(&mut self, b: &Body) -> Result<Expr> {
        let mut out = Vec::new();
        let r = self.emit_body(b, &mut out)?;
        Ok(wrap(out, r))
    }

    /// Binds the statement's pattern to fresh names of this copy: the pattern.
    pub fn claim_pat(&mut self, st: &St) -> Result<Pat> {
        Ok(match (&st.pat, &st.ty) {
            (Pat::Var(x), t) => Pat::Var(self.claim(x, t)),
            (Pat::Tuple(xs), Type::Tuple(ts)) => {
                Pat::Tuple(xs.iter().zip(ts).map(|(x, t)| self.claim(x, t)).collect())
            }
            _ => return Err(internal("a tuple pattern of a non-tuple statement")),
        })
    }

    /// One statement, as it is, into `out`.
    pub fn emit_stmt(&mut self, st: &St, out: &mut Block) -> Result<()> {
        let value = match &st.rhs {
            Rhs::Flat(e) | Rhs::Soac(e) => self.sub(e),
            Rhs::If { cond, then_, else_ } => {
                let c = self.sub(cond);
                let a = self.body_expr(then_)?;
                let b = self.body_expr(else_)?;
                mk(ExprKind::If(Box::new(c), Box::new(a), Box::new(b)))
            }
            Rhs::Map {
                params,
                tys,
                body,
                args,
            } => {
                let args: Vec<Expr> = args.iter().map(|a| self.sub(a)).collect();
                let ps: Vec<Name> = params
                    .iter()
                    .zip(tys)
                    .map(|(p, t)| self.claim(p, t))
                    .collect();
                let body = self.body_expr(body)?;
                mk(ExprKind::Map(
                    Lambda {
                        params: ps,
                        body: Box::new(body),
                    },
                    args,
                ))
            }
            Rhs::Loop {
                acc,
                tys,
                var: v,
                count,
                init,
                body,
                ..
            } => {
                let init = self.sub(init);
                let v2 = self.claim(v, &Type::int());
                let names: Vec<Name> = acc.iter().zip(tys).map(|(a, t)| self.claim(a, t)).collect();
                let acc = if names.len() == 1 {
                    Pat::Var(names[0].clone())
                } else {
                    Pat::Tuple(names)
                };
                let body = self.body_expr(body)?;
                mk(ExprKind::Loop {
                    acc,
                    init: Box::new(init),
                    var: v2,
                    count: *count,
                    body: Box::new(body),
                })
            }
        };
        let pat = self.claim_pat(st)?;
        out.push((pat, value));
        Ok(())
    }

    /// The components of an adjoint of tuple type `ty` (projections bound in `out`).
    pub fn components(&mut self, a: &Adj, ty: &Type, out: &mut Block) -> Result<Vec<Adj>> {
        let Type::Tuple(ts) = ty else {
            return Err(internal("components of a non-tuple adjoint"));
        };
        Ok(match a {
            Adj::Zero => vec![Adj::Zero; ts.len()],
            Adj::Tuple(xs) => xs.clone(),
            Adj::Atom(e) => ts
                .iter()
                .enumerate()
                .map(|(k, t)| {
                    let p = mk(ExprKind::Proj(Box::new(e.clone()), k));
                    Adj::Atom(self.bind("adj", t, p, out))
                })
                .collect(),
        })
    }

    /// `a + b` for adjoints of type `ty`.
    pub fn add(&mut self, a: Adj, b: Adj, ty: &Type, out: &mut Block) -> Result<Adj> {
        Ok(match (a, b) {
            (Adj::Zero, x) | (x, Adj::Zero) => x,
            (a, b) => match ty {
                Type::Array(Base::R, _) => {
                    let (Adj::Atom(x), Adj::Atom(y)) = (a, b) else {
                        return Err(internal("a tuple adjoint of an array"));
                    };
                    Adj::Atom(self.bind("adj", ty, bin(BinOp::Add, x, y), out))
                }
                Type::Array(..) => Adj::Zero,
                Type::Tuple(ts) => {
                    let xs = self.components(&a, ty, out)?;
                    let ys = self.components(&b, ty, out)?;
                    let mut cs = Vec::new();
                    for ((x, y), t) in xs.into_iter().zip(ys).zip(ts) {
                        cs.push(self.add(x, y, t, out)?);
                    }
                    Adj::Tuple(cs)
                }
            },
        })
    }

    /// The adjoint as an atom of type `ty` (zeros where it is zero).
    pub fn materialize(&mut self, a: &Adj, ty: &Type, out: &mut Block) -> Result<Expr> {
        Ok(match a {
            Adj::Zero => {
                let z = zeros(ty);
                self.bind("zero", ty, z, out)
            }
            Adj::Atom(e) => e.clone(),
            Adj::Tuple(xs) => {
                let Type::Tuple(ts) = ty else {
                    return Err(internal("a tuple adjoint of an array"));
                };
                let mut cs = Vec::new();
                for (x, t) in xs.iter().zip(ts) {
                    cs.push(self.materialize(x, t, out)?);
                }
                self.bind("adj", ty, mk(ExprKind::Tuple(cs)), out)
            }
        })
    }

    /// Adds the contribution `c` into the adjoint of the atom `x` (a statement name or a
    /// parameter); literals and names without reals take nothing.
    pub fn accumulate(
        &mut self,
        adj: &mut HashMap<Name, Adj>,
        x: &Expr,
        c: Adj,
        out: &mut Block,
    ) -> Result<()> {
        let ExprKind::Var(n) = &x.kind else {
            return Ok(());
        };
        let ty = self.ty(n)?;
        if !ty.has_reals() || c.is_zero() {
            return Ok(());
        }
        let old = adj.remove(n).unwrap_or(Adj::Zero);
        let new = self.add(old, c, &ty, out)?;
        adj.insert(n.clone(), new);
        Ok(())
    }

    /// [`accumulate`](Self::accumulate) of an expression, bound first.
    pub fn contribute(
        &mut self,
        adj: &mut HashMap<Name, Adj>,
        x: &Expr,
        c: Expr,
        out: &mut Block,
    ) -> Result<()> {
        let ExprKind::Var(n) = &x.kind else {
            return Ok(());
        };
        let ty = self.ty(n)?;
        if !ty.has_reals() {
            return Ok(());
        }
        let c = self.bind("ct", &ty, c, out);
        self.accumulate(adj, x, Adj::Atom(c), out)
    }
}
