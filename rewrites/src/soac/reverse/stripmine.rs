//! Strip-mining of loops (seed 004 *AD for an Array Language with Nested Parallelism* §1
//! footnote 1 and §4.3): `loop (a = a0) for i < n do B` with `n = n' · d` becomes
//!
//! ```text
//! loop (o = a0) for s < n' do
//!   loop (a = o) for t < d do (let i = s * d + t in B)
//! ```
//!
//! before differentiation, the outer loop split again for each further level. The
//! ordinary loop rule then checkpoints the outer loop per strip (`n'` checkpoints) and,
//! in its return sweep, re-executes one strip's inner loop with its own `d` checkpoints:
//! memory about `n' + d` accumulators instead of `n`, the body run once more per level
//! (`k + 1` times for `k` levels instead of 2). `d` is the divisor of `n` nearest to
//! `n^(1/k)`; a trip count without such a divisor (a prime) is left alone. Our decision:
//! trip counts are static, so strips are divisors rather than padded.

use super::ir::{mk, var, Body, Rhs, St};
use adora_core::ast::{BinOp, ExprKind, Name, Pat};
use adora_core::types::Type;
use adora_core::visit::NameSupply;
use std::collections::HashMap;

/// Strip-mines every loop of `b` (nested ones included) into `levels` levels.
pub fn stripmine(
    b: &mut Body,
    levels: usize,
    supply: &mut NameSupply,
    types: &mut HashMap<Name, Type>,
) {
    let stmts = std::mem::take(&mut b.stmts);
    for mut st in stmts {
        match &mut st.rhs {
            Rhs::If { then_, else_, .. } => {
                stripmine(then_, levels, supply, types);
                stripmine(else_, levels, supply, types);
            }
            Rhs::Map { body, .. } => stripmine(body, levels, supply, types),
            Rhs::Loop { body, .. } => stripmine(body, levels, supply, types),
            Rhs::Flat(_) | Rhs::Soac(_) => {}
        }
        if matches!(st.rhs, Rhs::Loop { .. }) {
            st = split(st, levels, supply, types);
        }
        b.stmts.push(st);
    }
}

/// The trip counts of the loops that strip-mining a loop of `n` iterations into `levels`
/// levels makes, outermost first (their product is `n`; one entry when `n` is not
/// split): what [`stripmine`] builds, for the checks of the time–space trade-off.
pub fn strips(n: usize, levels: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let (mut n, mut l) = (n, levels);
    while l >= 2 {
        let Some(d) = strip(n, l) else { break };
        out.push(d);
        n /= d;
        l -= 1;
    }
    out.push(n);
    out.reverse();
    out
}

/// The divisor of `n` strictly between 1 and `n` nearest to `n^(1/levels)`.
fn strip(n: usize, levels: usize) -> Option<usize> {
    let target = (n as f64).powf(1.0 / levels as f64);
    (2..n).filter(|d| n.is_multiple_of(*d)).min_by(|a, b| {
        let da = (*a as f64 - target).abs();
        let db = (*b as f64 - target).abs();
        da.total_cmp(&db)
    })
}

fn split(st: St, levels: usize, supply: &mut NameSupply, types: &mut HashMap<Name, Type>) -> St {
    let St { pat, ty, rhs } = st;
    let Rhs::Loop {
        acc,
        tys,
        var: i,
        count: n,
        init,
        body,
        cps,
    } = rhs
    else {
        unreachable!("split is called on loops")
    };
    let d = match (levels >= 2).then(|| strip(n, levels)).flatten() {
        Some(d) => d,
        None => {
            let rhs = Rhs::Loop {
                acc,
                tys,
                var: i,
                count: n,
                init,
                body,
                cps,
            };
            return St { pat, ty, rhs };
        }
    };
    let mut fresh = |base: &str, t: &Type| {
        let x = supply.fresh(base);
        types.insert(x.clone(), t.clone());
        x
    };
    let s = fresh("s", &Type::int());
    let t = fresh("t", &Type::int());
    let outer: Vec<Name> = acc
        .iter()
        .zip(&tys)
        .map(|(a, ty)| fresh(&format!("o_{a}"), ty))
        .collect();
    let mut outer_stmts = Vec::new();
    let inner_init = if outer.len() == 1 {
        var(&outer[0])
    } else {
        let ot = fresh("o", &ty);
        let tup = mk(ExprKind::Tuple(outer.iter().map(|o| var(o)).collect()));
        outer_stmts.push(St {
            pat: Pat::Var(ot.clone()),
            ty: ty.clone(),
            rhs: Rhs::Flat(tup),
        });
        var(&ot)
    };
    let idx = super::build::bin(
        BinOp::Add,
        super::build::bin(BinOp::Mul, var(&s), super::build::int(d as i64)),
        var(&t),
    );
    let mut inner_body = body;
    inner_body.stmts.insert(
        0,
        St {
            pat: Pat::Var(i.clone()),
            ty: Type::int(),
            rhs: Rhs::Flat(idx),
        },
    );
    let label = format!("{} strips", inner_body.label);
    let r = fresh("strip", &ty);
    outer_stmts.push(St {
        pat: Pat::Var(r.clone()),
        ty: ty.clone(),
        rhs: Rhs::Loop {
            acc,
            tys: tys.clone(),
            var: t,
            count: d,
            init: inner_init,
            body: inner_body,
            cps,
        },
    });
    let outer_cps: Vec<Name> = outer
        .iter()
        .map(|o| supply.fresh(&format!("cp_{o}")))
        .collect();
    let outer_loop = St {
        pat,
        ty,
        rhs: Rhs::Loop {
            acc: outer,
            tys,
            var: s,
            count: n / d,
            init,
            body: Body {
                label,
                stmts: outer_stmts,
                result: var(&r),
            },
            cps: outer_cps,
        },
    };
    split(outer_loop, levels - 1, supply, types)
}
