//! The bot rules as egg rewrites, one module per figure of seed 000 §5: [`build`]
//! (Fig. 9, build1 pushed down), [`index`] and [`index_bind`] (Fig. 10, index pushed
//! down), [`commute`] (Fig. 11, build1 commuted under the stuck indexes) and [`gather`]
//! (the gather simplifications of horde-ad's rule set) and [`layout`] (transpose and
//! reshape fusion). Shared machinery: [`search`]
//! (searchers and custom appliers), [`subst`] (capture-avoiding substitution on the
//! e-graph) and [`util`] (reading and building classes).

pub(crate) mod build;
pub(crate) mod commute;
pub(crate) mod gather;
pub(crate) mod index;
pub(crate) mod index_bind;
pub(crate) mod layout;
pub(crate) mod search;
pub(crate) mod subst;
pub(crate) mod util;

use crate::ir::analysis::IrAnalysis;
use crate::ir::lang::Ir;
use egg::Rewrite;

/// Every bot rule, in table order (Fig. 9, Fig. 10, Fig. 11, gather and layout
/// simplifications).
pub(crate) fn all() -> Vec<Rewrite<Ir, IrAnalysis>> {
    let mut out = build::rules();
    out.extend(index::rules());
    out.extend(index_bind::rules());
    out.extend(commute::rules());
    out.extend(gather::rules());
    out.extend(layout::rules());
    out
}
