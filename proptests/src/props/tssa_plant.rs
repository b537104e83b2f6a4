//! Planting instances of a rule's left-hand side into a generated TL term, for the
//! per-rule soundness properties of [`super::tssa_passes`]: at random scalar positions
//! (constants and scalar reads `x[a]…`) the scalar `s` is replaced by a small term
//! around `s` that matches the rule (for 5.1: `(let z = s in z) + s`; for 5.21:
//! `(gen j:2. s)[k]`; …). The planted term need not keep the value of the original: the
//! property compares it with itself after the rule.

use adora_core::tl::{Aff, BlackBox, CmpOp, Index, Pred, Rat, Term, Ty, Var};
use adora_rewrites::tssa::egg::types::{soa, type_of};
use rand::Rng;
use std::collections::BTreeMap;

struct Planter<'a, R: Rng> {
    eq: &'a str,
    rng: &'a mut R,
    n: usize,
}

fn bx(t: Term) -> Box<Term> {
    Box::new(t)
}
fn konst(c: i64) -> Index {
    Index::Aff(Aff {
        terms: BTreeMap::new(),
        constant: c,
    })
}
fn ivar(i: &str) -> Index {
    let mut a = Aff::default();
    a.terms.insert(i.to_string(), 1);
    Index::Aff(a)
}
fn num(c: i64) -> Term {
    Term::Const(Rat::from_integer(c.into()))
}
fn pair(a: Term, b: Term) -> Term {
    Term::Pair(bx(a), bx(b))
}
fn proj(k: u8, e: Term) -> Term {
    Term::Proj(k, bx(e))
}
fn at(e: Term, a: Index) -> Term {
    Term::Access(bx(e), a)
}
fn gen(j: &str, n: u64, e: Term) -> Term {
    Term::Gen(j.into(), n, bx(e))
}
fn let_(x: &str, a: Term, b: Term) -> Term {
    Term::Let(x.into(), bx(a), bx(b))
}
fn var(x: &str) -> Term {
    Term::Var(x.into())
}

impl<R: Rng> Planter<'_, R> {
    fn fresh(&mut self, base: &str) -> String {
        self.n += 1;
        format!("planted_{base}{}", self.n)
    }
    /// A closed predicate: true, false or a comparison of constants.
    fn pred(&mut self) -> Pred {
        match self.rng.gen_range(0..4) {
            0 => Pred::True,
            1 => Pred::False,
            _ => {
                let op = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le][self.rng.gen_range(0..4)];
                Pred::Cmp(
                    op,
                    konst(self.rng.gen_range(0..3)),
                    konst(self.rng.gen_range(0..3)),
                )
            }
        }
    }
    /// A predicate over the index variable `j` (range 2).
    fn pred_on(&mut self, j: &str) -> Pred {
        let op = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le][self.rng.gen_range(0..4)];
        Pred::Cmp(op, ivar(j), konst(self.rng.gen_range(0..2)))
    }
    fn instance(&mut self, s: Term) -> Term {
        let z = self.fresh("z");
        let j = self.fresh("j");
        let k = konst(self.rng.gen_range(0..3));
        let lz = |e: Term| let_(&z, e, var(&z));
        match self.eq {
            "5.1" => Term::Add(bx(lz(s.clone())), bx(s)),
            "5.2" => Term::Mul(bx(s.clone()), bx(lz(s))),
            "5.3" => Term::Call(BlackBox::Abs, bx(lz(s))),
            "5.4" => proj(1, pair(s.clone(), lz(s))),
            "5.5" => proj(0, let_(&z, pair(s.clone(), num(1)), var(&z))),
            "5.6" => at(gen(&j, 2, lz(s)), k),
            "5.7" => Term::Sum(j, 2, bx(lz(s))),
            "5.8" => at(let_(&z, gen(&j, 2, s), var(&z)), k),
            "5.9" => Term::Bracket(self.pred(), bx(lz(s))),
            "5.10" => {
                let y = self.fresh("y");
                let_(&y, lz(s), var(&y))
            }
            "5.11" => proj(0, pair(s, num(2))),
            "5.12" => at(proj(1, gen(&j, 2, pair(num(3), s))), k),
            "5.13" => proj(0, at(gen(&j, 2, pair(s.clone(), s)), k)),
            "5.14" => proj(1, Term::Bracket(self.pred(), bx(pair(num(1), s)))),
            "5.15" => proj(0, at(pair(gen(&j, 2, s), gen(&z, 2, num(1))), k)),
            "5.16" => at(proj(0, gen(&j, 2, pair(s, num(1)))), k),
            "5.17" => proj(0, Term::Bracket(self.pred(), bx(pair(s.clone(), s)))),
            "5.18" => let_(&z, gen(&j, 2, pair(s.clone(), s)), at(proj(1, var(&z)), k)),
            "5.19" => let_(&z, pair(s, num(2)), proj(0, var(&z))),
            "5.20" => proj(1, let_(&z, s, pair(var(&z), var(&z)))),
            "5.21" => {
                let q = self.pred_on(&j);
                at(gen(&j, 2, Term::Bracket(q, bx(s))), k)
            }
            "5.22" => at(Term::Bracket(self.pred(), bx(gen(&j, 2, s))), k),
            "5.23" => at(Term::Bracket(self.pred(), bx(gen(&j, 2, s))), k),
            "5.24" => {
                let (p, q) = (self.pred(), self.pred());
                Term::Bracket(p, bx(Term::Bracket(q, bx(s))))
            }
            "5.24a" => let_(&z, gen(&j, 2, s), at(var(&z), k)),
            _ => s,
        }
    }
    fn site(&mut self, t: &Term, env: &BTreeMap<Var, Ty>) -> bool {
        let scalar_read =
            matches!(t, Term::Var(_) | Term::Access(..)) && type_of(t, env) == Some(Ty::Num);
        (matches!(t, Term::Const(_)) || scalar_read) && self.rng.gen_bool(0.5)
    }
    fn walk(&mut self, t: &Term, env: &BTreeMap<Var, Ty>) -> Term {
        if self.site(t, env) {
            return self.instance(t.clone());
        }
        let w = |e: &Term, s: &mut Self| bx(s.walk(e, env));
        match t {
            Term::Var(_) | Term::Const(_) | Term::IndexConst(_) => t.clone(),
            Term::Access(..) => t.clone(),
            Term::Add(a, b) => Term::Add(w(a, self), w(b, self)),
            Term::Mul(a, b) => Term::Mul(w(a, self), w(b, self)),
            Term::Pair(a, b) => Term::Pair(w(a, self), w(b, self)),
            Term::Call(f, e) => Term::Call(*f, w(e, self)),
            Term::Proj(k, e) => Term::Proj(*k, w(e, self)),
            Term::Gen(i, n, e) => Term::Gen(i.clone(), *n, w(e, self)),
            Term::Sum(i, n, e) => Term::Sum(i.clone(), *n, w(e, self)),
            Term::Bracket(p, e) => Term::Bracket(p.clone(), w(e, self)),
            Term::Let(x, a, b) => {
                let a2 = self.walk(a, env);
                let mut env2 = env.clone();
                if let Some(ty) = type_of(a, env) {
                    env2.insert(x.clone(), ty);
                }
                Term::Let(x.clone(), bx(a2), bx(self.walk(b, &env2)))
            }
        }
    }
}

/// `t` with instances of the left-hand side of equation `eq` planted at random scalar
/// positions (at least one: the whole term is wrapped when no position was drawn and it
/// is scalar).
pub fn plant(t: &Term, inputs: &[(Var, Ty)], eq: &str, rng: &mut impl Rng) -> Term {
    let env: BTreeMap<Var, Ty> = inputs.iter().map(|(x, ty)| (x.clone(), soa(ty))).collect();
    let mut p = Planter { eq, rng, n: 0 };
    let out = p.walk(t, &env);
    if p.n == 0 && type_of(t, &env) == Some(Ty::Num) {
        return p.instance(out);
    }
    out
}
