//! Parser: static sizes — integer literals, size names bound by parameter types, and size
//! arithmetic (docs/language.md, "Size parameters"). Every size is evaluated while it is
//! parsed, under the sizes of the `def` being parsed, so the tree holds plain numbers.
//!
//! ```text
//! SIZE   = sterm { ('+' | '-') sterm }            -- in result types and bodies
//! sterm  = satom { ('*' | '/' | '%') satom }      -- `/`, `%`: floor division, remainder
//! satom  = INT | NAME | '(' SIZE ')' | ('min' | 'max') '(' SIZE ',' SIZE ')'
//! PDIM   = INT | NAME                             -- a dimension of a parameter type
//! ```
//!
//! `build`'s single extent is an `satom` (`build n (i => …)`, `build (n - k + 1) …`).

use super::{syntax, PResult, Parser};
use crate::ast::Name;
use crate::diag::{Diagnostic, ErrorKind, Span};
use crate::lexer::Tok;
use crate::sizes::{SizeExpr, SizeOp, Sizes};
use num_traits::ToPrimitive;

/// The size state of a parse: the sizes given for the entry point, and the scope of the
/// `def` being parsed.
#[derive(Default)]
pub(crate) struct SizeCtx {
    /// The entry point and the values of its size parameters (a sized parse).
    pub given: Option<(Name, Sizes)>,
    /// The `def` being parsed.
    pub owner: Name,
    /// The sizes in scope: those bound by the current `def`'s parameter types.
    pub scope: Sizes,
    /// The size names of the current `def`'s parameter types, first occurrence first.
    pub bound: Vec<(Name, Span)>,
    /// Whether a parameter type is being parsed.
    pub in_param: bool,
    /// The size names of the template being parsed (a `def` other than the entry point
    /// with size parameters, [`crate::sizes::Template`]): each stands for a placeholder,
    /// 0, and size errors other than unknown names are ignored.
    pub placeholders: Option<Vec<Name>>,
    /// With `placeholders`: every name in a parameter type is a placeholder (a `def`
    /// whose signature does not parse, `Parser::broken_def`).
    pub any_name: bool,
}

impl SizeCtx {
    /// Starts the `def` named `owner`: an empty scope, the given sizes at the entry, or
    /// placeholders in a template.
    pub fn begin_def(&mut self, owner: &str) {
        self.owner = owner.to_string();
        self.bound.clear();
        self.in_param = false;
        self.scope = match (&self.placeholders, &self.given) {
            (Some(names), _) => names.iter().map(|n| (n.clone(), 0)).collect(),
            (None, Some((entry, sizes))) if entry == owner => sizes.clone(),
            _ => Sizes::new(),
        };
    }
}

impl Parser<'_> {
    /// A static size where one is expected (types, `build`, `gather`, `replicate`, `iota`,
    /// `reshape`, `transpose`, `loop`): in a parameter type a `PDIM`, elsewhere a `SIZE`.
    pub(super) fn size(&mut self) -> PResult<usize> {
        if self.sizes.in_param {
            return self.param_dim();
        }
        let e = self.size_sum()?;
        self.eval_size(&e)
    }

    /// `build`'s single extent: an `satom`.
    pub(super) fn size_atom(&mut self) -> PResult<usize> {
        let e = self.satom()?;
        self.eval_size(&e)
    }

    fn eval_size(&self, e: &SizeExpr) -> PResult<usize> {
        match e.size(&self.sizes.scope, &self.sizes.owner) {
            Ok(v) => Ok(v),
            // A template's sizes are placeholders: only its instances' sizes are checked.
            Err(d) if self.sizes.placeholders.is_some() && d.kind != ErrorKind::Name => Ok(0),
            Err(d) => Err(Box::new(d)),
        }
    }

    /// A dimension of a parameter type: a literal, or a size name that the parameter binds.
    fn param_dim(&mut self) -> PResult<usize> {
        match self.peek().clone() {
            Tok::Int(_) => self.size_literal(),
            Tok::Ident(n) if !crate::lexer::is_builtin(&n) => {
                let span = self.bump().span;
                if !self.sizes.bound.iter().any(|(b, _)| *b == n) {
                    self.sizes.bound.push((n.clone(), span));
                }
                match self.sizes.scope.get(&n) {
                    Some(v) => Ok(*v),
                    None if self.sizes.any_name => Ok(0),
                    None => Err(self.unbound_param_size(&n, span)),
                }
            }
            Tok::Minus | Tok::Real(_) => Err(self.not_a_size()),
            _ => Err(self.unexpected(
                "a size (a non-negative integer literal or a size name) in a parameter type",
            )),
        }
    }

    /// A size name of a parameter type without a value in this parse.
    #[cold]
    fn unbound_param_size(&self, n: &str, span: Span) -> Box<Diagnostic> {
        let owner = &self.sizes.owner;
        Box::new(Diagnostic::new(
            ErrorKind::Input,
            span,
            format!(
                "`{owner}` has the size parameter `{n}`, which has no value: sizes are bound from the shapes of the inputs (`--input`, `--inputs`) or by `--size {n}=N`"
            ),
        ))
    }

    /// `SIZE = sterm { ('+' | '-') sterm }`.
    fn size_sum(&mut self) -> PResult<SizeExpr> {
        let mut e = self.size_product()?;
        loop {
            let op = match self.peek() {
                Tok::Plus => SizeOp::Add,
                Tok::Minus => SizeOp::Sub,
                _ => return Ok(e),
            };
            self.bump();
            let r = self.size_product()?;
            let span = e.span().to(r.span());
            e = SizeExpr::Bin(op, Box::new(e), Box::new(r), span);
        }
    }

    /// `sterm = satom { ('*' | '/' | '%') satom }`.
    fn size_product(&mut self) -> PResult<SizeExpr> {
        let mut e = self.satom()?;
        loop {
            let op = match self.peek() {
                Tok::Star => SizeOp::Mul,
                Tok::Slash => SizeOp::Div,
                Tok::Percent => SizeOp::Mod,
                _ => return Ok(e),
            };
            self.bump();
            let r = self.satom()?;
            let span = e.span().to(r.span());
            e = SizeExpr::Bin(op, Box::new(e), Box::new(r), span);
        }
    }

    /// `satom = INT | NAME | '(' SIZE ')' | ('min' | 'max') '(' SIZE ',' SIZE ')'`.
    fn satom(&mut self) -> PResult<SizeExpr> {
        match self.peek().clone() {
            Tok::Int(_) => {
                let span = self.span();
                let v = self.size_literal()?;
                Ok(SizeExpr::Lit(v as u128, span))
            }
            Tok::Ident(n) if n == "min" || n == "max" => {
                let start = self.bump().span;
                self.expect(&Tok::LParen)?;
                self.enter()?;
                let a = self.size_sum()?;
                self.expect(&Tok::Comma)?;
                let b = self.size_sum()?;
                self.leave(1);
                let end = self.expect(&Tok::RParen)?;
                let op = if n == "min" { SizeOp::Min } else { SizeOp::Max };
                Ok(SizeExpr::Bin(op, Box::new(a), Box::new(b), start.to(end)))
            }
            Tok::Ident(n) if !crate::lexer::is_builtin(&n) => {
                let span = self.bump().span;
                Ok(SizeExpr::Name(n, span))
            }
            Tok::LParen => {
                self.enter()?;
                self.bump();
                let e = self.size_sum()?;
                self.expect(&Tok::RParen)?;
                self.leave(1);
                Ok(e)
            }
            Tok::Minus | Tok::Real(_) => Err(self.not_a_size()),
            _ => Err(self.unexpected(
                "a size (a non-negative integer literal, a size name or size arithmetic)",
            )),
        }
    }

    /// A non-negative integer literal that fits in `usize`.
    fn size_literal(&mut self) -> PResult<usize> {
        let t = self.bump();
        match &t.tok {
            Tok::Int(n) => n.to_usize().ok_or_else(|| {
                syntax(t.span, format!("size `{}` is too large", self.text(t.span)))
            }),
            _ => Err(syntax(t.span, "expected a size")),
        }
    }

    /// The error at `-3` or `2.5` where a size is expected.
    #[cold]
    fn not_a_size(&self) -> Box<Diagnostic> {
        let s = if matches!(self.peek(), Tok::Minus) {
            self.span().to(self.span_at(1))
        } else {
            self.span()
        };
        let text = self.text(s);
        syntax(
            s,
            format!("a size must be a non-negative integer literal, found `{text}`"),
        )
    }
}
