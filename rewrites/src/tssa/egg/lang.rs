//! The egg language of TL terms (seed 001, *Differentiating a Tensor Language* §3
//! Fig. 3), with `let` as a node, and the conversions `Term` ↔ e-graph.
//!
//! Encoding (docs/engines/tssa-passes.md, "The e-graph language"):
//!
//! - Every term former is a node: `(let x e1 e2)`, `(gen b e)`, `(sum b e)`, `(+ a b)`,
//!   `(* a b)`, `(call f e)`, `(pair a b)`, `(proj0 e)`, `(proj1 e)`, `(at e a)`,
//!   `(br p e)`. Unlike the core IR (`crate::ir::lang`, which has no `let`), the binder
//!   of a `let` is a child class holding a [`Tl::Name`] leaf, distinct from the
//!   [`Tl::Var`] leaf of a use, so no rule can ever merge a binder with a value.
//! - Binders of `gen`/`sum` are [`Tl::Bind`] leaves carrying the name and the range.
//! - Predicates and index expressions are **leaf data** ([`Tl::Pred`], [`Tl::Idx`]), not
//!   nodes: the passes never rewrite inside them — they only substitute an index
//!   variable (rule 5.21, on a representative, by a custom applier) and conjoin two
//!   predicates (rule 5.24, by a custom applier). As leaves they keep the foundation's
//!   normalised affine forms and are compared structurally; their free variables are
//!   computed by the analysis like any node's.
//! - Constants ([`Tl::Num`]), index constants ([`Tl::IConst`], extension E2) and black
//!   boxes ([`Tl::Fun`]) are leaves too.
//!
//! Leaves print readably but do not parse: rule patterns mention leaves only through
//! pattern variables (`?p`, `?b`).

#![allow(missing_docs)] // variants of `define_language!` cannot carry doc comments

use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::tl::{BlackBox, IVar, Index, Pred, Rat, Term, Var};
use egg::{define_language, Id, RecExpr};
use std::fmt;
use std::str::FromStr;

macro_rules! leaf {
    ($(#[$doc:meta])* $name:ident($ty:ty), $fmt:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub $ty);
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                #[allow(clippy::redundant_closure_call)]
                ($fmt)(&self.0, f)
            }
        }
        impl FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> std::result::Result<Self, String> {
                Err(format!("TL leaves are not parsed ({s})"))
            }
        }
    };
}

leaf!(
    /// A use of a value variable.
    VarLeaf(Var),
    |x: &Var, f: &mut fmt::Formatter<'_>| write!(f, "{x}")
);
leaf!(
    /// The binder of a `let`.
    NameLeaf(Var),
    |x: &Var, f: &mut fmt::Formatter<'_>| write!(f, "^{x}")
);
leaf!(
    /// The binder of a `gen`/`sum`: index variable and range.
    BindLeaf((IVar, u64)),
    |b: &(IVar, u64), f: &mut fmt::Formatter<'_>| write!(f, "{}:{}", b.0, b.1)
);
leaf!(
    /// A constant number.
    NumLeaf(Rat),
    |c: &Rat, f: &mut fmt::Formatter<'_>| write!(f, "#{c}")
);
leaf!(
    /// An index expression (of an access or an index constant).
    IdxLeaf(Index),
    |a: &Index, f: &mut fmt::Formatter<'_>| write!(f, "{a:?}")
);
leaf!(
    /// A predicate.
    PredLeaf(Pred),
    |p: &Pred, f: &mut fmt::Formatter<'_>| write!(f, "{p:?}")
);
leaf!(
    /// A black-box scalar function.
    FunLeaf(BlackBox),
    |b: &BlackBox, f: &mut fmt::Formatter<'_>| write!(f, "{b:?}")
);

define_language! {
    /// TL terms as an egg language (see the module documentation).
    pub enum Tl {
        // `(let ^x e1 e2)`: child 0 is a `Name` leaf.
        "let" = Let([Id; 3]),
        // `(gen i:n e)`: child 0 is a `Bind` leaf.
        "gen" = Gen([Id; 2]),
        // `(sum i:n e)`.
        "sum" = Sum([Id; 2]),
        "+" = Add([Id; 2]),
        "*" = Mul([Id; 2]),
        // `(call f e)`: child 0 is a `Fun` leaf.
        "call" = Call([Id; 2]),
        "pair" = Pair([Id; 2]),
        "proj0" = Proj0(Id),
        "proj1" = Proj1(Id),
        // `(at e a)`: child 1 is an `Idx` leaf.
        "at" = At([Id; 2]),
        // `(br p e)`: child 0 is a `Pred` leaf.
        "br" = Br([Id; 2]),
        // `(iconst a)`: child 0 is an `Idx` leaf (E2).
        "iconst" = IConst(Id),
        Var(VarLeaf),
        Name(NameLeaf),
        Bind(BindLeaf),
        Num(NumLeaf),
        Idx(IdxLeaf),
        Pred(PredLeaf),
        Fun(FunLeaf),
    }
}

/// A term as a `RecExpr` (root last). Projections other than `.0`/`.1` are internal
/// errors (the syntax allows only those).
pub fn to_recexpr(t: &Term) -> Result<RecExpr<Tl>> {
    let mut r = RecExpr::default();
    add_term(&mut r, t)?;
    Ok(r)
}

fn add_term(r: &mut RecExpr<Tl>, t: &Term) -> Result<Id> {
    Ok(match t {
        Term::Var(x) => r.add(Tl::Var(VarLeaf(x.clone()))),
        Term::Const(c) => r.add(Tl::Num(NumLeaf(c.clone()))),
        Term::IndexConst(a) => {
            let a = r.add(Tl::Idx(IdxLeaf(a.clone())));
            r.add(Tl::IConst(a))
        }
        Term::Add(a, b) => {
            let (a, b) = (add_term(r, a)?, add_term(r, b)?);
            r.add(Tl::Add([a, b]))
        }
        Term::Mul(a, b) => {
            let (a, b) = (add_term(r, a)?, add_term(r, b)?);
            r.add(Tl::Mul([a, b]))
        }
        Term::Pair(a, b) => {
            let (a, b) = (add_term(r, a)?, add_term(r, b)?);
            r.add(Tl::Pair([a, b]))
        }
        Term::Call(f, e) => {
            let f = r.add(Tl::Fun(FunLeaf(*f)));
            let e = add_term(r, e)?;
            r.add(Tl::Call([f, e]))
        }
        Term::Proj(k, e) => {
            let e = add_term(r, e)?;
            match k {
                0 => r.add(Tl::Proj0(e)),
                1 => r.add(Tl::Proj1(e)),
                _ => {
                    return Err(Diagnostic::new(
                        ErrorKind::Internal,
                        Span::DUMMY,
                        format!("tssa passes: projection .{k} of a pair"),
                    ))
                }
            }
        }
        Term::Gen(i, n, e) | Term::Sum(i, n, e) => {
            let b = r.add(Tl::Bind(BindLeaf((i.clone(), *n))));
            let e = add_term(r, e)?;
            match t {
                Term::Gen(..) => r.add(Tl::Gen([b, e])),
                _ => r.add(Tl::Sum([b, e])),
            }
        }
        Term::Access(e, a) => {
            let e = add_term(r, e)?;
            let a = r.add(Tl::Idx(IdxLeaf(a.clone())));
            r.add(Tl::At([e, a]))
        }
        Term::Bracket(p, e) => {
            let p = r.add(Tl::Pred(PredLeaf(p.clone())));
            let e = add_term(r, e)?;
            r.add(Tl::Br([p, e]))
        }
        Term::Let(x, e1, e2) => {
            let x = r.add(Tl::Name(NameLeaf(x.clone())));
            let e1 = add_term(r, e1)?;
            let e2 = add_term(r, e2)?;
            r.add(Tl::Let([x, e1, e2]))
        }
    })
}

/// The term of one node, given its children: `leaf(id)` returns the leaf node of a
/// leaf-only child class, `term(id)` the chosen term of a term child class. `None` when a
/// child is missing or malformed.
pub fn node_term(
    n: &Tl,
    leaf: &mut impl FnMut(Id) -> Option<Tl>,
    term: &mut impl FnMut(Id) -> Option<Term>,
) -> Option<Term> {
    let bx = |t: Term| Box::new(t);
    Some(match n {
        Tl::Var(x) => Term::Var(x.0.clone()),
        Tl::Num(c) => Term::Const(c.0.clone()),
        Tl::IConst(a) => match leaf(*a)? {
            Tl::Idx(a) => Term::IndexConst(a.0),
            _ => return None,
        },
        Tl::Add([a, b]) => Term::Add(bx(term(*a)?), bx(term(*b)?)),
        Tl::Mul([a, b]) => Term::Mul(bx(term(*a)?), bx(term(*b)?)),
        Tl::Pair([a, b]) => Term::Pair(bx(term(*a)?), bx(term(*b)?)),
        Tl::Call([f, e]) => match leaf(*f)? {
            Tl::Fun(f) => Term::Call(f.0, bx(term(*e)?)),
            _ => return None,
        },
        Tl::Proj0(e) => Term::Proj(0, bx(term(*e)?)),
        Tl::Proj1(e) => Term::Proj(1, bx(term(*e)?)),
        Tl::Gen([b, e]) | Tl::Sum([b, e]) => {
            let Tl::Bind(BindLeaf((i, k))) = leaf(*b)? else {
                return None;
            };
            let body = bx(term(*e)?);
            match n {
                Tl::Gen(_) => Term::Gen(i, k, body),
                _ => Term::Sum(i, k, body),
            }
        }
        Tl::At([e, a]) => match leaf(*a)? {
            Tl::Idx(a) => Term::Access(bx(term(*e)?), a.0),
            _ => return None,
        },
        Tl::Br([p, e]) => match leaf(*p)? {
            Tl::Pred(p) => Term::Bracket(p.0, bx(term(*e)?)),
            _ => return None,
        },
        Tl::Let([x, e1, e2]) => match leaf(*x)? {
            Tl::Name(x) => Term::Let(x.0, bx(term(*e1)?), bx(term(*e2)?)),
            _ => return None,
        },
        Tl::Name(_) | Tl::Bind(_) | Tl::Idx(_) | Tl::Pred(_) | Tl::Fun(_) => return None,
    })
}

/// Whether a node is a leaf of the non-term kinds (binders, index expressions,
/// predicates, black boxes): such classes are never merged and are read directly.
pub fn is_data_leaf(n: &Tl) -> bool {
    matches!(
        n,
        Tl::Name(_) | Tl::Bind(_) | Tl::Idx(_) | Tl::Pred(_) | Tl::Fun(_)
    )
}

/// Which children of a node are data leaves (the others are terms).
pub fn term_children(n: &Tl) -> Vec<Id> {
    match n {
        Tl::Let([_, a, b]) => vec![*a, *b],
        Tl::Gen([_, e]) | Tl::Sum([_, e]) | Tl::Call([_, e]) | Tl::Br([_, e]) => vec![*e],
        Tl::At([e, _]) => vec![*e],
        Tl::Add([a, b]) | Tl::Mul([a, b]) | Tl::Pair([a, b]) => vec![*a, *b],
        Tl::Proj0(e) | Tl::Proj1(e) => vec![*e],
        _ => Vec::new(),
    }
}
