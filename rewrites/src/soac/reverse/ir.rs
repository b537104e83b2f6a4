//! The statement form the reverse framework works on (seed 004 *AD for an Array Language
//! with Nested Parallelism* §4: "we assume the program is in A-normal form"): a body is a
//! list of statements `pat: T = rhs` followed by an atom; an operand is an atom (a
//! variable or a literal) and the constructs with bodies (`if`, `map`, `loop`) hold
//! bodies of their own. The flat fragment's statements are one operation on atoms, as in
//! the kit's typed ANF (`crate::kit::anf`, docs/architecture.md §7a); this module adds the
//! constructs with bodies, which `kit::anf` rejects.
//!
//! Names: a `let` of the source keeps its name (elaborated programs bind each name once,
//! and the supply of `crate::kit::names::supply_for` avoids them); temporaries are fresh
//! names of the one supply. `let x = a` with `a` an atom makes `x` an alias of `a`. The
//! bulk forms `build`, `gather` and `scatter` are answered `Unsupported` here: engine
//! `soac`'s lowering (`soac/lower.rs`) rewrites them into SOAC forms first.

use adora_core::ast::{Binding, Expr, ExprKind, Lambda, Name, Op, Pat};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::types::Type;
use adora_core::visit::{free_vars, NameSupply};
use std::collections::{BTreeSet, HashMap};

/// A body: statements, then the result atom. `label` names the scope for the
/// re-execution counts (`super::Counts`).
#[derive(Clone, Debug)]
pub struct Body {
    /// The scope's name: `main`, `map x`, `loop i`, `then #k`, `else #k`, `lambda a`.
    pub label: String,
    /// The statements, in order.
    pub stmts: Vec<St>,
    /// The result: a variable or a literal.
    pub result: Expr,
}

/// One statement `pat: ty = rhs`.
#[derive(Clone, Debug)]
pub struct St {
    /// The bound pattern (a tuple pattern only for tuple-typed right-hand sides).
    pub pat: Pat,
    /// The type of the right-hand side.
    pub ty: Type,
    /// The right-hand side.
    pub rhs: Rhs,
}

/// A right-hand side.
#[derive(Clone, Debug)]
pub enum Rhs {
    /// One operation on atoms: arithmetic, a primitive, indexing, an array literal, a
    /// tuple, a projection, or an atom (a tuple pattern destructuring a variable).
    Flat(Expr),
    /// `if cond then … else …`.
    If {
        /// The condition (an atom).
        cond: Expr,
        /// The `then` branch.
        then_: Body,
        /// The `else` branch.
        else_: Body,
    },
    /// `map((params…) => body, args…)`.
    Map {
        /// The lambda's parameters.
        params: Vec<Name>,
        /// Their types (the arguments' slices).
        tys: Vec<Type>,
        /// The lambda's body.
        body: Body,
        /// The arrays (atoms).
        args: Vec<Expr>,
    },
    /// `loop (acc… = init) for var < count do body`; the accumulator as its components.
    Loop {
        /// One name per accumulator component (a tuple accumulator bound to one name gets
        /// fresh component names and a first statement rebuilding the tuple).
        acc: Vec<Name>,
        /// The components' types.
        tys: Vec<Type>,
        /// The counter.
        var: Name,
        /// The trip count.
        count: usize,
        /// The initial value (an atom of the statement's type).
        init: Expr,
        /// The body.
        body: Body,
        /// Names for the forward sweep's checkpoint arrays, one per component (§4.3).
        cps: Vec<Name>,
    },
    /// `reduce`, `scan`, `reduce_by_index` or `scatter_into` with atom operands; an
    /// operator lambda is kept as it is (its free variables are atoms).
    Soac(Expr),
}

/// An `Unsupported` diagnostic at `span`.
pub fn unsupported(span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, span, msg.into())
}

/// An internal diagnostic.
pub fn internal(msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Internal,
        Span::DUMMY,
        format!("internal error: engine soac (reverse): {}", msg.into()),
    )
}

/// An expression node with no source position.
pub fn mk(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

/// The variable `n`.
pub fn var(n: &str) -> Expr {
    mk(ExprKind::Var(n.to_string()))
}

/// The type of `e` under `types` (only its free variables are looked up).
pub fn type_in(types: &HashMap<Name, Type>, e: &Expr) -> Result<Type> {
    let env: Vec<Binding> = free_vars(e)
        .into_iter()
        .filter_map(|n| {
            types.get(&n).map(|ty| Binding {
                name: n.clone(),
                ty: ty.clone(),
            })
        })
        .collect();
    adora_core::check::type_of(&env, e)
}

/// The normaliser: source expressions to [`Body`]s.
pub struct Norm<'a> {
    /// The program's one supply.
    pub supply: &'a mut NameSupply,
    /// Types of every name met so far.
    pub types: &'a mut HashMap<Name, Type>,
    /// Aliases: `let x = a` binds nothing and maps `x` to `a`.
    pub alias: HashMap<Name, Expr>,
    /// Counter of `if`s, for their labels.
    pub ifs: usize,
}

impl Norm<'_> {
    /// `e` as a body labelled `label`.
    pub fn body(&mut self, label: String, e: &Expr) -> Result<Body> {
        let mut stmts = Vec::new();
        let result = self.atom(e, None, &mut stmts)?;
        Ok(Body {
            label,
            stmts,
            result,
        })
    }

    fn push(
        &mut self,
        hint: Option<&Name>,
        base: &str,
        ty: Type,
        rhs: Rhs,
        out: &mut Vec<St>,
    ) -> Expr {
        let x = match hint {
            Some(h) => h.clone(),
            None => self.supply.fresh(base),
        };
        self.types.insert(x.clone(), ty.clone());
        out.push(St {
            pat: Pat::Var(x.clone()),
            ty,
            rhs,
        });
        var(&x)
    }

    fn flat(
        &mut self,
        hint: Option<&Name>,
        base: &str,
        e: Expr,
        out: &mut Vec<St>,
    ) -> Result<Expr> {
        let ty = type_in(self.types, &e)?;
        Ok(self.push(hint, base, ty, Rhs::Flat(e), out))
    }

    fn atoms(&mut self, es: &[Expr], out: &mut Vec<St>) -> Result<Vec<Expr>> {
        es.iter().map(|e| self.atom(e, None, out)).collect()
    }

    fn bx(&mut self, e: &Expr, out: &mut Vec<St>) -> Result<Box<Expr>> {
        Ok(Box::new(self.atom(e, None, out)?))
    }

    /// The statements computing `e` pushed on `out`; its atom returned. `hint`: the name
    /// of the source `let` binding the value.
    pub fn atom(&mut self, e: &Expr, hint: Option<&Name>, out: &mut Vec<St>) -> Result<Expr> {
        use ExprKind as K;
        Ok(match &e.kind {
            K::Var(n) => self.alias.get(n).cloned().unwrap_or_else(|| e.clone()),
            K::Lit(_) => mk(e.kind.clone()),
            K::Let(Pat::Var(x), v, b) => {
                let a = self.atom(v, Some(x), out)?;
                if a != var(x) {
                    self.alias.insert(x.clone(), a);
                }
                self.atom(b, hint, out)?
            }
            K::Let(Pat::Tuple(xs), v, b) => {
                let a = self.atom(v, None, out)?;
                let ty = type_in(self.types, &a)?;
                let Type::Tuple(ts) = &ty else {
                    return Err(internal(
                        "a tuple pattern binds a value that is not a tuple",
                    ));
                };
                for (x, t) in xs.iter().zip(ts) {
                    self.types.insert(x.clone(), t.clone());
                }
                out.push(St {
                    pat: Pat::Tuple(xs.clone()),
                    ty,
                    rhs: Rhs::Flat(a),
                });
                self.atom(b, hint, out)?
            }
            K::Array(es) => {
                let es = self.atoms(es, out)?;
                self.flat(hint, "arr", mk(K::Array(es)), out)?
            }
            K::Tuple(es) => {
                let es = self.atoms(es, out)?;
                self.flat(hint, "tup", mk(K::Tuple(es)), out)?
            }
            K::Proj(t, k) => {
                let t = self.bx(t, out)?;
                self.flat(hint, "proj", mk(K::Proj(t, *k)), out)?
            }
            K::Unary(op, a) => {
                let a = self.bx(a, out)?;
                self.flat(hint, op.name(), mk(K::Unary(*op, a)), out)?
            }
            K::Binary(op, a, b) => {
                let a = self.bx(a, out)?;
                let b = self.bx(b, out)?;
                self.flat(hint, "t", mk(K::Binary(*op, a, b)), out)?
            }
            K::Prim(p, args) => {
                let args = self.atoms(args, out)?;
                self.flat(hint, "t", mk(K::Prim(p.clone(), args)), out)?
            }
            K::Index(x, is) => {
                let x = self.bx(x, out)?;
                let is = self.atoms(is, out)?;
                self.flat(hint, "ix", mk(K::Index(x, is)), out)?
            }
            K::If(c, a, b) => {
                let cond = self.atom(c, None, out)?;
                self.ifs += 1;
                let k = self.ifs;
                let then_ = self.body(format!("then #{k}"), a)?;
                let else_ = self.body(format!("else #{k}"), b)?;
                let ty = type_in(self.types, &then_.result)?;
                self.push(hint, "if", ty, Rhs::If { cond, then_, else_ }, out)
            }
            K::Map(lam, xs) => {
                let args = self.atoms(xs, out)?;
                let mut tys = Vec::new();
                let mut n = 0;
                for (p, a) in lam.params.iter().zip(&args) {
                    let Type::Array(b, s) = type_in(self.types, a)? else {
                        return Err(internal("a map over a tuple"));
                    };
                    n = s[0];
                    let t = Type::Array(b, s[1..].to_vec());
                    self.types.insert(p.clone(), t.clone());
                    tys.push(t);
                }
                let label = format!("map {}", lam.params.first().map_or("", |p| p.as_str()));
                let body = self.body(label, &lam.body)?;
                let Type::Array(b, s) = type_in(self.types, &body.result)? else {
                    return Err(unsupported(e.span, "map with a tuple result"));
                };
                let ty = Type::Array(b, std::iter::once(n).chain(s).collect());
                let rhs = Rhs::Map {
                    params: lam.params.clone(),
                    tys,
                    body,
                    args,
                };
                self.push(hint, "map", ty, rhs, out)
            }
            K::Loop {
                acc,
                init,
                var: v,
                count,
                body,
            } => self.loop_(hint, acc, init, v, *count, body, out)?,
            K::Reduce(op, ne, xs) => {
                let op = self.op(op);
                let (ne, xs) = (self.bx(ne, out)?, self.bx(xs, out)?);
                let e = mk(K::Reduce(op, ne, xs));
                let ty = type_in(self.types, &e)?;
                self.push(hint, "red", ty, Rhs::Soac(e), out)
            }
            K::Scan(op, ne, xs) => {
                let op = self.op(op);
                let (ne, xs) = (self.bx(ne, out)?, self.bx(xs, out)?);
                let e = mk(K::Scan(op, ne, xs));
                let ty = type_in(self.types, &e)?;
                self.push(hint, "scan", ty, Rhs::Soac(e), out)
            }
            K::ReduceByIndex {
                dest,
                op,
                ne,
                is,
                vs,
            } => {
                let op = self.op(op);
                let dest = self.bx(dest, out)?;
                let ne = self.bx(ne, out)?;
                let is = self.bx(is, out)?;
                let vs = self.bx(vs, out)?;
                let e = mk(K::ReduceByIndex {
                    dest,
                    op,
                    ne,
                    is,
                    vs,
                });
                let ty = type_in(self.types, &e)?;
                self.push(hint, "hist", ty, Rhs::Soac(e), out)
            }
            K::ScatterInto { dest, is, vs } => {
                let dest = self.bx(dest, out)?;
                let is = self.bx(is, out)?;
                let vs = self.bx(vs, out)?;
                let e = mk(K::ScatterInto { dest, is, vs });
                let ty = type_in(self.types, &e)?;
                self.push(hint, "scat", ty, Rhs::Soac(e), out)
            }
            K::Build(..) => return Err(bulk(e, "build")),
            K::Gather(..) => return Err(bulk(e, "gather")),
            K::Scatter(..) => return Err(bulk(e, "scatter")),
            K::Call(f, _) => {
                return Err(internal(format!(
                    "a call of `{f}` in an elaborated program"
                )))
            }
        })
    }

    /// An operator with the aliases substituted into a lambda's body.
    fn op(&self, op: &Op) -> Op {
        match op {
            Op::Lambda(l) => {
                let map: Vec<(Name, Expr)> = free_vars(&l.body)
                    .into_iter()
                    .filter_map(|n| self.alias.get(&n).map(|a| (n, a.clone())))
                    .collect();
                Op::Lambda(Lambda {
                    params: l.params.clone(),
                    body: Box::new(crate::kit::subst::subst(&l.body, &map)),
                })
            }
            o => o.clone(),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn loop_(
        &mut self,
        hint: Option<&Name>,
        acc: &Pat,
        init: &Expr,
        v: &Name,
        count: usize,
        body: &Expr,
        out: &mut Vec<St>,
    ) -> Result<Expr> {
        let init = self.atom(init, None, out)?;
        let ty = type_in(self.types, &init)?;
        self.types.insert(v.clone(), Type::int());
        let mut pre = Vec::new();
        let (names, tys) = match (acc, &ty) {
            (Pat::Tuple(xs), Type::Tuple(ts)) => (xs.clone(), ts.clone()),
            (Pat::Var(a), Type::Tuple(ts)) => {
                let xs: Vec<Name> = ts.iter().map(|_| self.supply.fresh(a)).collect();
                let tup = mk(ExprKind::Tuple(xs.iter().map(|x| var(x)).collect()));
                pre.push(St {
                    pat: Pat::Var(a.clone()),
                    ty: ty.clone(),
                    rhs: Rhs::Flat(tup),
                });
                self.types.insert(a.clone(), ty.clone());
                (xs, ts.clone())
            }
            (Pat::Var(a), t) => (vec![a.clone()], vec![t.clone()]),
            (Pat::Tuple(_), _) => return Err(internal("a tuple accumulator of a non-tuple")),
        };
        for (x, t) in names.iter().zip(&tys) {
            self.types.insert(x.clone(), t.clone());
        }
        let mut body = self.body(format!("loop {v}"), body)?;
        pre.append(&mut body.stmts);
        body.stmts = pre;
        let cps = names
            .iter()
            .map(|x| self.supply.fresh(&format!("cp_{x}")))
            .collect();
        let rhs = Rhs::Loop {
            acc: names,
            tys,
            var: v.clone(),
            count,
            init,
            body,
            cps,
        };
        Ok(self.push(hint, "loop", ty, rhs, out))
    }
}

fn bulk(e: &Expr, what: &str) -> Diagnostic {
    unsupported(
        e.span,
        format!(
            "engine soac's reverse mode differentiates `{what}` after lowering it to SOAC forms \
             (soac::lower), which this program has not been through"
        ),
    )
}

/// The variables a body reads from its enclosing scopes.
pub fn free_of(b: &Body) -> BTreeSet<Name> {
    let mut out = BTreeSet::new();
    let mut bound = BTreeSet::new();
    for st in &b.stmts {
        for v in rhs_free(&st.rhs) {
            if !bound.contains(&v) {
                out.insert(v);
            }
        }
        for n in adora_core::visit::pat_names(&st.pat) {
            bound.insert(n.clone());
        }
    }
    for v in free_vars(&b.result) {
        if !bound.contains(&v) {
            out.insert(v);
        }
    }
    out
}

/// The variables a right-hand side reads from outside it.
pub fn rhs_free(r: &Rhs) -> BTreeSet<Name> {
    match r {
        Rhs::Flat(e) | Rhs::Soac(e) => free_vars(e),
        Rhs::If { cond, then_, else_ } => {
            let mut s = free_vars(cond);
            s.extend(free_of(then_));
            s.extend(free_of(else_));
            s
        }
        Rhs::Map {
            params, body, args, ..
        } => {
            let mut s: BTreeSet<Name> = free_of(body)
                .into_iter()
                .filter(|v| !params.contains(v))
                .collect();
            for a in args {
                s.extend(free_vars(a));
            }
            s
        }
        Rhs::Loop {
            acc,
            var: v,
            init,
            body,
            ..
        } => {
            let mut s: BTreeSet<Name> = free_of(body)
                .into_iter()
                .filter(|x| !acc.contains(x) && x != v)
                .collect();
            s.extend(free_vars(init));
            s
        }
    }
}
