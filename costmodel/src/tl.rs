//! The op-count cost model `C` of the tensor language (seed 001, *Differentiating a Tensor
//! Language*, §4.3, Fig. 6, rules 4.22–4.34; docs/engines/tssa-language.md, "Cost C").
//! It counts scalar additions, multiplications and black-box calls, never index
//! arithmetic or memory traffic, and is sparsity-aware:
//!
//! | rule | term | `C` |
//! |---|---|---|
//! | 4.22, 4.23 | `x`, `c`, `#a` | 0 |
//! | 4.24 ⋆ | `[p] e1 + [q] e2` | `C([p] e1) + C([q] e2) + [p ∧ q]`; an operand without an immediate bracket has `p = true` |
//! | 4.25 | `e1 * e2` | `C(e1) + C(e2) + 1` |
//! | 4.26 | `f(e)` | `C(e) + 1` |
//! | 4.27, 4.28 | `(e1, e2)`, `e.k` | `C(e1) + C(e2)`, `C(e)` |
//! | 4.29 | `gen i:n. e` | `Σ_k C(e)[i ↦ k]` |
//! | 4.30 † | `sum I. [p] e` (the maximal chain of sums and brackets, costed jointly) | `Σ_{k ⊨ p} (C(e) + 1) − [N > 0]`: `N − 1` additions for `N` non-zero terms |
//! | 4.31 | `e[a]` | `C(e)` |
//! | 4.32 | `let x = e1 in e2` | `C(e1) + C(e2)` |
//! | 4.33 | `[p] e` | `C(e)` if `p`, else 0 (short-circuit) |
//! | 4.34 | predicates, index expressions | 0 |
//!
//! Predicates are evaluated in the environment, so `C` depends on the input values
//! through relation inputs and data predicates (E1) — exact for the inputs given, like
//! the host's cost models (docs/cost-models.md). Let-bound values are computed only when
//! a predicate may read them, so costing a term with transcendental black boxes works in
//! exact arithmetic unless such a value decides a predicate.

use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::tl::{
    free::{free_vars_index, free_vars_pred},
    ssa_to_term, Pred, SsaProgram, Term, Ty,
};
use adora_semantics::tl::{ssa_env, Ctx, TlEnv, TlValue};
use adora_semantics::Rat;
use std::collections::HashSet;

/// `C⟦t⟧env`.
pub fn cost_c(t: &Term, env: &TlEnv<Rat>) -> Result<u64> {
    let needed = needed_lets(t);
    let mut c = Coster {
        ctx: Ctx::new(t, env)?,
        needed,
    };
    c.cost(t)
}

/// `C` of a Tensor-SSA program at its inputs (of its let-block embedding).
pub fn cost_c_ssa(p: &SsaProgram, inputs: &[TlValue<Rat>]) -> Result<u64> {
    cost_c(&ssa_to_term(p), &ssa_env(p, inputs)?)
}

/// `|T|` (paper Fig. 17): `|num| = 1`, `|T × U| = |T| + |U|`, `|[n]T| = n·|T|`; the data
/// types `bool` and `int` have size 0 (they are never differentiated).
pub fn type_size(t: &Ty) -> u64 {
    match t {
        Ty::Num => 1,
        Ty::Bool | Ty::Int => 0,
        Ty::Pair(a, b) => type_size(a).saturating_add(type_size(b)),
        Ty::Arr(n, e) => n.saturating_mul(type_size(e)),
    }
}

struct Coster {
    ctx: Ctx<Rat>,
    needed: HashSet<String>,
}

fn too_large() -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Resource,
        Span::DUMMY,
        "the cost of the term does not fit 64 bits",
    )
}

fn plus(a: u64, b: u64) -> Result<u64> {
    a.checked_add(b).ok_or_else(too_large)
}

/// One level of a composite summation (rule 4.30 †).
enum Level<'t> {
    Sum(&'t str, u64),
    Pred(&'t Pred),
}

impl Coster {
    fn cost(&mut self, t: &Term) -> Result<u64> {
        match t {
            Term::Var(_) | Term::Const(_) | Term::IndexConst(_) => Ok(0),
            Term::Add(a, b) => {
                let ca = self.cost(a)?;
                let cb = self.cost(b)?;
                let both = self.immediate(a)? && self.immediate(b)?;
                plus(plus(ca, cb)?, both as u64)
            }
            Term::Mul(a, b) => plus(plus(self.cost(a)?, self.cost(b)?)?, 1),
            Term::Call(_, e) => plus(self.cost(e)?, 1),
            Term::Pair(a, b) => plus(self.cost(a)?, self.cost(b)?),
            Term::Proj(_, e) | Term::Access(e, _) => self.cost(e),
            Term::Gen(i, n, e) => {
                let mut total = 0u64;
                for k in 0..*n as i64 {
                    self.ctx.push_index(i, k);
                    let c = self.cost(e);
                    self.ctx.pop_index();
                    total = plus(total, c?)?;
                }
                Ok(total)
            }
            Term::Sum(..) => {
                let mut levels = Vec::new();
                let mut body = t;
                loop {
                    match body {
                        Term::Sum(i, n, e) => {
                            levels.push(Level::Sum(i, *n));
                            body = e;
                        }
                        Term::Bracket(p, e) => {
                            levels.push(Level::Pred(p));
                            body = e;
                        }
                        _ => break,
                    }
                }
                let (mut n, mut total) = (0u64, 0u64);
                self.composite(&levels, body, &mut n, &mut total)?;
                Ok(total - (n > 0) as u64)
            }
            Term::Bracket(p, e) => {
                if self.ctx.holds(p)? {
                    self.cost(e)
                } else {
                    Ok(0)
                }
            }
            Term::Let(x, e1, e2) => {
                let c1 = self.cost(e1)?;
                let v = if self.needed.contains(x) {
                    self.ctx.eval(e1)?
                } else {
                    // Never read: no predicate depends on `x` (see `needed_lets`).
                    TlValue::Num(Rat::from_integer(0.into()))
                };
                self.ctx.push_value(x, v);
                let c2 = self.cost(e2);
                self.ctx.pop_value();
                plus(c1, c2?)
            }
        }
    }

    /// The immediate predicate of an addition's operand (rule 4.24 ⋆): its value when
    /// the operand is `[p] e`, else true.
    fn immediate(&mut self, t: &Term) -> Result<bool> {
        match t {
            Term::Bracket(p, _) => self.ctx.holds(p),
            _ => Ok(true),
        }
    }

    /// Enumerates the satisfying assignments of a composite summation, counting them
    /// (`n`) and adding `C(body) + 1` for each to `total`.
    fn composite(
        &mut self,
        levels: &[Level],
        body: &Term,
        n: &mut u64,
        total: &mut u64,
    ) -> Result<()> {
        match levels.split_first() {
            None => {
                *n += 1;
                *total = plus(*total, plus(self.cost(body)?, 1)?)?;
                Ok(())
            }
            Some((Level::Pred(p), rest)) => {
                if self.ctx.holds(p)? {
                    self.composite(rest, body, n, total)
                } else {
                    Ok(())
                }
            }
            Some((Level::Sum(i, m), rest)) => {
                for k in 0..*m as i64 {
                    self.ctx.push_index(i, k);
                    let r = self.composite(rest, body, n, total);
                    self.ctx.pop_index();
                    r?;
                }
                Ok(())
            }
        }
    }
}

/// The let-bound names whose values a predicate may read: names read by predicates and
/// index expressions, closed under the free variables of their bindings (by name, an
/// over-approximation under shadowing).
fn needed_lets(t: &Term) -> HashSet<String> {
    let mut reads = HashSet::new();
    let mut lets: Vec<(&str, &Term)> = Vec::new();
    scan(t, &mut reads, &mut lets);
    loop {
        let before = reads.len();
        for (x, e1) in &lets {
            if reads.contains(*x) {
                reads.extend(adora_core::tl::free_vars(e1).values);
            }
        }
        if reads.len() == before {
            return reads;
        }
    }
}

fn scan<'t>(t: &'t Term, reads: &mut HashSet<String>, lets: &mut Vec<(&'t str, &'t Term)>) {
    match t {
        Term::Var(_) | Term::Const(_) => {}
        Term::IndexConst(a) => reads.extend(free_vars_index(a).values),
        Term::Add(a, b) | Term::Mul(a, b) | Term::Pair(a, b) => {
            scan(a, reads, lets);
            scan(b, reads, lets);
        }
        Term::Call(_, e) | Term::Proj(_, e) | Term::Gen(_, _, e) | Term::Sum(_, _, e) => {
            scan(e, reads, lets)
        }
        Term::Access(e, a) => {
            reads.extend(free_vars_index(a).values);
            scan(e, reads, lets);
        }
        Term::Bracket(p, e) => {
            reads.extend(free_vars_pred(p).values);
            scan(e, reads, lets);
        }
        Term::Let(x, e1, e2) => {
            lets.push((x, e1));
            scan(e1, reads, lets);
            scan(e2, reads, lets);
        }
    }
}
