//! Size names used as values: in a `def` body, a free occurrence of a size name bound by
//! the parameter types stands for its value, an integer literal (docs/language.md, "Size
//! parameters"), so `sum(x) / real(n)` is the mean of `x: R[n]`.

use super::Sizes;
use crate::ast::{Expr, ExprKind, Lit, Name};
use crate::visit::{children_mut, scoped_children};
use num_bigint::BigInt;

/// Replaces every free occurrence of a name of `sizes` in `body` by its value (a binder of
/// the same name shadows it, as for any variable).
pub fn size_values(body: &mut Expr, sizes: &Sizes) {
    if sizes.is_empty() {
        return;
    }
    let mut shadowed: Vec<Name> = Vec::new();
    go(body, sizes, &mut shadowed);
}

fn go(e: &mut Expr, sizes: &Sizes, shadowed: &mut Vec<Name>) {
    if let ExprKind::Var(n) = &e.kind {
        if let Some(v) = sizes.get(n) {
            if !shadowed.contains(n) {
                e.kind = ExprKind::Lit(Lit::Int(BigInt::from(*v)));
            }
        }
        return;
    }
    let binders: Vec<Vec<Name>> = scoped_children(e)
        .into_iter()
        .map(|(_, bs)| bs.into_iter().cloned().collect())
        .collect();
    for (c, bs) in children_mut(e).into_iter().zip(binders) {
        let k = bs.len();
        shadowed.extend(bs);
        go(c, sizes, shadowed);
        shadowed.truncate(shadowed.len() - k);
    }
}
