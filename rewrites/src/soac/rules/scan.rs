//! The reverse rules of `ys = scan(op, ne, xs)` (inclusive; seed 004 §5.2;
//! docs/engines/soac-rules.md): `+` (reverse prefix sums), `*` and `min`/`max`
//! (elementwise backward recurrences solved by the scan of linear-function composition,
//! recurrence::diagonal), and the general rule of a lambda operator (Jacobian matrices,
//! recurrence::general). Built-in operators act on slices elementwise.

use super::code::*;
use super::recurrence::{builtin_of, diagonal, general, is, rev_index, Lets};
use super::{RevEnv, RuleOutput, Stmt};
use adora_core::ast::{BinOp, Expr, Op};
use adora_core::diag::Result;

/// The rule names of this module, as the rule table of docs/engines/soac-rules.md lists
/// them.
pub const RULES: [&str; 4] = ["scan-plus", "scan-mul", "scan-minmax", "scan-general"];

/// The return sweep of `ys = scan(op, ne, xs)`: contributions to `ne` and `xs` (and to
/// the operator's free variables).
pub fn reverse(env: &mut dyn RevEnv, op: &Op, s: &Stmt) -> Result<RuleOutput> {
    let [ne, xs] = s.operands.as_slice() else {
        return Err(malformed("`scan` has two operands"));
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
    let ysb = &s.adjoint;
    let (ne_bar, xs_bar, free) = match &op {
        Op::Add => plus(&mut l, ysb, n, &sh),
        _ if n == 0 => (zeros(&sh), zeros(&[&[0][..], &sh].concat()), Vec::new()),
        Op::Mul => {
            let prev = exclusive(&mut l, ne, &s.result, n);
            let c = diagonal(&mut l, xs, ysb, n, &sh);
            let i = l.fresh("i");
            let xs_bar = build(
                vec![n],
                vec![i.clone()],
                mul(at(prev, var(&i)), at(c.clone(), var(&i))),
            );
            let ne_bar = mul(at(xs.clone(), int(0)), at(c, int(0)));
            (ne_bar, xs_bar, Vec::new())
        }
        Op::Min | Op::Max => min_max(&mut l, &op, xs, s, n, &sh),
        Op::Lambda(lam) => {
            let a = general(&mut l, lam, ne, xs, &s.result, ysb, n, &sh)?;
            (a.ne, a.xs, a.free)
        }
    };
    Ok(RuleOutput {
        lets: l.lets,
        operands: vec![for_operand(ne, ne_bar), for_operand(xs, xs_bar)],
        free,
    })
}

type Adjoints = (Expr, Expr, Vec<(String, Expr)>);

/// The exclusive scan `[ne, ys_0, …, ys_{n-2}]` (the paper's `ls`).
fn exclusive(l: &mut Lets, ne: &Expr, ys: &Expr, n: usize) -> Expr {
    let i = l.fresh("i");
    let body = ite(
        is(var(&i), 0),
        ne.clone(),
        at(ys.clone(), sub(var(&i), int(1))),
    );
    l.bind("ls", build(vec![n], vec![i], body))
}

/// `xs` reversed along its outer dimension.
fn reversed(l: &mut Lets, xs: &Expr, n: usize) -> Expr {
    let i = l.fresh("i");
    build(
        vec![n],
        vec![i.clone()],
        at(xs.clone(), rev_index(n, var(&i))),
    )
}

/// `scan-plus` (§5.2): `x̄s_i += Σ_{j ≥ i} ȳs_j` (a `scan(+)` of the reversed `ȳs`,
/// reversed), `n̄e += Σ_j ȳs_j`.
fn plus(l: &mut Lets, ysb: &Expr, n: usize, sh: &[usize]) -> Adjoints {
    let rev = reversed(l, ysb, n);
    let sums = l.bind("suffix", scan(Op::Add, zeros(sh), rev));
    let xs_bar = reversed(l, &sums, n);
    let ne_bar = reduce(Op::Add, zeros(sh), ysb.clone());
    (ne_bar, xs_bar, Vec::new())
}

/// `scan-minmax` (§5.2, our decision for the ties of docs/language.md): `ys_i` is the
/// running extremum `r_i` of `xs_0..xs_i` (first index on ties) unless `ne` beats it
/// strictly. Per slice position, element `j` is a *record* when `j = 0` or
/// `r_j ≠ r_{j-1}`; it receives the `ȳs_i` of the following positions `i` up to the next
/// record where the element wins (`ys_i = r_i`): the backward recurrence
/// `T_i = D_i + (1 - record_{i+1}) T_{i+1}` solved by recurrence::diagonal. `ne`
/// receives the `ȳs_i` where it wins.
fn min_max(l: &mut Lets, op: &Op, xs: &Expr, s: &Stmt, n: usize, sh: &[usize]) -> Adjoints {
    let r = l.bind(
        "running",
        scan(op.clone(), at(xs.clone(), int(0)), xs.clone()),
    );
    let (y, q) = (l.fresh("y"), l.fresh("r"));
    let wins = select(bin(BinOp::Eq, var(&y), var(&q)), ones(sh), zeros(sh));
    let wins = l.bind(
        "element_wins",
        map(vec![y, q], wins, vec![s.result.clone(), r.clone()]),
    );
    let i = l.fresh("i");
    let changed = select(
        bin(
            BinOp::Eq,
            at(r.clone(), var(&i)),
            at(r, sub(var(&i), int(1))),
        ),
        zeros(sh),
        ones(sh),
    );
    let record = l.bind(
        "record",
        build(
            vec![n],
            vec![i.clone()],
            ite(is(var(&i), 0), ones(sh), changed),
        ),
    );
    let (w, g) = (l.fresh("w"), l.fresh("g"));
    let d = select(bin(BinOp::Eq, var(&w), ones(sh)), var(&g), zeros(sh));
    let d = l.bind(
        "won",
        map(vec![w, g], d, vec![wins.clone(), s.adjoint.clone()]),
    );
    let q = l.fresh("q");
    let keep = l.bind(
        "keep",
        map(
            vec![q.clone()],
            sub(ones(sh), var(&q)),
            vec![record.clone()],
        ),
    );
    let t = diagonal(l, &keep, &d, n, sh);
    let (q, u) = (l.fresh("q"), l.fresh("t"));
    let xs_bar = map(
        vec![q.clone(), u.clone()],
        select(bin(BinOp::Eq, var(&q), ones(sh)), var(&u), zeros(sh)),
        vec![record, t],
    );
    let (w, g) = (l.fresh("w"), l.fresh("g"));
    let lost = select(bin(BinOp::Eq, var(&w), ones(sh)), zeros(sh), var(&g));
    let ne_bar = reduce(
        Op::Add,
        zeros(sh),
        map(vec![w, g], lost, vec![wins, s.adjoint.clone()]),
    );
    (ne_bar, xs_bar, Vec::new())
}
