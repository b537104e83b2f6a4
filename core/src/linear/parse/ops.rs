//! Parser of single operations (the `op` rule of the parent module's grammar).

use super::{syntax, P};
use crate::ast::{BinOp, Expr, ExprKind, Prim, UnOp};
use crate::diag::{Diagnostic, Result, Span};
use crate::lexer::{Keyword, Tok};
use crate::linear::ast::{Atom, LExpr, LKind, Op};
use crate::linear::lex::LTok;

/// The binary operator a token denotes.
fn binop(t: &LTok) -> Option<BinOp> {
    let LTok::Core(t) = t else { return None };
    Some(match t {
        Tok::OrOr => BinOp::Or,
        Tok::AndAnd => BinOp::And,
        Tok::EqEq => BinOp::Eq,
        Tok::NotEq => BinOp::Ne,
        Tok::Lt => BinOp::Lt,
        Tok::Le => BinOp::Le,
        Tok::Gt => BinOp::Gt,
        Tok::Ge => BinOp::Ge,
        Tok::Plus => BinOp::Add,
        Tok::Minus => BinOp::Sub,
        Tok::Star => BinOp::Mul,
        Tok::Slash => BinOp::Div,
        Tok::Percent => BinOp::Mod,
        _ => return None,
    })
}

/// Built-ins of one argument.
fn unary_prim(name: &str) -> Option<Prim> {
    Some(match name {
        "exp" => Prim::Exp,
        "log" => Prim::Log,
        "sin" => Prim::Sin,
        "cos" => Prim::Cos,
        "tanh" => Prim::Tanh,
        "sqrt" => Prim::Sqrt,
        "abs" => Prim::Abs,
        "floor" => Prim::Floor,
        "real" => Prim::Real,
        "sum" => Prim::Sum,
        "sum_outer" => Prim::SumOuter,
        _ => return None,
    })
}

impl P<'_> {
    /// An operation node; linear when a variable argument is linear (`zero`: always).
    fn mk(&self, op: Op, args: Vec<Atom>, span: Span) -> LExpr {
        let linear = matches!(op, Op::Zero(_))
            || args
                .iter()
                .any(|a| a.var().is_some_and(|v| self.lookup(v) == Some(true)));
        LExpr::new(LKind::Op { op, args, linear }, span)
    }

    /// Atoms separated by commas up to (not including) `close`.
    fn atoms_until(&mut self, close: &Tok) -> Result<Vec<Atom>> {
        let mut out = Vec::new();
        while !self.is(close) {
            out.push(self.atom()?);
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        Ok(out)
    }

    /// One operation.
    pub(super) fn op(&mut self) -> Result<LExpr> {
        let start = self.span();
        match self.peek().clone() {
            LTok::Core(Tok::Ident(n))
                if matches!(self.peek_at(1), LTok::Core(Tok::LParen))
                    && (crate::lexer::is_builtin(&n)
                        || crate::linear::ast::RESERVED.contains(&n.as_str())) =>
            {
                return self.builtin(&n);
            }
            LTok::Core(Tok::Kw(k @ (Keyword::Gather | Keyword::Scatter))) => {
                return self.gather_scatter(k == Keyword::Gather);
            }
            LTok::Core(Tok::Minus) if self.span_at(1).start != self.span().end => {
                self.bump();
                let a = self.atom()?;
                return Ok(self.mk(Op::Unary(UnOp::Neg), vec![a], start.to(self.prev_span())));
            }
            LTok::Core(Tok::Minus)
                if !matches!(
                    self.peek_at(1),
                    LTok::Core(Tok::Int(_)) | LTok::Core(Tok::Real(_))
                ) =>
            {
                self.bump();
                let a = self.atom()?;
                return Ok(self.mk(Op::Unary(UnOp::Neg), vec![a], start.to(self.prev_span())));
            }
            LTok::Core(Tok::Bang) => {
                self.bump();
                let a = self.atom()?;
                return Ok(self.mk(Op::Unary(UnOp::Not), vec![a], start.to(self.prev_span())));
            }
            LTok::Core(Tok::LBracket) => {
                self.bump();
                let atoms = self.atoms_until(&Tok::RBracket)?;
                let close = self.expect(&Tok::RBracket)?;
                if atoms.is_empty() {
                    return Err(syntax(
                        start.to(close),
                        "an array literal needs at least one element",
                    ));
                }
                return Ok(self.mk(Op::Array, atoms, start.to(close)));
            }
            LTok::Core(Tok::LParen) if !self.is_rational_literal() => {
                self.bump();
                let atoms = self.atoms_until(&Tok::RParen)?;
                let close = self.expect(&Tok::RParen)?;
                return match atoms.len() {
                    0 => Err(syntax(start.to(close), "write `(;)` for an empty return")),
                    1 => Ok(self.mk(Op::Id, atoms, start.to(close))),
                    _ => Ok(self.mk(Op::Tuple, atoms, start.to(close))),
                };
            }
            _ => {}
        }
        let a = self.atom()?;
        if self.is(&Tok::LBracket) {
            self.bump();
            let mut args = vec![a];
            let idx = self.atoms_until(&Tok::RBracket)?;
            let close = self.expect(&Tok::RBracket)?;
            if idx.is_empty() {
                return Err(syntax(close, "an index list needs at least one index"));
            }
            args.extend(idx);
            return Ok(self.mk(Op::Index, args, start.to(close)));
        }
        if let Some(b) = binop(self.peek()) {
            self.bump();
            let c = self.atom()?;
            return Ok(self.mk(Op::Binary(b), vec![a, c], start.to(self.prev_span())));
        }
        Ok(self.mk(Op::Id, vec![a], start.to(self.prev_span())))
    }

    fn builtin(&mut self, name: &str) -> Result<LExpr> {
        let start = self.bump().span;
        self.expect(&Tok::LParen)?;
        let (op, args) = match name {
            _ if unary_prim(name).is_some() => {
                let a = self.atom()?;
                (Op::Prim(unary_prim(name).unwrap_or(Prim::Exp)), vec![a])
            }
            "min" | "max" | "append" => {
                let a = self.atom()?;
                self.expect(&Tok::Comma)?;
                let b = self.atom()?;
                let p = match name {
                    "min" => Prim::Min,
                    "max" => Prim::Max,
                    _ => Prim::Append,
                };
                (Op::Prim(p), vec![a, b])
            }
            "select" => {
                let c = self.atom()?;
                self.expect(&Tok::Comma)?;
                let a = self.atom()?;
                self.expect(&Tok::Comma)?;
                let b = self.atom()?;
                (Op::Prim(Prim::Select), vec![c, a, b])
            }
            "pow" => {
                let a = self.atom()?;
                self.expect(&Tok::Comma)?;
                let neg = self.eat(&Tok::Minus);
                let s = self.span();
                let LTok::Core(Tok::Int(k)) = self.peek().clone() else {
                    return Err(self.unexpected("an integer exponent"));
                };
                self.bump();
                let k = i64::try_from(&k)
                    .map_err(|_| syntax(s, format!("exponent `{k}` is too large")))?;
                (Op::Prim(Prim::Pow(if neg { -k } else { k })), vec![a])
            }
            "replicate" => {
                let n = self.size()?;
                self.expect(&Tok::Comma)?;
                (Op::Prim(Prim::Replicate(n)), vec![self.atom()?])
            }
            "transpose" | "reshape" => {
                let sh = self.shape()?;
                self.expect(&Tok::Comma)?;
                let p = if name == "transpose" {
                    Prim::Transpose(sh)
                } else {
                    Prim::Reshape(sh)
                };
                (Op::Prim(p), vec![self.atom()?])
            }
            "iota" => (Op::Prim(Prim::Iota(self.size()?)), Vec::new()),
            "stack" => {
                self.expect(&Tok::LBracket)?;
                let atoms = self.atoms_until(&Tok::RBracket)?;
                self.expect(&Tok::RBracket)?;
                (Op::Prim(Prim::Stack), atoms)
            }
            "zero" => (Op::Zero(self.ty()?), Vec::new()),
            "one_hot" => {
                let sh = self.shape()?;
                self.expect(&Tok::Comma)?;
                let mut args = vec![self.atom()?];
                while self.eat(&Tok::Comma) {
                    args.push(self.atom()?);
                }
                (Op::OneHot(sh), args)
            }
            "split" => {
                let n = self.size()?;
                self.expect(&Tok::Comma)?;
                (Op::Split(n), vec![self.atom()?])
            }
            _ => return Err(syntax(start, format!("`{name}` cannot be used here"))),
        };
        let close = self.expect(&Tok::RParen)?;
        Ok(self.mk(op, args, start.to(close)))
    }

    /// `gather(sh, x, is => [ix])` / `scatter(...)`; the index expressions are core
    /// expressions, parsed by the core parser from their source text.
    fn gather_scatter(&mut self, gather: bool) -> Result<LExpr> {
        let start = self.bump().span;
        self.expect(&Tok::LParen)?;
        let sh = self.shape()?;
        self.expect(&Tok::Comma)?;
        let src = self.atom()?;
        self.expect(&Tok::Comma)?;
        let mut binders = Vec::new();
        if self.eat(&Tok::LParen) {
            loop {
                binders.push(self.binder()?.0);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
            self.expect(&Tok::RParen)?;
        } else {
            binders.push(self.binder()?.0);
        }
        self.expect(&Tok::FatArrow)?;
        let ix = self.index_map()?;
        let close = self.expect(&Tok::RParen)?;
        let op = if gather {
            Op::Gather(sh, binders, ix)
        } else {
            Op::Scatter(sh, binders, ix)
        };
        Ok(self.mk(op, vec![src], start.to(close)))
    }

    /// `[e1, ..., ek]` of core expressions: the bracketed source is handed to the core
    /// parser (no `;` may occur inside).
    fn index_map(&mut self) -> Result<Vec<Expr>> {
        let open = self.expect(&Tok::LBracket)?;
        let mut level = 1usize;
        while level > 0 {
            match self.peek() {
                LTok::Core(Tok::LBracket) => level += 1,
                LTok::Core(Tok::RBracket) => level -= 1,
                LTok::Core(Tok::Eof) | LTok::Semi => return Err(self.unexpected("`]`")),
                _ => {}
            }
            self.bump();
        }
        let close = self.prev_span();
        let text = &self.src[open.start..close.end];
        if self.src[open.end..close.start].trim().is_empty() {
            return Ok(Vec::new());
        }
        let e = crate::parser::parse_expr(text).map_err(|d| shift_diag(d, open.start))?;
        let ExprKind::Array(items) = e.kind else {
            return Err(syntax(
                open.to(close),
                "expected an index list `[e1, ..., ek]`",
            ));
        };
        Ok(items
            .into_iter()
            .map(|mut x| {
                shift_spans(&mut x, open.start);
                x
            })
            .collect())
    }
}

fn shift_diag(d: Diagnostic, by: usize) -> Diagnostic {
    let mv = |s: Span| Span::new(s.start + by, s.end + by);
    Diagnostic {
        span: mv(d.span),
        labels: d.labels.into_iter().map(|(s, t)| (mv(s), t)).collect(),
        ..d
    }
}

fn shift_spans(e: &mut Expr, by: usize) {
    e.span = Span::new(e.span.start + by, e.span.end + by);
    for c in crate::visit::children_mut(e) {
        shift_spans(c, by);
    }
}
