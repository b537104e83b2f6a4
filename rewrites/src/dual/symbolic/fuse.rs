//! Cotangents of the symbolic reverse pass, with scatter fusion.
//!
//! A cotangent is a term, or a pending **sum of scatters** into one shape: the transposes
//! of `Index` (one-hots) and of `Gather`, kept apart while they are only added together
//! (in the `grad` and `accum` maps), and turned into a term when used otherwise. This is
//! horde-ad's `fuseScatters2` (notes §1.5): adding `k` one-hot arrays of an `n`-element
//! input costs `(k - 1) n` additions, while one scatter of the `k` slices costs only its
//! colliding writes — the one-hot problem of seed 000 §4.4, which otherwise makes the
//! gradient of `x[0] + x[1] + x[2]` cost `O(n)` where the primal costs `O(1)`.
//!
//! When a sum of scatters becomes a term, the *sparse* ones (whose index space has fewer
//! points than the target has slots) are fused into one scatter, and the *dense* ones are
//! added as they are (fusing them would save nothing):
//!
//! ```text
//! scatter(sh, s1, bs1 => ix1) + scatter(sh, s2, bs2 => ix2)
//!   = scatter(sh, append(reshape([N1] ++ tail, s1), reshape([N2] ++ tail, s2)),
//!             t => [if t < N1 then (let bs1 = unflatten(t) in ix1) else (let bs2 = unflatten(t - N1) in ix2), …])
//! ```
//!
//! The segment test is a lazy `if`, not a `select`: a write of segment `k` evaluates `k`
//! comparisons and its own index term only, where a `select` chain would evaluate every
//! segment's index term for every write (`dual/cheap-gradient`, `adora check --seed 4013`).
//!
//! (one index component per position; a binder `b_k` of a space `[d1, …, dm]` is
//! `(u / (d(k+1) ⋯ dm)) % dk`). Exactness: the same writes happen, only in another order,
//! and out-of-bounds writes are still dropped.

use super::{filled, int_lit, mk};
use adora_core::ast::{BinOp, Expr, ExprKind, Name, Pat, Prim};
use adora_core::visit::{free_vars, NameSupply};

/// One scatter of a pending sum: `scatter(shape, src, binders => ix)`, the binders ranging
/// over `space` (the leading dimensions of `src`).
#[derive(Clone, Debug)]
pub struct ScatterPart {
    /// The scattered array (shape `space ++ tail`).
    pub src: Expr,
    /// The index space.
    pub space: Vec<usize>,
    /// The binders.
    pub binders: Vec<Name>,
    /// The target prefix index.
    pub ix: Vec<Expr>,
    /// Whether the scattered array is to be negated (a pending sign).
    pub neg: bool,
}

/// The term part of a cotangent of the symbolic reverse pass.
#[derive(Clone, Debug)]
enum Body {
    /// A term.
    Term(Expr),
    /// A sum of scatters into `shape` (each with its own index prefix length), in the
    /// order they were added, plus other terms of that shape (with their signs) added to
    /// the same accumulator.
    Scatters(Vec<usize>, Vec<ScatterPart>, Vec<(Expr, bool)>),
}

/// A cotangent of the symbolic reverse pass: a term or a pending sum of scatters, and a
/// pending sign (for a sum of scatters, each part carries its own sign, so scatters of
/// both signs fuse: a negative sparse part contributes its negated source). Negation (the transpose of `Neg`, and of the `-` of `a - b`) commutes
/// with every linear operation, so it is carried outward and paid for only where the
/// cotangent meets an accumulator: `acc + (-c)` is emitted as `acc - c`, and a
/// cotangent that stays negative becomes `-c` once.
#[derive(Clone, Debug)]
pub struct SymCt {
    neg: bool,
    body: Body,
}
fn volume(s: &[usize]) -> usize {
    s.iter().product()
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    mk(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}

/// The part as a scatter of its (unsigned) source; the caller applies `p.neg`.
fn scatter(shape: &[usize], p: ScatterPart) -> Expr {
    mk(ExprKind::Scatter(
        shape.to_vec(),
        Box::new(p.src),
        p.binders,
        p.ix,
    ))
}

fn negate(e: Expr) -> Expr {
    mk(ExprKind::Unary(adora_core::ast::UnOp::Neg, Box::new(e)))
}

/// Component `c` of part `p`'s index, its binders bound from the flat position `u`. Each
/// component is a copy of the index term with its own `let`s, so its binders (those of
/// the `let`s and any inside the index term) take fresh names from `names`: unique by
/// construction (docs/architecture.md, "Lowering kit").
fn component(p: &ScatterPart, c: usize, u: &Expr, names: &mut NameSupply) -> Expr {
    let Some(ix) = p.ix.get(c) else {
        return int_lit(0);
    };
    let free = free_vars(ix);
    let mut stride = 1usize;
    let mut lets = Vec::new();
    let mut fresh = Vec::new();
    for (k, b) in p.binders.iter().enumerate().rev() {
        let d = p.space.get(k).copied().unwrap_or(1);
        if free.contains(b) {
            let q = if stride == 1 {
                u.clone()
            } else {
                bin(BinOp::Div, u.clone(), int_lit(stride as i64))
            };
            let value = if k == 0 {
                q
            } else {
                bin(BinOp::Mod, q, int_lit(d as i64))
            };
            let b2 = names.fresh(b);
            fresh.push((b.clone(), mk(ExprKind::Var(b2.clone()))));
            lets.push((b2, value));
        }
        stride *= d;
    }
    let mut out = crate::kit::subst::subst_claiming(ix, &fresh, names);
    for (b, v) in lets {
        out = mk(ExprKind::Let(Pat::Var(b), Box::new(v), Box::new(out)));
    }
    out
}

/// The fusion of several sparse scatters into one.
fn fused(shape: &[usize], prefix: usize, parts: Vec<ScatterPart>, names: &mut NameSupply) -> Expr {
    let tail: Vec<usize> = shape.get(prefix..).unwrap_or(&[]).to_vec();
    let t = names.fresh("s");
    let tv = mk(ExprKind::Var(t.clone()));
    let mut offsets = Vec::with_capacity(parts.len());
    let mut total = 0usize;
    let mut src: Option<Expr> = None;
    for p in &parts {
        offsets.push(total);
        let n = volume(&p.space);
        total += n;
        let signed = if p.neg {
            negate(p.src.clone())
        } else {
            p.src.clone()
        };
        let flat = if p.space.len() == 1 {
            signed
        } else {
            let mut s = vec![n];
            s.extend_from_slice(&tail);
            mk(ExprKind::Prim(Prim::Reshape(s), vec![signed]))
        };
        src = Some(match src {
            None => flat,
            Some(acc) => mk(ExprKind::Prim(Prim::Append, vec![acc, flat])),
        });
    }
    let at = |k: usize| {
        if offsets[k] == 0 {
            tv.clone()
        } else {
            bin(BinOp::Sub, tv.clone(), int_lit(offsets[k] as i64))
        }
    };
    let mut ix = Vec::with_capacity(prefix);
    for c in 0..prefix {
        let last = parts.len() - 1;
        let mut acc = component(&parts[last], c, &at(last), names);
        for k in (0..last).rev() {
            let cond = bin(BinOp::Lt, tv.clone(), int_lit(offsets[k + 1] as i64));
            let here = component(&parts[k], c, &at(k), names);
            acc = mk(ExprKind::If(Box::new(cond), Box::new(here), Box::new(acc)));
        }
        ix.push(acc);
    }
    let src = src.unwrap_or_else(|| filled(&[0], 0));
    mk(ExprKind::Scatter(
        shape.to_vec(),
        Box::new(src),
        vec![t],
        ix,
    ))
}

fn is_zero_fill(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Lit(adora_core::ast::Lit::Real(r)) => num_traits::Zero::is_zero(r),
        ExprKind::Prim(Prim::Replicate(_), args) => args.len() == 1 && is_zero_fill(&args[0]),
        _ => false,
    }
}

/// `select(b, c, 0) + select(b, 0, c) = c` (the two halves of a transposed `Select` whose
/// branches lead to the same accumulator).
fn select_pair(x: &Expr, y: &Expr) -> Option<Expr> {
    let (ExprKind::Prim(Prim::Select, a), ExprKind::Prim(Prim::Select, b)) = (&x.kind, &y.kind)
    else {
        return None;
    };
    let ([b1, c1, z1], [b2, z2, c2]) = (a.as_slice(), b.as_slice()) else {
        return None;
    };
    if b1 == b2 && c1 == c2 && is_zero_fill(z1) && is_zero_fill(z2) {
        return Some(c1.clone());
    }
    if b1 == b2 && z1 == z2 && is_zero_fill(c1) && is_zero_fill(c2) {
        // select(b, 0, c) + select(b, c, 0)
        return Some(z1.clone());
    }
    None
}

/// `p` with its index prefix extended to length `to` by new binders over the target's
/// dimensions `prefix..to` (`scatter(sh, s, bs => ix) = scatter(sh, s, (bs, cs) => ix ++ cs)`,
/// the trailing-eta rule read backwards).
fn extend(mut p: ScatterPart, shape: &[usize], to: usize, names: &mut NameSupply) -> ScatterPart {
    for d in p.ix.len()..to {
        let c = names.fresh("c");
        p.space.push(shape.get(d).copied().unwrap_or(1));
        p.ix.push(mk(ExprKind::Var(c.clone())));
        p.binders.push(c);
    }
    p
}

fn body_term(b: Body, names: &mut NameSupply) -> Expr {
    match b {
        Body::Term(e) => e,
        Body::Scatters(shape, parts, dense) => scatters_term(&shape, parts, dense, names),
    }
}

/// A sum of scatters as a term: with `J` the longest index prefix among the parts, a
/// part writing fewer slots of the target's leading `J` dimensions than there are is
/// sparse; the sparse parts are extended to prefix `J` and fused, the others added.
fn scatters_term(
    shape: &[usize],
    parts: Vec<ScatterPart>,
    others: Vec<(Expr, bool)>,
    names: &mut NameSupply,
) -> Expr {
    let parts: Vec<ScatterPart> = parts.into_iter().filter(|p| volume(&p.space) > 0).collect();
    let top = parts
        .iter()
        .map(|p| p.ix.len())
        .max()
        .unwrap_or(0)
        .min(shape.len());
    let slots = volume(&shape[..top]);
    let writes =
        |p: &ScatterPart| volume(&p.space) * volume(shape.get(p.ix.len()..top).unwrap_or(&[]));
    let (sparse, dense): (Vec<ScatterPart>, Vec<ScatterPart>) =
        parts.into_iter().partition(|p| writes(p) < slots);
    // (term, negative) pairs, summed with `+` and `-`.
    let mut terms: Vec<(Expr, bool)> = Vec::new();
    match sparse.len() {
        0 => {}
        1 => terms.extend(sparse.into_iter().map(|p| {
            let n = p.neg;
            (scatter(shape, p), n)
        })),
        _ => {
            let sparse = sparse
                .into_iter()
                .map(|p| extend(p, shape, top, names))
                .collect();
            terms.push((fused(shape, top, sparse, names), false));
        }
    }
    terms.extend(dense.into_iter().map(|p| {
        let n = p.neg;
        (scatter(shape, p), n)
    }));
    terms.extend(others);
    // Start from a positive term when there is one.
    if let Some(k) = terms.iter().position(|(_, n)| !n) {
        let first = terms.remove(k);
        terms.insert(0, first);
    }
    let mut it = terms.into_iter();
    match it.next() {
        None => filled(shape, 0),
        Some((first, neg)) => {
            let start = if neg { negate(first) } else { first };
            it.fold(start, |acc, (e, n)| {
                bin(if n { BinOp::Sub } else { BinOp::Add }, acc, e)
            })
        }
    }
}

impl SymCt {
    /// The term `e`.
    pub fn term(e: Expr) -> SymCt {
        SymCt {
            neg: false,
            body: Body::Term(e),
        }
    }

    /// One scatter into `shape` (the part carries its sign).
    pub fn scatter(shape: Vec<usize>, part: ScatterPart) -> SymCt {
        SymCt {
            neg: false,
            body: Body::Scatters(shape, vec![part], Vec::new()),
        }
    }

    /// `-self` (nothing is emitted yet; a sum of scatters flips its parts' signs).
    pub fn negated(self) -> SymCt {
        match self.body {
            Body::Scatters(shape, parts, others) => SymCt {
                neg: false,
                body: Body::Scatters(
                    shape,
                    parts
                        .into_iter()
                        .map(|p| ScatterPart { neg: !p.neg, ..p })
                        .collect(),
                    others.into_iter().map(|(e, n)| (e, !n)).collect(),
                ),
            },
            body => SymCt {
                neg: !self.neg,
                body,
            },
        }
    }

    /// The pending sign and the term without it.
    pub fn split(self, names: &mut NameSupply) -> (bool, Expr) {
        (self.neg, body_term(self.body, names))
    }

    /// `f` (a linear operation) applied to the term, the sign kept outside.
    pub fn map(self, names: &mut NameSupply, f: impl FnOnce(Expr) -> Expr) -> SymCt {
        let (neg, e) = self.split(names);
        SymCt {
            neg,
            body: Body::Term(f(e)),
        }
    }

    /// The cotangent as a term (fusing a pending sum of scatters, applying the sign).
    pub fn into_expr(self, names: &mut NameSupply) -> Expr {
        let (neg, e) = self.split(names);
        if neg {
            mk(ExprKind::Unary(adora_core::ast::UnOp::Neg, Box::new(e)))
        } else {
            e
        }
    }

    /// `a + b`: pending sums of scatters into one shape with one sign are concatenated;
    /// terms of one sign are added under it; a positive and a negative one subtract.
    pub fn add(a: SymCt, b: SymCt, names: &mut NameSupply) -> SymCt {
        match (a, b) {
            (
                SymCt {
                    body: Body::Scatters(shape, mut parts, mut others),
                    ..
                },
                SymCt {
                    body: Body::Scatters(s2, more, more_others),
                    ..
                },
            ) if shape == s2 => {
                parts.extend(more);
                others.extend(more_others);
                SymCt {
                    neg: false,
                    body: Body::Scatters(shape, parts, others),
                }
            }
            (
                SymCt {
                    body: Body::Scatters(shape, parts, mut others),
                    ..
                },
                SymCt {
                    neg,
                    body: Body::Term(t),
                },
            )
            | (
                SymCt {
                    neg,
                    body: Body::Term(t),
                },
                SymCt {
                    body: Body::Scatters(shape, parts, mut others),
                    ..
                },
            ) => {
                others.push((t, neg));
                SymCt {
                    neg: false,
                    body: Body::Scatters(shape, parts, others),
                }
            }
            (a, b) if a.neg == b.neg => {
                let neg = a.neg;
                let (x, y) = (body_term(a.body, names), body_term(b.body, names));
                let sum = select_pair(&x, &y).unwrap_or_else(|| bin(BinOp::Add, x, y));
                SymCt {
                    neg,
                    body: Body::Term(sum),
                }
            }
            (a, b) => {
                let (pos, negative) = if a.neg { (b, a) } else { (a, b) };
                let x = body_term(pos.body, names);
                let y = body_term(negative.body, names);
                SymCt::term(bin(BinOp::Sub, x, y))
            }
        }
    }
}
