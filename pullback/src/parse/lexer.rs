//! Tokens of the pullback calculus's concrete syntax (docs/engines/pullback.md, "Lexical
//! syntax"): names (with an optional `'id` suffix the printer writes to tell binders
//! apart), exact numerals (`3`, `-1/2`, `0.25`), punctuation, and `--` comments.

use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_semantics::Rat;

/// A token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A name: a variable, a function symbol or a keyword (`let`, `in`, `J`, …); the text
    /// includes a `'id` suffix when there is one.
    Name(String),
    /// A numeral (a leading `-` written right before the digits belongs to it).
    Num(Rat),
    /// A projection index right after a `.` (`0` or `1`; other digits are an error later).
    Index(String),
    /// `\` or `λ`.
    Lambda,
    /// `.`
    Dot,
    /// `,`
    Comma,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `=`
    Eq,
    /// `+`
    Plus,
    /// `:`
    Colon,
    /// `->`
    Arrow,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// End of input.
    Eof,
}

/// A token and where it is.
#[derive(Clone, Debug)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Its bytes in the source.
    pub span: Span,
}

fn err(start: usize, end: usize, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(ErrorKind::Syntax, Span::new(start, end), msg)
}

/// Splits `src` into tokens, ending with [`Tok::Eof`].
pub fn lex(src: &str) -> Result<Vec<Token>> {
    let b = src.as_bytes();
    let mut out: Vec<Token> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'-' && b.get(i + 1) == Some(&b'-') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let after_dot = matches!(out.last(), Some(Token { tok: Tok::Dot, span }) if span.end == i);
        let tok = if c.is_ascii_digit() && after_dot {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            Tok::Index(src[start..i].to_string())
        } else if c.is_ascii_digit() || (c == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i = number_end(b, i + 1);
            let text = &src[start..i];
            match adora_semantics::io::parse_rational(text) {
                Some(r) => Tok::Num(r),
                None => return Err(err(start, i, format!("bad numeral `{text}`"))),
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            if b.get(i) == Some(&b'\'') {
                let tick = i;
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                if i == tick + 1 {
                    return Err(err(tick, i, "expected digits after `'` in a name"));
                }
            }
            Tok::Name(src[start..i].to_string())
        } else {
            let (tok, len) = match c {
                b'\\' => (Tok::Lambda, 1),
                b'.' => (Tok::Dot, 1),
                b',' => (Tok::Comma, 1),
                b'(' => (Tok::LParen, 1),
                b')' => (Tok::RParen, 1),
                b'=' => (Tok::Eq, 1),
                b'+' => (Tok::Plus, 1),
                b':' => (Tok::Colon, 1),
                b'<' => (Tok::Lt, 1),
                b'>' => (Tok::Gt, 1),
                b'-' if b.get(i + 1) == Some(&b'>') => (Tok::Arrow, 2),
                _ if src[i..].starts_with('λ') => (Tok::Lambda, 'λ'.len_utf8()),
                _ => {
                    let ch = src[i..].chars().next().unwrap_or('?');
                    return Err(err(
                        start,
                        start + ch.len_utf8(),
                        format!("unexpected character `{ch}`"),
                    ));
                }
            };
            i += len;
            tok
        };
        out.push(Token {
            tok,
            span: Span::new(start, i),
        });
    }
    out.push(Token {
        tok: Tok::Eof,
        span: Span::new(b.len(), b.len()),
    });
    Ok(out)
}

/// The end of a numeral starting before `i`: digits, then an optional `.digits` fraction,
/// then an optional `/digits` (or `/digits.digits`) denominator.
fn number_end(b: &[u8], mut i: usize) -> usize {
    let digits = |b: &[u8], mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let fraction = |b: &[u8], i: usize| {
        if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            digits(b, i + 1)
        } else {
            i
        }
    };
    i = fraction(b, digits(b, i));
    if b.get(i) == Some(&b'/') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i = fraction(b, digits(b, i + 1));
    }
    i
}
