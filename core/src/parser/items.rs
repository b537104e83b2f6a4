//! Parser: top-level items and small pieces — `def`s, parameters, types, names, patterns
//! (grammar in the parent module; sizes are in `sizes`).

use super::{syntax, PResult, Parser};
use crate::ast::{Def, Name, Param, Pat, Program};
use crate::diag::{Diagnostic, ErrorKind, Span};
use crate::lexer::{self, Keyword, Tok};
use crate::types::{Base, Type};
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};

impl Parser<'_> {
    /// `program = def { def } EOF`.
    pub(super) fn program(&mut self) -> PResult<Program> {
        let mut defs = Vec::new();
        let mut templates = Vec::new();
        while !matches!(self.peek(), Tok::Eof) {
            if !matches!(self.peek(), Tok::Kw(Keyword::Def)) {
                return Err(self.unexpected("`def`"));
            }
            match self.template_signature() {
                Ok(Some(sig)) => templates.push(self.template(sig)?),
                Ok(None) => defs.push(self.def()?),
                Err(why) => defs.push(self.broken_def(why)?),
            }
        }
        if defs.is_empty() && templates.is_empty() {
            return Err(syntax(self.span(), "no definitions"));
        }
        Ok(Program { defs, templates })
    }

    /// `def NAME '(' [ param % ',' ] ')' '->' type '=' expr`.
    pub(super) fn def(&mut self) -> PResult<Def> {
        let start = self.expect(&Tok::Kw(Keyword::Def))?;
        let (name, name_span) = self.name()?;
        self.sizes.begin_def(&name);
        self.expect(&Tok::LParen)?;
        let mut params = Vec::new();
        if self.eat(&Tok::RParen).is_none() {
            loop {
                let (pname, pspan) = self.name()?;
                self.expect(&Tok::Colon)?;
                let tstart = self.span();
                self.sizes.in_param = true;
                let ty = self.ty()?;
                self.sizes.in_param = false;
                let tend = self.span_at_prev();
                params.push(Param {
                    name: pname,
                    ty,
                    span: pspan.to(tstart).to(tend),
                });
                if self.eat(&Tok::Comma).is_none() {
                    self.expect(&Tok::RParen)?;
                    break;
                }
            }
        }
        self.size_names_distinct(&params)?;
        self.expect(&Tok::Arrow)?;
        let ret = self.ty()?;
        self.expect(&Tok::Assign)?;
        let mut body = *self.expr()?;
        crate::sizes::subst::size_values(&mut body, &self.sizes.scope);
        let span = start.to(body.span);
        Ok(Def {
            name,
            params,
            ret,
            body,
            span,
            name_span,
        })
    }

    /// Rejects a size name that is also a value parameter of the same `def`.
    fn size_names_distinct(&self, params: &[Param]) -> PResult<()> {
        for (n, span) in &self.sizes.bound {
            if let Some(p) = params.iter().find(|p| p.name == *n) {
                let msg = format!(
                    "`{n}` is both a size parameter and a parameter of `{}`",
                    self.sizes.owner
                );
                return Err(Box::new(
                    Diagnostic::new(ErrorKind::Name, *span, msg)
                        .with_label(p.span, "the parameter"),
                ));
            }
        }
        Ok(())
    }

    /// The span of the token just consumed.
    pub(super) fn span_at_prev(&self) -> Span {
        if self.pos == 0 {
            self.span()
        } else {
            self.toks[self.pos - 1].span
        }
    }

    /// `type = base [ '[' SIZE % ',' ']' ] | '(' type ',' type { ',' type } ')'`.
    pub(super) fn ty(&mut self) -> PResult<Type> {
        match self.peek() {
            Tok::LParen => {
                self.enter()?;
                let open = self.bump().span;
                let mut parts = vec![self.ty()?];
                while self.eat(&Tok::Comma).is_some() {
                    parts.push(self.ty()?);
                }
                let close = self.expect(&Tok::RParen)?;
                self.leave(1);
                if parts.len() < 2 {
                    return Err(syntax(
                        open.to(close),
                        "a tuple type needs at least two components",
                    ));
                }
                Ok(Type::Tuple(parts))
            }
            Tok::Ident(n) if Base::from_name(n).is_some() => {
                let base = Base::from_name(n).unwrap_or(Base::R);
                self.bump();
                let shape = if matches!(self.peek(), Tok::LBracket) {
                    self.shape(false)?
                } else {
                    Vec::new()
                };
                Ok(Type::Array(base, shape))
            }
            _ => Err(self.unexpected("a type (`R`, `Z`, `B` or a tuple)")),
        }
    }

    /// A binder or definition name: an identifier that is not reserved.
    pub(super) fn name(&mut self) -> PResult<(Name, Span)> {
        match self.peek() {
            Tok::Ident(n) if lexer::is_builtin(n) => Err(syntax(
                self.span(),
                format!("`{n}` is a built-in function and cannot be used as a name"),
            )),
            Tok::Ident(_) => {
                let t = self.bump();
                match t.tok {
                    Tok::Ident(n) => Ok((n, t.span)),
                    _ => Err(syntax(t.span, "expected a name")),
                }
            }
            _ => Err(self.unexpected("a name")),
        }
    }

    /// `pat = NAME | '(' NAME ',' NAME { ',' NAME } ')'`.
    pub(super) fn pat(&mut self) -> PResult<Pat> {
        if let Some(open) = self.eat(&Tok::LParen) {
            let names = self.names_until_rparen()?;
            if names.len() < 2 {
                let close = self.span_at_prev();
                return Err(syntax(
                    open.to(close),
                    "a tuple pattern needs at least two names",
                ));
            }
            Ok(Pat::Tuple(names))
        } else {
            Ok(Pat::Var(self.name()?.0))
        }
    }

    /// `NAME % ',' ')'` (the `(` already consumed).
    pub(super) fn names_until_rparen(&mut self) -> PResult<Vec<Name>> {
        let mut names = vec![self.name()?.0];
        while self.eat(&Tok::Comma).is_some() {
            names.push(self.name()?.0);
        }
        self.expect(&Tok::RParen)?;
        Ok(names)
    }

    /// A static integer that may be negative (the exponent of `pow`), in `±i64::MAX`.
    pub(super) fn signed_int(&mut self) -> PResult<i64> {
        let start = self.span();
        let negative = self.eat(&Tok::Minus).is_some();
        match self.peek() {
            Tok::Int(n) => {
                let v: BigInt = if negative { -n.clone() } else { n.clone() };
                let end = self.bump().span;
                // At least `-i64::MAX`, so that the derivative's exponent `k - 1` of every
                // engine and of the reference is an `i64` too (docs/language.md, "pow").
                v.to_i64().filter(|k| *k != i64::MIN).ok_or_else(|| {
                    let what = if v.is_negative() { "small" } else { "large" };
                    syntax(
                        start.to(end),
                        format!(
                            "exponent `{v}` is too {what} (exponents lie in ±{})",
                            i64::MAX
                        ),
                    )
                })
            }
            _ => Err(self.unexpected("an integer literal")),
        }
    }

    /// `'[' SIZE % ',' ']'`; `allow_empty` also accepts `[]`.
    pub(super) fn shape(&mut self, allow_empty: bool) -> PResult<Vec<usize>> {
        let open = self.expect(&Tok::LBracket)?;
        let mut dims = Vec::new();
        if let Some(close) = self.eat(&Tok::RBracket) {
            if allow_empty {
                return Ok(dims);
            }
            return Err(syntax(
                open.to(close),
                "expected at least one size between `[` and `]`",
            ));
        }
        loop {
            dims.push(self.size()?);
            if self.eat(&Tok::Comma).is_none() {
                self.expect(&Tok::RBracket)?;
                return Ok(dims);
            }
        }
    }

    /// The source text of `span`.
    pub(super) fn text(&self, span: Span) -> &str {
        self.src.get(span.start..span.end).unwrap_or("?")
    }
}
