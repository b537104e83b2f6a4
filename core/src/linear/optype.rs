//! Typing of single Linear A operations: the core expression of an operation (typed by
//! the core checker, `adora_core::check::type_of`) and the rules for the operations core
//! lacks or types differently in the linear fragment (type-indexed `+` and scaling,
//! `zero`, `one_hot`, `split`, masked `select`).

use super::ast::{is_real_type, Atom, Op};
use crate::ast::{BinOp, Binding, Expr, ExprKind, Lit, Prim};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use crate::types::{Base, Type};

fn err(kind: ErrorKind, span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(kind, span, msg)
}

/// The type of a literal atom.
pub fn lit_type(l: &Lit) -> Type {
    match l {
        Lit::Int(_) => Type::int(),
        Lit::Real(_) | Lit::NonFinite(_) => Type::real(),
        Lit::Bool(_) => Type::bool(),
    }
}

/// The core expression of a non-linear (or structurally identical linear) operation on
/// the given atoms, for typing and evaluation by the core language.
pub fn core_expr(op: &Op, args: &[Atom]) -> Option<Expr> {
    let a = |k: usize| -> Expr {
        match &args[k] {
            Atom::Var(n) => Expr::new(ExprKind::Var(n.clone()), Span::DUMMY),
            Atom::Lit(l) => Expr::new(ExprKind::Lit(l.clone()), Span::DUMMY),
        }
    };
    let all = || (0..args.len()).map(a).collect::<Vec<_>>();
    let bx = |k: usize| Box::new(a(k));
    let kind = match op {
        Op::Id if args.len() == 1 => return Some(a(0)),
        Op::Tuple => ExprKind::Tuple(all()),
        Op::Unary(u) if args.len() == 1 => ExprKind::Unary(*u, bx(0)),
        Op::Binary(b) if args.len() == 2 => ExprKind::Binary(*b, bx(0), bx(1)),
        Op::Prim(p) => ExprKind::Prim(p.clone(), all()),
        Op::Array => ExprKind::Array(all()),
        Op::Index if !args.is_empty() => ExprKind::Index(bx(0), all()[1..].to_vec()),
        Op::Gather(sh, bs, ix) if args.len() == 1 => {
            ExprKind::Gather(sh.clone(), bx(0), bs.clone(), ix.clone())
        }
        Op::Scatter(sh, bs, ix) if args.len() == 1 => {
            ExprKind::Scatter(sh.clone(), bx(0), bs.clone(), ix.clone())
        }
        _ => return None,
    };
    Some(Expr::new(kind, Span::DUMMY))
}

fn ty_err(msg: impl Into<String>) -> Diagnostic {
    err(ErrorKind::Type, Span::DUMMY, msg)
}

fn shape_err(msg: impl Into<String>) -> Diagnostic {
    err(ErrorKind::Shape, Span::DUMMY, msg)
}

/// For `select(c, a, b)` with one branch the literal `0.0` and the other a variable: the
/// position of the literal branch (1 or 2). The literal then stands for the zero of the
/// other branch's type (a *masked* select, the transpose of a select; it reads only the
/// other branch).
pub fn masked_branch(op: &Op, args: &[Atom]) -> Option<usize> {
    if !matches!(op, Op::Prim(Prim::Select)) || args.len() != 3 {
        return None;
    }
    let is_zero = |a: &Atom| matches!(a, Atom::Lit(Lit::Real(r)) if num_traits::Zero::is_zero(r));
    match (&args[1], &args[2]) {
        (Atom::Var(_), b) if is_zero(b) => Some(2),
        (a, Atom::Var(_)) if is_zero(a) => Some(1),
        _ => None,
    }
}

/// The result type of an operation whose atoms have types `tys` (linear or not);
/// `var_ty` gives the types of the free variables of gather / scatter index maps.
pub fn op_type(
    op: &Op,
    args: &[Atom],
    tys: &[Type],
    linear: bool,
    var_ty: &dyn Fn(&str) -> Option<Type>,
) -> Result<Type> {
    if tys.len() != args.len() {
        return Err(ty_err(
            "an operation's argument types do not match its arguments",
        ));
    }
    let arity_ok = match op {
        Op::Id | Op::Split(_) => args.len() == 1,
        Op::Binary(_) => args.len() == 2,
        Op::Unary(_) => args.len() == 1,
        Op::OneHot(_) | Op::Index => !args.is_empty(),
        Op::Gather(..) | Op::Scatter(..) => args.len() == 1,
        _ => true,
    };
    if !arity_ok {
        return Err(ty_err(format!(
            "{} applied to {} arguments",
            op.name(),
            args.len()
        )));
    }
    match op {
        Op::Id => tys
            .first()
            .cloned()
            .ok_or_else(|| ty_err("a variable form needs one atom")),
        Op::Zero(t) => {
            if is_real_type(t) {
                Ok(t.clone())
            } else {
                Err(ty_err(format!(
                    "`zero({t})`: a linear zero has a real type"
                )))
            }
        }
        Op::Tuple => {
            if tys.len() < 2 {
                return Err(ty_err("a tuple has at least two components"));
            }
            Ok(Type::Tuple(tys.to_vec()))
        }
        Op::Binary(BinOp::Add) if linear => {
            if tys.len() == 2 && tys[0] == tys[1] {
                Ok(tys[0].clone())
            } else {
                Err(ty_err(format!(
                    "linear `+` needs two values of one type, found {}",
                    tys.iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(" and ")
                )))
            }
        }
        Op::Binary(BinOp::Mul) if linear => {
            let (x, y) = (&tys[0], &tys[1]);
            if *x == Type::real() || (x == y && x.base() == Some(Base::R)) {
                Ok(y.clone())
            } else {
                Err(ty_err(format!(
                    "linear scaling `x * dy` needs x : R or x of dy's type, found {x} * {y}"
                )))
            }
        }
        Op::OneHot(sh) => {
            let Some((b, rest)) = tys[0].as_array() else {
                return Err(ty_err(format!("`one_hot` of a tuple ({})", tys[0])));
            };
            let k = tys.len() - 1;
            if tys[1..].iter().any(|t| *t != Type::int()) {
                return Err(ty_err("`one_hot` indices are Z scalars"));
            }
            if sh.len() != k + rest.len() || sh[k..] != rest[..] {
                return Err(shape_err(format!(
                    "`one_hot({sh:?}, ...)` with {k} indices places a {} slice: the shape must end with its shape",
                    tys[0]
                )));
            }
            Ok(Type::Array(b, sh.clone()))
        }
        Op::Split(n) => {
            let Some((b, sh)) = tys[0].as_array() else {
                return Err(ty_err(format!("`split` of a tuple ({})", tys[0])));
            };
            if sh.is_empty() || *n > sh[0] {
                return Err(shape_err(format!(
                    "`split({n}, x)` needs x of rank >= 1 with at least {n} rows, found {}",
                    tys[0]
                )));
            }
            let mut a = sh.clone();
            let mut c = sh.clone();
            a[0] = *n;
            c[0] = sh[0] - n;
            Ok(Type::Tuple(vec![Type::Array(b, a), Type::Array(b, c)]))
        }
        Op::Prim(Prim::Select) if masked_branch(op, args).is_some() => {
            let k = masked_branch(op, args).unwrap_or(2);
            let other = 3 - k;
            let mut args2 = args.to_vec();
            let mut tys2 = tys.to_vec();
            args2[k] = Atom::Var("0zero".into());
            tys2[k] = tys[other].clone();
            op_type(op, &args2, &tys2, linear, var_ty)
        }
        _ => {
            let e = core_expr(op, args).ok_or_else(|| {
                ty_err(format!("{} applied to {} arguments", op.name(), args.len()))
            })?;
            let mut env: Vec<Binding> = Vec::new();
            for (a, t) in args.iter().zip(tys) {
                if let Atom::Var(n) = a {
                    env.push(Binding {
                        name: n.clone(),
                        ty: t.clone(),
                    });
                }
            }
            if let Op::Gather(_, bs, ix) | Op::Scatter(_, bs, ix) = op {
                for e in ix {
                    for v in crate::visit::free_vars(e) {
                        if bs.contains(&v) || env.iter().any(|b| b.name == v) {
                            continue;
                        }
                        if let Some(t) = var_ty(&v) {
                            env.push(Binding { name: v, ty: t });
                        }
                    }
                }
            }
            if let Op::Prim(Prim::Iota(_)) = op {
                if linear {
                    return Err(ty_err("`iota` has no linear form"));
                }
            }
            crate::check::type_of(&env, &e)
        }
    }
}
