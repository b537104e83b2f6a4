//! Tokens of the tensor language's concrete syntax (docs/engines/tssa-language.md,
//! "Concrete syntax"), with byte spans for diagnostics.

use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use num_bigint::BigInt;

/// A token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name (keywords included; the parser tells them apart).
    Ident(String),
    /// An unsigned literal `n` or `p/q` (written without spaces).
    Num(BigInt, Option<BigInt>),
    /// Punctuation and operators: `( ) [ ] { } , . : + - * / % # ! = == != < <= > >= && ||`.
    Sym(&'static str),
    /// The end of the input.
    Eof,
}

impl std::fmt::Display for Tok {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "`{s}`"),
            Tok::Num(n, None) => write!(f, "`{n}`"),
            Tok::Num(n, Some(d)) => write!(f, "`{n}/{d}`"),
            Tok::Sym(s) => write!(f, "`{s}`"),
            Tok::Eof => f.write_str("the end of the input"),
        }
    }
}

const SYMS: [&str; 27] = [
    "==", "!=", "<=", ">=", "&&", "||", "(", ")", "[", "]", "{", "}", ",", ".", ":", "+", "-", "*",
    "/", "%", "#", "!", "=", "<", ">", ";", "?",
];

/// The tokens of `src` with their spans, ending with [`Tok::Eof`]. `--` starts a comment
/// that runs to the end of the line.
pub fn lex(src: &str) -> Result<Vec<(Tok, Span)>> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut k = 0;
    while k < b.len() {
        let c = b[k];
        if c.is_ascii_whitespace() {
            k += 1;
        } else if c == b'-' && b.get(k + 1) == Some(&b'-') {
            while k < b.len() && b[k] != b'\n' {
                k += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = k;
            while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_' || b[k] == b'\'') {
                k += 1;
            }
            out.push((Tok::Ident(src[s..k].to_string()), Span::new(s, k)));
        } else if c.is_ascii_digit() {
            let s = k;
            while k < b.len() && b[k].is_ascii_digit() {
                k += 1;
            }
            let n: BigInt = src[s..k].parse().expect("digits parse");
            let mut d = None;
            if b.get(k) == Some(&b'/') && b.get(k + 1).is_some_and(|x| x.is_ascii_digit()) {
                let s2 = k + 1;
                k += 1;
                while k < b.len() && b[k].is_ascii_digit() {
                    k += 1;
                }
                d = Some(src[s2..k].parse().expect("digits parse"));
            }
            out.push((Tok::Num(n, d), Span::new(s, k)));
        } else {
            let sym = SYMS
                .iter()
                .find(|s| src[k..].starts_with(**s))
                .ok_or_else(|| {
                    let ch = src[k..].chars().next().unwrap_or(' ');
                    Diagnostic::new(
                        ErrorKind::Syntax,
                        Span::new(k, k + ch.len_utf8()),
                        format!("unexpected character `{ch}`"),
                    )
                })?;
            out.push((Tok::Sym(sym), Span::new(k, k + sym.len())));
            k += sym.len();
        }
    }
    out.push((Tok::Eof, Span::new(b.len(), b.len())));
    Ok(out)
}
