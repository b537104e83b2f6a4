//! The seed corpus: the golden programs `specs/programs/**/*.adl`, the bad-input corpus
//! `specs/bad/**` and any `--corpus` directory, each with the inputs and entry point its
//! header states (docs/golden-format.md).

use std::path::{Path, PathBuf};

/// One seed program.
#[derive(Clone, Debug)]
pub struct Seed {
    /// Its source text.
    pub src: String,
    /// The entry point of its `-- entry:` header (default `main`).
    pub entry: String,
    /// Its `-- input: name = literal` headers.
    pub inputs: Vec<(String, String)>,
}

/// The default corpus directories: `specs/programs` and `specs/bad` of the current
/// directory, or of the source tree the program was built from.
pub fn default_dirs() -> Vec<PathBuf> {
    let base = if Path::new("specs/programs").is_dir() {
        PathBuf::new()
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    };
    vec![base.join("specs/programs"), base.join("specs/bad")]
}

/// Every `.adl` file under `dirs` (recursively, in sorted order so that the corpus, and
/// with it every fuzzed input, is the same on every run).
pub fn load(dirs: &[PathBuf]) -> Result<Vec<Seed>, String> {
    let mut files = Vec::new();
    for d in dirs {
        collect(d, &mut files).map_err(|e| format!("cannot read `{}`: {e}", d.display()))?;
    }
    files.sort();
    let mut seeds = Vec::new();
    for f in files {
        let bytes = std::fs::read(&f).map_err(|e| format!("cannot read `{}`: {e}", f.display()))?;
        seeds.push(parse_seed(&String::from_utf8_lossy(&bytes)));
    }
    if seeds.is_empty() {
        return Err("the fuzzing corpus is empty (no .adl files found)".into());
    }
    Ok(seeds)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let p = entry?.path();
        if p.is_dir() {
            collect(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "adl") {
            out.push(p);
        }
    }
    Ok(())
}

/// A seed from source text: the `input` and `entry` header lines of its leading comments.
pub fn parse_seed(src: &str) -> Seed {
    let mut seed = Seed {
        src: src.to_string(),
        entry: "main".into(),
        inputs: Vec::new(),
    };
    for line in src.lines() {
        let t = line.trim();
        if !(t.is_empty() || t.starts_with("--")) {
            break;
        }
        let body = t.trim_start_matches("--").trim();
        if let Some(rest) = body.strip_prefix("input:") {
            if let Some((n, v)) = rest.split_once('=') {
                seed.inputs
                    .push((n.trim().to_string(), v.trim().to_string()));
            }
        } else if let Some(rest) = body.strip_prefix("entry:") {
            seed.entry = rest.trim().to_string();
        }
    }
    seed
}
