//! Findings: deduplicated by kind and location (a panic's file and line, an internal
//! error's message without its numbers, a dead or stuck worker's target), each kept with
//! the first execution that produced it and written as `<dir>/<kind>-<hash>.adl`: the
//! program with the reproducing command line in a header comment.

use super::gen::Generator;
use super::rng::fnv;
use super::Options;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// `panic`, `internal`, `abort`, `stack-overflow`, `out-of-memory` or `slow`.
    pub kind: String,
    /// The target that produced it.
    pub target: String,
    /// What deduplicates it.
    pub key: String,
    /// A description (panic message and location, error message, worker's last words).
    pub detail: String,
    /// The first execution that produced it.
    pub first: u64,
    /// How many executions produced it.
    pub count: u64,
}

impl Finding {
    /// A finding seen once, at execution `i`.
    pub fn new(kind: &str, target: &str, key: &str, detail: &str, i: u64) -> Finding {
        Finding {
            kind: kind.into(),
            target: target.into(),
            key: key.into(),
            detail: detail.into(),
            first: i,
            count: 1,
        }
    }
}

/// Deduplicated findings, by key.
#[derive(Default, Debug)]
pub struct Findings(pub BTreeMap<String, Finding>);

impl Findings {
    /// Adds `f`, merging it with an earlier finding of the same key (the lowest execution
    /// number is kept, so the result does not depend on the order workers report in).
    pub fn add(&mut self, f: Finding) {
        match self.0.get_mut(&f.key) {
            Some(old) => {
                old.count += 1;
                if f.first < old.first {
                    old.first = f.first;
                    old.detail = f.detail;
                }
            }
            None => {
                self.0.insert(f.key.clone(), f);
            }
        }
    }

    /// Writes each finding's program and reproducer into `dir`; returns the files.
    pub fn write(
        &self,
        dir: &Path,
        gen: &Generator,
        opts: &Options,
    ) -> std::io::Result<Vec<PathBuf>> {
        let mut files = Vec::new();
        if self.0.is_empty() {
            return Ok(files);
        }
        std::fs::create_dir_all(dir)?;
        for f in self.0.values() {
            let path = dir.join(format!("{}-{:016x}.adl", f.kind, fnv(f.key.as_bytes())));
            let case = gen.case(opts.seed, f.first);
            let header = format!(
                "-- fuzz finding ({kind}, target {target}, seen {count} times): {detail}\n\
                 -- reproduce: {cmd}\n\
                 -- found by: adora fuzz --seed {seed} --target {t} (execution {i})\n",
                kind = f.kind,
                target = f.target,
                count = f.count,
                detail = f.detail.replace('\n', " "),
                cmd = case.command_line(&path.display().to_string()),
                seed = opts.seed,
                t = opts.target_name,
                i = f.first,
            );
            std::fs::write(&path, format!("{header}{}", case.src))?;
            files.push(path);
        }
        Ok(files)
    }
}
