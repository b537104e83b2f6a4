//! Contractions recognised as matrix products (docs/backend.md, "Matrix products"):
//! `build [m, n] ((i, j) => sum(build k (l => a[i, l] * b[l, j])))`, the same as a
//! `sum_outer` reduction, either operand transposed, and matrix-vector products.
//!
//! | form of the summed element                     | result                            |
//! |------------------------------------------------|-----------------------------------|
//! | `a[i, l] · b[l, j]` (either operand transposed) | `dgemm` of the two buffers        |
//! | `a[i, l] · x[l]`, `x[l] · b[l, j]`              | matrix-vector, vector-matrix      |
//! | `f(i, l) · g(l, j)`, products of any factors    | `F[i, l]` and `G[l, j]` stored by |
//! |   each reading only `i, l` or only `l, j`       |   map kernels, then `dgemm`       |
//!
//! The last row is what gradient programs give: engine `linear`'s transpose of a matrix
//! product sums `ct[i, j] · 2 · c[i, j] · a[i, l]` over one index, a cotangent scaled
//! elementwise before the contraction.

use super::arr::{Arr, Src};
use super::lower::Lower;
use super::sx::{Bin, BufId, Sx, VarId};
use super::{KernelKind, RedOp};
use adora_core::types::Base;
use std::rc::Rc;

/// A load `buf[u, v]` (or `buf[u]`) whose indices are variables.
fn load_vars(s: &Sx) -> Option<(BufId, &[usize], Vec<VarId>)> {
    match s {
        Sx::Load(b, sh, ix) => {
            let vs: Option<Vec<VarId>> = ix
                .iter()
                .map(|i| match i {
                    Sx::Var(v) => Some(*v),
                    _ => None,
                })
                .collect();
            Some((*b, sh, vs?))
        }
        _ => None,
    }
}

/// The matrix product for `out[vars] = Σ_l x · y` (`x`, `y` loads).
fn product(
    vars: &[VarId],
    dims: &[usize],
    l: VarId,
    k: usize,
    x: &Sx,
    y: &Sx,
) -> Option<KernelKind> {
    let try_pair = |x: &Sx, y: &Sx| -> Option<KernelKind> {
        let (a, sa, ia) = load_vars(x)?;
        let (b, sb, ib) = load_vars(y)?;
        // Only vectors and matrices are operands: a load of a scalar buffer (no index) is
        // a scaling, not a contraction.
        if !(1..=2).contains(&ia.len()) || !(1..=2).contains(&ib.len()) {
            return None;
        }
        // Every operand's contracted dimension is `k`, and the result covers the operands.
        let ka = if ia.len() == 2 && ia[0] == l {
            sa[0]
        } else {
            *sa.last()?
        };
        let kb = if ib.len() == 2 && ib[1] == l {
            sb[1]
        } else {
            sb[0]
        };
        if ka != k || kb != k {
            return None;
        }
        match (vars, ia.as_slice(), ib.as_slice()) {
            ([i, j], &[p, q], &[r, s]) => {
                let ta = if (p, q) == (*i, l) {
                    false
                } else if (p, q) == (l, *i) {
                    true
                } else {
                    return None;
                };
                let tb = if (r, s) == (l, *j) {
                    false
                } else if (r, s) == (*j, l) {
                    true
                } else {
                    return None;
                };
                let m = if ta { sa[1] } else { sa[0] };
                let n = if tb { sb[0] } else { sb[1] };
                Some(KernelKind::MatMul {
                    a,
                    ta,
                    b,
                    tb,
                    m,
                    n,
                    k,
                })
            }
            ([i], &[p, q], &[r]) if r == l => {
                let ta = if (p, q) == (*i, l) {
                    false
                } else if (p, q) == (l, *i) {
                    true
                } else {
                    return None;
                };
                let m = if ta { sa[1] } else { sa[0] };
                Some(KernelKind::MatMul {
                    a,
                    ta,
                    b,
                    tb: false,
                    m,
                    n: 1,
                    k: sb[0],
                })
            }
            ([j], &[r], &[p, q]) if r == l => {
                // x[l] · y[l, j]: a 1 × k row times a k × n matrix.
                let tb = if (p, q) == (l, *j) {
                    false
                } else if (p, q) == (*j, l) {
                    true
                } else {
                    return None;
                };
                let n = if tb { sb[0] } else { sb[1] };
                Some(KernelKind::MatMul {
                    a,
                    ta: false,
                    b,
                    tb,
                    m: 1,
                    n,
                    k: sa[0],
                })
            }
            _ => None,
        }
    };
    let ok = |kk: &KernelKind| match kk {
        KernelKind::MatMul { m, n, .. } => match dims {
            [dm, dn] => (*m, *n) == (*dm, *dn),
            [d] => (*m == *d && *n == 1) || (*m == 1 && *n == *d),
            _ => false,
        },
        _ => false,
    };
    try_pair(x, y)
        .filter(ok)
        .or_else(|| try_pair(y, x).filter(ok))
}

fn distinct(vars: &[VarId], l: VarId) -> bool {
    !vars.contains(&l) && (vars.len() < 2 || vars[0] != vars[1])
}

/// A `Map` kernel whose body is `Σ_l x · y` from zero.
pub(crate) fn recognise(l: &mut Lower, params: &[VarId], body: &Sx) -> Option<KernelKind> {
    if params.is_empty() || params.len() > 3 {
        return None;
    }
    let Sx::Fold {
        var,
        count,
        acc,
        init,
        body,
    } = body
    else {
        return None;
    };
    if **init != Sx::Const(0.0) || !distinct(params, *var) {
        return None;
    }
    let Sx::Bin(Bin::Add, a, t) = &**body else {
        return None;
    };
    if **a != Sx::Var(*acc) || t.mentions(*acc) {
        return None;
    }
    let dims: Vec<usize> = params.iter().map(|v| l.ids.range[v]).collect();
    let plain = match &**t {
        Sx::Bin(Bin::Mul, x, y) if params.len() <= 2 => product(params, &dims, *var, *count, x, y)
            .or_else(|| factored(l, params, &dims, *var, *count, t)),
        _ => None,
    };
    plain.or_else(|| super::batched::recognise(l, params, *var, *count, init, t))
}

/// A `Reduce` kernel (`+` from zero over one dimension) of a product of loads.
pub(crate) fn recognise_reduce(
    l: &mut Lower,
    op: RedOp,
    vars: &[VarId],
    red_vars: &[VarId],
    init: &Sx,
    body: &Sx,
) -> Option<KernelKind> {
    if op != RedOp::Add
        || *init != Sx::Const(0.0)
        || red_vars.len() != 1
        || vars.is_empty()
        || vars.len() > 3
    {
        return None;
    }
    if !distinct(vars, red_vars[0]) {
        return None;
    }
    let k = l.ids.range[&red_vars[0]];
    let dims: Vec<usize> = vars.iter().map(|v| l.ids.range[v]).collect();
    let plain = match body {
        Sx::Bin(Bin::Mul, x, y) if vars.len() <= 2 => product(vars, &dims, red_vars[0], k, x, y)
            .or_else(|| factored(l, vars, &dims, red_vars[0], k, body)),
        _ => None,
    };
    plain.or_else(|| super::batched::recognise(l, vars, red_vars[0], k, init, body))
}

/// The factors of a product tree `x · y · …`.
fn factors<'s>(s: &'s Sx, out: &mut Vec<&'s Sx>) {
    match s {
        Sx::Bin(Bin::Mul, a, b) => {
            factors(a, out);
            factors(b, out);
        }
        s => out.push(s),
    }
}

/// The product of `fs` (`1.0` for none).
fn product_of(fs: &[&Sx]) -> Sx {
    let mut it = fs.iter().map(|f| (*f).clone());
    let first = it.next().unwrap_or(Sx::Const(1.0));
    it.fold(first, |a, b| Sx::bin(Bin::Mul, a, b))
}

/// Whether some load of `s` reads a matrix at `[q, p]` for `params = [p, q]` and none at
/// `[p, q]`.
fn reads_transposed(s: &Sx, [p, q]: [VarId; 2]) -> bool {
    let (mut straight, mut swapped) = (false, false);
    s.visit(&mut |n| {
        if let Sx::Load(_, _, ix) = n {
            straight |= ix[..] == [Sx::Var(p), Sx::Var(q)];
            swapped |= ix[..] == [Sx::Var(q), Sx::Var(p)];
        }
    });
    swapped && !straight
}

/// `out[i, j] = Σ_l f(i, l) · g(l, j)` where the element is a product whose every factor
/// reads `i` and `l` only or `l` and `j` only: the two sides are stored as `[m, k]` and
/// `[k, n]` buffers by map kernels (a side that is already one such load is read in
/// place), then multiplied by `dgemm`.
fn factored(
    l: &mut Lower,
    vars: &[VarId],
    dims: &[usize],
    r: VarId,
    k: usize,
    body: &Sx,
) -> Option<KernelKind> {
    let (&[i, j], &[m, n]) = (vars, dims) else {
        return None;
    };
    let mut fs = Vec::new();
    factors(body, &mut fs);
    let (mut left, mut right) = (Vec::new(), Vec::new());
    for f in fs {
        match (f.mentions(i), f.mentions(j)) {
            (true, true) => return None,
            (false, true) => right.push(f),
            _ => left.push(f),
        }
    }
    if right.is_empty() || !left.iter().any(|f| f.mentions(i)) {
        return None;
    }
    let mut side = |fs: &[&Sx], params: [VarId; 2], shape: [usize; 2]| -> Sx {
        match fs {
            [f] if load_vars(f).is_some_and(|(_, sh, ix)| sh.len() == 2 && ix.len() == 2) => {
                (*f).clone()
            }
            fs => {
                // Stored in the layout its loads read (a factor reading `c[r, i]` makes
                // the side `[k, m]`, read transposed by the product), so the map kernel
                // reads its own points.
                let body = product_of(fs);
                let (params, shape) = if reads_transposed(&body, params) {
                    ([params[1], params[0]], [shape[1], shape[0]])
                } else {
                    (params, shape)
                };
                let arr = Arr {
                    base: Base::R,
                    shape: shape.to_vec(),
                    src: Src::Fn {
                        params: params.to_vec(),
                        body: Rc::new(body),
                    },
                };
                let b = l.materialize(&arr);
                Sx::Load(
                    b,
                    shape.to_vec(),
                    params.iter().map(|&v| Sx::Var(v)).collect(),
                )
            }
        }
    };
    let x = side(&left, [i, r], [m, k]);
    let y = side(&right, [r, j], [k, n]);
    product(vars, dims, r, k, &x, &y)
}
