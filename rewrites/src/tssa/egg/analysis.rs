//! The e-graph analysis of TL terms: free variables (value and index variables; the side
//! conditions `x ∉ fv(e3)` of rules 5.1–5.10 and `i ∉ fv(p)` of rule 5.23 read them),
//! the SoA type of the class (pair elimination's rule 5.18 fires on pair-typed bindings;
//! the η rule 5.24a on array-typed data paths), and whether the class holds a data path
//! (a variable, or accesses and projections of one).
//!
//! Free variables merge by union, so a condition "x is not free" holds for every member
//! of the class (conservative). Types merge by equality: two members of a class with
//! different types mean an unsound rule, recorded in [`TlAnalysis::conflict`] and
//! reported as an internal error by the runner.

use super::lang::Tl;
use super::types::{arr, elem, proj, soa};
use super::vars::Free;
use adora_core::tl::{Ty, Var};
use egg::{Analysis, DidMerge, EGraph, Id};
use std::collections::BTreeMap;

/// The e-graph of TL terms.
pub type TlGraph = EGraph<Tl, TlAnalysis>;

/// Per-class data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlData {
    /// Free value and index variables (union over the class's members).
    pub free: Free,
    /// The SoA type of the class's terms (`None` for leaves and ill-typed terms).
    pub ty: Option<Ty>,
    /// Whether the class holds a data path `x`, `p[a]`, `p.k` (`p` a data path).
    pub path: bool,
}

/// The analysis: the types of value variables (inputs, binders and the binders the rules
/// create, which the appliers register before adding their terms) and the first type
/// conflict seen.
#[derive(Clone, Debug, Default)]
pub struct TlAnalysis {
    /// Types of value variables, in SoA form.
    pub types: BTreeMap<Var, Ty>,
    /// The first type conflict of a merge, if any.
    pub conflict: Option<String>,
}

fn leaf_free(eg: &TlGraph, id: Id) -> Free {
    eg[id].data.free.clone()
}

impl Analysis<Tl> for TlAnalysis {
    type Data = TlData;

    fn make(eg: &mut TlGraph, n: &Tl, _id: Id) -> TlData {
        let d = |c: &Id| &eg[*c].data;
        let ty_of = |c: &Id| eg[*c].data.ty.clone();
        let mut free = Free::default();
        let mut path = false;
        let ty = match n {
            Tl::Var(x) => {
                free.vars.insert(x.0.clone());
                path = true;
                eg.analysis.types.get(&x.0).map(soa)
            }
            Tl::Name(_) | Tl::Bind(_) | Tl::Fun(_) => None,
            Tl::Idx(a) => {
                free = Free::of_index(&a.0);
                None
            }
            Tl::Pred(p) => {
                free = Free::of_pred(&p.0);
                None
            }
            Tl::Num(_) => Some(Ty::Num),
            Tl::IConst(a) => {
                free = leaf_free(eg, *a);
                Some(Ty::Num)
            }
            Tl::Add([a, b]) | Tl::Mul([a, b]) => {
                free = union(&d(a).free, &d(b).free);
                Some(Ty::Num)
            }
            Tl::Pair([a, b]) => {
                free = union(&d(a).free, &d(b).free);
                match (ty_of(a), ty_of(b)) {
                    (Some(x), Some(y)) => Some(Ty::Pair(Box::new(x), Box::new(y))),
                    _ => None,
                }
            }
            Tl::Call([_, e]) => {
                free = d(e).free.clone();
                Some(Ty::Num)
            }
            Tl::Proj0(e) | Tl::Proj1(e) => {
                free = d(e).free.clone();
                path = d(e).path;
                let k = u8::from(matches!(n, Tl::Proj1(_)));
                ty_of(e).and_then(|t| proj(&t, k))
            }
            Tl::Gen([b, e]) | Tl::Sum([b, e]) => {
                let bind = eg[*b].nodes.iter().find_map(|m| match m {
                    Tl::Bind(b) => Some(b.0.clone()),
                    _ => None,
                });
                free = d(e).free.clone();
                if let Some((i, _)) = &bind {
                    free.ivars.remove(i);
                }
                match (n, bind) {
                    (Tl::Gen(_), Some((_, k))) => ty_of(e).map(|t| arr(k, t)),
                    (Tl::Sum(_), _) => Some(Ty::Num),
                    _ => None,
                }
            }
            Tl::At([e, a]) => {
                free = union(&d(e).free, &d(a).free);
                path = d(e).path;
                ty_of(e).and_then(|t| elem(&t))
            }
            Tl::Br([p, e]) => {
                free = union(&d(p).free, &d(e).free);
                ty_of(e)
            }
            Tl::Let([x, e1, e2]) => {
                let name = eg[*x].nodes.iter().find_map(|m| match m {
                    Tl::Name(x) => Some(x.0.clone()),
                    _ => None,
                });
                let mut body = d(e2).free.clone();
                if let Some(x) = &name {
                    body.vars.remove(x);
                }
                free = union(&d(e1).free, &body);
                ty_of(e2)
            }
        };
        TlData { free, ty, path }
    }

    fn merge(&mut self, a: &mut TlData, b: TlData) -> DidMerge {
        let old = a.clone();
        match (&a.ty, &b.ty) {
            (Some(x), Some(y)) if x != y && self.conflict.is_none() => {
                self.conflict = Some(format!("types {x:?} and {y:?} merged"));
            }
            (None, Some(y)) => a.ty = Some(y.clone()),
            _ => {}
        }
        a.free.vars.extend(b.free.vars.iter().cloned());
        a.free.ivars.extend(b.free.ivars.iter().cloned());
        a.path |= b.path;
        DidMerge(*a != old, *a != b)
    }
}

fn union(a: &Free, b: &Free) -> Free {
    let mut f = a.clone();
    f.vars.extend(b.vars.iter().cloned());
    f.ivars.extend(b.ivars.iter().cloned());
    f
}
