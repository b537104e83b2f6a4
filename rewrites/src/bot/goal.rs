//! A cheap necessary condition for the normal form, checked before the goal of the bot
//! phase asks the extractor (whose scope-aware selection is much more expensive).
//!
//! A class *may be normal* when one of its members is not a `build`, has children that may
//! all be normal, and — for an `index` — has an array class holding a stuck member (a
//! variable, a projection, an `append`, a `scatter`, a literal or an array literal). This
//! ignores scopes and the exact stuck forms, so it may hold where no normal form exists,
//! never the other way round.

use crate::ir::analysis::IrGraph;
use crate::ir::lang::Ir;
use egg::{Id, Language};
use std::collections::HashSet;

fn stuck_member(eg: &IrGraph, id: Id) -> bool {
    eg[id].nodes.iter().any(|n| {
        matches!(
            n,
            Ir::Var(_) | Ir::Proj(_) | Ir::Append(_) | Ir::Scatter(_) | Ir::Lit(_) | Ir::Array(_)
        )
    })
}

/// Whether the root class may have a normal-form term (see the module docs).
pub(crate) fn may_be_normal(eg: &IrGraph, root: Id) -> bool {
    let mut ok: HashSet<Id> = HashSet::new();
    loop {
        let before = ok.len();
        for class in eg.classes() {
            if ok.contains(&class.id) {
                continue;
            }
            let good = class.nodes.iter().any(|n| {
                !matches!(n, Ir::Build(_))
                    && n.children().iter().all(|&c| ok.contains(&eg.find(c)))
                    && match n {
                        Ir::Index(ch) => stuck_member(eg, ch[0]),
                        _ => true,
                    }
            });
            if good {
                ok.insert(class.id);
            }
        }
        if ok.contains(&eg.find(root)) {
            return true;
        }
        if ok.len() == before {
            return false;
        }
    }
}
