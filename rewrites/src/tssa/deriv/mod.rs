//! Derivatives of Tensor-SSA programs (*Differentiating a Tensor Language*, Bernstein,
//! Mara, Li, Maclaurin, Ragan-Kelley, 2020, §6; docs/engines/tssa-derivatives.md).
//!
//! | module | job | paper |
//! |---|---|---|
//! | [`forward`] | `D`: the total derivative, one tangent block per primal statement, [`jvp`] | §6.2, Fig. 13, rules 6.1–6.16, Theorem 6.1 |
//! | [`inner`] | inner-product terms and their desugaring | §6.3, Fig. 14, rules 6.17–6.19 |
//! | [`adjoint`] | `R`: the adjoint rules, each a named function, and the driver, [`vjp`] | §6.3, Figs. 15–16, rules 6.20–6.49 |
//! | [`pred`] | predicate helpers (conjunction, `∃`, equalities, renaming) | — |
//! | [`term`] | a statement's right-hand side as a TL term | §5.4, Fig. 10 |
//!
//! Tangent and cotangent types keep only the real components of a type (a pair with one
//! real side is that side alone; booleans and integers are data, constant under
//! differentiation): [`tangent_ty`]. This is the `Reals` layout of the engine interface
//! (`crate::engine::Layout`).

pub mod adjoint;
pub mod forward;
pub mod inner;
pub mod pred;
pub mod term;

pub use adjoint::vjp;
pub use forward::jvp;

use adora_core::diag::{Diagnostic, ErrorKind, Span};
use adora_core::tl::{Dims, SsaProgram, Ty, Var};
use std::collections::BTreeSet;

/// The tangent type of `ty`: its real components only (`None`: it has none).
pub fn tangent_ty(ty: &Ty) -> Option<Ty> {
    match ty {
        Ty::Num => Some(Ty::Num),
        Ty::Bool | Ty::Int => None,
        Ty::Arr(n, t) => tangent_ty(t).map(|t| Ty::Arr(*n, Box::new(t))),
        Ty::Pair(a, b) => match (tangent_ty(a), tangent_ty(b)) {
            (Some(a), Some(b)) => Some(Ty::Pair(Box::new(a), Box::new(b))),
            (Some(a), None) => Some(a),
            (None, Some(b)) => Some(b),
            (None, None) => None,
        },
    }
}

/// The projection path inside `tangent_ty(ty)` of the component at `path` inside `ty`
/// (`None`: that component has no reals).
pub fn tangent_path(ty: &Ty, path: &[u8]) -> Option<Vec<u8>> {
    let Some((&k, rest)) = path.split_first() else {
        return tangent_ty(ty).map(|_| Vec::new());
    };
    let Ty::Pair(a, b) = ty else { return None };
    let (this, other) = if k == 0 { (a, b) } else { (b, a) };
    let mut tail = tangent_path(this, rest)?;
    if tangent_ty(other).is_some() {
        tail.insert(0, k);
    }
    Some(tail)
}

/// The type at projection `path` inside `ty`.
pub fn ty_at<'a>(ty: &'a Ty, path: &[u8]) -> Option<&'a Ty> {
    path.iter().try_fold(ty, |t, &k| match t {
        Ty::Pair(a, b) => Some(if k == 0 { &**a } else { &**b }),
        _ => None,
    })
}

/// The paths of the maximal non-pair components of `ty` that contain reals, in order.
pub fn real_leaves(ty: &Ty) -> Vec<Vec<u8>> {
    match ty {
        Ty::Pair(a, b) => {
            let mut out: Vec<Vec<u8>> = Vec::new();
            for (k, t) in [(0u8, a), (1u8, b)] {
                for mut p in real_leaves(t) {
                    p.insert(0, k);
                    out.push(p);
                }
            }
            out
        }
        t if tangent_ty(t).is_some() => vec![Vec::new()],
        _ => Vec::new(),
    }
}

/// The sizes of a tensor type's dimensions (`[n][m]num` gives `[n, m]`; `None` if `ty`
/// is not a tensor of numbers).
pub fn shape(ty: &Ty) -> Option<Vec<u64>> {
    match ty {
        Ty::Num => Some(Vec::new()),
        Ty::Arr(n, t) => {
            let mut s = shape(t)?;
            s.insert(0, *n);
            Some(s)
        }
        _ => None,
    }
}

/// The tensor type of a shape.
pub fn tensor_ty(shape: &[u64]) -> Ty {
    shape
        .iter()
        .rev()
        .fold(Ty::Num, |t, n| Ty::Arr(*n, Box::new(t)))
}

/// The tensor type with the ranges of `dims`.
pub fn dims_ty(dims: &Dims) -> Ty {
    tensor_ty(&dims.iter().map(|(_, n)| *n).collect::<Vec<_>>())
}

/// A supply of fresh value-variable names, seeded with every name of a program.
#[derive(Clone, Debug, Default)]
pub struct Names {
    used: BTreeSet<Var>,
}

impl Names {
    /// The supply avoiding every input and statement name of `p`.
    pub fn of(p: &SsaProgram) -> Names {
        let mut used: BTreeSet<Var> = p.inputs.iter().map(|(x, _)| x.clone()).collect();
        used.extend(p.stmts.iter().map(|s| s.var.clone()));
        Names { used }
    }

    /// Records `x` as used.
    pub fn reserve(&mut self, x: &str) {
        self.used.insert(x.to_string());
    }

    /// `base` if unused, else `base_1`, `base_2`, … (the result is recorded).
    pub fn fresh(&mut self, base: &str) -> Var {
        if self.used.insert(base.to_string()) {
            return base.to_string();
        }
        (1..)
            .map(|n| format!("{base}_{n}"))
            .find(|c| self.used.insert(c.clone()))
            .expect("an unused name exists")
    }
}

/// An `Unsupported` error of the derivative transforms.
pub fn unsupported(msg: String) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, Span::DUMMY, msg)
}

/// An `Internal` error: a broken invariant of the derivative transforms.
pub fn internal(msg: String) -> Diagnostic {
    Diagnostic::new(ErrorKind::Internal, Span::DUMMY, msg)
}
