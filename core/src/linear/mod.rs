//! Linear A (seed 002): the non-linear ; linear dialect of the core language — its syntax
//! ([`ast`]), parser ([`parse`], reusing the core lexer), printer ([`print`]), type checker
//! of Fig. 4 ([`check`]), the Linear B restriction of Definition 6.1 ([`linear_b`]), and
//! traversal helpers ([`visit`]). The concrete syntax, the typing rules and the
//! transformations over it are documented in `docs/engines/linear.md`.

pub mod ast;
pub mod check;
pub mod lex;
pub mod linear_b;
pub mod optype;
pub mod parse;
pub mod print;
pub mod visit;

pub use ast::{Atom, Binders, LExpr, LKind, LinearDef, LinearProgram, Op};
pub use check::{check_program, DefTypes, ProgramTypes, VarInfo};
pub use linear_b::check_linear_b;
pub use parse::parse_program;
