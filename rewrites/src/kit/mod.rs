//! The lowering kit: the pieces every engine needs to turn what it builds back into an
//! elaborated core program (docs/architecture.md, "Lowering kit").
//!
//! * [`names`]: fresh-name supplies seeded with every name of a program, so that names
//!   are unique by construction (no uniqueness repair afterwards);
//! * [`anf`]: typed A-normal form — a builder of typed `let` chains naming temporaries
//!   from one supply (engine `dual`'s primal bindings) and the pass putting an
//!   elaborated function of the flat fragment in typed ANF (engine `linear`'s input,
//!   seed 002 *You Only Linearize Once* §4.1.2);
//! * [`subst`]: the one capture-avoiding (simultaneous) substitution on core `Expr`s,
//!   optionally giving every binder of the result a name from a supply;
//! * [`lets`]: the one pass from a shared DAG to `let`s, placing each shared node at the
//!   outermost scope where all its free variables are bound (seed 000 *Dual-Numbers
//!   Reverse AD for Functional Array Languages* §7.4; used by bot's extraction and engine
//!   `dual`'s unsharing).
//!
//! **Why here.** The kit works on core `Expr`s only, but it is the engines' kit: its
//! users are bot's extraction (`crate::ir::extract`), engine `dual`'s gradient programs
//! (`crate::dual::symbolic`) and engine `linear`'s ANF and lowering (`crate::linear`,
//! seed 002 *You Only Linearize Once* §4.1.2 and §8), all in this crate; `adora-core`
//! keeps what elaboration itself needs (the renamer behind inlining, and the
//! scoped-rebuild machinery the kit builds on). No engine renames binders after the
//! fact: `adora_core::visit::rename_unique` has no caller outside core's tests.

pub mod anf;
pub mod lets;
pub mod names;
pub mod subst;
