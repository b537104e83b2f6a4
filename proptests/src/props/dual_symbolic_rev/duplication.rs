//! `dual/no-cotangent-duplication` (seed 000 §7.3, docs/engines/dual.md §5): the symbolic
//! reverse pass, run on a counting target, never sends one cotangent term into two places.

use crate::catalogue::{Outcome, Pass};
use crate::gen::Case;
use crate::props::dual_symbolic::{prepared, show};
use crate::props::util::fail;
use adora_core::ast::{Expr, ExprKind};
use adora_rewrites::dual::reverse::{Reverse, Target};
use adora_rewrites::dual::symbolic::forward::{separate, SV};
use adora_rewrites::dual::symbolic::fuse::SymCt;
use adora_rewrites::dual::symbolic::target::SymTarget;
use adora_rewrites::dual::symbolic::{Sym, SymMap};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// A cotangent with the tag of the operation that built it.
#[derive(Clone)]
struct Tagged {
    ct: SymCt,
    tag: u64,
}

/// [`SymTarget`] with every cotangent tagged and every use counted.
struct Counting<'n> {
    inner: SymTarget<'n>,
    next: u64,
    uses: HashMap<u64, usize>,
    dups: HashSet<u64>,
}

impl Counting<'_> {
    fn used(&mut self, t: &Tagged) {
        *self.uses.entry(t.tag).or_default() += 1;
    }
    fn tag(&mut self, ct: SymCt) -> Tagged {
        self.next += 1;
        Tagged { ct, tag: self.next }
    }
    fn one(&mut self, c: Tagged, f: impl FnOnce(&mut SymTarget<'_>, SymCt) -> SymCt) -> Tagged {
        self.used(&c);
        let out = f(&mut self.inner, c.ct);
        self.tag(out)
    }
}

impl Target<Sym> for Counting<'_> {
    type Ct = Tagged;
    fn dup(&mut self, c: Tagged) -> Tagged {
        let t = self.one(c, |s, c| s.dup(c));
        self.dups.insert(t.tag);
        t
    }
    fn add(&mut self, a: Tagged, b: Tagged) -> Tagged {
        self.used(&a);
        self.used(&b);
        let out = self.inner.add(a.ct, b.ct);
        self.tag(out)
    }
    fn neg(&mut self, c: Tagged) -> Tagged {
        self.one(c, |s, c| s.neg(c))
    }
    fn scale(&mut self, k: &Expr, c: Tagged) -> Tagged {
        self.one(c, |s, c| s.scale(k, c))
    }
    fn div_by(&mut self, k: &Expr, c: Tagged) -> Tagged {
        self.one(c, |s, c| s.div_by(k, c))
    }
    fn select(&mut self, b: &Expr, c: Tagged, then_branch: bool, shape: &[usize]) -> Tagged {
        self.one(c, |s, c| s.select(b, c, then_branch, shape))
    }
    fn one_hot(&mut self, shape: &[usize], ix: &Vec<Expr>, c: Tagged) -> Tagged {
        self.one(c, |s, c| s.one_hot(shape, ix, c))
    }
    fn scatter(&mut self, src: &[usize], map: &Rc<SymMap>, c: Tagged) -> Tagged {
        self.one(c, |s, c| s.scatter(src, map, c))
    }
    fn gather(&mut self, src: &[usize], out: &[usize], map: &Rc<SymMap>, c: Tagged) -> Tagged {
        self.one(c, |s, c| s.gather(src, out, map, c))
    }
    fn replicate(&mut self, n: usize, c: Tagged) -> Tagged {
        self.one(c, |s, c| s.replicate(n, c))
    }
    fn replicate_all(&mut self, shape: &[usize], c: Tagged) -> Tagged {
        self.one(c, |s, c| s.replicate_all(shape, c))
    }
    fn sum_outer(&mut self, c: Tagged, shape: &[usize]) -> Tagged {
        self.one(c, |s, c| s.sum_outer(c, shape))
    }
    fn transpose(&mut self, perm: &[usize], c: Tagged) -> Tagged {
        self.one(c, |s, c| s.transpose(perm, c))
    }
    fn reshape(&mut self, shape: &[usize], c: Tagged) -> Tagged {
        self.one(c, |s, c| s.reshape(shape, c))
    }
    fn slice(&mut self, c: Tagged, start: usize, len: usize, shape: &[usize]) -> Tagged {
        self.one(c, |s, c| s.slice(c, start, len, shape))
    }
    fn index_outer(&mut self, c: Tagged, k: usize, shape: &[usize]) -> Tagged {
        self.one(c, |s, c| s.index_outer(c, k, shape))
    }
}

fn seeds(sv: &SV, at: Expr, out: &mut Vec<(adora_rewrites::dual::symbolic::SDelta, SymCt)>) {
    match sv {
        SV::R(_, d) => out.push((d.clone(), SymCt::term(at))),
        SV::N(_) => {}
        SV::T(vs) => {
            for (k, c) in vs.iter().enumerate() {
                seeds(
                    c,
                    adora_rewrites::dual::symbolic::mk(ExprKind::Proj(Box::new(at.clone()), k)),
                    out,
                );
            }
        }
    }
}

pub(super) fn no_duplication(case: &Case) -> Outcome {
    adora_core::with_stack(|| no_duplication_deep(case))
}

fn no_duplication_deep(case: &Case) -> Outcome {
    let Some((_, g)) = prepared(case)? else {
        return Pass::vacuous();
    };
    let sep = separate(&g).map_err(|d| format!("the symbolic forward pass fails: {d}"))?;
    let mut names = sep.names;
    let mut roots = Vec::new();
    seeds(
        &sep.result,
        adora_rewrites::dual::symbolic::var("dret"),
        &mut roots,
    );
    let mut t = Counting {
        inner: SymTarget::new(&mut names),
        next: 0,
        uses: HashMap::new(),
        dups: HashSet::new(),
    };
    let roots: Vec<_> = roots.into_iter().map(|(d, c)| (d, t.tag(c))).collect();
    let (grads, _) = Reverse::new(sep.leaves.len()).run(&mut t, roots);
    for c in grads.iter().flatten() {
        t.used(c);
    }
    if let Some((tag, n)) = t
        .uses
        .iter()
        .find(|(tag, n)| **n > 1 && !t.dups.contains(tag))
    {
        return fail(format!(
            "cotangent #{tag} is used {n} times without `dup` (share) in the reverse pass of\n{}",
            show(&g)
        ));
    }
    Pass::ok()
}
