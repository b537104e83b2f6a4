//! Errors of the command line: the text printed for the user (each error once, with
//! `file:line:col` and `error[code]`, docs/language.md "Errors") and the class that
//! decides the exit code — 2 for bad usage or bad input, 3 for an internal error (a bug
//! in Adora, `ErrorKind::Internal`).

use super::{BAD_INPUT, INTERNAL};
use adora_core::diag::ErrorKind;

/// An error of a command: its class and its rendered text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliError {
    /// The class of the error; [`ErrorKind::Internal`] exits with code 3.
    pub kind: ErrorKind,
    /// The text to print (ends with a newline).
    pub text: String,
}

impl CliError {
    /// An error of class `kind` with the already rendered `text`.
    pub fn new(kind: ErrorKind, text: impl Into<String>) -> CliError {
        CliError {
            kind,
            text: text.into(),
        }
    }

    /// The exit code of the command that failed with this error.
    pub fn exit_code(&self) -> u8 {
        exit_code(self.kind)
    }
}

/// The exit code of an error of class `kind`: 3 ([`INTERNAL`]) for an internal error,
/// 2 ([`BAD_INPUT`]) for every other class.
pub fn exit_code(kind: ErrorKind) -> u8 {
    match kind {
        ErrorKind::Internal => INTERNAL,
        _ => BAD_INPUT,
    }
}

/// The one line printed after an internal error: it asks for a bug report and gives the
/// command line that reproduces the failure (`argv` as the process received it; the
/// program name is printed as `adora`).
pub fn bug_report(argv: &[String]) -> String {
    let command: Vec<String> = std::iter::once("adora".to_string())
        .chain(argv.iter().skip(1).map(|a| shell_quote(a)))
        .collect();
    format!(
        "note: this is a bug in Adora, not in the program or its inputs; please report it with the command that reproduces it: {}",
        command.join(" ")
    )
}

/// `arg` as a POSIX shell word: unchanged when it has only safe characters, otherwise in
/// single quotes (a `'` inside becomes `'\''`).
fn shell_quote(arg: &str) -> String {
    let safe = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if safe {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_errors_exit_3_and_every_other_class_2() {
        assert_eq!(exit_code(ErrorKind::Internal), 3);
        for kind in [
            ErrorKind::Syntax,
            ErrorKind::Name,
            ErrorKind::Type,
            ErrorKind::Shape,
            ErrorKind::Unsupported,
            ErrorKind::NonRational,
            ErrorKind::Resource,
            ErrorKind::Input,
            ErrorKind::Runtime,
        ] {
            assert_eq!(exit_code(kind), 2, "{kind:?}");
        }
        assert_eq!(CliError::new(ErrorKind::Internal, "x").exit_code(), 3);
    }

    #[test]
    fn the_bug_report_replays_the_command_line() {
        let argv: Vec<String> = [
            "/bin/adora",
            "grad",
            "p.adl",
            "--input",
            "x=[1, 2/3]",
            "--input",
            "y='a'",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let line = bug_report(&argv);
        assert!(!line.contains('\n'), "{line}");
        assert!(
            line.ends_with(r"adora grad p.adl --input 'x=[1, 2/3]' --input 'y='\''a'\'''"),
            "{line}"
        );
        assert!(line.contains("please report it"), "{line}");
    }
}
