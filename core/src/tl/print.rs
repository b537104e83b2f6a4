//! The concrete syntax of the tensor language and of Tensor-SSA (docs/engines/tssa-language.md,
//! "Concrete syntax"): `Display` for terms, predicates, index expressions, types and
//! programs. [`super::parse`] reads every printed form back to the same tree.
//!
//! Precedence, loosest first: binders `gen i:n. e`, `sum i:n. e`, `let x = e in e`
//! (extending as far right as possible); `+`; `*` (both left-associative); the prefix
//! Iverson bracket `[p] e` (so `[p] a + [q] b` is a sum of two bracketed terms); postfix
//! access `e[a]` and projection `e.0`; atoms. Predicates: `exists`, `||`, `&&`, `!`,
//! comparisons `a == b`, relation reads `R(a, …)`, data comparisons `{x[i] <= 0}`.

use super::ast::{Aff, BlackBox, CmpOp, DataRef, IExpr, Index, PathStep, Pred, Rat, Term, Ty};
use super::ssa::{Access, ConstVal, Rhs, SsaOut, SsaProgram};
use std::fmt::{self, Display, Formatter, Write};

impl BlackBox {
    /// The black box's name in the concrete syntax (`pow` and `dpow` take the exponent
    /// as a second argument: `pow(e, 2)`).
    pub fn name(self) -> &'static str {
        match self {
            BlackBox::Exp => "exp",
            BlackBox::Log => "log",
            BlackBox::Sin => "sin",
            BlackBox::Cos => "cos",
            BlackBox::Tanh => "tanh",
            BlackBox::Sqrt => "sqrt",
            BlackBox::Abs => "abs",
            BlackBox::Recip => "recip",
            BlackBox::Pow(_) => "pow",
            BlackBox::NegSin => "neg_sin",
            BlackBox::DTanh => "dtanh",
            BlackBox::DSqrt => "dsqrt",
            BlackBox::Sign => "sign",
            BlackBox::DPow(_) => "dpow",
        }
    }

    /// The black box of a name (`exponent` for `pow` and `dpow`).
    pub fn from_name(name: &str, exponent: Option<i64>) -> Option<BlackBox> {
        Some(match (name, exponent) {
            ("exp", None) => BlackBox::Exp,
            ("log", None) => BlackBox::Log,
            ("sin", None) => BlackBox::Sin,
            ("cos", None) => BlackBox::Cos,
            ("tanh", None) => BlackBox::Tanh,
            ("sqrt", None) => BlackBox::Sqrt,
            ("abs", None) => BlackBox::Abs,
            ("recip", None) => BlackBox::Recip,
            ("pow", Some(k)) => BlackBox::Pow(k),
            ("neg_sin", None) => BlackBox::NegSin,
            ("dtanh", None) => BlackBox::DTanh,
            ("dsqrt", None) => BlackBox::DSqrt,
            ("sign", None) => BlackBox::Sign,
            ("dpow", Some(k)) => BlackBox::DPow(k),
            _ => return None,
        })
    }

    /// The exponent argument of `pow` and `dpow`.
    pub fn exponent(self) -> Option<i64> {
        match self {
            BlackBox::Pow(k) | BlackBox::DPow(k) => Some(k),
            _ => None,
        }
    }
}

/// A rational constant: `3`, `-2`, `1/2`, `-1/3`.
pub fn rat_text(r: &Rat) -> String {
    if r.is_integer() {
        r.numer().to_string()
    } else {
        format!("{}/{}", r.numer(), r.denom())
    }
}

impl Display for Ty {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Num => f.write_str("num"),
            Ty::Bool => f.write_str("bool"),
            Ty::Int => f.write_str("int"),
            Ty::Pair(a, b) => write!(f, "({a}, {b})"),
            Ty::Arr(n, e) => write!(f, "[{n}]{e}"),
        }
    }
}

impl Display for CmpOp {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
        })
    }
}

impl Display for Aff {
    /// `i + 2*j - 1`, `0`, `-k`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (v, c) in &self.terms {
            match (first, *c) {
                (true, 1) => write!(f, "{v}")?,
                (true, -1) => write!(f, "-{v}")?,
                (true, c) => write!(f, "{c}*{v}")?,
                (false, 1) => write!(f, " + {v}")?,
                (false, -1) => write!(f, " - {v}")?,
                (false, c) if c < 0 => write!(f, " - {}*{v}", -(c as i128))?,
                (false, c) => write!(f, " + {c}*{v}")?,
            }
            first = false;
        }
        match (first, self.constant) {
            (true, c) => write!(f, "{c}"),
            (false, 0) => Ok(()),
            (false, c) if c < 0 => write!(f, " - {}", -(c as i128)),
            (false, c) => write!(f, " + {c}"),
        }
    }
}

/// Precedence of integer expressions: 0 sums, 1 products, 2 prefix `-`, 3 atoms.
fn iexpr_prec(e: &IExpr) -> u8 {
    match e {
        IExpr::Add(..) => 0,
        IExpr::Mul(..) | IExpr::Div(..) | IExpr::Mod(..) => 1,
        IExpr::Neg(_) => 2,
        IExpr::Const(c) if *c < 0 => 2,
        _ => 3,
    }
}

fn write_iexpr(f: &mut Formatter<'_>, e: &IExpr, min: u8) -> fmt::Result {
    if iexpr_prec(e) < min {
        f.write_char('(')?;
        write_iexpr(f, e, 0)?;
        return f.write_char(')');
    }
    match e {
        IExpr::Var(i) => f.write_str(i),
        IExpr::Const(c) => write!(f, "{c}"),
        IExpr::Add(a, b) => {
            write_iexpr(f, a, 0)?;
            f.write_str(" + ")?;
            write_iexpr(f, b, 1)
        }
        IExpr::Mul(a, b) | IExpr::Div(a, b) | IExpr::Mod(a, b) => {
            let op = match e {
                IExpr::Mul(..) => " * ",
                IExpr::Div(..) => " / ",
                _ => " % ",
            };
            write_iexpr(f, a, 1)?;
            f.write_str(op)?;
            write_iexpr(f, b, 2)
        }
        IExpr::Neg(a) => {
            f.write_char('-')?;
            // `-3` would read back as a constant: parenthesise literal operands.
            let min = if matches!(**a, IExpr::Const(_)) { 4 } else { 2 };
            write_iexpr(f, a, min)
        }
        IExpr::Min(a, b) | IExpr::Max(a, b) => {
            let name = if matches!(e, IExpr::Min(..)) {
                "min"
            } else {
                "max"
            };
            write!(f, "{name}(")?;
            write_iexpr(f, a, 0)?;
            f.write_str(", ")?;
            write_iexpr(f, b, 0)?;
            f.write_char(')')
        }
        IExpr::Abs(a) => {
            f.write_str("abs(")?;
            write_iexpr(f, a, 0)?;
            f.write_char(')')
        }
        IExpr::Read(x, idx) => {
            f.write_str(x)?;
            if idx.is_empty() {
                return f.write_str("[]");
            }
            idx.iter().try_for_each(|a| write!(f, "[{a}]"))
        }
        IExpr::Floor(d) => write!(f, "floor({d})"),
        IExpr::Cond(p, a, b) => {
            write!(f, "cond({p}, ")?;
            write_iexpr(f, a, 0)?;
            f.write_str(", ")?;
            write_iexpr(f, b, 0)?;
            f.write_char(')')
        }
    }
}

impl Display for IExpr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_iexpr(f, self, 0)
    }
}

impl Display for Index {
    /// Affine forms as `i + 1`; an opaque expression that happens to be affine is
    /// marked `opaque(…)` so that it reads back opaque.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Index::Aff(a) => write!(f, "{a}"),
            Index::Opaque(e) if e.to_aff().is_some() => write!(f, "opaque({e})"),
            Index::Opaque(e) => write!(f, "{e}"),
        }
    }
}

impl Display for DataRef {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            DataRef::Const(r) => f.write_str(&rat_text(r)),
            DataRef::Read(x, path) => {
                f.write_str(x)?;
                path.iter().try_for_each(|s| match s {
                    PathStep::Proj(k) => write!(f, ".{k}"),
                    PathStep::At(a) => write!(f, "[{a}]"),
                })
            }
        }
    }
}

/// Precedence of predicates: 0 `exists`, 1 `||`, 2 `&&`, 3 `!`, 4 atoms.
fn pred_prec(p: &Pred) -> u8 {
    match p {
        Pred::Exists(..) => 0,
        Pred::Or(..) => 1,
        Pred::And(..) => 2,
        Pred::Not(_) => 3,
        _ => 4,
    }
}

fn write_pred(f: &mut Formatter<'_>, p: &Pred, min: u8) -> fmt::Result {
    if pred_prec(p) < min {
        f.write_char('(')?;
        write_pred(f, p, 0)?;
        return f.write_char(')');
    }
    match p {
        Pred::True => f.write_str("true"),
        Pred::False => f.write_str("false"),
        Pred::Cmp(op, a, b) => write!(f, "{a} {op} {b}"),
        Pred::Rel(x, idx) => {
            write!(f, "{x}(")?;
            for (k, a) in idx.iter().enumerate() {
                if k > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{a}")?;
            }
            f.write_char(')')
        }
        Pred::Data(op, a, b) => write!(f, "{{{a} {op} {b}}}"),
        Pred::Or(a, b) => {
            write_pred(f, a, 1)?;
            f.write_str(" || ")?;
            write_pred(f, b, 2)
        }
        Pred::And(a, b) => {
            write_pred(f, a, 2)?;
            f.write_str(" && ")?;
            write_pred(f, b, 3)
        }
        Pred::Not(a) => {
            f.write_char('!')?;
            write_pred(f, a, 4)
        }
        Pred::Exists(i, n, q) => {
            write!(f, "exists {i}:{n}. ")?;
            write_pred(f, q, 0)
        }
    }
}

impl Display for Pred {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_pred(f, self, 0)
    }
}

/// Precedence of terms: 0 binders, 1 `+`, 2 `*`, 3 prefix (`[p] e`, negative
/// constants), 4 postfix (access, projection), 5 atoms.
fn term_prec(t: &Term) -> u8 {
    match t {
        Term::Gen(..) | Term::Sum(..) | Term::Let(..) => 0,
        Term::Add(..) => 1,
        Term::Mul(..) => 2,
        Term::Bracket(..) => 3,
        Term::Const(c) if c < &Rat::from_integer(0.into()) => 3,
        Term::Access(..) | Term::Proj(..) => 4,
        _ => 5,
    }
}

fn write_term(f: &mut Formatter<'_>, t: &Term, min: u8) -> fmt::Result {
    if term_prec(t) < min {
        f.write_char('(')?;
        write_term(f, t, 0)?;
        return f.write_char(')');
    }
    match t {
        Term::Var(x) => f.write_str(x),
        Term::Const(c) => f.write_str(&rat_text(c)),
        Term::IndexConst(a) => match a {
            Index::Aff(x) if x.as_var().is_some() || x.terms.is_empty() && x.constant >= 0 => {
                write!(f, "#{a}")
            }
            _ => write!(f, "#({a})"),
        },
        Term::Add(a, b) => {
            write_term(f, a, 1)?;
            f.write_str(" + ")?;
            write_term(f, b, 2)
        }
        Term::Mul(a, b) => {
            write_term(f, a, 2)?;
            f.write_str(" * ")?;
            write_term(f, b, 3)
        }
        Term::Call(g, e) => {
            write!(f, "{}(", g.name())?;
            write_term(f, e, 0)?;
            match g.exponent() {
                Some(k) => write!(f, ", {k})"),
                None => f.write_char(')'),
            }
        }
        Term::Pair(a, b) => {
            f.write_char('(')?;
            write_term(f, a, 0)?;
            f.write_str(", ")?;
            write_term(f, b, 0)?;
            f.write_char(')')
        }
        Term::Proj(k, e) => {
            write_term(f, e, 4)?;
            write!(f, ".{k}")
        }
        Term::Access(e, a) => {
            write_term(f, e, 4)?;
            write!(f, "[{a}]")
        }
        Term::Bracket(p, e) => {
            write!(f, "[{p}] ")?;
            write_term(f, e, 3)
        }
        Term::Gen(i, n, e) | Term::Sum(i, n, e) => {
            let kw = if matches!(t, Term::Gen(..)) {
                "gen"
            } else {
                "sum"
            };
            write!(f, "{kw} {i}:{n}. ")?;
            write_term(f, e, 0)
        }
        Term::Let(x, e1, e2) => {
            write!(f, "let {x} = ")?;
            write_term(f, e1, 0)?;
            f.write_str(" in ")?;
            write_term(f, e2, 0)
        }
    }
}

impl Display for Term {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_term(f, self, 0)
    }
}

fn write_dims(f: &mut Formatter<'_>, kw: &str, dims: &[(String, u64)]) -> fmt::Result {
    if dims.is_empty() {
        return Ok(());
    }
    write!(f, "{kw} (")?;
    for (k, (i, n)) in dims.iter().enumerate() {
        if k > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{i}:{n}")?;
    }
    f.write_str("). ")
}

fn write_bracket(f: &mut Formatter<'_>, p: &Pred) -> fmt::Result {
    if *p == Pred::True {
        Ok(())
    } else {
        write!(f, "[{p}] ")
    }
}

impl Display for Access {
    /// `y[i, j]`, or `y` for a scalar.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&self.var)?;
        if !self.idx.is_empty() {
            write!(f, "[{}]", self.idx.join(", "))?;
        }
        Ok(())
    }
}

fn dims_access(y: &str, dims: &[(String, u64)]) -> Access {
    Access {
        var: y.to_string(),
        idx: dims.iter().map(|(i, _)| i.clone()).collect(),
    }
}

impl Display for Rhs {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Rhs::Input { input, path } => {
                f.write_str(input)?;
                path.iter().try_for_each(|k| write!(f, ".{k}"))
            }
            Rhs::Const { dims, pred, value } => {
                write_dims(f, "gen", dims)?;
                write_bracket(f, pred)?;
                match value {
                    ConstVal::Num(c) => write_term(f, &Term::Const(c.clone()), 3),
                    ConstVal::Index(a) => write_term(f, &Term::IndexConst(a.clone()), 3),
                }
            }
            Rhs::Add { dims, p, y, q, z } => {
                write_dims(f, "gen", dims)?;
                write_bracket(f, p)?;
                write!(f, "{} + ", dims_access(y, dims))?;
                write_bracket(f, q)?;
                write!(f, "{}", dims_access(z, dims))
            }
            Rhs::Map {
                dims,
                pred,
                f: g,
                y,
            } => {
                write_dims(f, "gen", dims)?;
                write_bracket(f, pred)?;
                write!(f, "{}({}", g.name(), dims_access(y, dims))?;
                match g.exponent() {
                    Some(k) => write!(f, ", {k})"),
                    None => f.write_char(')'),
                }
            }
            Rhs::Contract {
                dims,
                sums,
                pred,
                y,
                z,
            } => {
                write_dims(f, "gen", dims)?;
                write_dims(f, "sum", sums)?;
                write_bracket(f, pred)?;
                write!(f, "{y}")?;
                match z {
                    Some(z) => write!(f, " * {z}"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl Display for SsaOut {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            SsaOut::Var(x) => f.write_str(x),
            SsaOut::Pair(a, b) => write!(f, "({a}, {b})"),
        }
    }
}

impl Display for SsaProgram {
    /// One line per input (`input x: [3]num`), per statement (`let y: [3]num = …`), and
    /// the output (`return y`).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for (x, t) in &self.inputs {
            writeln!(f, "input {x}: {t}")?;
        }
        for s in &self.stmts {
            writeln!(f, "let {}: {} = {}", s.var, s.ty, s.rhs)?;
        }
        write!(f, "return {}", self.output)
    }
}
