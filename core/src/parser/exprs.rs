//! Parser: operators (precedence climbing), unary and postfix forms, atoms, `let`, `if`,
//! `loop`, tuples, array literals and calls (grammar in the parent module).

use super::{node, syntax, PExpr, PResult, Parser};
use crate::ast::{BinOp, Expr, ExprKind, Lit, NonFinite, UnOp};
use crate::diag::Span;
use crate::lexer::{self, Keyword, Tok};

/// Precedence of the comparison operators (non-associative).
const CMP: u8 = 3;
/// Precedence at which a unary operand is parsed (binds tighter than every binary op).
pub(super) const UNARY: u8 = 6;

/// The binary operator a token denotes, with its precedence (higher binds tighter).
fn binop(t: &Tok) -> Option<(BinOp, u8)> {
    Some(match t {
        Tok::OrOr => (BinOp::Or, 1),
        Tok::AndAnd => (BinOp::And, 2),
        Tok::EqEq => (BinOp::Eq, CMP),
        Tok::NotEq => (BinOp::Ne, CMP),
        Tok::Lt => (BinOp::Lt, CMP),
        Tok::Le => (BinOp::Le, CMP),
        Tok::Gt => (BinOp::Gt, CMP),
        Tok::Ge => (BinOp::Ge, CMP),
        Tok::Plus => (BinOp::Add, 4),
        Tok::Minus => (BinOp::Sub, 4),
        Tok::Star => (BinOp::Mul, 5),
        Tok::Slash => (BinOp::Div, 5),
        Tok::Percent => (BinOp::Mod, 5),
        _ => return None,
    })
}

impl Parser<'_> {
    /// A full expression.
    #[inline]
    pub(super) fn expr(&mut self) -> PExpr {
        self.expr_prec(0)
    }

    /// An expression whose top-level binary operators bind at least as tightly as `min`
    /// (`min > 5` parses a unary expression).
    ///
    /// Stack use: this function, [`Parser::atom`] and [`Parser::paren`] are the recursion
    /// path of nested parentheses. Expressions travel boxed and errors are boxed, and all
    /// node construction happens in out-of-line functions, so that these frames stay small
    /// (`MAX_NESTING` levels must fit well inside an 8 MiB stack).
    pub(super) fn expr_prec(&mut self, min: u8) -> PExpr {
        self.enter()?;
        let mut e = match self.peek() {
            Tok::Minus | Tok::Bang => self.prefix()?,
            _ => self.atom()?,
        };
        if matches!(self.peek(), Tok::LBracket | Tok::Proj(_)) {
            e = self.postfix(e)?;
        }
        if binop(self.peek()).is_some_and(|(_, p)| p >= min) {
            e = self.binary(e, min)?;
        }
        self.leave(1);
        Ok(e)
    }

    /// The operator loop of precedence climbing, after its first operand `lhs`.
    #[inline(never)]
    fn binary(&mut self, mut lhs: Box<Expr>, min: u8) -> PExpr {
        let mut links = 0;
        let mut last = lhs.span;
        while let Some((op, prec)) = binop(self.peek()) {
            if prec < min {
                break;
            }
            let op_span = self.bump().span;
            if op == BinOp::Mul && matches!(self.peek(), Tok::Star) {
                return Err(self.power_operator(last, op_span));
            }
            let rhs = self.expr_prec(prec + 1)?;
            last = rhs.span;
            let span = lhs.span.to(rhs.span);
            lhs = node(ExprKind::Binary(op, lhs, rhs), span);
            links += 1;
            self.enter()?;
            if prec == CMP && binop(self.peek()).is_some_and(|(_, p)| p == CMP) {
                return Err(syntax(
                    self.span(),
                    format!(
                        "comparison operators do not chain: found {} after a comparison (add parentheses)",
                        self.found()
                    ),
                ));
            }
        }
        self.leave(links);
        Ok(lhs)
    }

    /// `'-' unary | '!' unary | '-' NUMBER` (the current token is `-` or `!`).
    #[inline(never)]
    fn prefix(&mut self) -> PExpr {
        let op = if matches!(self.peek(), Tok::Minus) {
            UnOp::Neg
        } else {
            UnOp::Not
        };
        let op_span = self.span();
        let next = self.span_at(1);
        if op == UnOp::Neg && next.start == op_span.end {
            if let Some(lit) = self.negative_literal() {
                return Ok(lit);
            }
        }
        self.bump();
        let operand = self.expr_prec(UNARY)?;
        let span = op_span.to(operand.span);
        Ok(node(ExprKind::Unary(op, operand), span))
    }

    /// Folds `-` (current token) and an adjacent number into a negative literal.
    fn negative_literal(&mut self) -> Option<Box<Expr>> {
        let lit = match self.peek_at(1) {
            Tok::Int(n) => Lit::Int(-n.clone()),
            Tok::Real(r) => Lit::Real(-r.clone()),
            _ => return None,
        };
        let start = self.bump().span;
        let end = self.bump().span;
        Some(node(ExprKind::Lit(lit), start.to(end)))
    }

    /// `postfix = atom { '[' expr % ',' ']' | '.' INDEX }`.
    #[inline(never)]
    fn postfix(&mut self, mut e: Box<Expr>) -> PExpr {
        let mut links = 0;
        loop {
            match self.peek() {
                Tok::LBracket => {
                    self.enter()?;
                    links += 1;
                    self.bump();
                    if matches!(self.peek(), Tok::Colon) {
                        return Err(self.slice(&e, None, 0));
                    }
                    let idx = self.expr_list(&Tok::RBracket)?;
                    if matches!(self.peek(), Tok::Colon) {
                        return Err(self.slice(&e, idx.last(), idx.len() - 1));
                    }
                    let close = self.expect(&Tok::RBracket)?;
                    let span = e.span.to(close);
                    e = node(ExprKind::Index(e, idx), span);
                }
                Tok::Proj(k) => {
                    let k = *k;
                    self.enter()?;
                    links += 1;
                    let s = self.bump().span;
                    let span = e.span.to(s);
                    e = node(ExprKind::Proj(e, k), span);
                }
                _ => break,
            }
        }
        self.leave(links);
        Ok(e)
    }

    /// `expr % ','`, stopping before `close` (at least one expression).
    #[inline(never)]
    pub(super) fn expr_list(&mut self, close: &Tok) -> PResult<Vec<Expr>> {
        if self.peek() == close {
            return Err(self.unexpected("an expression"));
        }
        let mut es = vec![*self.expr()?];
        while self.eat(&Tok::Comma).is_some() {
            es.push(*self.expr()?);
        }
        Ok(es)
    }

    /// The atoms and the prefix forms (`let`, `if`, `loop`, binding forms). A thin
    /// dispatcher: every arm is out of line (see [`Parser::expr_prec`]).
    fn atom(&mut self) -> PExpr {
        match self.peek() {
            Tok::LParen => self.paren(),
            Tok::Int(_)
            | Tok::Real(_)
            | Tok::Kw(Keyword::True | Keyword::False | Keyword::Inf | Keyword::Nan) => {
                self.literal()
            }
            Tok::Ident(n) if lexer::is_builtin(n) => self.builtin(),
            Tok::Ident(_) => self.var_or_call(),
            Tok::LBracket => self.array(),
            Tok::Kw(Keyword::Let) => self.let_expr(),
            Tok::Kw(Keyword::If) => self.if_expr(),
            Tok::Kw(Keyword::Loop) => self.loop_expr(),
            Tok::Kw(Keyword::Build) => self.build(),
            Tok::Kw(Keyword::Gather) | Tok::Kw(Keyword::Scatter) => self.gather_scatter(),
            Tok::Kw(Keyword::Map) => self.map(),
            Tok::Kw(Keyword::Reduce) | Tok::Kw(Keyword::Scan) => self.reduce_scan(),
            Tok::Kw(Keyword::ReduceByIndex) => self.reduce_by_index(),
            Tok::Kw(Keyword::ScatterInto) => self.scatter_into(),
            _ => Err(self.unexpected("an expression")),
        }
    }

    /// A number, `true`, `false`, `inf` or `nan`.
    #[inline(never)]
    fn literal(&mut self) -> PExpr {
        let t = self.bump();
        let lit = match t.tok {
            Tok::Int(n) => Lit::Int(n),
            Tok::Real(r) => Lit::Real(r),
            Tok::Kw(Keyword::True) => Lit::Bool(true),
            Tok::Kw(Keyword::False) => Lit::Bool(false),
            Tok::Kw(Keyword::Inf) => Lit::NonFinite(NonFinite::Inf),
            Tok::Kw(Keyword::Nan) => Lit::NonFinite(NonFinite::NaN),
            _ => return Err(syntax(t.span, "expected a literal")),
        };
        Ok(node(ExprKind::Lit(lit), t.span))
    }

    /// `'[' expr % ',' ']'`; in a value literal (`parse_literal`) also `'[' ']'`.
    #[inline(never)]
    fn array(&mut self) -> PExpr {
        let open = self.bump().span;
        if self.literals && *self.peek() == Tok::RBracket {
            let close = self.expect(&Tok::RBracket)?;
            return Ok(node(ExprKind::Array(Vec::new()), open.to(close)));
        }
        let es = self.expr_list(&Tok::RBracket)?;
        let close = self.expect(&Tok::RBracket)?;
        Ok(node(ExprKind::Array(es), open.to(close)))
    }

    /// `NAME` or `NAME '(' [ expr % ',' ] ')'`.
    #[inline(never)]
    fn var_or_call(&mut self) -> PExpr {
        let t = self.bump();
        let Tok::Ident(name) = t.tok else {
            return Err(syntax(t.span, "expected a name"));
        };
        if self.eat(&Tok::LParen).is_none() {
            return Ok(node(ExprKind::Var(name), t.span));
        }
        let args = if matches!(self.peek(), Tok::RParen) {
            Vec::new()
        } else {
            self.expr_list(&Tok::RParen)?
        };
        let close = self.expect(&Tok::RParen)?;
        Ok(node(ExprKind::Call(name, args), t.span.to(close)))
    }

    /// `'(' expr ')'` (its span widened to the parentheses) or a tuple.
    #[inline(never)]
    fn paren(&mut self) -> PExpr {
        let open = self.bump().span;
        let mut e = self.expr_prec(0)?;
        if matches!(self.peek(), Tok::Comma) {
            return self.tuple(open, e);
        }
        e.span = open.to(self.expect(&Tok::RParen)?);
        Ok(e)
    }

    /// The rest of a tuple `(first, ...)`. (`first` stays boxed so that `paren`, which is
    /// on the recursion path, never holds an unboxed `Expr` in its frame.)
    #[inline(never)]
    #[allow(clippy::boxed_local)]
    fn tuple(&mut self, open: Span, first: Box<Expr>) -> PExpr {
        let mut es = vec![*first];
        while self.eat(&Tok::Comma).is_some() {
            es.push(*self.expr()?);
        }
        let close = self.expect(&Tok::RParen)?;
        Ok(node(ExprKind::Tuple(es), open.to(close)))
    }

    /// `'let' pat '=' expr 'in' expr`.
    #[inline(never)]
    fn let_expr(&mut self) -> PExpr {
        let start = self.bump().span;
        let pat = self.pat()?;
        self.expect(&Tok::Assign)?;
        let rhs = self.expr()?;
        self.expect(&Tok::Kw(Keyword::In))?;
        let body = self.expr()?;
        let span = start.to(body.span);
        Ok(node(ExprKind::Let(pat, rhs, body), span))
    }

    /// `'if' expr 'then' expr 'else' expr`.
    #[inline(never)]
    fn if_expr(&mut self) -> PExpr {
        let start = self.bump().span;
        let c = self.expr()?;
        self.expect(&Tok::Kw(Keyword::Then))?;
        let a = self.expr()?;
        self.expect(&Tok::Kw(Keyword::Else))?;
        let b = self.expr()?;
        let span = start.to(b.span);
        Ok(node(ExprKind::If(c, a, b), span))
    }

    /// `'loop' '(' pat '=' expr ')' 'for' NAME '<' SIZE 'do' expr`.
    #[inline(never)]
    fn loop_expr(&mut self) -> PExpr {
        let start = self.bump().span;
        self.expect(&Tok::LParen)?;
        let acc = self.pat()?;
        self.expect(&Tok::Assign)?;
        let init = self.expr()?;
        self.expect(&Tok::RParen)?;
        self.expect(&Tok::Kw(Keyword::For))?;
        let (var, _) = self.name()?;
        self.expect(&Tok::Lt)?;
        let count = self.size()?;
        self.expect(&Tok::Kw(Keyword::Do))?;
        let body = self.expr()?;
        let span = start.to(body.span);
        Ok(node(
            ExprKind::Loop {
                acc,
                init,
                var,
                count,
                body,
            },
            span,
        ))
    }
}
