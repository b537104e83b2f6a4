//! Recursive-descent parser (precedence climbing for operators) for the concrete syntax of
//! docs/language.md. Tokens come from [`crate::lexer`].
//!
//! # Grammar
//!
//! `{ x }` is zero or more, `[ x ]` optional, `x % ","` a non-empty comma-separated list
//! (no trailing comma), `'t'` a token. Rules are listed loosest first.
//!
//! ```text
//! program  = def { def } EOF                       -- an empty file: "no definitions"
//!                                                  -- a def other than the entry point whose
//!                                                  -- parameter types name sizes is kept as
//!                                                  -- a template (`template`)
//! def      = 'def' NAME '(' [ param % ',' ] ')' '->' type '=' expr
//! param    = NAME ':' type                          -- its type's sizes are PDIMs
//! type     = base [ '[' SIZE % ',' ']' ]           -- R  Z[4]  R[2,3]   (R[] is an error)
//!          | '(' type ',' type { ',' type } ')'    -- tuples have >= 2 components
//! base     = 'R' | 'Z' | 'B'
//!
//! expr     = or
//! or       = and { '||' and }                      -- left-associative
//! and      = cmp { '&&' cmp }                      -- left-associative
//! cmp      = add [ cmpop add ]                     -- non-associative: a < b < c is an error
//! cmpop    = '==' | '!=' | '<' | '<=' | '>' | '>='
//! add      = mul { ('+' | '-') mul }               -- left-associative
//! mul      = unary { ('*' | '/' | '%') unary }     -- left-associative
//! unary    = ('-' | '!') unary | postfix
//! postfix  = primary { '[' expr % ',' ']' | '.' INDEX }  -- e[i, j], e.0; p.0.1 = (p.0).1
//! primary  = '-' NUMBER                            -- '-' written right before a number (no
//!                                                  -- space) in prefix position: a negative
//!          | atom                                  -- literal; `-(3)`, `- 3` stay negations
//! atom     = INT | REAL | 'true' | 'false' | NAME
//!          | NAME '(' [ expr % ',' ] ')'           -- call of a user def
//!          | '(' expr ')' | '(' expr ',' expr % ',' ')'          -- grouping, tuple (n >= 2)
//!          | '[' expr % ',' ']'                    -- array literal (n >= 1)
//!          | builtin
//!          | 'build' extents lambda-arg
//!          | ('gather' | 'scatter') '(' shape ',' expr ',' index-map ')'
//!          | 'map' '(' lambda-arg ',' expr % ',' ')'
//!          | ('reduce' | 'scan') '(' op ',' expr ',' expr ')'
//!          | 'reduce_by_index' '(' expr ',' op ',' expr ',' expr ',' expr ')'
//!          | 'scatter_into' '(' expr ',' expr ',' expr ')'
//!          | 'let' pat '=' expr 'in' expr          -- \
//!          | 'if' expr 'then' expr 'else' expr     --  } the last expr extends as far
//!          | 'loop' '(' pat '=' expr ')' 'for' NAME '<' SIZE 'do' expr   -- / right as possible
//! builtin  = ('exp'|'log'|'sin'|'cos'|'tanh'|'sqrt'|'abs'|'floor'|'real'|'sum'|'sum_outer')
//!                '(' expr ')'
//!          | ('min' | 'max' | 'append') '(' expr ',' expr ')'
//!          | 'select' '(' expr ',' expr ',' expr ')'
//!          | 'pow' '(' expr ',' [ '-' ] INT ')'    -- static exponent, in ±i64::MAX
//!          | 'replicate' '(' SIZE ',' expr ')'
//!          | ('transpose' | 'reshape') '(' '[' [ SIZE % ',' ] ']' ',' expr ')'
//!          | 'iota' '(' SIZE ')'
//!          | 'stack' '(' '[' expr % ',' ']' ')'    -- args = the list's elements
//! extents  = satom | shape                       -- build n …, build (n - 1) …
//! shape    = '[' SIZE % ',' ']'
//! op       = '+' | '*' | 'min' | 'max' | lambda-arg
//! lambda-arg = '(' lambda ')' | lambda             -- build 3 (i => e), build 3 i => e
//! lambda   = binders '=>' expr
//! index-map  = '(' binders '=>' ixs ')' | binders '=>' ixs
//! ixs      = '[' [ expr % ',' ] ']'                -- a prefix index (may be empty)
//! binders  = NAME | '(' NAME % ',' ')'
//! pat      = NAME | '(' NAME ',' NAME { ',' NAME } ')'
//! SIZE     = size arithmetic on INT and size names, evaluated while parsing; its
//!            value is a non-negative usize (grammar of SIZE, satom, PDIM: `sizes`)
//! NAME     = identifier that is neither a keyword nor a built-in function name
//! ```
//!
//! A `lambda-arg` is parenthesised when it starts with `( NAME =>` or `( (`; otherwise it
//! is a bare lambda whose body extends as far right as possible (inside a `map`/`reduce`
//! argument list it stops at the next `,` or `)`).
//!
//! Notes:
//! * Built-in function names are reserved: using one as a variable, parameter, binder or
//!   `def` name is a syntax error naming it. `R`, `Z`, `B` are ordinary names outside types.
//! * A built-in with the wrong number of arguments is a syntax error. Arity of calls of user
//!   `def`s, and agreement of binder counts with shapes (`build`, `gather`), are left to the
//!   checker.
//! * Every node's span covers its source text (a parenthesised expression includes its
//!   parentheses).
//! * Nesting: every recursive descent (an operand, a parenthesised or bracketed
//!   expression, a `let`/`if`/`loop`/lambda body, each link of a left-associative operator
//!   chain or postfix chain, each nested tuple type) counts one level; past
//!   [`limits::MAX_NESTING`] the parser stops with "nesting too deep (more than 2000
//!   levels)". So a parsed tree is at most about `MAX_NESTING` deep, and parsing never
//!   overflows the stack: at the limit, the deepest nesting of any construct needs about
//!   1.5 MiB of stack in the test profile (1,900 nested parentheses: about 0.5 MiB), so it
//!   fits an 8 MiB main thread with a wide margin. Passes over the tree (printing,
//!   equality, checking) should still run under [`crate::with_stack`].

mod exprs;
mod forms;
mod hints;
mod items;
mod signature;
mod sizes;
mod template;

pub use signature::signatures;
pub(crate) use template::parse_instance;

use crate::ast::{Expr, ExprKind, Program};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use crate::lexer::{self, Tok, Token};
use crate::limits;
use crate::sizes::Sizes;
use crate::types::Type;

/// Parses a whole file (a list of `def`s).
pub fn parse_program(src: &str) -> Result<Program> {
    let mut p = Parser::new(src)?;
    p.program().map_err(|d| *d)
}

/// Parses a whole file whose entry point `entry` has the size parameters `sizes` (their
/// values, bound from the inputs by [`crate::sizes::Signature::bind`]): every size is
/// evaluated, so the result holds literal sizes only (docs/language.md, "Size
/// parameters").
pub fn parse_program_sized(src: &str, entry: &str, sizes: &Sizes) -> Result<Program> {
    let mut p = Parser::new(src)?;
    p.sizes.given = Some((entry.to_string(), sizes.clone()));
    p.program().map_err(|d| *d)
}

/// Parses a single expression (used for command-line literals and tests).
pub fn parse_expr(src: &str) -> Result<Expr> {
    let mut p = Parser::new(src)?;
    let e = p.expr().map_err(|d| *d)?;
    p.expect_eof().map_err(|d| *d)?;
    Ok(*e)
}

/// Parses a value literal (command-line `--input`, `--tangent`, `--cotangent`, golden
/// headers): an expression in which, unlike in programs, the empty array `[]` is
/// allowed, so that a value with a zero-length dimension can be written (`[]` for `R[0]`,
/// `[[], []]` for `R[2, 0]`; docs/language.md, "Literals"). Its type comes from the
/// parameter it is given for, never from the literal.
pub fn parse_literal(src: &str) -> Result<Expr> {
    let mut p = Parser::new(src)?;
    p.literals = true;
    let e = p.expr().map_err(|d| *d)?;
    p.expect_eof().map_err(|d| *d)?;
    Ok(*e)
}

/// Parses a type such as `R[2,3]` or `(R, Z[4])`.
pub fn parse_type(src: &str) -> Result<Type> {
    let mut p = Parser::new(src)?;
    let t = p.ty().map_err(|d| *d)?;
    p.expect_eof().map_err(|d| *d)?;
    Ok(t)
}

/// Parser state: the token list, a cursor, and the current nesting depth.
pub(crate) struct Parser<'s> {
    src: &'s str,
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    /// Whether `[]` is accepted ([`parse_literal`]).
    literals: bool,
    /// The size names in scope and their values.
    sizes: sizes::SizeCtx,
    /// The source, shared with the templates it holds (made at the first template).
    shared: Option<std::sync::Arc<str>>,
}

/// Results inside the parser: errors are boxed to keep the recursive frames small.
pub(crate) type PResult<T> = std::result::Result<T, Box<Diagnostic>>;

/// A parsed expression, boxed (it usually ends up as a child in a `Box<Expr>`).
pub(crate) type PExpr = PResult<Box<Expr>>;

/// A syntax error at `span`.
#[cold]
pub(crate) fn syntax(span: Span, msg: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::new(ErrorKind::Syntax, span, msg))
}

/// A boxed node (out of line, so that callers on the recursion path stay small).
#[inline(never)]
pub(crate) fn node(kind: ExprKind, span: Span) -> Box<Expr> {
    Box::new(Expr::new(kind, span))
}

impl<'s> Parser<'s> {
    fn new(src: &'s str) -> Result<Parser<'s>> {
        Ok(Parser {
            src,
            toks: lexer::lex(src)?,
            pos: 0,
            depth: 0,
            literals: false,
            sizes: sizes::SizeCtx::default(),
            shared: None,
        })
    }

    /// The current token.
    fn peek(&self) -> &Tok {
        self.peek_at(0)
    }

    /// The token `k` places ahead (end of input past the end).
    fn peek_at(&self, k: usize) -> &Tok {
        let last = self.toks.len() - 1;
        &self.toks[(self.pos + k).min(last)].tok
    }

    /// The span of the current token.
    fn span(&self) -> Span {
        self.toks[self.pos].span
    }

    /// The span of the token `k` places ahead.
    fn span_at(&self, k: usize) -> Span {
        let last = self.toks.len() - 1;
        self.toks[(self.pos + k).min(last)].span
    }

    /// Takes the current token (end of input stays put).
    fn bump(&mut self) -> Token {
        let last = self.toks.len() - 1;
        if self.pos == last {
            return self.toks[last].clone();
        }
        let span = self.toks[self.pos].span;
        let tok = std::mem::replace(&mut self.toks[self.pos].tok, Tok::Eof);
        self.pos += 1;
        Token { tok, span }
    }

    /// Takes the current token if it is `t`.
    fn eat(&mut self, t: &Tok) -> Option<Span> {
        if self.peek() == t {
            Some(self.bump().span)
        } else {
            None
        }
    }

    /// How the current token is named in messages: `` `in` `` or "end of input".
    fn found(&self) -> String {
        if matches!(self.peek(), Tok::Eof) {
            return "end of input".to_string();
        }
        let s = self.span();
        let text = self.src.get(s.start..s.end).unwrap_or("?");
        if text.chars().count() > 24 {
            let short: String = text.chars().take(20).collect();
            format!("`{short}...`")
        } else {
            format!("`{text}`")
        }
    }

    /// "expected WHAT, found TOKEN" at the current token.
    #[cold]
    #[inline(never)]
    fn unexpected(&self, what: &str) -> Box<Diagnostic> {
        syntax(
            self.span(),
            format!("expected {what}, found {}", self.found()),
        )
    }

    /// Consumes `t` or fails with "expected `t`, found ...".
    fn expect(&mut self, t: &Tok) -> PResult<Span> {
        match self.eat(t) {
            Some(s) => Ok(s),
            None => Err(self.unexpected(&format!("`{}`", t.spelling().unwrap_or("?")))),
        }
    }

    fn expect_eof(&mut self) -> PResult<()> {
        if matches!(self.peek(), Tok::Eof) {
            Ok(())
        } else {
            Err(self.unexpected("end of input"))
        }
    }

    /// Enters one nesting level (reported at the current token when too deep).
    #[inline]
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > limits::MAX_NESTING {
            return Err(self.too_deep());
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&self) -> Box<Diagnostic> {
        syntax(
            self.span(),
            format!(
                "nesting too deep (more than {} levels)",
                limits::MAX_NESTING
            ),
        )
    }

    /// Leaves `n` nesting levels.
    fn leave(&mut self, n: usize) {
        self.depth -= n;
    }
}
