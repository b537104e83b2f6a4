//! Shared plumbing of the Linear A transformations: a name supply, flat statement lists
//! (`let` chains) and their reassembly, flattening of nested `let`s, and renaming.

use adora_core::ast::{Expr, ExprKind, Lit, Name};
use adora_core::diag::{Diagnostic, ErrorKind, Span};
use adora_core::linear::ast::RESERVED;
use adora_core::linear::{Atom, Binders, LExpr, LKind, LinearDef, LinearProgram, Op};
use adora_core::visit::NameSupply;
use num_rational::BigRational;
use std::collections::HashMap;

/// A fresh-name supply that avoids every name of a program and the words Linear A
/// reserves.
pub struct Names(NameSupply);

impl Names {
    /// A supply avoiding the reserved words only.
    pub fn new() -> Names {
        let mut s = NameSupply::new();
        for w in RESERVED {
            s.reserve(w);
        }
        for w in adora_core::lexer::BUILTINS {
            s.reserve(w);
        }
        Names(s)
    }

    /// The supply itself (for a pass of the lowering kit that continues with it).
    pub fn into_supply(self) -> NameSupply {
        self.0
    }

    /// A supply continuing from `s` (which already holds the reserved words).
    pub fn from_supply(s: NameSupply) -> Names {
        Names(s)
    }

    /// A supply avoiding every name occurring in `p`.
    pub fn for_program(p: &LinearProgram) -> Names {
        let mut n = Names::new();
        for d in &p.defs {
            n.avoid_def(d);
        }
        n
    }

    /// Avoids every name occurring in `d` (its own name included).
    pub fn avoid_def(&mut self, d: &LinearDef) {
        self.0.reserve(&d.name);
        for p in d.params.iter().chain(&d.lparams) {
            self.0.reserve(&p.name);
        }
        let mut stack = vec![&d.body];
        while let Some(e) = stack.pop() {
            for v in adora_core::linear::visit::direct_uses(e) {
                self.0.avoid(&v);
            }
            match &e.kind {
                LKind::Let(b, bound, body) => {
                    for n in b.nl.iter().chain(&b.lin) {
                        self.0.reserve(n);
                    }
                    stack.push(bound);
                    stack.push(body);
                }
                LKind::Unpack(ns, _, body) => {
                    for n in ns {
                        self.0.reserve(n);
                    }
                    stack.push(body);
                }
                LKind::Op {
                    op: Op::Gather(_, bs, _) | Op::Scatter(_, bs, _),
                    ..
                } => {
                    for n in bs {
                        self.0.avoid(n);
                    }
                }
                _ => {}
            }
        }
    }

    /// Avoids `name` in fresh names.
    pub fn avoid(&mut self, name: &str) {
        self.0.avoid(name);
    }

    /// `name` itself if unclaimed (and not reserved), otherwise a fresh variant.
    pub fn claim(&mut self, name: &str) -> Name {
        self.0.claim(name)
    }

    /// A fresh name based on `base`.
    pub fn fresh(&mut self, base: &str) -> Name {
        self.0.fresh(base)
    }
}

impl Default for Names {
    fn default() -> Self {
        Names::new()
    }
}

/// One binding of a flat `let` chain.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `let b = e in` (`e` a single operation, `dup`, `drop` or call).
    Let(Binders, LExpr),
    /// `let (a, b) = t in`.
    Unpack(Vec<Name>, Name),
}

/// `let s1 in let s2 in ... tail`.
pub fn assemble(stmts: Vec<Stmt>, tail: LExpr) -> LExpr {
    let mut body = tail;
    for s in stmts.into_iter().rev() {
        let kind = match s {
            Stmt::Let(b, e) => LKind::Let(b, Box::new(e), Box::new(body)),
            Stmt::Unpack(ns, t) => LKind::Unpack(ns, t, Box::new(body)),
        };
        body = LExpr::synth(kind);
    }
    body
}

/// `let x = op(args)` (one non-linear or linear binder).
pub fn op_stmt(x: &str, op: Op, args: Vec<Atom>, linear: bool) -> Stmt {
    let b = if linear {
        Binders::lin1(x)
    } else {
        Binders::nl1(x)
    };
    Stmt::Let(b, LExpr::synth(LKind::Op { op, args, linear }))
}

/// An atom of a real literal.
pub fn real(r: i64) -> Atom {
    Atom::Lit(Lit::Real(BigRational::from_integer(r.into())))
}

/// A renaming of variables (to atoms; linear variables only ever map to variables).
#[derive(Clone, Debug, Default)]
pub struct Renaming(pub HashMap<Name, Atom>);

impl Renaming {
    /// The image of a variable name (itself when unmapped; a literal image of a name in a
    /// linear position cannot occur in well-typed programs and keeps the name).
    pub fn name(&self, n: &str) -> Name {
        match self.0.get(n) {
            Some(Atom::Var(m)) => m.clone(),
            _ => n.to_string(),
        }
    }
    /// The image of an atom.
    pub fn atom(&self, a: &Atom) -> Atom {
        match a {
            Atom::Var(n) => self.0.get(n).cloned().unwrap_or_else(|| a.clone()),
            Atom::Lit(_) => a.clone(),
        }
    }
    /// The image of a core index expression whose binders are `bound`: its other free
    /// variables replaced at once (the kit's capture-avoiding [`crate::kit::subst::subst`]).
    pub fn core(&self, e: &Expr, bound: &[Name]) -> Expr {
        let map: Vec<(Name, Expr)> = adora_core::visit::free_vars(e)
            .into_iter()
            .filter(|v| !bound.contains(v))
            .filter_map(|v| {
                let repl = match self.0.get(&v)? {
                    Atom::Var(m) => ExprKind::Var(m.clone()),
                    Atom::Lit(l) => ExprKind::Lit(l.clone()),
                };
                Some((v, Expr::new(repl, Span::DUMMY)))
            })
            .collect();
        crate::kit::subst::subst(e, &map)
    }
    /// The image of an operation (its index maps).
    pub fn op(&self, op: &Op) -> Op {
        match op {
            Op::Gather(sh, bs, ix) => Op::Gather(
                sh.clone(),
                bs.clone(),
                ix.iter().map(|e| self.core(e, bs)).collect(),
            ),
            Op::Scatter(sh, bs, ix) => Op::Scatter(
                sh.clone(),
                bs.clone(),
                ix.iter().map(|e| self.core(e, bs)).collect(),
            ),
            _ => op.clone(),
        }
    }
    /// The image of a single (non-`let`) expression.
    pub fn simple(&self, e: &LExpr) -> LExpr {
        let kind = match &e.kind {
            LKind::Ret(a, l) => LKind::Ret(
                a.iter().map(|x| self.atom(x)).collect(),
                l.iter().map(|x| self.name(x)).collect(),
            ),
            LKind::Call(f, a, l) => LKind::Call(
                f.clone(),
                a.iter().map(|x| self.atom(x)).collect(),
                l.iter().map(|x| self.name(x)).collect(),
            ),
            LKind::Op { op, args, linear } => LKind::Op {
                op: self.op(op),
                args: args.iter().map(|x| self.atom(x)).collect(),
                linear: *linear,
            },
            LKind::Dup(x) => LKind::Dup(self.name(x)),
            LKind::Drop(x) => LKind::Drop(self.name(x)),
            LKind::Let(..) | LKind::Unpack(..) => return self.expr(e),
        };
        LExpr::new(kind, e.span)
    }
    /// The image of any expression (binders are kept: names are unique in a def).
    pub fn expr(&self, e: &LExpr) -> LExpr {
        let (stmts, tail) = split_chain(e);
        let stmts = stmts
            .into_iter()
            .map(|s| match s {
                Stmt::Let(b, x) => Stmt::Let(b, self.expr(&x)),
                Stmt::Unpack(ns, t) => Stmt::Unpack(ns, self.name(&t)),
            })
            .collect();
        assemble(stmts, self.simple(&tail))
    }
}

/// The `let` chain of `e` as statements (bound expressions as they are) and its tail.
pub fn split_chain(e: &LExpr) -> (Vec<Stmt>, LExpr) {
    let mut out = Vec::new();
    let mut cur = e;
    loop {
        match &cur.kind {
            LKind::Let(b, bound, body) => {
                out.push(Stmt::Let(b.clone(), (**bound).clone()));
                cur = body;
            }
            LKind::Unpack(ns, t, body) => {
                out.push(Stmt::Unpack(ns.clone(), t.clone()));
                cur = body;
            }
            _ => return (out, cur.clone()),
        }
    }
}

/// Flattens `e` into statements whose bound expressions are single operations, `dup`,
/// `drop` or calls, and a tail that is a single expression: nested `let`s in bound
/// position are hoisted (names are unique in a def, so nothing is captured), and a bound
/// multi-value return `let (a ; b) = (x ; y) in` becomes a renaming.
pub fn flatten(e: &LExpr) -> (Vec<Stmt>, LExpr) {
    let mut out = Vec::new();
    let mut ren = Renaming::default();
    let tail = flatten_into(e, &mut out, &mut ren);
    (out, tail)
}

fn flatten_into(e: &LExpr, out: &mut Vec<Stmt>, ren: &mut Renaming) -> LExpr {
    let (stmts, tail) = split_chain(e);
    for s in stmts {
        match s {
            Stmt::Unpack(ns, t) => out.push(Stmt::Unpack(ns, ren.name(&t))),
            Stmt::Let(b, bound) => {
                let inner = flatten_into(&bound, out, ren);
                match inner.kind {
                    LKind::Ret(atoms, lins)
                        if atoms.len() == b.nl.len() && lins.len() == b.lin.len() =>
                    {
                        for (n, a) in b.nl.iter().zip(atoms) {
                            ren.0.insert(n.clone(), a);
                        }
                        for (n, l) in b.lin.iter().zip(lins) {
                            ren.0.insert(n.clone(), Atom::Var(l));
                        }
                    }
                    _ => out.push(Stmt::Let(b, inner)),
                }
            }
        }
    }
    ren.simple(&tail)
}

/// Flattens a def body (see [`flatten`]) and reassembles it.
pub fn flatten_def(d: &LinearDef) -> LinearDef {
    let (stmts, tail) = flatten(&d.body);
    LinearDef {
        body: assemble(stmts, tail),
        ..d.clone()
    }
}

/// An `Unsupported` diagnostic.
pub fn unsupported(span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, span, msg)
}

/// An internal-invariant diagnostic (a transformation met a program its input checks
/// should have rejected): [`ErrorKind::Internal`], never a panic.
pub fn internal(msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Internal,
        Span::DUMMY,
        format!("linear engine: {}", msg.into()),
    )
}
