//! The backward linear recurrence of the scan rule (seed 004 §5.2) and the general fold
//! rule built on it, shared by `scan` and `reduce` with a lambda operator.
//!
//! The adjoint `c_i` of the `i`-th partial result of a left fold `ys_i = ys_{i-1} ⊙ xs_i`
//! (`ys_{-1} = ne`) satisfies `c_i = ȳs_i + M_{i+1} c_{i+1}` with `M_i = (∂⊙/∂a)ᵀ` at
//! `(ys_{i-1}, xs_i)` and `c_{n-1} = ȳs_{n-1}`. Each step is the affine map
//! `c ↦ ȳs_i + M_{i+1} c`; composing them is associative, so a `scan` over the reversed
//! steps solves the recurrence in logarithmic span (§5.2: "linear-function composition",
//! neutral element `(0, I)`). Arrays hold one base type, so an affine map is encoded as an
//! extra array dimension: elementwise (diagonal `M`) as the pair `[m, b]`, for slices of
//! `k` reals as the homogeneous `(k+1)×(k+1)` matrix `[[M, b], [0, 1]]`.

use super::code::*;
use super::{LambdaVjp, RevEnv};
use adora_core::ast::{BinOp, Expr, Lambda, Name, Op, Pat, Prim};
use adora_core::diag::Result;
use adora_core::types::{Base, Type};

/// The bindings a rule accumulates, with fresh names.
pub struct Lets<'e> {
    /// The engine.
    pub env: &'e mut dyn RevEnv,
    /// The bindings so far, in order.
    pub lets: Vec<(Pat, Expr)>,
}

impl<'e> Lets<'e> {
    /// An empty list of bindings.
    pub fn new(env: &'e mut dyn RevEnv) -> Self {
        Lets {
            env,
            lets: Vec::new(),
        }
    }
    /// Binds `value` to a fresh `base_k` and returns the variable.
    pub fn bind(&mut self, base: &str, value: Expr) -> Expr {
        let n = self.env.fresh(base);
        self.lets.push((Pat::Var(n.clone()), value));
        var(&n)
    }
    /// A fresh name.
    pub fn fresh(&mut self, base: &str) -> Name {
        self.env.fresh(base)
    }
}

/// `n - 1 - i` on `Z`.
pub fn rev_index(n: usize, i: Expr) -> Expr {
    sub(sub(size(n), int(1)), i)
}

/// `i == v` on `Z`.
pub fn is(i: Expr, v: usize) -> Expr {
    bin(BinOp::Eq, i, size(v))
}

/// Solves `c_i = b_i + m_{i+1} · c_{i+1}` (elementwise on slices of shape `sh`;
/// `c_{n-1} = b_{n-1}`) for the atoms `m, b : R[n, sh…]`; returns the atom `c`.
pub fn diagonal(l: &mut Lets, m: &Expr, b: &Expr, n: usize, sh: &[usize]) -> Expr {
    let j = l.fresh("j");
    let step = array(vec![
        ite(
            is(var(&j), 0),
            zeros(sh),
            at(m.clone(), sub(size(n), var(&j))),
        ),
        at(b.clone(), rev_index(n, var(&j))),
    ]);
    let steps = l.bind("steps", build(vec![n], vec![j], step));
    let (a, s) = (l.fresh("acc"), l.fresh("step"));
    let compose = array(vec![
        mul(at(var(&s), int(0)), at(var(&a), int(0))),
        add(
            at(var(&s), int(1)),
            mul(at(var(&s), int(0)), at(var(&a), int(1))),
        ),
    ]);
    let op = Op::Lambda(lambda(vec![a, s], compose));
    let composed = l.bind(
        "composed",
        scan(op, array(vec![ones(sh), zeros(sh)]), steps),
    );
    let i = l.fresh("i");
    let c = index(composed, vec![rev_index(n, var(&i)), int(1)]);
    l.bind("c", build(vec![n], vec![i], c))
}

/// Solves `c_i = b_i + M_{i+1} c_{i+1}` for matrices given by columns,
/// `cols[i, t, r] = M_i[r, t]` (`cols : R[n, k, k]`), and `b : R[n, k]`; returns the atom
/// `c : R[n, k]`. Work `O(n k³)`, span `O(log n · log k)`.
pub fn matrix(l: &mut Lets, cols: &Expr, b: &Expr, n: usize, k: usize) -> Expr {
    let (j, r, c) = (l.fresh("j"), l.fresh("r"), l.fresh("c"));
    let lt = |x: &Name| bin(BinOp::Lt, var(x), size(k));
    let entry = ite(
        lt(&r),
        ite(
            lt(&c),
            ite(
                is(var(&j), 0),
                real(0),
                index(cols.clone(), vec![sub(size(n), var(&j)), var(&c), var(&r)]),
            ),
            index(b.clone(), vec![rev_index(n, var(&j)), var(&r)]),
        ),
        ite(is(var(&c), k), real(1), real(0)),
    );
    let steps = l.bind("steps", build(vec![n, k + 1, k + 1], vec![j, r, c], entry));
    let (r2, c2) = (l.fresh("r"), l.fresh("c"));
    let identity = build(
        vec![k + 1, k + 1],
        vec![r2.clone(), c2.clone()],
        ite(bin(BinOp::Eq, var(&r2), var(&c2)), real(1), real(0)),
    );
    let (a, s, r3, c3, u) = (
        l.fresh("acc"),
        l.fresh("step"),
        l.fresh("r"),
        l.fresh("c"),
        l.fresh("u"),
    );
    let dot = prim(
        Prim::Sum,
        vec![build(
            vec![k + 1],
            vec![u.clone()],
            mul(
                index(var(&s), vec![var(&r3), var(&u)]),
                index(var(&a), vec![var(&u), var(&c3)]),
            ),
        )],
    );
    let product = build(vec![k + 1, k + 1], vec![r3, c3], dot);
    let op = Op::Lambda(lambda(vec![a, s], product));
    let composed = l.bind("composed", scan(op, identity, steps));
    let (i, r4) = (l.fresh("i"), l.fresh("r"));
    l.bind(
        "c",
        build(
            vec![n, k],
            vec![i.clone(), r4.clone()],
            index(composed, vec![rev_index(n, var(&i)), var(&r4), size(k)]),
        ),
    )
}

/// What the general fold rule returns.
pub struct FoldAdjoints {
    /// The adjoint of the neutral element.
    pub ne: Expr,
    /// The adjoint of the elements.
    pub xs: Expr,
    /// Contributions to the operator's free variables.
    pub free: Vec<(Name, Expr)>,
}

/// The adjoints of a left fold `ys = scan(lam, ne, xs)` (`ys, ȳs : R[n, sh…]` atoms)
/// with a lambda operator: the exclusive forward scan `ls` (§5.1), the local Jacobians
/// by the operator's reverse applied to unit cotangents, the recurrence solved by
/// [`matrix`], then one map each for `x̄s`, `n̄e` and the free variables (§5.2).
#[allow(clippy::too_many_arguments)]
pub fn general(
    l: &mut Lets,
    lam: &Lambda,
    ne: &Expr,
    xs: &Expr,
    ys: &Expr,
    ysb: &Expr,
    n: usize,
    sh: &[usize],
) -> Result<FoldAdjoints> {
    let slice = Type::Array(Base::R, sh.to_vec());
    let lv = l
        .env
        .lambda_vjp(lam, &[slice.clone(), slice.clone()], &slice)?;
    if lv.lambda.params.len() != 3 {
        return Err(malformed(
            "the reverse of an operator takes three parameters",
        ));
    }
    let k: usize = sh.iter().product();
    let flat = |x: Expr| {
        if sh.is_empty() {
            array(vec![x])
        } else {
            reshape(vec![k], x)
        }
    };
    let unflat = |v: Expr| {
        if sh.is_empty() {
            at(v, int(0))
        } else {
            reshape(sh.to_vec(), v)
        }
    };
    let i = l.fresh("i");
    let ls = build(
        vec![n],
        vec![i.clone()],
        ite(
            is(var(&i), 0),
            ne.clone(),
            at(ys.clone(), sub(var(&i), int(1))),
        ),
    );
    let ls = l.bind("ls", ls);
    let call = |l: &mut Lets, lv: &LambdaVjp, i: &Name, e: Expr| {
        apply(
            l.env,
            &lv.lambda,
            vec![at(ls.clone(), var(i)), at(xs.clone(), var(i)), e],
        )
    };
    let (i, t, u) = (l.fresh("i"), l.fresh("t"), l.fresh("u"));
    let unit = unflat(build(
        vec![k],
        vec![u.clone()],
        ite(bin(BinOp::Eq, var(&u), var(&t)), real(1), real(0)),
    ));
    let column = flat(proj(call(l, &lv, &i, unit), 0));
    let cols = l.bind("jacobian", build(vec![n, k], vec![i, t], column));
    let i = l.fresh("i");
    let bflat = l.bind(
        "ys_bar_flat",
        build(vec![n], vec![i.clone()], flat(at(ysb.clone(), var(&i)))),
    );
    let cflat = matrix(l, &cols, &bflat, n, k);
    let i = l.fresh("i");
    let cs = l.bind(
        "c",
        build(vec![n], vec![i.clone()], unflat(at(cflat, var(&i)))),
    );
    let i = l.fresh("i");
    let xs_bar = build(
        vec![n],
        vec![i.clone()],
        proj(call(l, &lv, &i, at(cs.clone(), var(&i))), 1),
    );
    let xs_bar = l.bind("xs_bar", xs_bar);
    let ne_bar = if n == 0 {
        zeros(sh)
    } else {
        let app = apply(
            l.env,
            &lv.lambda,
            vec![ne.clone(), at(xs.clone(), int(0)), at(cs.clone(), int(0))],
        );
        l.bind("ne_bar", proj(app, 0))
    };
    let mut free = Vec::new();
    for (f, (v, ty)) in lv.free.iter().enumerate() {
        if n == 0 {
            break;
        }
        let Some(fsh) = real_shape(ty) else {
            return Err(unsupported(format!(
                "soac reverse rule: the operator's free variable `{v}` has type {ty}, not an array of reals"
            )));
        };
        let i = l.fresh("i");
        let parts = build(
            vec![n],
            vec![i.clone()],
            proj(call(l, &lv, &i, at(cs.clone(), var(&i))), 2 + f),
        );
        let sum = reduce(Op::Add, zeros(fsh), parts);
        free.push((v.clone(), l.bind("free_bar", sum)));
    }
    Ok(FoldAdjoints {
        ne: ne_bar,
        xs: xs_bar,
        free,
    })
}

/// The built-in operator a lambda `(a, b) => a + b` or `(a, b) => a * b` (either
/// operand order) is equal to, so that it may take the special rule: both fold from
/// `ne` exactly as the built-in does (docs/language.md). `min`/`max` lambdas are not
/// equal to the built-ins (the built-ins let elements win ties against `ne`).
pub fn builtin_of(lam: &Lambda) -> Option<Op> {
    use adora_core::ast::ExprKind::{Binary, Var};
    let [a, b] = lam.params.as_slice() else {
        return None;
    };
    let Binary(op, x, y) = &lam.body.kind else {
        return None;
    };
    let (Var(x), Var(y)) = (&x.kind, &y.kind) else {
        return None;
    };
    let pair = (x == a && y == b) || (x == b && y == a);
    match op {
        BinOp::Add if pair && a != b => Some(Op::Add),
        BinOp::Mul if pair && a != b => Some(Op::Mul),
        _ => None,
    }
}
