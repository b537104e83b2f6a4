//! Parser: `def`s with size parameters other than the entry point — templates
//! ([`crate::sizes::Template`], docs/language.md "Helpers with size parameters"). Such a
//! `def` is recognised by its signature, parsed once with placeholder sizes (for its
//! structure: names, bases, calls; syntax errors are reported here) and its tokens kept;
//! each instance is parsed again from those tokens under the sizes of a call
//! ([`parse_instance`]).

use super::{PResult, Parser};
use crate::ast::Def;
use crate::diag::Result;
use crate::lexer::{Keyword, Tok, Token};
use crate::sizes::{Signature, Sizes, Template};
use std::sync::Arc;

/// Parses the template `toks` (a `def`'s tokens ending with `Eof`, from the file `src`)
/// with its size names bound to `sizes`: the instance named `name`, with literal sizes.
pub(crate) fn parse_instance(
    src: &Arc<str>,
    toks: &[Token],
    name: &str,
    sizes: &Sizes,
) -> Result<Def> {
    let mut p = Parser {
        src,
        toks: toks.to_vec(),
        pos: 0,
        depth: 0,
        literals: false,
        sizes: super::sizes::SizeCtx::default(),
        shared: Some(src.clone()),
    };
    p.sizes.given = Some((name.to_string(), sizes.clone()));
    let d = p.def().map_err(|d| *d)?;
    p.expect_eof().map_err(|d| *d)?;
    Ok(d)
}

impl Parser<'_> {
    /// The tokens from the current one (a `def`) up to the next `def` or the end of input
    /// (exclusive), when `stop_at_arrow` is false; otherwise up to the first `->` too.
    fn def_tokens(&self, stop_at_arrow: bool) -> Vec<Token> {
        let last = self.toks.len() - 1;
        let mut end = self.pos + 1;
        while end < last {
            match &self.toks[end].tok {
                Tok::Kw(Keyword::Def) => break,
                Tok::Arrow if stop_at_arrow => break,
                _ => end += 1,
            }
        }
        let mut toks = self.toks[self.pos..end].to_vec();
        toks.push(Token {
            tok: Tok::Eof,
            span: self.toks[end].span,
        });
        toks
    }

    /// The signature of the `def` at the cursor when it is a template: its parameter
    /// types name sizes and it is not the entry point of a sized parse; `None` otherwise.
    /// An error when the signature does not parse ([`Parser::broken_def`] reports it).
    pub(super) fn template_signature(&self) -> PResult<Option<Signature>> {
        let mut p = Parser {
            src: self.src,
            toks: self.def_tokens(true),
            pos: 0,
            depth: 0,
            literals: false,
            sizes: super::sizes::SizeCtx::default(),
            shared: None,
        };
        let sig = p.signature()?;
        let entry = self.sizes.given.as_ref().map(|(e, _)| e);
        if sig.size_names().is_empty() || entry == Some(&sig.name) {
            return Ok(None);
        }
        Ok(Some(sig))
    }

    /// The `def` at the cursor, whose signature does not parse (`why`): parsed with every
    /// size name of its parameter types at a placeholder, so that the error reported is
    /// the syntax error where the full parser meets it (`why` is cut short at the `->`).
    pub(super) fn broken_def(&mut self, why: Box<crate::diag::Diagnostic>) -> PResult<Def> {
        self.sizes.placeholders = Some(Vec::new());
        self.sizes.any_name = true;
        let d = self.def();
        self.sizes.placeholders = None;
        self.sizes.any_name = false;
        d.and(Err(why))
    }

    /// The template at the cursor, whose signature is `sig`: its tokens, and the `def`
    /// parsed with placeholder sizes.
    pub(super) fn template(&mut self, sig: Signature) -> PResult<Template> {
        let toks = Arc::new(self.def_tokens(false));
        let src = self
            .shared
            .get_or_insert_with(|| Arc::from(self.src))
            .clone();
        let names = sig.size_names().into_iter().cloned().collect();
        self.sizes.placeholders = Some(names);
        let def = self.def();
        self.sizes.placeholders = None;
        Ok(Template {
            def: def?,
            sig,
            toks,
            src,
        })
    }
}
