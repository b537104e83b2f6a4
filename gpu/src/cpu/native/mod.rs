//! Compiled kernels (docs/backend.md, "Compiled kernels"): the CPU executor's `map`,
//! `reduce`, `scan` and `scatter` kernels written as C (`emit.rs`), compiled by the
//! system C compiler into a shared library and loaded once per plan (`cc.rs`), and run
//! over ranges of their index spaces on every core (`run.rs`). Matrix products stay with
//! `dgemm`; a batched product's fallback and zero recomputation call its reduction's
//! compiled function.
//!
//! | kernels | what runs them | chosen by |
//! |---|---|---|
//! | [`Kernels::Lanes`] | the lanes evaluator (`gpu/src/cpu/lanes.rs`) | always available |
//! | [`Kernels::Compiled`] | the compiled functions | a C compiler (an error without one) |
//! | [`Kernels::Auto`] | compiled where a C compiler is found, else lanes | `adora run --backend cpu` (`--kernels`) |
//!
//! The compiled kernels compute what the lanes compute: the same IEEE operations in the
//! same order per point, the same `libm` functions, the same total indexing; a `map`,
//! `scan` and `scatter` give the same bits, a `reduce` the same bits when it folds each
//! output in order and, for few outputs over many points (`+` and `*`), partial folds
//! of 4,096 points in eight chains — another order, the same as on every machine. A body
//! is computed for eight points at once (`write.rs`: GCC vector values), the points left
//! over one at a time.

mod cc;
mod emit;
mod run;
mod write;

pub use cc::{compiler, Compiler, Optimize, FLAGS};
pub use emit::{module, modules, Compiled, Form, Source};
pub(crate) use run::Launch;
pub use run::{work, PART};
pub use write::LANES;

use crate::plan::Plan;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use libloading::Library;
use std::collections::HashMap;
use std::sync::Arc;

/// Which kernels a [`super::Machine`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Kernels {
    /// The lanes evaluator.
    #[default]
    Lanes,
    /// Compiled kernels; an error without a C compiler.
    Compiled,
    /// Compiled kernels where a C compiler is found, else the lanes.
    Auto,
}

/// `B` and `C` of a range function: `f(B, C, lo, hi)`.
pub(super) type RangeFn = unsafe extern "C" fn(*const *mut f64, *const f64, i64, i64);
/// A partial fold: `f(B, C, output, lo, hi, result)`.
pub(super) type PartFn = unsafe extern "C" fn(*const *mut f64, *const f64, i64, i64, i64, *mut f64);
/// A reduction's `init` at an output: `f(B, C, output)`.
pub(super) type InitFn = unsafe extern "C" fn(*const *mut f64, *const f64, i64) -> f64;
/// A whole kernel: `f(B, C)`.
pub(super) type WholeFn = unsafe extern "C" fn(*const *mut f64, *const f64);

/// The compiled functions of one kernel.
#[derive(Clone, Copy)]
pub(super) enum Entry {
    /// Output points.
    Map(RangeFn),
    /// Outputs, and the partial folds of `+` and `*`.
    Reduce {
        per: RangeFn,
        part: Option<(PartFn, InitFn)>,
    },
    /// Inner elements.
    Scan(RangeFn),
    /// The whole scatter, in order.
    Scatter(WholeFn),
    /// Outputs of a batched product's reduction.
    Batched(RangeFn),
}

/// A plan's compiled kernels: the library and each kernel's functions by kernel name.
pub struct Native {
    _lib: Arc<Library>,
    /// The plan's fingerprint ([`fingerprint`]): a machine runs these functions on this
    /// plan's buffers only.
    pub(super) plan: u64,
    pub(super) entries: HashMap<String, Entry>,
    /// The translation unit compiled ([`Native::compile`]; empty for the plans of
    /// [`Native::compile_all`], which share one).
    pub source: String,
}

/// Looks up `name` in `lib` as a function pointer of type `T`.
fn symbol<T: Copy>(lib: &Library, name: &str) -> Result<T> {
    // SAFETY: `T` is the signature `emit.rs` writes for this symbol's form.
    unsafe { lib.get::<T>(name.as_bytes()) }
        .map(|s| *s)
        .map_err(|e| internal(format!("compiled kernel `{name}` not found: {e}")))
}

/// A fingerprint of `plan` (its text, buffers, slots and steps: `crate::plan::show`),
/// which a [`Native`] must match to run on a machine of that plan.
pub fn fingerprint(plan: &Plan) -> u64 {
    cc::fnv(0xcbf2_9ce4_8422_2325, crate::plan::show(plan).as_bytes())
}

fn internal(msg: String) -> Diagnostic {
    Diagnostic::new(ErrorKind::Internal, Span::DUMMY, msg)
}

impl Native {
    /// Compiles `plan`'s kernels with `cc`. An internal error when the compiler rejects
    /// the generated source or the library does not load.
    pub fn compile(plan: &Plan, cc: &Compiler) -> Result<Native> {
        let src = module(plan);
        let lib = cc::library(cc, &src.text, Optimize::Full).map_err(internal)?;
        Native::entries(lib, &src.kernels, src.text, fingerprint(plan))
    }

    /// Compiles the kernels of several plans as one translation unit (one run of the
    /// compiler, optimising as `opt` says), one [`Native`] per plan sharing the library.
    pub fn compile_all(plans: &[&Plan], cc: &Compiler, opt: Optimize) -> Result<Vec<Native>> {
        let (text, kernels) = modules(plans);
        let lib = cc::library(cc, &text, opt).map_err(internal)?;
        kernels
            .iter()
            .zip(plans)
            .map(|(ks, p)| Native::entries(lib.clone(), ks, String::new(), fingerprint(p)))
            .collect()
    }

    /// The functions of `kernels` in `lib`.
    fn entries(
        lib: Arc<Library>,
        kernels: &[Compiled],
        source: String,
        plan: u64,
    ) -> Result<Native> {
        let mut entries = HashMap::new();
        for Compiled {
            kernel,
            symbol: sym,
            form,
        } in kernels
        {
            let e = match form {
                Form::Map => Entry::Map(symbol(&lib, sym)?),
                Form::Reduce { chunked } => Entry::Reduce {
                    per: symbol(&lib, sym)?,
                    part: if *chunked {
                        Some((
                            symbol(&lib, &format!("{sym}_part"))?,
                            symbol(&lib, &format!("{sym}_init"))?,
                        ))
                    } else {
                        None
                    },
                },
                Form::Scan => Entry::Scan(symbol(&lib, sym)?),
                Form::Scatter => Entry::Scatter(symbol(&lib, sym)?),
                Form::Batched => Entry::Batched(symbol(&lib, &format!("{sym}_exact"))?),
            };
            entries.insert(kernel.clone(), e);
        }
        Ok(Native {
            _lib: lib,
            plan,
            entries,
            source,
        })
    }

    /// The compiled kernels `kernels` asks for: `None` for the lanes (or `Auto` without a
    /// compiler); an error for `Compiled` without a compiler (exit 2: the machine lacks a
    /// tool, the input is not at fault) or when compiling fails (internal).
    pub fn choose(plan: &Plan, kernels: Kernels) -> Result<Option<Native>> {
        match (kernels, compiler()) {
            (Kernels::Lanes, _) | (Kernels::Auto, None) => Ok(None),
            (Kernels::Compiled, None) => Err(Diagnostic::new(
                ErrorKind::Unsupported,
                Span::DUMMY,
                "no C compiler for the compiled kernels: none of `cc`, `gcc`, `clang` answers \
                 `--version` and accepts GNU C vector extensions (or `ADORA_CC` names none or \
                 another); `--kernels lanes` runs without one (docs/backend.md, \"Compiled \
                 kernels\")",
            )),
            (_, Some(cc)) => Native::compile(plan, cc).map(Some),
        }
    }
}
