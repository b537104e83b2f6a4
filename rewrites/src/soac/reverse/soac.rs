//! The call sites of the reverse rules of `reduce`, `scan`, `reduce_by_index` and
//! `scatter_into` (seed 004 *AD for an Array Language with Nested Parallelism* §5.1–§5.3;
//! the rules are `super::super::rules`): [`Rev::soac_rule`] builds the rule's
//! [`Stmt`] from a statement of the forward sweep, calls the rule of the construct from
//! [`Rules`], and applies its [`RuleOutput`] — binds its `let`s and adds each
//! contribution into the adjoint of its operand or of the operator lambda's free
//! variable. It also makes the builder a [`RevEnv`]: fresh names from the one supply,
//! and [`RevEnv::lambda_vjp`], the reverse of an operator lambda by this framework.

use super::build::{wrap, Adj, Block, Rev};
use super::ir::{free_of, internal, mk, var, Norm, St};
use super::sweep::Adjoints;
use crate::soac::rules::{LambdaVjp, RevEnv, RuleOutput, Stmt};
use adora_core::ast::{Expr, ExprKind, Lambda, Name, Op};
use adora_core::diag::Result;
use adora_core::types::Type;
use std::collections::HashMap;

/// A reverse rule of a construct with an operator: `reduce`, `scan`, `reduce_by_index`.
pub type OpRule = fn(&mut dyn RevEnv, &Op, &Stmt) -> Result<RuleOutput>;
/// The reverse rule of `scatter_into` (no operator).
pub type ScatterRule = fn(&mut dyn RevEnv, &Stmt) -> Result<RuleOutput>;

/// The reverse rules of the four SOACs without bodies of their own. The integration of
/// `soac::rules`: [`Rules::default`] holds `rules::<construct>::reverse`; tests may
/// substitute their own.
#[derive(Clone, Copy)]
pub struct Rules {
    /// `reduce(op, ne, xs)`.
    pub reduce: OpRule,
    /// `scan(op, ne, xs)`.
    pub scan: OpRule,
    /// `reduce_by_index(dest, op, ne, is, vs)`.
    pub reduce_by_index: OpRule,
    /// `scatter_into(dest, is, vs)`.
    pub scatter_into: ScatterRule,
    /// Whether accumulator updates with indices invariant to a `map` are summed over it
    /// by `reduce(+)` (seed 004 §6.1; rule `acc/reduce` of `super::acc_reduce`).
    pub acc_to_reduce: bool,
}

impl Default for Rules {
    /// The rules of `soac::rules` (seed 004 §5.1–§5.3).
    fn default() -> Rules {
        use crate::soac::rules;
        Rules {
            reduce: rules::reduce::reverse,
            scan: rules::scan::reverse,
            reduce_by_index: rules::reduce_by_index::reverse,
            scatter_into: rules::scatter_into::reverse,
            acc_to_reduce: true,
        }
    }
}

impl Rev {
    /// The return sweep of `st: y = C(operands…)` for one of the four SOACs: builds the
    /// [`Stmt`], calls the construct's rule and applies its [`RuleOutput`].
    pub fn soac_rule(
        &mut self,
        st: &St,
        e: &Expr,
        ybar: Adj,
        adj: &mut Adjoints,
        out: &mut Block,
    ) -> Result<()> {
        use ExprKind as K;
        let (op, ops): (Option<&Op>, Vec<&Expr>) = match &e.kind {
            K::Reduce(op, ne, xs) | K::Scan(op, ne, xs) => (Some(op), vec![ne, xs]),
            K::ReduceByIndex {
                dest,
                op,
                ne,
                is,
                vs,
            } => (Some(op), vec![dest, ne, is, vs]),
            K::ScatterInto { dest, is, vs } => (None, vec![dest, is, vs]),
            _ => return Err(internal("not a SOAC statement")),
        };
        let operands: Vec<Expr> = ops.iter().map(|o| self.sub(o)).collect();
        let mut types = Vec::new();
        for o in &ops {
            types.push(self.atom_ty(o)?);
        }
        let adjoint = self.materialize(&ybar, &st.ty, out)?;
        let adora_core::ast::Pat::Var(y) = &st.pat else {
            return Err(internal("a SOAC bound to a tuple pattern"));
        };
        let s = Stmt {
            operands,
            types,
            result: self.sub(&var(y)),
            result_ty: st.ty.clone(),
            adjoint,
        };
        // The operator in this copy's names, and its free variables' statement names.
        let (op2, back) = match op {
            Some(Op::Lambda(l)) => {
                let lam_e = mk(K::Map(l.clone(), vec![]));
                let Expr {
                    kind: K::Map(l2, _),
                    ..
                } = self.sub(&lam_e)
                else {
                    return Err(internal("substitution changed a lambda"));
                };
                let mut back: HashMap<Name, Name> = HashMap::new();
                for v in adora_core::visit::free_vars(&l.body) {
                    match self.map.get(&v) {
                        Some(Expr {
                            kind: K::Var(w), ..
                        }) => back.insert(w.clone(), v.clone()),
                        _ => back.insert(v.clone(), v.clone()),
                    };
                }
                (Some(Op::Lambda(l2)), back)
            }
            Some(o) => (Some(o.clone()), HashMap::new()),
            None => (None, HashMap::new()),
        };
        let rules = self.rules;
        let r = match (&e.kind, &op2) {
            (K::Reduce(..), Some(op)) => (rules.reduce)(self, op, &s)?,
            (K::Scan(..), Some(op)) => (rules.scan)(self, op, &s)?,
            (K::ReduceByIndex { .. }, Some(op)) => (rules.reduce_by_index)(self, op, &s)?,
            (K::ScatterInto { .. }, None) => (rules.scatter_into)(self, &s)?,
            _ => return Err(internal("a SOAC without its operator")),
        };
        self.apply(r, &ops, &back, adj, out)
    }

    /// Binds a rule's `let`s and adds its contributions.
    fn apply(
        &mut self,
        r: RuleOutput,
        ops: &[&Expr],
        back: &HashMap<Name, Name>,
        adj: &mut Adjoints,
        out: &mut Block,
    ) -> Result<()> {
        out.extend(r.lets);
        if r.operands.len() != ops.len() {
            return Err(internal(
                "a rule returned contributions for another number of operands",
            ));
        }
        for (o, c) in ops.iter().zip(r.operands) {
            if let Some(c) = c {
                self.contribute(adj, o, c, out)?;
            }
        }
        for (n, c) in r.free {
            let Some(v) = back.get(&n) else {
                return Err(internal(format!(
                    "a contribution to `{n}`, not a free variable of the operator"
                )));
            };
            self.contribute(adj, &var(v), c, out)?;
        }
        Ok(())
    }
}

impl RevEnv for Rev {
    fn fresh(&mut self, base: &str) -> Name {
        self.supply.fresh(base)
    }

    fn lambda_vjp(&mut self, lam: &Lambda, params: &[Type], body: &Type) -> Result<LambdaVjp> {
        for (p, t) in lam.params.iter().zip(params) {
            self.types.insert(p.clone(), t.clone());
        }
        let label = format!("lambda {}", lam.params.first().map_or("", |p| p.as_str()));
        let ir = {
            let mut norm = Norm {
                supply: &mut self.supply,
                types: &mut self.types,
                alias: HashMap::new(),
                ifs: self.ifs,
            };
            let b = norm.body(label, &lam.body)?;
            self.ifs = norm.ifs;
            b
        };
        let free: Vec<Name> = free_of(&ir)
            .into_iter()
            .filter(|x| !lam.params.contains(x))
            .collect();
        let free = self.with_reals(free)?;
        let free_tys = self.types_of(&free)?;
        let ps: Vec<Name> = lam
            .params
            .iter()
            .zip(params)
            .map(|(p, t)| self.claim(p, t))
            .collect();
        let ge = self.supply.fresh("ybar");
        self.types.insert(ge.clone(), body.clone());
        let mut wanted = lam.params.clone();
        wanted.extend(free.iter().cloned());
        let mut blk = Vec::new();
        let (_, adjs) = self.vjp_nested(&ir, Adj::Atom(var(&ge)), &wanted, true, &mut blk)?;
        let mut res = Vec::new();
        for (a, t) in adjs.iter().zip(params.iter().chain(&free_tys)) {
            res.push(self.materialize(a, t, &mut blk)?);
        }
        let tail = if res.len() == 1 {
            res.remove(0)
        } else {
            mk(ExprKind::Tuple(res))
        };
        let mut lparams = ps;
        lparams.push(ge);
        Ok(LambdaVjp {
            lambda: Lambda {
                params: lparams,
                body: Box::new(wrap(blk, tail)),
            },
            free: free.into_iter().zip(free_tys).collect(),
        })
    }
}
