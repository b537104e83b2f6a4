//! The reverse rules of `y = reduce(op, ne, xs)` (seed 004 §5.1, §5.1.1;
//! docs/engines/soac-rules.md). Special rules first: `+`, `*` (no zero, one zero, two or
//! more zeros, per slice position), `min`/`max` (the first index of the extremum; the
//! elements win ties against `ne`, docs/language.md); then the general rule of a lambda
//! operator. Built-in operators act on slices elementwise, so the special rules are
//! written with elementwise operations on slices of shape `sh`.

use super::code::*;
use super::recurrence::{builtin_of, general, is, Lets};
use super::{RevEnv, RuleOutput, Stmt};
use adora_core::ast::{BinOp, Expr, Lambda, Op};
use adora_core::diag::Result;

/// The rule names of this module, as the rule table of docs/engines/soac-rules.md lists
/// them.
pub const RULES: [&str; 4] = [
    "reduce-plus",
    "reduce-mul",
    "reduce-minmax",
    "reduce-general",
];

/// The return sweep of `y = reduce(op, ne, xs)`: contributions to `ne` and `xs` (and to
/// the operator's free variables).
pub fn reverse(env: &mut dyn RevEnv, op: &Op, s: &Stmt) -> Result<RuleOutput> {
    let [ne, xs] = s.operands.as_slice() else {
        return Err(malformed("`reduce` has two operands"));
    };
    let Some(xs_sh) = real_shape(&s.types[1]) else {
        return Ok(RuleOutput {
            lets: Vec::new(),
            operands: vec![None, None],
            free: Vec::new(),
        });
    };
    let (n, sh) = (xs_sh[0], xs_sh[1..].to_vec());
    let mut l = Lets::new(env);
    let op = match op {
        Op::Lambda(lam) => builtin_of(lam).unwrap_or_else(|| op.clone()),
        _ => op.clone(),
    };
    let (ne_bar, xs_bar, free) = match &op {
        Op::Add => plus(s, n),
        Op::Mul => times(&mut l, ne, xs, &s.adjoint, &sh),
        Op::Min | Op::Max => min_max(&mut l, xs, s, &sh),
        Op::Lambda(lam) => lambda_rule(&mut l, lam, ne, xs, &s.adjoint, n, &sh)?,
    };
    Ok(RuleOutput {
        lets: l.lets,
        operands: vec![for_operand(ne, ne_bar), for_operand(xs, xs_bar)],
        free,
    })
}

type Adjoints = (Expr, Expr, Vec<(String, Expr)>);

/// `reduce-plus` (§5.1.1): `n̄e += ȳ`, `x̄s += replicate(n, ȳ)`.
fn plus(s: &Stmt, n: usize) -> Adjoints {
    (
        s.adjoint.clone(),
        replicate(n, s.adjoint.clone()),
        Vec::new(),
    )
}

/// The indicator `select(x == 0, 1, 0)` of zeros, elementwise on shape `sh`.
pub fn zero_indicator(x: Expr, sh: &[usize]) -> Expr {
    select(bin(BinOp::Eq, x, zeros(sh)), ones(sh), zeros(sh))
}

/// `x` with its zeros replaced by ones, elementwise on shape `sh`.
pub fn nonzero(x: Expr, sh: &[usize]) -> Expr {
    select(bin(BinOp::Eq, x.clone(), zeros(sh)), ones(sh), x)
}

/// The adjoint of one factor `a` of a product given the number of zero factors `cz` and
/// the product `p` of the non-zero ones (elementwise on shape `sh`): `ȳ·p/a` without a
/// zero, `ȳ·p` for the one zero, `0` otherwise (§5.1.1).
pub fn factor_adjoint(yb: Expr, a: Expr, cz: Expr, p: Expr, sh: &[usize]) -> Expr {
    let is_zero = bin(BinOp::Eq, a.clone(), zeros(sh));
    let none = bin(BinOp::Div, p.clone(), nonzero(a, sh));
    let one = select(
        bin(BinOp::Eq, cz.clone(), ones(sh)),
        select(is_zero, p, zeros(sh)),
        zeros(sh),
    );
    mul(yb, select(bin(BinOp::Eq, cz, zeros(sh)), none, one))
}

/// `reduce-mul` (§5.1.1): the zeros among `ne, xs_0, …` counted and the non-zero factors
/// multiplied per slice position; then [`factor_adjoint`] for each factor.
fn times(l: &mut Lets, ne: &Expr, xs: &Expr, yb: &Expr, sh: &[usize]) -> Adjoints {
    let x = l.fresh("x");
    let zs = map(
        vec![x.clone()],
        zero_indicator(var(&x), sh),
        vec![xs.clone()],
    );
    let cz = l.bind("zeros", reduce(Op::Add, zero_indicator(ne.clone(), sh), zs));
    let x = l.fresh("x");
    let nz = map(vec![x.clone()], nonzero(var(&x), sh), vec![xs.clone()]);
    let p = l.bind("product", reduce(Op::Mul, nonzero(ne.clone(), sh), nz));
    let ne_bar = factor_adjoint(yb.clone(), ne.clone(), cz.clone(), p.clone(), sh);
    let x = l.fresh("x");
    let body = factor_adjoint(yb.clone(), var(&x), cz, p, sh);
    (ne_bar, map(vec![x], body, vec![xs.clone()]), Vec::new())
}

/// `reduce-minmax` (§5.1.1): per slice position, the first element equal to `y` gets
/// `ȳ` (a `scan(+)` of the hits finds it); `ne` gets `ȳ` when no element equals `y`.
fn min_max(l: &mut Lets, xs: &Expr, s: &Stmt, sh: &[usize]) -> Adjoints {
    let x = l.fresh("x");
    let hit = select(
        bin(BinOp::Eq, var(&x), s.result.clone()),
        ones(sh),
        zeros(sh),
    );
    let hits = l.bind("hits", map(vec![x], hit, vec![xs.clone()]));
    let seen = l.bind("seen", scan(Op::Add, zeros(sh), hits.clone()));
    let total = l.bind("total", reduce(Op::Add, zeros(sh), hits.clone()));
    let (h, c) = (l.fresh("h"), l.fresh("c"));
    let first = select(
        bin(BinOp::Eq, var(&h), ones(sh)),
        select(
            bin(BinOp::Eq, var(&c), ones(sh)),
            s.adjoint.clone(),
            zeros(sh),
        ),
        zeros(sh),
    );
    let xs_bar = map(vec![h, c], first, vec![hits, seen]);
    let ne_bar = select(
        bin(BinOp::Eq, total, zeros(sh)),
        s.adjoint.clone(),
        zeros(sh),
    );
    (ne_bar, xs_bar, Vec::new())
}

/// `reduce-general` (§5.1, reconstructed for a left fold): `y` is the last partial result
/// of `scan(lam, ne, xs)`, so the general scan rule with `ȳs = [0, …, 0, ȳ]` gives the
/// adjoints (recurrence::general).
fn lambda_rule(
    l: &mut Lets,
    lam: &Lambda,
    ne: &Expr,
    xs: &Expr,
    yb: &Expr,
    n: usize,
    sh: &[usize],
) -> Result<Adjoints> {
    if n == 0 {
        return Ok((yb.clone(), zeros(&[&[0][..], sh].concat()), Vec::new()));
    }
    let op = Op::Lambda(copy_lambda(l.env, lam));
    let ys = l.bind("ys", scan(op, ne.clone(), xs.clone()));
    let i = l.fresh("i");
    let last = ite(is(var(&i), n - 1), yb.clone(), zeros(sh));
    let ysb = l.bind("ys_bar", build(vec![n], vec![i], last));
    let a = general(l, lam, ne, xs, &ys, &ysb, n, sh)?;
    Ok((a.ne, a.xs, a.free))
}
