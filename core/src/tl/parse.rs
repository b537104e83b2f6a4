//! A parser for the tensor language's concrete syntax, the one [`super::print`] writes
//! (docs/engines/tssa-language.md, "Concrete syntax"): terms, predicates, index
//! expressions and types. Errors are `ErrorKind::Syntax` diagnostics at the offending
//! token. Tensor-SSA programs are read by [`super::parse_ssa`].

use super::ast::{BlackBox, CmpOp, DataRef, IExpr, Index, PathStep, Pred, Rat, Term, Ty};
use super::lex::{lex, Tok};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// Parses a whole term.
pub fn parse_term(src: &str) -> Result<Term> {
    let mut p = Parser::new(src)?;
    let t = p.term()?;
    p.end()?;
    Ok(t)
}

/// Parses a whole predicate.
pub fn parse_pred(src: &str) -> Result<Pred> {
    let mut p = Parser::new(src)?;
    let q = p.pred()?;
    p.end()?;
    Ok(q)
}

/// Parses a whole type.
pub fn parse_ty(src: &str) -> Result<Ty> {
    let mut p = Parser::new(src)?;
    let t = p.ty()?;
    p.end()?;
    Ok(t)
}

/// Deepest syntactic nesting the tensor-language parser accepts (each parenthesis,
/// bracket, binder and operator level counts); deeper input is a syntax error, never a
/// stack overflow of the recursive passes that would read it.
pub const MAX_NESTING: usize = 256;

const KEYWORDS: [&str; 10] = [
    "gen", "sum", "let", "in", "true", "false", "exists", "input", "return", "opaque",
];

/// A recursive-descent parser over the tokens of one source text.
pub struct Parser {
    toks: Vec<(Tok, Span)>,
    pos: usize,
    depth: usize,
}

impl Parser {
    /// A parser at the start of `src`.
    pub fn new(src: &str) -> Result<Parser> {
        Ok(Parser {
            toks: lex(src)?,
            pos: 0,
            depth: 0,
        })
    }

    fn peek(&self) -> &Tok {
        &self.toks[self.pos].0
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].0
    }

    fn span(&self) -> Span {
        self.toks[self.pos].1
    }

    fn bump(&mut self) -> Tok {
        let t = self.toks[self.pos].0.clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    /// An error at the current token.
    pub fn error(&self, what: &str) -> Diagnostic {
        Diagnostic::new(
            ErrorKind::Syntax,
            self.span(),
            format!("expected {what}, found {}", self.peek()),
        )
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(t) if *t == s)
    }

    fn is_kw(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Ident(t) if t == k)
    }

    fn eat_sym(&mut self, s: &str) -> bool {
        let hit = self.is_sym(s);
        if hit {
            self.bump();
        }
        hit
    }

    /// Consumes the symbol `s` or reports what was found instead.
    pub fn expect_sym(&mut self, s: &str) -> Result<()> {
        if self.eat_sym(s) {
            Ok(())
        } else {
            Err(self.error(&format!("`{s}`")))
        }
    }

    /// Consumes the keyword `k` or reports what was found instead.
    pub fn expect_kw(&mut self, k: &str) -> Result<()> {
        if self.is_kw(k) {
            self.bump();
            Ok(())
        } else {
            Err(self.error(&format!("`{k}`")))
        }
    }

    /// Whether the next token is the keyword `k`.
    pub fn at_kw(&self, k: &str) -> bool {
        self.is_kw(k)
    }

    /// The span of the next token.
    pub fn here(&self) -> Span {
        self.span()
    }

    /// Whether the next token is the symbol `s`.
    pub fn at_sym(&self, s: &str) -> bool {
        self.is_sym(s)
    }

    /// A projection index `0` or `1` (after its `.`).
    pub fn projection(&mut self) -> Result<u8> {
        let span = self.span();
        match self.int()? {
            k @ (0 | 1) => Ok(k as u8),
            _ => Err(Diagnostic::new(
                ErrorKind::Syntax,
                span,
                "a projection is `.0` or `.1`",
            )),
        }
    }

    /// Whether the input is exhausted.
    pub fn at_end(&self) -> bool {
        *self.peek() == Tok::Eof
    }

    /// Requires the end of the input.
    pub fn end(&self) -> Result<()> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.error("the end of the input"))
        }
    }

    /// A name that is not a keyword.
    pub fn ident(&mut self) -> Result<String> {
        match self.peek() {
            Tok::Ident(s) if !KEYWORDS.contains(&s.as_str()) => {
                let s = s.clone();
                self.bump();
                Ok(s)
            }
            _ => Err(self.error("a name")),
        }
    }

    fn nest(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(Diagnostic::new(
                ErrorKind::Syntax,
                self.span(),
                format!("nesting deeper than {MAX_NESTING} levels"),
            ));
        }
        Ok(())
    }

    /// An integer literal, optionally negative.
    fn int(&mut self) -> Result<i64> {
        let neg = self.eat_sym("-");
        let span = self.span();
        match self.bump() {
            Tok::Num(n, None) => {
                let n = if neg { -n } else { n };
                n.to_i64().ok_or_else(|| {
                    Diagnostic::new(ErrorKind::Syntax, span, "integer literal out of range")
                })
            }
            t => Err(Diagnostic::new(
                ErrorKind::Syntax,
                span,
                format!("expected an integer, found {t}"),
            )),
        }
    }

    fn size(&mut self) -> Result<u64> {
        let span = self.span();
        let k = self.int()?;
        u64::try_from(k)
            .map_err(|_| Diagnostic::new(ErrorKind::Syntax, span, "a range must be non-negative"))
    }

    /// A rational literal `n`, `p/q`, `-n`, `-p/q`.
    fn rational(&mut self) -> Result<Rat> {
        let neg = self.eat_sym("-");
        let span = self.span();
        match self.bump() {
            Tok::Num(n, d) => {
                let d = d.unwrap_or_else(|| BigInt::from(1));
                if d == BigInt::from(0) {
                    return Err(Diagnostic::new(ErrorKind::Syntax, span, "zero denominator"));
                }
                let r = Rat::new(n, d);
                Ok(if neg { -r } else { r })
            }
            t => Err(Diagnostic::new(
                ErrorKind::Syntax,
                span,
                format!("expected a number, found {t}"),
            )),
        }
    }

    /// Binders `i:n` or `(i:n, …)` (possibly `()`).
    pub fn binders(&mut self) -> Result<Vec<(String, u64)>> {
        if self.eat_sym("(") {
            let mut out = Vec::new();
            if !self.eat_sym(")") {
                loop {
                    let i = self.ident()?;
                    self.expect_sym(":")?;
                    out.push((i, self.size()?));
                    if self.eat_sym(")") {
                        break;
                    }
                    self.expect_sym(",")?;
                }
            }
            return Ok(out);
        }
        let i = self.ident()?;
        self.expect_sym(":")?;
        Ok(vec![(i, self.size()?)])
    }

    /// A term.
    pub fn term(&mut self) -> Result<Term> {
        self.nest()?;
        let t = self.term_inner();
        self.depth -= 1;
        t
    }

    fn term_inner(&mut self) -> Result<Term> {
        if self.is_kw("gen") || self.is_kw("sum") {
            let gen = self.is_kw("gen");
            self.bump();
            let bs = self.binders()?;
            self.expect_sym(".")?;
            let body = self.term()?;
            return Ok(if gen {
                Term::gens(&bs, body)
            } else {
                Term::sums(&bs, body)
            });
        }
        if self.is_kw("let") {
            self.bump();
            let x = self.ident()?;
            self.expect_sym("=")?;
            let e1 = self.term()?;
            self.expect_kw("in")?;
            let e2 = self.term()?;
            return Ok(Term::let_(x, e1, e2));
        }
        let mut t = self.mul()?;
        while self.eat_sym("+") {
            t = Term::add(t, self.mul()?);
        }
        Ok(t)
    }

    fn mul(&mut self) -> Result<Term> {
        let mut t = self.prefix()?;
        while self.eat_sym("*") {
            t = Term::mul(t, self.prefix()?);
        }
        Ok(t)
    }

    fn prefix(&mut self) -> Result<Term> {
        if self.eat_sym("[") {
            let p = self.pred()?;
            self.expect_sym("]")?;
            self.nest()?;
            let e = self.prefix();
            self.depth -= 1;
            return Ok(Term::bracket(p, e?));
        }
        if self.is_sym("-") {
            if matches!(self.peek_at(1), Tok::Num(..)) {
                return self.rational().map(Term::num);
            }
            return Err(Diagnostic::new(
                ErrorKind::Syntax,
                self.span(),
                "the tensor language has no negation: write `-1 * e`",
            ));
        }
        if self.is_kw("gen") || self.is_kw("sum") || self.is_kw("let") {
            return self.term();
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Term> {
        let mut t = self.atom()?;
        loop {
            if self.eat_sym("[") {
                loop {
                    t = Term::at(t, self.index()?);
                    if self.eat_sym("]") {
                        break;
                    }
                    self.expect_sym(",")?;
                }
            } else if self.is_sym(".") && matches!(self.peek_at(1), Tok::Num(_, None)) {
                self.bump();
                let span = self.span();
                match self.int()? {
                    k @ (0 | 1) => t = Term::proj(k as u8, t),
                    _ => {
                        return Err(Diagnostic::new(
                            ErrorKind::Syntax,
                            span,
                            "a projection is `.0` or `.1`",
                        ))
                    }
                }
            } else {
                return Ok(t);
            }
        }
    }

    fn atom(&mut self) -> Result<Term> {
        match self.peek().clone() {
            Tok::Num(..) => self.rational().map(Term::num),
            Tok::Sym("#") => {
                self.bump();
                if self.eat_sym("(") {
                    let a = self.index()?;
                    self.expect_sym(")")?;
                    Ok(Term::index_const(a))
                } else if let Tok::Num(..) = self.peek() {
                    Ok(Term::index_const(Index::constant(self.int()?)))
                } else {
                    Ok(Term::index_const(Index::var(self.ident()?)))
                }
            }
            Tok::Sym("(") => {
                self.bump();
                let a = self.term()?;
                if self.eat_sym(",") {
                    let b = self.term()?;
                    self.expect_sym(")")?;
                    return Ok(Term::pair(a, b));
                }
                self.expect_sym(")")?;
                Ok(a)
            }
            Tok::Ident(name) if *self.peek_at(1) == Tok::Sym("(") => {
                let span = self.span();
                self.bump();
                self.bump();
                let e = self.term()?;
                let k = if self.eat_sym(",") {
                    Some(self.int()?)
                } else {
                    None
                };
                self.expect_sym(")")?;
                let f = BlackBox::from_name(&name, k).ok_or_else(|| {
                    Diagnostic::new(
                        ErrorKind::Syntax,
                        span,
                        format!("unknown black box `{name}`"),
                    )
                })?;
                Ok(Term::call(f, e))
            }
            Tok::Ident(_) => Ok(Term::var(self.ident()?)),
            _ => Err(self.error("a term")),
        }
    }

    /// A predicate.
    pub fn pred(&mut self) -> Result<Pred> {
        self.nest()?;
        let p = self.pred_inner();
        self.depth -= 1;
        p
    }

    fn pred_inner(&mut self) -> Result<Pred> {
        if self.is_kw("exists") {
            self.bump();
            let i = self.ident()?;
            self.expect_sym(":")?;
            let n = self.size()?;
            self.expect_sym(".")?;
            return Ok(Pred::exists(i, n, self.pred()?));
        }
        let mut p = self.pand()?;
        while self.eat_sym("||") {
            p = Pred::Or(Box::new(p), Box::new(self.pand()?));
        }
        Ok(p)
    }

    fn pand(&mut self) -> Result<Pred> {
        let mut p = self.pnot()?;
        while self.eat_sym("&&") {
            p = Pred::And(Box::new(p), Box::new(self.pnot()?));
        }
        Ok(p)
    }

    fn pnot(&mut self) -> Result<Pred> {
        if self.is_kw("exists") {
            return self.pred();
        }
        if self.eat_sym("!") {
            self.nest()?;
            let p = self.pnot();
            self.depth -= 1;
            return Ok(Pred::Not(Box::new(p?)));
        }
        self.patom()
    }

    fn cmp_op(&mut self) -> Result<(CmpOp, bool)> {
        let op = match self.peek() {
            Tok::Sym("==") => (CmpOp::Eq, false),
            Tok::Sym("!=") => (CmpOp::Ne, false),
            Tok::Sym("<") => (CmpOp::Lt, false),
            Tok::Sym("<=") => (CmpOp::Le, false),
            Tok::Sym(">") => (CmpOp::Lt, true),
            Tok::Sym(">=") => (CmpOp::Le, true),
            _ => return Err(self.error("a comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`)")),
        };
        self.bump();
        Ok(op)
    }

    fn patom(&mut self) -> Result<Pred> {
        if self.is_kw("true") || self.is_kw("false") {
            let t = self.is_kw("true");
            self.bump();
            return Ok(if t { Pred::True } else { Pred::False });
        }
        if self.eat_sym("{") {
            let a = self.data()?;
            let (op, swap) = self.cmp_op()?;
            let b = self.data()?;
            self.expect_sym("}")?;
            return Ok(if swap {
                Pred::Data(op, b, a)
            } else {
                Pred::Data(op, a, b)
            });
        }
        if self.is_sym("(") {
            // A parenthesised predicate, unless a comparison follows (then it was an
            // index expression).
            let save = (self.pos, self.depth);
            self.bump();
            if let Ok(p) = self.pred() {
                if self.eat_sym(")") && !self.continues_index() {
                    return Ok(p);
                }
            }
            (self.pos, self.depth) = save;
        }
        if let (Tok::Ident(name), Tok::Sym("(")) = (self.peek().clone(), self.peek_at(1).clone()) {
            if !INDEX_FUNCTIONS.contains(&name.as_str()) {
                self.bump();
                self.bump();
                let mut idx = Vec::new();
                if !self.eat_sym(")") {
                    loop {
                        idx.push(self.index()?);
                        if self.eat_sym(")") {
                            break;
                        }
                        self.expect_sym(",")?;
                    }
                }
                return Ok(Pred::Rel(name, idx));
            }
        }
        let a = self.index()?;
        let (op, swap) = self.cmp_op()?;
        let b = self.index()?;
        Ok(if swap {
            Pred::Cmp(op, b, a)
        } else {
            Pred::Cmp(op, a, b)
        })
    }

    fn continues_index(&self) -> bool {
        matches!(
            self.peek(),
            Tok::Sym("==" | "!=" | "<" | "<=" | ">" | ">=" | "+" | "-" | "*" | "/" | "%")
        )
    }

    /// A data operand (E1): a rational constant or a path `x.k[a]…`.
    fn data(&mut self) -> Result<DataRef> {
        if matches!(self.peek(), Tok::Num(..) | Tok::Sym("-")) {
            return self.rational().map(DataRef::Const);
        }
        let x = self.ident()?;
        let mut path = Vec::new();
        loop {
            if self.eat_sym("[") {
                loop {
                    path.push(PathStep::At(self.index()?));
                    if self.eat_sym("]") {
                        break;
                    }
                    self.expect_sym(",")?;
                }
            } else if self.is_sym(".") {
                self.bump();
                let span = self.span();
                match self.int()? {
                    k @ (0 | 1) => path.push(PathStep::Proj(k as u8)),
                    _ => {
                        return Err(Diagnostic::new(
                            ErrorKind::Syntax,
                            span,
                            "a projection is `.0` or `.1`",
                        ))
                    }
                }
            } else {
                return Ok(DataRef::Read(x, path));
            }
        }
    }

    /// An index expression: affine when it is one, opaque otherwise (`opaque(e)` keeps
    /// an affine-looking expression opaque).
    pub fn index(&mut self) -> Result<Index> {
        if self.is_kw("opaque") && *self.peek_at(1) == Tok::Sym("(") {
            self.bump();
            self.bump();
            let e = self.iexpr()?;
            self.expect_sym(")")?;
            return Ok(Index::Opaque(e));
        }
        Ok(Index::from_iexpr(self.iexpr()?))
    }

    fn iexpr(&mut self) -> Result<IExpr> {
        self.nest()?;
        let r = self.iadd();
        self.depth -= 1;
        r
    }

    fn iadd(&mut self) -> Result<IExpr> {
        let mut e = self.imul()?;
        loop {
            if self.eat_sym("+") {
                e = IExpr::Add(Box::new(e), Box::new(self.imul()?));
            } else if self.eat_sym("-") {
                let r = self.imul()?;
                e = IExpr::Add(Box::new(e), Box::new(IExpr::Neg(Box::new(r))));
            } else {
                return Ok(e);
            }
        }
    }

    fn imul(&mut self) -> Result<IExpr> {
        let mut e = self.iprefix()?;
        loop {
            let op = match self.peek() {
                Tok::Sym("*") => 0,
                Tok::Sym("/") => 1,
                Tok::Sym("%") => 2,
                _ => return Ok(e),
            };
            self.bump();
            let r = Box::new(self.iprefix()?);
            let l = Box::new(e);
            e = match op {
                0 => IExpr::Mul(l, r),
                1 => IExpr::Div(l, r),
                _ => IExpr::Mod(l, r),
            };
        }
    }

    fn iprefix(&mut self) -> Result<IExpr> {
        if self.is_sym("-") {
            if matches!(self.peek_at(1), Tok::Num(..)) {
                return Ok(IExpr::Const(self.int()?));
            }
            self.bump();
            self.nest()?;
            let e = self.iprefix();
            self.depth -= 1;
            return Ok(IExpr::Neg(Box::new(e?)));
        }
        self.iatom()
    }

    fn iatom(&mut self) -> Result<IExpr> {
        match self.peek().clone() {
            Tok::Num(..) => Ok(IExpr::Const(self.int()?)),
            Tok::Sym("(") => {
                self.bump();
                let e = self.iexpr()?;
                self.expect_sym(")")?;
                Ok(e)
            }
            Tok::Ident(f) if *self.peek_at(1) == Tok::Sym("(") => {
                let span = self.span();
                self.bump();
                self.bump();
                let e = match f.as_str() {
                    "min" | "max" => {
                        let a = Box::new(self.iexpr()?);
                        self.expect_sym(",")?;
                        let b = Box::new(self.iexpr()?);
                        if f == "min" {
                            IExpr::Min(a, b)
                        } else {
                            IExpr::Max(a, b)
                        }
                    }
                    "abs" => IExpr::Abs(Box::new(self.iexpr()?)),
                    "floor" => IExpr::Floor(self.data()?),
                    "cond" => {
                        let p = Box::new(self.pred()?);
                        self.expect_sym(",")?;
                        let a = Box::new(self.iexpr()?);
                        self.expect_sym(",")?;
                        IExpr::Cond(p, a, Box::new(self.iexpr()?))
                    }
                    _ => {
                        return Err(Diagnostic::new(
                            ErrorKind::Syntax,
                            span,
                            format!("unknown index function `{f}`"),
                        ))
                    }
                };
                self.expect_sym(")")?;
                Ok(e)
            }
            Tok::Ident(_) => {
                let x = self.ident()?;
                if !self.eat_sym("[") {
                    return Ok(IExpr::Var(x));
                }
                let mut idx = Vec::new();
                if !self.eat_sym("]") {
                    loop {
                        idx.push(self.index()?);
                        if self.eat_sym("]") {
                            break;
                        }
                        self.expect_sym(",")?;
                    }
                    while self.eat_sym("[") {
                        idx.push(self.index()?);
                        self.expect_sym("]")?;
                    }
                }
                Ok(IExpr::Read(x, idx))
            }
            _ => Err(self.error("an index expression")),
        }
    }

    /// A type: `num`, `bool`, `int`, `[n]T`, `(T, U)`.
    pub fn ty(&mut self) -> Result<Ty> {
        self.nest()?;
        let t = self.ty_inner();
        self.depth -= 1;
        t
    }

    fn ty_inner(&mut self) -> Result<Ty> {
        if self.eat_sym("[") {
            let n = self.size()?;
            self.expect_sym("]")?;
            return Ok(Ty::arr(n, self.ty()?));
        }
        if self.eat_sym("(") {
            let a = self.ty()?;
            self.expect_sym(",")?;
            let b = self.ty()?;
            self.expect_sym(")")?;
            return Ok(Ty::pair(a, b));
        }
        for (k, t) in [("num", Ty::Num), ("bool", Ty::Bool), ("int", Ty::Int)] {
            if self.is_kw(k) {
                self.bump();
                return Ok(t);
            }
        }
        Err(self.error("a type"))
    }
}

/// Names that are index functions, never relations.
const INDEX_FUNCTIONS: [&str; 6] = ["min", "max", "abs", "floor", "cond", "opaque"];
