//! Parser of expressions other than single operations: `let` chains and their patterns,
//! multi-value returns, groupings, calls, `dup`, `drop`, and atoms.

use super::{syntax, Frame, Pat, P};
use crate::ast::{Lit, Name, NonFinite};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use crate::lexer::{Keyword, Tok};
use crate::linear::ast::{Atom, Binders, LExpr, LKind, RESERVED};
use crate::linear::lex::LTok;

impl P<'_> {
    /// A chain `let p1 = e1 in let p2 = e2 in ... body`, parsed iteratively.
    pub(super) fn let_chain(&mut self) -> Result<LExpr> {
        let scope_len = self.scope.len();
        let mut frames: Vec<(Span, Frame, LExpr)> = Vec::new();
        while self.is_kw(Keyword::Let) {
            let start = self.bump().span;
            let pat = self.pattern()?;
            self.expect(&Tok::Assign)?;
            let bound = self.expr()?;
            self.expect(&Tok::Kw(Keyword::In))?;
            let frame = self.bind(pat, &bound)?;
            frames.push((start, frame, bound));
        }
        let mut body = self.simple()?;
        self.scope.truncate(scope_len);
        while let Some((start, frame, bound)) = frames.pop() {
            let span = start.to(body.span);
            let kind = match frame {
                Frame::Let(b) => LKind::Let(b, Box::new(bound), Box::new(body)),
                Frame::Unpack(names, t) => LKind::Unpack(names, t, Box::new(body)),
            };
            body = LExpr::new(kind, span);
        }
        Ok(body)
    }

    fn pattern(&mut self) -> Result<Pat> {
        if !self.is(&Tok::LParen) {
            let (n, s) = self.binder()?;
            return Ok(Pat::One(n, s));
        }
        let open = self.bump().span;
        let mut first = Vec::new();
        while matches!(self.peek(), LTok::Core(Tok::Ident(_))) {
            first.push(self.binder()?.0);
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        if self.is_semi() {
            self.bump();
            let mut lin = Vec::new();
            while matches!(self.peek(), LTok::Core(Tok::Ident(_))) {
                lin.push(self.binder()?.0);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
            self.expect(&Tok::RParen)?;
            return Ok(Pat::Multi(Binders { nl: first, lin }));
        }
        let close = self.expect(&Tok::RParen)?;
        match first.len() {
            0 => Ok(Pat::Multi(Binders::none())),
            1 => Err(syntax(
                open.to(close),
                "a one-name pattern needs no parentheses (or write `(x ;)` / `(; dx)`)",
            )),
            _ => Ok(Pat::Tuple(first, open.to(close))),
        }
    }

    /// The numbers of non-linear and linear results of a parsed expression.
    pub(super) fn arity(&self, e: &LExpr) -> (usize, usize) {
        match &e.kind {
            LKind::Ret(a, l) => (a.len(), l.len()),
            LKind::Let(_, _, b) | LKind::Unpack(_, _, b) => self.arity(b),
            LKind::Call(f, _, _) => self.sigs.get(f).copied().unwrap_or((0, 0)),
            LKind::Op { linear, .. } => {
                if *linear {
                    (0, 1)
                } else {
                    (1, 0)
                }
            }
            LKind::Dup(_) => (0, 2),
            LKind::Drop(_) => (0, 0),
        }
    }

    /// Brings the binders of a pattern into scope and says what the `let` is.
    fn bind(&mut self, pat: Pat, bound: &LExpr) -> Result<Frame> {
        match pat {
            Pat::One(n, s) => {
                let (a, l) = self.arity(bound);
                let b = match (a, l) {
                    (1, 0) => Binders::nl1(n),
                    (0, 1) => Binders::lin1(n),
                    _ => {
                        return Err(Diagnostic::new(
                            ErrorKind::Type,
                            s.to(bound.span),
                            format!(
                                "`let {n} = ...` binds one value, but the expression returns {a} non-linear and {l} linear values"
                            ),
                        ))
                    }
                };
                self.push_binders(&b);
                Ok(Frame::Let(b))
            }
            Pat::Multi(b) => {
                self.push_binders(&b);
                Ok(Frame::Let(b))
            }
            Pat::Tuple(names, span) => {
                let LKind::Op {
                    op: crate::linear::ast::Op::Id,
                    args,
                    ..
                } = &bound.kind
                else {
                    return Err(syntax(
                        span,
                        "a tuple pattern without `;` unpacks a tuple variable; bind several results with `(a, b ;)` or `(; da, db)`",
                    ));
                };
                let Some(Atom::Var(t)) = args.first() else {
                    return Err(syntax(bound.span, "only a tuple variable can be unpacked"));
                };
                let linear = self.var_kind(t, bound.span)?;
                for n in &names {
                    self.scope.push((n.clone(), linear));
                }
                Ok(Frame::Unpack(names, t.clone()))
            }
        }
    }

    fn push_binders(&mut self, b: &Binders) {
        for n in &b.nl {
            self.scope.push((n.clone(), false));
        }
        for n in &b.lin {
            self.scope.push((n.clone(), true));
        }
    }

    /// A non-`let` expression: a return, a grouping, a call, `dup`, `drop` or an op.
    pub(super) fn simple(&mut self) -> Result<LExpr> {
        let start = self.span();
        if self.is(&Tok::LParen) {
            let inner_let = matches!(self.peek_at(1), LTok::Core(Tok::Kw(Keyword::Let)));
            let inner_group = matches!(self.peek_at(1), LTok::Core(Tok::LParen))
                && !self.is_rational_literal_at(1);
            if inner_let || inner_group {
                self.bump();
                let mut e = self.expr()?;
                let close = self.expect(&Tok::RParen)?;
                e.span = start.to(close);
                return Ok(e);
            }
            if let Some(ret) = self.try_return()? {
                return Ok(ret);
            }
        }
        if let LTok::Core(Tok::Ident(n)) = self.peek().clone() {
            if matches!(self.peek_at(1), LTok::Core(Tok::LParen)) {
                match n.as_str() {
                    "dup" | "drop" => {
                        self.bump();
                        self.expect(&Tok::LParen)?;
                        let (x, _) = self.binder()?;
                        let close = self.expect(&Tok::RParen)?;
                        let kind = if n == "dup" {
                            LKind::Dup(x)
                        } else {
                            LKind::Drop(x)
                        };
                        return Ok(LExpr::new(kind, start.to(close)));
                    }
                    _ if self.sigs.contains_key(&n) => return self.call(n),
                    _ if !crate::lexer::is_builtin(&n) && !RESERVED.contains(&n.as_str()) => {
                        return Err(Diagnostic::new(
                            ErrorKind::Name,
                            start,
                            format!("unknown function `{n}` (a def may call only earlier defs)"),
                        ))
                    }
                    _ => {}
                }
            }
        }
        self.op()
    }

    /// `(atoms ; names)` if the parenthesis starts a multi-value return; otherwise the
    /// cursor is left unchanged and `None` returned.
    fn try_return(&mut self) -> Result<Option<LExpr>> {
        let save = self.pos;
        let start = self.bump().span;
        let mut atoms = Vec::new();
        while !self.is_semi() && !self.is(&Tok::RParen) {
            match self.atom() {
                Ok(a) => atoms.push(a),
                Err(_) => {
                    self.pos = save;
                    return Ok(None);
                }
            }
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        if !self.is_semi() {
            self.pos = save;
            return Ok(None);
        }
        self.bump();
        let mut lin = Vec::new();
        while !self.is(&Tok::RParen) {
            match self.peek().clone() {
                LTok::Core(Tok::Ident(n)) => {
                    self.bump();
                    lin.push(n);
                }
                _ => return Err(self.unexpected("a linear variable")),
            }
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        let close = self.expect(&Tok::RParen)?;
        for a in &atoms {
            if let Atom::Var(v) = a {
                self.var_kind(v, start)?;
            }
        }
        for v in &lin {
            self.var_kind(v, start)?;
        }
        Ok(Some(LExpr::new(LKind::Ret(atoms, lin), start.to(close))))
    }

    fn call(&mut self, f: Name) -> Result<LExpr> {
        let start = self.bump().span;
        self.expect(&Tok::LParen)?;
        let mut args = Vec::new();
        while !self.is_semi() && !self.is(&Tok::RParen) {
            args.push(self.atom()?);
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        let mut largs = Vec::new();
        if self.is_semi() {
            self.bump();
            while !self.is(&Tok::RParen) {
                let (n, s) = self.binder()?;
                self.var_kind(&n, s)?;
                largs.push(n);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
        }
        let close = self.expect(&Tok::RParen)?;
        Ok(LExpr::new(LKind::Call(f, args, largs), start.to(close)))
    }

    /// Whether the cursor is at `( [-]NUMBER / NUMBER )`.
    pub(super) fn is_rational_literal(&self) -> bool {
        self.is_rational_literal_at(0)
    }

    /// Whether the tokens from `at` on are `( [-]NUMBER / NUMBER )`.
    pub(super) fn is_rational_literal_at(&self, at: usize) -> bool {
        let num = |t: &LTok| matches!(t, LTok::Core(Tok::Int(_)) | LTok::Core(Tok::Real(_)));
        if !matches!(self.peek_at(at), LTok::Core(Tok::LParen)) {
            return false;
        }
        let mut k = at + 1;
        if matches!(self.peek_at(k), LTok::Core(Tok::Minus)) {
            k += 1;
        }
        num(self.peek_at(k))
            && matches!(self.peek_at(k + 1), LTok::Core(Tok::Slash))
            && num(self.peek_at(k + 2))
            && matches!(self.peek_at(k + 3), LTok::Core(Tok::RParen))
    }

    /// An atom: a variable or a literal.
    pub(super) fn atom(&mut self) -> Result<Atom> {
        let t = self.peek().clone();
        match t {
            LTok::Core(Tok::Ident(n)) => {
                let s = self.bump().span;
                if crate::lexer::is_builtin(&n) || RESERVED.contains(&n.as_str()) {
                    return Err(syntax(
                        s,
                        format!("`{n}` is reserved and cannot be a variable"),
                    ));
                }
                self.var_kind(&n, s)?;
                Ok(Atom::Var(n))
            }
            LTok::Core(Tok::Int(n)) => {
                self.bump();
                Ok(Atom::Lit(Lit::Int(n)))
            }
            LTok::Core(Tok::Real(r)) => {
                self.bump();
                Ok(Atom::Lit(Lit::Real(r)))
            }
            LTok::Core(Tok::Kw(Keyword::True)) => {
                self.bump();
                Ok(Atom::Lit(Lit::Bool(true)))
            }
            LTok::Core(Tok::Kw(Keyword::False)) => {
                self.bump();
                Ok(Atom::Lit(Lit::Bool(false)))
            }
            LTok::Core(Tok::Kw(Keyword::Inf)) => {
                self.bump();
                Ok(Atom::Lit(Lit::NonFinite(NonFinite::Inf)))
            }
            LTok::Core(Tok::Kw(Keyword::Nan)) => {
                self.bump();
                Ok(Atom::Lit(Lit::NonFinite(NonFinite::NaN)))
            }
            LTok::Core(Tok::Minus) if self.span_at(1).start == self.span().end => {
                match self.peek_at(1).clone() {
                    LTok::Core(Tok::Int(n)) => {
                        self.bump();
                        self.bump();
                        Ok(Atom::Lit(Lit::Int(-n)))
                    }
                    LTok::Core(Tok::Real(r)) => {
                        self.bump();
                        self.bump();
                        Ok(Atom::Lit(Lit::Real(-r)))
                    }
                    _ => Err(self.unexpected("a variable or a literal")),
                }
            }
            LTok::Core(Tok::LParen) if self.is_rational_literal() => {
                self.bump();
                let neg = self.eat(&Tok::Minus);
                let p = self.number()?;
                self.expect(&Tok::Slash)?;
                let q = self.number()?;
                let close = self.expect(&Tok::RParen)?;
                if num_traits::Zero::is_zero(&q) {
                    return Err(syntax(
                        close,
                        "a rational literal needs a non-zero denominator",
                    ));
                }
                let r = p / q;
                Ok(Atom::Lit(Lit::Real(if neg { -r } else { r })))
            }
            _ => Err(self.unexpected("a variable or a literal")),
        }
    }

    fn number(&mut self) -> Result<num_rational::BigRational> {
        match self.peek().clone() {
            LTok::Core(Tok::Int(n)) => {
                self.bump();
                Ok(num_rational::BigRational::from_integer(n))
            }
            LTok::Core(Tok::Real(r)) => {
                self.bump();
                Ok(r)
            }
            _ => Err(self.unexpected("a number")),
        }
    }
}
