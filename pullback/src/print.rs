//! The concrete syntax of the pullback calculus, printed (docs/engines/pullback.md,
//! "Concrete syntax"); the parser reads every printed term back to an α-equivalent term.
//!
//! | level (loosest first) | forms |
//! |---|---|
//! | term | `\x. s`, `\x: σ. s`, `let x = s in t` (extend as far right as possible) |
//! | sum | `s + t + …` |
//! | application | `s t u` (left-associative) |
//! | postfix | `s.0`, `s.1` |
//! | atom | `x`, `3`, `-1/2`, `add`, `pow<3>`, `zero`, `(s, t)`, `(s)`, `J(s, t)`, `dual(s, t)`, `pb(s, t)` |
//!
//! Types: `R`, `(σ, τ)`, `σ -> τ` (right-associative), `dual σ` (binds tighter than `->`).
//!
//! Variables print as their name; when one name is used by binders with different ids in
//! the same term, each non-free occurrence prints as `name'id` so the printed term keeps
//! its binding structure.

use crate::syntax::{Term, TermKind, Ty, Var};
use num_traits::{One, Signed};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A type in the concrete syntax.
pub fn ty(t: &Ty) -> String {
    let mut s = String::new();
    write_ty(&mut s, t, false);
    s
}

fn write_ty(out: &mut String, t: &Ty, in_arrow_left: bool) {
    match t {
        Ty::Real => out.push('R'),
        Ty::Pair(a, b) => {
            out.push('(');
            write_ty(out, a, false);
            out.push_str(", ");
            write_ty(out, b, false);
            out.push(')');
        }
        Ty::Fun(a, b) => {
            if in_arrow_left {
                out.push('(');
            }
            write_ty(out, a, true);
            out.push_str(" -> ");
            write_ty(out, b, false);
            if in_arrow_left {
                out.push(')');
            }
        }
        Ty::Dual(a) => {
            out.push_str("dual ");
            match **a {
                Ty::Fun(..) | Ty::Dual(_) => {
                    out.push('(');
                    write_ty(out, a, false);
                    out.push(')');
                }
                _ => write_ty(out, a, false),
            }
        }
    }
}

/// A term in the concrete syntax.
pub fn term(t: &Term) -> String {
    let mut ids: BTreeMap<String, BTreeSet<u32>> = BTreeMap::new();
    t.for_each_var(&mut |v| {
        ids.entry(v.name.to_string()).or_default().insert(v.id);
    });
    let p = Printer { ids };
    let mut s = String::new();
    p.term(&mut s, t, Level::Term);
    s
}

/// Precedence levels, loosest first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Term,
    Sum,
    App,
    Postfix,
    Atom,
}

struct Printer {
    ids: BTreeMap<String, BTreeSet<u32>>,
}

impl Printer {
    fn var(&self, out: &mut String, v: &Var) {
        out.push_str(&v.name);
        let ambiguous = self.ids.get(&*v.name).is_some_and(|s| s.len() > 1);
        if ambiguous && v.id != 0 {
            out.push_str(&format!("'{}", v.id));
        }
    }

    fn term(&self, out: &mut String, t: &Term, ctx: Level) {
        let own = level(t);
        let paren = own < ctx;
        if paren {
            out.push('(');
        }
        match &t.kind {
            TermKind::Var(v) => self.var(out, v),
            TermKind::Num(r) => {
                out.push_str(&r.numer().to_string());
                if !r.denom().is_one() {
                    out.push('/');
                    out.push_str(&r.denom().abs().to_string());
                }
            }
            TermKind::Fn(f) => out.push_str(&f.name()),
            TermKind::Zero => out.push_str("zero"),
            TermKind::Lam(x, ann, body) => {
                out.push('\\');
                self.var(out, x);
                if let Some(a) = ann {
                    out.push_str(": ");
                    write_ty(out, a, false);
                }
                out.push_str(". ");
                self.term(out, body, Level::Term);
            }
            TermKind::Let(x, s, body) => {
                out.push_str("let ");
                self.var(out, x);
                out.push_str(" = ");
                self.term(out, s, Level::Term);
                out.push_str(" in ");
                self.term(out, body, Level::Term);
            }
            TermKind::Sum(ts) => {
                for (i, s) in ts.iter().enumerate() {
                    if i > 0 {
                        out.push_str(" + ");
                    }
                    self.term(out, s, Level::App);
                }
            }
            TermKind::App(f, a) => {
                self.term(out, f, Level::App);
                out.push(' ');
                self.term(out, a, Level::Postfix);
            }
            TermKind::Proj(s, second) => {
                // A numeral before `.i` is parenthesised: `3.0` would read as a decimal.
                let ctx = if matches!(s.kind, TermKind::Num(_)) {
                    Level::Atom
                } else {
                    Level::Postfix
                };
                self.term(out, s, ctx);
                out.push_str(if *second { ".1" } else { ".0" });
            }
            TermKind::Pair(a, b) => self.binary(out, "", a, b),
            TermKind::Jac(a, b) => self.binary(out, "J", a, b),
            TermKind::Dual(a, b) => self.binary(out, "dual", a, b),
            TermKind::Pb(a, b) => self.binary(out, "pb", a, b),
        }
        if paren {
            out.push(')');
        }
    }

    fn binary(&self, out: &mut String, head: &str, a: &Term, b: &Term) {
        out.push_str(head);
        out.push('(');
        self.term(out, a, Level::Term);
        out.push_str(", ");
        self.term(out, b, Level::Term);
        out.push(')');
    }
}

/// The precedence level a term's outermost form needs.
fn level(t: &Term) -> Level {
    match &t.kind {
        TermKind::Lam(..) | TermKind::Let(..) => Level::Term,
        TermKind::Sum(_) => Level::Sum,
        TermKind::App(..) => Level::App,
        TermKind::Proj(..) => Level::Postfix,
        // A numeral is one token but sits below the atoms: before a `.i` projection it is
        // parenthesised (`(3).0`, `(-1/2).1`), since `3.0` reads as a decimal.
        TermKind::Num(_) => Level::Postfix,
        _ => Level::Atom,
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&term(self))
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&ty(self))
    }
}
