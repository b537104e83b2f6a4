//! Convention profiles for every engine: a program rewritten so that its derivative under
//! the `futhark` conventions is the original's derivative under another profile
//! (docs/conventions.md, "Profiles"; the profiles are `adora_semantics::conventions`).
//!
//! | rule | profiles | source form (real operands) | lowered form |
//! |---|---|---|---|
//! | `lower/tie-max-min` | `jax`, `pytorch` | `max(a, b)`, `min(a, b)` | `let p = a in let q = b in select(p == q, p / 2 + q / 2, max(p, q))` |
//! | `lower/abs-at-0` | `jax` | `abs(a)` | `let p = a in select(p == 0, p, abs(p))` |
//! | `lower/reduce-ties` | `jax`, `pytorch` | `reduce(max, ne, xs)` (and `min`) | `m + z` with `m = reduce(max, ne, xs)`, `c` the number of tied items (the neutral element included), `z = (Σ_tied (x - m)) / c` (value 0, tangent the mean of the tied tangents minus `ṁ`); `m` itself where `m - m != 0` (a tie of infinities in f64 mode) |
//! | `lower/scan-ties` | `jax`, `pytorch` | `scan(max, ne, xs)` (and `min`) | `scan((a, b) => TIE(a, b), ne, xs)`: the fold from `ne`, each step `lower/tie-max-min` |
//! | `lower/hist-ties` | `jax`, `pytorch` | `reduce_by_index(dest, max, ne, is, vs)` (and `min`) | the same with the operator `(a, b) => TIE(a, b)`: `dest[k] = TIE(dest[k], v)` in index order |
//!
//! `TIE(a, b)` is the right side of `lower/tie-max-min` on the lambda's parameters. Each
//! lowered form has the source form's value (exactly in exact mode; in f64 mode `p / 2 +
//! q / 2` at a tie is `p` except for an odd subnormal `p`), and its derivative under the
//! `futhark` rules of the primitive table (`crate::prims`: `select` follows the selected
//! branch, a tie of `max` follows the first operand) is the profile's rule as the reference
//! derivative states it (`adora_semantics::conventions`): a tie splits evenly, `abs'(0) = 1`.
//! Integer operands are left alone (no derivative). `select`, comparisons, `map` and
//! lambda operators are in every fragment that has the source forms, so an engine that
//! accepts a program accepts its lowering unless the engine refuses lambda operators of
//! `scan` or `reduce_by_index` (an `Unsupported` answer, as for any construct).
//!
//! The harness (`crate::engine::harness`) lowers a program for every engine but the
//! reference, which implements the profiles itself and independently: the properties
//! `E/agrees-under-P` check each engine under each profile against it, and
//! `conventions/lowering-*` check the rules themselves.

use crate::kit::names::supply_for;
use crate::soac::rules::code::{
    bin, fill, lambda, let_, map, prim, real, reduce, reduce_by_index, scan, select, var,
};
use adora_core::ast::{BinOp, Expr, ExprKind, Function, Name, Op, Pat, Prim};
use adora_core::check::{self, NodeTypes};
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::types::{Base, Shape, Type};
use adora_core::visit::{children, children_mut, NameSupply};
use adora_semantics::conventions::Conventions;

/// The lowering rules, by name, in the order of the module table.
pub const RULES: [&str; 5] = [
    "lower/tie-max-min",
    "lower/abs-at-0",
    "lower/reduce-ties",
    "lower/scan-ties",
    "lower/hist-ties",
];

/// A lowered function and the number of times each rule of [`RULES`] fired.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The lowered function (checked: it is an elaborated function of `f`'s signature).
    pub function: Function,
    /// Per rule of [`RULES`], how often it rewrote a node.
    pub fired: [usize; 5],
}

/// `f` rewritten so that its `futhark` derivative is its derivative under `profile`
/// (module documentation); `futhark` gives `f` itself. An error only if the lowered
/// function does not check, which is an internal error.
pub fn lower(f: &Function, profile: Conventions) -> Result<Lowered> {
    let mut out = Lowered {
        function: f.clone(),
        fired: [0; 5],
    };
    if profile == Conventions::Futhark {
        return Ok(out);
    }
    let types = check::node_types(f)?;
    let params: Vec<Name> = f.params.iter().map(|p| p.name.clone()).collect();
    let mut cx = Cx {
        types,
        supply: supply_for(&params, &f.body),
        split: profile.splits_ties(),
        abs_one: profile.abs_slope_one_at_zero(),
        fired: [0; 5],
    };
    out.function.body = cx.expr(&f.body)?;
    out.fired = cx.fired;
    check::check_function(&out.function).map_err(|d| {
        Diagnostic::new(
            ErrorKind::Internal,
            d.span,
            format!(
                "the `{profile}` lowering of `{}` does not check: {}",
                f.name, d.message
            ),
        )
    })?;
    Ok(out)
}

struct Cx {
    types: NodeTypes,
    supply: NameSupply,
    split: bool,
    abs_one: bool,
    fired: [usize; 5],
}

/// The shape of a real array type, `None` for other types.
fn real_shape(t: &Type) -> Option<Shape> {
    match t {
        Type::Array(Base::R, s) => Some(s.clone()),
        _ => None,
    }
}

/// `max` or `min` as a primitive, for the operators `Max` and `Min`.
fn extreme(op: &Op) -> Option<Prim> {
    match op {
        Op::Max => Some(Prim::Max),
        Op::Min => Some(Prim::Min),
        _ => None,
    }
}

impl Cx {
    fn fresh(&mut self, base: &str) -> Name {
        self.supply.fresh(base)
    }

    /// The real-array shape of node `e` of the source function.
    fn shape_of(&self, e: &Expr) -> Result<Option<Shape>> {
        Ok(real_shape(self.types.of(e)?))
    }

    /// The shape of one row (outer slice) of node `e`, a real array of rank >= 1: the
    /// operands of a `scan`'s or `reduce_by_index`'s operator.
    fn row_shape(&self, e: &Expr) -> Result<Option<Shape>> {
        Ok(match self.types.of(e)? {
            Type::Array(Base::R, s) if !s.is_empty() => Some(s[1..].to_vec()),
            _ => None,
        })
    }

    /// `e` with every rule applied below and at it.
    fn expr(&mut self, e: &Expr) -> Result<Expr> {
        let mut out = e.clone();
        let lowered: Vec<Expr> = children(e)
            .into_iter()
            .map(|c| self.expr(c))
            .collect::<Result<_>>()?;
        for (slot, c) in children_mut(&mut out).into_iter().zip(lowered) {
            *slot = c;
        }
        let rewritten = match &out.kind {
            ExprKind::Prim(p @ (Prim::Max | Prim::Min), args) if self.split => self
                .shape_of(e)?
                .map(|sh| self.tie_max_min(p.clone(), &sh, &args[0], &args[1])),
            ExprKind::Prim(Prim::Abs, args) if self.abs_one => {
                self.shape_of(e)?.map(|sh| self.abs_at_0(&sh, &args[0]))
            }
            ExprKind::Reduce(op, ne, xs) if self.split => match (extreme(op), self.shape_of(e)?) {
                (Some(p), Some(sh)) => Some(self.reduce_ties(p, &sh, ne, xs)),
                _ => None,
            },
            ExprKind::Scan(op, ne, xs) if self.split => match (extreme(op), self.row_shape(e)?) {
                (Some(p), Some(sh)) => {
                    self.fired[3] += 1;
                    let op = self.tie_op(p, &sh);
                    Some(scan(op, (**ne).clone(), (**xs).clone()))
                }
                _ => None,
            },
            ExprKind::ReduceByIndex {
                dest,
                op,
                ne,
                is,
                vs,
            } if self.split => match (extreme(op), self.row_shape(e)?) {
                (Some(p), Some(sh)) => {
                    self.fired[4] += 1;
                    let op = self.tie_op(p, &sh);
                    Some(reduce_by_index(
                        (**dest).clone(),
                        op,
                        (**ne).clone(),
                        (**is).clone(),
                        (**vs).clone(),
                    ))
                }
                _ => None,
            },
            _ => None,
        };
        Ok(match rewritten {
            Some(mut r) => {
                r.span = e.span;
                r
            }
            None => out,
        })
    }

    /// `select(p == q, p / 2 + q / 2, p ⊓ q)` on the variables `p`, `q` of shape `sh`.
    fn tie(&self, p: Prim, sh: &[usize], a: &str, b: &str) -> Expr {
        let half = |x: &str| bin(BinOp::Div, var(x), fill(sh, real(2)));
        select(
            bin(BinOp::Eq, var(a), var(b)),
            bin(BinOp::Add, half(a), half(b)),
            prim(p, vec![var(a), var(b)]),
        )
    }

    /// Rule `lower/tie-max-min`.
    fn tie_max_min(&mut self, p: Prim, sh: &[usize], a: &Expr, b: &Expr) -> Expr {
        self.fired[0] += 1;
        let (x, y) = (self.fresh("tie_a"), self.fresh("tie_b"));
        let body = self.tie(p, sh, &x, &y);
        let_(Pat::Var(x), a.clone(), let_(Pat::Var(y), b.clone(), body))
    }

    /// The operator `(a, b) => TIE(a, b)` of rules `lower/scan-ties` and `lower/hist-ties`.
    fn tie_op(&mut self, p: Prim, sh: &[usize]) -> Op {
        let (x, y) = (self.fresh("tie_a"), self.fresh("tie_b"));
        let body = self.tie(p, sh, &x, &y);
        Op::Lambda(lambda(vec![x, y], body))
    }

    /// Rule `lower/abs-at-0`.
    fn abs_at_0(&mut self, sh: &[usize], a: &Expr) -> Expr {
        self.fired[1] += 1;
        let x = self.fresh("abs_a");
        let body = select(
            bin(BinOp::Eq, var(&x), fill(sh, real(0))),
            var(&x),
            prim(Prim::Abs, vec![var(&x)]),
        );
        let_(Pat::Var(x), a.clone(), body)
    }

    /// Rule `lower/reduce-ties`: `m + z` (module table), over slices of shape `sh`.
    fn reduce_ties(&mut self, p: Prim, sh: &[usize], ne: &Expr, xs: &Expr) -> Expr {
        self.fired[2] += 1;
        let op = if p == Prim::Max { Op::Max } else { Op::Min };
        let [n0, x0, m, c, z, x1, x2] = [
            "tie_ne",
            "tie_xs",
            "tie_m",
            "tie_count",
            "tie_z",
            "tie_x",
            "tie_x",
        ]
        .map(|b| self.fresh(b));
        let zero = || fill(sh, real(0));
        let one = || fill(sh, real(1));
        let tied = |x: &str| bin(BinOp::Eq, var(x), var(&m));
        let count = bin(
            BinOp::Add,
            select(tied(&n0), one(), zero()),
            reduce(
                Op::Add,
                zero(),
                map(
                    vec![x1.clone()],
                    select(tied(&x1), one(), zero()),
                    vec![var(&x0)],
                ),
            ),
        );
        let gap = |x: &str| select(tied(x), bin(BinOp::Sub, var(x), var(&m)), zero());
        let spread = bin(
            BinOp::Div,
            bin(
                BinOp::Add,
                gap(&n0),
                reduce(
                    Op::Add,
                    zero(),
                    map(vec![x2.clone()], gap(&x2), vec![var(&x0)]),
                ),
            ),
            var(&c),
        );
        let finite = bin(BinOp::Eq, bin(BinOp::Sub, var(&m), var(&m)), zero());
        let result = select(finite, bin(BinOp::Add, var(&m), var(&z)), var(&m));
        let block = [
            (n0.clone(), ne.clone()),
            (x0.clone(), xs.clone()),
            (m.clone(), reduce(op, var(&n0), var(&x0))),
            (c, count),
            (z, spread),
        ];
        block
            .into_iter()
            .rev()
            .fold(result, |acc, (n, v)| let_(Pat::Var(n), v, acc))
    }
}
