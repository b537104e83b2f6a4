//! Recursive descent over the tokens of [`super::lexer`]. Loosest first:
//!
//! ```text
//! term    = '\' binder [':' type] '.' term | 'let' binder '=' term 'in' term | sum
//! binder  = NAME | '(' binder ',' binder { ',' binder } ')'   -- pattern: \(x, y). s
//! sum     = app { '+' app }
//! app     = postfix { postfix }                                  -- left-associative
//! postfix = atom { '.' ('0' | '1') }
//! atom    = NAME | NUM | 'zero' | 'omega' | 'pow' '<' INT '>'
//!         | '(' term ')' | '(' term ',' term { ',' term } ')'      -- (a, b, c) = (a, (b, c))
//!         | ('J' | 'dual' | 'pb') '(' term ',' term ')'
//! type    = tatom [ '->' type ]
//! tatom   = 'R' | 'dual' tatom | '(' type ')' | '(' type ',' type { ',' type } ')'
//! ```
//!
//! A pattern binder `\(x, y). s` is `\z. s{x := z.0, y := z.1}` with `z` fresh (paper
//! §3.1); `let (x, y) = s in t` likewise. `omega` is `\y. \w. w` (paper §3.3).

use super::lexer::{lex, Tok, Token};
use crate::syntax::{FnSym, Fresh, Term, TermKind, Ty, Var};
use adora_core::diag::{Diagnostic, ErrorKind, Span};

/// The deepest nesting of terms (and types) the parser accepts; deeper input is a
/// `resource` error, never a stack overflow (callers run on a large stack, as the
/// command line does: `adora_core::with_stack`).
pub const MAX_DEPTH: usize = adora_core::limits::MAX_NESTING;

type PResult<T> = Result<T, Box<Diagnostic>>;

/// Keywords: never variables.
const KEYWORDS: [&str; 7] = ["let", "in", "J", "dual", "pb", "zero", "omega"];

/// What a name in scope stands for.
#[derive(Clone)]
enum Binding {
    /// A binder.
    Var(Var),
    /// A component of a pattern binder: the variable and the projections (`true` = `.1`).
    Path(Var, Vec<bool>),
}

/// A parsed binder: a name or a pattern of binders.
enum Pat {
    Name(String),
    Tuple(Vec<Pat>),
}

struct Parser<'s> {
    src: &'s str,
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    closed: bool,
    fresh: Fresh,
    scope: Vec<(String, Binding)>,
}

pub(super) fn parse_term(src: &str, closed: bool) -> Result<Term, Diagnostic> {
    let mut p = Parser::new(src, closed)?;
    let t = p.term().map_err(|d| *d)?;
    p.expect_eof().map_err(|d| *d)?;
    Ok(t)
}

pub(super) fn parse_ty(src: &str) -> Result<Ty, Diagnostic> {
    let mut p = Parser::new(src, true)?;
    let t = p.ty().map_err(|d| *d)?;
    p.expect_eof().map_err(|d| *d)?;
    Ok(t)
}

fn syntax(span: Span, msg: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::new(ErrorKind::Syntax, span, msg))
}

impl<'s> Parser<'s> {
    fn new(src: &'s str, closed: bool) -> Result<Parser<'s>, Diagnostic> {
        Ok(Parser {
            src,
            toks: lex(src)?,
            pos: 0,
            depth: 0,
            closed,
            fresh: Fresh::starting_at(1),
            scope: Vec::new(),
        })
    }

    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn span(&self) -> Span {
        self.toks[self.pos].span
    }

    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn is_name(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Name(n) if n == s)
    }

    fn found(&self) -> String {
        if matches!(self.peek(), Tok::Eof) {
            return "end of input".to_string();
        }
        let s = self.span();
        let text: String = self.src[s.start..s.end].chars().take(20).collect();
        format!("`{text}`")
    }

    fn unexpected(&self, what: &str) -> Box<Diagnostic> {
        syntax(
            self.span(),
            format!("expected {what}, found {}", self.found()),
        )
    }

    fn expect(&mut self, t: Tok, what: &str) -> PResult<Span> {
        if *self.peek() == t {
            Ok(self.bump().span)
        } else {
            Err(self.unexpected(what))
        }
    }

    fn expect_eof(&mut self) -> PResult<()> {
        if matches!(self.peek(), Tok::Eof) {
            Ok(())
        } else {
            Err(self.unexpected("end of input"))
        }
    }

    /// Enters one nesting level.
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Box::new(Diagnostic::new(
                ErrorKind::Resource,
                self.span(),
                format!("nesting too deep (more than {MAX_DEPTH} levels)"),
            )));
        }
        Ok(())
    }

    fn term(&mut self) -> PResult<Term> {
        self.enter()?;
        let start = self.span();
        let t = match self.peek() {
            Tok::Lambda => {
                self.bump();
                let pat = self.binder()?;
                let ann = if *self.peek() == Tok::Colon {
                    self.bump();
                    Some(self.ty()?)
                } else {
                    None
                };
                self.expect(Tok::Dot, "`.` after the binder")?;
                let mark = self.scope.len();
                let x = self.bind(&pat);
                let body = self.term();
                self.scope.truncate(mark);
                let body = body?;
                let span = start.to(body.span);
                Term::new(TermKind::Lam(x, ann, Box::new(body))).at(span)
            }
            Tok::Name(n) if n == "let" => {
                self.bump();
                let pat = self.binder()?;
                self.expect(Tok::Eq, "`=` after the let binder")?;
                let bound = self.term()?;
                if !self.is_name("in") {
                    return Err(self.unexpected("`in`"));
                }
                self.bump();
                let mark = self.scope.len();
                let x = self.bind(&pat);
                let body = self.term();
                self.scope.truncate(mark);
                let body = body?;
                let span = start.to(body.span);
                Term::let_(&x, bound, body).at(span)
            }
            _ => self.sum()?,
        };
        self.depth -= 1;
        Ok(t)
    }

    fn binder(&mut self) -> PResult<Pat> {
        self.enter()?;
        let pat = match self.peek().clone() {
            Tok::Name(n) if !KEYWORDS.contains(&n.as_str()) => {
                self.bump();
                Pat::Name(n)
            }
            Tok::LParen => {
                self.bump();
                let mut items = vec![self.binder()?];
                while *self.peek() == Tok::Comma {
                    self.bump();
                    items.push(self.binder()?);
                }
                if items.len() < 2 {
                    return Err(self.unexpected("`,` in a pattern"));
                }
                self.expect(Tok::RParen, "`)` closing the pattern")?;
                Pat::Tuple(items)
            }
            _ => return Err(self.unexpected("a variable name or a pattern `(x, y)`")),
        };
        self.depth -= 1;
        Ok(pat)
    }

    /// Brings the names of `pat` into scope; returns the binder's variable.
    fn bind(&mut self, pat: &Pat) -> Var {
        match pat {
            Pat::Name(n) => {
                let x = self.fresh.var(base_name(n));
                self.scope.push((n.clone(), Binding::Var(x.clone())));
                x
            }
            Pat::Tuple(_) => {
                let z = self.fresh.var("p");
                self.bind_path(pat, &z, &mut Vec::new());
                z
            }
        }
    }

    fn bind_path(&mut self, pat: &Pat, z: &Var, path: &mut Vec<bool>) {
        match pat {
            Pat::Name(n) => self
                .scope
                .push((n.clone(), Binding::Path(z.clone(), path.clone()))),
            Pat::Tuple(items) => {
                // (a, b, c) is (a, (b, c)): every item but the last is a `.0` of the rest.
                let last = items.len() - 1;
                for (i, item) in items.iter().enumerate() {
                    let depth = path.len();
                    path.extend(std::iter::repeat_n(true, i));
                    if i < last {
                        path.push(false);
                    }
                    self.bind_path(item, z, path);
                    path.truncate(depth);
                }
            }
        }
    }

    fn sum(&mut self) -> PResult<Term> {
        let first = self.app()?;
        if *self.peek() != Tok::Plus {
            return Ok(first);
        }
        let mut span = first.span;
        let mut items = vec![first];
        while *self.peek() == Tok::Plus {
            self.bump();
            let t = self.app()?;
            span = span.to(t.span);
            items.push(t);
        }
        Ok(Term::sum(items).at(span))
    }

    fn starts_atom(&self) -> bool {
        match self.peek() {
            Tok::Name(n) => n != "let" && n != "in",
            Tok::Num(_) | Tok::LParen => true,
            _ => false,
        }
    }

    fn app(&mut self) -> PResult<Term> {
        let mut f = self.postfix()?;
        let mut levels = 0;
        while self.starts_atom() {
            self.enter()?;
            levels += 1;
            let a = self.postfix()?;
            let span = f.span.to(a.span);
            f = Term::app(f, a).at(span);
        }
        self.depth -= levels;
        Ok(f)
    }

    fn postfix(&mut self) -> PResult<Term> {
        let mut t = self.atom()?;
        let mut levels = 0;
        while *self.peek() == Tok::Dot {
            self.bump();
            self.enter()?;
            levels += 1;
            let span = self.span();
            let second = match self.peek() {
                Tok::Index(i) if i == "0" => false,
                Tok::Index(i) if i == "1" => true,
                Tok::Index(i) => {
                    return Err(syntax(
                        span,
                        format!("projection index `{i}`: pairs have components 0 and 1 (write `s.1.0` for a nested pair)"),
                    ))
                }
                _ => return Err(self.unexpected("`0` or `1` after `.` (a projection)")),
            };
            self.bump();
            let whole = t.span.to(span);
            t = Term::proj(t, second).at(whole);
        }
        self.depth -= levels;
        Ok(t)
    }

    fn atom(&mut self) -> PResult<Term> {
        let span = self.span();
        match self.peek().clone() {
            Tok::Num(r) => {
                self.bump();
                Ok(Term::num(r).at(span))
            }
            Tok::LParen => {
                self.bump();
                let mut items = vec![self.term()?];
                while *self.peek() == Tok::Comma {
                    self.bump();
                    items.push(self.term()?);
                }
                let close = self.expect(Tok::RParen, "`)` or `,`")?;
                let whole = span.to(close);
                let mut t = items.pop().expect("one item");
                if items.is_empty() {
                    return Ok(t);
                }
                while let Some(a) = items.pop() {
                    let s = a.span.to(t.span);
                    t = Term::pair(a, t).at(s);
                }
                Ok(t.at(whole))
            }
            Tok::Name(n) => {
                self.bump();
                self.name(n, span)
            }
            _ => Err(self.unexpected("a term")),
        }
    }

    fn name(&mut self, n: String, span: Span) -> PResult<Term> {
        match n.as_str() {
            "zero" => return Ok(Term::zero().at(span)),
            "omega" => return Ok(Term::omega(&mut self.fresh).at(span)),
            "J" | "dual" | "pb" => {
                self.expect(Tok::LParen, &format!("`(` after `{n}`"))?;
                let a = self.term()?;
                self.expect(Tok::Comma, &format!("`,` between the arguments of `{n}`"))?;
                let b = self.term()?;
                let close = self.expect(Tok::RParen, &format!("`)` closing `{n}(…)`"))?;
                let t = match n.as_str() {
                    "J" => Term::jac(a, b),
                    "dual" => Term::dual(a, b),
                    _ => Term::pb(a, b),
                };
                return Ok(t.at(span.to(close)));
            }
            "let" | "in" => return Err(syntax(span, format!("unexpected `{n}`"))),
            _ => {}
        }
        if let Some((_, b)) = self.scope.iter().rev().find(|(k, _)| *k == n) {
            return Ok(match b {
                Binding::Var(x) => Term::var(x).at(span),
                Binding::Path(z, path) => path
                    .iter()
                    .fold(Term::var(z), |t, &second| Term::proj(t, second))
                    .at(span),
            });
        }
        if *self.peek() == Tok::Lt {
            return self.indexed_symbol(n, span);
        }
        if let Some(f) = FnSym::from_name(&n) {
            return Ok(Term::sym(f).at(span));
        }
        if n == "pow" {
            return Err(syntax(span, "`pow` needs its exponent: `pow<3>`"));
        }
        if self.closed {
            return Err(Box::new(
                Diagnostic::new(
                    ErrorKind::Name,
                    span,
                    format!("unbound name `{n}`: neither a variable in scope nor a function symbol"),
                )
                .with_help("function symbols: add sub mul div neg pow<k> abs min max exp log sin cos tanh sqrt floor zdiv zmod lt le gt ge eq ne sel_lt … sel_ne and or not"),
            ));
        }
        Ok(Term::var(&Var::new(&n, 0)).at(span))
    }

    /// `pow<k>` (the only symbol with a parameter).
    fn indexed_symbol(&mut self, n: String, span: Span) -> PResult<Term> {
        if n != "pow" {
            return Err(Box::new(Diagnostic::new(
                ErrorKind::Name,
                span,
                format!("unknown function symbol `{n}<…>` (only `pow<k>` takes a parameter)"),
            )));
        }
        self.bump();
        let k_span = self.span();
        let k = match self.peek() {
            Tok::Num(r) if r.is_integer() => {
                let k = r.to_integer();
                i64::try_from(k).map_err(|_| syntax(k_span, "exponent out of range"))?
            }
            _ => return Err(self.unexpected("an integer exponent")),
        };
        self.bump();
        let close = self.expect(Tok::Gt, "`>` closing `pow<k>`")?;
        Ok(Term::sym(FnSym::Pow(k)).at(span.to(close)))
    }

    fn ty(&mut self) -> PResult<Ty> {
        self.enter()?;
        let a = self.ty_atom()?;
        let t = if *self.peek() == Tok::Arrow {
            self.bump();
            Ty::fun(a, self.ty()?)
        } else {
            a
        };
        self.depth -= 1;
        Ok(t)
    }

    fn ty_atom(&mut self) -> PResult<Ty> {
        self.enter()?;
        let t = match self.peek() {
            Tok::Name(n) if n == "R" => {
                self.bump();
                Ty::Real
            }
            Tok::Name(n) if n == "dual" => {
                self.bump();
                Ty::Dual(Box::new(self.ty_atom()?))
            }
            Tok::LParen => {
                self.bump();
                let mut items = vec![self.ty()?];
                while *self.peek() == Tok::Comma {
                    self.bump();
                    items.push(self.ty()?);
                }
                self.expect(Tok::RParen, "`)` or `,` in a type")?;
                let mut t = items.pop().expect("one item");
                while let Some(a) = items.pop() {
                    t = Ty::pair(a, t);
                }
                t
            }
            _ => return Err(self.unexpected("a type (`R`, `(σ, τ)`, `σ -> τ`, `dual σ`)")),
        };
        self.depth -= 1;
        Ok(t)
    }
}

/// The name of a variable without the printer's `'id` suffix.
fn base_name(n: &str) -> &str {
    n.split('\'').next().unwrap_or(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_paths_follow_right_nested_tuples() {
        let t = parse_term(r"\(a, b, c). (c, a)", true).unwrap();
        assert_eq!(crate::print::term(&t), r"\p. (p.1.1, p.0)");
    }
}
