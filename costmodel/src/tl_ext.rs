//! The extended cost `C_ext` of inner-product terms (seed 001, *Differentiating a Tensor
//! Language*, §6.3, Fig. 17, rules 6.50–6.54; docs/engines/tssa-derivatives.md,
//! "Extended cost"). The proof of Theorem 6.55 costs a term of the adjoint rewriting "by
//! summing the cost of all the constituent expressions, plus an adjustment for the sizes
//! of all the current inner-products … the size of the non-zero interface between the
//! left and right hand sides":
//!
//! | rule | term | `C_ext` |
//! |---|---|---|
//! | 6.50 | `let x = e in t` | `C(e) + C_ext(t)` |
//! | 6.51 | `t1 + t2` | `C_ext(t1) + C_ext(t2)` |
//! | 6.52 | `⟨[r] a, d⟩` | `C(a) + C(d) + \|r\|`; unfiltered `⟨a, d⟩ : T`: `\|T\|` |
//! | 6.53 | type sizes | `\|num\| = 1`, `\|T × U\| = \|T\| + \|U\|`, `\|[n]T\| = n·\|T\|` ([`type_size`]) |
//! | 6.54 | `C_io(e)` | `C(e) + \|X\| + \|Y\|` ([`cost_io`]) |
//!
//! `C_ext` is computed by `C` itself ([`cost_c`]) on a counting term: lets stay lets
//! (4.32 is 6.50), the sum becomes nested pairs (4.27 adds their costs, 6.51), and an inner
//! product becomes the triple `(a, d, gen K. [r] (1 * 1))`, whose last part costs exactly
//! `|r|` (4.29, 4.33, 4.25). So predicates, data predicates and lazily computed let-bound
//! values are treated exactly as `C` treats them.

use crate::tl::{cost_c, type_size};
use adora_core::diag::Result;
use adora_core::tl::{Dims, Pred, Rat, Term, Ty, Var};
use adora_semantics::tl::TlEnv;

/// An inner-product term (Fig. 14) as `C_ext` sees it (built once per measurement, so the
/// size of the `Inner` variant does not matter).
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)]
pub enum ExtTerm {
    /// `let x = e in t`.
    Let(Var, Term, Box<ExtTerm>),
    /// `t1 + t2`.
    Add(Box<ExtTerm>, Box<ExtTerm>),
    /// `⟨[r] a, d⟩ : T`; `filter` is `(K, r)` (`None`: unfiltered).
    Inner {
        /// The filter's binders (one per dimension of `T`) and predicate.
        filter: Option<(Dims, Pred)>,
        /// `a`.
        left: Term,
        /// `d`.
        right: Term,
        /// `T`.
        ty: Ty,
    },
    /// `0`.
    Zero,
}

fn one_times_one() -> Term {
    let one = || Box::new(Term::Const(Rat::from_integer(1.into())));
    Term::Mul(one(), one())
}

fn zero() -> Term {
    Term::Const(Rat::from_integer(0.into()))
}

/// The counting term of `t` (module documentation).
fn counting(t: &ExtTerm) -> Term {
    match t {
        ExtTerm::Let(x, e, body) => {
            Term::Let(x.clone(), Box::new(e.clone()), Box::new(counting(body)))
        }
        ExtTerm::Add(a, b) => Term::Pair(Box::new(counting(a)), Box::new(counting(b))),
        ExtTerm::Zero => zero(),
        ExtTerm::Inner {
            filter,
            left,
            right,
            ty,
        } => {
            let size = match filter {
                Some((dims, r)) => dims.iter().rev().fold(
                    Term::Bracket(r.clone(), Box::new(one_times_one())),
                    |body, (k, n)| Term::Gen(k.clone(), *n, Box::new(body)),
                ),
                None => Term::Gen("k".into(), type_size(ty), Box::new(one_times_one())),
            };
            Term::Pair(
                Box::new(left.clone()),
                Box::new(Term::Pair(Box::new(right.clone()), Box::new(size))),
            )
        }
    }
}

/// `C_ext⟦t⟧env` (rules 6.50–6.52).
pub fn cost_ext(t: &ExtTerm, env: &TlEnv<Rat>) -> Result<u64> {
    cost_c(&counting(t), env)
}

/// Rule 6.54: `C_io(e) = C(e) + |X| + |Y|` for the differentiated input types `xs` and the
/// output type `y`.
pub fn cost_io(c: u64, xs: &[Ty], y: &Ty) -> u64 {
    xs.iter()
        .map(type_size)
        .fold(c.saturating_add(type_size(y)), u64::saturating_add)
}
