//! Tangent types (seed 002 §5.1.5) for the types of the core language: reals are their
//! own tangent space; integers and booleans have none (they are constants, docs/language.md);
//! a tuple's tangent keeps the components that have one (a single one stands alone,
//! none: no tangent).

use adora_core::types::{Base, Type};

/// The tangent type of `t`, `None` when `t` carries no reals.
pub fn tangent_type(t: &Type) -> Option<Type> {
    match t {
        Type::Array(Base::R, _) => Some(t.clone()),
        Type::Array(..) => None,
        Type::Tuple(ts) => {
            let mut parts: Vec<Type> = ts.iter().filter_map(tangent_type).collect();
            match parts.len() {
                0 => None,
                1 => parts.pop(),
                _ => Some(Type::Tuple(parts)),
            }
        }
    }
}

/// For a tuple type: for each component, its position among the tangent components
/// (`None` for components without a tangent), and the number of tangent components.
pub fn slots(ts: &[Type]) -> (Vec<Option<usize>>, usize) {
    let mut k = 0;
    let s = ts
        .iter()
        .map(|t| {
            tangent_type(t).map(|_| {
                k += 1;
                k - 1
            })
        })
        .collect();
    (s, k)
}
