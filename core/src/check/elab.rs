//! The checking traversal. In **surface** mode it type-checks a `def` body and returns it
//! elaborated: integer literals typed (inferred base, else the hint rule below), rank-0 operands
//! broadcast with explicit `replicate`s, calls kept (typed by the callee's signature).
//! In **strict** mode it checks an elaborated expression: integer literals are `Z`, no
//! implicit broadcasting, no calls.
//!
//! Literal types: integer literals take the base inferred for them by [`super::infer`]
//! (unification over the whole body, docs/language.md "Literal typing"). The hint rule
//! below remains for literals that inference leaves without a base, and it orders the
//! checking of operands:
//!
//! Literal flexibility: each subexpression is checked with a *hint*, the type its context
//! expects (the declared result, a parameter type, the other operand's type). An integer
//! literal whose hint has base `R` becomes a real literal. Operands that must share a base
//! (of `+ - * /`, comparisons, `min`, `max`, `select`, `if`, `append`, array elements,
//! `ne` and `xs` of `reduce`/`scan`, `dest`, `vs` and `ne` of `reduce_by_index`, `dest`
//! and `vs` of `scatter_into`) are
//! checked *flexible ones last*: an expression is flexible when its base comes only from
//! integer literals (a literal, its negation, an array of such, arithmetic, `abs`,
//! `min`/`max`, `select`/`if` branches, `sum`, `replicate`, ... of such), and it adopts
//! the base of the first non-flexible operand, or else the outer hint (default `Z`).

use super::forms;
use super::hints;
use super::infer::Literals;
use super::instances::Instances;
use super::rules::{self, err, Opd};
use crate::ast::{BinOp, Binding, Def, Expr, ExprKind, Lambda, Name, Param, Pat, Prim, UnOp};
use crate::diag::{ErrorKind, Result, Span};
use crate::types::{Base, Shape, Type};
use crate::visit::{children, ScopedMap};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// The signature of a `def`. For a template (a `def` with size parameters other than the
/// entry point), `template` is its index in the program's templates, and the types are
/// its placeholder types: their bases and structure hold, their sizes do not.
pub(crate) struct Sig {
    pub params: Vec<Param>,
    pub ret: Type,
    pub template: Option<usize>,
}

type Out = (Expr, Type);

/// Where a recording traversal puts the type of each node it checks, keyed by the
/// node's address (see [`super::NodeTypes`]).
pub(crate) type NodeMap = HashMap<usize, Type>;

/// The checker state (see the module documentation).
pub(crate) struct Elab<'a> {
    pub(super) strict: bool,
    pub(super) sigs: Option<&'a HashMap<Name, Sig>>,
    pub(super) scope: ScopedMap<Type>,
    flex: HashSet<*const Expr>,
    /// When set, [`Elab::expr`] records the type of every input node it checks.
    record: Option<&'a mut NodeMap>,
    /// The literal types inferred for the body being checked (surface mode).
    pub(super) lits: Option<&'a Literals>,
    /// The instances of the program's templates (surface mode).
    pub(super) instances: Option<&'a RefCell<Instances>>,
}

pub(super) fn hint_base(h: Option<&Type>) -> Option<Base> {
    match h {
        Some(Type::Array(b, _)) => Some(*b),
        _ => None,
    }
}

pub(super) fn z() -> Type {
    Type::int()
}

pub(super) fn opd(o: &Out) -> Opd<'_> {
    Opd {
        ty: &o.1,
        span: o.0.span,
    }
}

/// Wraps `e` (of type `ty`, rank 0 unless already of shape `to`) in `replicate`s up to `to`.
pub(super) fn bcast(e: Expr, ty: &Type, to: &Shape) -> Expr {
    match ty {
        Type::Array(_, s) if s != to => {
            let span = e.span;
            to.iter().rev().fold(e, |acc, &d| {
                Expr::new(ExprKind::Prim(Prim::Replicate(d), vec![acc]), span)
            })
        }
        _ => e,
    }
}

pub(super) fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// Rejects a binding group that binds one name twice.
pub(super) fn distinct(span: Span, names: &[&Name]) -> Result<()> {
    let mut seen = HashSet::new();
    for n in names {
        if !seen.insert(*n) {
            return Err(err(
                ErrorKind::Name,
                span,
                format!("`{n}` is bound twice in one binding group"),
            ));
        }
    }
    Ok(())
}

impl<'a> Elab<'a> {
    /// A surface checker for bodies of a program with signatures `sigs`.
    pub fn surface(sigs: &'a HashMap<Name, Sig>) -> Elab<'a> {
        Elab {
            strict: false,
            sigs: Some(sigs),
            scope: ScopedMap::new(),
            flex: HashSet::new(),
            record: None,
            lits: None,
            instances: None,
        }
    }

    /// A strict checker of elaborated expressions under `env` (innermost last).
    pub fn strict(env: &[Binding]) -> Elab<'a> {
        let mut scope = ScopedMap::new();
        for b in env {
            scope.push(&b.name, b.ty.clone());
        }
        Elab {
            strict: true,
            sigs: None,
            scope,
            flex: HashSet::new(),
            record: None,
            lits: None,
            instances: None,
        }
    }

    /// This checker, typing integer literals by `lits` (from [`super::infer::literals`]
    /// on the `def` it checks); literals `lits` does not type follow the hint.
    pub fn with_literals(self, lits: &'a Literals) -> Elab<'a> {
        Elab {
            lits: Some(lits),
            ..self
        }
    }

    /// This checker, instantiating the templates its calls name in `instances`.
    pub fn with_instances(self, instances: &'a RefCell<Instances>) -> Elab<'a> {
        Elab {
            instances: Some(instances),
            ..self
        }
    }

    /// This checker, recording the type of every node it checks (keyed by the address
    /// of the input node) into `into`.
    pub fn recording(self, into: &'a mut NodeMap) -> Elab<'a> {
        Elab {
            record: Some(into),
            ..self
        }
    }

    /// Checks `d`'s body against its signature; returns the elaborated body.
    pub fn def_body(&mut self, d: &Def) -> Result<Expr> {
        self.flex.clear();
        self.mark_flexible(&d.body);
        for p in &d.params {
            self.scope.push(&p.name, p.ty.clone());
        }
        let (body, ty) = self.expr(&d.body, Some(&d.ret))?;
        for p in d.params.iter().rev() {
            self.scope.pop(&p.name);
        }
        if ty != d.ret {
            let msg = format!(
                "the body of `{}` has type {ty}, but its declared result type is {}",
                d.name, d.ret
            );
            let e = err(rules::mismatch_kind(&ty, &d.ret), d.body.span, msg)
                .with_label(d.name_span, format!("declared to return {}", d.ret));
            return Err(hints::expected_real(e, &d.body, &ty, &d.ret));
        }
        Ok(body)
    }

    fn mark_flexible(&mut self, e: &Expr) -> bool {
        use ExprKind::*;
        let kids: Vec<bool> = children(e)
            .into_iter()
            .map(|c| self.mark_flexible(c))
            .collect();
        let all = !kids.is_empty() && kids.iter().all(|&k| k);
        let f = match &e.kind {
            Lit(crate::ast::Lit::Int(_)) => true,
            Unary(UnOp::Neg, _) | Array(_) => all,
            Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, _, _) => all,
            If(_, _, _) => kids[1] && kids[2],
            Let(_, _, _) => kids[1],
            Prim(crate::ast::Prim::Select, _) => kids.len() == 3 && kids[1] && kids[2],
            Prim(p, _) => {
                use crate::ast::Prim::*;
                all && matches!(
                    p,
                    Abs | Min
                        | Max
                        | Sum
                        | SumOuter
                        | Replicate(_)
                        | Transpose(_)
                        | Reshape(_)
                        | Append
                        | Stack
                )
            }
            _ => false,
        };
        if f {
            self.flex.insert(e as *const Expr);
        }
        f
    }

    fn is_flexible(&self, e: &Expr) -> bool {
        self.flex.contains(&(e as *const Expr))
    }

    /// Checks expressions that must share a base type, flexible ones last.
    pub(super) fn group(&mut self, es: &[&Expr], hint: Option<&Type>) -> Result<Vec<Out>> {
        let mut outs: Vec<Option<Out>> = es.iter().map(|_| None).collect();
        let mut adopted: Option<Type> = None;
        for (i, e) in es.iter().enumerate() {
            if !self.is_flexible(e) {
                let o = self.expr(e, hint)?;
                if adopted.is_none() && matches!(o.1, Type::Array(..)) {
                    adopted = Some(o.1.clone());
                }
                outs[i] = Some(o);
            }
        }
        let h = adopted.as_ref().or(hint);
        for (i, e) in es.iter().enumerate() {
            if outs[i].is_none() {
                outs[i] = Some(self.expr(e, h)?);
            }
        }
        Ok(outs.into_iter().flatten().collect())
    }

    pub(super) fn pair(&mut self, a: &Expr, b: &Expr, hint: Option<&Type>) -> Result<(Out, Out)> {
        let mut v = self.group(&[a, b], hint)?;
        let ob = v.pop().expect("two outputs");
        let oa = v.pop().expect("two outputs");
        Ok((oa, ob))
    }

    pub(super) fn zs(&mut self, ix: &[Expr], what: &str) -> Result<Vec<Expr>> {
        let mut out = Vec::with_capacity(ix.len());
        for i in ix {
            let o = self.expr(i, Some(&z()))?;
            rules::z_scalar(opd(&o), what)?;
            out.push(o.0);
        }
        Ok(out)
    }

    pub(super) fn bind_all(&mut self, names: &[&Name], ty: &Type) {
        for n in names {
            self.scope.push(n, ty.clone());
        }
    }

    pub(super) fn unbind_all(&mut self, names: &[&Name]) {
        for n in names.iter().rev() {
            self.scope.pop(n);
        }
    }

    /// Binds pattern `p` to a value of type `ty` (at `span`); returns the names bound.
    fn bind_pat<'p>(&mut self, p: &'p Pat, ty: &Type, span: Span) -> Result<Vec<&'p Name>> {
        match p {
            Pat::Var(n) => {
                self.scope.push(n, ty.clone());
                Ok(vec![n])
            }
            Pat::Tuple(ns) => {
                let names: Vec<&Name> = ns.iter().collect();
                distinct(span, &names)?;
                match ty {
                    Type::Tuple(ts) if ts.len() == ns.len() => {
                        for (n, t) in ns.iter().zip(ts) {
                            self.scope.push(n, t.clone());
                        }
                        Ok(names)
                    }
                    _ => Err(err(
                        ErrorKind::Type,
                        span,
                        format!(
                            "a pattern of {} names cannot bind a value of type {ty}",
                            ns.len()
                        ),
                    )),
                }
            }
        }
    }

    /// Checks (and in surface mode elaborates) `e` with `hint`.
    pub fn expr(&mut self, e: &Expr, hint: Option<&Type>) -> Result<Out> {
        let (kind, ty) = self.kind(e, hint)?;
        rules::limit(&ty, e.span)?;
        if let Some(m) = self.record.as_deref_mut() {
            m.insert(super::NodeTypes::key(e), ty.clone());
        }
        Ok((Expr::new(kind, e.span), ty))
    }

    fn kind(&mut self, e: &Expr, hint: Option<&Type>) -> Result<(ExprKind, Type)> {
        use ExprKind as K;
        let sp = e.span;
        let bc = !self.strict;
        Ok(match &e.kind {
            K::Var(n) => match self.scope.get(n) {
                Some(t) => (K::Var(n.clone()), t.clone()),
                None if self.sigs.is_some_and(|s| s.contains_key(n)) => {
                    return Err(err(
                        ErrorKind::Name,
                        sp,
                        format!("functions are not values: `{n}` is a def"),
                    ));
                }
                None => return Err(err(ErrorKind::Name, sp, format!("unbound variable `{n}`"))),
            },
            K::Lit(l) => self.lit(e, l, hint),
            K::Array(es) => {
                let refs: Vec<&Expr> = es.iter().collect();
                let outs = self.group(&refs, hint)?;
                let ops: Vec<Opd> = outs.iter().map(opd).collect();
                let ty = rules::elements_of(sp, "an array literal", &ops)?;
                (K::Array(outs.into_iter().map(|o| o.0).collect()), ty)
            }
            K::Tuple(es) => {
                let hints: Vec<Option<&Type>> = match hint {
                    Some(Type::Tuple(ts)) if ts.len() == es.len() => ts.iter().map(Some).collect(),
                    _ => es.iter().map(|_| None).collect(),
                };
                let mut xs = Vec::new();
                let mut ts = Vec::new();
                for (x, h) in es.iter().zip(hints) {
                    let (x2, t) = self.expr(x, h)?;
                    xs.push(x2);
                    ts.push(t);
                }
                (K::Tuple(xs), Type::Tuple(ts))
            }
            K::Proj(x, k) => {
                let o = self.expr(x, None)?;
                let ty = rules::proj(sp, opd(&o), *k)?;
                (K::Proj(bx(o.0), *k), ty)
            }
            K::Let(p, v, b) => {
                let (v2, tv) = self.expr(v, None)?;
                let names = self.bind_pat(p, &tv, sp)?;
                let (b2, tb) = self.expr(b, hint)?;
                self.unbind_all(&names);
                (K::Let(p.clone(), bx(v2), bx(b2)), tb)
            }
            K::If(c, a, b) => {
                let oc = self.expr(c, None)?;
                rules::condition(opd(&oc))?;
                let (oa, ob) = self.pair(a, b, hint)?;
                if oa.1 != ob.1 {
                    let msg = format!(
                        "the branches of `if` have different types: {} and {}",
                        oa.1, ob.1
                    );
                    let d = err(rules::mismatch_kind(&oa.1, &ob.1), sp, msg)
                        .with_label(oa.0.span, format!("this has type {}", oa.1))
                        .with_label(ob.0.span, format!("this has type {}", ob.1));
                    return Err(hints::convert_to_real(d, &[(a, &oa.1), (b, &ob.1)]));
                }
                (K::If(bx(oc.0), bx(oa.0), bx(ob.0)), oa.1)
            }
            K::Unary(op, x) => {
                let o = self.expr(x, if *op == UnOp::Neg { hint } else { None })?;
                let ty = rules::unary(*op, opd(&o))?;
                (K::Unary(*op, bx(o.0)), ty)
            }
            K::Binary(op, a, b) => {
                let h = match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => hint,
                    _ => None,
                };
                let (oa, ob) = self.pair(a, b, h)?;
                let (ty, shape) = rules::binary(*op, sp, opd(&oa), opd(&ob), bc)
                    .map_err(|d| hints::convert_to_real(d, &[(a, &oa.1), (b, &ob.1)]))?;
                let a2 = bcast(oa.0, &oa.1, &shape);
                let b2 = bcast(ob.0, &ob.1, &shape);
                (K::Binary(*op, bx(a2), bx(b2)), ty)
            }
            K::Call(f, args) => self.call(sp, f, args)?,
            K::Prim(p, args) => self.prim(sp, p, args, hint)?,
            K::Index(x, ix) => {
                let o = self.expr(x, hint)?;
                let ix2 = self.zs(ix, "an index")?;
                let ty = forms::index(sp, opd(&o), ix.len())?;
                (K::Index(bx(o.0), ix2), ty)
            }
            K::Build(sh, bs, body) => {
                forms::binder_count(sp, "build", sh.len(), bs.len())?;
                let names: Vec<&Name> = bs.iter().collect();
                distinct(sp, &names)?;
                self.bind_all(&names, &z());
                let o = self.expr(body, hint)?;
                self.unbind_all(&names);
                let ty = forms::build(sh, opd(&o))?;
                (K::Build(sh.clone(), bs.clone(), bx(o.0)), ty)
            }
            K::Gather(sh, x, bs, ix) => {
                let o = self.expr(x, hint)?;
                forms::binder_count(sp, "gather", sh.len(), bs.len())?;
                let names: Vec<&Name> = bs.iter().collect();
                distinct(sp, &names)?;
                self.bind_all(&names, &z());
                let ix2 = self.zs(ix, "a component of the index map")?;
                self.unbind_all(&names);
                let ty = forms::gather(sp, sh, opd(&o), ix.len())?;
                (K::Gather(sh.clone(), bx(o.0), bs.clone(), ix2), ty)
            }
            K::Scatter(sh, x, bs, ix) => {
                let o = self.expr(x, hint)?;
                forms::scatter_binders(sp, opd(&o), bs.len())?;
                let names: Vec<&Name> = bs.iter().collect();
                distinct(sp, &names)?;
                self.bind_all(&names, &z());
                let ix2 = self.zs(ix, "a component of the index map")?;
                self.unbind_all(&names);
                let ty = forms::scatter(sp, sh, opd(&o), bs.len(), ix.len())?;
                (K::Scatter(sh.clone(), bx(o.0), bs.clone(), ix2), ty)
            }
            K::Map(lam, xs) => {
                let mut outs = Vec::new();
                for x in xs {
                    outs.push(self.expr(x, None)?);
                }
                let ops: Vec<Opd> = outs.iter().map(opd).collect();
                let (n, tys) = forms::map_params(sp, &ops, lam.params.len())?;
                let names: Vec<&Name> = lam.params.iter().collect();
                distinct(sp, &names)?;
                for (p, t) in lam.params.iter().zip(&tys) {
                    self.scope.push(p, t.clone());
                }
                let ob = self.expr(&lam.body, hint)?;
                self.unbind_all(&names);
                let ty = forms::map_result(n, opd(&ob))?;
                let lam2 = Lambda {
                    params: lam.params.clone(),
                    body: bx(ob.0),
                };
                (K::Map(lam2, outs.into_iter().map(|o| o.0).collect()), ty)
            }
            K::Reduce(op, ne, xs) | K::Scan(op, ne, xs) => {
                let is_reduce = matches!(e.kind, K::Reduce(..));
                let what = if is_reduce { "reduce" } else { "scan" };
                let (one, ox) = self.pair(ne, xs, hint)?;
                let t = forms::slice(what, opd(&ox))?;
                let op2 = self.op(what, sp, op, &t)?;
                let target = forms::neutral(opd(&one), &t, bc)?;
                let ne2 = bx(bcast(one.0, &one.1, &target));
                if is_reduce {
                    (K::Reduce(op2, ne2, bx(ox.0)), t)
                } else {
                    (K::Scan(op2, ne2, bx(ox.0)), ox.1)
                }
            }
            K::ReduceByIndex {
                dest,
                op,
                ne,
                is,
                vs,
            } => {
                let mut outs = self.group(&[dest, vs, ne], hint)?.into_iter();
                let (od, ov, one) = match (outs.next(), outs.next(), outs.next()) {
                    (Some(a), Some(b), Some(c)) => (a, b, c),
                    _ => unreachable!("group returns one output per input"),
                };
                let oi = self.expr(is, Some(&z()))?;
                let t = forms::reduce_by_index(sp, opd(&od), opd(&oi), opd(&ov))?;
                let op2 = self.op("reduce_by_index", sp, op, &t)?;
                let target = forms::neutral(opd(&one), &t, bc)?;
                let ne2 = bx(bcast(one.0, &one.1, &target));
                let ty = od.1;
                (
                    K::ReduceByIndex {
                        dest: bx(od.0),
                        op: op2,
                        ne: ne2,
                        is: bx(oi.0),
                        vs: bx(ov.0),
                    },
                    ty,
                )
            }
            K::ScatterInto { dest, is, vs } => {
                let (od, ov) = self.pair(dest, vs, hint)?;
                let oi = self.expr(is, Some(&z()))?;
                let ty = forms::scatter_into(sp, opd(&od), opd(&oi), opd(&ov))?;
                (
                    K::ScatterInto {
                        dest: bx(od.0),
                        is: bx(oi.0),
                        vs: bx(ov.0),
                    },
                    ty,
                )
            }
            K::Loop {
                acc,
                init,
                var,
                count,
                body,
            } => {
                let oi = self.expr(init, hint)?;
                let mut all: Vec<&Name> = crate::visit::pat_names(acc);
                all.push(var);
                distinct(sp, &all)?;
                self.scope.push(var, z());
                let names = self.bind_pat(acc, &oi.1, sp)?;
                let ob = self.expr(body, Some(&oi.1))?;
                self.unbind_all(&names);
                self.scope.pop(var);
                rules::same_type("the body of `loop`", ob.0.span, &ob.1, &oi.1)?;
                let kind = K::Loop {
                    acc: acc.clone(),
                    init: bx(oi.0),
                    var: var.clone(),
                    count: *count,
                    body: bx(ob.0),
                };
                (kind, oi.1)
            }
        })
    }
}
