//! Fresh names by construction (docs/architecture.md, "Lowering kit"): a transformation
//! that builds a program from an elaborated one takes its new names from one supply that
//! already knows every name of the source, so the names it invents are unique when they
//! are made and no renaming pass has to repair them afterwards.
//!
//! The supply is `adora_core::visit::NameSupply` (`claim` keeps a name that is still
//! free, `fresh` hands out `base_k`); this module seeds it. Its users: engine `dual`'s
//! symbolic forward pass (whose supply the reverse pass and the wrapper continue with)
//! and, through the same seeding, the kit's typed ANF (`super::anf::normalize`).

use adora_core::ast::{Expr, Name};
use adora_core::visit::{all_names, NameSupply};

/// A supply for a program over `params` whose existing code is `body`: the parameters
/// are claimed (a binder never takes their names) and every name occurring in `body`
/// (free, bound or called) is avoided, so each [`NameSupply::fresh`] name is new to the
/// whole program. `body`'s own binders keep their names (they are avoided, not claimed).
pub fn supply_for(params: &[Name], body: &Expr) -> NameSupply {
    let mut s = NameSupply::new();
    for n in all_names(body) {
        s.avoid(&n);
    }
    for p in params {
        s.reserve(p);
    }
    s
}
