//! Typed A-normal form with fresh names by construction (docs/architecture.md, "Lowering
//! kit"; seed 002 *You Only Linearize Once* §4.1.2, the A-normal form Linear A is written
//! in).
//!
//! A program in typed ANF is a chain of [`TypedLet`]s — each binds a pattern, states the
//! type of its value, and its value is one operation whose operands are atoms (variables
//! and literals) — followed by an atom. Two ways in:
//!
//! * [`Anf`], a builder: a transformation that invents intermediate values (engine
//!   `dual`'s symbolic forward pass, `crate::dual::symbolic::forward`) pushes typed
//!   bindings, naming its temporaries with [`Anf::bind`] from the one supply it was made
//!   with, and closes the chain with [`Anf::wrap`];
//! * [`normalize`], the pass: an elaborated function of the flat fragment (no construct
//!   with a body other than the index maps of `gather` and `scatter`) in typed ANF, the
//!   types being those the checker gives the nodes (`adora_core::check::node_types`).
//!   Engine `linear` reads its result as a non-linear Linear A def
//!   (`crate::linear::anf`).
//!
//! | source                         | typed ANF                                            |
//! |--------------------------------|------------------------------------------------------|
//! | variable, literal              | the atom it stands for                               |
//! | `op(e1, …, en)` (arithmetic, built-ins, arrays, tuples, indexing) | operands first, left to right, then `let base_k: T = op(a1, …, an)` |
//! | `e.k`                          | `let proj_k: T = a.k`                                 |
//! | `gather`/`scatter`             | the source first, then one `let` whose index map has its free variables replaced by their atoms (`super::subst`) |
//! | `let x = e1 in e2`             | `e1`'s chain; `x` stands for `e1`'s atom in `e2` (no copy) |
//! | `let (x1, …, xn) = e1 in e2`   | `e1`'s chain, then `let xi: Ti = a.i` for each `i`   |
//! | `if`, `build`, `loop`, …       | rejected by the caller's diagnostic                   |
//!
//! `base` is the operation's name (`add`, `mul`, `sum`, `exp`, …; `arr`, `tup`, `ix`, `g`,
//! `s` for array and tuple literals, indexing, gather and scatter). Names are fresh by
//! construction: every name comes from one supply that avoids every name of the source
//! (`super::names`), so no renaming pass repairs them afterwards. [`verify`] re-checks the
//! stated types (the kit's properties run it on both engines' chains).

use adora_core::ast::{Binding, Expr, ExprKind, Function, Name, Param, Pat};
use adora_core::check::NodeTypes;
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::types::Type;
use adora_core::visit::{all_names, free_vars, NameSupply};
use std::collections::HashMap;

/// One binding of a typed ANF chain: `let pat: ty = value in …`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypedLet {
    /// The bound pattern.
    pub pat: Pat,
    /// The type of `value` (a tuple type for a tuple pattern).
    pub ty: Type,
    /// The bound value.
    pub value: Expr,
}

/// A builder of a typed `let` chain whose new names come from one supply.
#[derive(Clone, Debug)]
pub struct Anf {
    /// The supply every name of the chain comes from (and later passes continue with).
    pub supply: NameSupply,
    /// The chain so far, in order.
    pub lets: Vec<TypedLet>,
}

impl Anf {
    /// An empty chain naming from `supply` (seeded by the caller, e.g. with
    /// [`super::names::supply_for`]).
    pub fn new(supply: NameSupply) -> Anf {
        Anf {
            supply,
            lets: Vec::new(),
        }
    }

    /// Binds `value` of type `ty` to a fresh `base_k` and returns that name.
    pub fn bind(&mut self, base: &str, ty: Type, value: Expr) -> Name {
        let x = self.supply.fresh(base);
        self.push(Pat::Var(x.clone()), ty, value);
        x
    }

    /// Appends a binding whose names the caller chose (a `let` of the source program,
    /// whose names the supply already avoids).
    pub fn push(&mut self, pat: Pat, ty: Type, value: Expr) {
        self.lets.push(TypedLet { pat, ty, value });
    }

    /// The chain around `tail`: `let p1 = v1 in … let pn = vn in tail`.
    pub fn wrap(&self, tail: Expr) -> Expr {
        wrap(&self.lets, tail)
    }
}

/// `let p1 = v1 in … let pn = vn in tail` for the chain `lets`.
pub fn wrap(lets: &[TypedLet], tail: Expr) -> Expr {
    lets.iter().rev().fold(tail, |acc, l| {
        Expr::new(
            ExprKind::Let(l.pat.clone(), Box::new(l.value.clone()), Box::new(acc)),
            Span::DUMMY,
        )
    })
}

/// Checks the types a chain states: each value, typed under `env` (the parameters) and
/// the earlier bindings, has its binding's type, and a tuple pattern matches a tuple type
/// of its arity. A mismatch is an [`ErrorKind::Internal`] diagnostic naming the binding.
pub fn verify(env: &[Binding], lets: &[TypedLet]) -> Result<()> {
    let mut env = env.to_vec();
    for l in lets {
        let got = adora_core::check::type_of(&env, &l.value)?;
        let what = || adora_core::pretty::expr(&l.value);
        if got != l.ty {
            return Err(internal(format!(
                "the typed ANF binding of `{}` states {} but its value has type {got}",
                what(),
                l.ty
            )));
        }
        match (&l.pat, &l.ty) {
            (Pat::Var(x), t) => env.push(Binding {
                name: x.clone(),
                ty: t.clone(),
            }),
            (Pat::Tuple(xs), Type::Tuple(ts)) if xs.len() == ts.len() => {
                env.extend(xs.iter().zip(ts).map(|(x, t)| Binding {
                    name: x.clone(),
                    ty: t.clone(),
                }))
            }
            _ => {
                return Err(internal(format!(
                    "the typed ANF binding of `{}` has a tuple pattern of another arity than {}",
                    what(),
                    l.ty
                )))
            }
        }
    }
    Ok(())
}

fn internal(msg: String) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Internal,
        Span::DUMMY,
        format!("internal error: {msg}"),
    )
}

/// An elaborated function in typed ANF (see [`normalize`]).
#[derive(Clone, Debug)]
pub struct AnfFunction {
    /// The parameters, renamed where the supply's reservations required it.
    pub params: Vec<Param>,
    /// The chain of typed bindings.
    pub lets: Vec<TypedLet>,
    /// The result atom.
    pub result: Expr,
    /// The supply the names came from (it knows every name of the source and the chain).
    pub supply: NameSupply,
}

/// Whether `e` is an atom of typed ANF: a variable or a literal.
pub fn is_atom(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Var(_) | ExprKind::Lit(_))
}

/// `f` in typed ANF (see the module documentation). `supply` carries the caller's
/// reservations (words its target language keeps); every name of `f` is avoided on top,
/// and each parameter is claimed (renamed only when reserved). A construct outside the
/// flat fragment gets `reject`'s diagnostic; an ill-typed `f` the checker's.
pub fn normalize(
    f: &Function,
    mut supply: NameSupply,
    reject: fn(&Expr) -> Diagnostic,
) -> Result<AnfFunction> {
    adora_core::with_stack(|| {
        for n in all_names(&f.body) {
            supply.avoid(&n);
        }
        for p in &f.params {
            supply.avoid(&p.name);
        }
        let types = adora_core::check::node_types(f)?;
        let mut n = Normalize {
            types: &types,
            reject,
            anf: Anf::new(supply),
            env: HashMap::new(),
        };
        let mut params = Vec::new();
        for p in &f.params {
            let name = n.anf.supply.claim(&p.name);
            n.env.insert(p.name.clone(), var(&name));
            params.push(Param {
                name,
                ty: p.ty.clone(),
                span: p.span,
            });
        }
        let result = n.atom(&f.body)?;
        Ok(AnfFunction {
            params,
            lets: n.anf.lets,
            result,
            supply: n.anf.supply,
        })
    })
}

fn var(n: &str) -> Expr {
    Expr::new(ExprKind::Var(n.to_string()), Span::DUMMY)
}

struct Normalize<'a> {
    types: &'a NodeTypes,
    reject: fn(&Expr) -> Diagnostic,
    anf: Anf,
    /// Source variable → its atom.
    env: HashMap<Name, Expr>,
}

impl Normalize<'_> {
    fn atoms(&mut self, es: &[Expr]) -> Result<Vec<Expr>> {
        es.iter().map(|e| self.atom(e)).collect()
    }

    /// Binds the operation `value` (the node `e` rebuilt over atoms) under `base`.
    fn bind(&mut self, e: &Expr, base: &str, value: ExprKind) -> Result<Expr> {
        let ty = self.types.of(e)?.clone();
        let x = self.anf.bind(base, ty, Expr::new(value, e.span));
        Ok(var(&x))
    }

    /// An index map with its free variables (other than its binders) replaced by their
    /// atoms.
    fn index_map(&self, ix: &[Expr], bound: &[Name]) -> Vec<Expr> {
        ix.iter()
            .map(|e| {
                let map: Vec<(Name, Expr)> = free_vars(e)
                    .into_iter()
                    .filter(|v| !bound.contains(v))
                    .filter_map(|v| Some((v.clone(), self.env.get(&v)?.clone())))
                    .collect();
                super::subst::subst(e, &map)
            })
            .collect()
    }

    /// The atom of `e`, after the bindings computing it.
    fn atom(&mut self, e: &Expr) -> Result<Expr> {
        use ExprKind as K;
        match &e.kind {
            K::Var(x) => self.env.get(x).cloned().ok_or_else(|| {
                Diagnostic::new(
                    ErrorKind::Internal,
                    e.span,
                    format!("internal error: typed ANF met the unbound variable `{x}`"),
                )
            }),
            K::Lit(_) => Ok(e.clone()),
            K::Array(es) => {
                let a = self.atoms(es)?;
                self.bind(e, "arr", K::Array(a))
            }
            K::Tuple(es) => {
                let a = self.atoms(es)?;
                self.bind(e, "tup", K::Tuple(a))
            }
            K::Proj(t, k) => {
                let a = self.atom(t)?;
                self.bind(e, "proj", K::Proj(Box::new(a), *k))
            }
            K::Let(p, v, b) => {
                let a = self.atom(v)?;
                match p {
                    Pat::Var(x) => {
                        self.env.insert(x.clone(), a);
                    }
                    Pat::Tuple(xs) => {
                        let Type::Tuple(ts) = self.types.of(v)?.clone() else {
                            return Err(internal(format!(
                                "a tuple pattern binds `{}`, which is not a tuple",
                                adora_core::pretty::expr(v)
                            )));
                        };
                        for (k, (x, t)) in xs.iter().zip(ts).enumerate() {
                            let name = self.anf.supply.claim(x);
                            let value = Expr::new(K::Proj(Box::new(a.clone()), k), v.span);
                            self.anf.push(Pat::Var(name.clone()), t, value);
                            self.env.insert(x.clone(), var(&name));
                        }
                    }
                }
                self.atom(b)
            }
            K::Unary(u, x) => {
                let a = self.atom(x)?;
                self.bind(e, u.name(), K::Unary(*u, Box::new(a)))
            }
            K::Binary(op, x, y) => {
                let a = self.atom(x)?;
                let b = self.atom(y)?;
                self.bind(e, op.name(), K::Binary(*op, Box::new(a), Box::new(b)))
            }
            K::Prim(p, es) => {
                let a = self.atoms(es)?;
                self.bind(e, p.name(), K::Prim(p.clone(), a))
            }
            K::Index(x, is) => {
                let a = self.atom(x)?;
                let ix = self.atoms(is)?;
                self.bind(e, "ix", K::Index(Box::new(a), ix))
            }
            K::Gather(sh, x, bs, ix) => {
                let a = self.atom(x)?;
                let ix = self.index_map(ix, bs);
                self.bind(e, "g", K::Gather(sh.clone(), Box::new(a), bs.clone(), ix))
            }
            K::Scatter(sh, x, bs, ix) => {
                let a = self.atom(x)?;
                let ix = self.index_map(ix, bs);
                self.bind(e, "s", K::Scatter(sh.clone(), Box::new(a), bs.clone(), ix))
            }
            _ => Err((self.reject)(e)),
        }
    }
}
