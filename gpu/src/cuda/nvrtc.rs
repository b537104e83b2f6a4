//! NVRTC at run time (docs/backend.md, "CUDA"): finding the library, compiling a
//! translation unit to PTX for a virtual architecture and to a CUBIN for a real one with
//! ptxas's report, and reading that report.

use cudarc::nvrtc::{result, sys};
use std::ffi::CString;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The directories where the project's own script puts `libnvrtc.so.12`
/// (`scripts/python-env.sh nvrtc`: `.venv/lib/python3*/site-packages/nvidia/cuda_nvrtc/lib`).
fn venv_candidates() -> Vec<PathBuf> {
    let mut roots = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")];
    if let Ok(d) = std::env::current_dir() {
        roots.push(d);
    }
    let mut out = Vec::new();
    for r in roots {
        let lib = r.join(".venv").join("lib");
        let Ok(entries) = std::fs::read_dir(&lib) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e
                .path()
                .join("site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12");
            if p.exists() {
                out.push(p);
            }
        }
    }
    out
}

/// Whether NVRTC can be loaded: from the dynamic loader's path (`LD_LIBRARY_PATH`), or
/// preloaded by absolute path from the project's virtual environment (the handle is kept
/// for the process, so cudarc's later `dlopen` of the same soname finds it). Never panics.
pub fn present() -> bool {
    static PRELOAD: OnceLock<Option<libloading::Library>> = OnceLock::new();
    PRELOAD.get_or_init(|| {
        venv_candidates().into_iter().find_map(|p| {
            // SAFETY: loading libnvrtc runs no initialisation code with preconditions.
            unsafe { libloading::Library::new(&p) }.ok()
        })
    });
    // SAFETY: `is_culib_present` only tries to open the library.
    unsafe { sys::is_culib_present() }
}

/// What ptxas reported for one kernel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelReport {
    /// The kernel's name.
    pub name: String,
    /// Bytes of spill stores.
    pub spill_stores: u64,
    /// Bytes of spill loads.
    pub spill_loads: u64,
    /// Bytes of static shared memory.
    pub smem: u64,
    /// Registers per thread.
    pub registers: u64,
}

/// The number before `unit` in `line` (`"0 bytes spill stores"` → 0).
fn number_before(line: &str, unit: &str) -> Option<u64> {
    let i = line.find(unit)?;
    line[..i].split_whitespace().last()?.parse().ok()
}

/// Parses ptxas's `-v` report into one entry per kernel.
pub fn parse_report(log: &str) -> Vec<KernelReport> {
    let mut out: Vec<KernelReport> = Vec::new();
    for line in log.lines() {
        for key in ["Compiling entry function '", "Function properties for "] {
            if let Some(i) = line.find(key) {
                let name: String = line[i + key.len()..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if out.last().map(|r| r.name != name).unwrap_or(true) {
                    out.push(KernelReport {
                        name,
                        ..KernelReport::default()
                    });
                }
            }
        }
        let Some(cur) = out.last_mut() else { continue };
        if let Some(n) = number_before(line, "bytes spill stores") {
            cur.spill_stores = n;
        }
        if let Some(n) = number_before(line, "bytes spill loads") {
            cur.spill_loads = n;
        }
        if let Some(n) = number_before(line, "bytes smem") {
            cur.smem = n;
        }
        if let Some(n) = number_before(line, "registers") {
            cur.registers = n;
        }
    }
    out
}

/// A compilation's products.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// PTX (virtual architectures) or the CUBIN's size (real ones).
    pub ptx: Option<String>,
    /// The CUBIN, for a real architecture.
    pub cubin: Option<Vec<u8>>,
    /// NVRTC's log (ptxas's report with `--ptxas-options=-v`).
    pub log: String,
}

/// Compiles `src` for `arch` (`compute_90`: PTX; `sm_90`: a CUBIN with ptxas's verbose
/// report). Errors carry NVRTC's log. Call [`present`] first.
pub fn compile(src: &str, arch: &str) -> Result<Compiled, String> {
    let c_src = CString::new(src).map_err(|e| e.to_string())?;
    let prog = result::create_program(&c_src, None).map_err(|e| format!("{e:?}"))?;
    let real = arch.starts_with("sm_");
    let mut opts = vec![
        format!("--gpu-architecture={arch}"),
        "--fmad=false".to_string(),
    ];
    if real {
        opts.push("--ptxas-options=-v".to_string());
    }
    // SAFETY: `prog` was created above and is destroyed once, at the end.
    let out = unsafe {
        let status = result::compile_program(prog, &opts);
        let log = result::get_program_log(prog)
            .map(|l| {
                let bytes: Vec<u8> = l.iter().map(|&c| c as u8).take_while(|&b| b != 0).collect();
                String::from_utf8_lossy(&bytes).into_owned()
            })
            .unwrap_or_default();
        match status {
            Err(e) => Err(format!("NVRTC failed ({e:?}):\n{log}")),
            Ok(()) if real => {
                let mut size = 0usize;
                let r = sys::nvrtcGetCUBINSize(prog, &mut size);
                if r != sys::nvrtcResult::NVRTC_SUCCESS {
                    Err(format!("nvrtcGetCUBINSize: {r:?}"))
                } else {
                    let mut bin = vec![0u8; size];
                    let r = sys::nvrtcGetCUBIN(prog, bin.as_mut_ptr() as *mut _);
                    if r != sys::nvrtcResult::NVRTC_SUCCESS {
                        Err(format!("nvrtcGetCUBIN: {r:?}"))
                    } else {
                        Ok(Compiled {
                            ptx: None,
                            cubin: Some(bin),
                            log,
                        })
                    }
                }
            }
            Ok(()) => result::get_ptx(prog)
                .map(|p| {
                    let bytes: Vec<u8> =
                        p.iter().map(|&c| c as u8).take_while(|&b| b != 0).collect();
                    Compiled {
                        ptx: Some(String::from_utf8_lossy(&bytes).into_owned()),
                        cubin: None,
                        log,
                    }
                })
                .map_err(|e| format!("nvrtcGetPTX: {e:?}")),
        }
    };
    // SAFETY: created above, not yet destroyed.
    let _ = unsafe { result::destroy_program(prog) };
    out
}
