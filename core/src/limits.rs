//! Resource limits that turn pathological inputs into errors (`ErrorKind::Resource` or
//! `ErrorKind::Syntax`) instead of stack overflows, hangs or memory exhaustion.

/// Deepest syntactic nesting the parser accepts (parentheses, brackets, operators, lets,
/// binders all count one level each).
pub const MAX_NESTING: usize = 2_000;

/// Most AST nodes an elaborated (inlined) function may have.
pub const MAX_NODES: usize = 2_000_000;

/// Deepest tree an elaborated (inlined) function may have.
pub const MAX_DEPTH: usize = 20_000;

/// Most scalars any single array value (or static shape) may hold.
pub const MAX_ARRAY_ELEMENTS: usize = 1 << 24;

/// Most instances of helper `def`s with size parameters one program may need (one per
/// helper and sizes; docs/language.md, "Helpers with size parameters").
pub const MAX_INSTANCES: usize = 10_000;
