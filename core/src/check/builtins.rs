//! The checking rules of literals, calls, combining operators and built-in functions
//! (a second `impl` block of [`Elab`]).

use super::elab::{bcast, bx, distinct, hint_base, opd, Elab};
use super::forms;
use super::rules::{self, err, Opd};
use crate::ast::{Expr, ExprKind, Lambda, Lit, Name, Op, Prim};
use crate::diag::{ErrorKind, Result, Span};
use crate::types::{Base, Type};
use num_rational::BigRational;

impl Elab<'_> {
    /// The literal `l` (the node `e`): an integer literal is real where its inferred base
    /// is `R` (docs/language.md, "Literal typing"), or, where no base was inferred, where
    /// the hint's base is `R`; otherwise `Z`. In strict mode it is always `Z`.
    pub(super) fn lit(&self, e: &Expr, l: &Lit, hint: Option<&Type>) -> (ExprKind, Type) {
        let base = self.lits.and_then(|m| m.base(e)).or(hint_base(hint));
        match l {
            Lit::Int(i) if !self.strict && base == Some(Base::R) => (
                ExprKind::Lit(Lit::Real(BigRational::from_integer(i.clone()))),
                Type::real(),
            ),
            Lit::Int(_) => (ExprKind::Lit(l.clone()), Type::int()),
            Lit::Real(_) | Lit::NonFinite(_) => (ExprKind::Lit(l.clone()), Type::real()),
            Lit::Bool(_) => (ExprKind::Lit(l.clone()), Type::bool()),
        }
    }

    pub(super) fn call(&mut self, sp: Span, f: &Name, args: &[Expr]) -> Result<(ExprKind, Type)> {
        let Some(sigs) = self.sigs else {
            return Err(err(
                ErrorKind::Unsupported,
                sp,
                format!("call of `{f}` in an elaborated program (calls must be inlined)"),
            ));
        };
        if self.scope.get(f).is_some() {
            return Err(err(
                ErrorKind::Name,
                sp,
                format!("`{f}` is a variable, not a function"),
            ));
        }
        let Some(sig) = sigs.get(f) else {
            return Err(err(ErrorKind::Name, sp, format!("unknown function `{f}`")));
        };
        if args.len() != sig.params.len() {
            let msg = format!(
                "`{f}` takes {} argument(s) but {} were given",
                sig.params.len(),
                args.len()
            );
            return Err(err(ErrorKind::Type, sp, msg));
        }
        if let Some(t) = sig.template {
            return self.call_template(sp, t, args, &sig.params);
        }
        let mut out = Vec::with_capacity(args.len());
        for (a, p) in args.iter().zip(&sig.params) {
            let (a2, ta) = self.expr(a, Some(&p.ty))?;
            if ta != p.ty {
                let msg = format!(
                    "argument `{}` of `{f}` has type {ta}, expected {}",
                    p.name, p.ty
                );
                let d = err(rules::mismatch_kind(&ta, &p.ty), a.span, msg)
                    .with_label(p.span, "parameter declared here");
                return Err(super::hints::expected_real(d, a, &ta, &p.ty));
            }
            out.push(a2);
        }
        Ok((ExprKind::Call(f.clone(), out), sig.ret.clone()))
    }

    /// A call of the template `t` (docs/language.md, "Helpers with size parameters"): the
    /// arguments are checked (their placeholder parameter types give only the bases of
    /// literals), then the call names the instance at the sizes they bind.
    fn call_template(
        &mut self,
        sp: Span,
        t: usize,
        args: &[Expr],
        params: &[crate::ast::Param],
    ) -> Result<(ExprKind, Type)> {
        let Some(instances) = self.instances else {
            let msg = "a call of a helper with size parameters outside a program check";
            return Err(err(ErrorKind::Internal, sp, msg));
        };
        let mut out = Vec::with_capacity(args.len());
        let mut types = Vec::with_capacity(args.len());
        for (a, p) in args.iter().zip(params) {
            let (a2, ta) = self.expr(a, Some(&p.ty))?;
            types.push((ta, a.span));
            out.push(a2);
        }
        let (name, ret) = instances.borrow_mut().instance(t, &types, sp)?;
        Ok((ExprKind::Call(name, out), ret))
    }

    pub(super) fn op(&mut self, what: &str, sp: Span, op: &Op, t: &Type) -> Result<Op> {
        forms::op_base(what, sp, op, t)?;
        let Op::Lambda(l) = op else {
            return Ok(op.clone());
        };
        if l.params.len() != 2 {
            let msg = format!(
                "the operator of `{what}` must take 2 parameters, found {}",
                l.params.len()
            );
            return Err(err(ErrorKind::Type, sp, msg));
        }
        let names: Vec<&Name> = l.params.iter().collect();
        distinct(sp, &names)?;
        self.bind_all(&names, t);
        let (b, tb) = self.expr(&l.body, Some(t))?;
        self.unbind_all(&names);
        rules::same_type(&format!("the operator of `{what}`"), b.span, &tb, t)?;
        Ok(Op::Lambda(Lambda {
            params: l.params.clone(),
            body: bx(b),
        }))
    }

    pub(super) fn prim(
        &mut self,
        sp: Span,
        p: &Prim,
        args: &[Expr],
        hint: Option<&Type>,
    ) -> Result<(ExprKind, Type)> {
        use Prim::*;
        rules::prim_arity(p, sp, args.len())?;
        let bc = !self.strict;
        let mk = |args: Vec<Expr>| ExprKind::Prim(p.clone(), args);
        Ok(match p {
            Iota(n) => (mk(Vec::new()), Type::Array(Base::Z, vec![*n])),
            Min | Max => {
                let (oa, ob) = self.pair(&args[0], &args[1], hint)?;
                let what = format!("`{}`", p.name());
                let (base, shape) =
                    rules::common(&what, sp, opd(&oa), opd(&ob), bc).map_err(|d| {
                        super::hints::convert_to_real(d, &[(&args[0], &oa.1), (&args[1], &ob.1)])
                    })?;
                if base == Base::B {
                    return Err(err(
                        ErrorKind::Type,
                        sp,
                        format!("{what} needs R or Z operands, found {}", oa.1),
                    ));
                }
                let (a2, b2) = (bcast(oa.0, &oa.1, &shape), bcast(ob.0, &ob.1, &shape));
                (mk(vec![a2, b2]), Type::Array(base, shape))
            }
            Select => {
                let oc = self.expr(&args[0], None)?;
                let (oa, ob) = self.pair(&args[1], &args[2], hint)?;
                let (ty, shape) = rules::select(sp, opd(&oc), opd(&oa), opd(&ob), bc)?;
                let (a2, b2) = (bcast(oa.0, &oa.1, &shape), bcast(ob.0, &ob.1, &shape));
                (mk(vec![oc.0, a2, b2]), ty)
            }
            Append => {
                let (oa, ob) = self.pair(&args[0], &args[1], hint)?;
                let ty = rules::append(sp, opd(&oa), opd(&ob))?;
                (mk(vec![oa.0, ob.0]), ty)
            }
            Stack => {
                let refs: Vec<&Expr> = args.iter().collect();
                let outs = self.group(&refs, hint)?;
                let ops: Vec<Opd> = outs.iter().map(opd).collect();
                let ty = rules::elements_of(sp, "`stack`", &ops)?;
                (mk(outs.into_iter().map(|o| o.0).collect()), ty)
            }
            _ => {
                let real = Type::real();
                let h = match p {
                    Exp | Log | Sin | Cos | Tanh | Sqrt | Floor => Some(&real),
                    Pow(k) if *k < 0 => Some(&real),
                    Real => None,
                    _ => hint,
                };
                let o = self.expr(&args[0], h)?;
                let ty = rules::prim1(p, sp, opd(&o))?;
                (mk(vec![o.0]), ty)
            }
        })
    }
}
