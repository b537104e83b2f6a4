//! Renaming of index variables and value variables inside predicates, index expressions
//! and data references (used by the Tensor-SSA conversion's alias removal F1 and its
//! canonical index names F4, docs/engines/tssa-lowering.md). Binders of `exists` are
//! renamed by the caller's map too, so the map must send them to names that do not clash.

use adora_core::tl::{Aff, DataRef, IExpr, Index, PathStep, Pred};
use std::collections::{BTreeMap, HashMap};

/// The maps of a renaming: index variables and value variables (names not in a map stay).
#[derive(Clone, Debug, Default)]
pub struct Renaming {
    /// Index variables.
    pub ivars: HashMap<String, String>,
    /// Value variables (data references, relation and integer reads).
    pub vars: HashMap<String, String>,
}

impl Renaming {
    fn ivar(&self, v: &str) -> String {
        self.ivars.get(v).cloned().unwrap_or_else(|| v.to_string())
    }

    /// The new name of the value variable `v`.
    pub fn var(&self, v: &str) -> String {
        self.vars.get(v).cloned().unwrap_or_else(|| v.to_string())
    }

    /// The renamed affine form (normalised again: equal names add their coefficients).
    pub fn aff(&self, a: &Aff) -> Aff {
        let mut terms: BTreeMap<String, i64> = BTreeMap::new();
        for (v, c) in &a.terms {
            *terms.entry(self.ivar(v)).or_insert(0) += c;
        }
        terms.retain(|_, c| *c != 0);
        Aff {
            terms,
            constant: a.constant,
        }
    }

    /// The renamed index expression.
    pub fn index(&self, a: &Index) -> Index {
        match a {
            Index::Aff(a) => Index::Aff(self.aff(a)),
            Index::Opaque(e) => Index::Opaque(self.iexpr(e)),
        }
    }

    /// The renamed opaque integer expression.
    pub fn iexpr(&self, e: &IExpr) -> IExpr {
        let b = |x: &IExpr| Box::new(self.iexpr(x));
        match e {
            IExpr::Var(v) => IExpr::Var(self.ivar(v)),
            IExpr::Const(k) => IExpr::Const(*k),
            IExpr::Add(x, y) => IExpr::Add(b(x), b(y)),
            IExpr::Mul(x, y) => IExpr::Mul(b(x), b(y)),
            IExpr::Neg(x) => IExpr::Neg(b(x)),
            IExpr::Div(x, y) => IExpr::Div(b(x), b(y)),
            IExpr::Mod(x, y) => IExpr::Mod(b(x), b(y)),
            IExpr::Min(x, y) => IExpr::Min(b(x), b(y)),
            IExpr::Max(x, y) => IExpr::Max(b(x), b(y)),
            IExpr::Abs(x) => IExpr::Abs(b(x)),
            IExpr::Read(v, idx) => {
                IExpr::Read(self.var(v), idx.iter().map(|a| self.index(a)).collect())
            }
            IExpr::Floor(r) => IExpr::Floor(self.data(r)),
            IExpr::Cond(p, x, y) => IExpr::Cond(Box::new(self.pred(p)), b(x), b(y)),
        }
    }

    /// The renamed data reference.
    pub fn data(&self, r: &DataRef) -> DataRef {
        match r {
            DataRef::Const(c) => DataRef::Const(c.clone()),
            DataRef::Read(v, path) => DataRef::Read(
                self.var(v),
                path.iter()
                    .map(|s| match s {
                        PathStep::Proj(k) => PathStep::Proj(*k),
                        PathStep::At(a) => PathStep::At(self.index(a)),
                    })
                    .collect(),
            ),
        }
    }

    /// The renamed predicate.
    pub fn pred(&self, p: &Pred) -> Pred {
        match p {
            Pred::True => Pred::True,
            Pred::False => Pred::False,
            Pred::Cmp(op, a, b) => Pred::Cmp(*op, self.index(a), self.index(b)),
            Pred::Rel(v, idx) => {
                Pred::Rel(self.var(v), idx.iter().map(|a| self.index(a)).collect())
            }
            Pred::Data(op, a, b) => Pred::Data(*op, self.data(a), self.data(b)),
            Pred::And(a, b) => Pred::And(Box::new(self.pred(a)), Box::new(self.pred(b))),
            Pred::Or(a, b) => Pred::Or(Box::new(self.pred(a)), Box::new(self.pred(b))),
            Pred::Not(a) => Pred::Not(Box::new(self.pred(a))),
            Pred::Exists(i, n, a) => Pred::Exists(self.ivar(i), *n, Box::new(self.pred(a))),
        }
    }
}

/// The binders of `exists` inside `p` (also inside conditional integer expressions), in
/// order of occurrence.
pub fn exists_binders(p: &Pred, out: &mut Vec<String>) {
    match p {
        Pred::And(a, b) | Pred::Or(a, b) => {
            exists_binders(a, out);
            exists_binders(b, out);
        }
        Pred::Not(a) => exists_binders(a, out),
        Pred::Exists(i, _, a) => {
            out.push(i.clone());
            exists_binders(a, out);
        }
        Pred::Cmp(_, a, b) => {
            index_binders(a, out);
            index_binders(b, out);
        }
        Pred::Rel(_, idx) => idx.iter().for_each(|a| index_binders(a, out)),
        Pred::Data(..) | Pred::True | Pred::False => {}
    }
}

fn index_binders(a: &Index, out: &mut Vec<String>) {
    if let Index::Opaque(e) = a {
        iexpr_binders(e, out);
    }
}

fn iexpr_binders(e: &IExpr, out: &mut Vec<String>) {
    match e {
        IExpr::Add(x, y)
        | IExpr::Mul(x, y)
        | IExpr::Div(x, y)
        | IExpr::Mod(x, y)
        | IExpr::Min(x, y)
        | IExpr::Max(x, y) => {
            iexpr_binders(x, out);
            iexpr_binders(y, out);
        }
        IExpr::Neg(x) | IExpr::Abs(x) => iexpr_binders(x, out),
        IExpr::Cond(p, x, y) => {
            exists_binders(p, out);
            iexpr_binders(x, out);
            iexpr_binders(y, out);
        }
        IExpr::Read(_, idx) => idx.iter().for_each(|a| index_binders(a, out)),
        IExpr::Var(_) | IExpr::Const(_) | IExpr::Floor(_) => {}
    }
}
