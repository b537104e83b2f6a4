//! Data paths fitted to the values they read, for evaluating the intermediates of pair
//! elimination (seed 001 §5.2: "non-sensical" terms given meaning by conjugating with the
//! struct-of-arrays isomorphism). A rule such as 5.16 turns the binding of `x` from an
//! array of pairs into a pair of arrays; a data predicate reading `x[i].0` then reads
//! `x.0[i]` under the isomorphism. The evaluator reads data paths literally, so before
//! evaluating, every path is reordered to fit the structure of the value it reads
//! (projections and accesses commute under ≅); a path that already fits is unchanged.

use adora_core::tl::{type_of_iso, DataRef, IExpr, Index, PathStep, Pred, Term, Ty, Var};

/// `t` with every data path fitted to its variable's type (`inputs` type the free
/// variables; `let`s are typed up to ≅ as the evaluator does).
pub fn fit_data_paths(t: &Term, inputs: &[(Var, Ty)]) -> Term {
    let mut env = inputs.to_vec();
    term(t, &mut env)
}

fn fit(path: &[PathStep], ty: Option<&Ty>) -> Vec<PathStep> {
    let Some(mut ty) = ty.cloned() else {
        return path.to_vec();
    };
    let mut rest = path.to_vec();
    let mut out = Vec::new();
    while !rest.is_empty() {
        let pos = match &ty {
            Ty::Pair(..) => rest.iter().position(|s| matches!(s, PathStep::Proj(_))),
            Ty::Arr(..) => rest.iter().position(|s| matches!(s, PathStep::At(_))),
            _ => None,
        };
        let Some(pos) = pos else {
            out.extend(rest);
            return out;
        };
        let step = rest.remove(pos);
        ty = match (&ty, &step) {
            (Ty::Pair(a, _), PathStep::Proj(0)) => (**a).clone(),
            (Ty::Pair(_, b), PathStep::Proj(_)) => (**b).clone(),
            (Ty::Arr(_, e), _) => (**e).clone(),
            _ => ty,
        };
        out.push(step);
    }
    out
}

fn lookup<'a>(env: &'a [(Var, Ty)], x: &str) -> Option<&'a Ty> {
    env.iter().rev().find(|(y, _)| y == x).map(|(_, t)| t)
}

fn term(t: &Term, env: &mut Vec<(Var, Ty)>) -> Term {
    let b = |e: &Term, env: &mut Vec<(Var, Ty)>| Box::new(term(e, env));
    match t {
        Term::Var(_) | Term::Const(_) => t.clone(),
        Term::IndexConst(a) => Term::IndexConst(index(a, env)),
        Term::Add(x, y) => Term::Add(b(x, env), b(y, env)),
        Term::Mul(x, y) => Term::Mul(b(x, env), b(y, env)),
        Term::Pair(x, y) => Term::Pair(b(x, env), b(y, env)),
        Term::Call(f, e) => Term::Call(*f, b(e, env)),
        Term::Proj(k, e) => Term::Proj(*k, b(e, env)),
        Term::Gen(i, n, e) => Term::Gen(i.clone(), *n, b(e, env)),
        Term::Sum(i, n, e) => Term::Sum(i.clone(), *n, b(e, env)),
        Term::Access(e, a) => Term::Access(b(e, env), index(a, env)),
        Term::Bracket(p, e) => Term::Bracket(pred(p, env), b(e, env)),
        Term::Let(x, e1, e2) => {
            let r = term(e1, env);
            let ty = type_of_iso(e1, env).ok();
            if let Some(ty) = ty {
                env.push((x.clone(), ty));
                let body = term(e2, env);
                env.pop();
                Term::Let(x.clone(), Box::new(r), Box::new(body))
            } else {
                Term::Let(x.clone(), Box::new(r), b(e2, env))
            }
        }
    }
}

fn pred(p: &Pred, env: &mut Vec<(Var, Ty)>) -> Pred {
    let b = |q: &Pred, env: &mut Vec<(Var, Ty)>| Box::new(pred(q, env));
    match p {
        Pred::True | Pred::False => p.clone(),
        Pred::Cmp(op, a, c) => Pred::Cmp(*op, index(a, env), index(c, env)),
        Pred::Rel(x, ixs) => Pred::Rel(x.clone(), ixs.iter().map(|a| index(a, env)).collect()),
        Pred::Data(op, u, v) => Pred::Data(*op, data(u, env), data(v, env)),
        Pred::And(x, y) => Pred::And(b(x, env), b(y, env)),
        Pred::Or(x, y) => Pred::Or(b(x, env), b(y, env)),
        Pred::Not(x) => Pred::Not(b(x, env)),
        Pred::Exists(i, n, q) => Pred::Exists(i.clone(), *n, b(q, env)),
    }
}

fn data(d: &DataRef, env: &mut Vec<(Var, Ty)>) -> DataRef {
    match d {
        DataRef::Const(_) => d.clone(),
        DataRef::Read(x, path) => {
            let path: Vec<PathStep> = path
                .iter()
                .map(|s| match s {
                    PathStep::At(a) => PathStep::At(index(a, env)),
                    s => s.clone(),
                })
                .collect();
            let ty = lookup(env, x).cloned();
            DataRef::Read(x.clone(), fit(&path, ty.as_ref()))
        }
    }
}

fn index(a: &Index, env: &mut Vec<(Var, Ty)>) -> Index {
    match a {
        Index::Aff(_) => a.clone(),
        Index::Opaque(e) => Index::Opaque(iexpr(e, env)),
    }
}

fn iexpr(e: &IExpr, env: &mut Vec<(Var, Ty)>) -> IExpr {
    let b = |q: &IExpr, env: &mut Vec<(Var, Ty)>| Box::new(iexpr(q, env));
    match e {
        IExpr::Var(_) | IExpr::Const(_) => e.clone(),
        IExpr::Add(x, y) => IExpr::Add(b(x, env), b(y, env)),
        IExpr::Mul(x, y) => IExpr::Mul(b(x, env), b(y, env)),
        IExpr::Div(x, y) => IExpr::Div(b(x, env), b(y, env)),
        IExpr::Mod(x, y) => IExpr::Mod(b(x, env), b(y, env)),
        IExpr::Min(x, y) => IExpr::Min(b(x, env), b(y, env)),
        IExpr::Max(x, y) => IExpr::Max(b(x, env), b(y, env)),
        IExpr::Neg(x) => IExpr::Neg(b(x, env)),
        IExpr::Abs(x) => IExpr::Abs(b(x, env)),
        IExpr::Read(x, ixs) => IExpr::Read(x.clone(), ixs.iter().map(|a| index(a, env)).collect()),
        IExpr::Floor(d) => IExpr::Floor(data(d, env)),
        IExpr::Cond(p, x, y) => IExpr::Cond(Box::new(pred(p, env)), b(x, env), b(y, env)),
    }
}
