//! A small type inference for the surface programs the generators produce (all
//! constructs of the core language, rank-0 broadcasting included). The shrinker uses it
//! to find same-typed replacements, and the tests use it to cross-check the generator
//! against `adora_core::check`. It returns `None` for anything ill-typed; it is not a
//! substitute for the real checker (its error reporting is nil).

use super::walk::element;
use adora_core::ast::{BinOp, Def, Expr, ExprKind, Lit as L, Name, Op, Pat, Prim, UnOp};
use adora_core::types::{Base, Shape, Type};

/// A typing environment: innermost binding last.
pub type Env = Vec<(Name, Type)>;

/// Binds a pattern to a value of type `ty`.
pub fn bind_pat(p: &Pat, ty: &Type) -> Option<Vec<(Name, Type)>> {
    match (p, ty) {
        (Pat::Var(n), t) => Some(vec![(n.clone(), t.clone())]),
        (Pat::Tuple(ns), Type::Tuple(ts)) if ns.len() == ts.len() => {
            Some(ns.iter().cloned().zip(ts.iter().cloned()).collect())
        }
        _ => None,
    }
}

fn lookup(env: &Env, n: &str) -> Option<Type> {
    env.iter()
        .rev()
        .find(|(m, _)| m == n)
        .map(|(_, t)| t.clone())
}

fn arr(t: &Type) -> Option<(Base, &Shape)> {
    t.as_array()
}

fn owned(t: Type) -> Option<(Base, Shape)> {
    match t {
        Type::Array(b, s) => Some((b, s)),
        Type::Tuple(_) => None,
    }
}

fn is_int_scalar(t: &Type) -> bool {
    *t == Type::scalar(Base::Z)
}

/// The shape two elementwise operands combine to (equal, or one of them rank 0).
pub fn broadcast(a: &Shape, b: &Shape) -> Option<Shape> {
    if a == b || b.is_empty() {
        Some(a.clone())
    } else if a.is_empty() {
        Some(b.clone())
    } else {
        None
    }
}

/// The type of `e` under `env` with the `def`s `defs` callable; `None` if ill-typed.
pub fn type_of(defs: &[Def], env: &Env, e: &Expr) -> Option<Type> {
    let mut env = env.clone();
    infer(defs, &mut env, e)
}

fn with<T>(env: &mut Env, extra: Vec<(Name, Type)>, f: impl FnOnce(&mut Env) -> T) -> T {
    let n = extra.len();
    env.extend(extra);
    let r = f(env);
    env.truncate(env.len() - n);
    r
}

fn ints(names: &[Name]) -> Vec<(Name, Type)> {
    names
        .iter()
        .map(|n| (n.clone(), Type::scalar(Base::Z)))
        .collect()
}

fn all_int(defs: &[Def], env: &mut Env, ix: &[Expr]) -> bool {
    ix.iter()
        .all(|i| infer(defs, env, i).is_some_and(|t| is_int_scalar(&t)))
}

fn infer(defs: &[Def], env: &mut Env, e: &Expr) -> Option<Type> {
    use ExprKind::*;
    match &e.kind {
        Var(n) => lookup(env, n),
        Lit(L::Int(_)) => Some(Type::scalar(Base::Z)),
        Lit(L::Real(_)) => Some(Type::scalar(Base::R)),
        Lit(L::Bool(_)) => Some(Type::scalar(Base::B)),
        Array(es) | Prim(adora_core::ast::Prim::Stack, es) => {
            let first = infer(defs, env, es.first()?)?;
            for x in &es[1..] {
                if infer(defs, env, x)? != first {
                    return None;
                }
            }
            let (b, s) = arr(&first)?;
            Some(Type::Array(b, [vec![es.len()], s.clone()].concat()))
        }
        Tuple(es) if es.len() >= 2 => Some(Type::Tuple(
            es.iter()
                .map(|x| infer(defs, env, x))
                .collect::<Option<_>>()?,
        )),
        Tuple(_) => None,
        Proj(x, k) => match infer(defs, env, x)? {
            Type::Tuple(ts) => ts.get(*k).cloned(),
            _ => None,
        },
        Let(p, a, b) => {
            let ta = infer(defs, env, a)?;
            let extra = bind_pat(p, &ta)?;
            with(env, extra, |env| infer(defs, env, b))
        }
        If(c, a, b) => {
            let tc = infer(defs, env, c)?;
            let (ta, tb) = (infer(defs, env, a)?, infer(defs, env, b)?);
            (tc == Type::scalar(Base::B) && ta == tb).then_some(ta)
        }
        Unary(op, a) => {
            let t = infer(defs, env, a)?;
            let (b, _) = arr(&t)?;
            let ok = match op {
                UnOp::Neg => b != Base::B,
                UnOp::Not => b == Base::B,
            };
            ok.then_some(t)
        }
        Binary(op, a, b) => {
            let (mut ta, mut tb) = (infer(defs, env, a)?, infer(defs, env, b)?);
            // An integer literal next to a real operand is real (the checker's flexible
            // literal rule).
            if is_int_literal(a) && arr(&tb).is_some_and(|(b, _)| b == Base::R) {
                ta = Type::real();
            }
            if is_int_literal(b) && arr(&ta).is_some_and(|(b, _)| b == Base::R) {
                tb = Type::real();
            }
            binary(*op, &ta, &tb)
        }
        Call(f, args) => {
            let d = defs.iter().find(|d| &d.name == f)?;
            if d.params.len() != args.len() {
                return None;
            }
            for (p, a) in d.params.iter().zip(args) {
                if infer(defs, env, a)? != p.ty {
                    return None;
                }
            }
            Some(d.ret.clone())
        }
        Prim(p, args) => {
            let ts = args
                .iter()
                .map(|a| infer(defs, env, a))
                .collect::<Option<Vec<_>>>()?;
            prim(p, &ts)
        }
        Index(x, ix) => {
            let t = infer(defs, env, x)?;
            let (b, s) = arr(&t)?;
            if ix.is_empty() || ix.len() > s.len() || !all_int(defs, env, ix) {
                return None;
            }
            Some(Type::Array(b, s[ix.len()..].to_vec()))
        }
        Build(sh, names, body) => {
            if sh.is_empty() || sh.len() != names.len() {
                return None;
            }
            let t = with(env, ints(names), |env| infer(defs, env, body))?;
            let (b, s) = arr(&t)?;
            Some(Type::Array(b, [sh.clone(), s.clone()].concat()))
        }
        Gather(sh, src, names, ix) => {
            let t = infer(defs, env, src)?;
            let (b, s) = arr(&t)?;
            let ok = !sh.is_empty()
                && sh.len() == names.len()
                && !ix.is_empty()
                && ix.len() <= s.len()
                && with(env, ints(names), |env| all_int(defs, env, ix));
            ok.then(|| Type::Array(b, [sh.clone(), s[ix.len()..].to_vec()].concat()))
        }
        Scatter(sh, src, names, ix) => {
            let t = infer(defs, env, src)?;
            let (b, s) = arr(&t)?;
            let k = names.len();
            let ok = k >= 1
                && k <= s.len()
                && !ix.is_empty()
                && ix.len() <= sh.len()
                && sh[ix.len()..] == s[k..]
                && with(env, ints(names), |env| all_int(defs, env, ix));
            ok.then(|| Type::Array(b, sh.clone()))
        }
        Map(l, xs) => {
            if xs.is_empty() || l.params.len() != xs.len() {
                return None;
            }
            let mut n = None;
            let mut extra = Vec::new();
            for (p, x) in l.params.iter().zip(xs) {
                let t = infer(defs, env, x)?;
                let (_, s) = arr(&t)?;
                if n.is_some_and(|n| n != s.first().copied()) {
                    return None;
                }
                n = Some(s.first().copied());
                extra.push((p.clone(), element(&t)?));
            }
            let n = n??;
            let t = with(env, extra, |env| infer(defs, env, &l.body))?;
            let (b, s) = arr(&t)?;
            Some(Type::Array(b, [vec![n], s.clone()].concat()))
        }
        Reduce(op, ne, xs) | Scan(op, ne, xs) => {
            let tn = infer(defs, env, ne)?;
            let tx = infer(defs, env, xs)?;
            if element(&tx)? != tn || !op_ok(defs, env, op, &tn) {
                return None;
            }
            Some(if matches!(e.kind, Reduce(..)) { tn } else { tx })
        }
        ReduceByIndex {
            dest,
            op,
            ne,
            is,
            vs,
        } => {
            let td = infer(defs, env, dest)?;
            let tn = infer(defs, env, ne)?;
            let ti = infer(defs, env, is)?;
            let tv = infer(defs, env, vs)?;
            let ok = element(&td)? == tn
                && element(&tv)? == tn
                && index_array(&ti, &tv)
                && op_ok(defs, env, op, &tn);
            ok.then_some(td)
        }
        ScatterInto { dest, is, vs } => {
            let td = infer(defs, env, dest)?;
            let ti = infer(defs, env, is)?;
            let tv = infer(defs, env, vs)?;
            (element(&td)? == element(&tv)? && index_array(&ti, &tv)).then_some(td)
        }
        Loop {
            acc,
            init,
            var,
            body,
            ..
        } => {
            let t = infer(defs, env, init)?;
            let mut extra = bind_pat(acc, &t)?;
            extra.push((var.clone(), Type::scalar(Base::Z)));
            let tb = with(env, extra, |env| infer(defs, env, body))?;
            (tb == t).then_some(t)
        }
    }
}

/// Whether `e` is an integer literal (possibly negated): such an operand takes the base
/// of the other operand of an arithmetic or comparison operator.
pub fn is_int_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Lit(L::Int(_)) => true,
        ExprKind::Unary(UnOp::Neg, x) => is_int_literal(x),
        _ => false,
    }
}

fn index_array(ti: &Type, tv: &Type) -> bool {
    match (ti, tv) {
        (Type::Array(Base::Z, si), Type::Array(_, sv)) => si.len() == 1 && sv.first() == si.first(),
        _ => false,
    }
}

fn op_ok(defs: &[Def], env: &mut Env, op: &Op, t: &Type) -> bool {
    match op {
        Op::Lambda(l) => {
            l.params.len() == 2
                && with(
                    env,
                    l.params.iter().map(|p| (p.clone(), t.clone())).collect(),
                    |env| infer(defs, env, &l.body).as_ref() == Some(t),
                )
        }
        _ => arr(t).is_some_and(|(b, _)| b != Base::B),
    }
}

fn binary(op: BinOp, ta: &Type, tb: &Type) -> Option<Type> {
    let (ba, sa) = arr(ta)?;
    let (bb, sb) = arr(tb)?;
    if ba != bb {
        return None;
    }
    let s = broadcast(sa, sb)?;
    use BinOp::*;
    let (ok, out) = match op {
        Add | Sub | Mul | Div => (ba != Base::B, ba),
        Mod => (ba == Base::Z, ba),
        Eq | Ne => (true, Base::B),
        Lt | Le | Gt | Ge => (ba != Base::B, Base::B),
        And | Or => (ba == Base::B, Base::B),
    };
    ok.then_some(Type::Array(out, s))
}

fn prim(p: &Prim, ts: &[Type]) -> Option<Type> {
    use Prim::*;
    let one = |want: &[Base]| -> Option<Type> {
        match ts {
            [t] if arr(t).is_some_and(|(b, _)| want.contains(&b)) => Some(t.clone()),
            _ => None,
        }
    };
    match p {
        Exp | Log | Sin | Cos | Tanh | Sqrt | Pow(_) => one(&[Base::R]),
        Abs => one(&[Base::R, Base::Z]),
        Floor => Some(Type::Array(Base::Z, arr(&one(&[Base::R])?)?.1.clone())),
        Real => Some(Type::Array(Base::R, arr(&one(&[Base::Z])?)?.1.clone())),
        Min | Max => match ts {
            [a, b] => {
                let (ba, sa) = arr(a)?;
                let (bb, sb) = arr(b)?;
                (ba == bb && ba != Base::B).then_some(())?;
                Some(Type::Array(ba, broadcast(sa, sb)?))
            }
            _ => None,
        },
        Select => match ts {
            [c, a, b] if a == b => match arr(c)? {
                (Base::B, s) if s.is_empty() => Some(a.clone()),
                (Base::B, s) => (arr(a)?.1 == s).then(|| a.clone()),
                _ => None,
            },
            _ => None,
        },
        Sum => {
            let (b, s) = owned(one(&[Base::R, Base::Z])?)?;
            (!s.is_empty()).then_some(Type::scalar(b))
        }
        SumOuter => {
            let t = one(&[Base::R, Base::Z])?;
            element(&t)
        }
        Replicate(n) => {
            let (b, s) = owned(one(&[Base::R, Base::Z, Base::B])?)?;
            Some(Type::Array(b, [vec![*n], s.clone()].concat()))
        }
        Transpose(perm) => {
            let (b, s) = owned(one(&[Base::R, Base::Z, Base::B])?)?;
            let mut seen = vec![false; s.len()];
            if perm.len() != s.len() {
                return None;
            }
            for &q in perm {
                if q >= s.len() || seen[q] {
                    return None;
                }
                seen[q] = true;
            }
            Some(Type::Array(b, perm.iter().map(|&q| s[q]).collect()))
        }
        Reshape(sh) => {
            let (b, s) = owned(one(&[Base::R, Base::Z, Base::B])?)?;
            (s.iter().product::<usize>() == sh.iter().product::<usize>())
                .then(|| Type::Array(b, sh.clone()))
        }
        Iota(n) => ts.is_empty().then(|| Type::Array(Base::Z, vec![*n])),
        Append => match ts {
            [a, c] => {
                let (ba, sa) = arr(a)?;
                let (bc, sc) = arr(c)?;
                let ok = ba == bc && !sa.is_empty() && !sc.is_empty() && sa[1..] == sc[1..];
                ok.then(|| Type::Array(ba, [vec![sa[0] + sc[0]], sa[1..].to_vec()].concat()))
            }
            _ => None,
        },
        Stack => {
            let first = ts.first()?;
            let (b, s) = arr(first)?;
            ts.iter()
                .all(|t| t == first)
                .then(|| Type::Array(b, [vec![ts.len()], s.clone()].concat()))
        }
    }
}
