//! One fuzzed input: a target, a program's text and everything the command line of that
//! target takes, so that a finding is written as a program file and the command that
//! reproduces it.

use super::Target;

/// One execution's input.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The entry point exercised.
    pub target: Target,
    /// The program text.
    pub src: String,
    /// The entry point (`--entry`).
    pub entry: String,
    /// `--input name=literal` pairs.
    pub inputs: Vec<(String, String)>,
    /// `--tangent name=literal` pairs (target `jvp`).
    pub tangents: Vec<(String, String)>,
    /// `--cotangent literal` (target `vjp`).
    pub cotangent: String,
    /// `--engine` (targets `grad`, `jvp`, `vjp`, `cost`, and `show` of a derivative).
    pub engine: String,
    /// `--stage` (target `show`).
    pub stage: String,
    /// `--numeric f64` rather than exact rationals.
    pub f64: bool,
    /// `--strict`.
    pub strict: bool,
    /// `--max-steps`.
    pub max_steps: u64,
}

impl Case {
    /// The `adora` command line that runs this case on the program saved as `file`.
    pub fn command_line(&self, file: &str) -> String {
        let mut words: Vec<String> = vec!["adora".into()];
        let run_flags = |words: &mut Vec<String>, engine: bool| {
            words.push(file.into());
            if self.entry != "main" {
                words.push(format!("--entry {}", quote(&self.entry)));
            }
            for (n, v) in &self.inputs {
                words.push(format!("--input {}", quote(&format!("{n}={v}"))));
            }
            if engine {
                words.push(format!("--engine {}", self.engine));
            }
            if self.f64 {
                words.push("--numeric f64".into());
            }
            if self.strict {
                words.push("--strict".into());
            }
            words.push(format!("--max-steps {}", self.max_steps));
        };
        match self.target {
            Target::Parse => words.push(format!("show {file} --stage parse")),
            Target::Check => words.push(format!(
                "show {file} --stage inline --entry {}",
                quote(&self.entry)
            )),
            Target::Show => {
                words.push(format!("show {file} --stage {}", self.stage));
                if matches!(self.stage.as_str(), "grad" | "vjp" | "jvp") {
                    words.push(format!("--engine {}", self.engine));
                }
                words.push(format!("--entry {}", quote(&self.entry)));
            }
            Target::Eval => {
                words.push("eval".into());
                run_flags(&mut words, false);
            }
            Target::Cost => {
                words.push("cost".into());
                run_flags(&mut words, true);
            }
            Target::Grad | Target::Jvp | Target::Vjp => {
                words.push(self.target.name().into());
                run_flags(&mut words, true);
                for (n, v) in &self.tangents {
                    words.push(format!("--tangent {}", quote(&format!("{n}={v}"))));
                }
                if self.target == Target::Vjp {
                    words.push(format!("--cotangent {}", quote(&self.cotangent)));
                }
            }
            Target::SelftestPanic | Target::SelftestAbort | Target::SelftestHang => {
                words.push(format!(
                    "fuzz --target {} (a self-test of the fuzzer)",
                    self.target.name()
                ))
            }
        }
        words.join(" ")
    }
}

/// `s` as one POSIX shell word.
fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}
