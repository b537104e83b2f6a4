//! The system C compiler for the compiled kernels (docs/backend.md, "Compiled kernels"):
//! found once per process (`ADORA_CC`, else `cc`, `gcc`, `clang` on the `PATH`), run on a
//! translation unit in a fresh temporary directory, the shared library loaded with
//! `libloading` and the directory removed (the mapping stays). Libraries are kept by a
//! hash of their source for the process's next machines of the same plan, the most
//! recent [`KEPT`] of them.
//!
//! The flags keep IEEE semantics: `-ffp-contract=off` (no fused multiply-adds, which
//! would round once where the lanes round twice), no `-ffast-math` (no reassociation, so
//! every fold keeps its order; no vector `exp` from `libmvec`: the same `libm` calls as
//! the lanes make). `-fno-math-errno` only lets `sqrt` be an instruction.

use libloading::Library;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

/// How much the compiler optimises. The C means the same at every level (IEEE
/// semantics, no contraction, no reassociation): `Quick` only compiles faster, for
/// checks that compile many small plans (the backend property).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Optimize {
    /// `-O3 -march=native`: what runs.
    #[default]
    Full,
    /// `-O0`: what the backend property compiles.
    Quick,
}

impl Optimize {
    /// The optimisation flags.
    pub fn flags(self) -> &'static [&'static str] {
        match self {
            Optimize::Full => &["-O3", "-march=native"],
            Optimize::Quick => &["-O0"],
        }
    }
}

/// The compiler's flags besides the optimisation level (before `-o OUT SOURCE`).
pub const FLAGS: &[&str] = &[
    "-std=c11",
    "-fPIC",
    "-shared",
    "-ffp-contract=off",
    "-fno-math-errno",
    "-w",
];

/// Libraries kept for later machines of the same source.
pub const KEPT: usize = 16;

/// A C compiler: the command and the first line of its `--version`.
#[derive(Clone, Debug)]
pub struct Compiler {
    /// The command.
    pub path: String,
    /// What `--version` printed first.
    pub version: String,
}

/// Runs `cmd --version`, then `cmd` on [`super::emit::probe`] (without code generation):
/// the compiler, when it answers and accepts the kernels' C (GNU C vector extensions).
fn probe(cmd: &str) -> Option<Compiler> {
    let out = Command::new(cmd).arg("--version").output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let cc = Compiler {
        path: cmd.to_string(),
        version: text.lines().next().unwrap_or("").trim().to_string(),
    };
    let dir = scratch().ok()?;
    let c = dir.join("probe.c");
    let ok = std::fs::write(&c, super::emit::probe()).is_ok()
        && Command::new(cmd)
            .args(["-fsyntax-only", "-std=c11", "-w"])
            .arg(&c)
            .output()
            .is_ok_and(|o| o.status.success());
    let _ = std::fs::remove_dir_all(&dir);
    ok.then_some(cc)
}

/// The C compiler of this process: `ADORA_CC` when set (empty or `none`: no compiler),
/// else the first of `cc`, `gcc`, `clang` that answers `--version` and accepts the
/// kernels' C.
pub fn compiler() -> Option<&'static Compiler> {
    static CC: OnceLock<Option<Compiler>> = OnceLock::new();
    CC.get_or_init(|| match std::env::var("ADORA_CC") {
        Ok(c) if c.is_empty() || c == "none" => None,
        Ok(c) => probe(&c),
        Err(_) => ["cc", "gcc", "clang"].iter().find_map(|c| probe(c)),
    })
    .as_ref()
}

/// FNV-1a over `bytes`, from `h`.
pub(super) fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A loaded library with the hash of its source.
type Kept = (u64, Arc<Library>);

/// The libraries kept, most recent last.
fn kept() -> &'static Mutex<VecDeque<Kept>> {
    static KEPT_LIBS: OnceLock<Mutex<VecDeque<Kept>>> = OnceLock::new();
    KEPT_LIBS.get_or_init(|| Mutex::new(VecDeque::new()))
}

/// A fresh directory under the system's temporary directory.
fn scratch() -> std::io::Result<PathBuf> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let base = std::env::temp_dir();
    loop {
        let d = base.join(format!(
            "adora-kernels-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        match std::fs::create_dir(&d) {
            Ok(()) => return Ok(d),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Compiles `source` in `dir` and loads the library.
fn build(cc: &Compiler, source: &str, dir: &Path, opt: Optimize) -> Result<Library, String> {
    let c = dir.join("kernels.c");
    let so = dir.join("kernels.so");
    std::fs::write(&c, source).map_err(|e| format!("writing {}: {e}", c.display()))?;
    let out = Command::new(&cc.path)
        .args(opt.flags())
        .args(FLAGS)
        .arg("-o")
        .arg(&so)
        .arg(&c)
        .arg("-lm")
        .output()
        .map_err(|e| format!("running `{}`: {e}", cc.path))?;
    if !out.status.success() {
        return Err(format!(
            "`{}` failed on the generated kernels ({}):\n{}",
            cc.path,
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    // SAFETY: the library is our generated C: no initialisers, only functions.
    unsafe { Library::new(&so) }.map_err(|e| format!("loading {}: {e}", so.display()))
}

/// The library of `source` compiled by `cc` at `opt`: a kept one of the same source, else
/// a fresh build. An error says what failed (the compiler's messages included).
pub fn library(cc: &Compiler, source: &str, opt: Optimize) -> Result<Arc<Library>, String> {
    let mut h = fnv(0xcbf2_9ce4_8422_2325, source.as_bytes());
    h = fnv(h, cc.path.as_bytes());
    h = fnv(h, cc.version.as_bytes());
    h = fnv(h, opt.flags().join(" ").as_bytes());
    if let Some((_, lib)) = kept().lock().expect("lock").iter().find(|(k, _)| *k == h) {
        return Ok(lib.clone());
    }
    let dir = scratch().map_err(|e| format!("a temporary directory: {e}"))?;
    let lib = build(cc, source, &dir, opt);
    let _ = std::fs::remove_dir_all(&dir);
    let lib = Arc::new(lib?);
    let mut k = kept().lock().expect("lock");
    k.push_back((h, lib.clone()));
    while k.len() > KEPT {
        k.pop_front();
    }
    Ok(lib)
}
