//! `adora-core`: the core array language of Adora — AST ([`ast`]), types ([`types`]),
//! source spans and diagnostics ([`diag`]), lexer and parser ([`parser`]), pretty-printer
//! ([`pretty`]), type and shape checker with elaboration ([`check`]), inlining of `def`s
//! ([`inline`]), traversal and binder helpers shared by all passes ([`visit`]), and Linear A
//! ([`linear`], seed 002), the non-linear ; linear dialect the `linear` engine works in, and
//! size parameters ([`sizes`]: a program is instantiated at its inputs' sizes before it is
//! checked), and the tensor language of seed 001 ([`tl`]: its terms and Tensor-SSA form, which
//! the `tssa` engine lowers core programs into).
//!
//! The pipeline is `parse` → `check` (every `def`) → `elaborate` (one entry point: inline
//! calls, type literals, make broadcasts explicit, make binders unique). See
//! `docs/language.md` for the language itself.
//!
//! Recursion depth: the parser refuses nesting deeper than [`limits::MAX_NESTING`]; the
//! recursive passes over such trees need more stack than a default test thread has, so
//! callers run them through [`with_stack`].

pub mod ast;
pub mod check;
pub mod diag;
pub mod inline;
pub mod lexer;
pub mod limits;
pub mod linear;
pub mod parser;
pub mod pretty;
pub mod sizes;
pub mod tl;
pub mod types;
pub mod visit;

pub use ast::{Expr, ExprKind, Function, Program};
pub use diag::{Diagnostic, ErrorKind, Result, Span};
pub use types::{Base, Shape, Type};

/// Parses a source file into a surface [`Program`].
pub fn parse(src: &str) -> Result<Program> {
    parser::parse_program(src)
}

/// Parses and type-checks `src`, then elaborates the entry point `entry`.
pub fn load(src: &str, entry: &str) -> Result<Function> {
    load_with_warnings(src, entry).map(|(f, _)| f)
}

/// [`load`], also returning the checker's warnings about the program (diagnostics of
/// [`diag::Severity::Warning`], docs/language.md "Warnings"), for the caller to report.
pub fn load_with_warnings(src: &str, entry: &str) -> Result<(Function, Vec<Diagnostic>)> {
    let program = parse(src)?;
    let warnings = check::check_program_warnings(&program)?;
    Ok((check::elaborate(&program, entry)?, warnings))
}

/// Runs `f` on a thread with a large stack (512 MiB of address space; pages are only
/// committed when touched) and returns its result. Use it around recursive passes on
/// programs that may be deeply nested.
pub fn with_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(512 << 20)
            .spawn_scoped(s, f)
            .expect("spawning a worker thread")
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}
