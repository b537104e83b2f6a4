//! The names of the binders of an extracted term (docs/architecture.md, "Lowering kit"):
//! the extraction builds the term with one placeholder per binder, the kit places the
//! shared nodes, and this pass gives each binder a readable name claimed from the one
//! supply, in the order the extraction's scopes come (a scope's body before its `let`s, a
//! `gather`'s source before its binders, a binder before its scope). Names are unique
//! by construction, since they all come from that supply.

use adora_core::ast::{Expr, ExprKind, Name};
use adora_core::diag::Span;
use adora_core::visit::{rebuild, NameSupply, Rebuild};
use std::collections::HashMap;

type R<T> = Result<T, String>;

/// The prefix of binder placeholders (`#` cannot start a source identifier).
pub(super) const PLACEHOLDER: &str = "#b";

/// `e` with every placeholder binder (and its uses) renamed: `bases` gives each
/// placeholder the base of its readable name.
pub(super) fn name_binders(
    e: &Expr,
    bases: &HashMap<Name, String>,
    supply: &mut NameSupply,
) -> R<Expr> {
    Naming {
        bases,
        supply,
        names: HashMap::new(),
    }
    .go(e)
}

/// The final names of binders, claimed in the order of the extraction's scopes (see the
/// module documentation): placeholders are replaced, everything else is kept.
struct Naming<'a> {
    bases: &'a HashMap<Name, String>,
    supply: &'a mut NameSupply,
    names: HashMap<Name, Name>,
}

impl Naming<'_> {
    fn claim(&mut self, placeholder: &Name) -> Name {
        let base = self.bases.get(placeholder).map_or("i", String::as_str);
        let name = self.supply.claim(base);
        self.names.insert(placeholder.clone(), name.clone());
        name
    }

    fn rename(&self, n: &Name) -> R<Name> {
        if !n.starts_with(PLACEHOLDER) {
            return Ok(n.clone());
        }
        self.names
            .get(n)
            .cloned()
            .ok_or_else(|| format!("binder {n} is used before it is named"))
    }

    fn go(&mut self, e: &Expr) -> R<Expr> {
        let kind = match &e.kind {
            ExprKind::Var(n) => ExprKind::Var(self.rename(n)?),
            ExprKind::Let(..) => {
                // A scope's `let`s: its body first, then the bound terms in order.
                let mut chain = Vec::new();
                let mut cur = e;
                while let ExprKind::Let(p, v, b) = &cur.kind {
                    chain.push((p.clone(), v));
                    cur = b;
                }
                let mut out = self.go(cur)?;
                let mut defs = Vec::new();
                for (p, v) in chain {
                    defs.push((p, self.go(v)?));
                }
                for (p, v) in defs.into_iter().rev() {
                    out = Expr::new(ExprKind::Let(p, Box::new(v), Box::new(out)), Span::DUMMY);
                }
                return Ok(out);
            }
            ExprKind::Build(sh, bs, body) => {
                let bs: Vec<Name> = bs.iter().map(|b| self.claim(b)).collect();
                ExprKind::Build(sh.clone(), bs, Box::new(self.go(body)?))
            }
            ExprKind::Gather(sh, x, bs, ix) | ExprKind::Scatter(sh, x, bs, ix) => {
                let x = Box::new(self.go(x)?);
                let bs: Vec<Name> = bs.iter().map(|b| self.claim(b)).collect();
                let ix = ix.iter().map(|c| self.go(c)).collect::<R<Vec<_>>>()?;
                if matches!(e.kind, ExprKind::Gather(..)) {
                    ExprKind::Gather(sh.clone(), x, bs, ix)
                } else {
                    ExprKind::Scatter(sh.clone(), x, bs, ix)
                }
            }
            _ => {
                let mut err = None;
                let out = rebuild(e, &mut Children(self, &mut err));
                return match err {
                    Some(m) => Err(m),
                    None => Ok(out),
                };
            }
        };
        Ok(Expr::new(kind, e.span))
    }
}

/// The other nodes (no binders): children in field order.
struct Children<'a, 'b>(&'a mut Naming<'b>, &'a mut Option<String>);

impl Rebuild for Children<'_, '_> {
    fn binder(&mut self, name: &Name) -> Name {
        name.clone()
    }
    fn child(&mut self, e: &Expr, _: &[(Name, Name)]) -> Expr {
        match self.0.go(e) {
            Ok(x) => x,
            Err(m) => {
                self.1.get_or_insert(m);
                e.clone()
            }
        }
    }
}
