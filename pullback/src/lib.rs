//! The pullback calculus: a small higher-order language next to the core language in which
//! reverse-mode AD is a reduction strategy.
//!
//! Paper: Mak and Ong, *A Differential-form Pullback Programming Language for Higher-order
//! Reverse-mode Automatic Differentiation* (§2 background, §3 the language, §3.2
//! A-reductions, §3.3 pullback and Jacobian reductions, §3.4 the call-by-value strategy).
//! The extracted text of the paper lost every formula; the reconstruction this crate
//! implements, and which parts of it are the paper's, reconstructed or our own decisions,
//! is in docs/engines/pullback.md.
//!
//! | module | job | paper |
//! |---|---|---|
//! | [`syntax`] | types, function symbols, terms, free variables, α-equivalence | §3.1 (Figs. 1–2) |
//! | [`print`] | the concrete syntax of terms and types (the parser reads it back) | — |
//! | [`anf`] | A-normalisation into let series of elementary terms | §3.2 |
//! | [`reduce`] | values, contexts, reductions 1–20 with premises, the call-by-value strategy, trace, counters | §3.3–§3.4 |
//! | [`ad`] | gradient, VJP and JVP by reducing `pb(f, ω) s` and `J(f, ṡ) s` | §3.3 |
//! | [`parse`] | the parser of the concrete syntax (spans, diagnostics, sugar) | §3.1 |
//! | [`types`] | simple types by unification (`dual σ` convertible to `σ -> R`) | §3.1 (Fig. 2) |
//! | [`lin`] | linear positions `lin(s)` | §3.1 |
//! | [`model`] | the concrete model: closures and tagged dual numbers, independent of the reducer | model section (lost), reconstructed |
//! | [`embed`] | core first-order scalar programs as terms `\z. t` | §1 |
//! | [`file`] | `.adp` files: header lines and one closed, typed term | — |

pub mod ad;
pub mod anf;
pub mod embed;
pub mod file;
pub mod lin;
pub mod model;
pub mod parse;
pub mod print;
pub mod reduce;
pub mod syntax;
pub mod types;
