//! `.adp` files: a header of `-- key: value` lines (the keys of the `.adl` goldens,
//! docs/golden-format.md, plus reduction counters), then one closed term
//! (docs/engines/pullback.md, "Files").
//!
//! The header block is the leading run of comment and blank lines. In it, `-- key: rest`
//! with `key` made of lowercase letters, digits, `_` and `-` is a header line and the key
//! must be one of [`KEYS`]; any other comment is free text. The term is parsed from the
//! whole file (the header lines are comments to it), so every span is a position in the
//! file. The term must be closed and well typed.

use crate::parse;
use crate::syntax::{Term, TermKind, Ty};
use crate::types;
use adora_core::diag::{Diagnostic, ErrorKind, Span};
use adora_semantics::Rat;
use std::collections::BTreeMap;

/// The header keys an `.adp` file may use.
pub const KEYS: [&str; 16] = [
    "input",
    "value",
    "grad",
    "cotangent",
    "vjp",
    "tangent",
    "jvp",
    "normal-form",
    "steps",
    "rules",
    "delta",
    "delta-j",
    "step-limit",
    "error",
    "at",
    "message",
];

/// A first-order literal of a header: a numeral or nested pairs of them.
#[derive(Clone, Debug, PartialEq)]
pub struct Lit {
    /// Its type (`R` or nested pairs of `R`).
    pub ty: Ty,
    /// The numerals, left to right.
    pub values: Vec<Rat>,
    /// The literal's text as written.
    pub text: String,
}

/// The header of an `.adp` file. Every field is optional; a golden file states what it
/// checks (docs/engines/pullback.md, "Files").
#[derive(Clone, Debug, Default)]
pub struct Header {
    /// `-- input: x = (1, 3)`: the point the file's function is differentiated at (the
    /// name is for the reader).
    pub input: Option<(String, Lit)>,
    /// `-- value: 22`: the function's value at the input.
    pub value: Option<Lit>,
    /// `-- grad: (15, 12)`: the gradient row, shaped like the input.
    pub grad: Option<Lit>,
    /// `-- cotangent: (1, 3)`: the output cotangent of the VJP.
    pub cotangent: Option<Lit>,
    /// `-- vjp: (8, 5)`: the input cotangent for `cotangent`.
    pub vjp: Option<Lit>,
    /// `-- tangent: (1, 0)`: the input tangent of the JVP.
    pub tangent: Option<Lit>,
    /// `-- jvp: 15`: the output tangent for `tangent`.
    pub jvp: Option<Lit>,
    /// `-- normal-form: 12`: the term's normal form under `adora reduce`, as printed.
    pub normal_form: Option<String>,
    /// `-- steps: 42`: the number of reduction steps (of `grad` when there is an input,
    /// else of `reduce`).
    pub steps: Option<u64>,
    /// `-- rules: 8=4 7=1 P=5`: steps per rule (only the rules listed are compared).
    pub rules: BTreeMap<String, u64>,
    /// `-- delta: add=2 mul=3`: primal applications per function symbol (`δ_f`).
    pub delta: BTreeMap<String, u64>,
    /// `-- delta-j: mul=3`: Jacobian primitives per function symbol (`δ_J`).
    pub delta_j: BTreeMap<String, u64>,
    /// `-- step-limit: 1000`: the reduction step limit.
    pub step_limit: Option<u64>,
    /// `-- error: type` (bad files): the expected error code.
    pub error: Option<String>,
    /// `-- at: 3:14` (bad files): the expected 1-based line and column.
    pub at: Option<(usize, usize)>,
    /// `-- message: …` (bad files): a substring of the expected message.
    pub message: Option<String>,
    /// The free-text comment lines of the header, without `-- `.
    pub notes: Vec<String>,
}

/// A parsed `.adp` file.
#[derive(Clone, Debug)]
pub struct AdpFile {
    /// The term.
    pub term: Term,
    /// Its type.
    pub ty: Ty,
    /// The header.
    pub header: Header,
}

/// Only the header of a file (bad files are read with this, then their term is parsed
/// and must fail as the header says).
pub fn header(src: &str) -> Result<Header, Diagnostic> {
    let mut h = Header::default();
    let mut offset = 0;
    for line in src.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let text = line.trim_end_matches(['\n', '\r']);
        let trimmed = text.trim_start();
        if trimmed.is_empty() {
            continue;
        }
        let Some(comment) = trimmed.strip_prefix("--") else {
            break;
        };
        let lead = start + (text.len() - trimmed.len()) + 2;
        let body = comment.trim_start();
        let body_at = lead + (comment.len() - body.len());
        match body.split_once(':') {
            Some((key, rest)) if is_key(key) => {
                let rest_trim = rest.trim();
                let rest_at = body_at + key.len() + 1 + (rest.len() - rest.trim_start().len());
                let span = Span::new(rest_at, rest_at + rest_trim.len());
                header_line(
                    &mut h,
                    key,
                    rest_trim,
                    span,
                    Span::new(body_at, body_at + key.len()),
                )?;
            }
            _ => h.notes.push(body.to_string()),
        }
    }
    Ok(h)
}

/// Parses a file: its header, then its closed term, then the term's type (an `input`
/// header annotates the parameter of an unannotated abstraction with the input's type).
pub fn parse(src: &str) -> Result<AdpFile, Diagnostic> {
    let header = header(src)?;
    let mut term = parse::term_closed(src)?;
    // The input fixes the parameter type of an unannotated `\z. t` (`\z. 7` at `(1, 2)`).
    if let (Some((_, lit)), TermKind::Lam(_, ann @ None, _)) = (&header.input, &mut term.kind) {
        *ann = Some(lit.ty.clone());
    }
    let ty = types::infer(&term, &[])?;
    Ok(AdpFile { term, ty, header })
}

fn is_key(k: &str) -> bool {
    !k.is_empty()
        && k.bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_' || c == b'-')
}

fn bad(span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(ErrorKind::Syntax, span, msg)
}

fn header_line(
    h: &mut Header,
    key: &str,
    rest: &str,
    span: Span,
    key_span: Span,
) -> Result<(), Diagnostic> {
    let lit = || literal(rest, span);
    let count = || {
        rest.parse::<u64>()
            .map_err(|_| bad(span, format!("`{key}` needs a count, found `{rest}`")))
    };
    let counts = || -> Result<BTreeMap<String, u64>, Diagnostic> {
        let mut m = BTreeMap::new();
        for item in rest.split_whitespace() {
            let parsed = item
                .split_once('=')
                .and_then(|(k, n)| Some((k, n.parse::<u64>().ok()?)));
            let Some((k, n)) = parsed else {
                return Err(bad(
                    span,
                    format!("`{key}` lists `name=count` items, found `{item}`"),
                ));
            };
            m.insert(k.to_string(), n);
        }
        Ok(m)
    };
    match key {
        "input" => {
            let Some((name, value)) = rest.split_once('=') else {
                return Err(bad(span, "`input` has the form `NAME = LITERAL`"));
            };
            let value_at = span.start + name.len() + 1;
            let lead = value.len() - value.trim_start().len();
            let vspan = Span::new(value_at + lead, span.end);
            h.input = Some((name.trim().to_string(), literal(value.trim(), vspan)?));
        }
        "value" => h.value = Some(lit()?),
        "grad" => h.grad = Some(lit()?),
        "cotangent" => h.cotangent = Some(lit()?),
        "vjp" => h.vjp = Some(lit()?),
        "tangent" => h.tangent = Some(lit()?),
        "jvp" => h.jvp = Some(lit()?),
        "normal-form" => h.normal_form = Some(rest.to_string()),
        "steps" => h.steps = Some(count()?),
        "step-limit" => h.step_limit = Some(count()?),
        "rules" => h.rules = counts()?,
        "delta" => h.delta = counts()?,
        "delta-j" => h.delta_j = counts()?,
        "error" => h.error = Some(rest.to_string()),
        "message" => h.message = Some(rest.to_string()),
        "at" => {
            let parsed = rest
                .split_once(':')
                .and_then(|(l, c)| Some((l.trim().parse().ok()?, c.trim().parse().ok()?)));
            h.at = Some(parsed.ok_or_else(|| bad(span, "`at` has the form `LINE:COLUMN`"))?);
        }
        _ => {
            return Err(bad(
                key_span,
                format!("unknown header key `{key}` (known: {})", KEYS.join(", ")),
            ))
        }
    }
    Ok(())
}

/// A first-order literal (`3`, `-1/2`, `(1, (2, 3))`, `(1, 2, 3)`) written at `span`.
pub fn literal(text: &str, span: Span) -> Result<Lit, Diagnostic> {
    let shift = |mut d: Diagnostic| {
        d.span = Span::new(d.span.start + span.start, d.span.end + span.start);
        d
    };
    let t = parse::term_closed(text).map_err(shift)?;
    let mut values = Vec::new();
    let ty = flatten(&t, &mut values).ok_or_else(|| {
        bad(
            span,
            format!("expected a literal (a number or nested pairs of numbers), found `{text}`"),
        )
    })?;
    Ok(Lit {
        ty,
        values,
        text: text.to_string(),
    })
}

fn flatten(t: &Term, out: &mut Vec<Rat>) -> Option<Ty> {
    match &t.kind {
        TermKind::Num(r) => {
            out.push(r.clone());
            Some(Ty::Real)
        }
        TermKind::Pair(a, b) => Some(Ty::pair(flatten(a, out)?, flatten(b, out)?)),
        _ => None,
    }
}
