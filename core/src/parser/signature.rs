//! Parser: the signatures of a file's `def`s with their size names kept symbolic
//! ([`crate::sizes::Signature`]), read before the inputs bind the sizes. Bodies are
//! skipped (they end at the next `def` or at the end of input); the full parse that
//! follows reports any error in them.

use super::{PResult, Parser};
use crate::diag::Result;
use crate::lexer::{Keyword, Tok};
use crate::sizes::{Dim, Signature, SymParam, SymType};
use crate::types::Base;

/// The signatures of the `def`s of `src`, in source order.
pub fn signatures(src: &str) -> Result<Vec<Signature>> {
    let mut p = Parser::new(src)?;
    let mut out = Vec::new();
    while !matches!(p.peek(), Tok::Eof) {
        out.push(p.signature().map_err(|d| *d)?);
        while !matches!(p.peek(), Tok::Eof | Tok::Kw(Keyword::Def)) {
            p.bump();
        }
    }
    Ok(out)
}

impl Parser<'_> {
    /// `'def' NAME '(' [ NAME ':' symtype % ',' ] ')'`.
    pub(super) fn signature(&mut self) -> PResult<Signature> {
        self.expect(&Tok::Kw(Keyword::Def))?;
        let (name, name_span) = self.name()?;
        self.expect(&Tok::LParen)?;
        let mut params = Vec::new();
        if self.eat(&Tok::RParen).is_none() {
            loop {
                let (pname, pspan) = self.name()?;
                self.expect(&Tok::Colon)?;
                let ty = self.sym_type()?;
                let span = pspan.to(self.span_at_prev());
                params.push(SymParam {
                    name: pname,
                    ty,
                    span,
                });
                if self.eat(&Tok::Comma).is_none() {
                    self.expect(&Tok::RParen)?;
                    break;
                }
            }
        }
        Ok(Signature {
            name,
            name_span,
            params,
        })
    }

    /// A parameter type with symbolic dimensions: `R[n, 3]`, `(R[n], Z)`.
    fn sym_type(&mut self) -> PResult<SymType> {
        match self.peek().clone() {
            Tok::LParen => {
                self.enter()?;
                self.bump();
                let mut parts = vec![self.sym_type()?];
                while self.eat(&Tok::Comma).is_some() {
                    parts.push(self.sym_type()?);
                }
                self.expect(&Tok::RParen)?;
                self.leave(1);
                Ok(SymType::Tuple(parts))
            }
            Tok::Ident(n) if Base::from_name(&n).is_some() => {
                let base = Base::from_name(&n).unwrap_or(Base::R);
                self.bump();
                let mut dims = Vec::new();
                if self.eat(&Tok::LBracket).is_some() {
                    loop {
                        let span = self.span();
                        dims.push(match self.peek().clone() {
                            Tok::Ident(n) => {
                                self.bump();
                                Dim::Name(n, span)
                            }
                            _ => {
                                self.sizes.in_param = true;
                                let v = self.size();
                                self.sizes.in_param = false;
                                Dim::Lit(v?)
                            }
                        });
                        if self.eat(&Tok::Comma).is_none() {
                            self.expect(&Tok::RBracket)?;
                            break;
                        }
                    }
                }
                Ok(SymType::Array(base, dims))
            }
            _ => Err(self.unexpected("a type (`R`, `Z`, `B` or a tuple)")),
        }
    }
}
