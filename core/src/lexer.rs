//! Lexer: source text → tokens with byte spans (docs/language.md).
//!
//! ```text
//! whitespace  = ' ' | '\t' | '\r' | '\n'
//! comment     = "--" { any character except a control character other than '\t' '\r' } '\n'
//! ident       = [A-Za-z_] [A-Za-z0-9_']*          (minus the keywords below)
//! int         = digit+                              → Tok::Int   (e.g. 3)
//! real        = digit+ '.' digit+ [exponent]        → Tok::Real  (exact: 2.5 = 5/2)
//!             | digit+ exponent                     → Tok::Real  (2e-2 = 1/50)
//! exponent    = ('e' | 'E') ['+' | '-'] digit+      (|exponent| <= 4000)
//! projection  = '.' digit+                          → Tok::Proj  (only right after an
//!               identifier, ')', ']' or another projection: so p.0.1 is (p.0).1)
//! punctuation = ( ) [ ] , : -> => = + - * / % == != < <= > >= && || !
//! keywords    = def let in if then else build gather scatter map reduce scan
//!               reduce_by_index scatter_into loop for do true false inf nan
//! ```
//!
//! Operators are read greedily (`->`, `=>`, `==`, `!=`, `<=`, `>=`, `&&`, `||` before their
//! one-character prefixes); `--` always starts a comment, so `a--3` is `a` followed by a
//! comment. A number may not run into an identifier character (`3x` is an error). Any other
//! character — control characters, NUL, non-ASCII outside comments — is a syntax error at
//! its position. Minus signs are never part of a number token; the parser folds a `-`
//! written immediately before a number in prefix position into a negative literal.
//!
//! Built-in function names ([`BUILTINS`]) lex as identifiers; the parser reserves them.

use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Pow;

/// Largest decimal exponent accepted in a real literal (`1e4000`), so that a short literal
/// cannot ask for an astronomically large exact number.
pub const MAX_EXPONENT: u32 = 4000;

/// Reserved words of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keyword {
    /// `def`
    Def,
    /// `let`
    Let,
    /// `in`
    In,
    /// `if`
    If,
    /// `then`
    Then,
    /// `else`
    Else,
    /// `build`
    Build,
    /// `gather`
    Gather,
    /// `scatter`
    Scatter,
    /// `map`
    Map,
    /// `reduce`
    Reduce,
    /// `scan`
    Scan,
    /// `reduce_by_index`
    ReduceByIndex,
    /// `scatter_into`
    ScatterInto,
    /// `loop`
    Loop,
    /// `for`
    For,
    /// `do`
    Do,
    /// `true`
    True,
    /// `false`
    False,
    /// `inf` (a real literal that only `--numeric f64` evaluates)
    Inf,
    /// `nan` (a real literal that only `--numeric f64` evaluates)
    Nan,
}

const KEYWORDS: [(&str, Keyword); 21] = [
    ("def", Keyword::Def),
    ("let", Keyword::Let),
    ("in", Keyword::In),
    ("if", Keyword::If),
    ("then", Keyword::Then),
    ("else", Keyword::Else),
    ("build", Keyword::Build),
    ("gather", Keyword::Gather),
    ("scatter", Keyword::Scatter),
    ("map", Keyword::Map),
    ("reduce", Keyword::Reduce),
    ("scan", Keyword::Scan),
    ("reduce_by_index", Keyword::ReduceByIndex),
    ("scatter_into", Keyword::ScatterInto),
    ("loop", Keyword::Loop),
    ("for", Keyword::For),
    ("do", Keyword::Do),
    ("true", Keyword::True),
    ("false", Keyword::False),
    ("inf", Keyword::Inf),
    ("nan", Keyword::Nan),
];

impl Keyword {
    /// The keyword's spelling.
    pub fn as_str(self) -> &'static str {
        KEYWORDS
            .iter()
            .find(|(_, k)| *k == self)
            .map(|(s, _)| *s)
            .unwrap_or("?")
    }
    /// The keyword spelled `s`, if any.
    pub fn lookup(s: &str) -> Option<Keyword> {
        KEYWORDS.iter().find(|(w, _)| *w == s).map(|(_, k)| *k)
    }
}

/// Names of the built-in functions; they are reserved (not usable as names).
pub const BUILTINS: [&str; 21] = [
    "exp",
    "log",
    "sin",
    "cos",
    "tanh",
    "sqrt",
    "abs",
    "floor",
    "real",
    "min",
    "max",
    "pow",
    "select",
    "sum",
    "sum_outer",
    "replicate",
    "transpose",
    "reshape",
    "iota",
    "append",
    "stack",
];

/// Whether `name` is a built-in function name.
pub fn is_builtin(name: &str) -> bool {
    BUILTINS.contains(&name)
}

/// Whether `name` is a keyword or a built-in function name.
pub fn is_reserved(name: &str) -> bool {
    is_builtin(name) || Keyword::lookup(name).is_some()
}

/// Whether `name` can be written as a variable in source text: it matches
/// `[A-Za-z_][A-Za-z0-9_']*` and is not reserved. (Printed programs parse back only if
/// every name satisfies this.)
pub fn is_valid_name(name: &str) -> bool {
    let mut cs = name.chars();
    let Some(c0) = cs.next() else { return false };
    (c0.is_ascii_alphabetic() || c0 == '_') && cs.all(is_ident_char) && !is_reserved(name)
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '\''
}

/// A token kind with its payload.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An identifier (including built-in function names and `R`, `Z`, `B`).
    Ident(String),
    /// A keyword.
    Kw(Keyword),
    /// An integer literal (non-negative).
    Int(BigInt),
    /// A decimal literal (non-negative, exact).
    Real(BigRational),
    /// A projection `.k`.
    Proj(usize),
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `->`
    Arrow,
    /// `=>`
    FatArrow,
    /// `=`
    Assign,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `%`
    Percent,
    /// `==`
    EqEq,
    /// `!=`
    NotEq,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `&&`
    AndAnd,
    /// `||`
    OrOr,
    /// `!`
    Bang,
    /// End of input (its span is empty, at the end of the source).
    Eof,
}

impl Tok {
    /// The fixed spelling of a punctuation or keyword token (`None` for tokens with a
    /// payload and for end of input).
    pub fn spelling(&self) -> Option<&'static str> {
        Some(match self {
            Tok::Kw(k) => k.as_str(),
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::Arrow => "->",
            Tok::FatArrow => "=>",
            Tok::Assign => "=",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::EqEq => "==",
            Tok::NotEq => "!=",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::AndAnd => "&&",
            Tok::OrOr => "||",
            Tok::Bang => "!",
            _ => return None,
        })
    }

    /// Whether an expression can end with this token (then `.digits` is a projection).
    fn ends_expr(&self) -> bool {
        matches!(
            self,
            Tok::Ident(_) | Tok::RParen | Tok::RBracket | Tok::Proj(_)
        )
    }
}

/// A token and its byte span in the source.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Where it is.
    pub span: Span,
}

/// Splits `src` into tokens; the last token is always [`Tok::Eof`].
pub fn lex(src: &str) -> Result<Vec<Token>> {
    Lexer {
        src,
        bytes: src.as_bytes(),
        pos: 0,
        toks: Vec::new(),
    }
    .run()
}

struct Lexer<'s> {
    src: &'s str,
    bytes: &'s [u8],
    pos: usize,
    toks: Vec<Token>,
}

fn syntax(start: usize, end: usize, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(ErrorKind::Syntax, Span::new(start, end), msg)
}

/// How an unexpected character is named in messages.
fn describe_char(c: char) -> String {
    if c.is_ascii_graphic() {
        format!("unexpected character `{c}`")
    } else {
        format!("unexpected character U+{:04X}", c as u32)
    }
}

impl<'s> Lexer<'s> {
    fn peek(&self, k: usize) -> u8 {
        self.bytes.get(self.pos + k).copied().unwrap_or(0)
    }

    fn push(&mut self, tok: Tok, start: usize) {
        self.toks.push(Token {
            tok,
            span: Span::new(start, self.pos),
        });
    }

    fn run(mut self) -> Result<Vec<Token>> {
        while self.pos < self.bytes.len() {
            let start = self.pos;
            let b = self.bytes[self.pos];
            match b {
                b' ' | b'\t' | b'\r' | b'\n' => self.pos += 1,
                b'-' if self.peek(1) == b'-' => self.comment()?,
                b'0'..=b'9' => self.number()?,
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.ident(),
                b'.' => self.projection()?,
                _ => {
                    let (tok, len) = self.punct(b).ok_or_else(|| self.bad_char(start))?;
                    self.pos += len;
                    self.push(tok, start);
                }
            }
        }
        // End of input sits just after the last non-blank character, so that a message
        // about it points at the line the user was writing, not at an empty line after a
        // trailing newline (the header and the snippet then agree).
        let end = self.src.trim_end().len();
        self.toks.push(Token {
            tok: Tok::Eof,
            span: Span::new(end, end),
        });
        Ok(self.toks)
    }

    fn bad_char(&self, at: usize) -> Diagnostic {
        let c = self.src[at..].chars().next().unwrap_or('\0');
        let mut d = syntax(at, at + c.len_utf8(), describe_char(c));
        if c == '&' || c == '|' {
            d = d.with_note(format!("did you mean `{c}{c}`?"));
        }
        d
    }

    fn punct(&self, b: u8) -> Option<(Tok, usize)> {
        let next = self.peek(1);
        let two = |t: Tok| Some((t, 2));
        let one = |t: Tok| Some((t, 1));
        match (b, next) {
            (b'-', b'>') => two(Tok::Arrow),
            (b'=', b'>') => two(Tok::FatArrow),
            (b'=', b'=') => two(Tok::EqEq),
            (b'!', b'=') => two(Tok::NotEq),
            (b'<', b'=') => two(Tok::Le),
            (b'>', b'=') => two(Tok::Ge),
            (b'&', b'&') => two(Tok::AndAnd),
            (b'|', b'|') => two(Tok::OrOr),
            (b'(', _) => one(Tok::LParen),
            (b')', _) => one(Tok::RParen),
            (b'[', _) => one(Tok::LBracket),
            (b']', _) => one(Tok::RBracket),
            (b',', _) => one(Tok::Comma),
            (b':', _) => one(Tok::Colon),
            (b'=', _) => one(Tok::Assign),
            (b'+', _) => one(Tok::Plus),
            (b'-', _) => one(Tok::Minus),
            (b'*', _) => one(Tok::Star),
            (b'/', _) => one(Tok::Slash),
            (b'%', _) => one(Tok::Percent),
            (b'<', _) => one(Tok::Lt),
            (b'>', _) => one(Tok::Gt),
            (b'!', _) => one(Tok::Bang),
            _ => None,
        }
    }

    /// `--` up to (not including) the end of the line.
    fn comment(&mut self) -> Result<()> {
        let rest = &self.src[self.pos..];
        for (i, c) in rest.char_indices() {
            if c == '\n' {
                self.pos += i;
                return Ok(());
            }
            if c.is_control() && c != '\t' && c != '\r' {
                let at = self.pos + i;
                return Err(syntax(at, at + c.len_utf8(), describe_char(c)));
            }
        }
        self.pos = self.bytes.len();
        Ok(())
    }

    fn ident(&mut self) {
        let start = self.pos;
        while self.pos < self.bytes.len() && is_ident_char(self.bytes[self.pos] as char) {
            self.pos += 1;
        }
        let text = &self.src[start..self.pos];
        let tok = match Keyword::lookup(text) {
            Some(k) => Tok::Kw(k),
            None => Tok::Ident(text.to_string()),
        };
        self.push(tok, start);
    }

    fn digits(&mut self) -> &'s str {
        let start = self.pos;
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        &self.src[start..self.pos]
    }

    /// `.k` right after an expression-ending token.
    fn projection(&mut self) -> Result<()> {
        let start = self.pos;
        let after_expr = self.toks.last().is_some_and(|t| t.tok.ends_expr());
        if !after_expr {
            return Err(syntax(start, start + 1, "unexpected character `.`"));
        }
        if !self.peek(1).is_ascii_digit() {
            return Err(syntax(start, start + 1, "expected a tuple index after `.`"));
        }
        self.pos += 1;
        let text = self.digits();
        let k = text.parse::<usize>().map_err(|_| {
            syntax(
                start + 1,
                self.pos,
                format!("tuple index `{text}` is too large"),
            )
        })?;
        self.push(Tok::Proj(k), start);
        Ok(())
    }

    fn number(&mut self) -> Result<()> {
        let start = self.pos;
        let int_part = self.digits();
        let mut frac = "";
        if self.peek(0) == b'.' && self.peek(1).is_ascii_digit() {
            self.pos += 1;
            frac = self.digits();
        }
        let mut exponent: Option<i64> = None;
        if matches!(self.peek(0), b'e' | b'E') {
            let sign_len = usize::from(matches!(self.peek(1), b'+' | b'-'));
            if self.peek(1 + sign_len).is_ascii_digit() {
                let negative = self.peek(1) == b'-';
                self.pos += 1 + sign_len;
                let exp_start = self.pos;
                let text = self.digits();
                let value = text
                    .parse::<u32>()
                    .ok()
                    .filter(|v| *v <= MAX_EXPONENT)
                    .ok_or_else(|| {
                        syntax(
                            exp_start,
                            self.pos,
                            format!("exponent is too large (at most {MAX_EXPONENT})"),
                        )
                    })?;
                exponent = Some(if negative {
                    -i64::from(value)
                } else {
                    i64::from(value)
                });
            }
        }
        if self.pos < self.bytes.len() && is_ident_char(self.bytes[self.pos] as char) {
            while self.pos < self.bytes.len() && is_ident_char(self.bytes[self.pos] as char) {
                self.pos += 1;
            }
            let text = &self.src[start..self.pos];
            return Err(syntax(
                start,
                self.pos,
                format!("invalid number literal `{text}`"),
            ));
        }
        let tok = if frac.is_empty() && exponent.is_none() {
            Tok::Int(parse_digits(int_part))
        } else {
            let mantissa = parse_digits(&format!("{int_part}{frac}"));
            // frac.len() is bounded by the source length, which fits in i64.
            let scale = exponent.unwrap_or(0) - frac.len() as i64;
            let ten_pow = |k: u64| -> BigInt { Pow::pow(BigInt::from(10u8), k) };
            let value = if scale >= 0 {
                BigRational::from_integer(mantissa * ten_pow(scale.unsigned_abs()))
            } else {
                BigRational::new(mantissa, ten_pow(scale.unsigned_abs()))
            };
            Tok::Real(value)
        };
        self.push(tok, start);
        Ok(())
    }
}

fn parse_digits(text: &str) -> BigInt {
    // `text` is a non-empty run of ASCII digits, which always parses.
    text.parse::<BigInt>().unwrap_or_default()
}
