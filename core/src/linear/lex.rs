//! Tokens of Linear A: the core lexer's tokens ([`crate::lexer`], reused unchanged) plus
//! the semicolon that separates non-linear from linear entities.
//!
//! The core lexer rejects `;`, so the source is cut at every `;` outside a comment, each
//! piece is lexed by [`crate::lexer::lex`], and the pieces are joined with a
//! [`LTok::Semi`] token between them (spans are byte offsets into the whole source).

use crate::diag::{Diagnostic, Result, Span};
use crate::lexer::{self, Tok};

/// A Linear A token.
#[derive(Clone, Debug, PartialEq)]
pub enum LTok {
    /// A token of the core language.
    Core(Tok),
    /// `;`.
    Semi,
}

/// A token and its span.
#[derive(Clone, Debug, PartialEq)]
pub struct LToken {
    /// The token.
    pub tok: LTok,
    /// Its byte span in the source.
    pub span: Span,
}

/// Byte offsets of the `;` characters of `src` that are not inside a `--` comment.
fn semicolons(src: &str) -> Vec<usize> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'-' && b.get(i + 1) == Some(&b'-') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if b[i] == b';' {
            out.push(i);
        }
        i += 1;
    }
    out
}

fn shift(d: Diagnostic, by: usize) -> Diagnostic {
    let mv = |s: Span| Span::new(s.start + by, s.end + by);
    Diagnostic {
        span: mv(d.span),
        labels: d.labels.into_iter().map(|(s, t)| (mv(s), t)).collect(),
        ..d
    }
}

/// Splits `src` into Linear A tokens; the last is always `Core(Tok::Eof)`.
pub fn lex(src: &str) -> Result<Vec<LToken>> {
    let mut out = Vec::new();
    let mut start = 0;
    let cuts = semicolons(src);
    for at in cuts.iter().copied().chain(std::iter::once(src.len())) {
        let piece = &src[start..at];
        let toks = lexer::lex(piece).map_err(|d| shift(d, start))?;
        for t in toks {
            if t.tok == Tok::Eof {
                continue;
            }
            out.push(LToken {
                tok: LTok::Core(t.tok),
                span: Span::new(t.span.start + start, t.span.end + start),
            });
        }
        if at < src.len() {
            out.push(LToken {
                tok: LTok::Semi,
                span: Span::new(at, at + 1),
            });
        }
        start = at + 1;
    }
    out.push(LToken {
        tok: LTok::Core(Tok::Eof),
        span: Span::new(src.len(), src.len()),
    });
    Ok(out)
}
