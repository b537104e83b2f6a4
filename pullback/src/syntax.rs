//! Types, function symbols and terms of the pullback calculus (paper §3.1, Figs. 1–2,
//! reconstructed: docs/engines/pullback.md, "Syntax").
//!
//! | construct | concrete syntax | meaning |
//! |---|---|---|
//! | [`TermKind::Var`] | `x` | variable |
//! | [`TermKind::Num`] | `3`, `-1/2`, `0.25` | exact rational constant |
//! | [`TermKind::Fn`] | `add`, `mul`, `pow<3>` … | function symbol `f : Rⁿ -> Rᵐ` ([`FnSym`]) |
//! | [`TermKind::Lam`] | `\x. s`, `\x: R. s` | abstraction |
//! | [`TermKind::App`] | `s t` | application (left-associative) |
//! | [`TermKind::Let`] | `let x = s in t` | `(\x. t) s`, kept as a node: A-normal forms are let series |
//! | [`TermKind::Pair`] | `(s, t)` | pair |
//! | [`TermKind::Proj`] | `s.0`, `s.1` | projections |
//! | [`TermKind::Jac`] | `J(s, t)` | the Jacobian of `s` along `t`: `λx. J⟦s⟧(x)·⟦t⟧` |
//! | [`TermKind::Dual`] | `dual(s, t)` | the dual map of the functional `t` along `s`: `⟦t⟧ ∘ ⟦s⟧` |
//! | [`TermKind::Pb`] | `pb(s, t)` | the pullback of the 1-form `t` along `s` |
//! | [`TermKind::Zero`] | `0` at a non-real type, the empty sum | zero of any type |
//! | [`TermKind::Sum`] | `s + t + …` | a pullback term: a finite sum (two or more summands) |
//!
//! A numeral `0` parses as `Num(0)`; the typed zero of the grammar `P ::= 0 | s + P` is
//! [`TermKind::Zero`]. Sums are flat lists (`+` is associative and commutative with unit `0`,
//! paper §3.1); [`Term::sum`] builds them canonically (flattened, zeros dropped).
//!
//! Variables carry a name and an id: the parser gives every binder a fresh id and resolves
//! occurrences to it, so distinct binders never share a [`Var`]; free variables have id 0.
//! [`Fresh`] supplies new ids for the reducer's fresh variables.

use adora_core::diag::Span;
use adora_semantics::Rat;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

/// A variable: the name as written (or a base name for fresh variables) and a unique id.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var {
    /// The name as written in the source (or the base of a fresh name).
    pub name: Arc<str>,
    /// 0 for free variables as written; a unique positive id for every binder.
    pub id: u32,
}

impl Var {
    /// A variable with the given name and id.
    pub fn new(name: &str, id: u32) -> Var {
        Var {
            name: Arc::from(name),
            id,
        }
    }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// A supply of fresh variable ids (above every id already in use).
#[derive(Clone, Debug)]
pub struct Fresh {
    next: u32,
}

impl Fresh {
    /// A supply whose ids are all greater than every id in `t`.
    pub fn above(t: &Term) -> Fresh {
        let mut max = 0;
        t.for_each_var(&mut |v| max = max.max(v.id));
        Fresh { next: max + 1 }
    }
    /// A supply starting at `next`.
    pub fn starting_at(next: u32) -> Fresh {
        Fresh { next: next.max(1) }
    }
    /// A new variable named `base` with an id never handed out before by this supply.
    pub fn var(&mut self, base: &str) -> Var {
        let id = self.next;
        self.next += 1;
        Var::new(base, id)
    }
}

/// Types: `σ, τ ::= R | (σ, τ) | σ -> τ | dual σ` (paper Fig. 2, reconstructed).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// The reals (exact rationals in Adora).
    Real,
    /// Pairs `(σ, τ)`.
    Pair(Box<Ty>, Box<Ty>),
    /// Functions `σ -> τ`.
    Fun(Box<Ty>, Box<Ty>),
    /// Linear functionals on `σ` (`dual σ`, convertible to `σ -> R`).
    Dual(Box<Ty>),
}

impl Ty {
    /// `Rⁿ` as right-nested pairs: `R`, `(R, R)`, `(R, (R, R))`, … (`n ≥ 1`).
    pub fn reals(n: usize) -> Ty {
        assert!(n >= 1, "Ty::reals needs at least one component");
        if n == 1 {
            Ty::Real
        } else {
            Ty::Pair(Box::new(Ty::Real), Box::new(Ty::reals(n - 1)))
        }
    }
    /// `σ -> τ`.
    pub fn fun(a: Ty, b: Ty) -> Ty {
        Ty::Fun(Box::new(a), Box::new(b))
    }
    /// `(σ, τ)`.
    pub fn pair(a: Ty, b: Ty) -> Ty {
        Ty::Pair(Box::new(a), Box::new(b))
    }
    /// Whether the type is first order: `R` or nested pairs of `R`.
    pub fn is_first_order(&self) -> bool {
        match self {
            Ty::Real => true,
            Ty::Pair(a, b) => a.is_first_order() && b.is_first_order(),
            _ => false,
        }
    }
}

/// Comparison operators of the comparison and selection symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl Cmp {
    /// Whether `a ⋈ b` holds.
    pub fn holds<T: PartialOrd>(self, a: &T, b: &T) -> bool {
        match self {
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
        }
    }
}

impl Cmp {
    /// The suffix naming the operator in symbol names (`lt`, `le`, …).
    pub fn suffix(self) -> &'static str {
        match self {
            Cmp::Lt => "lt",
            Cmp::Le => "le",
            Cmp::Gt => "gt",
            Cmp::Ge => "ge",
            Cmp::Eq => "eq",
            Cmp::Ne => "ne",
        }
    }
    /// All operators, in a fixed order.
    pub const ALL: [Cmp; 6] = [Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge, Cmp::Eq, Cmp::Ne];
}

/// Function symbols `f ∈ F`, "easily differentiable" functions `Rⁿ -> R` (paper §3.1;
/// the set and the Jacobians, which follow the core language's derivative conventions, are
/// our decision: docs/engines/pullback.md, "Function symbols"). An `n`-ary symbol takes
/// one argument of type `Rⁿ` (right-nested pairs): `mul (a, b)`, `sel_lt (c1, (c2, (a, b)))`.
/// Integer and boolean operations of the core language act on reals holding integers or
/// 0/1 and have Jacobian 0 ("derivatives are taken with respect to real inputs only").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FnSym {
    /// `add (a, b)`
    Add,
    /// `sub (a, b)`
    Sub,
    /// `mul (a, b)`
    Mul,
    /// `div (a, b)`, total: `a / 0 = 0` (docs/language.md).
    Div,
    /// `neg a`
    Neg,
    /// `pow<k> a`, integer exponent `k` (negative: `1 / a^|k|`, total).
    Pow(i64),
    /// `abs a` (`abs'(0) = 0`).
    Abs,
    /// `min (a, b)` (ties pick `a`).
    Min,
    /// `max (a, b)` (ties pick `a`).
    Max,
    /// `exp a` (not rational: f64 only).
    Exp,
    /// `log a` (not rational).
    Log,
    /// `sin a` (not rational).
    Sin,
    /// `cos a` (not rational).
    Cos,
    /// `tanh a` (not rational).
    Tanh,
    /// `sqrt a` (not rational).
    Sqrt,
    /// `floor a` (Jacobian 0).
    Floor,
    /// `zdiv (a, b)`: floor division of integers, `a zdiv 0 = 0` (Jacobian 0).
    ZDiv,
    /// `zmod (a, b)`: remainder of floor division, `a zmod 0 = a` (Jacobian 0).
    ZMod,
    /// `lt (a, b)` … `ne (a, b)`: 1 or 0 (Jacobian 0).
    Cmp(Cmp),
    /// `sel_lt (c1, (c2, (a, b)))`: `a` if `c1 < c2` else `b`.
    Sel(Cmp),
    /// `and (a, b)` on 0/1 (Jacobian 0).
    And,
    /// `or (a, b)` on 0/1 (Jacobian 0).
    Or,
    /// `not a` on 0/1 (Jacobian 0).
    Not,
}

impl FnSym {
    /// The number of real arguments (`n` of `Rⁿ -> R`).
    pub fn arity(self) -> usize {
        match self {
            FnSym::Neg
            | FnSym::Pow(_)
            | FnSym::Abs
            | FnSym::Exp
            | FnSym::Log
            | FnSym::Sin
            | FnSym::Cos
            | FnSym::Tanh
            | FnSym::Sqrt
            | FnSym::Floor
            | FnSym::Not => 1,
            FnSym::Sel(_) => 4,
            _ => 2,
        }
    }
    /// The symbol's type `Rⁿ -> R`.
    pub fn ty(self) -> Ty {
        Ty::fun(Ty::reals(self.arity()), Ty::Real)
    }
    /// The name in the concrete syntax (`pow<3>`, `sel_le`, …).
    pub fn name(self) -> String {
        let s = match self {
            FnSym::Add => "add",
            FnSym::Sub => "sub",
            FnSym::Mul => "mul",
            FnSym::Div => "div",
            FnSym::Neg => "neg",
            FnSym::Pow(k) => return format!("pow<{k}>"),
            FnSym::Abs => "abs",
            FnSym::Min => "min",
            FnSym::Max => "max",
            FnSym::Exp => "exp",
            FnSym::Log => "log",
            FnSym::Sin => "sin",
            FnSym::Cos => "cos",
            FnSym::Tanh => "tanh",
            FnSym::Sqrt => "sqrt",
            FnSym::Floor => "floor",
            FnSym::ZDiv => "zdiv",
            FnSym::ZMod => "zmod",
            FnSym::Cmp(c) => c.suffix(),
            FnSym::Sel(c) => return format!("sel_{}", c.suffix()),
            FnSym::And => "and",
            FnSym::Or => "or",
            FnSym::Not => "not",
        };
        s.to_string()
    }
    /// The symbol a name denotes (`pow<k>` is parsed by the parser, which passes `k`
    /// separately; this looks up every other name).
    pub fn from_name(name: &str) -> Option<FnSym> {
        let simple = [
            FnSym::Add,
            FnSym::Sub,
            FnSym::Mul,
            FnSym::Div,
            FnSym::Neg,
            FnSym::Abs,
            FnSym::Min,
            FnSym::Max,
            FnSym::Exp,
            FnSym::Log,
            FnSym::Sin,
            FnSym::Cos,
            FnSym::Tanh,
            FnSym::Sqrt,
            FnSym::Floor,
            FnSym::ZDiv,
            FnSym::ZMod,
            FnSym::And,
            FnSym::Or,
            FnSym::Not,
        ];
        let cmps = Cmp::ALL
            .iter()
            .flat_map(|&c| [FnSym::Cmp(c), FnSym::Sel(c)]);
        simple.into_iter().chain(cmps).find(|f| f.name() == name)
    }
    /// Whether the symbol is one of the non-rational functions (`exp`, `log`, `sin`, `cos`,
    /// `tanh`, `sqrt`), which exact evaluation refuses.
    pub fn is_transcendental(self) -> bool {
        matches!(
            self,
            FnSym::Exp | FnSym::Log | FnSym::Sin | FnSym::Cos | FnSym::Tanh | FnSym::Sqrt
        )
    }
}

/// A term with its source span ([`Span::DUMMY`] for terms the reducer builds).
#[derive(Clone, Debug)]
pub struct Term {
    /// What the term is.
    pub kind: TermKind,
    /// Where it came from.
    pub span: Span,
}

/// The term constructors (see the module table). Sums have at least two summands.
#[derive(Clone, Debug)]
pub enum TermKind {
    /// A variable.
    Var(Var),
    /// An exact rational constant.
    Num(Rat),
    /// A function symbol.
    Fn(FnSym),
    /// `\x. s` or `\x: σ. s`.
    Lam(Var, Option<Ty>, Box<Term>),
    /// `s t`.
    App(Box<Term>, Box<Term>),
    /// `let x = s in t` (binds `x` in `t` only).
    Let(Var, Box<Term>, Box<Term>),
    /// `(s, t)`.
    Pair(Box<Term>, Box<Term>),
    /// `s.0` (`false`) or `s.1` (`true`).
    Proj(Box<Term>, bool),
    /// `J(s, t)`.
    Jac(Box<Term>, Box<Term>),
    /// `dual(s, t)`.
    Dual(Box<Term>, Box<Term>),
    /// `pb(s, t)`.
    Pb(Box<Term>, Box<Term>),
    /// The zero of any type (the empty pullback term).
    Zero,
    /// `s1 + s2 + …` (at least two summands, none of them a sum or [`TermKind::Zero`]).
    Sum(Vec<Term>),
}

impl Term {
    /// A term without source position.
    pub fn new(kind: TermKind) -> Term {
        Term {
            kind,
            span: Span::DUMMY,
        }
    }
    /// The term with the given span.
    pub fn at(mut self, span: Span) -> Term {
        self.span = span;
        self
    }
    /// A variable.
    pub fn var(v: &Var) -> Term {
        Term::new(TermKind::Var(v.clone()))
    }
    /// A constant.
    pub fn num(r: Rat) -> Term {
        Term::new(TermKind::Num(r))
    }
    /// An integer constant.
    pub fn int(n: i64) -> Term {
        Term::num(Rat::from_integer(n.into()))
    }
    /// A function symbol.
    pub fn sym(f: FnSym) -> Term {
        Term::new(TermKind::Fn(f))
    }
    /// `\x. body`.
    pub fn lam(x: &Var, body: Term) -> Term {
        Term::new(TermKind::Lam(x.clone(), None, Box::new(body)))
    }
    /// `f a`.
    pub fn app(f: Term, a: Term) -> Term {
        Term::new(TermKind::App(Box::new(f), Box::new(a)))
    }
    /// `let x = s in t`.
    pub fn let_(x: &Var, s: Term, t: Term) -> Term {
        Term::new(TermKind::Let(x.clone(), Box::new(s), Box::new(t)))
    }
    /// `(a, b)`.
    pub fn pair(a: Term, b: Term) -> Term {
        Term::new(TermKind::Pair(Box::new(a), Box::new(b)))
    }
    /// `s.0` (`second == false`) or `s.1`.
    pub fn proj(s: Term, second: bool) -> Term {
        Term::new(TermKind::Proj(Box::new(s), second))
    }
    /// `J(s, t)`.
    pub fn jac(s: Term, t: Term) -> Term {
        Term::new(TermKind::Jac(Box::new(s), Box::new(t)))
    }
    /// `dual(s, t)`.
    pub fn dual(s: Term, t: Term) -> Term {
        Term::new(TermKind::Dual(Box::new(s), Box::new(t)))
    }
    /// `pb(s, t)`.
    pub fn pb(s: Term, t: Term) -> Term {
        Term::new(TermKind::Pb(Box::new(s), Box::new(t)))
    }
    /// The zero.
    pub fn zero() -> Term {
        Term::new(TermKind::Zero)
    }
    /// The canonical sum of `items`: nested sums flattened, zeros dropped; no summand left
    /// gives [`TermKind::Zero`], one gives that summand.
    pub fn sum(items: impl IntoIterator<Item = Term>) -> Term {
        fn push(out: &mut Vec<Term>, t: Term) {
            match t.kind {
                TermKind::Zero => {}
                TermKind::Sum(ts) => ts.into_iter().for_each(|s| push(out, s)),
                _ => out.push(t),
            }
        }
        let mut out = Vec::new();
        for t in items {
            push(&mut out, t);
        }
        match out.len() {
            0 => Term::zero(),
            1 => out.pop().expect("one summand"),
            _ => Term::new(TermKind::Sum(out)),
        }
    }
    /// The 1-form `omega := \y. \w. w` of a real-valued function (paper §3.3: reverse mode
    /// on `t` at `s` is `pb(\x. t, omega) s`), with binder ids from `fresh`.
    pub fn omega(fresh: &mut Fresh) -> Term {
        let y = fresh.var("y");
        let w = fresh.var("w");
        Term::lam(&y, Term::lam(&w, Term::var(&w)))
    }

    /// Calls `f` on every variable occurrence and binder in the term.
    pub fn for_each_var(&self, f: &mut impl FnMut(&Var)) {
        match &self.kind {
            TermKind::Var(v) => f(v),
            TermKind::Num(_) | TermKind::Fn(_) | TermKind::Zero => {}
            TermKind::Lam(x, _, b) => {
                f(x);
                b.for_each_var(f);
            }
            TermKind::Let(x, s, t) => {
                f(x);
                s.for_each_var(f);
                t.for_each_var(f);
            }
            TermKind::App(a, b)
            | TermKind::Pair(a, b)
            | TermKind::Jac(a, b)
            | TermKind::Dual(a, b)
            | TermKind::Pb(a, b) => {
                a.for_each_var(f);
                b.for_each_var(f);
            }
            TermKind::Proj(s, _) => s.for_each_var(f),
            TermKind::Sum(ts) => ts.iter().for_each(|t| t.for_each_var(f)),
        }
    }

    /// The free variables.
    pub fn free_vars(&self) -> BTreeSet<Var> {
        let mut out = BTreeSet::new();
        self.collect_free(&mut Vec::new(), &mut out);
        out
    }

    fn collect_free(&self, bound: &mut Vec<Var>, out: &mut BTreeSet<Var>) {
        match &self.kind {
            TermKind::Var(v) => {
                if !bound.contains(v) {
                    out.insert(v.clone());
                }
            }
            TermKind::Num(_) | TermKind::Fn(_) | TermKind::Zero => {}
            TermKind::Lam(x, _, b) => {
                bound.push(x.clone());
                b.collect_free(bound, out);
                bound.pop();
            }
            TermKind::Let(x, s, t) => {
                s.collect_free(bound, out);
                bound.push(x.clone());
                t.collect_free(bound, out);
                bound.pop();
            }
            TermKind::App(a, b)
            | TermKind::Pair(a, b)
            | TermKind::Jac(a, b)
            | TermKind::Dual(a, b)
            | TermKind::Pb(a, b) => {
                a.collect_free(bound, out);
                b.collect_free(bound, out);
            }
            TermKind::Proj(s, _) => s.collect_free(bound, out),
            TermKind::Sum(ts) => ts.iter().for_each(|t| t.collect_free(bound, out)),
        }
    }

    /// Whether `x` occurs free.
    pub fn has_free(&self, x: &Var) -> bool {
        self.free_vars().contains(x)
    }

    /// The number of nodes (the size measure of step-count bounds).
    pub fn size(&self) -> usize {
        1 + match &self.kind {
            TermKind::Var(_) | TermKind::Num(_) | TermKind::Fn(_) | TermKind::Zero => 0,
            TermKind::Lam(_, _, b) | TermKind::Proj(b, _) => b.size(),
            TermKind::Let(_, a, b)
            | TermKind::App(a, b)
            | TermKind::Pair(a, b)
            | TermKind::Jac(a, b)
            | TermKind::Dual(a, b)
            | TermKind::Pb(a, b) => a.size() + b.size(),
            TermKind::Sum(ts) => ts.iter().map(Term::size).sum(),
        }
    }

    /// α-equivalence (bound names and ids do not matter, free variables must be equal,
    /// sums compare summand by summand in order, spans and type annotations are ignored).
    pub fn alpha_eq(&self, other: &Term) -> bool {
        alpha(self, other, &mut Vec::new())
    }
}

/// α-equivalence under a stack of binder pairs (innermost last).
fn alpha(a: &Term, b: &Term, env: &mut Vec<(Var, Var)>) -> bool {
    use TermKind as K;
    match (&a.kind, &b.kind) {
        (K::Var(x), K::Var(y)) => {
            for (p, q) in env.iter().rev() {
                if p == x || q == y {
                    return p == x && q == y;
                }
            }
            x == y
        }
        (K::Num(p), K::Num(q)) => p == q,
        (K::Fn(f), K::Fn(g)) => f == g,
        (K::Zero, K::Zero) => true,
        (K::Lam(x, _, s), K::Lam(y, _, t)) => {
            env.push((x.clone(), y.clone()));
            let r = alpha(s, t, env);
            env.pop();
            r
        }
        (K::Let(x, s1, t1), K::Let(y, s2, t2)) => {
            if !alpha(s1, s2, env) {
                return false;
            }
            env.push((x.clone(), y.clone()));
            let r = alpha(t1, t2, env);
            env.pop();
            r
        }
        (K::App(a1, b1), K::App(a2, b2))
        | (K::Pair(a1, b1), K::Pair(a2, b2))
        | (K::Jac(a1, b1), K::Jac(a2, b2))
        | (K::Dual(a1, b1), K::Dual(a2, b2))
        | (K::Pb(a1, b1), K::Pb(a2, b2)) => alpha(a1, a2, env) && alpha(b1, b2, env),
        (K::Proj(s, i), K::Proj(t, j)) => i == j && alpha(s, t, env),
        (K::Sum(xs), K::Sum(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(s, t)| alpha(s, t, env))
        }
        _ => false,
    }
}
