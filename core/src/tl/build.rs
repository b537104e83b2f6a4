//! Constructors and smart builders for the tensor language's syntax (docs/engines/tssa-language.md,
//! "Grammar"): short names for every node, affine index arithmetic on [`Aff`], and the
//! conversions between affine and opaque index expressions.

use super::ast::{Aff, BlackBox, CmpOp, DataRef, IExpr, Index, PathStep, Pred, Rat, Term, Ty};
use num_bigint::BigInt;
use std::collections::BTreeMap;

impl Aff {
    /// The affine form of the integer constant `c`.
    pub fn constant(c: i64) -> Aff {
        Aff {
            terms: BTreeMap::new(),
            constant: c,
        }
    }

    /// The affine form of the index variable `i` (coefficient 1).
    pub fn var(i: impl Into<String>) -> Aff {
        let mut terms = BTreeMap::new();
        terms.insert(i.into(), 1);
        Aff { terms, constant: 0 }
    }

    /// `self + o` (normalised: zero coefficients dropped).
    pub fn add(&self, o: &Aff) -> Aff {
        let mut terms = self.terms.clone();
        for (v, c) in &o.terms {
            let e = terms.entry(v.clone()).or_insert(0);
            *e += c;
            if *e == 0 {
                terms.remove(v);
            }
        }
        Aff {
            terms,
            constant: self.constant + o.constant,
        }
    }

    /// `self - o`.
    pub fn sub(&self, o: &Aff) -> Aff {
        self.add(&o.scale(-1))
    }

    /// `k · self` (the zero form when `k = 0`).
    pub fn scale(&self, k: i64) -> Aff {
        if k == 0 {
            return Aff::constant(0);
        }
        Aff {
            terms: self.terms.iter().map(|(v, c)| (v.clone(), c * k)).collect(),
            constant: self.constant * k,
        }
    }

    /// The value at an assignment of the index variables; `None` when a variable is
    /// unassigned or the arithmetic overflows.
    pub fn eval(&self, lookup: impl Fn(&str) -> Option<i64>) -> Option<i64> {
        let mut acc = self.constant;
        for (v, c) in &self.terms {
            acc = acc.checked_add(c.checked_mul(lookup(v)?)?)?;
        }
        Some(acc)
    }

    /// The constant, when the form has no variables.
    pub fn as_const(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// The variable, when the form is exactly one variable with coefficient 1.
    pub fn as_var(&self) -> Option<&str> {
        match (self.constant, self.terms.len()) {
            (0, 1) => {
                let (v, c) = self.terms.iter().next()?;
                (*c == 1).then_some(v.as_str())
            }
            _ => None,
        }
    }

    /// The coefficient of `i` (0 when absent).
    pub fn coeff(&self, i: &str) -> i64 {
        self.terms.get(i).copied().unwrap_or(0)
    }

    /// The same expression as an opaque integer expression.
    pub fn to_iexpr(&self) -> IExpr {
        let mut acc: Option<IExpr> = None;
        for (v, c) in &self.terms {
            let t = if *c == 1 {
                IExpr::Var(v.clone())
            } else {
                IExpr::Mul(Box::new(IExpr::Const(*c)), Box::new(IExpr::Var(v.clone())))
            };
            acc = Some(match acc {
                None => t,
                Some(a) => IExpr::Add(Box::new(a), Box::new(t)),
            });
        }
        match acc {
            None => IExpr::Const(self.constant),
            Some(a) if self.constant == 0 => a,
            Some(a) => IExpr::Add(Box::new(a), Box::new(IExpr::Const(self.constant))),
        }
    }
}

impl IExpr {
    /// The affine form of this expression, when it is one (variables, constants, `+`,
    /// `-`, and products with a constant factor).
    pub fn to_aff(&self) -> Option<Aff> {
        Some(match self {
            IExpr::Var(v) => Aff::var(v.clone()),
            IExpr::Const(c) => Aff::constant(*c),
            IExpr::Add(a, b) => a.to_aff()?.add(&b.to_aff()?),
            IExpr::Neg(a) => a.to_aff()?.scale(-1),
            IExpr::Mul(a, b) => {
                let (a, b) = (a.to_aff()?, b.to_aff()?);
                match (a.as_const(), b.as_const()) {
                    (Some(k), _) => b.scale(k),
                    (_, Some(k)) => a.scale(k),
                    _ => return None,
                }
            }
            _ => return None,
        })
    }
}

impl Index {
    /// The index variable `i`.
    pub fn var(i: impl Into<String>) -> Index {
        Index::Aff(Aff::var(i))
    }

    /// The integer constant `c`.
    pub fn constant(c: i64) -> Index {
        Index::Aff(Aff::constant(c))
    }

    /// An index from an integer expression: affine when it is one, opaque otherwise.
    pub fn from_iexpr(e: IExpr) -> Index {
        match e.to_aff() {
            Some(a) => Index::Aff(a),
            None => Index::Opaque(e),
        }
    }

    /// The expression as an integer expression (affine forms converted).
    pub fn to_iexpr(&self) -> IExpr {
        match self {
            Index::Aff(a) => a.to_iexpr(),
            Index::Opaque(e) => e.clone(),
        }
    }
}

impl Pred {
    /// `a ⋈ b` on index expressions.
    pub fn cmp(op: CmpOp, a: Index, b: Index) -> Pred {
        Pred::Cmp(op, a, b)
    }

    /// `p && q`, simplified when either side is `true` or `false`.
    pub fn and(p: Pred, q: Pred) -> Pred {
        match (p, q) {
            (Pred::True, q) => q,
            (p, Pred::True) => p,
            (Pred::False, _) | (_, Pred::False) => Pred::False,
            (p, q) => Pred::And(Box::new(p), Box::new(q)),
        }
    }

    /// `p || q`, simplified when either side is `true` or `false`.
    pub fn or(p: Pred, q: Pred) -> Pred {
        match (p, q) {
            (Pred::False, q) => q,
            (p, Pred::False) => p,
            (Pred::True, _) | (_, Pred::True) => Pred::True,
            (p, q) => Pred::Or(Box::new(p), Box::new(q)),
        }
    }

    /// `!p`, simplified on `true`, `false` and double negation.
    #[allow(clippy::should_implement_trait)] // a constructor, not an operator
    pub fn not(p: Pred) -> Pred {
        match p {
            Pred::True => Pred::False,
            Pred::False => Pred::True,
            Pred::Not(q) => *q,
            p => Pred::Not(Box::new(p)),
        }
    }

    /// `exists i:n. p`.
    pub fn exists(i: impl Into<String>, n: u64, p: Pred) -> Pred {
        Pred::Exists(i.into(), n, Box::new(p))
    }

    /// The conjunction of a list (`true` when empty).
    pub fn all(ps: impl IntoIterator<Item = Pred>) -> Pred {
        ps.into_iter().fold(Pred::True, Pred::and)
    }
}

impl DataRef {
    /// `x` followed by `path`, a scalar read of a value variable (E1).
    pub fn read(x: impl Into<String>, path: Vec<PathStep>) -> DataRef {
        DataRef::Read(x.into(), path)
    }
}

impl Ty {
    /// `[n]T`.
    pub fn arr(n: u64, t: Ty) -> Ty {
        Ty::Arr(n, Box::new(t))
    }

    /// `T × U`.
    pub fn pair(t: Ty, u: Ty) -> Ty {
        Ty::Pair(Box::new(t), Box::new(u))
    }

    /// `[d1]…[dk]num`.
    pub fn tensor(dims: &[u64]) -> Ty {
        dims.iter().rev().fold(Ty::Num, |t, &n| Ty::arr(n, t))
    }

    /// Whether this is `num`.
    pub fn is_num(&self) -> bool {
        matches!(self, Ty::Num)
    }
}

/// The rational number of an integer.
pub fn rat(n: i64) -> Rat {
    Rat::from_integer(BigInt::from(n))
}

impl Term {
    /// The value variable `x`.
    pub fn var(x: impl Into<String>) -> Term {
        Term::Var(x.into())
    }

    /// The constant `c`.
    pub fn num(c: Rat) -> Term {
        Term::Const(c)
    }

    /// The integer constant `c`.
    pub fn int(c: i64) -> Term {
        Term::Const(rat(c))
    }

    /// `e1 + e2`.
    #[allow(clippy::should_implement_trait)] // a constructor, not an operator
    pub fn add(a: Term, b: Term) -> Term {
        Term::Add(Box::new(a), Box::new(b))
    }

    /// `e1 * e2`.
    #[allow(clippy::should_implement_trait)] // a constructor, not an operator
    pub fn mul(a: Term, b: Term) -> Term {
        Term::Mul(Box::new(a), Box::new(b))
    }

    /// `f(e)`.
    pub fn call(f: BlackBox, e: Term) -> Term {
        Term::Call(f, Box::new(e))
    }

    /// `(e1, e2)`.
    pub fn pair(a: Term, b: Term) -> Term {
        Term::Pair(Box::new(a), Box::new(b))
    }

    /// `e.k`.
    pub fn proj(k: u8, e: Term) -> Term {
        Term::Proj(k, Box::new(e))
    }

    /// `gen i:n. e`.
    pub fn gen(i: impl Into<String>, n: u64, e: Term) -> Term {
        Term::Gen(i.into(), n, Box::new(e))
    }

    /// `sum i:n. e`.
    pub fn sum(i: impl Into<String>, n: u64, e: Term) -> Term {
        Term::Sum(i.into(), n, Box::new(e))
    }

    /// `gen I. e` for a list of binders (outermost first).
    pub fn gens(dims: &[(String, u64)], e: Term) -> Term {
        dims.iter()
            .rev()
            .fold(e, |e, (i, n)| Term::gen(i.clone(), *n, e))
    }

    /// `sum J. e` for a list of binders (outermost first).
    pub fn sums(dims: &[(String, u64)], e: Term) -> Term {
        dims.iter()
            .rev()
            .fold(e, |e, (i, n)| Term::sum(i.clone(), *n, e))
    }

    /// `e[a]`.
    pub fn at(e: Term, a: Index) -> Term {
        Term::Access(Box::new(e), a)
    }

    /// `e[i1]…[ik]` at index variables.
    pub fn at_vars<S: AsRef<str>>(e: Term, idx: &[S]) -> Term {
        idx.iter()
            .fold(e, |e, i| Term::at(e, Index::var(i.as_ref())))
    }

    /// `[p] e`.
    pub fn bracket(p: Pred, e: Term) -> Term {
        Term::Bracket(p, Box::new(e))
    }

    /// `let x = e1 in e2`.
    pub fn let_(x: impl Into<String>, e1: Term, e2: Term) -> Term {
        Term::Let(x.into(), Box::new(e1), Box::new(e2))
    }

    /// `#a`, an index constant (E2).
    pub fn index_const(a: Index) -> Term {
        Term::IndexConst(a)
    }

    /// The zero of a type as a term (`0`, `(0, 0)`, `gen i:n. 0`), with index binders
    /// named from `fresh`.
    pub fn zero_of(t: &Ty, fresh: &mut dyn FnMut() -> String) -> Term {
        match t {
            Ty::Num | Ty::Bool | Ty::Int => Term::int(0),
            Ty::Pair(a, b) => Term::pair(Term::zero_of(a, fresh), Term::zero_of(b, fresh)),
            Ty::Arr(n, e) => {
                let i = fresh();
                Term::gen(i, *n, Term::zero_of(e, fresh))
            }
        }
    }
}
