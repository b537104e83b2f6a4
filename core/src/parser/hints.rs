//! Syntax errors with a `help:` line for constructs newcomers write from other array
//! languages (docs/language.md, "Help in error messages"): `x ** 2` (write `pow(x, 2)`),
//! slices `x[1:3]` (write a `gather`), and `max(x)` / `min(x)` with one argument (write
//! a `reduce`). Each hint quotes the program's own text.

use super::{syntax, Parser};
use crate::ast::{Expr, ExprKind, Lit, UnOp};
use crate::diag::{Diagnostic, Span};
use crate::lexer::Tok;
use num_bigint::BigInt;

/// The integer value of a literal expression (`3`, `-3`), if it is one.
fn int_value(e: &Expr) -> Option<BigInt> {
    match &e.kind {
        ExprKind::Lit(Lit::Int(n)) => Some(n.clone()),
        ExprKind::Unary(UnOp::Neg, x) => int_value(x).map(|n| -n),
        _ => None,
    }
}

impl Parser<'_> {
    /// The error at `x *` followed by a second `*` (the current token): `**` is not an
    /// operator; the help writes `pow(x, k)` with the operands as written.
    #[cold]
    #[inline(never)]
    pub(super) fn power_operator(&mut self, base: Span, first_star: Span) -> Box<Diagnostic> {
        let second = self.bump().span;
        let mut d = syntax(
            first_star.to(second),
            "`**` is not an operator: powers are written `pow(x, k)`",
        );
        let x = self.text(base).to_string();
        let help = match self.expr_prec(super::exprs::UNARY) {
            Ok(k) if int_value(&k).is_some() => {
                format!("write `pow({x}, {})`", self.text(k.span))
            }
            Ok(k) => format!(
                "the exponent of `pow({x}, k)` is a static integer literal; for `{}` as a real exponent write `exp({} * log({x}))` (f64 mode)",
                self.text(k.span),
                self.text(k.span)
            ),
            Err(_) => format!("write `pow({x}, k)` with a static integer literal `k`"),
        };
        d.help.push(help);
        d
    }

    /// The error at a `:` (the current token) inside the brackets of `x[...]`: slices are
    /// not part of the language; the help writes the equivalent `gather` (`start` is the
    /// index before the `:`, if any; `lead` how many indices came before it).
    #[cold]
    #[inline(never)]
    pub(super) fn slice(&mut self, x: &Expr, start: Option<&Expr>, lead: usize) -> Box<Diagnostic> {
        let colon = self.bump().span;
        let end = match self.peek() {
            Tok::RBracket => None,
            _ => self.expr_prec(0).ok(),
        };
        let xs = self.text(x.span).to_string();
        let mut d = syntax(colon, "slices `x[a:b]` are not supported: use `gather`");
        let a = start.map_or(Some(BigInt::from(0)), int_value);
        let b = end.as_deref().and_then(int_value);
        let offset = |a: &BigInt| {
            if *a == BigInt::from(0) {
                "[i]".to_string()
            } else {
                format!("[i + {a}]")
            }
        };
        let help = match (lead, a, b, &end) {
            (0, Some(a), Some(b), _) => {
                let n = (&b - &a).max(BigInt::from(0));
                let at = offset(&a);
                format!("write `gather([{n}], {xs}, i => {at})`: element i of the result is {xs}{at}")
            }
            (0, Some(a), None, None) => format!(
                "write `gather([N - {a}], {xs}, i => {})`, with N the length of `{xs}` (sizes are static literals)",
                offset(&a)
            ),
            _ => format!(
                "write `gather([n], {xs}, i => [...])`: n elements (a static size), element i read at the index you give (e.g. `i => [i + a]` for {xs}[a:a+n])"
            ),
        };
        d.help.push(help);
        d
    }

    /// The help for `max(x)` / `min(x)` with one argument `x` (the error is `d`).
    pub(super) fn reduction_help(&self, name: &str, args: &[Expr], d: &mut Diagnostic) {
        if !matches!(name, "max" | "min") || args.len() != 1 {
            return;
        }
        let x = self.text(args[0].span);
        let which = if name == "max" { "largest" } else { "smallest" };
        d.help.push(format!(
            "`{name}` takes two arrays (elementwise); the {which} element of a non-empty `{x}` is `reduce({name}, {x}[0], {x})`: the neutral element `{x}[0]` is itself an element, so it never changes the result (an empty array reduces to the neutral element)"
        ));
    }
}
