//! Small constructors of tensor-language terms, predicates and index expressions used by
//! the lowering, the Tensor-SSA conversion and the raising (the syntax is
//! `adora_core::tl`, docs/engines/tssa-language.md). Affine forms stay normalised: no
//! zero coefficients.

use adora_core::tl::{Aff, BlackBox, CmpOp, IExpr, Index, Pred, Rat, Term};
use num_bigint::BigInt;

/// The number `k` as a term.
pub fn num(k: i64) -> Term {
    Term::Const(Rat::from_integer(BigInt::from(k)))
}

/// `a + b`.
pub fn add(a: Term, b: Term) -> Term {
    Term::Add(Box::new(a), Box::new(b))
}

/// `a * b`.
pub fn mul(a: Term, b: Term) -> Term {
    Term::Mul(Box::new(a), Box::new(b))
}

/// `f(a)`.
pub fn call(f: BlackBox, a: Term) -> Term {
    Term::Call(f, Box::new(a))
}

/// `[p] e`, with `[true] e = e`.
pub fn bracket(p: Pred, e: Term) -> Term {
    match p {
        Pred::True => e,
        p => Term::Bracket(p, Box::new(e)),
    }
}

/// `e[a1]…[ak]`.
pub fn access(mut e: Term, idx: &[Index]) -> Term {
    for a in idx {
        e = Term::Access(Box::new(e), a.clone());
    }
    e
}

/// `e.k`.
pub fn proj(k: u8, e: Term) -> Term {
    Term::Proj(k, Box::new(e))
}

/// The projection path of component `k` of an `n`-tuple stored as right-nested pairs
/// (`(a, b, c)` is `(a, (b, c))`): `.1` `k` times, then `.0` unless `k` is the last.
pub fn tuple_path(k: usize, n: usize) -> Vec<u8> {
    let mut path = vec![1u8; k];
    if k + 1 < n {
        path.push(0);
    }
    path
}

/// Component `k` of the `n`-tuple `e`.
pub fn tuple_proj(e: Term, k: usize, n: usize) -> Term {
    tuple_path(k, n).into_iter().fold(e, |e, s| proj(s, e))
}

/// `p && q`, simplifying `true`.
pub fn and(p: Pred, q: Pred) -> Pred {
    match (p, q) {
        (Pred::True, q) => q,
        (p, Pred::True) => p,
        (p, q) => Pred::And(Box::new(p), Box::new(q)),
    }
}

/// `p || q`.
pub fn or(p: Pred, q: Pred) -> Pred {
    Pred::Or(Box::new(p), Box::new(q))
}

/// `!p`.
pub fn not(p: Pred) -> Pred {
    Pred::Not(Box::new(p))
}

/// `a ⋈ b`.
pub fn cmp(op: CmpOp, a: Index, b: Index) -> Pred {
    Pred::Cmp(op, a, b)
}

/// The affine form of the index variable `v`.
pub fn aff_var(v: &str) -> Aff {
    let mut a = Aff::default();
    a.terms.insert(v.to_string(), 1);
    a
}

/// The constant affine form `k`.
pub fn aff_const(k: i64) -> Aff {
    Aff {
        terms: Default::default(),
        constant: k,
    }
}

/// `a + k·b` on affine forms (`None` on overflow).
pub fn aff_add_scaled(a: &Aff, k: i64, b: &Aff) -> Option<Aff> {
    let mut out = a.clone();
    for (v, c) in &b.terms {
        let e = out.terms.entry(v.clone()).or_insert(0);
        *e = e.checked_add(c.checked_mul(k)?)?;
        if *e == 0 {
            out.terms.remove(v);
        }
    }
    out.constant = out.constant.checked_add(b.constant.checked_mul(k)?)?;
    Some(out)
}

/// The index variable `v`.
pub fn ivar(v: &str) -> Index {
    Index::Aff(aff_var(v))
}

/// The index constant `k`.
pub fn iconst(k: i64) -> Index {
    Index::Aff(aff_const(k))
}

/// An index as an integer expression (for opaque arithmetic).
pub fn iexpr(a: &Index) -> IExpr {
    match a {
        Index::Opaque(e) => e.clone(),
        Index::Aff(a) => {
            let mut out: Option<IExpr> = None;
            for (v, c) in &a.terms {
                let t = if *c == 1 {
                    IExpr::Var(v.clone())
                } else {
                    IExpr::Mul(Box::new(IExpr::Const(*c)), Box::new(IExpr::Var(v.clone())))
                };
                out = Some(match out {
                    None => t,
                    Some(o) => IExpr::Add(Box::new(o), Box::new(t)),
                });
            }
            match out {
                None => IExpr::Const(a.constant),
                Some(o) if a.constant == 0 => o,
                Some(o) => IExpr::Add(Box::new(o), Box::new(IExpr::Const(a.constant))),
            }
        }
    }
}

/// `a + k·b` on index expressions: affine when both are, opaque otherwise.
pub fn index_add_scaled(a: &Index, k: i64, b: &Index) -> Index {
    if let (Index::Aff(x), Index::Aff(y)) = (a, b) {
        if let Some(s) = aff_add_scaled(x, k, y) {
            return Index::Aff(s);
        }
    }
    let kb = if k == 1 {
        iexpr(b)
    } else {
        IExpr::Mul(Box::new(IExpr::Const(k)), Box::new(iexpr(b)))
    };
    Index::Opaque(IExpr::Add(Box::new(iexpr(a)), Box::new(kb)))
}

/// `k·a` on index expressions.
pub fn index_scale(k: i64, a: &Index) -> Index {
    index_add_scaled(&iconst(0), k, a)
}

/// The row-major flat position of `idx` in `shape` (`Σ idx_d · stride_d`).
pub fn ravel(idx: &[Index], shape: &[u64]) -> Index {
    let mut flat = iconst(0);
    let mut stride: i64 = 1;
    for (a, &n) in idx.iter().zip(shape).rev() {
        flat = index_add_scaled(&flat, stride, a);
        stride = stride.saturating_mul(n as i64);
    }
    flat
}

/// The in-bounds predicate `0 <= a && a < n`.
pub fn in_range(a: &Index, n: u64) -> Pred {
    and(
        cmp(CmpOp::Le, iconst(0), a.clone()),
        cmp(CmpOp::Lt, a.clone(), iconst(n as i64)),
    )
}
