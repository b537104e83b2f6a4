//! `D`, the total derivative of a Tensor-SSA program (*Differentiating a Tensor
//! Language* §6.2, Fig. 13), at the level of SSA statements: every primal statement is
//! kept and followed by its tangent statements (the `let` rule 6.16, "a consequence of the
//! chain rule"), one named function per primal form. The table (docs/engines/
//! tssa-derivatives.md, "Forward"; `E = |∃J.p|`):
//!
//! | primal statement | tangent statements | rules | tangent cost |
//! |---|---|---|---|
//! | `x = X.k…` | `dx = dX.k…`, or zero if `X ∉ δ` | 6.1, 6.2, 6.8 | 0 |
//! | `x = gen I.[p] c` | zero (no statement) | 6.3, 6.9, 6.12 | 0 |
//! | `x = gen I.[p]y[I] + [q]z[I]` | `dx = gen I.[p]dy[I] + [q]dz[I]`; one zero operand: the copy `gen I. sum (). [p] dy[I]` | 6.4, 6.9, 6.11, 6.12 | `\|p∧q\|` |
//! | `x = gen I.[p] f(y[I])` | `t = gen I.[p] f'(y[I])`, `dx = gen I. sum (). [p] t[I]*dy[I]` | 6.6 | `2\|p\|` |
//! | `x = gen I.sum J.[p] y[U]*z[V]` | `a = gen I.sum J.[p] dy[U]*z[V]`, `b = gen I.sum J.[p] y[U]*dz[V]`, `dx = gen I.[∃J.p]a[I] + [∃J.p]b[I]` | 6.5 (Leibniz), 6.10 | `2(2\|p\|−E) + E` |
//! | `x = gen I.sum J.[p] y[U]` | `dx = gen I.sum J.[p] dy[U]` | 6.10, 6.11 | `\|p\| − E` |
//!
//! Zeros are tracked statically (`δ` decides which inputs have tangents, rule 6.2): a
//! tangent that is identically zero has no statement, so a half of the Leibniz rule, or
//! an operand of an addition, whose differential is zero is dropped. Every tangent
//! statement is one of the Fig. 10 forms, so `D` maps Tensor SSA to Tensor SSA.

use super::pred::exists_solved;
use super::{internal, real_leaves, tangent_path, tangent_ty, ty_at, unsupported, Names};
use adora_core::diag::Result;
use adora_core::tl::{
    Access, BlackBox, ConstVal, Dims, Pred, Rat, Rhs, SsaOut, SsaProgram, Stmt, Ty, Var,
};
use std::collections::BTreeMap;

/// What a statement of a derivative program computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A statement of the primal program.
    Primal,
    /// A coefficient of a tangent statement, computed from primal values only (the
    /// `f'(y)` of rule 6.6).
    Coef,
    /// A differential (tangent) statement: it reads a differential input.
    Diff,
}

/// `D⟦p⟧δ` with its bookkeeping: the statements (each with its [`Kind`]), the tangent
/// inputs, and the tangent of the output.
#[derive(Clone, Debug)]
pub struct Forward {
    /// The primal inputs.
    pub inputs: Vec<(Var, Ty)>,
    /// `(X, dX, type of dX)` for each differentiated input, in `δ`'s order.
    pub tangent_inputs: Vec<(Var, Var, Ty)>,
    /// The statements, primal ones each followed by its tangent block.
    pub stmts: Vec<(Stmt, Kind)>,
    /// The primal output.
    pub output: SsaOut,
    /// The tangent of the output; `None` when the output has no real component.
    pub tangent: Option<SsaOut>,
}

impl Forward {
    /// The JVP program: inputs `p.inputs` then the tangent inputs, output `(primal,
    /// tangent)` (the primal alone when the output has no reals).
    pub fn program(&self) -> SsaProgram {
        let mut inputs = self.inputs.clone();
        inputs.extend(
            self.tangent_inputs
                .iter()
                .map(|(_, dx, t)| (dx.clone(), t.clone())),
        );
        let output = match &self.tangent {
            Some(t) => SsaOut::Pair(Box::new(self.output.clone()), Box::new(t.clone())),
            None => self.output.clone(),
        };
        SsaProgram {
            inputs,
            stmts: self.stmts.iter().map(|(s, _)| s.clone()).collect(),
            output,
        }
    }
}

/// The JVP program of `p` for the inputs `wrt` (module documentation): inputs `p.inputs`
/// then one tangent per `wrt` entry (its real components, `super::tangent_ty`), output
/// `(primal, tangent)`.
pub fn jvp(p: &SsaProgram, wrt: &[Var]) -> Result<SsaProgram> {
    derive(p, wrt).map(|f| f.program())
}

/// The state of `D` while it walks the program.
struct Cx {
    names: Names,
    /// `δ` extended by the statements so far: primal variable ↦ its tangent variable
    /// (absent: the tangent is zero).
    tan: BTreeMap<Var, Var>,
    /// Differentiated inputs: `X ↦ (dX, type of X)`.
    delta: BTreeMap<Var, (Var, Ty)>,
    out: Vec<(Stmt, Kind)>,
}

impl Cx {
    fn emit(&mut self, base: &str, ty: &Ty, rhs: Rhs, kind: Kind) -> Var {
        let var = self.names.fresh(base);
        self.out.push((
            Stmt {
                var: var.clone(),
                ty: ty.clone(),
                rhs,
            },
            kind,
        ));
        var
    }
}

/// `D⟦p⟧δ` with `δ` the inputs `wrt` (module documentation).
pub fn derive(p: &SsaProgram, wrt: &[Var]) -> Result<Forward> {
    let mut names = Names::of(p);
    let mut delta = BTreeMap::new();
    let mut tangent_inputs = Vec::new();
    for x in wrt {
        let Some((_, ty)) = p.inputs.iter().find(|(v, _)| v == x) else {
            return Err(internal(format!("`{x}` is not an input of the program")));
        };
        let Some(tty) = tangent_ty(ty) else {
            return Err(unsupported(format!(
                "input `{x}` has no real component to differentiate"
            )));
        };
        if delta.contains_key(x) {
            return Err(internal(format!("input `{x}` is differentiated twice")));
        }
        let dx = names.fresh(&format!("d{x}"));
        delta.insert(x.clone(), (dx.clone(), ty.clone()));
        tangent_inputs.push((x.clone(), dx, tty));
    }
    // An input of tensor-of-number type may also be read directly by statements: its
    // tangent is the differential input itself (rule 6.1).
    let tan: BTreeMap<Var, Var> = delta
        .iter()
        .filter(|(_, (_, ty))| tangent_ty(ty).as_ref() == Some(ty))
        .map(|(x, (dx, _))| (x.clone(), dx.clone()))
        .collect();
    let mut cx = Cx {
        names,
        tan,
        delta,
        out: Vec::new(),
    };
    for s in &p.stmts {
        cx.out.push((s.clone(), Kind::Primal));
        let dx = match &s.rhs {
            Rhs::Input { input, path } => d_input(&mut cx, s, input, path)?,
            Rhs::Const { .. } => d_const(),
            Rhs::Add { dims, p, y, q, z } => d_add(&mut cx, s, dims, p, y, q, z),
            Rhs::Map { dims, pred, f, y } => d_map(&mut cx, s, dims, pred, *f, y)?,
            Rhs::Contract {
                dims,
                sums,
                pred,
                y,
                z,
            } => d_contract(&mut cx, s, dims, sums, pred, y, z.as_ref()),
        };
        if let Some(dx) = dx {
            cx.tan.insert(s.var.clone(), dx);
        }
    }
    let types: BTreeMap<Var, Ty> = p
        .inputs
        .iter()
        .cloned()
        .chain(p.stmts.iter().map(|s| (s.var.clone(), s.ty.clone())))
        .collect();
    let tangent = tangent_out(&mut cx, &p.output, &types)?;
    Ok(Forward {
        inputs: p.inputs.clone(),
        tangent_inputs,
        stmts: cx.out,
        output: p.output.clone(),
        tangent,
    })
}

/// Rules 6.1, 6.2 and 6.8: `D⟦X.k…⟧ = dX.k…` (the same projection of the differential
/// input) when `X ∈ dom δ`, else zero.
fn d_input(cx: &mut Cx, s: &Stmt, input: &Var, path: &[u8]) -> Result<Option<Var>> {
    let Some((dx, xty)) = cx.delta.get(input).cloned() else {
        return Ok(None);
    };
    let Some(tpath) = tangent_path(&xty, path) else {
        return Ok(None);
    };
    let Some(tty) = tangent_ty(&s.ty) else {
        return Ok(None);
    };
    if ty_at(&xty, path).is_none() {
        return Err(internal(format!(
            "`{}` projects input `{input}` along a path its type lacks",
            s.var
        )));
    }
    let rhs = Rhs::Input {
        input: dx,
        path: tpath,
    };
    Ok(Some(cx.emit(&format!("d{}", s.var), &tty, rhs, Kind::Diff)))
}

/// Rules 6.3, 6.9 and 6.12: the derivative of a constant tensor is zero (no statement).
fn d_const() -> Option<Var> {
    None
}

/// Rules 6.4, 6.9, 6.11, 6.12: `D⟦gen I.[p]y[I] + [q]z[I]⟧ = gen I.[p]dy[I] + [q]dz[I]`;
/// with one zero operand, the copy `gen I. sum (). [p] dy[I]` (a unary contraction).
fn d_add(cx: &mut Cx, s: &Stmt, dims: &Dims, p: &Pred, y: &Var, q: &Pred, z: &Var) -> Option<Var> {
    let rhs = match (cx.tan.get(y).cloned(), cx.tan.get(z).cloned()) {
        (Some(dy), Some(dz)) => Rhs::Add {
            dims: dims.clone(),
            p: p.clone(),
            y: dy,
            q: q.clone(),
            z: dz,
        },
        (Some(d), None) => copy(dims, p, d),
        (None, Some(d)) => copy(dims, q, d),
        (None, None) => return None,
    };
    Some(cx.emit(&format!("d{}", s.var), &s.ty, rhs, Kind::Diff))
}

/// `gen I. sum (). [p] d[I]`.
fn copy(dims: &Dims, p: &Pred, d: Var) -> Rhs {
    Rhs::Contract {
        dims: dims.clone(),
        sums: Vec::new(),
        pred: p.clone(),
        y: Access {
            var: d,
            idx: dims.iter().map(|(i, _)| i.clone()).collect(),
        },
        z: None,
    }
}

/// Rule 6.6 (with 6.9, 6.11, 6.12): `D⟦gen I.[p] f(y[I])⟧ = gen I.[p] f'(y[I]) * dy[I]`,
/// as the coefficient statement `t = gen I.[p] f'(y[I])` and the contraction
/// `dx = gen I. sum (). [p] t[I] * dy[I]`.
fn d_map(
    cx: &mut Cx,
    s: &Stmt,
    dims: &Dims,
    pred: &Pred,
    f: BlackBox,
    y: &Var,
) -> Result<Option<Var>> {
    let Some(dy) = cx.tan.get(y).cloned() else {
        return Ok(None);
    };
    let Some(df) = f.derivative() else {
        return Err(unsupported(format!(
            "the black box {f:?} has no derivative black box (rule 6.6)"
        )));
    };
    let t = cx.emit(
        &format!("t{}", s.var),
        &s.ty,
        Rhs::Map {
            dims: dims.clone(),
            pred: pred.clone(),
            f: df,
            y: y.clone(),
        },
        Kind::Coef,
    );
    let idx: Vec<_> = dims.iter().map(|(i, _)| i.clone()).collect();
    let rhs = Rhs::Contract {
        dims: dims.clone(),
        sums: Vec::new(),
        pred: pred.clone(),
        y: Access {
            var: t,
            idx: idx.clone(),
        },
        z: Some(Access { var: dy, idx }),
    };
    Ok(Some(cx.emit(
        &format!("d{}", s.var),
        &s.ty,
        rhs,
        Kind::Diff,
    )))
}

/// Rules 6.5 (Leibniz) and 6.10, 6.11, 6.12 on a contraction: the unary one is linear,
/// `dx = gen I.sum J.[p] dy[U]`; the binary one gets one half per differentiated factor,
/// `a = gen I.sum J.[p] dy[U]*z[V]`, `b = gen I.sum J.[p] y[U]*dz[V]`, and, with both,
/// `dx = gen I.[∃J.p] a[I] + [∃J.p] b[I]`.
fn d_contract(
    cx: &mut Cx,
    s: &Stmt,
    dims: &Dims,
    sums: &Dims,
    pred: &Pred,
    y: &Access,
    z: Option<&Access>,
) -> Option<Var> {
    let dx_name = format!("d{}", s.var);
    let contract = |y: Access, z: Option<Access>| Rhs::Contract {
        dims: dims.clone(),
        sums: sums.clone(),
        pred: pred.clone(),
        y,
        z,
    };
    let with = |a: &Access, v: Var| Access {
        var: v,
        idx: a.idx.clone(),
    };
    let Some(z) = z else {
        let dy = cx.tan.get(&y.var).cloned()?;
        let rhs = contract(with(y, dy), None);
        return Some(cx.emit(&dx_name, &s.ty, rhs, Kind::Diff));
    };
    let half_a = cx
        .tan
        .get(&y.var)
        .cloned()
        .map(|dy| contract(with(y, dy), Some(z.clone())));
    let half_b = cx
        .tan
        .get(&z.var)
        .cloned()
        .map(|dz| contract(y.clone(), Some(with(z, dz))));
    match (half_a, half_b) {
        (None, None) => None,
        (Some(h), None) | (None, Some(h)) => Some(cx.emit(&dx_name, &s.ty, h, Kind::Diff)),
        (Some(ha), Some(hb)) => {
            let a = cx.emit(&format!("{dx_name}a"), &s.ty, ha, Kind::Diff);
            let b = cx.emit(&format!("{dx_name}b"), &s.ty, hb, Kind::Diff);
            let e = exists_solved(sums, pred.clone(), &dims.iter().cloned().collect());
            let rhs = Rhs::Add {
                dims: dims.clone(),
                p: e.clone(),
                y: a,
                q: e,
                z: b,
            };
            Some(cx.emit(&dx_name, &s.ty, rhs, Kind::Diff))
        }
    }
}

/// The tangent of the output: the tangent variable of each component with reals, a zero
/// constant where the tangent is zero (`None`: no real component at all).
fn tangent_out(cx: &mut Cx, out: &SsaOut, types: &BTreeMap<Var, Ty>) -> Result<Option<SsaOut>> {
    match out {
        SsaOut::Pair(a, b) => {
            let a = tangent_out(cx, a, types)?;
            let b = tangent_out(cx, b, types)?;
            Ok(match (a, b) {
                (Some(a), Some(b)) => Some(SsaOut::Pair(Box::new(a), Box::new(b))),
                (Some(a), None) => Some(a),
                (None, Some(b)) => Some(b),
                (None, None) => None,
            })
        }
        SsaOut::Var(x) => {
            let Some(ty) = types.get(x) else {
                return Err(internal(format!("the output `{x}` is not bound")));
            };
            let Some(tty) = tangent_ty(ty) else {
                return Ok(None);
            };
            if let Some(dx) = cx.tan.get(x) {
                return Ok(Some(SsaOut::Var(dx.clone())));
            }
            zero_out(cx, x, &tty).map(Some)
        }
    }
}

/// A zero of the tangent type `tty` (of output `x`): one constant statement per tensor
/// component.
fn zero_out(cx: &mut Cx, x: &str, tty: &Ty) -> Result<SsaOut> {
    let leaves = real_leaves(tty);
    let mut parts = Vec::new();
    for path in &leaves {
        let lty = ty_at(tty, path).cloned().unwrap_or(Ty::Num);
        let rhs = zero_rhs(&lty)
            .ok_or_else(|| internal(format!("tangent type {lty:?} is not a tensor")))?;
        parts.push((
            path.clone(),
            cx.emit(&format!("d{x}"), &lty, rhs, Kind::Diff),
        ));
    }
    Ok(build_out(&parts, &[]))
}

/// `gen I.[true] 0` of the tensor type `ty`.
pub fn zero_rhs(ty: &Ty) -> Option<Rhs> {
    let shape = super::shape(ty)?;
    let dims = shape
        .iter()
        .enumerate()
        .map(|(k, n)| (format!("i{k}"), *n))
        .collect();
    Some(Rhs::Const {
        dims,
        pred: Pred::True,
        value: ConstVal::Num(Rat::from_integer(0.into())),
    })
}

/// The output tree of leaves given by their paths (below `prefix`).
fn build_out(parts: &[(Vec<u8>, Var)], prefix: &[u8]) -> SsaOut {
    if let [(p, v)] = parts {
        if p.len() == prefix.len() {
            return SsaOut::Var(v.clone());
        }
    }
    let (l, r): (Vec<_>, Vec<_>) = parts
        .iter()
        .cloned()
        .partition(|(p, _)| p[prefix.len()] == 0);
    let mut pl = prefix.to_vec();
    pl.push(0);
    let mut pr = prefix.to_vec();
    pr.push(1);
    SsaOut::Pair(Box::new(build_out(&l, &pl)), Box::new(build_out(&r, &pr)))
}
