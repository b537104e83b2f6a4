//! Literal types from their uses: one unification pass over a `def` body, before the
//! checking traversal of [`super::elab`] (docs/language.md, "Literal typing").
//!
//! Every integer literal gets a fresh *base variable*; every other expression gets a
//! base term built from its parts: a known base (a parameter's type, `real(..)` is `R`,
//! a comparison is `B`, ...), the variable of a literal, or a tuple of such terms.
//! Whatever must share a base is unified — the operands of arithmetic, comparisons,
//! `min`/`max`, `select`/`if` branches, array elements, `append`/`stack`, `ne` and `xs`
//! of `reduce`/`scan`, the arrays of `reduce_by_index`/`scatter_into`, a `loop`'s
//! accumulator and body — and whatever has a demanded base is unified with it: indices
//! and index maps with `Z`, arguments of `exp ... sqrt`/`floor`/negative `pow` with `R`,
//! of `real` with `Z`, call arguments with the callee's parameter types, the body with
//! the declared result type. Names carry terms: a `let` (or tuple pattern) binds its
//! name to the value's term, so a `let`-bound literal, a tuple of literals or an array of
//! them gets the base of *all* its uses, through `let`, tuples, arrays, lambdas, loops and
//! calls — the Hindley–Milner treatment of literal type variables, as in Futhark and
//! OCaml, restricted to base types (shapes are never inferred).
//!
//! The solution maps each integer literal to the base of its variable's class; a literal
//! whose class has no base is `Z` (the default). A class that meets two different bases
//! is a conflict: when a name bound to a value whose base only its uses decide is in it
//! (a constant used as both `Z` and `R`), that is an error here, naming the name and both
//! uses; otherwise the checking traversal
//! reports the mismatch with its usual message. Unresolved or ill-typed parts get no
//! constraint: this pass never reports anything but such conflicts, so every other error
//! keeps its message and position.

use super::elab::Sig;
use crate::ast::{BinOp, Def, Expr, ExprKind, Lit, Name, Op, Pat, Prim, UnOp};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use crate::types::{Base, Type};
use crate::visit::ScopedMap;
use std::collections::HashMap;

/// The inferred base of every integer literal of one `def` body, keyed by the literal
/// node's address (valid while the body is neither moved nor mutated).
#[derive(Debug, Default)]
pub(crate) struct Literals {
    bases: HashMap<usize, Base>,
}

impl Literals {
    /// The inferred base of the integer literal `e` (`None`: not a literal of the body).
    pub(crate) fn base(&self, e: &Expr) -> Option<Base> {
        self.bases.get(&(e as *const Expr as usize)).copied()
    }
}

/// The base term of an array-typed expression: known (with the span of the expression
/// that has it, for messages) or a variable.
#[derive(Clone, Debug)]
enum Bt {
    Known(Base, Span),
    Var(usize),
}

/// The term of an expression: an array's base, a tuple of terms, or nothing known.
#[derive(Clone, Debug)]
enum Term {
    Arr(Bt),
    Tup(Vec<Term>),
    Unknown,
}

fn known(b: Base, s: Span) -> Term {
    Term::Arr(Bt::Known(b, s))
}

/// The term of a declared type, its known bases at `s`.
fn of_type(t: &Type, s: Span) -> Term {
    match t {
        Type::Array(b, _) => known(*b, s),
        Type::Tuple(ts) => Term::Tup(ts.iter().map(|t| of_type(t, s)).collect()),
    }
}

/// `t` with every known base placed at `s` (a name's term, seen at one of its uses).
fn respan(t: &Term, s: Span) -> Term {
    match t {
        Term::Arr(Bt::Known(b, _)) => known(*b, s),
        Term::Tup(ts) => Term::Tup(ts.iter().map(|t| respan(t, s)).collect()),
        other => other.clone(),
    }
}

/// One variable class: its base (and the span of the expression that demanded it), and
/// the first `let`-bound name whose value it types (and that value's span).
#[derive(Clone, Default)]
struct Class {
    base: Option<(Base, Span)>,
    binding: Option<(Name, Span)>,
}

/// The unification state of one `def` body.
struct Infer<'a> {
    sigs: &'a HashMap<Name, Sig>,
    env: ScopedMap<Term>,
    parent: Vec<usize>,
    class: Vec<Class>,
    lits: Vec<(usize, usize)>,
}

/// Infers the base of every integer literal of `d`'s body (see the module documentation);
/// an error only for a `let`-bound constant whose uses need two different bases.
pub(crate) fn literals(d: &Def, sigs: &HashMap<Name, Sig>) -> Result<Literals> {
    let mut inf = Infer {
        sigs,
        env: ScopedMap::new(),
        parent: Vec::new(),
        class: Vec::new(),
        lits: Vec::new(),
    };
    for p in &d.params {
        inf.env.push(&p.name, of_type(&p.ty, p.span));
    }
    let t = inf.term(&d.body)?;
    inf.unify(&t, &of_type(&d.ret, d.body.span), d.body.span)?;
    let mut out = Literals::default();
    for (addr, v) in std::mem::take(&mut inf.lits) {
        let r = inf.find(v);
        if let Some((b, _)) = inf.class[r].base {
            out.bases.insert(addr, b);
        }
    }
    Ok(out)
}

impl Infer<'_> {
    fn fresh(&mut self) -> usize {
        self.parent.push(self.parent.len());
        self.class.push(Class::default());
        self.parent.len() - 1
    }

    fn find(&mut self, mut v: usize) -> usize {
        while self.parent[v] != v {
            self.parent[v] = self.parent[self.parent[v]];
            v = self.parent[v];
        }
        v
    }

    fn unify(&mut self, a: &Term, b: &Term, site: Span) -> Result<()> {
        match (a, b) {
            (Term::Arr(x), Term::Arr(y)) => self.unify_bt(x, y, site),
            (Term::Tup(xs), Term::Tup(ys)) if xs.len() == ys.len() => {
                for (x, y) in xs.iter().zip(ys) {
                    self.unify(x, y, site)?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn unify_bt(&mut self, a: &Bt, b: &Bt, site: Span) -> Result<()> {
        match (a, b) {
            (Bt::Known(..), Bt::Known(..)) => Ok(()),
            (Bt::Known(k, s), Bt::Var(v)) | (Bt::Var(v), Bt::Known(k, s)) => {
                let r = self.find(*v);
                let one = Class {
                    base: Some((*k, *s)),
                    binding: None,
                };
                let two = self.class[r].clone();
                self.class[r] = merge(two, one, site)?;
                Ok(())
            }
            (Bt::Var(u), Bt::Var(v)) => {
                let (ru, rv) = (self.find(*u), self.find(*v));
                if ru != rv {
                    let (cu, cv) = (self.class[ru].clone(), self.class[rv].clone());
                    self.class[ru] = merge(cu, cv, site)?;
                    self.parent[rv] = ru;
                }
                Ok(())
            }
        }
    }

    /// Marks the classes of `t`'s variables that have no base yet (constants whose base
    /// only their uses decide) as typing the value of `name` (at `s`).
    fn bind_name(&mut self, t: &Term, name: &Name, s: Span) {
        match t {
            Term::Arr(Bt::Var(v)) => {
                let r = self.find(*v);
                if self.class[r].binding.is_none() && self.class[r].base.is_none() {
                    self.class[r].binding = Some((name.clone(), s));
                }
            }
            Term::Tup(ts) => ts.iter().for_each(|t| self.bind_name(t, name, s)),
            _ => {}
        }
    }

    fn bind_pat(&mut self, p: &Pat, t: Term, value: Span) -> Vec<Name> {
        match p {
            Pat::Var(n) => {
                self.bind_name(&t, n, value);
                self.env.push(n, t);
                vec![n.clone()]
            }
            Pat::Tuple(ns) => {
                let parts: Vec<Term> = match t {
                    Term::Tup(ts) if ts.len() == ns.len() => ts,
                    _ => ns.iter().map(|_| Term::Unknown).collect(),
                };
                for (n, t) in ns.iter().zip(parts) {
                    self.bind_name(&t, n, value);
                    self.env.push(n, t);
                }
                ns.clone()
            }
        }
    }

    fn bind_z(&mut self, names: &[Name], s: Span) {
        for n in names {
            self.env.push(n, known(Base::Z, s));
        }
    }

    fn unbind(&mut self, names: &[Name]) {
        for n in names.iter().rev() {
            self.env.pop(n);
        }
    }

    /// The term of each of `es`, all unified with the first (array elements and other
    /// operands that share one base); the first's term (or unknown when there is none).
    fn same(&mut self, es: &[Expr], site: Span) -> Result<Term> {
        let mut ts = Vec::with_capacity(es.len());
        for e in es {
            ts.push(self.term(e)?);
        }
        let Some(first) = ts.first().cloned() else {
            return Ok(Term::Unknown);
        };
        for t in &ts[1..] {
            self.unify(&first, t, site)?;
        }
        Ok(match first {
            Term::Arr(_) => first,
            _ => Term::Unknown,
        })
    }

    /// Demands base `b` of `e` (an index: `Z`; the argument of `exp`: `R`; ...).
    fn demand(&mut self, e: &Expr, b: Base) -> Result<Term> {
        let t = self.term(e)?;
        self.unify(&t, &known(b, e.span), e.span)?;
        Ok(t)
    }

    fn indices(&mut self, ix: &[Expr]) -> Result<()> {
        for i in ix {
            self.demand(i, Base::Z)?;
        }
        Ok(())
    }

    fn op(&mut self, op: &Op, t: &Term) -> Result<()> {
        if let Op::Lambda(l) = op {
            for p in &l.params {
                self.env.push(p, t.clone());
            }
            let tb = self.term(&l.body)?;
            self.unbind(&l.params);
            self.unify(&tb, t, l.body.span)?;
        }
        Ok(())
    }

    fn term(&mut self, e: &Expr) -> Result<Term> {
        use ExprKind as K;
        let sp = e.span;
        Ok(match &e.kind {
            K::Var(n) => self.env.get(n).map_or(Term::Unknown, |t| respan(t, sp)),
            K::Lit(Lit::Int(_)) => {
                let v = self.fresh();
                self.lits.push((e as *const Expr as usize, v));
                Term::Arr(Bt::Var(v))
            }
            K::Lit(Lit::Real(_) | Lit::NonFinite(_)) => known(Base::R, sp),
            K::Lit(Lit::Bool(_)) => known(Base::B, sp),
            K::Array(es) => self.same(es, sp)?,
            K::Tuple(es) => {
                let mut ts = Vec::with_capacity(es.len());
                for x in es {
                    ts.push(self.term(x)?);
                }
                Term::Tup(ts)
            }
            K::Proj(x, k) => match self.term(x)? {
                Term::Tup(mut ts) if *k < ts.len() => ts.swap_remove(*k),
                _ => Term::Unknown,
            },
            K::Let(p, v, b) => {
                let tv = self.term(v)?;
                let names = self.bind_pat(p, tv, v.span);
                let tb = self.term(b)?;
                self.unbind(&names);
                tb
            }
            K::If(c, a, b) => {
                self.term(c)?;
                let (ta, tb) = (self.term(a)?, self.term(b)?);
                self.unify(&ta, &tb, sp)?;
                ta
            }
            K::Unary(UnOp::Neg, x) => self.term(x)?,
            K::Unary(UnOp::Not, x) => {
                self.term(x)?;
                known(Base::B, sp)
            }
            K::Binary(op, a, b) => {
                let (ta, tb) = (self.term(a)?, self.term(b)?);
                self.unify(&ta, &tb, sp)?;
                match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => ta,
                    BinOp::Mod => {
                        self.unify(&ta, &known(Base::Z, sp), sp)?;
                        ta
                    }
                    _ => known(Base::B, sp),
                }
            }
            K::Call(f, args) => self.call(f, args, sp)?,
            K::Prim(p, args) => self.prim(p, args, sp)?,
            K::Index(x, ix) => {
                let t = self.term(x)?;
                self.indices(ix)?;
                respan(&t, sp)
            }
            K::Build(_, bs, body) => {
                self.bind_z(bs, sp);
                let t = self.term(body)?;
                self.unbind(bs);
                t
            }
            K::Gather(_, x, bs, ix) | K::Scatter(_, x, bs, ix) => {
                let t = self.term(x)?;
                self.bind_z(bs, sp);
                self.indices(ix)?;
                self.unbind(bs);
                t
            }
            K::Map(lam, xs) => {
                let mut ts = Vec::with_capacity(xs.len());
                for x in xs {
                    ts.push(self.term(x)?);
                }
                for (p, t) in lam.params.iter().zip(ts) {
                    self.env.push(p, t);
                }
                let names: Vec<Name> = lam.params.iter().take(xs.len()).cloned().collect();
                let t = self.term(&lam.body)?;
                self.unbind(&names);
                t
            }
            K::Reduce(op, ne, xs) | K::Scan(op, ne, xs) => {
                let (tn, tx) = (self.term(ne)?, self.term(xs)?);
                self.unify(&tn, &tx, sp)?;
                self.op(op, &tx)?;
                tx
            }
            K::ReduceByIndex {
                dest,
                op,
                ne,
                is,
                vs,
            } => {
                let (td, tv, tn) = (self.term(dest)?, self.term(vs)?, self.term(ne)?);
                self.unify(&td, &tv, sp)?;
                self.unify(&td, &tn, sp)?;
                self.demand(is, Base::Z)?;
                self.op(op, &td)?;
                td
            }
            K::ScatterInto { dest, is, vs } => {
                let (td, tv) = (self.term(dest)?, self.term(vs)?);
                self.unify(&td, &tv, sp)?;
                self.demand(is, Base::Z)?;
                td
            }
            K::Loop {
                acc,
                init,
                var,
                body,
                ..
            } => {
                let ti = self.term(init)?;
                self.env.push(var, known(Base::Z, sp));
                let names = self.bind_pat(acc, ti.clone(), init.span);
                let tb = self.term(body)?;
                self.unbind(&names);
                self.env.pop(var);
                self.unify(&tb, &ti, body.span)?;
                ti
            }
        })
    }

    fn call(&mut self, f: &Name, args: &[Expr], sp: Span) -> Result<Term> {
        let params: Option<Vec<Type>> = match self.sigs.get(f) {
            Some(sig) if self.env.get(f).is_none() && sig.params.len() == args.len() => {
                Some(sig.params.iter().map(|p| p.ty.clone()).collect())
            }
            _ => None,
        };
        let mut ts = Vec::with_capacity(args.len());
        for a in args {
            ts.push(self.term(a)?);
        }
        let Some(params) = params else {
            return Ok(Term::Unknown);
        };
        for ((a, t), pt) in args.iter().zip(&ts).zip(&params) {
            self.unify(t, &of_type(pt, a.span), a.span)?;
        }
        Ok(self
            .sigs
            .get(f)
            .map_or(Term::Unknown, |s| of_type(&s.ret, sp)))
    }

    fn prim(&mut self, p: &Prim, args: &[Expr], sp: Span) -> Result<Term> {
        use Prim::*;
        let arg = |k: usize| args.get(k);
        Ok(match p {
            Iota(_) => {
                self.same(args, sp)?;
                known(Base::Z, sp)
            }
            Exp | Log | Sin | Cos | Tanh | Sqrt | Floor | Real => {
                let (want, gives) = match p {
                    Real => (Base::Z, Base::R),
                    Floor => (Base::R, Base::Z),
                    _ => (Base::R, Base::R),
                };
                for a in args {
                    self.demand(a, want)?;
                }
                known(gives, sp)
            }
            Pow(k) if *k < 0 => match arg(0) {
                Some(a) => self.demand(a, Base::R)?,
                None => Term::Unknown,
            },
            Select => {
                if let Some(c) = arg(0) {
                    self.term(c)?;
                }
                self.same(args.get(1..).unwrap_or(&[]), sp)?
            }
            Min | Max | Append | Stack | Abs | Sum | SumOuter | Replicate(_) | Transpose(_)
            | Reshape(_) | Pow(_) => self.same(args, sp)?,
        })
    }
}

/// The class of two merged classes; a conflict (two different bases) is an error when a
/// `let`-bound name is in either class (see the module documentation).
fn merge(a: Class, b: Class, site: Span) -> Result<Class> {
    let binding = a.binding.clone().or(b.binding.clone());
    match (a.base, b.base) {
        (Some((x, sx)), Some((y, sy))) if x != y => match binding {
            Some((name, at)) => Err(conflict(&name, at, (x, sx), (y, sy), site)),
            None => Ok(Class {
                base: Some((x, sx)),
                binding,
            }),
        },
        (x, y) => Ok(Class {
            base: x.or(y),
            binding,
        }),
    }
}

/// The error for the `let`-bound `name` (whose value is at `at`) used as two bases.
fn conflict(
    name: &str,
    at: Span,
    (x, sx): (Base, Span),
    (y, sy): (Base, Span),
    site: Span,
) -> Diagnostic {
    let msg = format!(
        "`{name}` is used both as {x} and as {y}: a name bound to integer literals gets one base type from all its uses"
    );
    let mut d = Diagnostic::new(ErrorKind::Type, site, msg)
        .with_label(sx, format!("this is {x}"))
        .with_label(sy, format!("this is {y}"))
        .with_label(at, format!("`{name}` is bound to this value"));
    if x == Base::R || y == Base::R {
        d = d.with_help(format!(
            "keep `{name}` an integer and convert it where a real is needed: `real({name})`"
        ));
    }
    d
}
