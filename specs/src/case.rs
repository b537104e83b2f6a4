//! Golden and bad cases: the header comments of a `.adl` file, parsed into a [`Case`].
//!
//! The format is documented in `docs/golden-format.md`. In short: the header block is the
//! leading run of comment and blank lines; in it, a comment `-- key: rest` whose `key` is
//! a word of lowercase letters, digits, `_` and `-` is a header line and must be one of
//! the keys below; any other comment is free text. Comments after the first line of code
//! are never headers. A printed-program header `-- gradient-program[ENGINE]:` is followed
//! by the program on `-- |` lines ([`crate::printed`]).

use crate::printed::{self, PrintedProgram};
use std::path::{Path, PathBuf};

/// Every key a header line may use.
pub const KEYS: &[&str] = &[
    "input",
    "value",
    "grad",
    "tangent",
    "jvp",
    "cotangent",
    "vjp",
    "entry",
    "stats",
    "numeric",
    "mode",
    "max-steps",
    "max-rational-bits",
    "error",
    "at",
    "message",
];

/// The counters a `-- stats:` line may name (the fields of `EvalStats` that the
/// conventions define; `steps` is not part of a program's meaning).
pub const STATS_FIELDS: &[&str] = &["div_by_zero", "oob_reads", "oob_writes", "colliding_writes"];

/// The stable error codes a bad case may expect (`ErrorKind::code()` of every kind but
/// `internal`: bad input never causes an internal error, which is a bug in Adora).
pub const ERROR_CODES: &[&str] = &[
    "syntax",
    "name",
    "type",
    "shape",
    "unsupported",
    "non-rational",
    "resource",
    "input",
    "runtime",
];

/// A literal written in a header line, with where it sits in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct HeaderLit {
    /// The literal's text (concrete syntax, e.g. `[1, 2/3]`).
    pub text: String,
    /// 1-based line of the header in the file.
    pub line: usize,
    /// Byte offset of `text` in the file (to map spans inside the literal to the file).
    pub offset: usize,
}

/// `name = literal`, as in `-- input: x = [1, 2]`.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedLit {
    /// The parameter's name.
    pub name: String,
    /// Its literal.
    pub lit: HeaderLit,
}

/// How a case is evaluated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Numeric {
    /// Exact rationals; expectations compared with `==` (the default).
    Exact,
    /// IEEE `f64`; reals compared within `|actual - expected| <= tol * max(1, |expected|)`.
    F64 {
        /// The stated tolerance.
        tol: f64,
    },
    /// Certified enclosures (`--numeric ball`) at `precision` bits; an expectation `d`
    /// (a decimal known to relative accuracy `tol`) is met when the enclosure meets
    /// `[d - tol |d|, d + tol |d|]` (docs/golden-format.md, "Enclosures").
    Ball {
        /// The relative accuracy of the expectations.
        tol: f64,
        /// The working precision in bits.
        precision: u32,
    },
}

/// The error a bad case expects.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectedError {
    /// One of [`ERROR_CODES`].
    pub code: String,
    /// 1-based line where the primary span must start.
    pub line: usize,
    /// 1-based column (in characters) where the primary span must start.
    pub col: usize,
    /// A substring the message must contain.
    pub message: String,
}

/// One golden or bad case: the program text and everything its headers say.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The file the case came from (used in every report).
    pub path: PathBuf,
    /// The whole file (headers included: spans and positions refer to it).
    pub source: String,
    /// The entry point (`-- entry:`, default `main`).
    pub entry: String,
    /// `-- input:` lines, in file order.
    pub inputs: Vec<NamedLit>,
    /// `-- value:`.
    pub value: Option<HeaderLit>,
    /// `-- grad:` lines.
    pub grads: Vec<NamedLit>,
    /// `-- tangent:` lines (parameters without one get a zero tangent).
    pub tangents: Vec<NamedLit>,
    /// `-- jvp:`.
    pub jvp: Option<HeaderLit>,
    /// `-- cotangent:`.
    pub cotangent: Option<HeaderLit>,
    /// `-- vjp:` lines.
    pub vjps: Vec<NamedLit>,
    /// `-- stats:` counters, in the order written.
    pub stats: Option<Vec<(String, u64)>>,
    /// `-- numeric:` (default exact).
    pub numeric: Numeric,
    /// `-- mode: strict`.
    pub strict: bool,
    /// `-- max-steps: N` (evaluation step limit; default the evaluator's).
    pub max_steps: Option<u64>,
    /// `-- max-rational-bits: N` (default the evaluator's).
    pub max_rational_bits: Option<u64>,
    /// `-- error:` / `-- at:` / `-- message:` of a bad case.
    pub error: Option<ExpectedError>,
    /// Printed programs (`-- gradient-program[ENGINE]:` followed by `-- |` lines; see
    /// [`crate::printed`]).
    pub printed: Vec<PrintedProgram>,
}

impl Case {
    /// The file name for reports (the path as given).
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }
    /// Whether any derivative is requested.
    pub fn wants_derivatives(&self) -> bool {
        !self.grads.is_empty() || self.jvp.is_some() || self.cotangent.is_some()
    }
}

/// Parses the headers of the file `path` whose contents are `text`. Errors name the file
/// and the offending line (`path:line: what is wrong`).
pub fn parse_case(path: &Path, text: &str) -> Result<Case, String> {
    let mut case = Case {
        path: path.to_path_buf(),
        source: text.to_string(),
        entry: "main".to_string(),
        inputs: Vec::new(),
        value: None,
        grads: Vec::new(),
        tangents: Vec::new(),
        jvp: None,
        cotangent: None,
        vjps: Vec::new(),
        stats: None,
        numeric: Numeric::Exact,
        strict: false,
        max_steps: None,
        max_rational_bits: None,
        error: None,
        printed: Vec::new(),
    };
    let mut open_program: Option<PrintedProgram> = None;
    let mut entry_seen = false;
    let mut numeric_seen = false;
    let mut mode_seen = false;
    let mut code: Option<(usize, String)> = None;
    let mut at: Option<(usize, usize, usize)> = None;
    let mut message: Option<(usize, String)> = None;
    let mut offset = 0;
    for (k, raw) in text.split_inclusive('\n').enumerate() {
        let line_no = k + 1;
        let line_start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let trimmed = line.trim_start();
        let err = |what: String| format!("{}:{line_no}: {what}", path.display());
        if let Some(p) = open_program.as_mut() {
            if let Some(text) = printed::program_line(line) {
                p.text.push_str(text);
                p.text.push('\n');
                continue;
            }
        }
        if let Some(p) = open_program.take() {
            finish_printed(path, p, &mut case.printed)?;
        }
        if trimmed.is_empty() {
            continue;
        }
        if !trimmed.starts_with("--") {
            break;
        }
        if let Some(h) = printed::header(&trimmed[2..]) {
            let (kind, engine) = h.map_err(err)?;
            if case
                .printed
                .iter()
                .any(|p| p.kind == kind && p.engine == engine)
            {
                return Err(err(format!("a second `{kind}[{engine}]` program")));
            }
            open_program = Some(PrintedProgram {
                kind,
                engine,
                text: String::new(),
                line: line_no,
            });
            continue;
        }
        let Some((key, rest, rest_off)) = header_key(line) else {
            continue;
        };
        if !KEYS.contains(&key) {
            return Err(err(format!(
                "unknown header key `{key}` (known: {})",
                KEYS.join(", ")
            )));
        }
        let lit = |t: &str, off: usize| HeaderLit {
            text: t.to_string(),
            line: line_no,
            offset: line_start + off,
        };
        let value = rest.trim();
        let value_off = rest_off + (rest.len() - rest.trim_start().len());
        if value.is_empty() {
            return Err(err(format!("header `{key}` has no value")));
        }
        let once = |slot_full: bool| -> Result<(), String> {
            if slot_full {
                Err(err(format!("header `{key}` given twice")))
            } else {
                Ok(())
            }
        };
        match key {
            "input" | "grad" | "tangent" | "vjp" => {
                let (name, lit_text, lit_off) = named(value)
                    .ok_or_else(|| err(format!("expected `-- {key}: NAME = LITERAL`")))?;
                let list = match key {
                    "input" => &mut case.inputs,
                    "grad" => &mut case.grads,
                    "tangent" => &mut case.tangents,
                    _ => &mut case.vjps,
                };
                if list.iter().any(|n| n.name == name) {
                    return Err(err(format!("second `{key}` line for `{name}`")));
                }
                list.push(NamedLit {
                    name,
                    lit: lit(lit_text, value_off + lit_off),
                });
            }
            "value" => {
                once(case.value.is_some())?;
                case.value = Some(lit(value, value_off));
            }
            "jvp" => {
                once(case.jvp.is_some())?;
                case.jvp = Some(lit(value, value_off));
            }
            "cotangent" => {
                once(case.cotangent.is_some())?;
                case.cotangent = Some(lit(value, value_off));
            }
            "entry" => {
                once(entry_seen)?;
                entry_seen = true;
                if !is_ident(value) {
                    return Err(err(format!("`{value}` is not a function name")));
                }
                case.entry = value.to_string();
            }
            "stats" => {
                once(case.stats.is_some())?;
                case.stats = Some(parse_stats(value).map_err(err)?);
            }
            "numeric" => {
                once(numeric_seen)?;
                numeric_seen = true;
                case.numeric = parse_numeric(value).map_err(err)?;
            }
            "mode" => {
                once(mode_seen)?;
                mode_seen = true;
                if value != "strict" {
                    return Err(err(format!("unknown mode `{value}` (only `strict`)")));
                }
                case.strict = true;
            }
            "max-steps" | "max-rational-bits" => {
                let n: u64 = value
                    .parse()
                    .map_err(|_| err(format!("`{value}` is not a count")))?;
                let slot = if key == "max-steps" {
                    &mut case.max_steps
                } else {
                    &mut case.max_rational_bits
                };
                once(slot.is_some())?;
                *slot = Some(n);
            }
            "error" => {
                once(code.is_some())?;
                if !ERROR_CODES.contains(&value) {
                    return Err(err(format!(
                        "unknown error code `{value}` (known: {})",
                        ERROR_CODES.join(", ")
                    )));
                }
                code = Some((line_no, value.to_string()));
            }
            "at" => {
                once(at.is_some())?;
                let pos = value
                    .split_once(':')
                    .and_then(|(l, c)| Some((l.trim().parse().ok()?, c.trim().parse().ok()?)));
                match pos {
                    Some((l, c)) if l >= 1 && c >= 1 => at = Some((line_no, l, c)),
                    _ => {
                        return Err(err(format!(
                            "expected `-- at: LINE:COL` (1-based), got `{value}`"
                        )))
                    }
                }
            }
            _ => {
                // "message"
                once(message.is_some())?;
                message = Some((line_no, value.to_string()));
            }
        }
    }
    if let Some(p) = open_program.take() {
        finish_printed(path, p, &mut case.printed)?;
    }
    let err = |line: usize, what: &str| format!("{}:{line}: {what}", path.display());
    match (code, at, message) {
        (Some((_, code)), Some((_, line, col)), Some((_, message))) => {
            case.error = Some(ExpectedError {
                code,
                line,
                col,
                message,
            });
        }
        (None, None, None) => {}
        (Some((l, _)), _, _) | (_, Some((l, _, _)), _) | (_, _, Some((l, _))) => {
            return Err(err(
                l,
                "a bad case needs all of `-- error:`, `-- at:` and `-- message:`",
            ));
        }
    }
    let first_line = |list: &[NamedLit]| list.first().map(|n| n.lit.line);
    if case.jvp.is_some() == case.tangents.is_empty() {
        let l = case
            .jvp
            .as_ref()
            .map(|j| j.line)
            .or(first_line(&case.tangents))
            .unwrap_or(1);
        return Err(err(l, "`-- jvp:` and `-- tangent:` lines go together"));
    }
    if case.cotangent.is_some() == case.vjps.is_empty() {
        let l = case
            .cotangent
            .as_ref()
            .map(|j| j.line)
            .or(first_line(&case.vjps))
            .unwrap_or(1);
        return Err(err(l, "`-- vjp:` and `-- cotangent:` lines go together"));
    }
    Ok(case)
}

/// Closes a printed-program block (it must have at least one line).
fn finish_printed(
    path: &Path,
    p: PrintedProgram,
    out: &mut Vec<PrintedProgram>,
) -> Result<(), String> {
    if p.text.trim().is_empty() {
        return Err(format!(
            "{}:{}: `-- {}[{}]:` needs the program on the `-- |` lines below it",
            path.display(),
            p.line,
            p.kind,
            p.engine
        ));
    }
    out.push(p);
    Ok(())
}

/// Splits a header comment `-- key: rest` into its key, the rest, and the rest's byte
/// offset in `line`. `None` for free-text comments.
fn header_key(line: &str) -> Option<(&str, &str, usize)> {
    let lead = line.len() - line.trim_start().len();
    let after = &line[lead + 2..];
    let key_start = lead + 2 + (after.len() - after.trim_start().len());
    let body = &line[key_start..];
    let colon = body.find(':')?;
    let key = &body[..colon];
    let is_key = !key.is_empty()
        && key.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && key
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
    if !is_key {
        return None;
    }
    Some((key, &body[colon + 1..], key_start + colon + 1))
}

/// `name = literal` → (name, literal, byte offset of the literal in `s`).
fn named(s: &str) -> Option<(String, &str, usize)> {
    let eq = s.find('=')?;
    let name = s[..eq].trim();
    let rest = &s[eq + 1..];
    let lit = rest.trim();
    if !is_ident(name) || lit.is_empty() {
        return None;
    }
    Some((
        name.to_string(),
        lit,
        eq + 1 + (rest.len() - rest.trim_start().len()),
    ))
}

fn is_ident(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn parse_stats(s: &str) -> Result<Vec<(String, u64)>, String> {
    let mut out: Vec<(String, u64)> = Vec::new();
    for item in s.split_whitespace() {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| format!("expected FIELD=N in stats, got `{item}`"))?;
        if !STATS_FIELDS.contains(&k) {
            return Err(format!(
                "unknown stats field `{k}` (known: {})",
                STATS_FIELDS.join(", ")
            ));
        }
        if out.iter().any(|(f, _)| f == k) {
            return Err(format!("stats field `{k}` given twice"));
        }
        let n = v.parse().map_err(|_| format!("`{v}` is not a count"))?;
        out.push((k.to_string(), n));
    }
    Ok(out)
}

fn parse_numeric(s: &str) -> Result<Numeric, String> {
    let mut words = s.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some("exact"), None, _) => Ok(Numeric::Exact),
        (Some("f64"), Some(tol), None) => {
            let t = tol
                .strip_prefix("tol=")
                .ok_or_else(|| format!("expected `f64 tol=X`, got `{s}`"))?;
            match t.parse::<f64>() {
                Ok(tol) if tol.is_finite() && tol >= 0.0 => Ok(Numeric::F64 { tol }),
                _ => Err(format!("`{t}` is not a tolerance")),
            }
        }
        (Some("ball"), Some(tol), prec) => {
            let bad = || format!("expected `ball tol=X [precision=BITS]`, got `{s}`");
            let tol = tol
                .strip_prefix("tol=")
                .and_then(|t| t.parse::<f64>().ok())
                .filter(|t| t.is_finite() && *t >= 0.0)
                .ok_or_else(bad)?;
            let precision = match prec {
                None => 128,
                Some(p) => p
                    .strip_prefix("precision=")
                    .and_then(|p| p.parse::<u32>().ok())
                    .filter(|p| (64..=65536).contains(p))
                    .ok_or_else(bad)?,
            };
            if words.next().is_some() {
                return Err(bad());
            }
            Ok(Numeric::Ball { tol, precision })
        }
        _ => Err(format!(
            "expected `exact`, `f64 tol=X` or `ball tol=X [precision=BITS]`, got `{s}`"
        )),
    }
}
