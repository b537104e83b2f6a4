//! The one capture-avoiding substitution on core expressions (docs/architecture.md,
//! "Lowering kit"): `e[x1 := r1, …, xn := rn]`, simultaneous, used by the kit's typed
//! ANF, engine `linear`'s erasure and lowering (index maps copied with their variables
//! renamed, seed 002 *You Only Linearize Once* §4.1.2), engine `dual`'s reverse pass and
//! scatter fusion (index maps copied with fresh binders) and by the kit's tests.
//!
//! Two binder policies, one traversal:
//!
//! * [`subst`] keeps every binder of `e` except one that would capture a free variable of
//!   a replacement, which becomes a fresh `base_k` name unused in `e` and the
//!   replacements;
//! * [`subst_claiming`] gives *every* binder of `e` a name claimed from the caller's
//!   supply (the name itself while it is free), so copies of one expression placed in one
//!   program never repeat a binder name: names unique by construction (`super::names`).
//!
//! A binder of a substituted name shadows it (its occurrences below are left alone).

use adora_core::ast::{Expr, ExprKind, Name};
use adora_core::visit::{all_names, free_vars, rebuild, NameSupply, Rebuild, ScopedMap};
use std::collections::{BTreeSet, HashMap};

enum Binders<'s> {
    /// Rename only capturing binders, from a supply made on first need.
    Capture(Option<NameSupply>),
    /// Claim every binder from the caller's supply.
    Claim(&'s mut NameSupply),
}

struct Subst<'a, 's> {
    root: &'a Expr,
    map: HashMap<&'a str, &'a Expr>,
    repl_fv: BTreeSet<Name>,
    binders: Binders<'s>,
    scope: ScopedMap<Name>,
}

impl Subst<'_, '_> {
    fn go(&mut self, e: &Expr) -> Expr {
        match &e.kind {
            ExprKind::Var(n) => match self.scope.get(n) {
                Some(m) => Expr::new(ExprKind::Var(m.clone()), e.span),
                None => match self.map.get(n.as_str()) {
                    Some(r) => (*r).clone(),
                    None => e.clone(),
                },
            },
            _ => rebuild(e, self),
        }
    }
}

impl Rebuild for Subst<'_, '_> {
    fn binder(&mut self, name: &Name) -> Name {
        match &mut self.binders {
            Binders::Claim(s) => s.claim(name),
            Binders::Capture(supply) => {
                if !self.repl_fv.contains(name) {
                    return name.clone();
                }
                let (root, map, fv) = (self.root, &self.map, &self.repl_fv);
                let s = supply.get_or_insert_with(|| {
                    let mut s = NameSupply::new();
                    for n in all_names(root).iter().chain(fv) {
                        s.avoid(n);
                    }
                    for n in map.keys() {
                        s.avoid(n);
                    }
                    s
                });
                s.fresh(name)
            }
        }
    }
    fn child(&mut self, e: &Expr, bound: &[(Name, Name)]) -> Expr {
        for (o, n) in bound {
            self.scope.push(o, n.clone());
        }
        let out = self.go(e);
        for (o, _) in bound.iter().rev() {
            self.scope.pop(o);
        }
        out
    }
}

fn run<'a>(e: &'a Expr, map: &'a [(Name, Expr)], binders: Binders<'_>) -> Expr {
    let mut repl_fv = BTreeSet::new();
    for (_, r) in map {
        repl_fv.extend(free_vars(r));
    }
    let mut s = Subst {
        root: e,
        map: map.iter().map(|(n, r)| (n.as_str(), r)).collect(),
        repl_fv,
        binders,
        scope: ScopedMap::new(),
    };
    s.go(e)
}

/// Capture-avoiding simultaneous substitution of the free occurrences of the variables
/// of `map` in `e` (the first entry of a repeated name wins). A binder of `e` that would
/// capture a free variable of a replacement is renamed to a fresh `base_k` name (unused
/// in `e` and the replacements); all other binders keep their names.
pub fn subst(e: &Expr, map: &[(Name, Expr)]) -> Expr {
    let map = first_wins(map);
    run(e, &map, Binders::Capture(None))
}

/// Like [`subst`], but every binder of `e` takes a name claimed from `supply` (its own
/// name while that is unclaimed, else a fresh `base_k`). The free variables of the
/// replacements and those of `e` that stay are claimed first, so no binder captures one of
/// them.
pub fn subst_claiming(e: &Expr, map: &[(Name, Expr)], supply: &mut NameSupply) -> Expr {
    let map = first_wins(map);
    for (_, r) in &map {
        for v in free_vars(r) {
            supply.reserve(&v);
        }
    }
    for v in free_vars(e) {
        if !map.iter().any(|(n, _)| *n == v) {
            supply.reserve(&v);
        }
    }
    run(e, &map, Binders::Claim(supply))
}

fn first_wins(map: &[(Name, Expr)]) -> Vec<(Name, Expr)> {
    let mut seen = BTreeSet::new();
    map.iter()
        .filter(|(n, _)| seen.insert(n.clone()))
        .cloned()
        .collect()
}
