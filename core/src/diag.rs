//! Source spans and diagnostics: every error Adora reports about a program or an input
//! carries a [`Span`] into the source and an [`ErrorKind`], and renders with file, line,
//! column and a caret (through `ariadne`).

use std::fmt;

/// A half-open byte range `[start, end)` into the source text of one file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte of the range.
    pub start: usize,
    /// One past the last byte of the range.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (bytes).
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    /// The empty span used for synthesised nodes that have no source.
    pub const DUMMY: Span = Span { start: 0, end: 0 };
    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// The class of an error. Its `code()` is stable: tests and the bad-input corpus match on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Lexical or syntactic error (including non-UTF-8 input and nesting limits).
    Syntax,
    /// Unbound or duplicate name, unknown function, recursive definitions.
    Name,
    /// Type error (base types, tuples, arity).
    Type,
    /// Shape error (mismatched or invalid static shapes, permutations, reshape sizes).
    Shape,
    /// A construct the chosen engine or mode does not support.
    Unsupported,
    /// A non-rational operation (`exp`, `sin`, ...) evaluated in exact mode.
    NonRational,
    /// A resource limit was hit (program size after inlining, depth, evaluation steps).
    Resource,
    /// A bad command-line or JSON input value (wrong shape, type or syntax).
    Input,
    /// An error raised while evaluating (e.g. division by zero under `--strict`).
    Runtime,
    /// A failure of Adora itself, never of its input: an engine produced an ill-typed
    /// derivative program, an extraction found no term, an invariant was violated. Never
    /// used for bad input or for a program outside an engine's fragment (that is
    /// [`ErrorKind::Unsupported`]). The command line exits with code 3 for it and asks
    /// for a bug report (docs/language.md, "Errors").
    Internal,
}

impl ErrorKind {
    /// The stable short code, printed as `error[code]`.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::Name => "name",
            ErrorKind::Type => "type",
            ErrorKind::Shape => "shape",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::NonRational => "non-rational",
            ErrorKind::Resource => "resource",
            ErrorKind::Input => "input",
            ErrorKind::Runtime => "runtime",
            ErrorKind::Internal => "internal",
        }
    }
}

/// Whether a diagnostic stops the command (an error) or is only reported (a warning:
/// printed to standard error, never changing the exit code; docs/language.md, "Warnings").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The command fails (exit code 2, or 3 for [`ErrorKind::Internal`]).
    #[default]
    Error,
    /// The command goes on; the diagnostic is printed as `warning[code]: ...`.
    Warning,
}

impl Severity {
    /// `error` or `warning`, as printed before `[code]`.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// An error (or a warning) about a program or an input, pointing into its source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// What class of error this is (for a warning: the class of the mistake it warns of).
    pub kind: ErrorKind,
    /// An error, or a warning that does not stop the command.
    pub severity: Severity,
    /// The main message (one line, no trailing period).
    pub message: String,
    /// The primary location.
    pub span: Span,
    /// Secondary labelled locations.
    pub labels: Vec<(Span, String)>,
    /// Extra notes printed below the snippet.
    pub notes: Vec<String>,
    /// Suggestions, each printed as a `help: ...` line after the snippet (and the notes).
    pub help: Vec<String>,
}

/// Result type of everything in Adora that can fail on bad input.
pub type Result<T, E = Diagnostic> = std::result::Result<T, E>;

impl Diagnostic {
    /// A diagnostic of `kind` at `span`.
    pub fn new(kind: ErrorKind, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            kind,
            message: message.into(),
            span,
            severity: Severity::Error,
            labels: Vec::new(),
            notes: Vec::new(),
            help: Vec::new(),
        }
    }
    /// A warning of class `kind` at `span`: reported, but the command goes on.
    pub fn warning(kind: ErrorKind, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::new(kind, span, message)
        }
    }
    /// Whether this is a warning (not an error).
    pub fn is_warning(&self) -> bool {
        self.severity == Severity::Warning
    }
    /// Adds a secondary label (builder style).
    pub fn with_label(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        self.labels.push((span, text.into()));
        self
    }
    /// Adds a note (builder style).
    pub fn with_note(mut self, text: impl Into<String>) -> Diagnostic {
        self.notes.push(text.into());
        self
    }
    /// Adds a suggestion, printed as a `help: ...` line (builder style).
    pub fn with_help(mut self, text: impl Into<String>) -> Diagnostic {
        self.help.push(text.into());
        self
    }
    /// `line:column` (both 1-based, column in characters) of the primary span in `src`.
    pub fn position(&self, src: &str) -> (usize, usize) {
        line_col(src, self.span.start)
    }
    /// Renders the diagnostic as text, the message once: a `file:line:col: error[code]:
    /// message` (or `warning[code]`) header line, then the source snippet with a caret
    /// under the span (no colours), then the notes, then one `help: ...` line per
    /// suggestion.
    pub fn render(&self, file: &str, src: &str) -> String {
        let mut text = self.render_snippet(file, src);
        for h in &self.help {
            text.push_str(&format!("help: {h}\n"));
        }
        text
    }

    fn render_snippet(&self, file: &str, src: &str) -> String {
        use ariadne::{Config, Label, Report, ReportKind, Source};
        let (line, col) = self.position(src);
        let header = format!(
            "{file}:{line}:{col}: {}[{}]: {}\n",
            self.severity.word(),
            self.kind.code(),
            self.message
        );
        let kind = match self.severity {
            Severity::Error => ReportKind::Error,
            Severity::Warning => ReportKind::Warning,
        };
        let clamp = |s: Span| {
            let len = src.chars().count();
            let a = char_index(src, s.start).min(len);
            let b = char_index(src, s.end).min(len).max(a);
            a..b
        };
        let id = file.to_string();
        let mut report = Report::build(kind, (id.clone(), clamp(self.span)))
            .with_config(Config::default().with_color(false))
            .with_label(Label::new((id.clone(), clamp(self.span))).with_message("here"));
        for (s, t) in &self.labels {
            report = report.with_label(Label::new((id.clone(), clamp(*s))).with_message(t));
        }
        for n in &self.notes {
            report = report.with_note(n);
        }
        let mut buf = Vec::new();
        if report
            .finish()
            .write((id, Source::from(src)), &mut buf)
            .is_err()
        {
            return header;
        }
        // The report's first line is its own header (`Error:`, no message given): ours
        // replaces it, so the message is printed exactly once, after `file:line:col`.
        let report = String::from_utf8_lossy(&buf);
        let snippet = report.split_once('\n').map_or("", |(_, rest)| rest);
        header + snippet
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}[{}]: {}",
            self.severity.word(),
            self.kind.code(),
            self.message
        )
    }
}

impl std::error::Error for Diagnostic {}

/// 1-based line and column (in characters) of byte offset `offset` in `src`.
/// Offsets past the end (or inside a character) are clamped.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let mut line = 1;
    let mut col = 1;
    for (i, c) in src.char_indices() {
        if i >= offset {
            break;
        }
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    (line, col)
}

fn char_index(src: &str, offset: usize) -> usize {
    src.char_indices().take_while(|(i, _)| *i < offset).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_prints_the_message_once_after_the_position() {
        let src = "def main(x: R) -> R =\n  x + y\n";
        let d = Diagnostic::new(ErrorKind::Name, Span::new(28, 29), "unbound variable `y`")
            .with_note("a note");
        let text = d.render("p.adl", src);
        let first = text.lines().next().unwrap_or_default();
        assert_eq!(
            first, "p.adl:2:7: error[name]: unbound variable `y`",
            "{text}"
        );
        assert_eq!(text.matches("unbound variable").count(), 1, "{text}");
        assert!(text.contains("x + y") && text.contains("a note"), "{text}");
    }

    #[test]
    fn help_lines_follow_the_snippet_and_warnings_say_so() {
        let src = "def main(x: R) -> R =\n  x + y\n";
        let d = Diagnostic::warning(ErrorKind::Type, Span::new(28, 29), "a warning")
            .with_help("do this");
        let text = d.render("p.adl", src);
        assert!(
            text.starts_with("p.adl:2:7: warning[type]: a warning\n"),
            "{text}"
        );
        assert!(text.ends_with("help: do this\n"), "{text}");
        assert_eq!(d.to_string(), "warning[type]: a warning");
        assert!(d.is_warning() && !Diagnostic::new(ErrorKind::Type, Span::DUMMY, "e").is_warning());
    }

    #[test]
    fn internal_has_its_own_code() {
        assert_eq!(ErrorKind::Internal.code(), "internal");
        let d = Diagnostic::new(ErrorKind::Internal, Span::DUMMY, "an invariant failed");
        assert_eq!(d.to_string(), "error[internal]: an invariant failed");
    }
}
