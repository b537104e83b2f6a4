//! Parser of Linear A (concrete syntax in `docs/engines/linear.md`), reusing the core
//! lexer through [`super::lex`].
//!
//! ```text
//! program  = def { def } EOF
//! def      = 'def' NAME '(' params [ ';' params ] ')' '->' results '=' expr
//! params   = [ NAME ':' type { ',' NAME ':' type } ]
//! results  = '(' [ type % ',' ] ';' [ type % ',' ] ')' | type     -- `-> R` = `-> (R ;)`
//! expr     = 'let' pat '=' expr 'in' expr
//!          | '(' [ atom % ',' ] ';' [ NAME % ',' ] ')'             -- multi-value return
//!          | '(' expr ')'                                          -- grouping
//!          | NAME '(' [ atom % ',' ] [ ';' [ NAME % ',' ] ] ')'    -- call of an earlier def
//!          | 'dup' '(' NAME ')' | 'drop' '(' NAME ')'
//!          | op
//! pat      = NAME | '(' ')' | '(' [ NAME % ',' ] ';' [ NAME % ',' ] ')'
//!          | '(' NAME ',' NAME { ',' NAME } ')'                    -- unpack (bound = a variable)
//! op       = atom | atom binop atom | ('-' | '!') atom | atom '[' atom % ',' ']'
//!          | '(' atom ',' atom { ',' atom } ')' | '[' atom % ',' ']'
//!          | builtin | 'zero' '(' type ')' | 'one_hot' '(' shape ',' atom { ',' atom } ')'
//!          | 'split' '(' SIZE ',' atom ')'
//!          | ('gather' | 'scatter') '(' shape ',' atom ',' binders '=>' '[' core-exprs ']' ')'
//! atom     = NAME | INT | REAL | '-'INT | '-'REAL | 'true' | 'false' | '(' ['-']REAL '/' REAL ')'
//! ```
//!
//! The parser tracks which variables in scope are linear, so an operation is linear
//! exactly when one of its variable arguments is linear (`zero` and `dup` are always
//! linear), and `let x = e` binds a linear `x` exactly when `e` returns one linear value.
//! Whether the linear operation is *well typed* (`dx * y` scales from the wrong side,
//! `sin(dx)` has no linear form) is the checker's business ([`super::check`]).

mod exprs;
mod ops;

use super::ast::{Binders, LExpr, LinearDef, LinearProgram, RESERVED};
use super::lex::{lex, LTok, LToken};
use crate::ast::{Name, Param};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use crate::lexer::{Keyword, Tok};
use crate::limits;
use crate::types::{Base, Type};
use std::collections::HashMap;

/// Parses a Linear A program.
pub fn parse_program(src: &str) -> Result<LinearProgram> {
    let mut p = P::new(src)?;
    let prog = p.program()?;
    Ok(prog)
}

/// Parser state.
pub(super) struct P<'s> {
    src: &'s str,
    toks: Vec<LToken>,
    pos: usize,
    depth: usize,
    /// Variables in scope, innermost last, with whether they are linear.
    scope: Vec<(Name, bool)>,
    /// Earlier defs: numbers of non-linear and linear results.
    sigs: HashMap<Name, (usize, usize)>,
}

pub(super) fn syntax(span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(ErrorKind::Syntax, span, msg)
}

impl<'s> P<'s> {
    fn new(src: &'s str) -> Result<P<'s>> {
        Ok(P {
            src,
            toks: lex(src)?,
            pos: 0,
            depth: 0,
            scope: Vec::new(),
            sigs: HashMap::new(),
        })
    }

    pub(super) fn peek(&self) -> &LTok {
        self.peek_at(0)
    }

    pub(super) fn peek_at(&self, k: usize) -> &LTok {
        let last = self.toks.len() - 1;
        &self.toks[(self.pos + k).min(last)].tok
    }

    pub(super) fn span(&self) -> Span {
        self.span_at(0)
    }

    pub(super) fn span_at(&self, k: usize) -> Span {
        let last = self.toks.len() - 1;
        self.toks[(self.pos + k).min(last)].span
    }

    /// The span of the previous token.
    pub(super) fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].span
    }

    pub(super) fn bump(&mut self) -> LToken {
        let last = self.toks.len() - 1;
        let t = self.toks[self.pos.min(last)].clone();
        if self.pos < last {
            self.pos += 1;
        }
        t
    }

    pub(super) fn is(&self, t: &Tok) -> bool {
        matches!(self.peek(), LTok::Core(x) if x == t)
    }

    pub(super) fn is_kw(&self, k: Keyword) -> bool {
        self.is(&Tok::Kw(k))
    }

    pub(super) fn is_semi(&self) -> bool {
        matches!(self.peek(), LTok::Semi)
    }

    pub(super) fn eat(&mut self, t: &Tok) -> bool {
        if self.is(t) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn found(&self) -> String {
        match self.peek() {
            LTok::Core(Tok::Eof) => "end of input".into(),
            LTok::Semi => "`;`".into(),
            _ => {
                let s = self.span();
                format!("`{}`", self.src.get(s.start..s.end).unwrap_or("?"))
            }
        }
    }

    pub(super) fn unexpected(&self, what: &str) -> Diagnostic {
        syntax(
            self.span(),
            format!("expected {what}, found {}", self.found()),
        )
    }

    pub(super) fn expect(&mut self, t: &Tok) -> Result<Span> {
        if self.is(t) {
            Ok(self.bump().span)
        } else {
            Err(self.unexpected(&format!("`{}`", t.spelling().unwrap_or("?"))))
        }
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > limits::MAX_NESTING {
            return Err(syntax(
                self.span(),
                format!(
                    "nesting too deep (more than {} levels)",
                    limits::MAX_NESTING
                ),
            ));
        }
        Ok(())
    }

    /// A name that may be bound (not a keyword, built-in or Linear A reserved word).
    pub(super) fn binder(&mut self) -> Result<(Name, Span)> {
        match self.peek().clone() {
            LTok::Core(Tok::Ident(n)) => {
                let span = self.bump().span;
                if crate::lexer::is_builtin(&n) || RESERVED.contains(&n.as_str()) {
                    return Err(syntax(
                        span,
                        format!("`{n}` is reserved and cannot be bound"),
                    ));
                }
                Ok((n, span))
            }
            _ => Err(self.unexpected("a name")),
        }
    }

    /// Whether `name` is a linear variable in scope (`None`: unbound).
    pub(super) fn lookup(&self, name: &str) -> Option<bool> {
        self.scope
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, l)| *l)
    }

    /// Whether the variable atom `name` (at `span`) is linear; unbound names are errors.
    pub(super) fn var_kind(&self, name: &str, span: Span) -> Result<bool> {
        self.lookup(name).ok_or_else(|| {
            Diagnostic::new(ErrorKind::Name, span, format!("unbound variable `{name}`"))
        })
    }

    fn program(&mut self) -> Result<LinearProgram> {
        let mut defs = Vec::new();
        while !self.is(&Tok::Eof) {
            defs.push(self.def()?);
        }
        if defs.is_empty() {
            return Err(syntax(self.span(), "no definitions"));
        }
        Ok(LinearProgram { defs })
    }

    fn params(&mut self) -> Result<Vec<Param>> {
        let mut out = Vec::new();
        if matches!(self.peek(), LTok::Core(Tok::Ident(_))) {
            loop {
                let (name, s) = self.binder()?;
                self.expect(&Tok::Colon)?;
                let ty = self.ty()?;
                out.push(Param {
                    name,
                    ty,
                    span: s.to(self.prev_span()),
                });
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
        }
        Ok(out)
    }

    fn def(&mut self) -> Result<LinearDef> {
        let start = self.expect(&Tok::Kw(Keyword::Def))?;
        let (name, name_span) = self.binder()?;
        self.expect(&Tok::LParen)?;
        let params = self.params()?;
        let lparams = if self.is_semi() {
            self.bump();
            self.params()?
        } else {
            Vec::new()
        };
        self.expect(&Tok::RParen)?;
        self.expect(&Tok::Arrow)?;
        let (ret, lret) = self.results()?;
        self.expect(&Tok::Assign)?;
        self.scope.clear();
        for p in &params {
            self.scope.push((p.name.clone(), false));
        }
        for p in &lparams {
            self.scope.push((p.name.clone(), true));
        }
        let body = self.expr()?;
        self.scope.clear();
        if self.sigs.contains_key(&name) {
            return Err(Diagnostic::new(
                ErrorKind::Name,
                name_span,
                format!("`{name}` is defined twice"),
            ));
        }
        self.sigs.insert(name.clone(), (ret.len(), lret.len()));
        let span = start.to(body.span);
        Ok(LinearDef {
            name,
            params,
            lparams,
            ret,
            lret,
            body,
            span,
        })
    }

    /// `(T, ... ; T, ...)` or a single type (one non-linear result).
    fn results(&mut self) -> Result<(Vec<Type>, Vec<Type>)> {
        if !self.is(&Tok::LParen) {
            return Ok((vec![self.ty()?], Vec::new()));
        }
        let open = self.bump().span;
        let mut first = Vec::new();
        while !self.is_semi() && !self.is(&Tok::RParen) {
            first.push(self.ty()?);
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        if self.is_semi() {
            self.bump();
            let mut second = Vec::new();
            while !self.is(&Tok::RParen) {
                second.push(self.ty()?);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
            self.expect(&Tok::RParen)?;
            return Ok((first, second));
        }
        self.expect(&Tok::RParen)?;
        if first.len() < 2 {
            return Err(syntax(
                open,
                "a result list needs `;` (write `(T ;)` or `(; T)`), and a tuple type at least two components",
            ));
        }
        Ok((vec![Type::Tuple(first)], Vec::new()))
    }

    /// A core type: `R`, `Z[4]`, `R[2,3]`, `(R, R[3])`.
    pub(super) fn ty(&mut self) -> Result<Type> {
        self.enter()?;
        let t = self.ty_inner();
        self.depth -= 1;
        t
    }

    fn ty_inner(&mut self) -> Result<Type> {
        if self.eat(&Tok::LParen) {
            let mut ts = vec![self.ty()?];
            while self.eat(&Tok::Comma) {
                ts.push(self.ty()?);
            }
            let close = self.expect(&Tok::RParen)?;
            if ts.len() < 2 {
                return Err(syntax(close, "a tuple type has at least two components"));
            }
            return Ok(Type::Tuple(ts));
        }
        let base = match self.peek() {
            LTok::Core(Tok::Ident(n)) if n == "R" => Base::R,
            LTok::Core(Tok::Ident(n)) if n == "Z" => Base::Z,
            LTok::Core(Tok::Ident(n)) if n == "B" => Base::B,
            _ => return Err(self.unexpected("a type")),
        };
        self.bump();
        let shape = if self.is(&Tok::LBracket) {
            let sh = self.shape()?;
            if sh.is_empty() {
                return Err(syntax(
                    self.prev_span(),
                    "a shape needs at least one size (write `R` for a scalar)",
                ));
            }
            sh
        } else {
            Vec::new()
        };
        Ok(Type::Array(base, shape))
    }

    /// `[n, m, ...]` (possibly empty).
    pub(super) fn shape(&mut self) -> Result<Vec<usize>> {
        self.expect(&Tok::LBracket)?;
        let mut out = Vec::new();
        while !self.is(&Tok::RBracket) {
            out.push(self.size()?);
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::RBracket)?;
        Ok(out)
    }

    /// A non-negative integer that fits `usize`.
    pub(super) fn size(&mut self) -> Result<usize> {
        match self.peek().clone() {
            LTok::Core(Tok::Int(n)) => {
                let s = self.bump().span;
                usize::try_from(&n).map_err(|_| syntax(s, format!("size `{n}` is too large")))
            }
            _ => Err(self.unexpected("a size")),
        }
    }

    /// An expression.
    pub(super) fn expr(&mut self) -> Result<LExpr> {
        self.enter()?;
        let e = if self.is_kw(Keyword::Let) {
            self.let_chain()
        } else {
            self.simple()
        };
        self.depth -= 1;
        e
    }
}

/// A parsed `let` pattern.
pub(super) enum Pat {
    /// `x`.
    One(Name, Span),
    /// `()`, `(a ; b)`.
    Multi(Binders),
    /// `(a, b)` (unpack).
    Tuple(Vec<Name>, Span),
}

/// What one `let` of a chain binds.
pub(super) enum Frame {
    Let(Binders),
    Unpack(Vec<Name>, Name),
}
